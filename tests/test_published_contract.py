"""The published contract of chapter 04 (MQA / GQA), checked against the solution notebook.

Learners who come from the chapter this course grew out of know six contract tests of
`repeat_kv` / `GroupedQueryAttention` by name. These are our own versions of the same six
checks (same names, same inputs and assertions), run against the code of the answer cells of
solutions/04_mqa_gqa/04_mqa_gqa.ipynb, so the solution stays compatible with that contract.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import torch

NOTEBOOK = Path(__file__).resolve().parents[1] / "solutions" / "04_mqa_gqa" / "04_mqa_gqa.ipynb"
_MARKERS = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$", re.M)


@pytest.fixture(scope="module")
def solution() -> dict:
    """Namespace after running the setup cell and every answer cell of the solution, in order."""
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    ns: dict = {"__name__": "chapter04_solution"}
    ran = []
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type != "code":
            continue
        if meta.get("grade_id") == "setup" or (meta.get("solution") and not meta.get("grade")):
            exec(compile(_MARKERS.sub("", cell.source), f"<{meta['grade_id']}>", "exec"), ns)
            ran.append(meta["grade_id"])
    assert "repeat_kv" in ran and "GroupedQueryAttention" in ran, ran
    return ns


def additive_causal(n: int) -> torch.Tensor:
    """[1, 1, n, n]: 0 on and below the diagonal, -inf above."""
    blocked = torch.ones(n, n, dtype=torch.bool).triu(1)
    return torch.zeros(1, 1, n, n).masked_fill(blocked, float("-inf"))


def fixture_inputs():
    torch.manual_seed(41)
    batch, seq_len, hidden_dim, num_heads = 2, 16, 128, 4
    return torch.randn(batch, seq_len, hidden_dim), hidden_dim, num_heads


def test_mha_output_contract(solution):
    x, hidden_dim, num_heads = fixture_inputs()
    layer = solution["GroupedQueryAttention"](hidden_dim, num_heads, num_kv_heads=num_heads)
    out, cache = layer(x, attention_mask=additive_causal(x.shape[1]))
    assert out.shape == x.shape
    assert torch.isfinite(out).all()
    assert cache[0].shape[1] == num_heads


def test_gqa_output_contract(solution):
    x, hidden_dim, num_heads = fixture_inputs()
    layer = solution["GroupedQueryAttention"](hidden_dim, num_heads, num_kv_heads=2)
    out, cache = layer(x, attention_mask=additive_causal(x.shape[1]))
    assert out.shape == x.shape
    assert torch.isfinite(out).all()
    assert cache[0].shape[1] == 2


def test_mqa_output_contract(solution):
    x, hidden_dim, num_heads = fixture_inputs()
    layer = solution["GroupedQueryAttention"](hidden_dim, num_heads, num_kv_heads=1)
    out, cache = layer(x, attention_mask=additive_causal(x.shape[1]))
    assert out.shape == x.shape
    assert cache[0].shape[1] == 1


def test_kv_cache_decode_equivalence(solution):
    x, hidden_dim, num_heads = fixture_inputs()
    n = 5
    layer = solution["GroupedQueryAttention"](hidden_dim, num_heads, num_kv_heads=num_heads)
    prefix = x[:, :n]
    full, _ = layer(prefix, attention_mask=additive_causal(n))
    _, cache = layer(prefix[:, :-1], attention_mask=additive_causal(n - 1))
    step, new_cache = layer(prefix[:, -1:], attention_mask=torch.zeros(1, 1, 1, n), kv_cache=cache)
    assert new_cache[0].shape == (x.shape[0], num_heads, n, hidden_dim // num_heads)
    assert torch.allclose(full[:, -1:], step, atol=1e-5, rtol=1e-4)


def test_causal_mask_blocks_future(solution):
    x, hidden_dim, num_heads = fixture_inputs()
    layer = solution["GroupedQueryAttention"](hidden_dim, num_heads)
    shifted = x.clone()
    shifted[:, 1:] += 1000.0
    mask = additive_causal(x.shape[1])
    before, _ = layer(x, attention_mask=mask)
    after, _ = layer(shifted, attention_mask=mask)
    assert torch.allclose(before[:, :1], after[:, :1], atol=1e-5, rtol=1e-4)


def test_attention_config_contract(solution):
    for args in [(130, 4, 2), (128, 3, 1), (128, 4, 3)]:
        with pytest.raises(ValueError):
            solution["GroupedQueryAttention"](*args)


def test_repeat_kv_contract(solution):
    """repeat_kv as the published chapter defines it: [B, H_kv, S, D] -> [B, H_kv * n_rep, S, D], consecutive copies."""
    torch.manual_seed(0)
    kv = torch.randn(2, 3, 4, 5)
    out = solution["repeat_kv"](kv, 2)
    assert out.shape == (2, 6, 4, 5)
    assert torch.equal(out, kv.repeat_interleave(2, dim=1))
    assert solution["repeat_kv"](kv, 1) is kv
