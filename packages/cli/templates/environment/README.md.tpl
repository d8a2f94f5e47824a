# {{name}}

{{description}}

## Task

Each example asks for the capital of a country. The model answers inside `<answer>` tags:

```
<answer>
Paris
</answer>
```

## Reward

- `correct_city` (weight 1): 1 when the city in `<answer>` matches, ignoring case and spacing; else 0.
- `format` (weight 0.2): how well the reply keeps the `<answer>` format, from 0 to 1.

So a perfect reply scores 1.2 and a wrong, unformatted one scores 0.

## Arguments (`-a`)

| name      | default | meaning                          |
| --------- | ------- | -------------------------------- |
| `numEval` | 4       | examples held out for evaluation |
| `seed`    | 0       | seed of the train/eval split     |

## Try it

```sh
vf eval {{dir}}                          # the built-in local model
vf eval {{dir}} -m gpt-4.1-mini -n 4 -r 3 -s
npm test                                 # in this folder: the package's own tests
```
