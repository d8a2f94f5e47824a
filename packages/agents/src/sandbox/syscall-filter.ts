/**
 * The sandbox's system-call filter: a seccomp BPF program, built here and installed by the launcher
 * just before it starts the sandbox's program (the python environment's worker, an agent's
 * command), so it binds that program and everything it starts. It refuses (EPERM) the calls that
 * make or enter namespaces, mount or change roots, the kernel interfaces an unprivileged process
 * has no use for (in a REPL or an agent's tools) but that widen the kernel's attack surface, and
 * those that hold memory no process maps (memfds, System V and POSIX IPC), which the address-space
 * limit would not count and which would outlive a call; every other call is allowed. It is not the
 * whole confinement (the launcher's namespaces, private root, limits and dropped capabilities are):
 * it closes the door a nested user namespace would open, where the code would regain mount, chroot
 * and network privileges of its own. Whether the program may set its own parent-death signal
 * depends on where the sandbox holds its tie to vf (see `SyscallFilterOptions`).
 */
import { SandboxError } from "@vf-rl/core";

/** The calls refused with EPERM whatever their arguments, by what they would give the code. */
export const REFUSED_CALLS = {
  "new or other namespaces": ["unshare", "setns"],
  "mounts and roots": [
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "open_tree_attr",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
  ],
  "kernel interfaces with a history of exploits": [
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
  ],
  "memory held outside the address-space limit": [
    "memfd_create",
    "memfd_secret",
    "shmget",
    "msgget",
    "semget",
    "mq_open",
  ],
  "reading or steering other processes": [
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
  ],
  "administering the machine": [
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "quotactl_fd",
    "syslog",
    "open_by_handle_at",
    "name_to_handle_at",
    "lookup_dcookie",
    "vhangup",
    "fanotify_init",
  ],
} as const satisfies Record<string, readonly string[]>;

/** A call the filter refuses whatever its arguments. */
export type RefusedCall = (typeof REFUSED_CALLS)[keyof typeof REFUSED_CALLS][number];

/** The clone(2) flags that make namespaces; clone with any of them is refused. */
export const NAMESPACE_CLONE_FLAGS = 0x7e020000; // NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET

const PR_SET_PDEATHSIG = 1;
const SOL_SOCKET = 1;
/** setsockopt(SOL_SOCKET, ...) options that size a socket's buffers, all refused. */
export const SOCKET_BUFFER_OPTIONS = [7, 8, 32, 33]; // SO_SNDBUF, SO_RCVBUF, SO_SNDBUFFORCE, SO_RCVBUFFORCE

/** The numbers of the filtered calls on one architecture (the kernel's table). */
interface SyscallTable {
  /** The AUDIT_ARCH_* value the kernel reports for this architecture's calls. */
  auditArch: number;
  /** Calls numbered from here are another ABI of the same architecture (x32), all refused. */
  foreignAbiBase?: number;
  numbers: Record<RefusedCall | "clone" | "clone3" | "prctl" | "setsockopt", number>;
}

// Calls numbered 403 and up share one number on every architecture.
const COMMON = {
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  clone3: 435,
  pidfd_getfd: 438,
  memfd_secret: 447,
  mount_setattr: 442,
  quotactl_fd: 443,
  open_tree_attr: 467,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
};

const X86_64: SyscallTable = {
  auditArch: 0xc000003e,
  foreignAbiBase: 0x40000000,
  numbers: {
    ...COMMON,
    clone: 56,
    prctl: 157,
    setsockopt: 54,
    unshare: 272,
    setns: 308,
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    chroot: 161,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    ptrace: 101,
    process_vm_readv: 310,
    process_vm_writev: 311,
    kcmp: 312,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    kexec_load: 246,
    kexec_file_load: 320,
    reboot: 169,
    swapon: 167,
    swapoff: 168,
    acct: 163,
    quotactl: 179,
    syslog: 103,
    open_by_handle_at: 304,
    name_to_handle_at: 303,
    lookup_dcookie: 212,
    vhangup: 153,
    fanotify_init: 300,
    memfd_create: 319,
    shmget: 29,
    msgget: 68,
    semget: 64,
    mq_open: 240,
  },
};

// The generic table (asm-generic/unistd.h), used by arm64 and riscv64.
const GENERIC = {
  ...COMMON,
  clone: 220,
  prctl: 167,
  setsockopt: 208,
  unshare: 97,
  setns: 268,
  mount: 40,
  umount2: 39,
  pivot_root: 41,
  chroot: 51,
  keyctl: 219,
  add_key: 217,
  request_key: 218,
  bpf: 280,
  perf_event_open: 241,
  userfaultfd: 282,
  ptrace: 117,
  process_vm_readv: 270,
  process_vm_writev: 271,
  kcmp: 272,
  init_module: 105,
  finit_module: 273,
  delete_module: 106,
  kexec_load: 104,
  kexec_file_load: 294,
  reboot: 142,
  swapon: 224,
  swapoff: 225,
  acct: 89,
  quotactl: 60,
  syslog: 116,
  open_by_handle_at: 265,
  name_to_handle_at: 264,
  lookup_dcookie: 18,
  vhangup: 58,
  fanotify_init: 262,
  memfd_create: 279,
  shmget: 194,
  msgget: 186,
  semget: 190,
  mq_open: 180,
};

/** Tables by Node's name of the architecture. */
const TABLES: Record<string, SyscallTable> = {
  x64: X86_64,
  arm64: { auditArch: 0xc00000b7, numbers: GENERIC },
  riscv64: { auditArch: 0xc00000f3, numbers: GENERIC },
};

/** Options of `syscallFilter`. */
export interface SyscallFilterOptions {
  /** The architecture, as Node names it; default `process.arch`. */
  arch?: string;
  /**
   * Whether the program may set its own parent-death signal (`prctl(PR_SET_PDEATHSIG)`), as Codex
   * does for every command it starts. The signal only ever reaches the caller, when its parent
   * dies, so it is a tie to vf only in a sandbox whose code runs as the namespace's PID 1 (the python
   * environment's worker): there the code could clear it (or set one it ignores) and outlive vf.
   * Allow it where the program is a child of an init outside the filter (the local agent runtime),
   * whose end ends every process of the namespace whatever they set. Default false.
   */
  allowParentDeathSignal?: boolean;
}

/** The number of a call on this machine, for tests that make it; undefined where there is no table. */
export function syscallNumber(name: RefusedCall | "clone", arch: string = process.arch): number | undefined {
  return TABLES[arch]?.numbers[name];
}

// Classic BPF, as seccomp runs it (linux/filter.h, linux/seccomp.h).
const BPF_LD_W_ABS = 0x20;
const JUMPS = { jeq: 0x15, jge: 0x35, jset: 0x45 };
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
// Offsets in struct seccomp_data: nr, arch, then the arguments (the low half of the first at 16 on
// these little-endian machines).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;
const ARG1 = 24;
const ARG2 = 32;

/** Where a jump goes: a labelled instruction, or the next one. */
type Label = "allow" | "eperm" | "enosys" | "kill" | "clone" | "prctl" | "setsockopt";
type Jump = Label | "next";
type Instruction =
  | { op: "load"; offset: number; label?: Label }
  | { op: "jeq" | "jge" | "jset"; k: number; jt: Jump; jf: Jump }
  | { op: "ret"; value: number; label?: Label };

/**
 * The filter as the bytes of a `struct sock_filter` array. Throws a `SandboxError` on an
 * architecture it has no table for, rather than run unfiltered.
 *
 * @example
 * syscallFilter({ allowParentDeathSignal: true }).toString("hex"); // for a launcher's config
 */
export function syscallFilter(options: SyscallFilterOptions = {}): Buffer {
  const arch = options.arch ?? process.arch;
  const table = TABLES[arch];
  if (!table) {
    throw new SandboxError(
      `the sandbox has no system-call table for the ${arch} architecture (it knows x64, arm64 and riscv64): run on one of those`,
    );
  }
  const n = table.numbers;
  const refuse = (nr: number): Instruction => ({ op: "jeq", k: nr, jt: "eperm", jf: "next" });
  const program: Instruction[] = [
    // A call made with another architecture's convention (a 32-bit int 0x80 on x86-64) is numbered
    // from another table: it ends the process.
    { op: "load", offset: ARCH },
    { op: "jeq", k: table.auditArch, jt: "next", jf: "kill" },
    { op: "load", offset: NR },
    // x32 calls reach the same kernel under other numbers: none is needed here.
    ...(table.foreignAbiBase === undefined
      ? []
      : [{ op: "jge", k: table.foreignAbiBase, jt: "enosys", jf: "next" } as const]),
    // clone3 passes its flags in memory, where a filter cannot read them: it answers "not
    // implemented", and the C library falls back to clone, whose flags the filter checks.
    { op: "jeq", k: n.clone3, jt: "enosys", jf: "next" },
    { op: "jeq", k: n.clone, jt: "clone", jf: "next" },
    ...(options.allowParentDeathSignal ? [] : [{ op: "jeq", k: n.prctl, jt: "prctl", jf: "next" } as const]),
    { op: "jeq", k: n.setsockopt, jt: "setsockopt", jf: "next" },
    ...Object.values(REFUSED_CALLS).flatMap((names) => names.map((name) => refuse(n[name]))),
    { op: "ret", value: RET_ALLOW },
    { op: "load", offset: ARG0, label: "clone" },
    { op: "jset", k: NAMESPACE_CLONE_FLAGS, jt: "eperm", jf: "allow" },
    // Where the code runs as PID 1, its parent-death signal is what ends the sandbox with its host:
    // it may not change it (see SyscallFilterOptions).
    { op: "load", offset: ARG0, label: "prctl" },
    { op: "jeq", k: PR_SET_PDEATHSIG, jt: "eperm", jf: "allow" },
    // A socket's buffers are kernel memory no address space counts: they stay at the system's
    // default size (net.core.wmem_default), which the code may not raise.
    { op: "load", offset: ARG1, label: "setsockopt" },
    { op: "jeq", k: SOL_SOCKET, jt: "next", jf: "allow" },
    { op: "load", offset: ARG2 },
    ...SOCKET_BUFFER_OPTIONS.map((option) => ({ op: "jeq", k: option, jt: "eperm", jf: "next" }) as const),
    { op: "ret", value: RET_ALLOW, label: "allow" },
    { op: "ret", value: RET_ERRNO | EPERM, label: "eperm" },
    { op: "ret", value: RET_ERRNO | ENOSYS, label: "enosys" },
    { op: "ret", value: RET_KILL_PROCESS, label: "kill" },
  ];
  return assemble(program);
}

/** The program as the bytes of `struct sock_filter { u16 code; u8 jt, jf; u32 k; }[]`. */
function assemble(program: Instruction[]): Buffer {
  const labels = new Map<Label, number>();
  program.forEach((instruction, at) => {
    if ("label" in instruction && instruction.label) labels.set(instruction.label, at);
  });
  const out = Buffer.alloc(program.length * 8);
  program.forEach((instruction, at) => {
    // A jump's offsets count the instructions after it.
    const offset = (target: Jump) => {
      if (target === "next") return 0;
      const to = labels.get(target);
      if (to === undefined || to <= at || to - at - 1 > 255) throw new Error(`bad jump to ${target}`);
      return to - at - 1;
    };
    const [code, jt, jf, k] =
      instruction.op === "load"
        ? [BPF_LD_W_ABS, 0, 0, instruction.offset]
        : instruction.op === "ret"
          ? [BPF_RET_K, 0, 0, instruction.value]
          : [JUMPS[instruction.op], offset(instruction.jt), offset(instruction.jf), instruction.k];
    out.writeUInt16LE(code, at * 8);
    out.writeUInt8(jt, at * 8 + 2);
    out.writeUInt8(jf, at * 8 + 3);
    out.writeUInt32LE(k >>> 0, at * 8 + 4);
  });
  return out;
}
