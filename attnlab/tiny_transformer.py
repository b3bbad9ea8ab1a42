"""The course's tiny trained transformers, so that attention maps show something worth looking at.

Two toy tasks whose heads learn patterns you can read off the map:

- "reverse": read 8 digits, output them in reverse order. No mask: position i must look at
  position 7 - i, so a trained head draws the anti-diagonal.
- "copy": read 8 digits, a separator "|", then write the digits again one at a time with a causal
  mask (like a language model). To predict the next digit, a head looks back 8 positions to the
  first copy (a shifted diagonal), and its previous-token neighbours help.

The attention layers are torch.nn.MultiheadAttention (batch_first=True) asked for per-head weights
(need_weights=True, average_attn_weights=False); the course's exercises write attention by hand.

Weights of both trained models ship in attnlab/data/tiny_transformers.pt
(rebuild them with `python scripts/train_tiny_model.py`).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Dict, Optional

import torch
from torch import nn
import torch.nn.functional as F

__all__ = ["TASKS", "Task", "TinyTransformer", "make_batch", "example", "train", "load_trained",
           "attention_maps", "predict", "model_figure", "WEIGHTS_PATH", "NUM_EXAMPLES", "SEQ_LEN"]

SEQ_LEN = 8          # digits per sequence
NUM_DIGITS = 10      # tokens 0..9
SEP = NUM_DIGITS     # the copy task's separator token, shown as "|"
NUM_EXAMPLES = 8     # fixed example inputs offered by the viewer
WEIGHTS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tiny_transformers.pt")


@dataclass(frozen=True)
class Task:
    """A toy task: its title, whether the model is trained with a causal mask, and its input length."""
    name: str
    title: str
    causal: bool
    length: int          # tokens fed to the model
    vocab_size: int


TASKS: Dict[str, Task] = {
    "reverse": Task("reverse", "reverse 8 digits (no mask)", causal=False, length=SEQ_LEN, vocab_size=NUM_DIGITS),
    "copy": Task("copy", "copy 8 digits after '|' (causal)", causal=True, length=2 * SEQ_LEN, vocab_size=NUM_DIGITS + 1),
}


def make_batch(task: str, batch_size: int, generator: Optional[torch.Generator] = None):
    """Random examples of `task`: (tokens [B, S], targets [B, S], loss_mask [B, S] bool).

    reverse: tokens = x (8 digits), targets = x reversed, every position scored.
    copy:    sequence x | x; tokens = its first 16 tokens, targets = the next token at each position,
             scored only where the next token is a digit of the second copy (positions 8..15).
    """
    digits = torch.randint(0, NUM_DIGITS, (batch_size, SEQ_LEN), generator=generator)
    if task == "reverse":
        return digits, digits.flip(1), torch.ones(batch_size, SEQ_LEN, dtype=torch.bool)
    if task == "copy":
        sep = torch.full((batch_size, 1), SEP, dtype=torch.long)
        full = torch.cat([digits, sep, digits], dim=1)  # [B, 17]
        mask = torch.zeros(batch_size, 2 * SEQ_LEN, dtype=torch.bool)
        mask[:, SEQ_LEN:] = True
        return full[:, :-1], full[:, 1:], mask
    raise ValueError(f"unknown task {task!r}; choose one of {list(TASKS)}")


def example(task: str, index: int):
    """The viewer's fixed example number `index` (0 <= index < NUM_EXAMPLES): (tokens [S], targets [S], mask [S])."""
    generator = torch.Generator().manual_seed(1000 + index)
    tokens, targets, mask = make_batch(task, 1, generator)
    return tokens[0], targets[0], mask[0]


def token_labels(tokens) -> list:
    """Printable labels of a token sequence: digits, and '|' for the separator."""
    return ["|" if int(t) == SEP else str(int(t)) for t in tokens]


class Block(nn.Module):
    """Pre-norm transformer block: x + attention(norm(x)), then x + MLP(norm(x))."""

    def __init__(self, d_model: int, num_heads: int, d_ff: int):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
        self.norm2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, x, mask):
        """x: [B, S, d_model]; mask: [S, S] bool (True = may not attend) or None.
        Returns (x [B, S, d_model], weights [B, H, S, S])."""
        h = self.norm1(x)
        out, weights = self.attn(h, h, h, attn_mask=mask, need_weights=True, average_attn_weights=False)
        x = x + out
        return x + self.mlp(self.norm2(x)), weights


class TinyTransformer(nn.Module):
    """Token + learned position embeddings, `num_layers` blocks, a linear read-out to the vocabulary."""

    def __init__(self, vocab_size: int, max_len: int, d_model: int = 64, num_heads: int = 4,
                 num_layers: int = 2, d_ff: int = 128):
        super().__init__()
        self.config = dict(vocab_size=vocab_size, max_len=max_len, d_model=d_model, num_heads=num_heads,
                           num_layers=num_layers, d_ff=d_ff)
        self.num_heads, self.num_layers = num_heads, num_layers
        self.embed = nn.Embedding(vocab_size, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(Block(d_model, num_heads, d_ff) for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, vocab_size)

    def forward(self, tokens, causal: bool = False):
        """tokens: [B, S] ints. Returns (logits [B, S, vocab], weights [L, B, H, S, S])."""
        seq_len = tokens.shape[1]
        x = self.embed(tokens) + self.pos(torch.arange(seq_len, device=tokens.device))
        mask = None
        if causal:
            mask = torch.ones(seq_len, seq_len, dtype=torch.bool, device=tokens.device).triu(1)
        maps = []
        for block in self.blocks:
            x, weights = block(x, mask)
            maps.append(weights)
        return self.out(self.norm(x)), torch.stack(maps)


def new_model(task: str, **sizes) -> TinyTransformer:
    """An untrained model sized for `task`."""
    spec = TASKS[task]
    return TinyTransformer(spec.vocab_size, spec.length, **sizes)


def train(task: str, steps: int = 600, seed: int = 0, batch_size: int = 128, lr: float = 3e-3,
          log_every: int = 0, **sizes):
    """Train a fresh model on `task` with AdamW; returns (model, final accuracy on 512 new examples, seconds)."""
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    model = new_model(task, **sizes)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=steps, pct_start=0.1)
    causal = TASKS[task].causal
    start = time.perf_counter()
    model.train()
    for step in range(steps):
        tokens, targets, scored = make_batch(task, batch_size, generator)
        logits, _ = model(tokens, causal=causal)
        loss = F.cross_entropy(logits[scored], targets[scored])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        schedule.step()
        if log_every and (step % log_every == 0 or step == steps - 1):
            print(f"{task} step {step:4d} loss {loss.item():.4f}")
    seconds = time.perf_counter() - start
    model.eval()
    return model, accuracy(model, task, seed + 1), seconds


@torch.no_grad()
def accuracy(model: TinyTransformer, task: str, seed: int = 1, n: int = 512) -> float:
    """Share of scored tokens predicted right on `n` fresh random examples."""
    tokens, targets, scored = make_batch(task, n, torch.Generator().manual_seed(seed))
    logits, _ = model(tokens, causal=TASKS[task].causal)
    return (logits.argmax(-1) == targets)[scored].float().mean().item()


def save_trained(models: Dict[str, TinyTransformer], path: str = WEIGHTS_PATH) -> None:
    """Write the models' configs and weights (float32) to one file."""
    payload = {name: {"config": m.config, "state": {k: v.detach().clone() for k, v in m.state_dict().items()}}
               for name, m in models.items()}
    torch.save(payload, path)


_CACHE: Dict[str, TinyTransformer] = {}


def load_trained(task: str, path: str = WEIGHTS_PATH) -> TinyTransformer:
    """The shipped trained model for `task` ("reverse" or "copy"), in eval mode (cached after the first load)."""
    key = f"{path}::{task}"
    if key not in _CACHE:
        payload = torch.load(path, map_location="cpu", weights_only=True)
        for name, entry in payload.items():
            model = TinyTransformer(**entry["config"])
            model.load_state_dict(entry["state"])
            _CACHE[f"{path}::{name}"] = model.eval()
    return _CACHE[key]


@torch.no_grad()
def attention_maps(model: TinyTransformer, tokens, causal: bool):
    """Per-head maps for one sequence: tokens [S] -> weights [L, H, S, S]."""
    _, weights = model(torch.as_tensor(tokens).reshape(1, -1), causal=causal)
    return weights[:, 0]


@torch.no_grad()
def predict(model: TinyTransformer, tokens, causal: bool):
    """Most likely next/output token at every position: tokens [S] -> predictions [S]."""
    logits, _ = model(torch.as_tensor(tokens).reshape(1, -1), causal=causal)
    return logits[0].argmax(-1)


def model_figure(model: TinyTransformer, task: str, index: int, layer: int, head: int, causal: bool):
    """The trained_model_viewer's picture: all heads of `layer`, head `head` enlarged, and the predictions."""
    from .widgets import head_viewer_figure

    tokens, targets, scored = example(task, index)
    weights = attention_maps(model, tokens, causal)
    predicted = predict(model, tokens, causal)
    right = int((predicted == targets)[scored].sum())
    shown = scored.nonzero().flatten().tolist()
    lines = [
        f"input   {' '.join(token_labels(tokens))}",
        f"target  {' '.join(token_labels(targets[shown]))}",
        f"model   {' '.join(token_labels(predicted[shown]))}    ({right} of {len(shown)} right, "
        f"causal mask {'on' if causal else 'off'}; trained {'with' if TASKS[task].causal else 'without'} it)",
    ]
    return head_viewer_figure(weights, layer, head, token_labels(tokens), title=f"{TASKS[task].title}: layer {layer}",
                              footer="\n".join(lines))
