"""attnlab.plots: rows are queries, heads land in their KV group, figures are not left open in pyplot."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from attnlab.plots import attention_heatmap, group_colors, head_grid  # noqa: E402


def test_heatmap_rows_are_queries_and_columns_are_keys():
    weights = torch.softmax(torch.arange(15, dtype=torch.float32).reshape(3, 5) ** 1.5 / 7, dim=-1)
    fig = attention_heatmap(weights, query_labels=["q0", "q1", "q2"], key_labels=list("abcde"), title="t")
    ax = fig.axes[0]
    np.testing.assert_allclose(ax.images[0].get_array(), weights.numpy(), rtol=1e-6)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["q0", "q1", "q2"]
    assert [t.get_text() for t in ax.get_xticklabels()] == list("abcde")
    assert ax.get_ylabel() == "query" and ax.get_xlabel() == "key" and ax.get_title() == "t"
    # Query 0 is drawn at the top: y grows downwards.
    bottom, top = ax.get_ylim()
    assert bottom > top


def test_heatmap_accepts_numpy_and_an_axes():
    weights = np.random.default_rng(0).dirichlet(np.ones(4), size=4)
    fig, ax = plt.subplots()
    try:
        assert attention_heatmap(weights, ax=ax) is fig
        np.testing.assert_allclose(ax.images[0].get_array(), weights)
        assert len(ax.texts) == 16  # small maps print their weights
    finally:
        plt.close(fig)
    with pytest.raises(ValueError):
        attention_heatmap(np.ones((2, 3, 4)))
    with pytest.raises(ValueError):
        attention_heatmap(np.ones((2, 3)), key_labels=["a", "b"])


def test_figures_are_not_left_open_in_pyplot():
    before = plt.get_fignums()
    attention_heatmap(torch.rand(4, 4))
    head_grid(torch.rand(4, 3, 3))
    head_grid(torch.rand(4, 3, 3), num_kv_heads=2)
    assert plt.get_fignums() == before


def test_head_grid_without_groups_shows_every_head_in_order():
    weights = torch.rand(6, 4, 5)
    fig = head_grid(weights, title="six heads")
    axes = [ax for ax in fig.axes if ax.images]
    assert [ax.get_title() for ax in axes] == [f"head {i}" for i in range(6)]
    for i, ax in enumerate(axes):
        np.testing.assert_allclose(ax.images[0].get_array(), weights[i].numpy(), rtol=1e-6)


@pytest.mark.parametrize("num_heads,num_kv_heads", [(8, 8), (8, 4), (8, 2), (8, 1), (6, 3), (12, 4)])
def test_head_grid_groups_query_heads_by_kv_head(num_heads, num_kv_heads):
    weights = torch.rand(num_heads, 4, 4)
    fig = head_grid(weights, num_kv_heads=num_kv_heads, title="grouped")
    n_rep = num_heads // num_kv_heads
    colors = group_colors(num_kv_heads)
    axes = [ax for ax in fig.axes if ax.images]
    assert len(axes) == num_heads
    seen = set()
    for ax in axes:
        head = int(ax.get_title().split()[-1])
        seen.add(head)
        group = head // n_rep
        box = ax.get_figure(root=False) if hasattr(ax, "get_figure") else ax.figure
        assert box is not fig, "each KV group is drawn in its own box"
        assert box._suptitle.get_text().startswith(f"KV head {group}")
        assert to_hex(ax.spines["left"].get_edgecolor()) == to_hex(colors[group])
        np.testing.assert_allclose(ax.images[0].get_array(), weights[head].numpy(), rtol=1e-6)
    assert seen == set(range(num_heads))
    # Different groups have different frame colours (up to 8 groups).
    assert len({to_hex(c) for c in colors}) == num_kv_heads


def test_head_grid_rejects_a_kv_count_that_does_not_divide_the_heads():
    with pytest.raises(ValueError, match="must divide"):
        head_grid(torch.rand(8, 3, 3), num_kv_heads=3)
    with pytest.raises(ValueError):
        head_grid(torch.rand(3, 3))
