# The sandbox's REPL: PID 1 of its namespaces, already confined by the launcher. It reads one JSON
# request a line ({"code": ..., "seconds": ...}) and answers one JSON line per request on a
# private pipe. A per-call timer interrupts code that runs past `seconds` (the host kills the whole
# sandbox only when the code does not stop, e.g. stuck inside a C call or ignoring the signal).
# Code runs in one persistent namespace, so variables survive between calls. A call lasts until
# the threads it started have ended, within the same time limit; threads still running then are
# counted in the answer, and the host restarts the sandbox, since a thread cannot be stopped alone.
# The code's stdout and stderr go to an in-memory file read back after the call (bounded by the
# file-size limit). After each call every other process in the namespace is killed and reaped (the
# host checks: a process still there, the code having undone this, ends the whole sandbox).
# Failures are classified by the limit they hit, so the model is told what stopped its code.
# Argument: argv[1] is the JSON config the launcher got, with the output file's descriptor added.
import _thread
import ast
import builtins
import errno
import json
import linecache
import os
import signal
import socket
import sys
import time
import traceback

config = json.loads(sys.argv[1])
WORKER_PID = os.getpid()
MAX_OUTPUT_BYTES = config["max_output_bytes"]
# An exception's message and traceback are cut to this many characters, so that every answer stays
# far below the size the host accepts (it treats a longer line as the code writing to the pipe).
MAX_ERROR_CHARS = 16 * 1024

# The protocol's pipes move to private descriptors (closed on exec) so that the code can neither
# read the next request nor reach the host through inherited descriptors.
requests = os.fdopen(os.dup(0), "rb")
responses = os.dup(3)
os.close(3)
null = os.open("/dev/null", os.O_RDWR)
os.dup2(null, 0)
os.close(null)
# The code's stdout and stderr: an in-memory file the launcher made (the filter refuses new ones).
output = config["output_fd"]


class TimeLimitExceeded(BaseException):
    """Raised in the code when a call reaches its time limit (SIGALRM from a per-call timer). A
    BaseException, so that `except Exception` in the code does not swallow it."""


def on_time_limit(_signum, _frame):
    raise TimeLimitExceeded()


signal.signal(signal.SIGALRM, on_time_limit)
# Past the file-size limit, writes fail with EFBIG instead of killing the process.
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

namespace = {"__name__": "__main__", "__builtins__": builtins}


def limit_note(error, seconds):
    """Which limit an exception shows was hit, as a sentence for the model; None for plain errors."""
    mb = config["memory_bytes"] // (1 << 20)
    if isinstance(error, TimeLimitExceeded):
        return f"time limit reached: a call may run {seconds:g} s (the sandbox and its variables live on)"
    if isinstance(error, MemoryError):
        return f"memory limit reached: each process in the sandbox may use {mb} MB of address space"
    if isinstance(error, RuntimeError) and "can't start new thread" in str(error):
        return f"process limit reached: at most {config['max_processes']} processes and threads"
    if isinstance(error, (socket.gaierror, socket.herror)):
        return "no network: the sandbox cannot resolve names or reach any host"
    if isinstance(error, OSError):
        if error.errno == errno.EAGAIN and isinstance(error, BlockingIOError):
            return f"process limit reached: at most {config['max_processes']} processes and threads"
        if error.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ECONNREFUSED, errno.EADDRNOTAVAIL):
            return "no network: the sandbox cannot reach any host, not even this machine"
        if error.errno == errno.EFBIG:
            return f"file size limit reached: a file may hold {config['max_file_bytes'] // (1 << 20)} MB"
        if error.errno == errno.EMFILE:
            return f"open file limit reached: at most {config['max_open_files']} open files"
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return "not permitted: only /sandbox (the working folder) is writable, and privileged calls are refused"
        if error.errno == errno.ENOENT and str(getattr(error, "filename", "") or "").startswith("/") \
                and not str(error.filename).startswith("/sandbox"):
            return "not found: the sandbox sees only /sandbox (the working folder) and Python's standard library"
    return None


def run(code):
    """Runs `code` in the persistent namespace; a final expression's value is printed as in a REPL."""
    # Tracebacks quote the code's lines, as they would from a file.
    linecache.cache["<code>"] = (len(code), None, code.splitlines(True), "<code>")
    tree = ast.parse(code, "<code>", "exec")
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, "<code>", "exec"), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), "<code>", "eval"), namespace)
        if value is not None:
            print(repr(value))


def code_traceback(error):
    """The traceback from the code's first frame on (the worker's own frames left out), at most 20
    lines from its end."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != "<string>"]
    head = ["Traceback (most recent call last):\n", *traceback.format_list(frames)] if frames else []
    lines = "".join(head + traceback.format_exception_only(type(error), error)).splitlines()
    text = "\n".join(lines[-20:])
    return text if len(text) <= MAX_ERROR_CHARS else "[traceback cut]\n" + text[-MAX_ERROR_CHARS:]


def error_line(error):
    """The exception as "Name: message", the message cut to MAX_ERROR_CHARS."""
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS] + " [cut]"


def wait_for_threads():
    """Waits until every thread the code started has ended. Interrupted by the call's timer like the
    code itself. Joining a `threading` thread wakes on its end; threads of the low-level `_thread`
    module are polled."""
    threading = sys.modules.get("threading")
    while _thread._count() > 0:
        # Threads made elsewhere that merely called into Python ("dummy" ones) cannot be joined.
        others = [t for t in threading.enumerate() if t is not threading.main_thread()
                  and not isinstance(t, threading._DummyThread)] if threading else []
        if others:
            others[0].join()
        else:
            time.sleep(0.002)


def run_call(code):
    """Runs the code, then waits for its threads; returns the code's own exception, if any. A time
    limit reached while waiting is raised."""
    error = None
    try:
        run(code)
    except SystemExit:
        pass
    except BaseException as caught:  # the code's own failure, reported to the model
        error = caught
    if os.getpid() != WORKER_PID:
        os._exit(0)  # a process the code forked finished the code: it must not answer
    if not isinstance(error, TimeLimitExceeded):
        wait_for_threads()
    return error


def read_output():
    size = os.fstat(output).st_size
    data = os.pread(output, MAX_OUTPUT_BYTES, 0)
    return data.decode("utf-8", "replace"), size


def kill_strays():
    """Kills every process the code left behind (PID 1 is spared by kill(-1)) and reaps them."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
        except InterruptedError:
            continue


def handle(request):
    os.ftruncate(output, 0)
    os.lseek(output, 0, os.SEEK_SET)
    os.dup2(output, 1)
    os.dup2(output, 2)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    error = None
    try:
        signal.setitimer(signal.ITIMER_REAL, request["seconds"])
        error = run_call(request["code"])
    except TimeLimitExceeded:
        pass  # the time ran out while the code's threads ran on: they are counted below
    finally:
        if os.getpid() != WORKER_PID:
            os._exit(0)
        signal.setitimer(signal.ITIMER_REAL, 0)
    threads = _thread._count()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    kill_strays()
    text, size = read_output()
    answer = {"type": "ok", "output": text, "output_bytes": size, "threads": threads}
    if error is not None:
        answer = {
            "type": "error",
            "output": text,
            "output_bytes": size,
            "threads": threads,
            "error": error_line(error),
            "traceback": code_traceback(error),
            "limit": limit_note(error, request["seconds"]),
        }
    return answer


def send(answer):
    os.write(responses, (json.dumps(answer) + "\n").encode())


send({"type": "ready", "pid": WORKER_PID, "python": sys.version.split()[0]})
for line in requests:
    try:
        answer = handle(json.loads(line))
    except BaseException as failure:  # a fault of the worker itself, not of the code
        answer = {"type": "worker_error", "error": f"{type(failure).__name__}: {failure}"}
    send(answer)
