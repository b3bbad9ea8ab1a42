"""The student release in notebooks/ is exactly what nbgrader makes from solutions/, and leaks nothing."""
import json

import pytest

from autograder.release import LEAKS, drift

from conftest import NOTEBOOKS, REPO, SOLUTIONS

ALL_NOTEBOOKS = sorted([*SOLUTIONS.glob("*/*.ipynb"), *NOTEBOOKS.glob("*/*.ipynb")])


def test_notebooks_match_a_fresh_release_of_solutions():
    stale = drift()
    assert not stale, f"out of date: {stale}; run `make release` and commit notebooks/"


def test_every_chapter_is_released():
    assert {p.parent.name for p in SOLUTIONS.glob("*/*.ipynb")} == {p.parent.name for p in NOTEBOOKS.glob("*/*.ipynb")}


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.rglob("*")), ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_release_holds_no_solution_or_hidden_test(path):
    if path.is_file():
        text = path.read_text(errors="replace")
        assert not [m for m in LEAKS if m in text]


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_notebooks_are_committed_without_outputs_or_widget_state(path):
    nb = json.loads(path.read_text())
    assert "widgets" not in nb["metadata"], "strip metadata.widgets (it breaks GitHub's preview and JupyterLab 4)"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, f"cell {cell.get('id')} has outputs"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*/*.ipynb")), ids=lambda p: p.parent.name)
def test_every_stub_raises_not_implemented(path):
    nb = json.loads(path.read_text())
    answers = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
    for cell in answers:
        assert "raise NotImplementedError()" in "".join(cell["source"]), cell["metadata"]["nbgrader"]["grade_id"]
