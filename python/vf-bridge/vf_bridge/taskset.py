"""A verifiers v1 ``Taskset`` whose tasks come from a vf env server, for prime-rl.

prime-rl's orchestrator loads the taskset of each source client-side (``vf.load_taskset``, which
resolves the id ``vf-bridge`` to this class through ``vf_bridge.__all__``) and sends each task's data
to the source's env server; with ``serve.address`` set it connects to a server it did not start.
Point both at ``vf env serve`` (a whole config: examples/prime-rl/rl.toml):

    [orchestrator.train.source.env.taskset]
    id = "vf-bridge"
    address = "tcp://127.0.0.1:5000"    # where the tasks come from ...
    [orchestrator.train.source.serve]
    address = "tcp://127.0.0.1:5000"    # ... and where the episodes run

The server scores each episode; these tasks declare no rewards of their own.
"""

from __future__ import annotations

from typing import Literal

import verifiers.v1 as vf
from pydantic import Field

from vf_bridge.protocol import fetch_tasks
from vf_bridge.server_version import check_server

__all__ = ["VfTask", "VfTaskData", "VfTaskset", "VfTasksetConfig"]


class VfTaskData(vf.TaskData):
    """A vf row: ``idx`` is its example id, ``prompt`` its whole prompt (system prompt included)."""

    answer: str = ""
    info: dict = Field(default_factory=dict)
    task: str = "default"


class VfTask(vf.Task[VfTaskData]):
    """Behaviour lives in the vf server (rollout and scoring); the trace arrives scored."""


class VfTasksetConfig(vf.TasksetConfig):
    address: str = "tcp://127.0.0.1:5000"
    """The vf env server (``vf env serve``) to take tasks from; the same as the source's ``serve.address``."""
    split: Literal["train", "eval"] = "train"
    """Which split of the environment's rows."""
    num_examples: int = -1
    """Rows to take; -1: all."""
    startup_timeout: float = 600.0
    """Seconds to wait for the server to answer (it may still be loading)."""


class VfTaskset(vf.Taskset[VfTask, VfTasksetConfig]):
    def load(self) -> list[VfTask]:
        check_server(self.config.address, self.config.startup_timeout)
        rows = fetch_tasks(self.config.address, self.config.split, self.config.num_examples,
                           self.config.startup_timeout)
        return [VfTask(VfTaskData.model_validate(row), self.config.task) for row in rows]
