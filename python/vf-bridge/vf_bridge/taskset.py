"""A verifiers v1 ``Taskset`` whose tasks come from a vf env server, for prime-rl.

prime-rl's orchestrator loads the taskset of each source client-side (``vf.load_taskset``) and
sends each task's data to the source's env server; with ``serve.address`` set it connects to a
server it did not start. Point both at ``vf env serve``:

    [orchestrator.train.source.env.taskset]
    id = "vf_bridge.taskset"            # this module; its __all__ exports the one Taskset
    address = "tcp://127.0.0.1:5000"    # where the tasks come from ...
    [orchestrator.train.source.serve]
    address = "tcp://127.0.0.1:5000"    # ... and where the episodes run

Written against verifiers' ``verifiers/v1/{taskset,task,configs/taskset}.py`` at commit a60a606ec
(not installed or run here: PyPI is unreachable on vf's machines). The server scores each
episode; this task declares no rewards of its own.
"""

from __future__ import annotations

from typing import Literal

import verifiers.v1 as vf
from pydantic import Field

from vf_bridge.protocol import fetch_tasks

__all__ = ["VfTaskset"]


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


class VfTaskset(vf.Taskset[VfTask, VfTasksetConfig]):
    def load(self) -> list[VfTask]:
        rows = fetch_tasks(self.config.address, self.config.split, self.config.num_examples)
        return [VfTask(VfTaskData.model_validate(row), self.config.task) for row in rows]
