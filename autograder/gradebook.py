"""Writing results into an nbgrader gradebook (SQLite or any SQLAlchemy URL, e.g. PostgreSQL).

The gradebook gets the same assignments, notebooks, cells and scores that `nbgrader autograde`
would record, so formgrader, `nbgrader export` and `nbgrader generate_feedback` work on it.
"""
from __future__ import annotations

import contextlib
import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Dict, List, Tuple

from .chapter import Chapter

if TYPE_CHECKING:
    from .grade import Graded


def put_venv_on_path() -> None:
    """nbgrader runs `alembic` from PATH when it creates or upgrades a gradebook."""
    bin_dir = str(Path(sys.executable).parent)
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")


@contextlib.contextmanager
def _exclusive(db_url: str):
    """Several graders may share one PostgreSQL gradebook: nbgrader creates its tables and rows in
    separate unguarded steps, so each grader holds an advisory lock while it writes."""
    if not db_url.startswith("postgresql"):
        yield
        return
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(7215001)"))
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(7215001)"))
    finally:
        engine.dispose()


def record(db_url: str, graded: List["Graded"], chapters: Dict[Tuple[str, str], Chapter]) -> None:
    from nbgrader.api import Gradebook, MissingEntry

    put_venv_on_path()
    with _exclusive(db_url), warnings.catch_warnings(), Gradebook(db_url) as gb:
        warnings.simplefilter("ignore")  # nbgrader's add_submission triggers SQLAlchemy autoflush warnings
        for (assignment, notebook), chapter in sorted(chapters.items()):
            gb.update_or_create_assignment(assignment)
            gb.update_or_create_notebook(notebook, assignment)
            for test in chapter.tests:
                gb.update_or_create_grade_cell(test.grade_id, notebook, assignment, max_score=test.points, cell_type="code")
            for answer in chapter.answer_ids:
                gb.update_or_create_solution_cell(answer, notebook, assignment)
        for g in graded:
            t = g.task
            gb.update_or_create_student(t.student)
            if (t.assignment, t.notebook) not in chapters:
                continue
            try:
                gb.find_submission(t.assignment, t.student)
            except MissingEntry:
                gb.add_submission(t.assignment, t.student)
            scores = {r.grade_id: r.points for r in g.result.tests} if g.result else {}
            for grade in gb.find_submission_notebook(t.notebook, t.assignment, t.student).grades:
                grade.auto_score = scores.get(grade.name, 0.0)
        gb.db.commit()
