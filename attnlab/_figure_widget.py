"""A box of controls above a matplotlib figure, redrawn when a control changes.

Why this design (and not `%matplotlib widget` or `interact`):
- the figure is rendered to PNG bytes and put into an `Output` widget by setting its `outputs`
  directly, which needs no frontend to capture anything and behaves the same in ipywidgets 7.7 and 8;
- when the box is displayed, its display bundle carries a static PNG of the current figure next to
  the widget view. A live frontend (JupyterLab, Notebook 7, VS Code, Colab) shows the widget; a
  renderer without widgets (nbconvert, GitHub, a notebook opened untrusted) shows the picture.
  A headless run (nbclient, nbgrader) therefore leaves an image/png output in the cell;
- errors in the first drawing are raised (a headless run fails loudly), errors in later redraws are
  shown as text inside the widget instead of vanishing into a log.
"""
from __future__ import annotations

import base64
import io
import time
import traceback
from typing import Callable, Iterable, Optional

import ipywidgets as W

__all__ = ["FigureWidget", "figure_to_png", "int_slider"]

CACHE_SIZE = 64  # figures kept per widget (a few MB at most)
DPI = 80  # small enough to redraw fast, sharp enough to read 8-9 pt labels


def figure_to_png(fig, dpi: int = DPI) -> bytes:
    """Render a matplotlib Figure to PNG bytes and close it in pyplot."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, pil_kwargs={"compress_level": 1})
    plt.close(fig)
    return buffer.getvalue()


def int_slider(description: str, minimum: int, maximum: int, value: Optional[int] = None) -> W.IntSlider:
    """An IntSlider that only fires on release (continuous_update=False); disabled when it has one value."""
    slider = W.IntSlider(value=minimum if value is None else value, min=minimum, max=max(minimum, maximum),
                         step=1, description=description, continuous_update=False,
                         style={"description_width": "initial"})
    slider.disabled = maximum <= minimum
    return slider


def _in_ipython_kernel():
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    return get_ipython()


class FigureWidget(W.VBox):
    """Controls plus a figure drawn by `draw()`; redraws when any of `inputs` changes its value.

    children: the control rows shown above the figure (widgets or boxes of widgets).
    inputs:   the widgets whose `value` changes trigger a redraw.
    draw:     a function of no arguments that returns a matplotlib Figure of the current state.

    key:      a function of no arguments returning a hashable description of the state; figures
              already drawn for a state are reused (default: the values of `inputs`).

    Attributes useful in tests: `png` (bytes of the figure now shown), `redraw_seconds` (time of
    each redraw, including reused ones), `redraw_cpu_seconds` (the same in CPU time of this thread,
    which a busy machine does not inflate), `error` (the traceback text of the last failed redraw, or None).
    """

    def __init__(self, children: Iterable[W.Widget], inputs: Iterable[W.Widget], draw: Callable,
                 key: Optional[Callable] = None, **kwargs):
        self.figure_output = W.Output()
        super().__init__(children=[*children, self.figure_output], **kwargs)
        inputs = list(inputs)
        self._draw = draw
        self._key = key or (lambda: tuple(widget.value for widget in inputs))
        self._cache = {}  # state -> png, so going back to a view already seen is instant
        self._shown_in = None
        self._hold = False
        self.png = b""
        self.error = None
        self.redraw_seconds = []
        self.redraw_cpu_seconds = []
        self.redraw(raise_errors=True)
        for widget in inputs:
            widget.observe(self._on_change, names="value")

    def _on_change(self, change) -> None:
        if not self._hold:
            self.redraw()

    def hold(self):
        """Context manager: change several controls, then redraw once."""
        widget = self

        class _Hold:
            def __enter__(self):
                widget._hold = True

            def __exit__(self, *exc):
                widget._hold = False
                if exc[0] is None:
                    widget.redraw()

        return _Hold()

    def redraw(self, raise_errors: bool = False) -> None:
        """Draw the figure for the current control values and show it."""
        start, start_cpu = time.perf_counter(), time.thread_time()
        try:
            key = self._key()
            png = self._cache.get(key)
            if png is None:
                png = figure_to_png(self._draw())
                if len(self._cache) >= CACHE_SIZE:
                    self._cache.pop(next(iter(self._cache)))
                self._cache[key] = png
        except Exception:
            if raise_errors:
                raise
            self.error = traceback.format_exc()
            self.figure_output.outputs = (
                {"output_type": "stream", "name": "stdout", "text": "Could not draw this view:\n" + self.error},
            )
            return
        self.redraw_seconds.append(time.perf_counter() - start)
        self.redraw_cpu_seconds.append(time.thread_time() - start_cpu)
        self.error = None
        self.png = png
        self.figure_output.outputs = (
            {"output_type": "display_data", "metadata": {},
             "data": {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": "<figure>"}},
        )

    def _bundle(self) -> dict:
        return {
            "application/vnd.jupyter.widget-view+json": {"version_major": 2, "version_minor": 0,
                                                         "model_id": self.model_id},
            "image/png": base64.b64encode(self.png).decode("ascii"),
            "text/plain": "Interactive view (run the notebook in Jupyter to use its controls); "
                          "the picture shows its first state.",
        }

    def _ipython_display_(self, **kwargs) -> None:
        """Display the widget with a static PNG copy; once per cell execution (no duplicate when the
        function that showed it is also the cell's last expression)."""
        ip = _in_ipython_kernel()
        if ip is None:
            return
        count = getattr(ip, "execution_count", None)
        if self._shown_in is not None and self._shown_in == count:
            return
        self._shown_in = count
        from IPython.display import display

        display(self._bundle(), raw=True)

    def show(self) -> "FigureWidget":
        """Display this widget in the notebook (used by the functions of attnlab.widgets)."""
        self._ipython_display_()
        return self
