"""Writes the PyTorch parity fixture for the engine (packages/engine/test-fixtures/torch-parity.safetensors).

Run with a Python that has torch (Debian: apt-get install python3-torch):
    /usr/bin/python3 packages/engine/scripts/make-torch-fixture.py

For a tiny config it records: the initial weights, the logits of a batch, the cross-entropy loss and
the gradient of every tensor, the masked importance-sampling loss and its gradients, and the weights
after two AdamW steps with gradient clipping. Inputs are tensors too (token ids as exact floats);
the config, the expected losses and the hyperparameters are JSON strings in the file's
__metadata__. parity.test.ts reads it without Python.
"""

import json
import pathlib
import struct
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from torch_model import Transformer, adamw  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "test-fixtures"
CONFIG = {"vocabSize": 263, "dModel": 16, "nLayers": 2, "nHeads": 4, "dFF": 48, "maxSeqLen": 16, "ropeTheta": 10000.0, "normEps": 1e-5}
B, T = 3, 12  # items of T tokens: T - 1 positions each
MASK_LOW, MASK_HIGH, TEMPERATURE = 0.125, 8.0, 0.8
LR, WEIGHT_DECAY, CLIP = 1e-2, 0.1, 1.0


def write_safetensors(path: pathlib.Path, tensors: dict, metadata: dict):
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        data = t.detach().to(torch.float32).contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header).encode()
    raw += b" " * ((8 - (8 + len(raw)) % 8) % 8)
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"".join(blobs))


def masked_is_loss(logits, targets, mask, sampler, adv):
    logp = F.log_softmax(logits / TEMPERATURE, dim=-1).gather(-1, targets[..., None])[..., 0]
    ratio = torch.exp(logp - sampler)
    keep = ((ratio >= MASK_LOW) & (ratio <= MASK_HIGH)).float()
    return -(ratio * adv * keep * mask).sum() / mask.sum(), logp


def main():
    torch.manual_seed(0)
    model = Transformer(CONFIG)
    with torch.no_grad():  # larger weights than a real init, so every nonlinearity is exercised
        for name, p in model.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1 + 0.2 * torch.randn_like(p))
            else:
                p.copy_(torch.randn_like(p) * (0.5 if name == "tok_emb.weight" else 0.3))
    initial = {f"param.{n}": p.detach().clone() for n, p in model.named_parameters()}

    tokens = torch.randint(0, CONFIG["vocabSize"], (B, T))
    mask = torch.ones(B, T)
    mask[:, :3] = 0  # a prompt of 3 tokens
    mask[1, 7] = 0  # and a tool output inside item 1
    inputs, targets, tmask = tokens[:, :-1], tokens[:, 1:], mask[:, 1:]

    # cross-entropy: logits and gradients
    logits = model(inputs)
    nll = F.cross_entropy(logits.reshape(-1, CONFIG["vocabSize"]), targets.reshape(-1), reduction="none")
    ce = (nll * tmask.reshape(-1)).sum() / tmask.sum()
    ce.backward()
    ce_grads = {f"ce.grad.{n}": p.grad.detach().clone() for n, p in model.named_parameters()}

    # masked importance sampling: sampler logprobs near the model's, some far enough to be dropped
    model.zero_grad()
    logits2 = model(inputs)
    with torch.no_grad():
        logp_now = F.log_softmax(logits2 / TEMPERATURE, dim=-1).gather(-1, targets[..., None])[..., 0]
        shift = torch.randn(B, T - 1) * 0.3
        shift[0, 4], shift[2, 9] = 4.0, -4.0  # r = e^-4 < 0.125 and r = e^4 > 8: dropped
        sampler = logp_now + shift
        adv = torch.randn(B, T - 1)
    is_loss, _ = masked_is_loss(logits2, targets, tmask, sampler, adv)
    is_loss.backward()
    is_grads = {f"is.grad.{n}": p.grad.detach().clone() for n, p in model.named_parameters()}

    # two AdamW steps on the cross-entropy loss, with clipping
    opt = adamw(model, LR, WEIGHT_DECAY)
    for _ in range(2):
        opt.zero_grad()
        logits3 = model(inputs)
        nll3 = F.cross_entropy(logits3.reshape(-1, CONFIG["vocabSize"]), targets.reshape(-1), reduction="none")
        ((nll3 * tmask.reshape(-1)).sum() / tmask.sum()).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        opt.step()
    stepped = {f"adamw.param.{n}": p.detach().clone() for n, p in model.named_parameters()}

    OUT.mkdir(exist_ok=True)
    pad = lambda t: torch.cat([torch.zeros(B, 1), t], dim=1)  # position 0 holds no prediction
    inputs_ = {"input.tokens": tokens.float(), "input.mask": mask, "input.sampler_logprobs": pad(sampler), "input.advantages": pad(adv)}
    metadata = {
        "about": "written by packages/engine/scripts/make-torch-fixture.py",
        "torch": torch.__version__,
        "config": json.dumps(CONFIG),
        "cross_entropy": json.dumps({"loss": ce.item()}),
        "masked_importance_sampling": json.dumps({"loss": is_loss.item(), "maskLow": MASK_LOW, "maskHigh": MASK_HIGH, "temperature": TEMPERATURE}),
        "adamw": json.dumps({"steps": 2, "learningRate": LR, "weightDecay": WEIGHT_DECAY, "gradClipNorm": CLIP, "beta1": 0.9, "beta2": 0.95, "eps": 1e-8}),
    }
    tensors = {**inputs_, **initial, "logits": logits.detach(), **ce_grads, **is_grads, **stepped}
    write_safetensors(OUT / "torch-parity.safetensors", tensors, metadata)
    print(f"wrote {OUT}/torch-parity.safetensors (torch {torch.__version__})")


if __name__ == "__main__":
    main()
