# {{name}}

{{description}}

## Task

Each example is a sentence about a capital city. The model writes it backwards, character by
character, inside `<reversed_text>` tags:

```
<reversed_text>
.ecnarF fo latipac eht si siraP
</reversed_text>
```

## Reward

- `reversal` (weight 1): how close the text in `<reversed_text>` is to the reversed sentence (the
  longest-common-subsequence ratio, 0 to 1); 0 when the reply has no such tags.
- `format` (weight 0.2): how well the reply keeps the `<reversed_text>` format, from 0 to 1.

So a perfect reply scores 1.2 and an unformatted one 0.

## Arguments (`-a`)

| name      | default | meaning                          |
| --------- | ------- | -------------------------------- |
| `numEval` | 5       | examples held out for evaluation |
| `seed`    | 0       | seed of the train/eval split     |

## Try it

```sh
{{evalCommand}}    # the built-in model, offline
{{evalCommand}} -m gpt-4.1-mini -n 5 -r 3 -s    # a model of your choice; -s saves the run
npm test    # in this folder: the package's own tests
```

## In CI, with no key

Record a model's answers once, commit `.vf-cache/`, and replay them in CI: no key, no network, the
same answers every time, and exit code 3 when the score drops below the gate.

```sh
{{evalCommand}} -m gpt-4.1-mini -n 5 -r 3 --cache .vf-cache    # record (needs OPENAI_API_KEY)
{{evalCommand}} -m gpt-4.1-mini -n 5 -r 3 --cache .vf-cache --cache-mode replay --fail-under 0.8
```

A change to the prompts misses the cache and fails with the request it missed; a change to the
rubric scores the recorded answers anew. Add `--junit FILE` for a CI's test report.

The built-in model (`vf eval` without `-m`) is tiny: it was trained only on vf's own tasks in their
own wording (reversing text, as here, sorting names, tool-arithmetic's calculator, short sums in
gsm8k's format). It scores well on this scaffold and about 0 on a task of your own: evaluate that
with `-m` and any OpenAI-compatible model.
