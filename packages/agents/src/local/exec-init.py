# The last stage of one exec in the local runtime, appended to the sandbox launcher's library
# (../sandbox/launcher.py). It runs as PID 1 of the exec's namespaces, as their root, and:
#   1. builds the private root: read-only system folders and programs, the runtime's /etc, /dev
#      nodes, a fresh /proc, and the runtime's folders read-write (/workspace, the home, /tmp);
#   2. brings up loopback and listens, on the addresses the runtime's /etc/hosts gives the allowed
#      hosts, for connections that it relays to the host's forwarder through the runtime's sockets
#      (opened before the pivot and never shown to the program);
#   3. forks the program: in a user namespace of its own it is an ordinary user (uid 1000, no
#      capabilities), may make no namespace, is bound by the limits and the system-call filter,
#      and its session is its own;
#   4. relays connections and reaps processes until the program ends; then it reports how on its
#      status pipe (fd 3) and exits, and the kernel ends every other process of the namespace.
# Arguments: argv[1] is the JSON config (see local/exec-config.ts).
import errno
import json
import os
import selectors
import signal
import socket
import struct
import threading

STATUS_FD = 3
PROGRAM_STDERR_FD = 4
MAX_CONNECTIONS = 256
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
RTM_NEWADDR, NLM_F_REQUEST, NLM_F_ACK, NLM_F_CREATE, NLM_F_EXCL = 20, 1, 4, 0x400, 0x200
IFA_LOCAL, IFA_ADDRESS = 2, 1


def report(message):
    os.write(STATUS_FD, (json.dumps(message) + "\n").encode())


library_fail = fail


def fail(what, detail):
    """Every setup step's failure (the library's checks call this) is also said on the status pipe."""
    report({"type": "setup_failed", "error": f"{what} failed: {detail}"})
    library_fail(what, detail)


class ProgramSetupFailed(Exception):
    pass


def fail_in_program(what, detail):
    raise ProgramSetupFailed(f"{what} failed: {detail}")


def build_root(config):
    root = config["root"]
    make_root(root, forbid=False)
    for path in config["mirrors"]:
        if os.path.lexists(path):
            mirror(root, path)
    for program in config["programs"]:
        for path in program_paths(program):
            mirror(root, path)
    add_dev_nodes(root)
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        os.symlink(f"/proc/self/fd/{fd}", f"{root}/dev/{name}")
    os.symlink("/proc/self/fd", f"{root}/dev/fd")
    for entry in config["binds"]:
        bind_at(root, entry["host"], entry["inside"], entry["writable"])
    for path in config["etc_mirrors"]:
        if os.path.exists(path):
            bind_at(root, os.path.realpath(path), path, writable=False)
    # Last, so that a path under the sandbox's own folders (its /tmp) is shown too.
    for path in config["read_only"]:
        mirror(root, path)
    os.makedirs(root + "/proc", exist_ok=True)
    mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    # The forwarder's sockets, reachable through this descriptor alone once the host's root is gone.
    net_fd = os.open(config["net"]["dir"], os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    pivot_into(root)
    return net_fd


def loopback_up():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        import fcntl
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def add_address(address):
    """Gives loopback one more address (an allowed host's literal IP that is not a loopback one),
    by an RTM_NEWADDR netlink message."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    packed = socket.inet_pton(family, address)
    prefix = 128 if family == socket.AF_INET6 else 32
    index = socket.if_nametoindex("lo")
    attrs = b""
    for kind in (IFA_LOCAL, IFA_ADDRESS):
        attrs += struct.pack("HH", 4 + len(packed), kind) + packed
    body = struct.pack("BBBBI", family, prefix, 0, 0xFE, index) + attrs  # scope host
    flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL
    message = struct.pack("IHHII", 16 + len(body), RTM_NEWADDR, flags, 1, 0) + body
    with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0) as s:
        s.bind((0, 0))
        s.send(message)
        answer = s.recv(4096)
        error = struct.unpack("i", answer[16:20])[0] if len(answer) >= 20 else 0
        if error not in (0, -errno.EEXIST):
            fail(f"adding {address} to loopback", os.strerror(-error))


def listen(config):
    listeners = []
    for entry in config["net"]["listen"]:
        family = socket.AF_INET6 if ":" in entry["address"] else socket.AF_INET
        s = socket.socket(family, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        try:
            s.bind((entry["address"], entry["port"]))
        except OSError as error:
            fail(f"listening on {entry['address']}:{entry['port']}", error)
        s.listen(64)
        s.setblocking(False)
        listeners.append((s, entry["socket"]))
    return listeners


def pump(source, target, done):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
        target.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    finally:
        done()


class Relay:
    """One allowed connection: the program's end inside, the forwarder's socket outside."""

    open_count = 0
    lock = threading.Lock()

    def __init__(self, client, upstream):
        self.ends = (client, upstream)
        self.left = 2
        threading.Thread(target=pump, args=(client, upstream, self.done), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client, self.done), daemon=True).start()

    def done(self):
        with Relay.lock:
            self.left -= 1
            last = self.left == 0
            if last:
                Relay.open_count -= 1
        if last:
            for end in self.ends:
                end.close()


def accept(listener, socket_name, net_fd):
    try:
        client, _ = listener.accept()
    except OSError:
        return
    with Relay.lock:
        if Relay.open_count >= MAX_CONNECTIONS:
            client.close()
            return
        Relay.open_count += 1
    client.setblocking(True)
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(f"/proc/self/fd/{net_fd}/{socket_name}")
    except OSError:
        with Relay.lock:
            Relay.open_count -= 1
        client.close()
        upstream.close()
        return
    Relay(client, upstream)


def enter_user_namespace(uid, gid):
    """A user namespace of the program's own, where it is `uid` and has no power over the mounts,
    the network or this init."""
    CLONE_NEWUSER = 0x10000000
    check(libc.unshare(CLONE_NEWUSER), "making the program's user namespace")
    for path, text in (("uid_map", f"{uid} 0 1"), ("setgroups", "deny"), ("gid_map", f"{gid} 0 1")):
        try:
            with open(f"/proc/self/{path}", "w") as f:
                f.write(text)
        except OSError as error:
            fail(f"writing {path}", error)


def run_program(config, error_write):
    """In the forked child: confine and execute the program; on failure, say why on `error_write`."""
    global fail
    fail = fail_in_program
    try:
        os.setsid()
        enter_user_namespace(config["uid"], config["gid"])
        forbid_namespaces()
        limit_resources(config["limits"])
        for number in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError):
                pass  # signals the C library keeps for itself
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        drop_privileges()
        os.chdir(config["exec"]["cwd"])
        install_filter(config["syscall_filter"])
        os.dup2(PROGRAM_STDERR_FD, 2)
        os.closerange(STATUS_FD, error_write)
        os.closerange(error_write + 1, 65536)
        argv = config["exec"]["argv"]
        os.execvpe(argv[0], argv, config["exec"]["env"])
    except OSError as error:
        os.write(error_write, json.dumps({"type": "exec_failed", "error": error.strerror}).encode())
    except BaseException as error:  # anything else is the confinement failing
        os.write(error_write, json.dumps({"type": "setup_failed", "error": str(error)}).encode())
    os._exit(127)


def main():
    start_session()
    config = json.loads(sys.argv[1])
    net_fd = build_root(config)
    set_hostname(config["hostname"])
    loopback_up()
    for address in config["net"]["addresses"]:
        add_address(address)
    listeners = listen(config)
    # Nothing the program does reaches this process's memory or descriptors (ptrace is filtered,
    # and a process that is not dumpable keeps its /proc files to itself).
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    # PID 1 gets only the signals it handles: these must not end it from inside.
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(number, signal.SIG_IGN)
    error_read, error_write = os.pipe2(os.O_CLOEXEC)
    child = os.fork()
    if child == 0:
        os.close(error_read)
        run_program(config, error_write)
    os.close(error_write)
    # The program's pipes are its own: the exec ends with the program, not with them.
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, PROGRAM_STDERR_FD):
        os.dup2(null, fd)
    os.close(null)
    failure = b""
    while chunk := os.read(error_read, 4096):
        failure += chunk
    os.close(error_read)
    report(json.loads(failure) if failure else {"type": "started"})
    selector = selectors.DefaultSelector()
    selector.register(wake_read, selectors.EVENT_READ, None)
    for listener, socket_name in listeners:
        selector.register(listener, selectors.EVENT_READ, socket_name)
    while True:
        for key, _ in selector.select():
            if key.data is not None:
                accept(key.fileobj, key.data, net_fd)
                continue
            try:
                while os.read(wake_read, 512):
                    pass
            except BlockingIOError:
                pass
            while True:
                try:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    pid, status = child, 0
                if pid == 0:
                    break
                if pid == child:
                    if os.WIFSIGNALED(status):
                        report({"type": "signal", "signal": os.WTERMSIG(status)})
                        os._exit(128 + os.WTERMSIG(status))
                    code = os.WEXITSTATUS(status)
                    if not failure:
                        report({"type": "exit", "code": code})
                    os._exit(code)


main()
