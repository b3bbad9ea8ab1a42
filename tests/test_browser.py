"""The widgets in a real browser: JupyterLab + headless Chromium, run every cell, move sliders, look at the pictures.

Needs Debian's Chromium at /usr/bin/chromium (`apt-get install -y chromium`; playwright cannot download browsers
here) and the playwright Python package. Outside CI (env var CI unset) the test is skipped when they are missing;
in CI it fails instead. Screenshots go to build/screenshots/.

Notebooks checked: a demo notebook of every attnlab widget (written to a temp folder), plus every
solutions/*/*.ipynb whose source uses attnlab.widgets or ipywidgets (see `widget_notebooks`).
Run alone with: `python -m pytest tests/test_browser.py -s`.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = REPO / "build" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
RUN_ALL_TIMEOUT_S = int(os.environ.get("BROWSER_RUN_ALL_TIMEOUT_S", 240))

DEMO_CELLS = [
    "import torch\nfrom attnlab import widgets\n_ = torch.manual_seed(0)",
    "widgets.head_viewer(torch.softmax(torch.randn(2, 8, 6, 6) * 2, -1), labels='the cat sat on a mat'.split(), "
    "num_kv_heads=2)",
    "widgets.trained_model_viewer()",
    "widgets.kv_cache_stepper()",
    "widgets.kv_memory_calculator()",
]


def widget_notebooks() -> list[Path]:
    """Chapter notebooks whose code uses widgets (extend the markers to cover more).

    The instructor copies in solutions/ are used: the student copies in notebooks/ stop at their first
    `raise NotImplementedError()`, and JupyterLab's "run all" stops there too."""
    markers = ("attnlab.widgets", "ipywidgets")
    found = []
    for path in sorted((REPO / "solutions").glob("*/*.ipynb")):
        sources = [c.source for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "code"]
        if any(marker in source for source in sources for marker in markers):
            found.append(path)
    return found


def _require_browser():
    """Skip locally when Chromium or playwright is missing; fail in CI."""
    missing = []
    if not os.path.exists(CHROMIUM):
        missing.append(f"Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright Python package")
    if missing:
        message = "browser test needs " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(message + " (CI is set: installing them is part of the CI job)")
        pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 with a token, a private config and windowingMode none."""
    _require_browser()
    base = tmp_path_factory.mktemp("lab")
    root, settings = base / "root", base / "app-settings"
    root.mkdir()
    settings.mkdir()
    shutil.copy(REPO / "tests" / "browser" / "overrides.json", settings / "overrides.json")
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_RUNTIME_DIR=str(base / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(base / "user-settings"), JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
               JUPYTER_PLATFORM_DIRS="1", OMP_NUM_THREADS="1", MPLBACKEND="module://matplotlib_inline.backend_inline")
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               f"--LabApp.app_settings_dir={settings}", "--LabApp.expose_app_in_browser=True",
               "--LabApp.news_url=", "--ServerApp.terminals_enabled=False"]
    log = open(base / "lab.log", "w")
    # Own process group, so that teardown also ends the kernels the server started.
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2) as reply:
                    json.load(reply)
                break
            except OSError:
                if server.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"JupyterLab did not start:\n{(base / 'lab.log').read_text()[-3000:]}")
                time.sleep(0.5)
        yield {"url": url, "token": token, "root": root, "log": base / "lab.log"}
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _demo_notebook(folder: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in DEMO_CELLS]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                   "language_info": {"name": "python"}}
    path = folder / "widget_demo.ipynb"
    nbformat.write(nb, str(path))
    return path


CASES = ["demo"] + [str(p.relative_to(REPO)) for p in widget_notebooks()]

# JavaScript run in the page (window.jupyterapp exists because of expose_app_in_browser).
JS_NOTEBOOK_STATE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.content || !panel.sessionContext) return null;
  const cells = [];
  const model = panel.content.model;
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    const outputs = [];
    for (let j = 0; j < cell.outputs.length; j++) outputs.push(cell.outputs.get(j).toJSON());
    cells.push({count: cell.executionCount, outputs: outputs});
  }
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  return {status: kernel ? kernel.status : 'none', cells: cells};
}"""
JS_SLIDER_FIGURES = """() => {
  // For every enabled slider: the picture of the widget box around it (the box's first <img>).
  const result = [];
  const panel = window.jupyterapp.shell.currentWidget.node;  // only the notebook under test
  panel.querySelectorAll('.widget-slider').forEach((slider, index) => {
    const box = slider.closest('.widget-interact') || slider.closest('.widget-vbox');
    const img = box ? box.querySelector('img') : null;
    const disabled = slider.querySelector('[disabled]') || slider.classList.contains('mod-disabled')
                     || (slider.querySelector('.noUi-target') || {}).hasAttribute?.('disabled');
    result.push({index: index, src: img ? img.getAttribute('src') : null, disabled: !!disabled});
  });
  return result;
}"""


JS_ALL_RAN = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel || kernel.status !== 'idle') return false;
  const cells = [];
  for (let i = 0; i < panel.content.model.cells.length; i++) cells.push(panel.content.model.cells.get(i));
  const code = cells.filter(c => c.type === 'code');
  const failed = code.some(c => { for (let j = 0; j < c.outputs.length; j++) {
    if (c.outputs.get(j).type === 'error') return true; } return false; });
  return failed || code.every(c => c.executionCount !== null);
}"""


def _run_all(page, deadline):
    """Run all cells; wait until every code cell has an execution count (or one failed) and the kernel is idle.

    Waits with wait_for_function, whose timeout holds even when the page is busy. If nothing has started
    20 s after the command (a kernel that was still settling), the command is issued once more."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    try:
        page.wait_for_function(JS_ALL_RAN, timeout=20_000, polling=500)
    except PlaywrightTimeout:
        state = page.evaluate(JS_NOTEBOOK_STATE)
        if state and all(c["count"] is None for c in state["cells"]):
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        try:
            page.wait_for_function(JS_ALL_RAN, timeout=max(1.0, deadline - time.time()) * 1000, polling=500)
        except PlaywrightTimeout:
            raise AssertionError(f"cells did not finish within {RUN_ALL_TIMEOUT_S} s") from None
    return page.evaluate(JS_NOTEBOOK_STATE)


def _wait_for_idle_kernel(page, seconds: float = 60):
    """Wait until the kernel has handled every pending widget message (then pictures are final)."""
    page.wait_for_timeout(500)
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'",
                           timeout=seconds * 1000)
    page.wait_for_timeout(500)


def _screenshot(locator, path):
    """Save a picture of one element; a busy page that keeps it moving gets a page picture instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.screenshot(path=str(path), timeout=20_000, animations="disabled")
    except PlaywrightTimeout:
        locator.page.screenshot(path=str(path))


@pytest.mark.parametrize("case", CASES)
def test_widgets_render_and_respond_in_jupyterlab(case, lab, browser, tmp_path):
    source = _demo_notebook(tmp_path) if case == "demo" else REPO / case
    name = "demo" if case == "demo" else source.stem
    target = lab["root"] / f"{name}.ipynb"
    shutil.copy(source, target)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    console_errors = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{lab['url']}/lab/tree/{target.name}?reset&token={lab['token']}", wait_until="domcontentloaded")
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                               " && window.jupyterapp.shell.currentWidget.sessionContext"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                               " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'",
                               timeout=90_000)
        start = time.time()
        try:
            state = _run_all(page, start + RUN_ALL_TIMEOUT_S)
        finally:
            page.screenshot(path=str(SCREENSHOTS / f"{name}-after-run-all.png"))
        print(f"\n{case}: all cells ran in {time.time() - start:.1f} s")
        page.wait_for_timeout(1500)  # let the widget views finish rendering
        page.screenshot(path=str(SCREENSHOTS / f"{name}-page.png"))

        errors = [o for c in state["cells"] for o in c["outputs"] if o.get("output_type") == "error"]
        assert not errors, f"{case}: a cell raised: {errors[0].get('ename')}: {errors[0].get('evalue')}"
        notebook = page.locator("#" + page.evaluate("() => window.jupyterapp.shell.currentWidget.id"))
        shown = "\n".join(notebook.locator(".jp-OutputArea").all_inner_texts())
        assert "Error displaying widget" not in shown, f"{case}: a widget failed to display"
        assert "Could not draw this view" not in shown, f"{case}: a widget failed to redraw"
        widget_outputs = sum("application/vnd.jupyter.widget-view+json" in o.get("data", {})
                             for c in state["cells"] for o in c["outputs"])
        assert widget_outputs > 0, f"{case}: no widget output"
        assert notebook.locator(".jupyter-widgets").count() > 0, f"{case}: widget outputs did not render as widgets"
        assert notebook.locator(".widget-slider").count() > 0, f"{case}: no slider rendered"

        # Each top-level widget, saved as a picture.
        boxes = notebook.locator(".jp-OutputArea-output > .jupyter-widgets.widget-vbox, "
                             ".jp-OutputArea-output > .jupyter-widgets.widget-interact")
        for i in range(boxes.count()):
            _screenshot(boxes.nth(i), SCREENSHOTS / f"{name}-widget{i}.png")

        # Move every enabled slider that has a picture one step with the keyboard: the picture must change.
        moved = 0
        for index in range(notebook.locator(".widget-slider").count()):
            slider = page.evaluate(JS_SLIDER_FIGURES)[index]  # read now: an earlier move may have redrawn this box
            if slider["disabled"] or slider["src"] is None:
                continue
            handle = notebook.locator(".widget-slider").nth(slider["index"]).locator(".noUi-handle, .ui-slider-handle").first
            handle.evaluate("element => element.scrollIntoView({block: 'center'})")
            handle.focus()
            at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
            page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
            page.wait_for_function(
                """([index, before]) => {
                     const panel = window.jupyterapp.shell.currentWidget.node;
                     const slider = panel.querySelectorAll('.widget-slider')[index];
                     const box = slider.closest('.widget-interact') || slider.closest('.widget-vbox');
                     const img = box && box.querySelector('img');
                     return img && img.getAttribute('src') !== before;
                   }""", arg=[slider["index"], slider["src"]], timeout=30_000)
            moved += 1
        assert moved > 0, f"{case}: no slider with a picture to move"
        _wait_for_idle_kernel(page)
        boxes = notebook.locator(".jp-OutputArea-output > .jupyter-widgets.widget-vbox")
        if boxes.count():
            _screenshot(boxes.first, SCREENSHOTS / f"{name}-after-slider.png")
        print(f"{case}: {moved} slider(s) moved, each redrew its picture; screenshots in {SCREENSHOTS}")
    finally:
        try:  # close the notebook and shut its kernel down, so the next notebook starts alone
            page.evaluate("""() => { const panel = window.jupyterapp.shell.currentWidget;
                                     panel.sessionContext.shutdown(); panel.dispose(); }""")  # no dialog, no await
            page.wait_for_timeout(1000)
        except Exception:
            pass
        context.close()
