"""Finding submissions: nbgrader's `<student_id>/<assignment_id>/<notebook>.ipynb` layout, or a folder
of LMS zip downloads (one zip per student, as `nbgrader zip_collect` takes them)."""
from __future__ import annotations

import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

# Default: the student id is the zip name up to the first underscore ("alice_attempt_2026-11-30.zip" -> "alice").
DEFAULT_ZIP_PATTERN = r"(?P<student_id>[^_]+)"


@dataclass(frozen=True)
class Task:
    student: str
    assignment: str
    notebook: str
    path: Optional[Path]      # None: no such notebook was submitted
    problem: str = ""         # why this submission cannot be graded (gets a zero row)


def _safe_name(name: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._@+-]*", name))


def unpack_zips(folder: Path, notebooks: Dict[str, List[str]], pattern: str = DEFAULT_ZIP_PATTERN) -> Tuple[Path, List[str]]:
    """Copy the notebooks out of every zip in `folder` into a fresh nbgrader layout; returns (that folder, problems)."""
    staging = Path(tempfile.mkdtemp(prefix="autograder-zips-"))
    problems: List[str] = []
    by_stem = {stem: assignment for assignment, stems in notebooks.items() for stem in stems}
    for archive in sorted(folder.glob("*.zip")):
        match = re.match(pattern, archive.stem)
        student = match.group("student_id") if match else ""
        if not _safe_name(student):
            problems.append(f"{archive.name}: cannot tell the student id from the file name (pattern {pattern!r}); skipped")
            continue
        try:
            with zipfile.ZipFile(archive) as zf:
                for info in zf.infolist():
                    stem = Path(info.filename).stem
                    if info.filename.endswith(".ipynb") and stem in by_stem and "__MACOSX" not in info.filename:
                        target = staging / student / by_stem[stem] / f"{stem}.ipynb"
                        target.parent.mkdir(parents=True, exist_ok=True)
                        with zf.open(info) as src, open(target, "wb") as dst:
                            shutil.copyfileobj(src, dst, length=1 << 20)
        except (zipfile.BadZipFile, OSError) as e:
            problems.append(f"{archive.name}: not a readable zip file ({e}); ask the student to upload it again")
    return staging, problems


def find_tasks(root: Path, notebooks: Dict[str, List[str]]) -> List[Task]:
    """One task per (student, assignment, notebook). `notebooks` maps each known assignment to its notebook stems.

    Every assignment that appears for any student is expected from every student: a missing one is a zero row.
    """
    students = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    seen = sorted({a.name for s in students for a in (root / s).iterdir() if a.is_dir() and not a.name.startswith(".")})
    tasks: List[Task] = []
    for student in students:
        for assignment in seen:
            folder = root / student / assignment
            if assignment not in notebooks:
                if folder.is_dir():
                    tasks.append(Task(student, assignment, "", None,
                                      f"unknown assignment '{assignment}': there is no solutions/{assignment}/; "
                                      "check the folder name"))
                continue
            for stem in notebooks[assignment]:
                path = folder / f"{stem}.ipynb"
                if path.is_symlink() or (path.exists() and not path.resolve().is_relative_to(root.resolve())):
                    tasks.append(Task(student, assignment, stem, None,
                                      f"{student}/{assignment}/{stem}.ipynb is a link, not a file: submit the notebook itself"))
                elif path.is_file():
                    tasks.append(Task(student, assignment, stem, path))
                else:
                    where = "the assignment was not submitted" if not folder.is_dir() else f"{stem}.ipynb is missing"
                    tasks.append(Task(student, assignment, stem, None, f"{where}: expected {student}/{assignment}/{stem}.ipynb"))
    return tasks


def assignments_in(source: Path) -> Dict[str, List[str]]:
    return {
        d.name: sorted(p.stem for p in d.glob("*.ipynb"))
        for d in sorted(source.iterdir())
        if d.is_dir() and any(d.glob("*.ipynb"))
    }
