"""What the grader needs from a chapter's source notebook, and from a student's copy of it.

From the instructor's notebook in `solutions/`: the `setup` cell, the answer cells (in order,
by grade_id) and the test cells with their hidden tests. From a submission: only the source
of the answer cells, found by grade_id. Nothing else a student changed or added is used.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import nbformat

SETUP_ID = "setup"
_SOLUTION = re.compile(r"^\s*### (BEGIN|END) SOLUTION\s*$", re.M)
_HIDDEN = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.S)


class SubmissionError(Exception):
    """A submitted notebook cannot be read; the message says what to do."""


@dataclass
class TestCell:
    grade_id: str
    points: float
    source: str


@dataclass
class Chapter:
    assignment: str
    notebook: str                      # file stem, e.g. "01_scaled_dot_product_attention"
    setup_source: str
    answer_ids: List[str]
    solution_sources: Dict[str, str]
    tests: List[TestCell]
    secret_lines: List[str] = field(default_factory=list)   # lines of hidden tests: never shown to students

    @property
    def max_score(self) -> float:
        return sum(t.points for t in self.tests)

    def answer_cells(self, answers: Dict[str, str]) -> List[Tuple[str, str]]:
        """(grade_id, source) of the answer cells in chapter order; missing answers are left out."""
        return [(g, answers[g]) for g in self.answer_ids if g in answers]


def _nbgrader(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def load_chapter(path: Path) -> Chapter:
    """Parse an instructor notebook (solutions/<assignment>/<notebook>.ipynb)."""
    nb = nbformat.read(str(path), as_version=4)
    setup: Optional[str] = None
    answer_ids: List[str] = []
    solutions: Dict[str, str] = {}
    tests: List[TestCell] = []
    secrets: List[str] = []
    for cell in nb.cells:
        meta = _nbgrader(cell)
        grade_id = meta.get("grade_id")
        if cell.cell_type != "code" or not grade_id:
            continue
        if grade_id == SETUP_ID:
            setup = cell.source
        elif meta.get("solution") and not meta.get("grade"):
            answer_ids.append(grade_id)
            solutions[grade_id] = _SOLUTION.sub("", cell.source)
        elif meta.get("grade"):
            source = cell.source.replace("### BEGIN HIDDEN TESTS\n", "").replace("### END HIDDEN TESTS", "")
            tests.append(TestCell(grade_id, float(meta.get("points", 0)), source))
            for block in _HIDDEN.findall(cell.source):
                secrets += [line.strip() for line in block.splitlines() if len(line.strip()) >= 8]
    if setup is None:
        raise ValueError(f"{path}: no code cell with grade_id '{SETUP_ID}' (see docs/writing-a-chapter.md)")
    for solution in solutions.values():
        secrets += [line.strip() for line in solution.splitlines() if len(line.strip()) >= 12]
    return Chapter(path.parent.name, path.stem, setup, answer_ids, solutions, tests, secrets)


def read_answers(path: Path, chapter: Chapter) -> Dict[str, str]:
    """Source of each answer cell in a submitted notebook, by grade_id (first copy wins)."""
    try:
        nb = nbformat.read(str(path), as_version=4)
    except FileNotFoundError:
        raise SubmissionError(f"the notebook {path.name} is missing from the submission") from None
    except Exception as e:  # nbformat raises many kinds for broken JSON or schema
        raise SubmissionError(
            f"{path.name} is not a readable Jupyter notebook ({type(e).__name__}). "
            "Open it in JupyterLab, save it, and submit the .ipynb file again."
        ) from None
    answers: Dict[str, str] = {}
    for cell in nb.cells:
        grade_id = _nbgrader(cell).get("grade_id")
        if grade_id in chapter.answer_ids and grade_id not in answers and isinstance(cell.get("source"), str):
            answers[grade_id] = cell.source
    return answers
