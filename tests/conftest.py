"""Shared fixtures: paths of the course and its instructor notebooks."""
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent
SOLUTIONS = REPO / "solutions"
NOTEBOOKS = REPO / "notebooks"


def load_script(path: Path) -> ModuleType:
    """A fresh module from a script outside any package (a benchmark, the sample-class builder)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chapter_paths():
    """Instructor notebooks that have graded tests (00_environment_check has none)."""
    return sorted(p for p in SOLUTIONS.glob("*/*.ipynb") if not p.parent.name.startswith("00_"))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
