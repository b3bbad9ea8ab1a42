"""Interactive views of attention (ipywidgets + matplotlib, nothing loaded from the internet).

Each function builds its controls, displays itself in the notebook and returns the widget, so the
call can be the last line of a cell without showing the widget twice. Without a live frontend
(nbconvert, nbgrader, GitHub) the cell keeps a static picture of the first state.

    head_viewer(weights, labels=None, num_kv_heads=None)   # your own maps, [L, H, S, S] or [H, S, S]
    trained_model_viewer()                                 # the course's tiny trained transformer
    kv_cache_stepper(num_heads=8, kv_heads=(8, 2, 1), steps=8)
    kv_memory_calculator()

Only ipywidgets API shared by versions 7.7 and 8 is used; sliders fire when released.
"""
from __future__ import annotations

from typing import Optional, Sequence

import ipywidgets as W
import numpy as np

from ._figure_widget import FigureWidget, int_slider
from .kv_figures import attention_kind, cache_bytes, human_bytes, kv_cache_figure, kv_memory_figure
from .plots import _draw_small_map, _new_figure, draw_heatmap, group_colors, to_numpy

__all__ = ["head_viewer", "trained_model_viewer", "kv_cache_stepper", "kv_memory_calculator",
           "head_viewer_figure", "MEMORY_PRESETS"]


def head_viewer_figure(weights, layer: int = 0, head: int = 0, labels: Optional[Sequence[str]] = None,
                       num_kv_heads: Optional[int] = None, title: Optional[str] = None,
                       footer: Optional[str] = None):
    """All heads of one layer as small maps (left) and one head enlarged (right); returns the Figure.

    weights: [L, H, S_q, S_k] (or [H, S_q, S_k], then layer must be 0).
    The selected head is outlined in red in the grid; with num_kv_heads the small maps are framed in
    the colour of their KV group (query head i reads KV head i // (H // num_kv_heads)).
    footer: text printed under the maps in a monospaced font (one or more lines).
    The layout is computed by hand (no constrained layout) so that a redraw stays fast.
    """
    w = to_numpy(weights)
    if w.ndim == 3:
        w = w[None]
    num_layers, num_heads, s_q, s_k = w.shape
    n_rep = num_heads // num_kv_heads if num_kv_heads else 1
    colors = group_colors(num_kv_heads) if num_kv_heads else None
    labels = None if labels is None else [str(t) for t in labels]
    cols = min(num_heads, 4)
    rows = int(np.ceil(num_heads / cols))
    # Sizes in inches.
    cell, gap, title_h = (1.6 if rows == 1 else 1.3), 0.12, 0.3
    grid_w = cols * (cell + gap) + 0.2
    grid_h = rows * (cell + title_h) + 0.4
    side = min(5.0, max(3.0, 0.26 * max(s_q, s_k)))
    zoom_left, zoom_bottom, zoom_right, zoom_top = 0.75, 0.7, 1.2, 0.45
    zoom_w = zoom_left + side + zoom_right
    main_h = max(grid_h, zoom_bottom + side + zoom_top)
    footer_h = 0.3 + 0.19 * (footer.count("\n") + 1) if footer else 0.0
    fig_w, fig_h = grid_w + zoom_w, main_h + footer_h
    fig = _new_figure((fig_w, fig_h))

    def box(x, y, width, height):  # inches from the bottom left -> figure fractions
        return [x / fig_w, y / fig_h, width / fig_w, height / fig_h]

    vmax = max(float(np.nanmax(w[layer])), 1e-9)
    grid_top = footer_h + main_h - 0.4
    fig.text((grid_w / 2) / fig_w, (grid_top + 0.02) / fig_h,
             title or (f"all {num_heads} heads" + (f", layer {layer}" if num_layers > 1 else "")),
             ha="center", va="bottom", fontsize=10)
    for i in range(num_heads):
        r, c = divmod(i, cols)
        ax = fig.add_axes(box(0.15 + c * (cell + gap), grid_top - (r + 1) * (cell + title_h) + 0.05, cell, cell))
        color = colors[i // n_rep] if colors else None
        _draw_small_map(ax, w[layer, i], vmax, None, f"head {i}" + (f" (KV {i // n_rep})" if colors else ""), color)
        if i == head:
            ax.set_title(ax.get_title(), fontsize=9, fontweight="bold", color="#C00000")
            if not colors:
                for spine in ax.spines.values():
                    spine.set_edgecolor("#C00000")
                    spine.set_linewidth(3)
    zoom_ax = fig.add_axes(box(grid_w + zoom_left, footer_h + (main_h - side - zoom_top - zoom_bottom) / 2
                               + zoom_bottom, side, side))
    where = f"layer {layer} of {num_layers}, " if num_layers > 1 else ""
    kv = f" (reads KV head {head // n_rep})" if num_kv_heads else ""
    draw_heatmap(zoom_ax, w[layer, head], query_labels=labels[:s_q] if labels and len(labels) >= s_q else None,
                 key_labels=labels if labels and len(labels) == s_k else None, title=f"{where}head {head}{kv}")
    if footer:
        fig.text(0.12 / fig_w, (footer_h - 0.15) / fig_h, footer, family="monospace", fontsize=9,
                 va="top", ha="left")
    return fig


def head_viewer(weights, labels=None, num_kv_heads=None):
    """Browse attention maps: a grid of all heads of a layer plus one head enlarged.

    weights:      [L, H, S, S] (layers, heads, queries, keys) or [H, S, S]; torch tensor or numpy array.
    labels:       S token strings for the axes of the enlarged map.
    num_kv_heads: for GQA/MQA weights, H_kv; heads sharing a KV head get the same frame colour.

    Controls: layer (when L > 1) and head sliders. Returns the widget (already displayed).
    """
    w = to_numpy(weights)
    if w.ndim == 3:
        w = w[None]
    if w.ndim != 4:
        raise ValueError(f"head_viewer expects weights of shape [L, H, S, S] or [H, S, S], got {tuple(w.shape)}")
    num_layers, num_heads = w.shape[:2]
    if num_kv_heads is not None and (num_kv_heads < 1 or num_heads % num_kv_heads):
        raise ValueError(f"num_kv_heads={num_kv_heads} must divide the number of heads H={num_heads}")
    layer = int_slider("layer", 0, num_layers - 1)
    head = int_slider("head", 0, num_heads - 1)
    controls = [layer, head] if num_layers > 1 else [head]

    def draw():
        return head_viewer_figure(w, layer.value, head.value, labels, num_kv_heads)

    view = FigureWidget([W.HBox(controls)], controls, draw)
    view.layer_slider, view.head_slider = layer, head
    return view.show()


def trained_model_viewer():
    """Attention maps of the course's tiny trained transformers, with their predictions.

    Two models ship with the course (weights in attnlab/data): one reverses a sequence of digits
    (trained without a mask: it must look ahead), one copies a sequence after a separator (trained
    with a causal mask, like a language model). Controls: model, input sequence, layer, head, and
    the causal mask on/off, to see what each model's heads look at and what the mask hides.
    Returns the widget (already displayed).
    """
    from . import tiny_transformer as tt

    models = {name: tt.load_trained(name) for name in tt.TASKS}
    task = W.Dropdown(options=[(tt.TASKS[name].title, name) for name in tt.TASKS], value="reverse",
                      description="model")
    example = int_slider("input #", 0, tt.NUM_EXAMPLES - 1)
    first = models["reverse"]
    layer = int_slider("layer", 0, first.num_layers - 1)
    head = int_slider("head", 0, first.num_heads - 1)
    causal = W.Checkbox(value=False, description="causal mask", indent=False)

    def on_task(change):
        with view.hold():
            causal.value = tt.TASKS[task.value].causal
            layer.max = models[task.value].num_layers - 1
            head.max = models[task.value].num_heads - 1

    def draw():
        return tt.model_figure(models[task.value], task.value, example.value, layer.value, head.value, causal.value)

    view = FigureWidget([W.HBox([task, example]), W.HBox([layer, head, causal])],
                        [example, layer, head, causal], draw,
                        key=lambda: (task.value, example.value, layer.value, head.value, causal.value))
    task.observe(on_task, names="value")
    view.controls = {"model": task, "example": example, "layer": layer, "head": head, "causal": causal}
    return view.show()


def kv_cache_stepper(num_heads=8, kv_heads=(8, 2, 1), steps=8):
    """Step through decoding and watch the KV cache grow one position per step.

    num_heads: query heads H.
    kv_heads:  the layouts to compare side by side, each a number of KV heads dividing H
               (H -> MHA, 1 -> MQA, in between -> GQA).
    steps:     number of decoding steps on the slider.
    Returns the widget (already displayed).
    """
    kv_heads = tuple(int(k) for k in kv_heads)
    for h_kv in kv_heads:
        if h_kv < 1 or num_heads % h_kv:
            raise ValueError(f"kv_heads entry {h_kv} must divide num_heads={num_heads}")
    step = int_slider("decoding step", 1, steps)

    def draw():
        return kv_cache_figure(num_heads, kv_heads, step.value, steps)

    view = FigureWidget([step], [step], draw)
    view.step_slider = step
    return view.show()


# Presets: (description, batch, seq_len, layers, heads, kv_heads, head_dim, bytes per value)
MEMORY_PRESETS = {
    "worked example: h=32, n=2048, d_h=128, fp16 (MQA)": (1, 2048, 1, 32, 1, 128, 2),
    "LLaMA-2 7B: 32 layers, 32 heads (MHA), 4096 tokens": (1, 4096, 32, 32, 32, 128, 2),
    "LLaMA-2 70B: 80 layers, 64 heads, 8 KV heads (GQA), 4096 tokens": (1, 4096, 80, 64, 8, 128, 2),
}
_DTYPES = [("float32 (4 bytes)", 4), ("float16 / bfloat16 (2 bytes)", 2), ("int8 / fp8 (1 byte)", 1)]
_CHOICES = {
    "batch": [1, 2, 4, 8, 16, 32, 64, 128],
    "seq_len": [2 ** k for k in range(7, 18)],
    "layers": [1, 2, 4, 6, 8, 12, 16, 24, 32, 40, 48, 60, 64, 80, 96, 126],
    "heads": [1, 2, 4, 8, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128],
    "head_dim": [32, 64, 80, 96, 128, 160, 192, 256],
}


def _divisors(n: int) -> list:
    return [d for d in range(1, n + 1) if n % d == 0]


def kv_memory_calculator():
    """How many bytes does the KV cache take? Compare MHA, GQA and MQA for one configuration.

    bytes = 2 (K and V) x batch x seq_len x layers x kv_heads x head_dim x bytes per value.
    Controls: preset, batch, sequence length, layers, heads, KV heads (divisors of heads), head dim,
    dtype. Returns the widget (already displayed).
    """
    preset = W.Dropdown(options=list(MEMORY_PRESETS) + ["custom"], value=next(iter(MEMORY_PRESETS)),
                        description="preset", layout=W.Layout(width="520px"))
    boxes = {name: W.Dropdown(options=values, description=name.replace("_", " "), layout=W.Layout(width="200px"))
             for name, values in _CHOICES.items()}
    kv = W.Dropdown(options=_divisors(32), value=1, description="KV heads", layout=W.Layout(width="200px"))
    dtype = W.Dropdown(options=_DTYPES, value=2, description="dtype", layout=W.Layout(width="300px"))
    summary = W.HTML()
    state = {"applying": False}

    def values():
        return (boxes["batch"].value, boxes["seq_len"].value, boxes["layers"].value, boxes["heads"].value,
                kv.value, boxes["head_dim"].value, dtype.value)

    def describe():
        batch, seq_len, layers, heads, kv_heads, head_dim, nbytes = values()
        sizes = {name: cache_bytes(batch, seq_len, layers, h, head_dim, nbytes)
                 for name, h in (("MHA", heads), ("chosen", kv_heads), ("MQA", 1))}
        kind = attention_kind(heads, kv_heads)
        summary.value = (
            f"<b>2 (K and V) &times; {batch} (batch) &times; {seq_len} (tokens) &times; {layers} (layers) &times; "
            f"{kv_heads} (KV heads) &times; {head_dim} (head dim) &times; {nbytes} (bytes per value) = "
            f"{sizes['chosen']:,} bytes = {human_bytes(sizes['chosen'])}</b> ({kind})<br>"
            f"MHA ({heads} KV heads): {sizes['MHA']:,} bytes ({human_bytes(sizes['MHA'])}), "
            f"{sizes['MHA'] / sizes['chosen']:g}x the chosen layout &middot; "
            f"MQA (1 KV head): {sizes['MQA']:,} bytes ({human_bytes(sizes['MQA'])}) &middot; "
            f"MHA / MQA = {sizes['MHA'] / sizes['MQA']:g}"
        )

    def draw():
        describe()
        return kv_memory_figure(*values())

    def apply_preset(change=None):
        if preset.value == "custom":
            return
        batch, seq_len, layers, heads, kv_heads, head_dim, nbytes = MEMORY_PRESETS[preset.value]
        state["applying"] = True
        try:
            with view.hold():
                for name, value in zip(("batch", "seq_len", "layers", "heads", "head_dim"),
                                       (batch, seq_len, layers, heads, head_dim)):
                    boxes[name].value = value
                kv.options = _divisors(heads)
                kv.value = kv_heads
                dtype.value = nbytes
        finally:
            state["applying"] = False

    def on_heads(change):
        if state["applying"]:
            return
        view._hold = True  # the redraw for the new head count follows this observer
        try:
            previous = kv.value
            kv.options = _divisors(boxes["heads"].value)
            kv.value = max(d for d in kv.options if d <= previous)  # the nearest layout with fewer KV heads
        finally:
            view._hold = False

    def on_manual(change):
        if not state["applying"]:
            preset.value = "custom"

    # Preset values must be in place before the first drawing.
    batch, seq_len, layers, heads, kv_heads, head_dim, nbytes = MEMORY_PRESETS[preset.value]
    for name, value in zip(("batch", "seq_len", "layers", "heads", "head_dim"), (batch, seq_len, layers, heads, head_dim)):
        boxes[name].value = value
    kv.options, kv.value, dtype.value = _divisors(heads), kv_heads, nbytes

    inputs = [*boxes.values(), kv, dtype]
    boxes["heads"].observe(on_heads, names="value")  # before the redraw observer: KV heads follow first
    view = FigureWidget([preset, W.HBox([boxes["batch"], boxes["seq_len"], boxes["layers"]]),
                         W.HBox([boxes["heads"], kv, boxes["head_dim"], dtype]), summary], inputs, draw)
    preset.observe(apply_preset, names="value")
    for widget in inputs:
        widget.observe(on_manual, names="value")
    view.controls = {"preset": preset, **boxes, "kv_heads": kv, "dtype": dtype}
    view.summary = summary
    return view.show()
