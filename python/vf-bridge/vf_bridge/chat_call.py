"""Answers one OpenAI chat-completions request with whatever model client a trainer holds.

The vf server calls models over HTTP, always in the chat-completions dialect, asking for vLLM's
token fields. A Python trainer hands verifiers one of three kinds of client, and each is called in
its own way here:

- a verifiers ``Client`` (its ``OpenAIChatCompletionsClient``, ``...TokenClient``,
  ``OpenAICompletionsClient``, ``OpenAIResponsesClient``, ``AnthropicMessagesClient``, ...):
  through ``get_response``, the one method every API type implements, so the request reaches the
  model in that client's own API; the token ids and logprobs it returns (``Response.message.tokens``)
  come back as vLLM's fields. The vLLM token flags are left to the client, as in verifiers: its
  token clients ask for them, the others do not.
- a verifiers ``ClientConfig``: resolved to its ``Client`` with verifiers' own ``resolve_client``.
- an ``AsyncOpenAI``, or any object with an async ``chat.completions.create`` (rLLM's sampler shim,
  tinker-cookbook's, SkyRL's): called with the request; fields the SDK does not name (vLLM's
  ``return_token_ids``, ``top_k``, ``min_p``, ...) travel in ``extra_body`` when the method takes one.

Only the last kind works without verifiers installed.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

__all__ = ["UnsupportedClientError", "complete", "completion_json", "to_jsonable"]

# Fields of a chat request that are not sampling settings.
_REQUEST_FIELDS = {"model", "messages", "tools", "stream", "stream_options"}
# vLLM's request for token ids and logprobs: a verifiers client decides these itself.
_TOKEN_FLAGS = {"return_token_ids", "logprobs", "top_logprobs"}
# Sampling fields only vLLM (and servers like it) read; verifiers sends them in extra_body.
_VLLM_SAMPLING = {"top_k", "min_p", "repetition_penalty", "min_tokens", "skip_special_tokens",
                  "spaces_between_special_tokens", "include_stop_str_in_output", "cache_salt"}


class UnsupportedClientError(TypeError):
    """The object given as a model client is none of the kinds this module can call."""


async def complete(client: Any, request: dict) -> dict:
    """The chat-completion JSON for ``request``, answered by ``client``."""
    verifiers_client = _as_verifiers_client(client)
    if verifiers_client is not None:
        return await _through_verifiers(verifiers_client, request)
    create = getattr(getattr(getattr(client, "chat", None), "completions", None), "create", None)
    if callable(create):
        return completion_json(await create(**_openai_arguments(create, request)))
    raise UnsupportedClientError(
        f"cannot call a model through a {type(client).__module__}.{type(client).__qualname__}: give an "
        "AsyncOpenAI (or an object with an async chat.completions.create), a verifiers Client or a "
        "verifiers ClientConfig"
    )


def _as_verifiers_client(client: Any) -> Any | None:
    """``client`` as a legacy verifiers ``Client`` when it is one (or a ``ClientConfig``), else None.
    verifiers is looked up only when already imported: whoever made such an object imported it."""
    clients = sys.modules.get("verifiers.legacy.clients")
    if clients is None:
        return None
    if isinstance(client, clients.Client):
        return client
    from verifiers.legacy.types import ClientConfig

    if isinstance(client, ClientConfig):
        return clients.resolve_client(client)
    return None


async def _through_verifiers(client: Any, request: dict) -> dict:
    from verifiers.legacy.types import Tool
    from verifiers.legacy.utils.message_utils import normalize_messages

    tools = [
        Tool(name=f["name"], description=f.get("description") or "",
             parameters=f.get("parameters") or {"type": "object", "properties": {}},
             **({"strict": f["strict"]} if f.get("strict") is not None else {}))
        for f in (t.get("function", t) for t in request.get("tools") or [])
    ]
    sampling: dict[str, Any] = {}
    extra_body: dict[str, Any] = {}
    for key, value in request.items():
        if key in _REQUEST_FIELDS or key in _TOKEN_FLAGS or value is None:
            continue
        if key in _VLLM_SAMPLING:
            extra_body[key] = value
        elif key == "extra_body" and isinstance(value, dict):
            extra_body.update(value)
        else:
            sampling[key] = value
    if extra_body:
        sampling["extra_body"] = extra_body
    # verifiers hands every call the rollout's state; its token client reads the trajectory there to
    # continue earlier turns' tokens. The vf server runs the turns and keeps their tokens itself, so
    # each call arrives as a first turn (see the README's token path).
    response = await client.get_response(normalize_messages(request["messages"]), request.get("model", ""),
                                         sampling, tools or None, state={"trajectory": []})
    return _response_json(response)


def _response_json(response: Any) -> dict:
    """A verifiers ``Response`` as a chat completion, its tokens as vLLM's fields."""
    message = response.message
    tool_calls = [{"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                  for call in message.tool_calls or []]
    reply: dict[str, Any] = {"role": "assistant", "content": _text(message.content)}
    if tool_calls:
        reply["tool_calls"] = tool_calls
    if message.reasoning_content:
        reply["reasoning_content"] = message.reasoning_content
    choice: dict[str, Any] = {"index": 0, "message": reply,
                              "finish_reason": message.finish_reason or ("tool_calls" if tool_calls else "stop")}
    data: dict[str, Any] = {"id": response.id or "vf-bridge", "object": "chat.completion",
                            "created": response.created, "model": response.model, "choices": [choice]}
    tokens = message.tokens
    if tokens is not None:
        data["prompt_token_ids"] = list(tokens.prompt_ids)
        choice["token_ids"] = list(tokens.completion_ids)
        choice["logprobs"] = {"content": [{"token": f"token_id:{token}", "logprob": logprob, "bytes": None,
                                           "top_logprobs": []}
                                          for token, logprob in zip(tokens.completion_ids, tokens.completion_logprobs)]}
    if response.usage is not None:
        data["usage"] = {"prompt_tokens": response.usage.prompt_tokens,
                         "completion_tokens": response.usage.completion_tokens,
                         "total_tokens": response.usage.total_tokens}
    return data


def _text(content: Any) -> str | None:
    if content is None or isinstance(content, str):
        return content
    parts = [getattr(part, "text", None) if not isinstance(part, dict) else part.get("text") for part in content]
    return "".join(part for part in parts if isinstance(part, str))


def _openai_arguments(create: Any, request: dict) -> dict:
    """``request`` as keyword arguments of ``create``: the fields it names as they are; the others in
    its ``extra_body`` (the openai SDK's way to send fields it does not know), else as keywords when it
    takes any (a duck-typed sampler shim), leaving out vLLM's token flag, which such a shim answers by
    itself and whose sampler would not know."""
    try:
        parameters = inspect.signature(create).parameters
    except (TypeError, ValueError):
        parameters = {}
    named = {name for name, p in parameters.items() if p.kind is not inspect.Parameter.VAR_KEYWORD}
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    arguments: dict[str, Any] = {}
    extra_body = dict(request.get("extra_body") or {})
    for key, value in request.items():
        if key in ("stream", "stream_options", "extra_body"):
            continue
        if key in named or key in ("model", "messages"):
            arguments[key] = value
        elif "extra_body" in named:
            extra_body[key] = value
        elif takes_any and key != "return_token_ids":
            arguments[key] = value
    if extra_body and "extra_body" in named:
        arguments["extra_body"] = extra_body
    return arguments


def completion_json(response: Any) -> dict:
    """A ChatCompletion (pydantic, dict or plain object) as JSON, vLLM's token fields kept."""
    data = to_jsonable(response)
    prompt_ids = getattr(response, "prompt_token_ids", None)
    if prompt_ids is not None:
        data["prompt_token_ids"] = list(prompt_ids)
    for i, choice in enumerate(getattr(response, "choices", None) or []):
        token_ids = getattr(choice, "token_ids", None)
        if token_ids is not None and i < len(data.get("choices", [])):
            data["choices"][i]["token_ids"] = list(token_ids)
    return data


def to_jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return to_jsonable(dump())
    if hasattr(value, "__dict__"):
        return {k: to_jsonable(v) for k, v in vars(value).items() if not k.startswith("_")}
    return str(value)
