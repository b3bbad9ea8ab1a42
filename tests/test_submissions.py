"""Finding submissions: LMS zip downloads, missing notebooks, unknown assignments, links."""
import csv
import shutil
import zipfile

from autograder.grade import grade_class
from autograder.sandbox import Limits

from conftest import REPO

SAMPLE = REPO / "autograder" / "sample_class"
ASSIGNMENT = "01_scaled_dot_product_attention"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"


def _scores(out):
    with open(out / "grades.csv") as f:
        return {(r["student_id"], r["assignment"]): (float(r["score"]), float(r["max_score"])) for r in csv.DictReader(f)}


def test_zip_downloads_are_graded_like_the_folder_layout(tmp_path):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for student, work in (("alice", "perfect"), ("bob", "scale_by_d"), ("carol", "blank")):
        with zipfile.ZipFile(downloads / f"{student}_attempt_2026-11-30-10-00.zip", "w") as zf:
            zf.write(SAMPLE / work / ASSIGNMENT / NOTEBOOK, f"submission/{NOTEBOOK}")
    (downloads / "broken_attempt_1.zip").write_bytes(b"PK\x03\x04 not really a zip")
    before = {p.name: p.read_bytes() for p in downloads.iterdir()}
    out = tmp_path / "out"
    grade_class(downloads, out, limits=Limits(cell_timeout=3), progress=False)
    scores = _scores(out)
    assert scores == {("alice", ASSIGNMENT): (16, 16), ("bob", ASSIGNMENT): (6, 16), ("carol", ASSIGNMENT): (0, 16)}
    assert {p.name: p.read_bytes() for p in downloads.iterdir()} == before, "the zip files must stay untouched"


def test_missing_unknown_and_linked_submissions_get_a_zero_row_and_a_message(tmp_path):
    subs = tmp_path / "subs"
    (subs / "alice" / ASSIGNMENT).mkdir(parents=True)
    shutil.copy(SAMPLE / "perfect" / ASSIGNMENT / NOTEBOOK, subs / "alice" / ASSIGNMENT / NOTEBOOK)
    (subs / "bob" / ASSIGNMENT).mkdir(parents=True)                      # folder but no notebook
    (subs / "carol" / "99_not_a_chapter").mkdir(parents=True)             # unknown assignment only
    (subs / "dave" / ASSIGNMENT).mkdir(parents=True)
    (subs / "dave" / ASSIGNMENT / NOTEBOOK).symlink_to(REPO / "solutions" / ASSIGNMENT / NOTEBOOK)
    out = tmp_path / "out"
    graded = grade_class(subs, out, limits=Limits(cell_timeout=3), progress=False)
    scores = _scores(out)
    assert scores[("alice", ASSIGNMENT)] == (16, 16)
    assert scores[("bob", ASSIGNMENT)] == (0, 16)
    assert scores[("carol", ASSIGNMENT)] == (0, 16)       # did not hand in the assignment everyone else did
    assert scores[("carol", "99_not_a_chapter")] == (0, 0)
    assert scores[("dave", ASSIGNMENT)] == (0, 16)
    problems = {(g.task.student, g.task.assignment): g.problem for g in graded}
    assert f"{NOTEBOOK} is missing" in problems[("bob", ASSIGNMENT)]
    assert "unknown assignment '99_not_a_chapter'" in problems[("carol", "99_not_a_chapter")]
    assert "is a link, not a file" in problems[("dave", ASSIGNMENT)]
    page = (out / "feedback" / "bob" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "is missing" in page and "0 / 16" in page
