"""Independent references for chapter 05 (the KV cache). Instructor-only.

Written differently from the solution notebook on purpose: explicit loops, float64 and
plain Python arithmetic, so that a bug shared by the solution and a reference is unlikely.
"""
from __future__ import annotations

import math
from typing import List, Sequence

import torch

__all__ = [
    "kv_cache_bytes",
    "kv_cache_bytes_hint",
    "offset_causal_mask",
    "decoder_logits",
    "greedy_decode",
    "random_chunks",
]


def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2) -> int:
    """Bytes held by a KV cache: for every layer, sequence and position, one key and one value vector per KV head."""
    total = 0
    for _tensor in ("key", "value"):
        per_layer = batch_size * seq_len * num_kv_heads * head_dim * bytes_per_element
        total += per_layer * num_layers
    return int(total)


def kv_cache_bytes_hint(got, batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2) -> str:
    """Name the most likely bug when `got` differs from the reference (never reveals the inputs)."""
    right = kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element)
    per_tensor = right // 2
    candidates = [
        (per_tensor, "you counted only K or only V: the cache holds both (factor 2)"),
        (right // max(num_layers, 1), "you forgot to multiply by num_layers (every layer has its own cache)"),
        (right // max(batch_size, 1), "you forgot to multiply by batch_size"),
        (right // max(bytes_per_element, 1) * 2, "bytes_per_element is ignored (you always used 2 bytes)"),
        (right // max(bytes_per_element, 1), "you forgot to multiply by bytes_per_element (this counts elements, not bytes)"),
        (right * 2, "you counted K and V twice (factor 4 instead of 2)"),
    ]
    for value, hint in candidates:
        if got == value and value != right:
            return hint
    return "the result should be 2 (K and V) x batch_size x seq_len x num_layers x num_kv_heads x head_dim x bytes_per_element"


def offset_causal_mask(num_new: int, num_cached: int) -> torch.Tensor:
    """Bool [num_new, num_cached + num_new]: True where new query i (absolute position num_cached + i) may see key j."""
    total = num_cached + num_new
    rows = []
    for i in range(num_new):
        query_position = num_cached + i
        rows.append([key_position <= query_position for key_position in range(total)])
    return torch.tensor(rows, dtype=torch.bool).reshape(num_new, total)


def _layer_norm(x, weight, bias, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias


def _gelu(x):
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def decoder_logits(model, ids: torch.Tensor) -> torch.Tensor:
    """Full causal forward pass of the notebook's TinyDecoder, recomputed in float64 from its weights.

    ids: [B, S] -> logits [B, S, vocab_size] (float64). Loops over heads and query positions.
    """
    sd = {name: t.detach().to("cpu", torch.float64) for name, t in model.state_dict().items()}
    H, H_kv, L = int(model.num_heads), int(model.num_kv_heads), int(model.num_layers)
    hidden = int(model.hidden_dim)
    D = hidden // H
    group = H // H_kv
    ids = ids.to("cpu")
    B, S = ids.shape
    x = sd["tok_emb.weight"][ids] + sd["pos_emb.weight"][torch.arange(S)].unsqueeze(0)  # [B, S, hidden]
    for layer in range(L):
        p = f"layers.{layer}."
        h = _layer_norm(x, sd[p + "ln1.weight"], sd[p + "ln1.bias"])
        q = h @ sd[p + "attn.q_proj.weight"].T  # [B, S, H*D]
        k = h @ sd[p + "attn.k_proj.weight"].T  # [B, S, H_kv*D]
        v = h @ sd[p + "attn.v_proj.weight"].T
        heads = []
        for head in range(H):
            kv = head // group  # query heads head*... share KV head `kv` (contiguous groups)
            qh = q[..., head * D:(head + 1) * D]
            kh = k[..., kv * D:(kv + 1) * D]
            vh = v[..., kv * D:(kv + 1) * D]
            out_rows = []
            for t in range(S):
                scores = (qh[:, t:t + 1] * kh[:, :t + 1]).sum(-1) / math.sqrt(D)  # [B, t+1]
                w = torch.exp(scores - scores.max(dim=-1, keepdim=True).values)
                w = w / w.sum(dim=-1, keepdim=True)
                out_rows.append((w.unsqueeze(-1) * vh[:, :t + 1]).sum(1))  # [B, D]
            heads.append(torch.stack(out_rows, dim=1))  # [B, S, D]
        attn = torch.cat(heads, dim=-1) @ sd[p + "attn.o_proj.weight"].T
        x = x + attn
        h2 = _layer_norm(x, sd[p + "ln2.weight"], sd[p + "ln2.bias"])
        x = x + _gelu(h2 @ sd[p + "fc1.weight"].T) @ sd[p + "fc2.weight"].T
    x = _layer_norm(x, sd["ln_f.weight"], sd["ln_f.bias"])
    return x @ sd["lm_head.weight"].T


def greedy_decode(model, prompt_ids: torch.Tensor, max_new_tokens: int) -> torch.Tensor:
    """Greedy decoding by recomputing the float64 reference forward pass on the whole sequence every step."""
    ids = prompt_ids.to("cpu").clone()
    for _ in range(max_new_tokens):
        nxt = decoder_logits(model, ids)[:, -1].argmax(dim=-1)
        ids = torch.cat([ids, nxt[:, None]], dim=1)
    return ids


def random_chunks(total: int, generator: torch.Generator = None) -> List[int]:
    """A random composition of `total` into positive chunk sizes (first chunk often longer, like a prompt)."""
    sizes: List[int] = []
    left = total
    while left > 0:
        n = int(torch.randint(1, left + 1, (), generator=generator))
        if sizes and torch.rand((), generator=generator) < 0.5:
            n = 1  # single-token decode steps are common
        sizes.append(n)
        left -= n
    return sizes
