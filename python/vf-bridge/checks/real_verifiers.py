"""Runs vf-bridge against the real verifiers (and prime-rl) code, on vf's own servers, and fails on
any error: verifiers' plugin loader and v1 EnvClient, prime-rl's config classes, orchestrator Env
and trainable-branch rule, and verifiers' legacy Environment API, each on reverse-text, gsm8k and
gsm8k-calculator, against `vf env serve` with the built-in model (`vf serve`) and with a scripted
perfect model (tool calls included); and agents: `vf env serve coding-tasks --harness bash`, whose
episode is the bash agent's trace (checks/agent_checks.py).

    python checks/real_verifiers.py --verifiers ~/src/verifiers [--prime-rl ~/src/prime-rl]

Run it with a Python (3.11+) that has verifiers' dependencies; what cannot be installed there is
stood in for (checks/missing_modules.py) and listed. vf is this repository's (packages/cli/bin/vf.js)
unless VF_BIN names another. Exit 0 when every check passed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BRIDGE = HERE.parent
REPO = BRIDGE.parents[1]
ENVS = ("reverse-text", "gsm8k", "gsm8k-calculator")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verifiers", required=True, type=Path, help="a checkout of verifiers")
    parser.add_argument("--prime-rl", type=Path, help="a checkout of prime-rl (its configs, orchestrator Env, "
                                                      "branch rule)")
    parser.add_argument("--envs", default=",".join(ENVS), help=f"environments to check (default {','.join(ENVS)})")
    parser.add_argument("-n", "--num-tasks", type=int, default=3, help="tasks run per environment and model")
    parser.add_argument("--agents", choices=("local", "subprocess", "none"), default="local",
                        help="serve coding-tasks with the bash harness in this runtime (default local; none: skip)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the traceback of every failure")
    args = parser.parse_args()
    for checkout, marker in ((args.verifiers, "verifiers/v1/utils/loaders.py"),
                             (args.prime_rl, "src/prime_rl/orchestrator/envs.py")):
        if checkout is not None and not (checkout / marker).is_file():
            parser.error(f"{checkout} is not a checkout with {marker}")
    paths = [str(args.verifiers)]
    if args.prime_rl is not None:
        paths += [str(args.prime_rl / "src"), str(args.prime_rl / "packages" / "prime-rl-configs" / "src")]
    sys.path[:0] = [*paths, str(BRIDGE), str(HERE)]
    os.environ.setdefault("VF_BIN", str(REPO / "packages" / "cli" / "bin" / "vf.js"))
    return asyncio.run(run(args))


async def run(args: argparse.Namespace) -> int:
    import missing_modules

    stood_in = missing_modules.stand_in_missing()
    from legacy_checks import check_legacy
    from report import Report
    from v1_checks import Target, check_v1
    from vf_processes import Processes

    import verifiers

    print(f"verifiers {verifiers.__version__} from {args.verifiers}"
          f"{f'; prime-rl from {args.prime_rl}' if args.prime_rl else ''}")
    print(f"stood in (not installable here): {', '.join(stood_in) or 'nothing'}", flush=True)
    report = Report(verbose=args.verbose)
    processes = Processes()
    try:
        if args.prime_rl is not None:
            from prime_rl_config import check_prime_rl_config

            await report.check("prime-rl RLConfig reads examples/prime-rl/rl.toml", check_prime_rl_config)
        if args.agents != "none":
            from agent_checks import check_agents

            await check_agents(report, processes, prime_rl=args.prime_rl is not None, runtime=args.agents)
        envs = [env for env in args.envs.split(",") if env]
        builtin = processes.builtin_model() if envs else ""
        for i, env in enumerate(envs):
            address = processes.env_server(env)
            reference = processes.reference_model(env)
            targets = [Target(env, address, reference, "scripted", expect_reward=1.0, label="scripted perfect model"),
                       Target(env, address, builtin, "vf-builtin", label="built-in model")]
            for target in targets:
                await check_v1(report, target, args.num_tasks, prime_rl=args.prime_rl is not None)
            # The first environment's legacy checks start their own server (no address).
            await check_legacy(report, targets[0], own_server=i == 0, all_apis=True)
            await check_legacy(report, targets[1], own_server=False, all_apis=False)
    finally:
        processes.stop()
    for module, names in sorted(missing_modules.handed_out.items()):
        print(f"stand-in {module} was asked for: {', '.join(sorted(names))}")
    print(report.summary())
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
