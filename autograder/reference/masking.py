"""Instructor-only references and checks for chapter 02 (masking).

Written independently of the solution notebook: visibility patterns come from explicit Python loops,
softmax is computed row by row in float64, and every check names the bug it most likely found.
Messages never print the (random) inputs of a hidden test.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import torch

# In this course an additive mask entry counts as "hidden" when it is -inf or at most this value
# (e.g. -1e9 or torch.finfo(dtype).min); "visible" entries must be exactly 0.
HIDDEN_AT_MOST = -1e9

__all__ = [
    "HIDDEN_AT_MOST",
    "hidden_threshold",
    "causal_visible",
    "padding_visible",
    "broadcast_visible",
    "masked_softmax",
    "additive_sum",
    "fully_masked_rows",
    "check_additive_mask",
    "check_mask_effect",
    "check_combined",
    "check_weights",
]


def hidden_threshold(dtype: torch.dtype) -> float:
    """Largest value that still counts as hidden in `dtype`: -1e9, or finfo(dtype).min when -1e9 does not fit."""
    return max(HIDDEN_AT_MOST, float(torch.finfo(dtype).min))


# ----------------------------------------------------------------------------- visibility patterns
def causal_visible(seq_len: int) -> torch.Tensor:
    """Bool [S, S]: entry [i, j] is True when query i may look at key j (j <= i). Built with loops."""
    out = torch.zeros(seq_len, seq_len, dtype=torch.bool)
    for i in range(seq_len):
        for j in range(seq_len):
            if j <= i:
                out[i, j] = True
    return out


def padding_visible(attention_mask: torch.Tensor) -> torch.Tensor:
    """Bool [B, S]: True where the 0/1 `attention_mask` marks a real token (any nonzero value)."""
    rows = attention_mask.tolist()
    return torch.tensor([[bool(v) for v in row] for row in rows], dtype=torch.bool).reshape(attention_mask.shape)


def broadcast_visible(*visibles: torch.Tensor) -> torch.Tensor:
    """A key is visible only when every pattern shows it (patterns broadcast against each other)."""
    shape = torch.broadcast_shapes(*(v.shape for v in visibles))
    out = torch.ones(shape, dtype=torch.bool)
    for v in visibles:
        out = out & v.expand(shape)
    return out


def masked_softmax(scores: torch.Tensor, visible: torch.Tensor) -> torch.Tensor:
    """Softmax over the last axis restricted to visible keys, in float64, one row at a time.

    Rows with no visible key are all zeros. Returns float64 of scores' shape.
    """
    s = scores.detach().to(torch.float64)
    vis = visible.expand(s.shape)
    flat_s = s.reshape(-1, s.shape[-1])
    flat_v = vis.reshape(-1, s.shape[-1])
    out = torch.zeros_like(flat_s)
    for r in range(flat_s.shape[0]):
        keys = [j for j in range(flat_s.shape[1]) if bool(flat_v[r, j])]
        if not keys:
            continue
        top = max(float(flat_s[r, j]) for j in keys)
        exps = {j: math.exp(float(flat_s[r, j]) - top) for j in keys}
        total = sum(exps.values())
        for j in keys:
            out[r, j] = exps[j] / total
    return out.reshape(s.shape)


def additive_sum(*masks: torch.Tensor) -> torch.Tensor:
    """Elementwise sum of additive masks in float64 after broadcasting (-inf stays -inf)."""
    shape = torch.broadcast_shapes(*(m.shape for m in masks))
    out = torch.zeros(shape, dtype=torch.float64)
    for m in masks:
        out = out + m.detach().to(torch.float64).expand(shape)
    return out


def fully_masked_rows(attention_mask: torch.Tensor) -> int:
    """Number of (sequence, query) pairs whose every key is hidden under causal + padding masks."""
    count = 0
    for row in attention_mask.tolist():
        for i in range(len(row)):
            if not any(row[j] for j in range(i + 1)):
                count += 1
    return count


# ----------------------------------------------------------------------------- checks with diagnoses
def _is_tensor(x, name: str) -> None:
    assert type(x) is torch.Tensor, f"{name} should return a torch.Tensor, but it returned a {type(x).__name__}."


def _causal_diagnosis(hidden: torch.Tensor) -> str:
    """Name the likely bug when a [S, S] hidden pattern is not the strict upper triangle."""
    s = hidden.shape[-1]
    ones = torch.ones(s, s, dtype=torch.bool)
    if torch.equal(hidden, torch.tril(ones, diagonal=-1)):
        return "the past is hidden instead of the future: triu and tril are swapped (hide keys j > i, above the diagonal)."
    if torch.equal(hidden, torch.triu(ones, diagonal=0)):
        return "the diagonal is hidden too: a token may attend to itself, so use diagonal=1 (hide only j > i)."
    if torch.equal(hidden, torch.tril(ones, diagonal=0)):
        return "the past and the diagonal are hidden: tril/triu swapped and the diagonal should stay visible."
    if not bool(hidden.any()) and s > 1:
        return "nothing is hidden: the future keys (above the diagonal) must get -inf."
    return "query i may see keys 0..i (on and below the diagonal) and no key after i."


def check_additive_mask(
    actual,
    visible: torch.Tensor,
    *,
    name: str,
    dtype: Optional[torch.dtype],
    causal: bool = False,
    padding: bool = False,
) -> None:
    """Type, shape, dtype and values of an additive mask: 0 where `visible`, -inf (or <= -1e9) elsewhere.

    `visible` must already have the expected shape. With `causal`/`padding` the message names
    the typical bug of that kind of mask.
    """
    _is_tensor(actual, name)
    shape = tuple(visible.shape)
    if tuple(actual.shape) != shape:
        extra = ""
        if causal:
            extra = " Keep the two singleton axes for batch and heads: [1, 1, S, S] broadcasts against [B, H, S, S] scores."
        if padding:
            extra = (" A padding mask hides keys, so it varies along the LAST axis and has singleton head and query axes:"
                     " [B, 1, 1, S] (not [B, S] and not [B, 1, S, 1], which would hide queries instead of keys).")
        raise AssertionError(f"{name} should have shape {shape}, but it has shape {tuple(actual.shape)}." + extra)
    assert actual.is_floating_point(), (
        f"{name} should be a floating-point tensor (it is added to float scores), but its dtype is {actual.dtype}."
    )
    if dtype is not None:
        assert actual.dtype == dtype, (
            f"{name} should have dtype {dtype}, but it has dtype {actual.dtype}: pass dtype=... when you create the tensor."
        )
    a = actual.detach().to(torch.float64)
    assert not bool(torch.isnan(a).any()), (
        f"{name} contains NaN. A common cause is multiplying by -inf: 0 * -inf is NaN. "
        "Use masked_fill or torch.where to place -inf."
    )
    vis_vals = a[visible]
    hid_vals = a[~visible]
    if vis_vals.numel() and hid_vals.numel() and bool((vis_vals == 1).all()) and bool((hid_vals == 0).all()):
        raise AssertionError(
            f"{name} looks like a 0/1 'keep' mask (1 = visible, 0 = hidden). An additive mask is 0 where a key is visible "
            "and -inf where it is hidden, so that adding it to the scores removes hidden keys from the softmax."
        )
    hidden_ok = hid_vals <= hidden_threshold(actual.dtype)
    visible_ok = vis_vals == 0
    if bool(hidden_ok.all()) and bool(visible_ok.all()):
        return
    if causal:
        # diagnose the pattern on the first [S, S] slice
        pattern_hidden = a.reshape(-1, shape[-2], shape[-1])[0] != 0
        if not torch.equal(pattern_hidden, ~visible.reshape(-1, shape[-2], shape[-1])[0]):
            raise AssertionError(f"{name} hides the wrong entries: " + _causal_diagnosis(pattern_hidden))
    if padding:
        hides_real = bool((a[visible] != 0).any())
        shows_pad = bool((a[~visible] == 0).any())
        if hides_real and shows_pad:
            raise AssertionError(
                f"{name} has the convention inverted: attention_mask uses 1 for a real token (keep it, add 0) "
                "and 0 for padding (hide it, add -inf)."
            )
    if not bool(visible_ok.all()):
        raise AssertionError(f"{name}: entries for visible keys must be exactly 0 (adding 0 leaves the score unchanged).")
    raise AssertionError(
        f"{name}: entries for hidden keys must be -inf (this course also accepts any value <= -1e9, such as "
        "torch.finfo(dtype).min); a small number such as 1 or -100 does not remove the key from the softmax."
    )


def check_weights(actual, expected: torch.Tensor, *, name: str, hint: str, atol: float = 1e-5, rtol: float = 1e-4) -> None:
    """Compare attention weights (may contain exact zeros; no inf allowed) with a float64 reference."""
    _is_tensor(actual, name)
    assert tuple(actual.shape) == tuple(expected.shape), (
        f"{name} should have shape {tuple(expected.shape)}, but it has shape {tuple(actual.shape)}."
    )
    a = actual.detach().to(torch.float64)
    assert not bool(torch.isnan(a).any()), f"{name} contains NaN. Likely cause: {hint}"
    assert bool(torch.isfinite(a).all()), f"{name} contains inf. Likely cause: {hint}"
    diff = (a - expected).abs()
    bad = diff > atol + rtol * expected.abs()
    if bool(bad.any()):
        raise AssertionError(
            f"{name} has wrong values: {int(bad.sum())} of {bad.numel()} entries differ, the largest difference is "
            f"{diff.max().item():.3g}. Likely cause: {hint}"
        )


def check_mask_effect(mask: torch.Tensor, visible: torch.Tensor, scores_shape: Sequence[int], *, name: str,
                      dtype: torch.dtype = torch.float32) -> None:
    """Add `mask` to random scores and check softmax gives the same weights as the visibility pattern.

    Rows in which `visible` shows no key are skipped (their softmax is undefined).
    """
    scores = torch.randn(*scores_shape, dtype=dtype) * 4
    weights = torch.softmax(scores + mask.to(dtype), dim=-1).to(torch.float64)
    expected = masked_softmax(scores, visible)
    has_key = visible.expand(scores.shape).any(dim=-1)
    w, e = weights[has_key], expected[has_key]
    assert not bool(torch.isnan(w).any()), f"softmax(scores + {name}) gives NaN in a row that has a visible key."
    diff = (w - e).abs()
    assert bool((diff <= 1e-5 + 1e-4 * e.abs()).all()), (
        f"softmax(scores + {name}) does not match attention restricted to the visible keys "
        f"(largest difference {diff.max().item():.3g}): hidden keys still receive weight, or visible keys lost it."
    )


def check_combined(actual, expected: torch.Tensor, *, name: str, hint: str) -> None:
    """Compare a combined additive mask with the float64 sum: finite entries close, -inf entries <= -1e9."""
    _is_tensor(actual, name)
    assert tuple(actual.shape) == tuple(expected.shape), (
        f"{name} should have the broadcast shape {tuple(expected.shape)}, but it has shape {tuple(actual.shape)}: "
        "add the masks with broadcasting so every mask applies to every batch item, head, query and key."
    )
    assert actual.is_floating_point(), f"{name} should be a floating-point tensor, but its dtype is {actual.dtype}."
    a = actual.detach().to(torch.float64)
    assert not bool(torch.isnan(a).any()), (
        f"{name} contains NaN: multiplying masks gives 0 * -inf = NaN; additive masks combine by addition."
    )
    hidden = torch.isinf(expected)
    assert bool((a[hidden] <= HIDDEN_AT_MOST).all()), (
        f"{name}: a key hidden by any of the masks must stay hidden (-inf) in the result. Likely cause: {hint}"
    )
    fa, fe = a[~hidden], expected[~hidden]
    diff = (fa - fe).abs()
    assert bool((diff <= 1e-5 + 1e-5 * fe.abs()).all()), (
        f"{name} has wrong values where keys are visible (largest difference {diff.max().item():.3g}). Likely cause: {hint}"
    )


def check_dtype_variant(actual, default, *, dtype: torch.dtype, name: str) -> None:
    """`actual` = f(..., dtype=dtype) must have that dtype and the same visible/hidden pattern as `default` = f(...)."""
    _is_tensor(actual, name)
    assert actual.dtype == dtype, (
        f"{name} should have dtype {dtype}, but it has dtype {actual.dtype}: create the tensor with dtype=dtype "
        "(or convert it with .to(dtype)) instead of the default float32."
    )
    assert tuple(actual.shape) == tuple(default.shape), (
        f"{name} should have the same shape as with the default dtype, {tuple(default.shape)}, "
        f"but it has shape {tuple(actual.shape)}."
    )
    a = actual.detach().to(torch.float64)
    assert not bool(torch.isnan(a).any()), f"{name} contains NaN (0 * -inf is NaN; use masked_fill or torch.where)."
    same = torch.equal(a == 0, default.detach().to(torch.float64) == 0)
    assert same, f"{name} hides different entries than with the default dtype: only the dtype should change."
