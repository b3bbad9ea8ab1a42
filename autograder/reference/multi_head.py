"""Instructor-only references for chapter 03 (multi-head attention).

Written differently from the solution on purpose: explicit index loops for the head split and
merge, and a float64 loop over batch entries and heads for attention. Test cells compare a
student's answers with these.
"""
from __future__ import annotations

import math
from typing import Dict, Optional, Tuple

import torch

__all__ = [
    "PROJECTIONS",
    "split_heads",
    "merge_heads",
    "random_state_dict",
    "multi_head_attention",
    "torch_mha_from_state_dict",
    "random_shapes",
]

PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")


def split_heads(x: torch.Tensor, num_heads: int) -> torch.Tensor:
    """[B, S, H*D] -> [B, H, S, D] with out[b, h, s, d] = x[b, s, h*D + d], built entry by entry."""
    B, S, HD = x.shape
    assert HD % num_heads == 0
    D = HD // num_heads
    out = torch.empty(B, num_heads, S, D, dtype=x.dtype)
    for h in range(num_heads):
        for d in range(D):
            out[:, h, :, d] = x[:, :, h * D + d]
    return out


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """[B, H, S, D] -> [B, S, H*D] with out[b, s, h*D + d] = x[b, h, s, d], built entry by entry."""
    B, H, S, D = x.shape
    out = torch.empty(B, S, H * D, dtype=x.dtype)
    for h in range(H):
        for d in range(D):
            out[:, :, h * D + d] = x[:, h, :, d]
    return out


def random_state_dict(d_model: int, dtype: torch.dtype = torch.float32, scale: float = 1.0) -> Dict[str, torch.Tensor]:
    """Random weights and biases for the four d_model -> d_model projections (nonzero biases on purpose)."""
    sd = {}
    for name in PROJECTIONS:
        sd[f"{name}.weight"] = (torch.randn(d_model, d_model, dtype=torch.float64) * scale / math.sqrt(d_model)).to(dtype)
        sd[f"{name}.bias"] = (torch.randn(d_model, dtype=torch.float64) * 0.5).to(dtype)
    return sd


def multi_head_attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    state_dict: Dict[str, torch.Tensor],
    num_heads: int,
    mask: Optional[torch.Tensor] = None,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Multi-head attention in float64, one batch entry and one head at a time.

    Returns (output [B, S_q, d_model], weights [B, H, S_q, S_k]) in float64.
    """
    w = {k: v.detach().to(torch.float64) for k, v in state_dict.items()}
    q_in, k_in, v_in = (t.detach().to(torch.float64) for t in (query, key, value))
    B, S_q, d_model = q_in.shape
    S_k = k_in.shape[1]
    D = d_model // num_heads
    full_mask = None
    if mask is not None:
        full_mask = torch.broadcast_to(mask.detach().to(torch.float64), (B, num_heads, S_q, S_k))

    def project(x, name):
        return torch.einsum("bsi,oi->bso", x, w[f"{name}.weight"]) + w[f"{name}.bias"]

    q_all, k_all, v_all = project(q_in, "q_proj"), project(k_in, "k_proj"), project(v_in, "v_proj")
    weights = torch.zeros(B, num_heads, S_q, S_k, dtype=torch.float64)
    heads_out = torch.zeros(B, S_q, d_model, dtype=torch.float64)
    for b in range(B):
        for h in range(num_heads):
            cols = slice(h * D, (h + 1) * D)
            q, k, v = q_all[b, :, cols], k_all[b, :, cols], v_all[b, :, cols]
            scores = (q @ k.T) / math.sqrt(D)
            if full_mask is not None:
                scores = scores + full_mask[b, h]
            scores = scores - scores.max(dim=-1, keepdim=True).values
            e = scores.exp()
            p = e / e.sum(dim=-1, keepdim=True)
            weights[b, h] = p
            heads_out[b, :, cols] = p @ v
    out = torch.einsum("bsi,oi->bso", heads_out, w["o_proj.weight"]) + w["o_proj.bias"]
    return out, weights


def torch_mha_from_state_dict(state_dict: Dict[str, torch.Tensor], num_heads: int) -> torch.nn.MultiheadAttention:
    """torch.nn.MultiheadAttention (batch_first) holding the same weights as `state_dict`."""
    d_model = state_dict["q_proj.weight"].shape[0]
    dtype = state_dict["q_proj.weight"].dtype
    m = torch.nn.MultiheadAttention(d_model, num_heads, bias=True, batch_first=True, dtype=dtype)
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.cat([state_dict[f"{n}.weight"] for n in ("q_proj", "k_proj", "v_proj")]))
        m.in_proj_bias.copy_(torch.cat([state_dict[f"{n}.bias"] for n in ("q_proj", "k_proj", "v_proj")]))
        m.out_proj.weight.copy_(state_dict["o_proj.weight"])
        m.out_proj.bias.copy_(state_dict["o_proj.bias"])
    return m


def random_shapes(generator: Optional[torch.Generator] = None) -> Dict[str, int]:
    """Fresh shapes where the usual bugs cannot hide: B >= 2, H >= 2, S_q != S_k, head_dim >= 2."""
    def r(lo, hi):
        return int(torch.randint(lo, hi + 1, (1,), generator=generator))

    B, H, D = r(2, 3), r(2, 5), r(2, 6)
    S_q = r(2, 7)
    S_k = r(2, 7)
    while S_k == S_q:
        S_k = r(2, 8)
    return {"B": B, "H": H, "D": D, "d_model": H * D, "S_q": S_q, "S_k": S_k}
