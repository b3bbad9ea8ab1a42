"""Command line: `python -m autograder {release,check-release,grade}`."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import List, Optional

from .sandbox import Limits


def _size(text: str) -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]i?B?)?\s*", text, re.I)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (use e.g. 2GiB or 512MiB)")
    unit = (m.group(2) or "").upper()[:1]
    return int(float(m.group(1)) * {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[unit])


def _release(args) -> int:
    from .release import release

    for path in release(args.assignment or None):
        print(f"wrote {path}")
    return 0


def _check_release(args) -> int:
    from .release import drift

    stale = drift()
    for name in stale:
        print(f"notebooks/{name} differs from a fresh release of solutions/")
    if stale:
        print(f"{len(stale)} file(s) out of date: run `make release` and commit notebooks/")
    return 1 if stale else 0


def _grade(args) -> int:
    from .grade import grade_class, grade_table, load_chapters
    from .judge import GradingEnvironmentError

    if not args.submissions.is_dir():
        print(f"error: {args.submissions} is not a folder of submissions", file=sys.stderr)
        return 2
    limits = Limits(cell_timeout=args.timeout, notebook_timeout=args.notebook_timeout, memory_bytes=args.memory)
    try:
        graded = grade_class(args.submissions, args.out, source=args.source, db_url=args.db, workers=args.workers,
                             limits=limits, zip_pattern=args.zip_pattern, progress=not args.quiet)
    except GradingEnvironmentError as e:
        print(f"error: {e}\nNothing was scored; notebooks graded so far are kept and the next run resumes.", file=sys.stderr)
        return 3
    print(grade_table(graded, load_chapters(args.source.resolve())))
    print(f"wrote {args.out / 'grades.csv'}, {args.out / 'grades_by_test.csv'} and feedback pages under {args.out / 'feedback'}")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("release", help="build the student notebooks in notebooks/ from solutions/")
    p.add_argument("assignment", nargs="*", help="assignment ids (default: all)")
    p.set_defaults(run=_release)

    p = sub.add_parser("check-release", help="fail if notebooks/ differs from a fresh release of solutions/")
    p.set_defaults(run=_check_release)

    p = sub.add_parser("grade", help="grade a folder of submissions")
    p.add_argument("submissions", type=Path, help="<student_id>/<assignment_id>/<notebook>.ipynb, or a folder of LMS zip files")
    p.add_argument("--out", type=Path, required=True, help="where grades.csv, grades_by_test.csv, feedback/ and the gradebook go")
    p.add_argument("--db", help="SQLAlchemy URL of the gradebook (default: sqlite:///OUT/gradebook.db)")
    p.add_argument("--source", type=Path, default=Path("solutions"), help="instructor notebooks (default: solutions)")
    p.add_argument("--workers", type=int, default=None, help="parallel workers (default: all cores)")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds for one answer cell or one call from a test (default: 5)")
    p.add_argument("--notebook-timeout", type=float, default=120.0, help="seconds for one whole notebook (default: 120)")
    p.add_argument("--memory", type=_size, default=2 * 2**30, help="memory the student's code may use (default: 2GiB)")
    p.add_argument("--zip-pattern", default=None, help="regex with a (?P<student_id>...) group, applied to zip file names")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_grade)

    args = parser.parse_args(argv)
    return args.run(args)
