"""Agreement with stock nbgrader.

* The honest sample students (perfect, blank, partial, scale_by_d) get the same score from stock
  `nbgrader autograde` (in a scratch course with the repository's nbgrader settings) as from
  `python -m autograder grade`, per student and per test cell.
* Every chapter in solutions/ passes `nbgrader validate`; every release in notebooks/ fails every
  visible test under `nbgrader validate --invert`.

Every job is a separate process; they run side by side, as many as there are cores.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from conftest import NOTEBOOKS, REPO, chapter_paths, load_script

speed = load_script(REPO / "benchmarks" / "grading_speed.py")

SOLUTION_PATHS = chapter_paths()
RELEASE_PATHS = sorted(p for p in NOTEBOOKS.glob("*/*.ipynb")
                       if not p.parent.name.startswith("00_") and ".ipynb_checkpoints" not in p.parts)

# Runs nbgrader's Validator with the repository's nbgrader_config.py on a scratch copy of the chapter folder.
_VALIDATE = r"""
import json, shutil, sys, tempfile
from pathlib import Path
from traitlets.config.loader import PyFileConfigLoader
from nbgrader.validator import Validator

repo, path, invert = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "invert"
config = PyFileConfigLoader("nbgrader_config.py", path=str(repo)).load_config()
config.Validator.invert = invert
with tempfile.TemporaryDirectory() as tmp:
    copy = Path(tmp) / path.parent.name
    shutil.copytree(path.parent, copy)
    result = Validator(config=config).validate(str(copy / path.name))
print("RESULT " + json.dumps(result))
"""


def _grade_cells(path: Path):
    nb = nbformat.read(str(path), as_version=4)
    return [c.metadata.nbgrader["grade_id"] for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"]


def _validate(path: Path, invert: bool) -> dict:
    proc = subprocess.run([sys.executable, "-c", _VALIDATE, str(REPO), str(path), "invert" if invert else "plain"],
                          cwd=str(REPO), env=speed.nbgrader_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, f"nbgrader's validator did not finish on {path}:\n{proc.stdout[-4000:]}"
    return json.loads(lines[-1][len("RESULT "):])


def _gradebook_cells(db_url: str):
    """{student: {test cell: (score, max_score)}} from an nbgrader gradebook."""
    from nbgrader.api import Gradebook

    cells = {}
    with Gradebook(db_url) as gb:
        for submission in gb.assignment_submissions(speed.ASSIGNMENT):
            nb = gb.find_submission_notebook(speed.ASSIGNMENT, speed.ASSIGNMENT, submission.student_id)
            cells[submission.student_id] = {g.name: (float(g.score), float(g.max_score)) for g in nb.grades}
    return cells


def _stock_and_ours(tmp: Path):
    submissions = tmp / "submissions"
    students = speed.build_class(submissions, len(speed.HONEST))
    with ThreadPoolExecutor(2) as pool:
        def stock():
            course = speed.make_stock_course(tmp / "course")
            shutil.copytree(submissions, course / "submitted")
            speed.run_stock(course)
            return _gradebook_cells(f"sqlite:///{course / 'gradebook.db'}")

        def ours():
            speed.run_ours(submissions, tmp / "ours", extra=["--timeout", "20"])
            return _gradebook_cells(f"sqlite:///{tmp / 'ours' / 'gradebook.db'}"), speed.our_scores(tmp / "ours")

        stock_future, ours_future = pool.submit(stock), pool.submit(ours)
        return students, stock_future.result(), *ours_future.result()


@pytest.fixture(scope="module")
def jobs():
    """Start every job at once (at most one per core running); tests wait for the one they need."""
    tmp = Path(tempfile.mkdtemp(prefix="stock-nbgrader-"))
    pool = ThreadPoolExecutor(max(2, os.cpu_count() or 1))
    futures = {"grading": pool.submit(_stock_and_ours, tmp)}
    for path in SOLUTION_PATHS:
        futures[("validate", path)] = pool.submit(_validate, path, False)
    for path in RELEASE_PATHS:
        futures[("invert", path)] = pool.submit(_validate, path, True)
    try:
        yield futures
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(tmp, ignore_errors=True)


def test_stock_nbgrader_and_ours_agree_on_every_student_and_test_cell(jobs):
    students, stock, ours_gradebook, ours_csv = jobs["grading"].result()
    assert set(stock) == set(students), "stock nbgrader did not grade every student"
    # The four kinds of work earn four different totals, so agreement is not vacuous.
    totals = {s: sum(score for score, _ in cells.values()) for s, cells in stock.items()}
    assert len(set(totals.values())) == len(speed.HONEST), totals
    assert ours_gradebook == stock, "\n".join(speed.differences(
        {s: {c: v[0] for c, v in cells.items()} for s, cells in stock.items()},
        {s: {c: v[0] for c, v in cells.items()} for s, cells in ours_gradebook.items()}))
    assert ours_csv == {s: {c: v[0] for c, v in cells.items()} for s, cells in stock.items()}


@pytest.mark.parametrize("path", SOLUTION_PATHS, ids=lambda p: p.parent.name)
def test_solution_passes_nbgrader_validate(jobs, path):
    assert _grade_cells(path), f"{path.name} has no graded test cells"
    result = jobs[("validate", path)].result()
    problems = {k: [c.get("raw_error") or c["source"][:300] for c in v] for k, v in result.items() if v}
    assert not problems, f"nbgrader validate {path.relative_to(REPO)}: {json.dumps(problems, indent=1)[:6000]}"


@pytest.mark.parametrize("path", RELEASE_PATHS, ids=lambda p: p.parent.name)
def test_release_fails_every_visible_test(jobs, path):
    assert _grade_cells(path), f"{path.name} has no graded test cells"
    result = jobs[("invert", path)].result()
    changed = [c["source"][:200] for c in result.get("changed", []) + result.get("type_changed", [])]
    assert not changed, f"{path.relative_to(REPO)}: cells differ from the release nbgrader made (stale release?): {changed}"
    passed = [c["source"].splitlines()[0] if c["source"] else "" for c in result.get("passed", [])]
    assert not passed, f"{path.relative_to(REPO)}: these tests already pass on the blank release: {passed}"
