"""verifiers' legacy API (how rLLM, tinker-cookbook and SkyRL take an environment) on vf-bridge's
in-process environment, with verifiers' own code: its ``load_environment`` loader, ``run_rollout``
with each of its ``Client`` wrappers and a ``ClientConfig``, ``rollout`` with a raw AsyncOpenAI and a
duck-typed sampler shim (what rLLM hands it), ``run_group`` and ``evaluate``; and the
``vf env serve`` the environment started for itself, stopped at its teardown."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from report import Report, expect
from v1_checks import Target

SAMPLING = {"max_tokens": 256, "temperature": 0.0}


async def check_legacy(report: Report, target: Target, *, own_server: bool, all_apis: bool) -> None:
    """``own_server``: load without an address (the bridge starts vf env serve); ``all_apis``: the
    model endpoint also speaks Responses, Anthropic Messages (vf's scripted server does)."""
    import verifiers as vf

    name = f"{target.env}{f' ({target.label})' if target.label else ''}"
    loaded: list[Any] = []

    async def load() -> str:
        kwargs = {} if own_server else {"address": target.address}
        env = vf.load_environment("vf-bridge", env=target.env, **kwargs)
        expect(type(env).__name__ == "VfServedEnvironment", f"load_environment gave a {type(env).__name__}")
        expect((env.server is not None) == own_server, "the bridge's own server was started when it should not be, "
               "or not started when it should be")
        rows = env.get_eval_dataset(n=3)
        expect(len(rows) == 3, f"{len(rows)} eval rows")
        loaded.append(env)
        return f"{env.address}{' (started by the bridge)' if own_server else ''}, {len(rows)} eval rows"

    await report.check(f"legacy vf.load_environment('vf-bridge', env={target.env!r}): {name}", load)
    if not loaded:
        return
    env = loaded[0]
    row = env.get_eval_dataset(n=1)[0]
    for label, make, tokens in _clients(target, all_apis):
        # anthropic 1.x's messages.create takes no temperature, and verifiers passes sampling on as is.
        sampling = {"max_tokens": SAMPLING["max_tokens"]} if label.startswith("Anthropic") else dict(SAMPLING)

        async def one(make=make, tokens=tokens, sampling=sampling) -> str:
            output = await env.run_rollout(row, make(), target.model, sampling, state_columns=["trajectory"])
            return _expect_output(output, target, tokens)

        await report.check(f"legacy run_rollout, {label}: {name}", one)

    async def raw_rollout() -> str:
        from openai import AsyncOpenAI

        state = await env.rollout(row, AsyncOpenAI(base_url=target.model_url, api_key="EMPTY"), target.model,
                                  dict(SAMPLING))
        await env.rubric.score_rollout(state, score_sem=None)  # as rLLM's workflow calls it
        return _expect_output(state, target, tokens=True)

    await report.check(f"legacy rollout with a raw AsyncOpenAI (rLLM, SkyRL): {name}", raw_rollout)

    async def shim_rollout() -> str:
        shim = _SamplerShim(target.model_url)
        state = await env.rollout(row, shim, target.model, dict(SAMPLING))
        expect(shim.calls and "return_token_ids" not in shim.calls[0],
               f"the shim got vLLM's token flag as a keyword: {shim.calls[:1]}")
        return _expect_output(state, target, tokens=True)

    await report.check(f"legacy rollout with a duck-typed sampler shim (rLLM's shape): {name}", shim_rollout)

    async def group() -> str:
        from openai import AsyncOpenAI
        from verifiers.legacy.clients import OpenAIChatCompletionsTokenClient

        client = OpenAIChatCompletionsTokenClient(AsyncOpenAI(base_url=target.model_url, api_key="EMPTY"))
        outputs = await env.run_group([row, row, row], client, target.model, dict(SAMPLING),
                                      state_columns=["trajectory"])
        expect(len(outputs) == 3, f"{len(outputs)} outputs for a group of 3")
        return "; ".join(_expect_output(o, target, tokens=True) for o in outputs)

    await report.check(f"legacy run_group (3 rollouts, one request): {name}", group)

    async def evaluate() -> str:
        from verifiers.legacy.types import ClientConfig

        config = ClientConfig(client_type="openai_chat_completions", api_base_url=target.model_url,
                              api_key_var="VF_CHECK_NO_KEY")
        results = await env.evaluate(config, target.model, sampling_args=dict(SAMPLING), num_examples=3,
                                     rollouts_per_example=2)
        outputs = results["outputs"]
        expect(len(outputs) == 6, f"{len(outputs)} outputs for 3 examples x 2 rollouts")
        for output in outputs:
            _expect_output(output, target, tokens=False)
        return f"rewards {[round(o['reward'], 3) for o in outputs]}"

    await report.check(f"legacy evaluate (3 examples x 2): {name}", evaluate)

    if own_server:
        async def teardown() -> str:
            process = env.server.process
            await env._teardown()
            expect(process.wait(60) is not None, "the vf env serve the bridge started still runs after teardown")
            return f"vf env serve (pid {process.pid}) exited {process.returncode}"

        await report.check(f"legacy teardown stops the bridge's own vf env serve: {name}", teardown)


def _clients(target: Target, all_apis: bool):
    """(label, factory, whether the rollout's turns carry token ids) for each client kind."""
    from openai import AsyncOpenAI
    from verifiers.legacy import clients
    from verifiers.legacy.types import ClientConfig

    def openai() -> AsyncOpenAI:
        return AsyncOpenAI(base_url=target.model_url, api_key="EMPTY")

    kinds = [
        ("OpenAIChatCompletionsClient", lambda: clients.OpenAIChatCompletionsClient(openai()), False),
        ("OpenAIChatCompletionsTokenClient", lambda: clients.OpenAIChatCompletionsTokenClient(openai()), True),
        ("ClientConfig(openai_chat_completions)", lambda: ClientConfig(
            client_type="openai_chat_completions", api_base_url=target.model_url, api_key_var="VF_CHECK_NO_KEY"),
         False),
        ("ClientConfig(openai_chat_completions_token)", lambda: ClientConfig(
            client_type="openai_chat_completions_token", api_base_url=target.model_url,
            api_key_var="VF_CHECK_NO_KEY"), True),
    ]
    if all_apis:
        from anthropic import AsyncAnthropic

        root = target.model_url.removesuffix("/v1")
        kinds += [
            ("OpenAIResponsesClient", lambda: clients.OpenAIResponsesClient(openai()), False),
            ("AnthropicMessagesClient", lambda: clients.AnthropicMessagesClient(
                AsyncAnthropic(base_url=root, api_key="EMPTY")), False),
        ]
    return kinds


def _expect_output(output: Any, target: Target, tokens: bool) -> str:
    expect(not output.get("error"), f"the rollout failed: {output.get('error')}")
    reward = output.get("reward")
    expect(isinstance(reward, (int, float)), f"no reward: {reward!r}")
    if target.expect_reward is not None:
        expect(abs(reward - target.expect_reward) < 1e-9, f"reward {reward}, the reference model gets "
                                                          f"{target.expect_reward}")
    steps = output.get("trajectory") or []
    if output.get("stop_condition") == "prompt_too_long":
        # Over the model's context (the built-in model's 1,024 tokens): ended as vLLM's answer ends it.
        return f"reward {round(reward, 3)}, prompt over the model's context"
    if tokens:
        expect(steps, "no trajectory")
        for step in steps:
            step_tokens = step.get("tokens") or {}
            expect(step_tokens.get("completion_ids") and step_tokens.get("prompt_ids"),
                   "a turn without token ids (a token client was used)")
            expect(len(step_tokens["completion_logprobs"]) == len(step_tokens["completion_ids"]),
                   "completion logprobs do not align with the completion ids")
    return f"reward {round(reward, 3)}{f', {len(steps)} turns with tokens' if tokens else ''}"


class _SamplerShim:
    """The shape of rLLM's RolloutEngineAsyncClient: ``chat.completions.create(*, model, messages,
    tools=None, **kwargs)``, duck-typed, answering with vLLM's token fields attached; here backed by
    the model endpoint over HTTP, with token ids asked for as such a sampler gets them."""

    def __init__(self, base_url: str) -> None:
        from openai import AsyncOpenAI

        self._openai = AsyncOpenAI(base_url=base_url, api_key="EMPTY")
        self.calls: list[dict] = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    async def create(self, *, model: str, messages: list, tools: list | None = None, **kwargs: Any) -> Any:
        self.calls.append(dict(kwargs))
        for flag in ("extra_body", "logprobs", "top_logprobs"):
            kwargs.pop(flag, None)
        response = await self._openai.chat.completions.create(
            model=model, messages=messages, **({"tools": tools} if tools else {}), **kwargs,
            extra_body={"return_token_ids": True}, logprobs=True)
        return response
