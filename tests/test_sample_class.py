"""The bundled sample class: every student gets exactly the score their work deserves, and grading
leaves their files untouched."""
import csv
import hashlib
from pathlib import Path

import pytest

from autograder.grade import grade_class
from autograder.sandbox import Limits

from conftest import REPO, load_script

SAMPLE = REPO / "autograder" / "sample_class"
ASSIGNMENT = "01_scaled_dot_product_attention"

# Chapter 01 has 16 points: attention 9, self_attention 3, four questions 1 each.
EXPECTED = {
    "perfect": 16,
    "blank": 0,
    "partial": 11,         # attention 9 + two right questions; self_attention not started
    "scale_by_d": 6,       # dividing by d_k fails every value check of attention and self_attention
    "kernel_dies": 15,     # only the answer whose cell kills the process is lost
    "infinite_loop": 4,    # attention never returns: only the questions score
    "unreadable": 0,
}


def _hashes(root: Path):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("grades")
    before = _hashes(SAMPLE)
    graded = grade_class(SAMPLE, out, limits=Limits(cell_timeout=3), progress=False)
    return out, graded, before


def test_each_student_gets_the_expected_score(run):
    out, _, _ = run
    with open(out / "grades.csv") as f:
        rows = {r["student_id"]: (float(r["score"]), float(r["max_score"])) for r in csv.DictReader(f) if r["assignment"] == ASSIGNMENT}
    assert rows == {s: (float(v), 16.0) for s, v in EXPECTED.items()}


def test_per_test_rows_add_up_to_the_totals(run):
    out, _, _ = run
    with open(out / "grades_by_test.csv") as f:
        rows = list(csv.DictReader(f))
    assert set(rows[0]) == {"student_id", "assignment", "notebook", "grade_id", "score", "max_score"}
    for student, expected in EXPECTED.items():
        mine = [r for r in rows if r["student_id"] == student]
        assert len(mine) == 12, f"{student}: one row per test cell"
        assert sum(float(r["score"]) for r in mine) == expected


def test_submissions_are_byte_identical_after_grading(run):
    _, _, before = run
    assert _hashes(SAMPLE) == before


def test_every_student_has_a_feedback_page_that_explains_failures(run):
    out, _, _ = run
    for student in EXPECTED:
        page = out / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
        assert page.is_file(), f"no feedback for {student}"
    text = (out / "feedback" / "scale_by_d" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "6 / 16" in text and "sqrt" in text, "the scaling bug should be named in the feedback"
    assert "infinite loop" in (out / "feedback" / "infinite_loop" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "stopped the Python process" in (out / "feedback" / "kernel_dies" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "not a readable Jupyter notebook" in (out / "feedback" / "unreadable" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()


def test_gradebook_holds_the_same_scores(run):
    from nbgrader.api import Gradebook

    out, _, _ = run
    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        for student, expected in EXPECTED.items():
            assert gb.find_submission(ASSIGNMENT, student).score == expected


def test_sample_class_is_built_from_the_current_release(tmp_path, monkeypatch):
    """build.py regenerates exactly the committed sample notebooks (so they track chapter 01)."""
    build = load_script(SAMPLE / "build.py")
    monkeypatch.setattr(build, "HERE", tmp_path)
    build.main()
    for path in tmp_path.rglob("*.ipynb"):
        committed = SAMPLE / path.relative_to(tmp_path)
        assert committed.read_bytes() == path.read_bytes(), f"{committed} is stale: run python autograder/sample_class/build.py"
