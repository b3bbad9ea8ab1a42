"""attnlab.widgets, driven headless: moving a control changes the figure, a headless notebook run keeps a picture.

Redraw times are printed (run with -s to see them), not asserted: they depend on the machine.
"""
import base64
import statistics
import time

import matplotlib

matplotlib.use("Agg")
import nbformat  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from attnlab import widgets  # noqa: E402
from attnlab._figure_widget import FigureWidget  # noqa: E402
from attnlab.kv_figures import cache_bytes, kv_cache_figure  # noqa: E402


def shown_png(view) -> bytes:
    """The PNG currently inside the widget's figure area (what a browser would show)."""
    (output,) = view.figure_output.outputs
    return base64.b64decode(output["data"]["image/png"])


def report(name, view):
    """Print redraw times: wall clock and this thread's CPU time (what one free core would take)."""
    def summary(values):
        later = values[1:] or values
        return (f"first {values[0] * 1000:.0f} ms, later median {statistics.median(later) * 1000:.0f} ms, "
                f"max {max(later) * 1000:.0f} ms over {len(later)}")
    print(f"\n{name}: wall {summary(view.redraw_seconds)}; CPU {summary(view.redraw_cpu_seconds)}")


def test_head_viewer_layer_and_head_controls_change_the_figure():
    torch.manual_seed(0)
    weights = torch.softmax(torch.randn(3, 4, 6, 6), dim=-1)
    view = widgets.head_viewer(weights, labels=list("abcdef"))
    first = shown_png(view)
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and first == view.png
    view.head_slider.value = 2
    after_head = shown_png(view)
    assert after_head != first
    view.layer_slider.value = 1
    assert shown_png(view) not in (first, after_head)
    view.head_slider.value = 0
    view.layer_slider.value = 0
    assert shown_png(view) == first  # same state, same picture
    assert view.head_slider.continuous_update is False and view.layer_slider.continuous_update is False
    for i in range(4):
        view.head_slider.value = i
    report("head_viewer", view)


def test_head_viewer_zoom_shows_the_selected_head_and_layer():
    weights = np.random.default_rng(1).dirichlet(np.ones(5), size=(2, 4, 5))
    fig = widgets.head_viewer_figure(weights, layer=1, head=3, num_kv_heads=2)
    zoom = [ax for ax in fig.axes if ax.images and ax.get_xlabel() == "key"]
    assert len(zoom) == 1
    np.testing.assert_allclose(zoom[0].images[0].get_array(), weights[1, 3])
    assert "reads KV head 1" in zoom[0].get_title()


def test_head_viewer_takes_three_dimensional_weights_and_checks_kv_heads():
    view = widgets.head_viewer(np.random.default_rng(2).dirichlet(np.ones(4), size=(2, 4)))
    assert view.layer_slider not in view.children[0].children  # one layer: no layer control
    with pytest.raises(ValueError, match="must divide"):
        widgets.head_viewer(torch.rand(4, 3, 3), num_kv_heads=3)
    with pytest.raises(ValueError):
        widgets.head_viewer(torch.rand(3, 3))


def test_trained_model_viewer_opens_fast_and_every_control_redraws():
    start = time.perf_counter()
    view = widgets.trained_model_viewer()
    print(f"\ntrained_model_viewer opened in {time.perf_counter() - start:.2f} s")
    c = view.controls
    pictures = [shown_png(view)]
    for name, value in [("head", 1), ("layer", 1), ("example", 3), ("causal", True)]:
        c[name].value = value
        pictures.append(shown_png(view))
    c["model"].value = "copy"
    assert c["causal"].value is True, "the copy model is shown with the mask it was trained with"
    pictures.append(shown_png(view))
    c["causal"].value = False
    pictures.append(shown_png(view))
    assert len(set(pictures)) == len(pictures), "every change of a control should change the picture"
    assert view.error is None
    report("trained_model_viewer", view)


def test_kv_cache_stepper_grows_one_position_per_step():
    view = widgets.kv_cache_stepper(num_heads=8, kv_heads=(8, 2, 1), steps=6)
    pictures = {shown_png(view)}
    for step in range(2, 7):
        view.step_slider.value = step
        pictures.add(shown_png(view))
    assert len(pictures) == 6
    fig = kv_cache_figure(8, (8, 4, 1), step=5, steps=6)
    titles = [ax.get_title() for ax in fig.axes]
    assert [t.split(":")[0] for t in titles] == ["MHA", "GQA", "MQA"]
    for title, h_kv in zip(titles, (8, 4, 1)):
        assert title.endswith(f"= {2 * h_kv * 5} vectors")
    with pytest.raises(ValueError):
        widgets.kv_cache_stepper(num_heads=8, kv_heads=(8, 3))
    report("kv_cache_stepper", view)


def test_kv_memory_calculator_presets_and_controls():
    view = widgets.kv_memory_calculator()
    c = view.controls
    # The worked example of the course notes: h=32, n=2048, d_h=128, fp16, one layer.
    mha, mqa = 2048 * 128 * 32 * 2 * 2, 2048 * 128 * 1 * 2 * 2
    assert f"{mha:,} bytes" in view.summary.value and f"{mqa:,} bytes" in view.summary.value
    first = shown_png(view)
    c["preset"].value = next(k for k in widgets.MEMORY_PRESETS if "70B" in k)
    assert (c["layers"].value, c["heads"].value, c["kv_heads"].value, c["head_dim"].value) == (80, 64, 8, 128)
    gqa = 2 * 4096 * 80 * 8 * 128 * 2
    assert f"= {gqa:,} bytes" in view.summary.value and "8x the chosen layout" in view.summary.value
    assert shown_png(view) != first
    c["heads"].value = 12
    assert tuple(c["kv_heads"].options) == (1, 2, 3, 4, 6, 12) and c["kv_heads"].value == 6
    assert c["preset"].value == "custom"
    c["dtype"].value = 4
    assert f"= {cache_bytes(1, 4096, 80, 6, 128, 4):,} bytes" in view.summary.value
    report("kv_memory_calculator", view)


def test_static_copy_travels_with_the_widget_view():
    view = widgets.kv_cache_stepper()
    bundle = view._bundle()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == view.model_id
    assert base64.b64decode(bundle["image/png"]) == view.png


def test_a_failing_first_drawing_raises_and_a_failing_redraw_is_shown():
    import ipywidgets as W

    with pytest.raises(ZeroDivisionError):
        FigureWidget([], [], lambda: 1 / 0)
    slider = W.IntSlider(value=1, min=0, max=2, continuous_update=False)

    def draw():
        import matplotlib.pyplot as plt

        fig = plt.figure()
        fig.text(0.5, 0.5, str(1 / slider.value))
        return fig

    view = FigureWidget([slider], [slider], draw)
    slider.value = 0
    assert "ZeroDivisionError" in view.error
    assert "ZeroDivisionError" in view.figure_output.outputs[0]["text"]


NOTEBOOK_CELLS = [
    "import torch\nfrom attnlab import widgets\n_ = torch.manual_seed(0)",
    "widgets.head_viewer(torch.softmax(torch.randn(2, 4, 6, 6), -1), labels=list('abcdef'), num_kv_heads=2)",
    "viewer = widgets.trained_model_viewer()",
    "widgets.kv_cache_stepper()",
    "widgets.kv_memory_calculator()",
]


def test_headless_notebook_run_leaves_one_picture_per_widget(tmp_path):
    """nbclient has no browser: every widget cell must still hold an image/png output, exactly once, and no error."""
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in NOTEBOOK_CELLS]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    for cell in nb.cells[1:]:
        outputs = cell.outputs
        assert not [o for o in outputs if o.output_type == "error" or o.get("name") == "stderr"], cell.source
        pictures = [o for o in outputs if "image/png" in o.get("data", {})]
        assert len(pictures) == 1, f"expected one picture (widget view + static copy), got {len(pictures)}: {cell.source}"
        assert "application/vnd.jupyter.widget-view+json" in pictures[0]["data"]
        assert base64.b64decode(pictures[0]["data"]["image/png"])[:4] == b"\x89PNG"
