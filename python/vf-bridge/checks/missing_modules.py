"""Stand-ins for the packages verifiers and prime-rl import that cannot be installed on the machine
the check runs on (vf's machines reach no PyPI), so that their real code, the part on the wire path,
can be imported and run.

Only modules that fail to import are replaced, and the check prints which ones. A stand-in module
hands out a made-up name for whatever is asked of it: a class ending in Error or Exception is an
exception; another capitalised name a permissive pydantic model (so it can be a field's type); an
ALL_CAPS name an empty dict; anything else a function that raises when called, naming itself, so a
stand-in that is reached on the wire path fails loudly instead of passing silently.

One is written out: ``pydantic_config.BaseConfig``, the base of every verifiers and prime-rl config,
whose behaviour the configs rely on: unknown keys are refused, the string "None" is null, and a
table given for a tagged-union field without its ``type`` takes the tag of the field's default.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

# What verifiers (at the README's commit) and prime-rl's configs import that may be missing.
# A dotted name stands in for that submodule alone (mcp 2 renamed the FastMCP verifiers imports).
CANDIDATES = ("pydantic_config", "renderers", "prime_tunnel", "prime_sandboxes", "gepa", "math_verify", "agents",
              "aiolimiter", "setproctitle", "mcp.server.fastmcp", "wandb")

# The names stand-ins handed out, by replaced module: what the check report lists.
handed_out: dict[str, set[str]] = {}
_roots: set[str] = set()


class BaseConfig(BaseModel):
    """pydantic_config's base: strict about unknown keys; "None" in a config file is null; a union
    field's table without ``type`` is of its default's type."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _config_file_values(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = {key: None if value == "None" else value for key, value in data.items()}
        for name, info in cls.model_fields.items():
            value, default = data.get(name), info.default
            if isinstance(value, dict) and "type" not in value and isinstance(default, BaseModel) \
                    and hasattr(default, "type"):
                data[name] = {**value, "type": default.type}
        return data


def _cli(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("pydantic_config.cli is not available in this check (its CLI is not on the wire path)")


class _StandIn(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = _made_up(self.__name__, name)
        setattr(self, name, value)
        root = next(r for r in _roots if self.__name__ == r or self.__name__.startswith(f"{r}."))
        handed_out.setdefault(root, set()).add(f"{self.__name__}.{name}")
        return value


def _made_up(module: str, name: str) -> Any:
    if name.endswith(("Error", "Exception", "Timeout")):
        return type(name, (Exception,), {"__module__": module})
    if name.isupper():
        return {}
    if name[:1].isupper():
        config = ConfigDict(extra="allow", arbitrary_types_allowed=True)
        return type(name, (BaseModel,), {"__module__": module, "model_config": config})

    def missing(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{module}.{name} is a stand-in in this check: it is not installed here")

    missing.__name__ = name
    return missing


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, roots: set[str]) -> None:
        self.roots = roots

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if any(fullname == root or fullname.startswith(f"{root}.") for root in self.roots):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = _StandIn(spec.name)
        module.__path__ = []
        if spec.name == "pydantic_config":
            module.BaseConfig = BaseConfig
            module.cli = _cli
            handed_out.setdefault("pydantic_config", set()).add("pydantic_config.BaseConfig (written out)")
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def stand_in_missing(candidates: tuple[str, ...] = CANDIDATES) -> list[str]:
    """Replaces each of ``candidates`` that cannot be imported; returns their names."""
    missing = []
    for name in candidates:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    _roots.update(missing)
    # First, so a replaced submodule wins over its real (failing) file.
    sys.meta_path.insert(0, _Finder(set(missing)))
    return missing
