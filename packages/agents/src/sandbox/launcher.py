# The first stage of every vf sandbox, as a library: the python environment's REPL and the agents'
# local runtime each append a last stage that calls these functions and then runs their program.
# It runs as root of a fresh user namespace (with its own mount, PID, network, IPC and UTS
# namespaces, made by `unshare`) and, before any untrusted code exists:
#   1. builds a private root: an empty tmpfs holding read-only binds of what the program needs (its
#      interpreter, shared libraries and loader, or whole system folders), a few /dev nodes, and
#      read-write binds of the rollout's folders; nothing else of the host is reachable;
#   2. pivots into it, detaches the old root and makes the new root read-only;
#   3. sets the resource limits (address space, processes, file size, open files, no core dumps);
#   4. forbids new namespaces of every kind in its user namespace (the kernel's per-namespace counts,
#      set to 0) and drops every capability (bounding set, ambient set, no_new_privs), so the code
#      cannot mount, chroot or change ids, nor make a nested user namespace in which it would regain
#      those powers;
#   5. installs the system-call filter the host built (syscall-filter.ts), which refuses the same
#      calls again and more, and which the code cannot remove.
# Every failure prints one line "vf-sandbox: <what> failed: <why>" and exits with status 111.
import ctypes
import os
import resource
import sys

SETUP_FAILED = 111
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_BIND = 32, 1024, 2048, 4096
MS_REC, MS_PRIVATE, MS_RELATIME = 16384, 1 << 18, 1 << 21
MNT_DETACH = 2
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 24, 38, 47, 4
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
NAMESPACE_KINDS = ("user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time")
# statvfs flag -> mount flag that a bind's read-only remount must keep (the kernel refuses to drop
# them inside a user namespace).
LOCKED_FLAGS = [(2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC), (1024, MS_NOATIME),
                (2048, MS_NODIRATIME), (4096, MS_RELATIME)]
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}
DEV_NODES = ("null", "zero", "random", "urandom")

libc = ctypes.CDLL(None, use_errno=True)
# Paths inside the root that show the host's same path (see `mirror`).
MIRRORED = set()


def fail(what, detail):
    sys.stderr.write(f"vf-sandbox: {what} failed: {detail}\n")
    sys.stderr.flush()
    os._exit(SETUP_FAILED)


def check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        fail(what, f"{os.strerror(err)} (errno {err})")


def start_session():
    """unshare, outside the namespace, shares the process group we were forked into: a signal to
    the code's own group (kill(0, SIGSTOP)) would stop it, and with it the host's wait for the
    sandbox. A session of our own leaves every group the code can name inside the namespace."""
    if os.getsid(0) != os.getpid():  # (a leader already, when run without unshare's fork)
        try:
            os.setsid()
        except OSError as error:
            fail("starting a session of its own", error)


def mount(source, target, fstype, flags, data=None, what=None):
    enc = lambda s: None if s is None else s.encode()
    check(libc.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)),
          what or f"mounting {source or fstype} on {target}")


def bind(host, inside, writable):
    mount(host, inside, None, MS_BIND | MS_REC)
    locked = sum(ms for st, ms in LOCKED_FLAGS if os.statvfs(host).f_flag & st)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | locked | (0 if writable else MS_RDONLY)
    mount(None, inside, None, flags, what=f"making {inside} read-only" if not writable else None)


def mirror(root, path, writable=False):
    """Makes `path` exist inside `root` exactly as on the host, symlinks and all, and binds its
    final target there (skipped when an earlier mirror already shows it; a folder of the sandbox's
    own on the way, such as its /tmp, gets the folders that lead to it)."""
    todo = [p for p in path.split("/") if p]
    current, hops = "/", 0
    while todo:
        name = todo.pop(0)
        if name == ".":
            continue
        if name == "..":
            current = os.path.dirname(current)
            continue
        host = os.path.join(current, name)
        inside = root + host
        if os.path.islink(host):
            hops += 1
            if hops > 40:
                fail(f"resolving {path}", "too many symbolic links")
            target = os.readlink(host)
            if not os.path.lexists(inside):
                os.symlink(target, inside)
            todo = [p for p in target.split("/") if p] + todo
            current = "/" if target.startswith("/") else current
            continue
        if todo:
            if not os.path.isdir(inside):
                os.mkdir(inside)
            current = host
            continue
        if covered(root, inside):
            return  # an earlier bind already shows this path
        if os.path.isdir(host):
            os.makedirs(inside, exist_ok=True)
        elif not os.path.lexists(inside):
            open(inside, "w").close()
        bind(host, inside, writable)
        MIRRORED.add(inside)


def bind_at(root, host, inside, writable):
    """Binds the host's folder (or file) `host` at the path `inside` of the sandbox."""
    target = root + inside
    if os.path.isdir(host):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            open(target, "w").close()
    bind(host, target, writable)


def covered(root, inside):
    """Whether `inside` or a folder above it (below `root`) already mirrors the host's."""
    path = inside
    while len(path) > len(root):
        if path in MIRRORED:
            return True
        path = os.path.dirname(path)
    return False


def elf_interpreter(executable):
    """The dynamic loader named in the executable's PT_INTERP header, or None (static build)."""
    with open(executable, "rb") as f:
        data = f.read(1 << 16)
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return None
    phoff = int.from_bytes(data[32:40], "little")
    phentsize = int.from_bytes(data[54:56], "little")
    phnum = int.from_bytes(data[56:58], "little")
    for i in range(phnum):
        entry = data[phoff + i * phentsize: phoff + (i + 1) * phentsize]
        if int.from_bytes(entry[0:4], "little") == 3:  # PT_INTERP
            offset = int.from_bytes(entry[8:16], "little")
            size = int.from_bytes(entry[32:40], "little")
            return data[offset: offset + size].rstrip(b"\0").decode()
    return None


def program_paths(program):
    """A program's real file, and its dynamic loader with the folder beside the loader's real file,
    where the system's shared libraries are (Debian's multiarch folder, or /usr/lib64 elsewhere)."""
    executable = os.path.realpath(program)
    paths = [executable]
    interpreter = elf_interpreter(executable)
    if interpreter:
        paths += [os.path.dirname(os.path.realpath(interpreter)), interpreter]
    return [p for p in dict.fromkeys(paths) if os.path.exists(p)]


def make_root(root, forbid=True):
    """Makes the mount tree private and mounts the empty tmpfs the sandbox's root is built on.
    With `forbid`, also forbids new namespaces here, while the host's /proc is still reachable (a
    last stage that makes one more namespace of its own forbids them there instead)."""
    mount(None, "/", None, MS_REC | MS_PRIVATE, what="making the mount tree private")
    if forbid:
        forbid_namespaces()
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")


def add_dev_nodes(root):
    os.makedirs(root + "/dev", exist_ok=True)
    for node in DEV_NODES:
        open(f"{root}/dev/{node}", "w").close()
        bind(f"/dev/{node}", f"{root}/dev/{node}", writable=True)


def pivot_into(root):
    """Makes `root` the root of the mount namespace, detaches the host's and makes the new one
    read-only: nothing of the host but what was bound into `root` exists afterwards."""
    os.mkdir(root + "/.old-root")
    arch = os.uname().machine
    if arch not in SYS_PIVOT_ROOT:
        fail("pivot_root", f"unsupported architecture {arch}")
    os.chdir(root)
    check(libc.syscall(SYS_PIVOT_ROOT[arch], b".", b".old-root"), "pivot_root")
    os.chdir("/")
    check(libc.umount2(b"/.old-root", MNT_DETACH), "detaching the host's root")
    os.rmdir("/.old-root")
    mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
          what="making the new root read-only")


def set_hostname(name):
    """The UTS namespace starts with the host's name; give it its own."""
    encoded = name.encode()
    check(libc.sethostname(encoded, len(encoded)), "setting the host name")


# The limits a config may set, by its key: address space, writable memory (what a program uses,
# without the address space it only reserves, as V8 and WebAssembly do), processes and threads,
# file size, open files.
LIMITS = {
    "memory_bytes": resource.RLIMIT_AS,
    "data_bytes": resource.RLIMIT_DATA,
    "max_processes": resource.RLIMIT_NPROC,
    "max_file_bytes": resource.RLIMIT_FSIZE,
    "max_open_files": resource.RLIMIT_NOFILE,
}


def limit_resources(config):
    """Sets the limits `config` names (see LIMITS), and no core dumps."""
    limits = [(kind, config[key]) for key, kind in LIMITS.items() if config.get(key) is not None]
    for kind, value in limits + [(resource.RLIMIT_CORE, 0)]:
        try:
            resource.setrlimit(kind, (value, value))
        except (OSError, ValueError) as error:
            fail(f"setting resource limit {kind}", error)


def forbid_namespaces():
    """Sets this user namespace's limits on new namespaces to 0 (written through /proc, which must
    be mounted; the kernel applies the value of the writer's own user namespace). A kind this
    kernel does not have needs no limit."""
    for kind in NAMESPACE_KINDS:
        path = f"/proc/sys/user/max_{kind}_namespaces"
        if not os.path.exists(path):
            continue
        try:
            with open(path, "w") as f:
                f.write("0")
        except OSError as error:
            fail(f"forbidding new {kind} namespaces", error)


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_filter(program_hex):
    program = bytes.fromhex(program_hex)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0),
          "installing the system-call filter")


def drop_privileges():
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    check(libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clearing ambient capabilities")
    cap = 0
    while libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0:
        cap += 1
    if cap == 0:
        fail("dropping capabilities", os.strerror(ctypes.get_errno()))
