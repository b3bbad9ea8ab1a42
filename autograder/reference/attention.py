"""Instructor-only references for chapter 01 (scaled dot-product attention).

The hidden tests compare a submission with these functions. They are written independently of the
solution notebook on purpose: `sdpa` works on Python floats (double precision) with explicit loops,
`math.fsum` and a max-subtracted softmax, so it shares no code path with a vectorised torch answer.

Also here: helpers that draw fresh random test cases and `diagnose_sdpa`, which recognises the common
wrong answers so that a failing test can name the likely bug. Messages never print the hidden inputs.
"""
from __future__ import annotations

import math
import random
from typing import Optional, Sequence, Tuple

import torch

__all__ = [
    "sdpa",
    "self_attention",
    "random_dims",
    "random_qkv",
    "random_mask",
    "diagnose_sdpa",
    "LEADING_SHAPES",
]

# Leading (batch-like) shapes every hidden test goes through: none, one and two leading dims.
LEADING_SHAPES: Tuple[Tuple[int, ...], ...] = ((), (3,), (2, 3))


def _softmax_row(logits: Sequence[float]) -> list:
    """Softmax of one row of Python floats; -inf entries get weight exactly 0."""
    finite = [z for z in logits if z != -math.inf]
    if not finite:
        raise ValueError("reference sdpa: a query row has every key hidden")
    top = max(finite)
    exps = [0.0 if z == -math.inf else math.exp(z - top) for z in logits]
    total = math.fsum(exps)
    return [e / total for e in exps]


def sdpa(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
         mask: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
    """softmax(query @ key^T / sqrt(d_k) + mask) @ value, computed row by row in double precision.

    query [..., S_q, D], key [..., S_k, D], value [..., S_k, D_v] with the same leading dims;
    mask additive (0 visible, -inf hidden), broadcastable to [..., S_q, S_k].
    Returns (output [..., S_q, D_v], weights [..., S_q, S_k]) in query's dtype.
    """
    *lead, s_q, d = query.shape
    s_k, d_v = key.shape[-2], value.shape[-1]
    lead = tuple(lead)
    assert tuple(key.shape) == lead + (s_k, d) and tuple(value.shape) == lead + (s_k, d_v), "reference sdpa: shapes"
    n = math.prod(lead)
    q = query.detach().cpu().double().reshape(n, s_q, d).tolist()
    k = key.detach().cpu().double().reshape(n, s_k, d).tolist()
    v = value.detach().cpu().double().reshape(n, s_k, d_v).tolist()
    if mask is None:
        m = [[[0.0] * s_k for _ in range(s_q)] for _ in range(n)]
    else:
        m = torch.broadcast_to(mask.detach().cpu().double(), lead + (s_q, s_k)).reshape(n, s_q, s_k).tolist()
    scale = 1.0 / math.sqrt(d)
    out, weights = [], []
    for b in range(n):
        out_b, w_b = [], []
        for i in range(s_q):
            logits = [math.fsum(q[b][i][c] * k[b][j][c] for c in range(d)) * scale + m[b][i][j] for j in range(s_k)]
            w = _softmax_row(logits)
            w_b.append(w)
            out_b.append([math.fsum(w[j] * v[b][j][c] for j in range(s_k)) for c in range(d_v)])
        out.append(out_b)
        weights.append(w_b)
    out_t = torch.tensor(out, dtype=torch.float64).reshape(lead + (s_q, d_v)).to(query.dtype)
    w_t = torch.tensor(weights, dtype=torch.float64).reshape(lead + (s_q, s_k)).to(query.dtype)
    return out_t, w_t


def self_attention(x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor):
    """Self-attention without mask: Q = x W_Q, K = x W_K, V = x W_V, then `sdpa` (double precision)."""
    xd = x.detach().double()
    q, k, v = (torch.einsum("...sm,md->...sd", xd, w.detach().double()) for w in (w_q, w_k, w_v))
    out, weights = sdpa(q, k, v)
    return out.to(x.dtype), weights.to(x.dtype)


# ----------------------------------------------------------------------------- random test cases

def random_dims(rng: random.Random) -> Tuple[int, int, int, int]:
    """(S_q, S_k, D, D_v), all four different, so no transpose or mixed-up dim can go unnoticed. S_k >= 3."""
    while True:
        s_q, s_k, d, d_v = rng.randint(2, 7), rng.randint(3, 8), rng.randint(2, 9), rng.randint(2, 9)
        if len({s_q, s_k, d, d_v}) == 4:
            return s_q, s_k, d, d_v


def random_qkv(lead: Tuple[int, ...], dims: Tuple[int, int, int, int], dtype=torch.float32, offset: float = 0.0):
    """Fresh query, key, value for the given leading shape and (S_q, S_k, D, D_v).

    With `offset`, coordinate 0 of every query and every key is set to `offset`: every score of a row then gets the same
    large shift offset**2 / sqrt(D) (exp() of it overflows), while the differences between the keys stay of order 1, so
    the right weights are neither one-hot nor uniform and a wrong scale still shows.
    """
    s_q, s_k, d, d_v = dims
    q = torch.randn(*lead, s_q, d, dtype=torch.float64)
    k = torch.randn(*lead, s_k, d, dtype=torch.float64)
    v = torch.randn(*lead, s_k, d_v, dtype=torch.float64)
    if offset:
        q[..., 0] = offset
        k[..., 0] = offset
    return q.to(dtype), k.to(dtype), v.to(dtype)


def random_mask(shape: Sequence[int], s_k_axis_len: int, rng: random.Random, dtype=torch.float32) -> torch.Tensor:
    """Additive mask of `shape` (last axis = keys) with 0 and -inf.

    Every row hides at least one key and leaves at least two visible (key 0 is never hidden), so no row is fully
    masked and the weights of a row still depend on the scale of the scores.
    """
    assert shape[-1] == s_k_axis_len and s_k_axis_len >= 3
    rows = math.prod(shape[:-1])
    values = []
    for _ in range(rows):
        hidden = rng.sample(range(1, s_k_axis_len), rng.randint(1, s_k_axis_len - 2))
        values.append([-math.inf if j in hidden else 0.0 for j in range(s_k_axis_len)])
    return torch.tensor(values, dtype=dtype).reshape(tuple(shape))


# ----------------------------------------------------------------------------- naming the likely bug

def _variants(q, k, v, mask):
    """Outputs of common wrong answers, computed in float64 (instructor-only)."""
    q, k, v = q.double(), k.double(), v.double()
    m = 0.0 if mask is None else mask.double()
    d, d_v = q.shape[-1], v.shape[-1]
    raw = q @ k.transpose(-2, -1)

    def attend(scores, dim=-1):
        w = torch.softmax(scores, dim=dim)
        return w @ v, w

    out = {}
    out["the scores are not divided by sqrt(d_k)"] = attend(raw + m)
    out["the scores are divided by d_k instead of sqrt(d_k)"] = attend(raw / d + m)
    if d_v != d:
        out["the scale uses the value dim value.shape[-1] instead of d_k = query.shape[-1]"] = attend(raw / math.sqrt(d_v) + m)
    out["softmax runs over the query axis (dim=-2) instead of the key axis (dim=-1)"] = attend(raw / math.sqrt(d) + m, dim=-2)
    if mask is not None:
        out["the mask is ignored: add it to the scores before the softmax"] = attend(raw / math.sqrt(d))
        good_w = torch.softmax(raw / math.sqrt(d) + m, dim=-1)
        out["the weights returned are the scores before the softmax"] = (good_w @ v, raw / math.sqrt(d) + m)
    else:
        good_w = torch.softmax(raw / math.sqrt(d), dim=-1)
        out["the weights returned are the scores before the softmax"] = (good_w @ v, raw / math.sqrt(d))
    return out


def diagnose_sdpa(query, key, value, mask, output=None, weights=None) -> str:
    """Name the wrong answer that `output` / `weights` match, or return a generic hint."""
    good_o, good_w = sdpa(query.double(), key.double(), value.double(), None if mask is None else mask.double())
    for name, (o, w) in _variants(query, key, value, mask).items():
        if o.shape == good_o.shape and torch.allclose(o, good_o, atol=1e-4) and torch.allclose(w, good_w, atol=1e-4):
            continue  # this wrong answer happens to agree with the right one on these inputs
        pairs = [(output, o), (weights, w)]
        hits = [a is not None and tuple(a.shape) == tuple(b.shape) and bool(torch.isfinite(a).all())
                and torch.allclose(a.double(), b, atol=1e-4, rtol=1e-3) for a, b in pairs if a is not None]
        if hits and all(hits):
            return name + "."
    return ("compare your code with softmax(Q K^T / sqrt(d_k) + mask) @ V step by step: d_k = query.shape[-1], "
            "softmax over the last axis (the keys), the mask added to the scores before the softmax.")


# ----------------------------------------------------------------------------- checks used by the hidden tests

def unpack_pair(result, fn_name: str):
    """The (output, weights) pair a graded function returned, with a clear message when it is not a pair."""
    assert type(result) in (tuple, list) and len(result) == 2, (
        f"{fn_name} should return a tuple (output, weights), but it returned "
        + (f"a {type(result).__name__} of length {len(result)}." if type(result) in (tuple, list)
           else f"a {type(result).__name__}.")
    )
    return result[0], result[1]


NAN_HINT = ("exp() of a large score overflowed (subtract the row maximum before exp, or use torch.softmax), "
            "the mask was multiplied instead of added, or the mask was added after the softmax.")


def _compare(actual, expected: torch.Tensor, *, name: str, atol: float, rtol: float, hint, nan_hint: str = NAN_HINT) -> None:
    from attnlab.checks import check_close, check_tensor

    assert type(actual) is torch.Tensor, f"{name} should be a torch.Tensor, but it is a {type(actual).__name__}."
    assert tuple(actual.shape) == tuple(expected.shape), (
        f"{name} should have shape {tuple(expected.shape)}, but it has shape {tuple(actual.shape)}.")
    if actual.is_floating_point() and not bool(torch.isfinite(actual).all()):
        raise AssertionError(f"{name} contains NaN or inf values. Likely cause: {nan_hint}")
    check_tensor(actual, name=name, shape=expected.shape)
    if actual.dtype != expected.dtype:
        raise AssertionError(
            f"{name} should have dtype {expected.dtype} like the inputs, but it has dtype {actual.dtype}. "
            "Likely cause: a .float(), a torch.tensor(...) or a constant created in another dtype; "
            "keep the dtype of the inputs all the way through."
        )
    try:
        check_close(actual, expected, name=name, atol=atol, rtol=rtol)
    except AssertionError as error:
        raise AssertionError(f"{error} Likely cause: {hint() if callable(hint) else hint}") from None


def check_sdpa(fn, query, key, value, mask=None, *, label: str = "", atol: float = 1e-5, rtol: float = 1e-4,
               parts: Sequence[str] = ("weights", "output"), nan_hint: str = NAN_HINT):
    """Call a submitted scaled_dot_product_attention and compare the parts asked for with `sdpa`."""
    args = (query, key, value) if mask is None else (query, key, value, mask)
    output, weights = unpack_pair(fn(*args), "scaled_dot_product_attention")
    exp_out, exp_w = sdpa(query, key, value, mask)
    got = {"output": output, "weights": weights}
    expected = {"output": exp_out, "weights": exp_w}
    for part in parts:
        _compare(got[part], expected[part], name=f"{part} {label}".strip(), atol=atol, rtol=rtol, nan_hint=nan_hint,
                 hint=lambda: diagnose_sdpa(query, key, value, mask,
                                            output if type(output) is torch.Tensor else None,
                                            weights if type(weights) is torch.Tensor else None))
    return output, weights


def check_self_attention(fn, sdpa_fn, x, w_q, w_k, w_v, *, label: str = "", atol: float = 1e-5, rtol: float = 1e-4):
    """Call a submitted self_attention and compare with `self_attention`; blame the submitted SDPA when it is wrong."""
    output, weights = unpack_pair(fn(x, w_q, w_k, w_v), "self_attention")
    exp_out, exp_w = self_attention(x, w_q, w_k, w_v)

    def hint():
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        try:
            check_sdpa(sdpa_fn, q, k, v, label="of your scaled_dot_product_attention", atol=atol, rtol=rtol)
        except AssertionError as error:
            return f"your scaled_dot_product_attention is not right yet; fix it first. ({error})"
        return ("Q = x @ w_q, K = x @ w_k, V = x @ w_v (x on the left, weights not transposed), "
                "then attention of Q over K and V; did you swap two projections or scale by d_model instead of d_k?")

    _compare(weights, exp_w, name=f"weights {label}".strip(), atol=atol, rtol=rtol, hint=hint)
    _compare(output, exp_out, name=f"output {label}".strip(), atol=atol, rtol=rtol, hint=hint)
    return output, weights
