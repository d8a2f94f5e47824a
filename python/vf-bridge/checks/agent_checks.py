"""Agents through verifiers v1, with verifiers' and prime-rl's own code: ``vf env serve coding-tasks
--harness bash`` (the bash agent in the local sandbox) against vf's scripted coding model, which
fixes js-slugify with one bash call and then answers "Done.". verifiers' loader takes the tasks
(taskset id ``vf-bridge``); its v1 ``EnvClient.run`` with a train client gets the agent's trace as
a ``WireEpisode`` scored 1; prime-rl's ``iter_trainable_branches`` trains every sampled token of it
once; prime-rl's ``EvalEnv`` (the orchestrator's source) runs the same task."""

from __future__ import annotations

from report import Report, expect
from v1_checks import TASKSET_ID, _expect_trainable
from vf_processes import Processes

TASKSET = "coding-tasks"
FIXED = "js-slugify"


async def check_agents(report: Report, processes: Processes, prime_rl: bool, runtime: str = "local") -> None:
    import verifiers.v1 as vf
    from verifiers.v1.serve import EnvClient
    from verifiers.v1.utils.loaders import load_taskset, resolve_env_config

    name = f"{TASKSET} --harness bash --runtime {runtime}"
    address = processes.agent_server(TASKSET, "bash", runtime)
    model_url = processes.coding_model()
    found: list = []

    async def loader() -> str:
        config = resolve_env_config({"taskset": {"id": TASKSET_ID, "address": address, "split": "eval"}})
        tasks = list(load_taskset(config.taskset))
        found.extend(task for task in tasks if task.data.task == FIXED)
        expect(len(found) == 1, f"no task {FIXED} among {[task.data.task for task in tasks]}")
        return f"{len(tasks)} tasks: {', '.join(task.data.task for task in tasks)}"

    await report.check(f"v1 loader: taskset id vf-bridge loads the tasks of {name}", loader)
    if not found:
        return
    task_data = found[0].data.model_dump(mode="json")

    async def run() -> str:
        client = EnvClient(address=address)
        try:
            await client.wait_for_server_startup(timeout=120)
            episode = await client.run(task_data=task_data,
                                       client=vf.TrainClientConfig(base_url=model_url, api_key_var="VF_CHECK_NO_KEY"),
                                       model="scripted", sampling=vf.SamplingConfig(max_tokens=512, temperature=0.7))
        finally:
            await client.close()
        # verifiers' WireEpisode: Episode[WireTaskData, State, WireAgentConfig].
        expect(type(episode).__name__.startswith("Episode[WireTaskData"), f"EnvClient.run gave a {type(episode).__name__}")
        expect(episode.ok, f"episode not ok: {[e.message for e in episode.errors]}")
        (trace,) = episode.traces
        expect(trace.ok, f"trace not ok: {[e.message for e in trace.errors]}")
        expect(trace.reward == 1.0, f"reward {trace.reward}, the fixed task scores 1")
        expect(trace.stop_condition == "agent_completed", f"stop {trace.stop_condition}")
        expect(trace.num_turns == 2 and len(trace.calls) == 2, f"{trace.num_turns} turns, {len(trace.calls)} calls")
        (branch,) = trace.branches
        roles = [message.role for message in branch.messages]
        expect(roles == ["system", "user", "assistant", "tool", "assistant"], f"the branch's roles are {roles}")
        bash = branch.messages[2].tool_calls[0]
        expect(bash.name == "bash", f"the first call is {bash.name}, not bash")
        _expect_trainable(trace, prime_rl)
        sampled = sum(sum(node.mask) for node in trace.nodes if node.sampled)
        return (f"reward {trace.reward}, stop {trace.stop_condition}, {len(trace.nodes)} nodes, "
                f"{len(branch.token_ids)} tokens on its branch, {sampled} sampled, each trained once")

    rule = "prime-rl's iter_trainable_branches" if prime_rl else "the trace's branches"
    await report.check(f"v1 EnvClient.run, train client, the bash agent's trace through {rule}: {name}", run)
    if prime_rl:
        await report.check(f"prime-rl EvalEnv.start and run: {name}", lambda: _prime_rl_env(address, model_url))


async def _prime_rl_env(address: str, model_url: str) -> str:
    """prime-rl's orchestrator source on the served taskset: its config narrows the source's env to
    the vf-bridge taskset, its ``EvalEnv`` connects to the server and runs js-slugify's episode."""
    import verifiers.v1 as vf
    from prime_rl.configs.orchestrator import EvalSourceConfig
    from prime_rl.orchestrator.envs import EvalEnv

    source = EvalSourceConfig.model_validate({
        "name": TASKSET,
        "env": {"taskset": {"id": TASKSET_ID, "address": address, "split": "eval"}},
        "serve": {"address": address},
    })
    env = EvalEnv(source, source.serve.address)
    await env.start()
    try:
        [task] = [task for task in env.examples if task.data.task == FIXED]
        client = vf.TrainClientConfig(base_url=model_url, api_key_var="VLLM_API_KEY")
        episode = await env.run(client, "scripted", None, task.data.model_dump(mode="json"))
    finally:
        await env.env_client.close()
    expect(episode.ok, f"episode not ok: {[e.message for e in episode.errors]}")
    reward = episode.traces[0].reward
    expect(reward == 1.0, f"reward {reward}")
    return f"{len(env.examples)} examples, {FIXED}: reward {reward}"
