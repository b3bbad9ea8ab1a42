"""Assertions used by the notebooks' test cells, with messages a student can act on.

Every check looks at the type before the value, so an object that pretends to be a tensor
(or claims to equal everything) fails with a clear message instead of passing.
"""
from __future__ import annotations

import contextlib
from typing import Callable, Iterator, Optional, Sequence
from unittest import mock

import torch

__all__ = ["ForbiddenCall", "check_tensor", "check_close", "implemented_by_hand", "BUILTIN_ATTENTION"]

# Library routines that do the whole exercise in one call. Core exercises must be written by hand.
BUILTIN_ATTENTION = (
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.functional.multi_head_attention_forward",
    "torch.nn.MultiheadAttention.forward",
)

# Set by the grading engine in its judge process: a function that takes the names above and
# returns a context manager forbidding them inside the student's process (see autograder/judge.py).
remote_forbid: Optional[Callable[[Sequence[str]], contextlib.AbstractContextManager]] = None


class ForbiddenCall(AssertionError):
    """Raised when a graded answer calls a library routine the exercise asks you to write yourself."""


def _describe(x) -> str:
    if isinstance(x, torch.Tensor):
        return f"a {type(x).__name__} of shape {tuple(x.shape)} and dtype {x.dtype}"
    return f"a {type(x).__name__}"


def check_tensor(x, *, name: str, shape: Optional[Sequence[int]] = None, dtype: Optional[torch.dtype] = None) -> None:
    """Assert that `x` is a plain torch.Tensor (not a subclass) with the given shape and dtype, and finite."""
    assert type(x) is torch.Tensor, f"{name} should be a torch.Tensor, but it is {_describe(x)}."
    if shape is not None:
        assert tuple(x.shape) == tuple(shape), (
            f"{name} should have shape {tuple(shape)}, but it has shape {tuple(x.shape)}."
        )
    if dtype is not None:
        assert x.dtype == dtype, f"{name} should have dtype {dtype}, but it has dtype {x.dtype}."
    if x.is_floating_point():
        assert bool(torch.isfinite(x).all()), f"{name} contains NaN or inf values."


def check_close(actual, expected: torch.Tensor, *, name: str, hint: str = "", atol: float = 1e-5, rtol: float = 1e-4) -> None:
    """Assert that `actual` is a tensor equal to `expected` up to rounding, with a message that says by how much it is off.

    `hint` names the likely bug when the values differ (for example "did you divide by sqrt(d_k)?").
    """
    check_tensor(actual, name=name, shape=expected.shape, dtype=expected.dtype)
    a = actual.detach().to("cpu", torch.float64)
    e = expected.detach().to("cpu", torch.float64)
    diff = (a - e).abs()
    bad = diff > atol + rtol * e.abs()
    if bool(bad.any()):
        where = tuple(int(i) for i in bad.nonzero()[0])
        message = (
            f"{name} has the right shape but wrong values: {int(bad.sum())} of {bad.numel()} entries differ, "
            f"the largest difference is {diff.max().item():.3g} (first at index {where})."
        )
        raise AssertionError(message + (f" Likely cause: {hint}" if hint else ""))


@contextlib.contextmanager
def implemented_by_hand(names: Sequence[str] = BUILTIN_ATTENTION) -> Iterator[None]:
    """Inside this block, calling any of `names` raises ForbiddenCall: the exercise asks you to write it yourself."""
    if remote_forbid is not None:
        with remote_forbid(names):
            yield
        return
    with contextlib.ExitStack() as stack:
        for dotted in names:
            stack.enter_context(mock.patch(dotted, side_effect=ForbiddenCall(forbidden_message(dotted))))
        yield


def forbidden_message(dotted: str) -> str:
    return (
        f"this answer calls {dotted}, which does the whole exercise in one library call. "
        "Write the computation yourself with matrix products and softmax; no credit is given for this item otherwise."
    )
