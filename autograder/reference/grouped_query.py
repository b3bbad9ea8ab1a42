"""Instructor-only references for chapter 04 (MQA / GQA).

Written on purpose in a different style from the chapter's solution: float64 throughout,
explicit loops over batch and query heads, index arithmetic instead of `repeat_kv`.
The hidden tests compare a submission with these functions, and `likely_bug` recomputes a few
typical wrong variants to name the mistake in a failure message.
"""
from __future__ import annotations

import math
from typing import Dict, Optional, Tuple

import torch

__all__ = [
    "repeat_kv_ref",
    "allowed_keys",
    "causal_mask_ref",
    "gqa_forward_ref",
    "gqa_ref_from_state",
    "likely_bug",
    "random_config",
    "qkv_param_count_ref",
    "check_output",
]


def repeat_kv_ref(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """[B, H_kv, S, D] -> [B, H_kv * n_rep, S, D]; output head j is input head j // n_rep."""
    h_kv = x.shape[1]
    index = torch.tensor([j // n_rep for j in range(h_kv * n_rep)], dtype=torch.long)
    return x.index_select(1, index)


def allowed_keys(num_queries: int, num_keys: int) -> torch.Tensor:
    """Bool [S_q, S_k]: True where query i (the last S_q positions of S_k) may read key j."""
    offset = num_keys - num_queries
    rows = []
    for i in range(num_queries):
        rows.append([j <= i + offset for j in range(num_keys)])
    return torch.tensor(rows, dtype=torch.bool)


def causal_mask_ref(num_queries: int, num_keys: int, dtype=torch.float64) -> torch.Tensor:
    """Additive causal mask [1, 1, S_q, S_k]: 0 where allowed, -inf elsewhere (bottom-right aligned)."""
    allowed = allowed_keys(num_queries, num_keys)
    mask = torch.zeros(num_queries, num_keys, dtype=dtype)
    mask[~allowed] = float("-inf")
    return mask[None, None]


def _softmax_row(row: torch.Tensor) -> torch.Tensor:
    finite = torch.isfinite(row)
    out = torch.zeros_like(row)
    if not bool(finite.any()):
        return out * float("nan")
    m = row[finite].max()
    e = torch.where(finite, torch.exp(row - m), torch.zeros_like(row))
    return e / e.sum()


def gqa_forward_ref(
    x: torch.Tensor,
    wq: torch.Tensor,
    wk: torch.Tensor,
    wv: torch.Tensor,
    wo: torch.Tensor,
    num_heads: int,
    num_kv_heads: int,
    mask: Optional[torch.Tensor] = None,
    past: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
    *,
    pairing: str = "interleave",
    scale: str = "sqrt_head_dim",
    use_mask: bool = True,
    past_first: bool = True,
    own_causal: bool = False,
) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor]]:
    """Float64 loop reference of the chapter's GroupedQueryAttention.forward.

    Weights are nn.Linear weights ([out, in]). Returns (output [B, S, hidden], (k, v) [B, H_kv, T, D]).
    The keyword options build the usual wrong variants (used only to name bugs):
    pairing "tile" (query head i reads KV head i % H_kv), scale "none" / "head_dim" / "hidden_dim",
    use_mask False, past_first False (cache concatenated after the new keys), own_causal True (a causal mask
    is applied even when none is given).
    """
    f = torch.float64
    x, wq, wk, wv, wo = (t.detach().to("cpu", f) for t in (x, wq, wk, wv, wo))
    b, s, hidden = x.shape
    d = hidden // num_heads
    n_rep = num_heads // num_kv_heads
    q_all = torch.einsum("bsi,oi->bso", x, wq)
    k_new = torch.einsum("bsi,oi->bso", x, wk)
    v_new = torch.einsum("bsi,oi->bso", x, wv)
    # [B, S, H*D] -> per head h the columns h*D:(h+1)*D
    k_heads = torch.stack([k_new[:, :, g * d:(g + 1) * d] for g in range(num_kv_heads)], dim=1)
    v_heads = torch.stack([v_new[:, :, g * d:(g + 1) * d] for g in range(num_kv_heads)], dim=1)
    if past is not None:
        pk, pv = (t.detach().to("cpu", f) for t in past)
        if past_first:
            k_heads, v_heads = torch.cat([pk, k_heads], 2), torch.cat([pv, v_heads], 2)
        else:
            k_heads, v_heads = torch.cat([k_heads, pk], 2), torch.cat([v_heads, pv], 2)
    t_len = k_heads.shape[2]
    factor = {"sqrt_head_dim": 1 / math.sqrt(d), "none": 1.0, "head_dim": 1 / d,
              "hidden_dim": 1 / math.sqrt(hidden)}[scale]
    if mask is not None and use_mask:
        full_mask = mask.detach().to("cpu", f).expand(b, num_heads, s, t_len)
    else:
        full_mask = torch.zeros(b, num_heads, s, t_len, dtype=f)
    if own_causal:
        full_mask = full_mask + causal_mask_ref(s, t_len)
    heads_out = torch.zeros(b, s, num_heads * d, dtype=f)
    for bi in range(b):
        for h in range(num_heads):
            g = h // n_rep if pairing == "interleave" else h % num_kv_heads
            q = q_all[bi, :, h * d:(h + 1) * d]  # [S, D]
            k = k_heads[bi, g]  # [T, D]
            v = v_heads[bi, g]
            for i in range(s):
                scores = torch.mv(k, q[i]) * factor + full_mask[bi, h, i]
                w = _softmax_row(scores)
                heads_out[bi, i, h * d:(h + 1) * d] = torch.mv(v.T, w)
    out = torch.einsum("bsi,oi->bso", heads_out, wo)
    return out, (k_heads, v_heads)


def gqa_ref_from_state(state: Dict[str, torch.Tensor], x, num_heads, num_kv_heads, mask=None, past=None, **kw):
    """Same as gqa_forward_ref, reading the weights from a state_dict with the chapter's names."""
    return gqa_forward_ref(
        x, state["q_proj.weight"], state["k_proj.weight"], state["v_proj.weight"], state["o_proj.weight"],
        num_heads, num_kv_heads, mask, past, **kw,
    )


_VARIANTS = (
    (dict(pairing="tile"), "query head i reads KV head i % num_kv_heads (torch.repeat / tile order). "
     "Each KV head must serve a block of consecutive query heads: head i reads KV head i // n_rep (repeat_interleave order)."),
    (dict(scale="none"), "the scores are not scaled: divide Q K^T by sqrt(head_dim)."),
    (dict(scale="head_dim"), "the scores are divided by head_dim; divide by sqrt(head_dim)."),
    (dict(scale="hidden_dim"), "the scores are divided by sqrt(hidden_dim); use sqrt(head_dim) (head_dim = hidden_dim // num_heads)."),
    (dict(use_mask=False), "attention_mask is ignored: add it to the scores before the softmax."),
    (dict(own_causal=True), "forward applies a causal mask of its own: it must apply only the attention_mask it is "
     "given, and attention_mask=None means every query reads every key."),
    (dict(past_first=False), "the cache is concatenated after the new keys/values: put the history first, torch.cat([past, new], dim=2)."),
)


def likely_bug(actual: torch.Tensor, state, x, num_heads, num_kv_heads, mask=None, past=None, atol=1e-4) -> str:
    """Name the first typical mistake whose output matches `actual`, or give a generic hint."""
    a = actual.detach().to("cpu", torch.float64)
    for options, message in _VARIANTS:
        if "pairing" in options and num_kv_heads in (1, num_heads):
            continue
        if "use_mask" in options and mask is None or "own_causal" in options and mask is not None:
            continue
        if "past_first" in options and past is None:
            continue
        try:
            out, _ = gqa_ref_from_state(state, x, num_heads, num_kv_heads, mask, past, **options)
        except Exception:  # noqa: BLE001 (a variant that cannot run simply does not match)
            continue
        if out.shape == a.shape and bool(torch.allclose(a, out, atol=atol, rtol=1e-3)):
            return message
    return ("split the projections into heads with reshape(B, S, heads, head_dim).transpose(1, 2) "
            "(a plain view to [B, heads, S, head_dim] mixes positions), compute softmax over the key axis, "
            "and merge heads back with transpose(1, 2) before reshaping to [B, S, H*head_dim].")


def random_config(generator: Optional[torch.Generator] = None, kind: str = "gqa") -> Tuple[int, int, int, int, int]:
    """Random (B, S, hidden_dim, H, H_kv); kind "mha" (H_kv = H), "mqa" (H_kv = 1) or "gqa" (1 < H_kv < H)."""
    def pick(options):
        return options[int(torch.randint(len(options), (1,), generator=generator))]

    b = pick([1, 2, 3])
    s = pick([3, 5, 6, 7, 9])
    if kind == "gqa":
        h, h_kv = pick([(4, 2), (6, 2), (6, 3), (8, 2), (8, 4), (12, 4)])
    elif kind == "mqa":
        h = pick([2, 3, 4, 6])
        h_kv = 1
    else:
        h = pick([1, 2, 3, 4])
        h_kv = h
    d = pick([2, 3, 4, 5])
    return b, s, h * d, h, h_kv


def qkv_param_count_ref(hidden_dim: int, num_heads: int, num_kv_heads: int) -> int:
    """Weights of the bias-free q, k and v projections."""
    head_dim = hidden_dim // num_heads
    q = hidden_dim * (num_heads * head_dim)
    kv = hidden_dim * (num_kv_heads * head_dim)
    return q + 2 * kv


def check_output(actual, expected, *, name: str, hint_fn, atol: float, rtol: float) -> None:
    """check_close, but the (slow) likely-bug diagnosis runs only when the values are wrong."""
    from attnlab.checks import check_close

    try:
        check_close(actual, expected, name=name, atol=atol, rtol=rtol)
    except AssertionError as e:
        if "wrong values" not in str(e):
            raise
        raise AssertionError(f"{e} Likely cause: {hint_fn()}") from None
