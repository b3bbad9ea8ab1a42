"""Figures about the KV cache: how it grows while decoding, and how many bytes it takes.

`kv_cache_figure` draws MHA / GQA / MQA caches side by side after some decoding steps;
`kv_memory_figure` draws the bytes of the cache for the three layouts. The widgets in
attnlab.widgets put controls on top of these functions.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .plots import _new_figure, group_colors

__all__ = ["attention_kind", "kv_cache_figure", "kv_memory_figure", "cache_bytes", "human_bytes"]


def attention_kind(num_heads: int, num_kv_heads: int) -> str:
    """'MHA' when every query head has its own K/V head, 'MQA' when all share one, 'GQA' otherwise."""
    if num_kv_heads == num_heads:
        return "MHA"
    if num_kv_heads == 1:
        return "MQA"
    return "GQA"


def cache_bytes(batch: int, seq_len: int, layers: int, kv_heads: int, head_dim: int, bytes_per_value: int) -> int:
    """Bytes held by a KV cache: K and V, per layer, per KV head, per position, per channel."""
    return 2 * batch * seq_len * layers * kv_heads * head_dim * bytes_per_value


def human_bytes(n: float) -> str:
    """1536 -> '1.5 KiB' (powers of 1024)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.3g} {unit}"
        n /= 1024
    return f"{n} B"  # unreachable


def _draw_cache_panel(ax, num_heads: int, kv_heads: int, step: int, steps: int) -> None:
    """One layout: query heads on top, then the K rows and the V rows of the cache (one row per KV head).

    Drawn as two images (filled cells in the KV head's colour, empty cells grey) plus one outline for
    the newest column, which keeps a redraw fast. y grows downwards, in units of one cache row.
    """
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Rectangle

    n_rep = num_heads // kv_heads
    colors = group_colors(kv_heads)
    # Query heads: one square per head, coloured by the KV head it reads.
    q_width = steps / num_heads
    q_colors = np.array([[to_rgba(colors[i // n_rep]) for i in range(num_heads)]])
    ax.imshow(q_colors, extent=(0, steps, 1.0, 0.0), interpolation="nearest", aspect="auto")
    ax.vlines(np.arange(1, num_heads) * q_width, 0, 1, color="white", linewidth=1.5)
    ax.text(-0.2, 0.5, f"{num_heads} query\nheads", ha="right", va="center", fontsize=8)
    y = 1.8
    for name in ("K", "V"):
        cells = np.empty((kv_heads, steps, 4))
        for j in range(kv_heads):
            filled = np.array(to_rgba(colors[j], 0.55))
            cells[j, :step] = filled
            cells[j, step - 1] = to_rgba(colors[j], 1.0)
            cells[j, step:] = to_rgba("#eeeeee")
        ax.imshow(cells, extent=(0, steps, y + kv_heads, y), interpolation="nearest", aspect="auto")
        ax.hlines(y + np.arange(1, kv_heads), 0, steps, color="white", linewidth=2)
        ax.vlines(np.arange(1, steps), y, y + kv_heads, color="white", linewidth=2)
        ax.add_patch(Rectangle((step - 1, y), 1, kv_heads, fill=False, edgecolor="black", linewidth=1.5, zorder=3))
        ax.text(-0.2, y + kv_heads / 2, f"{name} cache\n{kv_heads} row{'s' if kv_heads > 1 else ''}",
                ha="right", va="center", fontsize=8)
        y += kv_heads + 0.6
    kind = attention_kind(num_heads, kv_heads)
    ax.set_title(f"{kind}: {kv_heads} KV head{'s' if kv_heads > 1 else ''}\n"
                 f"cache = 2 x {kv_heads} x {step} = {2 * kv_heads * step} vectors", fontsize=10)
    every = max(1, steps // 8)
    ax.set_xticks([t + 0.5 for t in range(0, steps, every)])
    ax.set_xticklabels([str(t) for t in range(0, steps, every)], fontsize=8)
    ax.tick_params(axis="x", length=0)
    ax.set_yticks([])
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)


def kv_cache_figure(num_heads: int = 8, kv_heads: Sequence[int] = (8, 2, 1), step: int = 1, steps: int = 8):
    """MHA / GQA / MQA caches side by side after `step` decoding steps (1 <= step <= steps).

    Each panel shows the query heads (coloured by the KV head they read: same colour, same KV head)
    and the cache: one row of K and one row of V per KV head, one column per position. At every step each layout appends one
    column (the newest, outlined), i.e. 2 * H_kv vectors of size head_dim. Panels share the vertical
    scale, so the empty space under GQA and MQA is memory they do not need.
    """
    for h_kv in kv_heads:
        if h_kv < 1 or num_heads % h_kv:
            raise ValueError(f"kv_heads entry {h_kv} must divide num_heads={num_heads}")
    if not 1 <= step <= steps:
        raise ValueError(f"step must be between 1 and steps={steps}, got {step}")
    max_rows = max(kv_heads)
    units = 1.8 + 2 * (max_rows + 0.6)  # rows of the tallest panel
    width = min(16.0, (0.42 * steps + 1.0) * len(kv_heads) + 0.3)
    height = 1.5 + 0.27 * units
    fig = _new_figure((width, height))
    axes = fig.subplots(1, len(kv_heads), squeeze=False)[0]
    fig.subplots_adjust(left=0.9 / width, right=1 - 0.1 / width, bottom=0.55 / height, top=1 - 0.95 / height,
                        wspace=1.1 / (0.42 * steps))
    for ax, h_kv in zip(axes, kv_heads):
        _draw_cache_panel(ax, num_heads, h_kv, step, steps)
        ax.set_xlim(0, steps)
        ax.set_ylim(units, 0)
    fig.supxlabel("cached position (one column per decoded token)", fontsize=9)
    fig.suptitle(f"Decoding step {step} of {steps}: every layout appends the new token's K and V (outlined column),\n"
                 f"and the new token's queries read all {step} cached position{'s' if step > 1 else ''}", fontsize=10)
    return fig


def kv_memory_figure(batch: int, seq_len: int, layers: int, num_heads: int, kv_heads: int, head_dim: int,
                     bytes_per_value: int):
    """Horizontal bars: cache bytes of MHA (H_kv = H), the chosen H_kv, and MQA (H_kv = 1)."""
    rows = [("MHA", num_heads), (f"chosen ({attention_kind(num_heads, kv_heads)})", kv_heads), ("MQA", 1)]
    sizes = [cache_bytes(batch, seq_len, layers, h, head_dim, bytes_per_value) for _, h in rows]
    fig = _new_figure((8.5, 2.5), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    colors = ["#0072B2", "#009E73", "#D55E00"]
    positions = np.arange(len(rows))[::-1]
    ax.barh(positions, sizes, color=colors, height=0.6)
    biggest = max(sizes)
    for y, size, (_, h) in zip(positions, sizes, rows):
        ax.text(size + biggest * 0.01, y, f"{human_bytes(size)}  (H_kv={h}, {sizes[0] / size:.3g}x less than MHA)"
                if size != sizes[0] else f"{human_bytes(size)}  (H_kv={h})", va="center", fontsize=10)
    ax.set_yticks(positions)
    ax.set_yticklabels([name for name, _ in rows], fontsize=10)
    ax.set_xlim(0, biggest * 1.9)
    ax.set_xticks([])
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_title(f"KV cache: batch {batch}, {seq_len} tokens, {layers} layer{'s' if layers > 1 else ''}, "
                 f"{num_heads} heads, head dim {head_dim}, {bytes_per_value} byte{'s' if bytes_per_value > 1 else ''}"
                 " per value", fontsize=11)
    return fig
