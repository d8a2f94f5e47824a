"""verifiers' ``WireEpisode`` (verifiers/v1/{episode,trace,graph,types,task}.py at a60a606ec) as
hand-written checks, since neither verifiers nor pydantic can be installed here: ``problems(episode)``
lists every field that is missing, of the wrong type, or unknown to verifiers' models (pydantic
would drop an unknown field without a word, so a misspelt one is lost data). Types are read as
pydantic reads them: a float field takes an int, nothing else is coerced.

And the views of a trace that verifiers' consumers compute (``Trace.branches``, ``Branch.token_ids``,
``sampled_mask``, ``logprobs``, ``Trace.reward``, ``num_turns``, ``usage``), written from the same source.
"""

from __future__ import annotations

from typing import Any

# A spec is a type name, or a tuple: ("opt", spec), ("list", spec), ("dict", spec), ("literal", values),
# ("union", [specs]), ("model", name). A model maps each field to (spec, required).
MODELS: dict[str, dict[str, tuple[Any, bool]]] = {}
# Models whose unknown fields are kept (`extra="allow"`), not dropped.
OPEN_MODELS = {"TaskData", "Sampling"}

FLOAT = "float"
OPT_STR = ("opt", "str")
OPT_INT = ("opt", "int")
OPT_FLOAT = ("opt", FLOAT)


def model(model_name: str, /, **fields: tuple[Any, bool]) -> None:
    MODELS[model_name] = fields


def m(name: str) -> tuple[str, str]:
    return ("model", name)


def field(spec: Any, required: bool = False) -> tuple[Any, bool]:
    return (spec, required)


model("Episode", id=field("str"), env=field(m("EnvInfo")), task=field(m("TraceTask"), True),
      group=field(("opt", m("GroupInfo"))), run=field(("opt", "dict")), ok=field("bool"),
      errors=field(("list", m("Error"))), traces=field(("list", m("Trace"))))
model("EnvInfo", id=field("str"), name=field(OPT_STR))
model("GroupInfo", id=field("str", True))
model("TraceTask", type=field("str", True), data=field(m("TaskData"), True), key=field(OPT_STR),
      hash=field(OPT_STR))
model("TaskData", idx=field(OPT_INT), name=field(OPT_STR), description=field(OPT_STR),
      prompt=field(("opt", ("union", ["str", ("list", "message")]))), system_prompt=field(OPT_STR),
      image=field(OPT_STR), workdir=field(OPT_STR), network_allow=field(("list", "str")),
      network_block=field(("list", "str")), artifacts=field(("list", "any")), timeout=field("dict"),
      resources=field("dict"))
model("Trace", version=field("int"), id=field("str"), verifiers=field(m("VersionInfo")),
      task=field(m("TraceTask"), True), agent=field(m("AgentInfo"), True), tools=field(("list", m("Tool"))),
      nodes=field(("list", m("MessageNode"))), calls=field(("list", m("ModelCall"))),
      request_rewrites=field(("list", m("InterceptRecord"))), response_rewrites=field(("list", m("InterceptRecord"))),
      rewards=field(("dict", ("opt", m("Reward")))), metrics=field(("dict", OPT_FLOAT)), info=field("dict"),
      extra_usage=field(("list", m("Usage"))), is_completed=field("bool"), ok=field("bool"),
      stop_condition=field(OPT_STR), errors=field(("list", m("Error"))), timing=field(m("Timing")))
model("VersionInfo", version=field("str", True), commit=field(OPT_STR))
model("AgentInfo", config=field(m("AgentConfig"), True), runtime=field(("opt", "dict")), name=field("str"),
      trainable=field("bool"))
model("AgentConfig", harness=field(("opt", "dict")), runtime=field("dict"), model=field(OPT_STR),
      client=field(("opt", "dict")), sampling=field(("opt", m("Sampling"))), max_turns=field(OPT_INT),
      max_input_tokens=field(OPT_INT), max_output_tokens=field(OPT_INT), max_total_tokens=field(OPT_INT),
      timeout=field("dict"), retries=field("dict"))
model("Sampling", temperature=field(OPT_FLOAT), top_p=field(OPT_FLOAT), reasoning_effort=field(OPT_STR),
      max_tokens=field(OPT_INT))
model("Tool", name=field("str", True), description=field("str", True), parameters=field("dict", True),
      strict=field(("opt", "bool")))
model("MessageNode", parent=field(OPT_INT), message=field("message", True), sampled=field("bool"),
      timestamp=field(FLOAT), token_ids=field(("list", "int")), mask=field(("list", "bool")),
      is_content=field(("list", "bool")), logprobs=field(("list", FLOAT)),
      advantages=field(("opt", ("list", FLOAT))), reference_logprobs=field(("opt", ("list", FLOAT))),
      loss_weights=field(("opt", ("dict", ("list", FLOAT)))), multi_modal_data=field(("opt", "dict")),
      routed_experts=field(("opt", "dict")), kept_tokens=field(("opt", "dict")))
model("ModelCall", node=field(OPT_INT), model=field(OPT_STR), sampling=field(("opt", m("Sampling"))),
      endpoint=field(OPT_STR), finish_reason=field(("literal", ["stop", "length", "tool_calls", None])),
      usage=field(("opt", m("Usage"))), time=field(m("TimeSpan")), error=field(("opt", m("Error"))),
      policy=field(("opt", m("PolicyEvent"))))
model("PolicyEvent", code=field("str", True), paths=field(("list", "str"), True))
model("Usage", prompt_tokens=field("int", True), completion_tokens=field("int", True),
      cached_input_tokens=field(OPT_INT), reasoning_tokens=field(OPT_INT), cost=field(OPT_FLOAT))
model("TimeSpan", start=field(FLOAT), end=field(FLOAT))
model("TimeSplit", duration=field(FLOAT))
model("AgentSpan", start=field(FLOAT), end=field(FLOAT), model=field(m("TimeSplit")), harness=field(m("TimeSplit")))
model("Timing", start=field(FLOAT), boot=field(m("TimeSpan")), setup=field(m("TimeSpan")), agent=field(m("AgentSpan")),
      finalize=field(m("TimeSpan")), scoring=field(m("TimeSpan")))
model("Reward", score=field(FLOAT, True), weight=field(FLOAT))
model("Error", type=field("str", True), message=field("str", True), status_code=field(OPT_INT),
      traceback=field(OPT_STR))
model("InterceptRecord", handler=field("str", True))
# The typed messages (`Message`, discriminated on role) and their content parts.
CONTENT = ("union", ["str", ("list", "content_part")])
model("SystemMessage", role=field(("literal", ["system"])), content=field(CONTENT, True))
model("UserMessage", role=field(("literal", ["user"])), content=field(CONTENT, True))
model("AssistantMessage", role=field(("literal", ["assistant"])), content=field(OPT_STR),
      reasoning_content=field(OPT_STR), tool_calls=field(("opt", ("list", m("ToolCall")))),
      provider_state=field(("opt", ("list", "dict"))))
model("ToolMessage", role=field(("literal", ["tool"])), tool_call_id=field("str", True), content=field(CONTENT, True),
      name=field(OPT_STR))
model("ToolCall", id=field("str", True), name=field("str", True), arguments=field("str", True))
model("TextContentPart", type=field(("literal", ["text"])), text=field("str", True))
model("ImageUrlContentPart", type=field(("literal", ["image_url"])), image_url=field(m("ImageUrlSource"), True))
model("ImageUrlSource", url=field("str", True))

MESSAGE_BY_ROLE = {"system": "SystemMessage", "user": "UserMessage", "assistant": "AssistantMessage",
                   "tool": "ToolMessage"}
PART_BY_TYPE = {"text": "TextContentPart", "image_url": "ImageUrlContentPart"}


def problems(episode: Any) -> list[str]:
    """Every way `episode` would fail, or lose data in, ``WireEpisode.model_validate``."""
    found: list[str] = []
    check(episode, m("Episode"), "episode", found)
    return found


def check(value: Any, spec: Any, path: str, found: list[str]) -> None:
    if isinstance(spec, str):
        return check_scalar(value, spec, path, found)
    kind = spec[0]
    if kind == "opt":
        if value is not None:
            check(value, spec[1], path, found)
    elif kind == "list":
        if not isinstance(value, list):
            found.append(f"{path}: a list was expected, got {type(value).__name__}")
            return
        for i, item in enumerate(value):
            check(item, spec[1], f"{path}[{i}]", found)
    elif kind == "dict":
        if not isinstance(value, dict):
            found.append(f"{path}: a dict was expected, got {type(value).__name__}")
            return
        for key, item in value.items():
            if not isinstance(key, str):
                found.append(f"{path}: key {key!r} is not a string")
            check(item, spec[1], f"{path}.{key}", found)
    elif kind == "literal":
        if value not in spec[1]:
            found.append(f"{path}: {value!r} is not one of {spec[1]}")
    elif kind == "union":
        for option in spec[1]:
            attempt: list[str] = []
            check(value, option, path, attempt)
            if not attempt:
                return
        found.append(f"{path}: {value!r:.80} matches none of {spec[1]}")
    elif kind == "model":
        check_model(value, spec[1], path, found)


def check_scalar(value: Any, name: str, path: str, found: list[str]) -> None:
    if name == "any":
        return
    if name == "message":
        role = value.get("role") if isinstance(value, dict) else None
        if role not in MESSAGE_BY_ROLE:
            found.append(f"{path}: a message with role system, user, assistant or tool was expected, got {value!r:.80}")
            return
        return check_model(value, MESSAGE_BY_ROLE[role], path, found)
    if name == "content_part":
        kind = value.get("type") if isinstance(value, dict) else None
        if kind not in PART_BY_TYPE:
            found.append(f"{path}: a text or image_url part was expected, got {value!r:.80}")
            return
        return check_model(value, PART_BY_TYPE[kind], path, found)
    ok = {
        "str": lambda v: isinstance(v, str),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "bool": lambda v: isinstance(v, bool),
        "dict": lambda v: isinstance(v, dict),
    }[name](value)
    if not ok:
        found.append(f"{path}: {name} expected, got {type(value).__name__} {value!r:.80}")


def check_model(value: Any, name: str, path: str, found: list[str]) -> None:
    if not isinstance(value, dict):
        found.append(f"{path}: a {name} object was expected, got {type(value).__name__}")
        return
    fields = MODELS[name]
    for key, (spec, required) in fields.items():
        if key not in value:
            if required:
                found.append(f"{path}: {name}.{key} is required and missing")
            continue
        check(value[key], spec, f"{path}.{key}", found)
    if name not in OPEN_MODELS:
        for key in sorted(value.keys() - fields.keys()):
            found.append(f"{path}: {name} has no field {key!r} (pydantic would drop it)")


# -- the views consumers compute ------------------------------------------------------------------

def leaves(trace: dict) -> list[int]:
    """`graph.leaves`: nodes no other node names as parent, in order."""
    parents = {node["parent"] for node in trace["nodes"]}
    return [i for i in range(len(trace["nodes"])) if i not in parents]


def branches(trace: dict) -> list[dict]:
    """`Trace.branches`: each root-to-leaf path, its nodes and the calls that committed them."""
    by_node = {call["node"]: call for call in trace["calls"] if call.get("node") is not None}
    out = []
    for leaf in leaves(trace):
        path: list[int] = []
        nid: int | None = leaf
        while nid is not None:
            path.append(nid)
            nid = trace["nodes"][nid]["parent"]
        path.reverse()
        nodes = [trace["nodes"][n] for n in path]
        out.append({
            "node_ids": path,
            "nodes": nodes,
            "calls": [by_node[n] for n in path if n in by_node],
            "messages": [node["message"] for node in nodes],
            "token_ids": [t for node in nodes for t in node.get("token_ids", [])],
            "sampled_mask": [b for node in nodes for b in node.get("mask", [])],
            "logprobs": spread_logprobs(nodes),
        })
    return out


def spread_logprobs(nodes: list[dict]) -> list[float]:
    """`Branch.logprobs`: each node's logprobs on its sampled positions, 0.0 elsewhere."""
    out: list[float] = []
    for node in nodes:
        values = iter(node.get("logprobs", []))
        out.extend(next(values, 0.0) if sampled else 0.0 for sampled in node.get("mask", []))
    return out


def reward(trace: dict) -> float:
    """`Trace.reward`: the sum of score × weight."""
    return sum(r["score"] * r.get("weight", 1.0) for r in trace["rewards"].values() if r is not None)


def num_turns(trace: dict) -> int:
    """`Trace.num_turns`: sampled nodes."""
    return sum(1 for node in trace["nodes"] if node.get("sampled"))


def usage(trace: dict) -> dict:
    """`Trace.usage`: prompt and completion tokens summed over the calls that report usage."""
    usages = [call["usage"] for call in trace["calls"] if call.get("usage") is not None]
    return {"prompt_tokens": sum(u["prompt_tokens"] for u in usages),
            "completion_tokens": sum(u["completion_tokens"] for u in usages)}
