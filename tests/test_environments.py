"""The three dependency lists agree, and the hosted-platform set-up never reinstalls torch."""
import re

import pytest

from conftest import REPO


def _pins(lines):
    pins = {}
    for line in lines:
        line = line.split("#")[0].strip().lstrip("- ").strip()
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([\w.+\-]+)", line)
        if m:
            pins[m.group(1).lower()] = m.group(2)
    return pins


def _file_pins(name):
    return _pins((REPO / name).read_text().splitlines())


def test_requirements_pin_every_package_exactly():
    lines = [l.split("#")[0].strip() for l in (REPO / "requirements.txt").read_text().splitlines()]
    lines = [l for l in lines if l]
    assert len(_pins(lines)) == len(lines), "every requirement is pinned with =="


def test_conda_environment_matches_requirements():
    assert _file_pins("environment.yml") == _file_pins("requirements.txt")


def test_binder_environment_is_the_student_subset_of_requirements():
    binder, full = _file_pins("binder/environment.yml"), _file_pins("requirements.txt")
    assert binder and all(full.get(name) == version for name, version in binder.items()), (binder, full)
    for needed in ("torch", "ipywidgets", "matplotlib", "jupyterlab"):
        assert needed in binder


@pytest.mark.parametrize("path", ["environment.yml", "binder/environment.yml"])
def test_conda_files_take_cpu_torch_and_an_exact_python(path):
    text = (REPO / path).read_text()
    assert "download.pytorch.org/whl/cpu" in text
    assert re.search(r"^\s*- python=3\.\d+\s*$", text, re.M), "repo2docker needs an exact python=3.X pin"


def test_binder_start_limits_threads_to_one():
    text = (REPO / "binder" / "start").read_text()
    assert "export OMP_NUM_THREADS=1" in text and 'exec "$@"' in text


def test_install_cell_installs_only_what_is_missing():
    """Run the install cell against a fake pip: nothing is installed when everything is present,
    and torch is never installed when a platform already has it."""
    import importlib.util
    import subprocess

    source = (REPO / "autograder" / "templates" / "install_cell.py").read_text()
    calls = []
    present = {"torch", "matplotlib", "ipywidgets", "attnlab"}

    def fake_find_spec(name):
        return object() if name in present else None

    def run(find_spec):
        calls.clear()
        original_find, original_call = importlib.util.find_spec, subprocess.check_call
        importlib.util.find_spec, subprocess.check_call = find_spec, lambda args: calls.append(args)
        try:
            exec(compile(source, "install_cell", "exec"), {})
        finally:
            importlib.util.find_spec, subprocess.check_call = original_find, original_call
        return [" ".join(c) for c in calls]

    assert run(fake_find_spec) == []
    present.discard("attnlab")
    installs = run(fake_find_spec)
    assert len(installs) == 1 and "--no-deps" in installs[0] and "torch" not in installs[0].split("--no-deps")[0]
    present.discard("ipywidgets")
    installs = run(fake_find_spec)
    assert any(c.endswith("ipywidgets") for c in installs) and not any(" torch" in c for c in installs)


def test_readme_has_three_launch_links_per_notebook():
    readme = (REPO / "README.md").read_text()
    for nb in sorted((REPO / "notebooks").glob("*/*.ipynb")):
        rel = f"notebooks/{nb.parent.name}/{nb.name}"
        for host in ("mybinder.org", "modelscope.cn", "colab.research.google.com"):
            assert re.search(re.escape(host) + r"[^)\s]*" + re.escape(rel), readme), f"README lacks a {host} link to {rel}"
