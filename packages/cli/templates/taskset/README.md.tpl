# {{name}}

{{description}}

A taskset: tasks for an agent program (a harness: `bash`, `claude-code`, `codex`, `opencode`,
`chat`) that works in a folder of its own, and a score of what it left there.

## Task

Each task asks for a country's capital. The agent answers with the task's `submit` tool (served to
it over MCP, for harnesses that have an MCP client) or by writing the answer alone to `answer.txt`.

## Reward

- `reward`: 1 when `answer.txt` holds the capital (case aside), else 0.
- `answered` (a metric, weight 0): 1 when the agent left an answer at all.

## Arguments (`-a`)

| name          | default | meaning                                 |
| ------------- | ------- | --------------------------------------- |
| `numEval`     | all 6   | tasks at most                           |
| `timeSeconds` | 120     | seconds an agent may take on one task   |

## Try it

```sh
{{validateCommand}}    # no model: the reference answers score 1
{{evalCommand}} --harness bash -m gpt-4.1-mini -n 6 -r 2 -s    # an agent and a model of your choice
{{evalCommand}} --harness claude-code -m MODEL    # any harness; the model is served to it by vf
npm test    # in this folder: the package's own tests
```

The built-in model (`vf eval` without `-m`) cannot drive an agent: give a model with `-m`.
