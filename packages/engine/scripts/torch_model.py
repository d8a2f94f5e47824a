"""The engine's transformer in PyTorch: the reference that packages/engine/src/model.ts must match.

Same architecture, same parameter names (so state_dict keys are the engine's tensor names), same
rotary convention (pairs (i, i + D/2), angle pos * theta^(-i/(D/2))), same RMSNorm (eps inside the
square root), SwiGLU MLP, embedding tied with the output head. Used by make-torch-fixture.py
(parity fixture) and by bench/engine/train_step_torch.py (speed comparison).
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(max_seq_len: int, head_dim: int, theta: float):
    half = head_dim // 2
    inv = theta ** (-torch.arange(half, dtype=torch.float64) / half)
    angles = torch.arange(max_seq_len, dtype=torch.float64)[:, None] * inv[None, :]
    return angles.cos().float(), angles.sin().float()


def rotate(x, cos, sin):
    """x (B, H, T, D) rotated pairwise: (a, b) -> (a cos - b sin, b cos + a sin)."""
    a, b = x.chunk(2, dim=-1)
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)


class Attention(nn.Module):
    def __init__(self, c: int, n_heads: int):
        super().__init__()
        self.n_heads = n_heads
        self.wq = nn.Linear(c, c, bias=False)
        self.wk = nn.Linear(c, c, bias=False)
        self.wv = nn.Linear(c, c, bias=False)
        self.wo = nn.Linear(c, c, bias=False)

    def forward(self, x, cos, sin):
        B, T, C = x.shape
        H, D = self.n_heads, C // self.n_heads
        q = self.wq(x).view(B, T, H, D).transpose(1, 2)
        k = self.wk(x).view(B, T, H, D).transpose(1, 2)
        v = self.wv(x).view(B, T, H, D).transpose(1, 2)
        q, k = rotate(q, cos[:T], sin[:T]), rotate(k, cos[:T], sin[:T])
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D))
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        att = att.masked_fill(causal, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.wo(y)


class MLP(nn.Module):
    def __init__(self, c: int, d_ff: int):
        super().__init__()
        self.w1 = nn.Linear(c, d_ff, bias=False)  # gate
        self.w3 = nn.Linear(c, d_ff, bias=False)  # up
        self.w2 = nn.Linear(d_ff, c, bias=False)  # down

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, cfg: dict):
        super().__init__()
        self.attn_norm = RMSNorm(cfg["dModel"], cfg["normEps"])
        self.attn = Attention(cfg["dModel"], cfg["nHeads"])
        self.mlp_norm = RMSNorm(cfg["dModel"], cfg["normEps"])
        self.mlp = MLP(cfg["dModel"], cfg["dFF"])

    def forward(self, x, cos, sin):
        x = x + self.attn(self.attn_norm(x), cos, sin)
        return x + self.mlp(self.mlp_norm(x))


class Transformer(nn.Module):
    """cfg is the engine's ModelConfig dict (camelCase keys, as in config.json)."""

    def __init__(self, cfg: dict):
        super().__init__()
        self.tok_emb = nn.Embedding(cfg["vocabSize"], cfg["dModel"])
        self.layers = nn.ModuleList([Block(cfg) for _ in range(cfg["nLayers"])])
        self.norm = RMSNorm(cfg["dModel"], cfg["normEps"])
        cos, sin = rope_tables(cfg["maxSeqLen"], cfg["dModel"] // cfg["nHeads"], cfg["ropeTheta"])
        self.register_buffer("rope_cos", cos, persistent=False)
        self.register_buffer("rope_sin", sin, persistent=False)

    def forward(self, idx):
        """idx (B, T) token ids -> logits (B, T, V)."""
        x = self.tok_emb(idx)
        for layer in self.layers:
            x = layer(x, self.rope_cos, self.rope_sin)
        return self.norm(x) @ self.tok_emb.weight.t()


def adamw(model: Transformer, lr: float, weight_decay: float, betas=(0.9, 0.95), eps=1e-8):
    """AdamW as the engine applies it: decay on every matrix and the embedding, never on norm gains."""
    decay = [p for n, p in model.named_parameters() if not n.endswith("norm.weight")]
    no_decay = [p for n, p in model.named_parameters() if n.endswith("norm.weight")]
    groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=lr, betas=betas, eps=eps)
