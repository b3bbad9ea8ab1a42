"""Grading speed: stock `nbgrader autograde` against `python -m autograder grade` on the same class.

    python benchmarks/grading_speed.py [--students 100] [--skip-stock] [--workers N] [--keep]

The class is built from the honest sample submissions of chapter 01 (perfect, blank, partial,
scale_by_d), copied round-robin under N student ids. Stock nbgrader grades it in a scratch course
folder (source/ is a copy of solutions/<assignment>, released there with `nbgrader generate_assignment`,
submissions under submitted/, a fresh SQLite gradebook, every other setting read from the repository's
nbgrader_config.py); it runs one notebook after another. Our grader runs with its defaults
(one worker per core). Timed: the `nbgrader autograde` command, and the whole
`python -m autograder grade` command (start-up, reports and gradebook included).

CPU is user + system time of the command and of every process it waited for (kernels, workers,
sandboxes): unlike wall time it barely moves when other programs load the machine.

Afterwards the score of every student in every test cell must be the same in both gradebooks;
the script lists every difference and exits with status 1 if there is one.

The helpers (make_stock_course, build_class, run_stock, stock_scores, run_ours, our_scores) are
also used by tests/test_stock_nbgrader.py.
"""
from __future__ import annotations

import argparse
import csv
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
VENV_BIN = str(Path(PYTHON).parent)
SAMPLE = REPO / "autograder" / "sample_class"
ASSIGNMENT = "01_scaled_dot_product_attention"
HONEST = ("perfect", "blank", "partial", "scale_by_d")

Scores = Dict[str, Dict[str, float]]  # student -> grade_id -> points

_CONFIG = '''\
"""Scratch course for comparing with stock nbgrader: the repository's settings, this folder's layout."""
import os

c = get_config()  # noqa: F821
_repo_config = {repo_config!r}
exec(compile(open(_repo_config).read(), _repo_config, "exec"), {{"get_config": lambda: c, "__file__": _repo_config}})
here = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.root = here
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(here, "gradebook.db")
'''


def nbgrader_env() -> Dict[str, str]:
    """The environment for stock nbgrader: the venv first on PATH (it runs `alembic` from there)."""
    env = dict(os.environ)
    env["PATH"] = VENV_BIN + os.pathsep + env.get("PATH", "")
    return env


def _cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(cmd: Sequence[str], cwd: Path, what: str) -> Tuple[float, float]:
    """Run `cmd`; returns (wall seconds, CPU seconds of it and every process it waited for)."""
    cpu0, t0 = _cpu_of_children(), time.perf_counter()
    proc = subprocess.run(list(cmd), cwd=str(cwd), env=nbgrader_env(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    wall, cpu = time.perf_counter() - t0, _cpu_of_children() - cpu0
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {proc.returncode}):\n{proc.stdout[-4000:]}")
    return wall, cpu


def make_stock_course(root: Path, assignments: Iterable[str] = (ASSIGNMENT,)) -> Path:
    """A scratch nbgrader course in `root` with `assignments` copied from solutions/ and released."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "nbgrader_config.py").write_text(_CONFIG.format(repo_config=str(REPO / "nbgrader_config.py")))
    for assignment in assignments:
        shutil.copytree(REPO / "solutions" / assignment, root / "source" / assignment,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        _run([PYTHON, "-m", "nbgrader", "generate_assignment", assignment, "--force"], root,
             f"nbgrader generate_assignment {assignment}")
    return root


def build_class(dest: Path, n: int, kinds: Sequence[str] = HONEST, assignment: str = ASSIGNMENT) -> Dict[str, str]:
    """Copy the sample submissions `kinds` round-robin under `n` student ids into `dest`
    (`<student>/<assignment>/<notebook>.ipynb`). Returns student id -> kind."""
    students = {}
    width = len(str(max(n - 1, 0)))
    for i in range(n):
        kind = kinds[i % len(kinds)]
        student = f"{kind}-{i:0{width}d}"
        src = SAMPLE / kind / assignment
        shutil.copytree(src, dest / student / assignment)
        students[student] = kind
    return students


def run_stock(course: Path, assignment: str = ASSIGNMENT) -> Tuple[float, float]:
    """`nbgrader autograde` over everything in course/submitted; returns (wall, CPU) seconds."""
    return _run([PYTHON, "-m", "nbgrader", "autograde", assignment], course, f"nbgrader autograde {assignment}")


def stock_scores(db_url: str, assignment: str = ASSIGNMENT, notebook: Optional[str] = None) -> Scores:
    """Per-student, per-test-cell auto scores in an nbgrader gradebook."""
    from nbgrader.api import Gradebook

    notebook = notebook or assignment
    scores: Scores = {}
    with Gradebook(db_url) as gb:
        for submission in gb.assignment_submissions(assignment):
            nb = gb.find_submission_notebook(notebook, assignment, submission.student_id)
            scores[submission.student_id] = {g.name: float(g.score) for g in nb.grades}
    return scores


def run_ours(submissions: Path, out: Path, workers: Optional[int] = None, extra: Sequence[str] = ()) -> Tuple[float, float]:
    """`python -m autograder grade` from the repository root; returns (wall, CPU) seconds."""
    cmd = [PYTHON, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--quiet", *extra]
    if workers:
        cmd += ["--workers", str(workers)]
    return _run(cmd, REPO, "python -m autograder grade")


def our_scores(out: Path, assignment: str = ASSIGNMENT) -> Scores:
    """Per-student, per-test-cell scores from OUT/grades_by_test.csv."""
    scores: Scores = {}
    with open(out / "grades_by_test.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["assignment"] == assignment:
                scores.setdefault(row["student_id"], {})[row["grade_id"]] = float(row["score"])
    return scores


def differences(stock: Scores, ours: Scores) -> List[str]:
    """Every (student, test cell) whose score differs, and every student or cell only one side has."""
    lines = []
    for student in sorted(set(stock) | set(ours)):
        if student not in stock:
            lines.append(f"{student}: graded by ours only")
            continue
        if student not in ours:
            lines.append(f"{student}: graded by stock nbgrader only")
            continue
        a, b = stock[student], ours[student]
        for cell in sorted(set(a) | set(b)):
            if a.get(cell) != b.get(cell):
                lines.append(f"{student} {cell}: stock nbgrader {a.get(cell, 'missing')}, ours {b.get(cell, 'missing')}")
    return lines


def _totals(scores: Scores) -> Dict[str, float]:
    return {s: sum(cells.values()) for s, cells in scores.items()}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100, help="notebooks in the class (default: 100)")
    parser.add_argument("--skip-stock", action="store_true", help="time our grader only")
    parser.add_argument("--workers", type=int, default=None, help="our grader's workers (default: its own default, all cores)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder and print where it is")
    args = parser.parse_args(argv)
    if args.students < 1:
        parser.error("--students must be at least 1")

    tmp = Path(tempfile.mkdtemp(prefix="grading-speed-"))
    try:
        print(f"{args.students} notebooks of {ASSIGNMENT} ({', '.join(HONEST)} round-robin); "
              f"{os.cpu_count()} CPU cores; OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
        submissions = tmp / "submissions"
        students = build_class(submissions, args.students)

        t_ours, cpu_ours = run_ours(submissions, tmp / "ours", args.workers)
        ours = our_scores(tmp / "ours")
        workers = args.workers or os.cpu_count()
        print(f"{'':44}{'wall':>9}   {'per notebook':>12}   {'CPU':>9}   {'CPU per notebook':>16}")
        print(f"{f'ours:  python -m autograder grade ({workers} workers)':44}{t_ours:8.1f}s   {t_ours / args.students:11.2f}s"
              f"   {cpu_ours:8.1f}s   {cpu_ours / args.students:15.2f}s", flush=True)

        problems: List[str] = []
        if set(ours) != set(students):
            problems.append(f"ours graded {len(ours)} students, expected {len(students)}")
        if not args.skip_stock:
            course = make_stock_course(tmp / "course")
            shutil.copytree(submissions, course / "submitted")
            t_stock, cpu_stock = run_stock(course)
            stock = stock_scores(f"sqlite:///{course / 'gradebook.db'}")
            print(f"{'stock: nbgrader autograde (serial)':44}{t_stock:8.1f}s   {t_stock / args.students:11.2f}s"
                  f"   {cpu_stock:8.1f}s   {cpu_stock / args.students:15.2f}s")
            print(f"ours is {t_stock / t_ours:.1f}x faster in wall time and uses {cpu_stock / cpu_ours:.1f}x less CPU time; "
                  f"load average now {os.getloadavg()[0]:.1f}")
            problems += differences(stock, ours)

        by_kind: Dict[str, set] = {}
        for student, total in _totals(ours).items():
            by_kind.setdefault(students.get(student, "?"), set()).add(total)
        print("our totals by kind: " + ", ".join(f"{k} {sorted(v)}" for k, v in sorted(by_kind.items())))
        if problems:
            print(f"\n{len(problems)} MISMATCH(ES) between the gradebooks:")
            for line in problems:
                print(f"  {line}")
            return 1
        if not args.skip_stock:
            print(f"scores identical for all {len(students)} students in every test cell")
        return 0
    finally:
        if args.keep:
            print(f"scratch folder kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
