"""The prime-rl config users copy (examples/prime-rl/rl.toml), read by prime-rl's own config classes:
it must validate as a whole ``RLConfig``, with each source's env narrowed to vf-bridge's taskset and
its env server marked as externally managed (``serve.address``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from report import expect

CONFIG = Path(__file__).resolve().parents[1] / "examples" / "prime-rl" / "rl.toml"


async def check_prime_rl_config() -> str:
    from prime_rl.configs.rl import RLConfig

    config = RLConfig.model_validate(tomllib.loads(CONFIG.read_text()))
    orchestrator = config.orchestrator
    sources = [*orchestrator.train.source, *(orchestrator.eval.source if orchestrator.eval else [])]
    expect(len(sources) == 2, f"{len(sources)} sources, the example has a train and an eval source")
    for source in sources:
        taskset = source.env.taskset
        expect(type(taskset).__name__ == "VfTasksetConfig",
               f"source {source.resolved_name}'s taskset is a {type(taskset).__name__}, not VfTasksetConfig")
        expect(source.serve.address == taskset.address, f"source {source.resolved_name} runs episodes at "
               f"{source.serve.address} but takes tasks from {taskset.address}")
    addresses = orchestrator.env_addresses
    expect(set(addresses.values()) == {"tcp://127.0.0.1:5000"}, f"env addresses {addresses}")
    return f"RLConfig, sources {sorted(name for _, name in addresses)} at {sorted(set(addresses.values()))}"
