"""Building the student release in notebooks/ from solutions/ with `nbgrader generate_assignment`."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

from .gradebook import put_venv_on_path
from .submissions import assignments_in

REPO = Path(__file__).resolve().parent.parent
LEAKS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")


class ReleaseError(Exception):
    pass


def _api(root: Path, release_dir: Path, db: Path):
    """nbgrader with the course's own nbgrader_config.py, writing to `release_dir` with a throwaway gradebook."""
    from nbgrader.apps import NbGraderAPI
    from traitlets.config.loader import PyFileConfigLoader

    put_venv_on_path()
    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.CourseDirectory.root = str(root)
    config.CourseDirectory.release_directory = str(release_dir)
    config.CourseDirectory.db_url = f"sqlite:///{db}"
    return NbGraderAPI(config=config)


def release(assignments: Optional[Sequence[str]] = None, *, root: Path = REPO, out: Optional[Path] = None) -> List[Path]:
    """Generate the student notebooks of `assignments` (default: all) into `out` (default: notebooks/)."""
    out = out or root / "notebooks"
    names = list(assignments or assignments_in(root / "solutions"))
    with tempfile.TemporaryDirectory() as tmp:
        api = _api(root, out, Path(tmp) / "gradebook.db")
        for name in names:
            result = api.generate_assignment(name, force=True)
            if not result["success"]:
                raise ReleaseError(f"nbgrader could not release {name}:\n{result.get('error') or result.get('log')}")
    written = sorted(p for name in names for p in (out / name).glob("*.ipynb"))
    for path in written:
        text = path.read_text()
        leaked = [m for m in LEAKS if m in text]
        if leaked:
            raise ReleaseError(f"{path} still contains {', '.join(leaked)}: check the markers in solutions/")
    return written


def drift(root: Path = REPO) -> List[str]:
    """Files under notebooks/ that differ from a fresh release of solutions/ (empty: in sync)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "release"
        release(root=root, out=fresh)
        committed = root / "notebooks"
        names = {p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()}
        names |= {p.relative_to(committed) for p in committed.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts}
        return sorted(str(n) for n in names
                      if not (fresh / n).is_file() or not (committed / n).is_file()
                      or (fresh / n).read_bytes() != (committed / n).read_bytes())
