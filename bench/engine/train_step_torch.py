"""One training step of the engine's reference model in PyTorch on CPU, timed; prints one JSON line.

Called by train-step.ts with the config and batch shape, so both sides time the identical model:
forward, mean cross-entropy over every position, backward, gradient clipping, AdamW.
"""

import json
import pathlib
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "packages" / "engine" / "scripts"))
from torch_model import Transformer, adamw  # noqa: E402


def main():
    args = json.loads(sys.argv[1])
    cfg, batch, seq = args["config"], args["batch"], args["seq"]
    torch.set_num_threads(args["threads"])
    torch.manual_seed(0)
    model = Transformer(cfg)
    opt = adamw(model, lr=1e-3, weight_decay=0.1)
    tokens = torch.randint(0, 256, (batch, seq + 1))
    inputs, targets = tokens[:, :-1], tokens[:, 1:]

    def step():
        opt.zero_grad(set_to_none=True)
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, cfg["vocabSize"]), targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss.item()

    for _ in range(args["warmup"]):
        step()
    times = []
    for _ in range(args["steps"]):
        t0 = time.perf_counter()
        step()
        times.append((time.perf_counter() - t0) * 1000)
    config = torch.__config__.show()
    blas = next((part.split("=")[1] for part in config.replace(",", " ").split() if part.startswith("BLAS_INFO=")), "?")
    print(json.dumps({"times": times, "threads": torch.get_num_threads(), "torch": torch.__version__, "blas": blas}))


if __name__ == "__main__":
    main()
