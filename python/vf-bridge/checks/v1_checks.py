"""verifiers v1 (what prime-rl trains through) against ``vf env serve``, with verifiers' own code:
its plugin loader resolving the taskset id ``vf-bridge`` (``resolve_env_config``, ``load_taskset``),
its ``EnvClient.run`` on the loaded tasks, prime-rl's ``Env`` (the orchestrator's view of a source)
where prime-rl is given, and prime-rl's rule for which branch tokens train
(``iter_trainable_branches``)."""

from __future__ import annotations

from dataclasses import dataclass

from report import Report, expect

TASKSET_ID = "vf-bridge"


@dataclass(frozen=True)
class Target:
    """One environment served at ``address``, and a model endpoint to run its episodes with."""

    env: str
    address: str
    model_url: str
    model: str
    expect_reward: float | None = None
    """The reward every episode must get (a perfect scripted model: 1.0), or None: any."""
    label: str = ""


async def check_v1(report: Report, target: Target, num_tasks: int, prime_rl: bool) -> None:
    import verifiers.v1 as vf
    from verifiers.v1.serve import EnvClient
    from verifiers.v1.utils.loaders import load_taskset, resolve_env_config

    name = f"{target.env}{f' ({target.label})' if target.label else ''}"
    tasks: list = []

    async def loader() -> str:
        config = resolve_env_config({"taskset": {"id": TASKSET_ID, "address": target.address, "split": "eval",
                                                 "num_examples": num_tasks}})
        expect(type(config.taskset).__name__ == "VfTasksetConfig",
               f"the env config's taskset is a {type(config.taskset).__name__}, not vf-bridge's VfTasksetConfig")
        taskset = load_taskset(config.taskset)
        expect(type(taskset).__name__ == "VfTaskset", f"load_taskset gave a {type(taskset).__name__}")
        tasks.extend(taskset)
        expect(len(tasks) == num_tasks, f"{len(tasks)} tasks, asked for {num_tasks}")
        for task in tasks:
            expect(task.data.idx is not None and task.data.prompt, f"a task without idx or prompt: {task.data}")
        return f"{type(config).__name__}, {len(tasks)} tasks, first idx {tasks[0].data.idx}"

    await report.check(f"v1 loader: taskset id vf-bridge resolves and loads {name}", loader)
    if not tasks:
        return

    async def runs(kind: str) -> str:
        client_config = (vf.TrainClientConfig if kind == "train" else vf.EvalClientConfig)(
            base_url=target.model_url, api_key_var="VF_CHECK_NO_KEY")
        client = EnvClient(address=target.address)
        try:
            await client.wait_for_server_startup(timeout=120)
            rewards, overlong = [], 0
            for task in tasks:
                # As prime-rl's orchestrator sends a task: its data dumped to JSON.
                episode = await client.run(task_data=task.data.model_dump(mode="json"), client=client_config,
                                           model=target.model, sampling=vf.SamplingConfig(max_tokens=256,
                                                                                           temperature=0.0))
                expect(episode.ok, f"episode not ok: {[e.message for e in episode.errors]}")
                (trace,) = episode.traces
                expect(trace.ok, f"trace not ok: {[e.message for e in trace.errors]}")
                _expect_reward(trace.reward, target.expect_reward)
                if trace.stop_condition == "context_length":
                    # The prompt is over the model's context (the built-in model's 1,024 tokens):
                    # the episode ends, as with vLLM, with nothing sampled to train.
                    overlong += 1
                elif kind == "train":
                    _expect_trainable(trace, prime_rl)
                rewards.append(trace.reward)
            return f"rewards {[round(r, 3) for r in rewards]}" + (
                f", {overlong} over the model's context" if overlong else "")
        finally:
            await client.close()

    await report.check(f"v1 EnvClient.run, eval client: {name}", lambda: runs("eval"))
    rule = "prime-rl's branch rule" if prime_rl else "the trace's branches"
    await report.check(f"v1 EnvClient.run, train client, tokens through {rule}: {name}",
                       lambda: runs("train"))
    if prime_rl:
        await report.check(f"prime-rl Env.start and Env.run: {name}", lambda: _prime_rl_env(target, num_tasks))


def _expect_reward(reward: float | None, wanted: float | None) -> None:
    expect(reward is not None, "the trace has no reward")
    if wanted is not None:
        expect(abs(reward - wanted) < 1e-9, f"reward {reward}, the reference model gets {wanted}")


def _expect_trainable(trace, prime_rl: bool) -> None:
    """Every sampled token trains exactly once, by prime-rl's own rule where prime-rl is given (else
    by the trace's branches and their sampled masks), each with its sampler logprob."""
    if prime_rl:
        from prime_rl.orchestrator.trajectories import iter_trainable_branches
    else:
        def iter_trainable_branches(trace):
            return ((branch, list(branch.sampled_mask)) for branch in trace.branches)

    sampled = [node for node in trace.nodes if node.sampled]
    expect(sampled, "no sampled node in the trace")
    for node in sampled:
        expect(node.token_ids and any(node.mask), f"sampled node without tokens: {node.message}")
        expect(len(node.logprobs or []) == sum(node.mask), "a sampled node has not one logprob a sampled token")
    trained = 0
    branches = list(iter_trainable_branches(trace))
    expect(branches, "no trainable branch")
    for branch, mask in branches:
        expect(len(mask) == len(branch.token_ids) == len(branch.logprobs),
               "a branch's mask, tokens and logprobs differ in length")
        trained += sum(mask)
    expect(trained == sum(sum(node.mask) for node in sampled),
           f"the branches train {trained} tokens, the trace sampled {sum(sum(n.mask) for n in sampled)}")


async def _prime_rl_env(target: Target, num_tasks: int) -> str:
    """prime-rl's orchestrator code at first contact: its config classes narrow the source's env to
    the vf-bridge taskset; its ``EvalEnv`` connects to the external server, loads the taskset and
    runs episodes."""
    import verifiers.v1 as vf
    from prime_rl.configs.orchestrator import EvalSourceConfig
    from prime_rl.orchestrator.envs import EvalEnv

    source = EvalSourceConfig.model_validate({
        "name": target.env,
        "num_examples": num_tasks,
        "env": {"taskset": {"id": TASKSET_ID, "address": target.address, "split": "eval"}},
        "serve": {"address": target.address},
    })
    env = EvalEnv(source, source.serve.address)
    await env.start()
    expect(len(env.examples) == num_tasks, f"EvalEnv took {len(env.examples)} examples")
    client = vf.TrainClientConfig(base_url=target.model_url, api_key_var="VLLM_API_KEY")
    rewards = []
    for task in env.examples:
        episode = await env.run(client, target.model, None, task.data.model_dump(mode="json"))
        expect(episode.ok, f"episode not ok: {[e.message for e in episode.errors]}")
        rewards.append(episode.traces[0].reward)
    await env.env_client.close()
    return f"{num_tasks} examples, rewards {[round(r, 3) for r in rewards]}"
