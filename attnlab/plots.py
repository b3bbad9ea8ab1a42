"""Static attention plots: one map (`attention_heatmap`) and a grid of heads (`head_grid`).

Both accept a torch tensor or a numpy array and return a matplotlib Figure. A figure these
functions create is closed in pyplot right away, so a notebook shows it exactly once: when it is
the cell's last expression (or when you call `display(fig)`).

Conventions used everywhere in the course: rows are queries, columns are keys, so
`weights[i, j]` is how much query i attends to key j and every row of a softmax map sums to 1.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

__all__ = ["attention_heatmap", "head_grid", "draw_heatmap", "group_colors", "to_numpy"]

# One colour per KV group, distinguishable in print and for common colour-vision deficiencies.
_GROUP_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#999933", "#555555")
CMAP = "viridis"


def to_numpy(x) -> np.ndarray:
    """Return `x` (torch tensor, numpy array or nested list) as a float64 numpy array on the CPU."""
    if hasattr(x, "detach"):  # torch.Tensor, without importing torch here
        x = x.detach().to("cpu").double()
        try:
            x = x.numpy()
        except RuntimeError:  # a torch built against another numpy major version
            x = x.tolist()
    return np.asarray(x, dtype=np.float64)


def group_colors(num_groups: int) -> list:
    """Frame colour of each KV group, `num_groups` of them (colours repeat after 8 groups)."""
    return [_GROUP_COLORS[j % len(_GROUP_COLORS)] for j in range(num_groups)]


def _new_figure(figsize, layout=None):
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize, layout=layout)
    plt.close(fig)  # the caller displays it; pyplot must not show it a second time
    return fig


def _check_labels(labels, n: int, what: str):
    if labels is None:
        return None
    labels = [str(t) for t in labels]
    if len(labels) != n:
        raise ValueError(f"{what} has {len(labels)} entries but the map has {n} {what.split('_')[0]} positions")
    return labels


def _set_ticks(ax, labels: Optional[Sequence[str]], n: int, axis: str, max_ticks: int = 32) -> None:
    """Put one tick per position (or fewer when there are many) with the token labels if given."""
    step = max(1, int(np.ceil(n / max_ticks)))
    ticks = list(range(0, n, step))
    names = [labels[i] for i in ticks] if labels is not None else [str(i) for i in ticks]
    if axis == "x":
        ax.set_xticks(ticks)
        long = max((len(s) for s in names), default=0) > 2 or n > 12
        ax.set_xticklabels(names, rotation=90 if long else 0, fontsize=8 if n > 16 else 9)
    else:
        ax.set_yticks(ticks)
        ax.set_yticklabels(names, fontsize=8 if n > 16 else 9)


def attention_heatmap(weights, query_labels=None, key_labels=None, title=None, ax=None):
    """Draw one attention map as a heatmap and return its matplotlib Figure.

    weights:      [S_q, S_k] tensor or array; row i holds the weights of query i over the S_k keys.
    query_labels: S_q strings for the rows (default: positions 0..S_q-1).
    key_labels:   S_k strings for the columns (default: positions 0..S_k-1).
    title:        text above the map.
    ax:           draw into this matplotlib Axes instead of a new figure (returns ax.figure).

    Rows are queries (top to bottom) and columns are keys (left to right). Small maps (at most
    8 x 8) print each weight in its cell. Masked entries given as NaN stay blank.

    Example: `attention_heatmap(torch.softmax(torch.randn(4, 6), dim=-1), title="random scores")`
    """
    w = to_numpy(weights)
    if w.ndim != 2:
        raise ValueError(f"attention_heatmap expects weights of shape [S_q, S_k], got shape {tuple(w.shape)}")
    s_q, s_k = w.shape
    query_labels = _check_labels(query_labels, s_q, "query_labels")
    key_labels = _check_labels(key_labels, s_k, "key_labels")
    if ax is None:
        side = min(7.0, 2.5 + 0.28 * max(s_q, s_k))
        fig = _new_figure((side + 1.2, side))
        ax = fig.add_subplot(1, 1, 1)
    draw_heatmap(ax, w, query_labels, key_labels, title, annotate=s_q * s_k <= 64)
    return ax.figure


def draw_heatmap(ax, w: np.ndarray, query_labels=None, key_labels=None, title=None, annotate: bool = False):
    """Heatmap of w [S_q, S_k] into `ax` with axis names, ticks, a colour bar and optional numbers in the cells."""
    s_q, s_k = w.shape
    fig = ax.figure
    finite = w[np.isfinite(w)]
    vmin = min(0.0, float(finite.min())) if finite.size else 0.0
    vmax = max(float(finite.max()), vmin + 1e-9) if finite.size else 1.0
    image = ax.imshow(w, cmap=CMAP, vmin=vmin, vmax=vmax, aspect="auto", interpolation="nearest")
    _set_ticks(ax, key_labels, s_k, "x")
    _set_ticks(ax, query_labels, s_q, "y")
    ax.set_xlabel("key")
    ax.set_ylabel("query")
    if title:
        ax.set_title(title)
    if annotate:
        mid = (vmin + vmax) / 2
        for i in range(s_q):
            for j in range(s_k):
                if np.isfinite(w[i, j]):
                    ax.text(j, i, f"{w[i, j]:.2f}", ha="center", va="center", fontsize=8,
                            color="black" if w[i, j] > mid else "white")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="weight")


def _draw_small_map(ax, w: np.ndarray, vmax: float, labels, title: str, color: Optional[str]) -> None:
    """One head of a grid: the map, a title, tick labels only when they fit, a coloured frame."""
    ax.imshow(w, cmap=CMAP, vmin=0.0, vmax=vmax, aspect="equal", interpolation="nearest")
    s_q, s_k = w.shape
    if labels is not None and max(s_q, s_k) <= 12 and len(labels) == s_k:
        ax.set_xticks(range(s_k))
        ax.set_xticklabels(labels, fontsize=7, rotation=90)
        ax.set_yticks(range(s_q))
        ax.set_yticklabels(labels[:s_q] if len(labels) >= s_q else range(s_q), fontsize=7)
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    ax.set_title(title, fontsize=9, color=color or "black")
    if color is not None:
        for spine in ax.spines.values():
            spine.set_edgecolor(color)
            spine.set_linewidth(3)


def head_grid(weights, labels=None, num_kv_heads=None, title=None):
    """Draw the maps of all heads of one layer side by side and return the Figure.

    weights:      [H, S_q, S_k] tensor or array, one attention map per query head.
    labels:       S_k token strings (used as tick labels when the maps are small enough).
    num_kv_heads: for GQA/MQA, the number of key/value heads H_kv (H must be a multiple of it).
                  Query head i reads KV head i // (H // H_kv); heads sharing a KV head are drawn
                  together in a box titled "KV head j" and framed in that group's colour.
    title:        text above the grid.

    All heads share one colour scale (0 to the largest weight) so they can be compared.
    Axes titles are "head i" (ungrouped) or "q head i" (grouped).
    """
    w = to_numpy(weights)
    if w.ndim != 3:
        raise ValueError(f"head_grid expects weights of shape [H, S_q, S_k], got shape {tuple(w.shape)}")
    num_heads = w.shape[0]
    labels = None if labels is None else [str(t) for t in labels]
    finite = w[np.isfinite(w)]
    vmax = max(float(finite.max()), 1e-9) if finite.size else 1.0
    if num_kv_heads is None:
        cols = min(num_heads, 4 if num_heads <= 8 else 8)
        rows = int(np.ceil(num_heads / cols))
        fig = _new_figure((2.3 * cols + 0.4, 2.3 * rows + (0.6 if title else 0.2)))
        for i in range(num_heads):
            ax = fig.add_subplot(rows, cols, i + 1)
            _draw_small_map(ax, w[i], vmax, labels, f"head {i}", None)
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        return fig

    num_kv_heads = int(num_kv_heads)
    if num_kv_heads < 1 or num_heads % num_kv_heads:
        raise ValueError(f"num_kv_heads={num_kv_heads} must divide the number of heads H={num_heads}")
    n_rep = num_heads // num_kv_heads
    colors = group_colors(num_kv_heads)
    # Groups are laid out as boxes; several small groups share a row.
    groups_per_row = max(1, min(num_kv_heads, 4 // n_rep)) if n_rep <= 4 else 1
    box_rows = int(np.ceil(num_kv_heads / groups_per_row))
    heads_per_row = min(n_rep, 8)
    sub_rows = int(np.ceil(n_rep / heads_per_row))
    title_h = 0.45 if title else 0.0
    body_h = (2.2 * sub_rows + 0.45) * box_rows
    fig = _new_figure((2.1 * heads_per_row * groups_per_row + 0.3, body_h + title_h), layout="constrained")
    if title:
        head, body = fig.subfigures(2, 1, height_ratios=[title_h, body_h], hspace=0.0)
        head.text(0.5, 0.5, title, ha="center", va="center", fontsize=12)
    else:
        body = fig
    boxes = np.atleast_1d(body.subfigures(box_rows, groups_per_row, wspace=0.02, hspace=0.02)).ravel()
    for j in range(num_kv_heads):
        box = boxes[j]
        box.set_facecolor(colors[j] + "1A")  # the group's colour, 10% opacity
        box.set_edgecolor(colors[j])
        box.set_linewidth(2)
        first, last = j * n_rep, (j + 1) * n_rep - 1
        heads = "" if n_rep == 1 else f" (query heads {first}-{last})"
        box.suptitle(f"KV head {j}{heads}", fontsize=10, color=colors[j], fontweight="bold")
        for r in range(n_rep):
            ax = box.add_subplot(sub_rows, heads_per_row, r + 1)
            i = first + r
            _draw_small_map(ax, w[i], vmax, labels, f"q head {i}", colors[j])
    for box in boxes[num_kv_heads:]:
        box.set_visible(False)
    return fig
