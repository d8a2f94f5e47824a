# The python sandbox's last stage, appended to the sandbox launcher's library (launcher.py of
# @vf-rl/agents/sandbox, which says what each step does). As root of the sandbox's fresh
# namespaces, before any untrusted code exists, it:
#   1. builds a private root: read-only binds of the Python runtime (the interpreter, its standard
#      library, its shared libraries and loader), a few /dev nodes, and a read-write bind of the
#      rollout's folder at /sandbox; pivots into it and makes it read-only;
#   2. names the host "sandbox", sets the resource limits and drops every capability;
#   3. makes the worker's output file (a memfd: the filter refuses them to the code), then installs
#      the system-call filter;
#   4. executes the worker (the REPL loop) as PID 1 of the namespace, in a session of its own.
# Arguments: argv[1] is a JSON config, argv[2] the worker's source.
import json


def runtime_paths(config):
    """The interpreter, its standard library (with lib-dynload), and its dynamic loader with the
    folder of the system's shared libraries beside it. Found without importing sysconfig, to start
    fast."""
    executable = os.path.realpath(config["python"])
    return executable, list(dict.fromkeys(program_paths(executable) + [os.path.dirname(os.__file__)]))


def build_root(config):
    root = config["root"]
    make_root(root)
    executable, paths = runtime_paths(config)
    for path in paths:
        mirror(root, path)
    add_dev_nodes(root)
    os.mkdir(root + "/sandbox")
    bind(config["work"], root + "/sandbox", writable=True)
    pivot_into(root)
    return executable


def main():
    start_session()
    config = json.loads(sys.argv[1])
    worker_source = sys.argv[2]
    executable = build_root(config)
    set_hostname("sandbox")
    limit_resources(config)
    drop_privileges()
    # The worker's in-memory file for the code's output, made here because the filter refuses
    # memfd_create (bounded by the file-size limit like any file; not closed on exec).
    config["output_fd"] = os.memfd_create("output", 0)
    install_filter(config["syscall_filter"])
    env = {"PATH": "/usr/bin:/bin", "HOME": "/sandbox", "TMPDIR": "/sandbox", "LANG": "C.UTF-8"}
    os.chdir("/sandbox")
    try:
        os.execve(executable, [executable, "-I", "-S", "-u", "-B", "-c", worker_source, json.dumps(config)], env)
    except OSError as error:
        fail(f"starting {executable}", error)


main()
