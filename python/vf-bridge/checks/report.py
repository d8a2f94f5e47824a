"""The check's findings: one line a check, passed or failed with why, and a summary at the end."""

from __future__ import annotations

import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


class CheckFailed(AssertionError):
    """What a check found wrong, in a sentence."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


@dataclass
class Report:
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    verbose: bool = False

    async def check(self, name: str, run: Callable[[], Awaitable[str | None]]) -> None:
        """Runs one check; its result (a short note) or its failure is recorded and printed."""
        try:
            note = await run()
        except Exception as error:  # every failure is a finding; the other checks still run
            detail = str(error) if isinstance(error, CheckFailed) else f"{type(error).__name__}: {error}"
            self.failed.append(f"{name}: {detail}")
            print(f"FAIL  {name}: {detail}", flush=True)
            if self.verbose or not isinstance(error, CheckFailed):
                traceback.print_exc()
            return
        self.passed.append(name)
        print(f"ok    {name}{f': {note}' if note else ''}", flush=True)

    def summary(self) -> str:
        lines = [f"{len(self.passed)} passed, {len(self.failed)} failed"]
        lines += [f"  FAIL {line}" for line in self.failed]
        return "\n".join(lines)
