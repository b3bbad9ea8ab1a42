"""Grading a whole class: parallel workers, resumable results, gradebook, CSV files and feedback pages.

Each worker is forked from this process after torch is imported, so no notebook pays for an
interpreter start or `import torch`. A worker never runs student code itself (see judge.py).
Each finished notebook's result is saved at once under OUT/.results/, keyed by a hash of the
submission and of the chapter: a second run skips what is already graded, and an interrupted
run resumes where it stopped.
"""
from __future__ import annotations

import csv
import ctypes
import dataclasses
import hashlib
import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from . import feedback
from .chapter import Chapter, SubmissionError, load_chapter, read_answers
from .judge import NotebookResult, TestResult, judge
from .sandbox import Limits
from .submissions import DEFAULT_ZIP_PATTERN, Task, assignments_in, find_tasks, unpack_zips

REPO = Path(__file__).resolve().parent.parent
REFERENCE_DIR = Path(__file__).resolve().parent / "reference"


@dataclass
class Graded:
    task: Task
    result: Optional[NotebookResult]
    problem: str = ""

    @property
    def stop_reasons(self) -> List[str]:
        """Why the student's process died or hung, in tests or in answer cells that were left out."""
        if self.result is None:
            return []
        return ([t.message for t in self.result.tests if t.status == "stopped"]
                + [m for m in self.result.answer_errors.values() if m.startswith("left out")])

    @property
    def status(self) -> str:
        if self.result is None:
            return "not graded"
        return "crashed or timed out" if self.stop_reasons else "graded"


def load_chapters(source: Path) -> Dict[Tuple[str, str], Chapter]:
    return {(a, nb): load_chapter(source / a / f"{nb}.ipynb") for a, nbs in assignments_in(source).items() for nb in nbs}


def secret_lines(chapter: Chapter) -> List[str]:
    lines = list(chapter.secret_lines)
    for path in sorted(REFERENCE_DIR.glob("*.py")):
        lines += [l.strip() for l in path.read_text().splitlines() if len(l.strip()) >= 12 and not l.strip().startswith("#")]
    return lines


def _fingerprint(chapter: Chapter, chapter_path: Path, task: Task, limits: Limits) -> str:
    """What a result depends on: the chapter, the references its tests import, the submission, the limits."""
    h = hashlib.sha256()
    h.update(chapter_path.read_bytes())
    for ref in sorted(REFERENCE_DIR.glob("*.py")):
        if any(f"autograder.reference.{ref.stem}" in t.source for t in chapter.tests):
            h.update(ref.read_bytes())
    h.update(task.path.read_bytes() if task.path else b"")
    h.update(json.dumps([task.problem, float(limits.cell_timeout), float(limits.notebook_timeout), int(limits.memory_bytes)]).encode())
    return h.hexdigest()


# -- worker side ---------------------------------------------------------------------------------
_CHAPTERS: Dict[Tuple[str, str], Chapter] = {}


def _init_worker() -> None:
    import torch

    torch.set_num_threads(1)
    # Nothing running as this user may read this process's memory through /proc or ptrace.
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4


def _grade_one(task: Task, limits: Limits) -> Graded:
    chapter = _CHAPTERS[(task.assignment, task.notebook)]
    try:
        answers = read_answers(task.path, chapter)
    except SubmissionError as e:
        return Graded(task, None, str(e))
    return Graded(task, judge(chapter, answers, limits))


# -- coordinator ---------------------------------------------------------------------------------
def _result_path(out: Path, task: Task) -> Path:
    return out / ".results" / task.student / task.assignment / f"{task.notebook or '_'}.json"


def _save(out: Path, graded: Graded, key: str) -> None:
    path = _result_path(out, graded.task)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"key": key, "problem": graded.problem, "result": dataclasses.asdict(graded.result) if graded.result else None}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def _load(out: Path, task: Task, key: str) -> Optional[Graded]:
    try:
        data = json.loads(_result_path(out, task).read_text())
    except (OSError, ValueError):
        return None
    if data.get("key") != key:
        return None
    r = data["result"]
    result = None
    if r is not None:
        result = NotebookResult([TestResult(**t) for t in r["tests"]], r["answer_errors"], r["answer_output"], r["isolation"])
    return Graded(task, result, data.get("problem", ""))


def grade_class(submissions: Path, out: Path, *, source: Path = REPO / "solutions", db_url: Optional[str] = None,
                workers: Optional[int] = None, limits: Optional[Limits] = None, zip_pattern: Optional[str] = None,
                progress: bool = True) -> List[Graded]:
    """Grade every submission under `submissions` and write grades, feedback and the gradebook to `out`."""
    from tqdm import tqdm

    out.mkdir(parents=True, exist_ok=True)
    source, submissions, out = source.resolve(), submissions.resolve(), out.resolve()
    chapters = load_chapters(source)
    _CHAPTERS.clear()
    _CHAPTERS.update(chapters)
    notebooks = assignments_in(source)
    notes: List[str] = []
    root = submissions
    if any(submissions.glob("*.zip")):
        root, notes = unpack_zips(submissions, notebooks, zip_pattern or DEFAULT_ZIP_PATTERN)
    limits = limits or Limits()
    limits = dataclasses.replace(limits, hide_paths=tuple(limits.hide_paths) + (str(source), str(REFERENCE_DIR), str(submissions), str(root), str(out)))
    try:
        tasks = find_tasks(root, notebooks)
        keys = {t: _fingerprint(chapters[(t.assignment, t.notebook)], source / t.assignment / f"{t.notebook}.ipynb", t, limits)
                if t.notebook else t.problem for t in tasks}
        done: Dict[Task, Graded] = {}
        todo: List[Task] = []
        for t in tasks:
            cached = _load(out, t, keys[t])
            if cached is not None:
                done[t] = cached
            elif t.path is None:
                done[t] = Graded(t, None, t.problem)
                _save(out, done[t], keys[t])
            else:
                todo.append(t)
        bar = tqdm(total=len(tasks), initial=len(done), unit="notebook", disable=not progress, desc="grading")
        while todo:
            todo = _run_pool(todo, limits, workers, out, keys, done, bar)
        bar.close()
    finally:
        if root != submissions:
            shutil.rmtree(root, ignore_errors=True)
    graded = [done[t] for t in tasks]
    write_reports(graded, chapters, out, db_url or f"sqlite:///{out / 'gradebook.db'}")
    for note in notes:
        print(f"note: {note}")
    return graded


def _run_pool(todo: List[Task], limits: Limits, workers: Optional[int], out: Path, keys, done, bar) -> List[Task]:
    """Grade `todo`; returns the tasks still to do if a worker died (the pool is then rebuilt)."""
    import multiprocessing

    import torch  # noqa: F401  (imported once here, inherited by every forked worker)

    workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
    os.environ["OMP_NUM_THREADS"] = "1"  # one thread per worker: parallel workers must not oversubscribe the cores
    ctx = multiprocessing.get_context("fork")
    remaining = set(todo)
    try:
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker) as pool:
            futures = {pool.submit(_grade_one, t, limits): t for t in todo}
            for future in as_completed(futures):
                graded = future.result()
                done[graded.task] = graded
                _save(out, graded, keys[graded.task])
                remaining.discard(graded.task)
                bar.update(1)
    except BrokenProcessPool:
        return [t for t in todo if t in remaining]
    return []


# -- reports -------------------------------------------------------------------------------------
def test_rows(graded: List[Graded], chapters: Dict[Tuple[str, str], Chapter]) -> List[Tuple[str, str, str, str, float, float]]:
    """(student, assignment, notebook, grade_id, score, max_score) for every test cell of every task."""
    rows = []
    for g in graded:
        t = g.task
        chapter = chapters.get((t.assignment, t.notebook))
        if chapter is None:
            continue
        scores = {r.grade_id: r.points for r in g.result.tests} if g.result else {}
        rows += [(t.student, t.assignment, t.notebook, c.grade_id, scores.get(c.grade_id, 0.0), c.points) for c in chapter.tests]
    return rows


def assignment_totals(graded: List[Graded], chapters: Dict[Tuple[str, str], Chapter]) -> Dict[Tuple[str, str], List[float]]:
    totals = {(g.task.student, g.task.assignment): [0.0, 0.0] for g in graded}
    for student, assignment, _, _, score, max_score in test_rows(graded, chapters):
        totals[(student, assignment)][0] += score
        totals[(student, assignment)][1] += max_score
    return totals


def write_reports(graded: List[Graded], chapters: Dict[Tuple[str, str], Chapter], out: Path, db_url: str) -> None:
    """grades.csv, grades_by_test.csv, feedback pages and the gradebook, all from the same results."""
    with open(out / "grades_by_test.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student_id", "assignment", "notebook", "grade_id", "score", "max_score"])
        w.writerows([*row[:4], f"{row[4]:g}", f"{row[5]:g}"] for row in test_rows(graded, chapters))
    with open(out / "grades.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student_id", "assignment", "score", "max_score"])
        for (student, assignment), (score, max_score) in sorted(assignment_totals(graded, chapters).items()):
            w.writerow([student, assignment, f"{score:g}", f"{max_score:g}"])
    for g in graded:
        t = g.task
        chapter = chapters.get((t.assignment, t.notebook))
        name = t.notebook or t.assignment
        page = out / "feedback" / t.student / t.assignment / f"{name}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(feedback.render(t.student, t.assignment, name, g.result, secret_lines(chapter) if chapter else [],
                                        chapter.max_score if chapter else 0, g.problem))
    from .gradebook import record

    record(db_url, graded, chapters)


def grade_table(graded: List[Graded], chapters: Dict[Tuple[str, str], Chapter]) -> str:
    """A per-student table of assignment scores, and a summary line."""
    totals = assignment_totals(graded, chapters)
    students = sorted({s for s, _ in totals})
    assignments = sorted({a for _, a in totals})
    width = max([len("student")] + [len(s) for s in students])
    cols = [max(len(a), 9) for a in assignments]
    lines = ["student".ljust(width) + "".join(f"  {a:>{w}}" for a, w in zip(assignments, cols))]
    for student in students:
        cells = [totals.get((student, a)) for a in assignments]
        lines.append(student.ljust(width) + "".join(f"  {f'{c[0]:g} / {c[1]:g}' if c else '-':>{w}}" for c, w in zip(cells, cols)))
    stopped = [g for g in graded if g.status == "crashed or timed out"]
    timed_out = sum(1 for g in stopped if "no answer within" in " ".join(g.stop_reasons) or "ran out of its total time" in " ".join(g.stop_reasons))
    failed = sum(1 for g in graded if g.result and any(t.status == "failed" for t in g.result.tests))
    not_graded = sum(1 for g in graded if g.result is None)
    lines += ["", f"{len(graded)} notebooks: {len(graded) - not_graded} graded, {failed} with failed tests, "
                  f"{timed_out} timed out, {len(stopped) - timed_out} crashed, {not_graded} missing or unreadable"]
    return "\n".join(lines)
