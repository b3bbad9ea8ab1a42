"""Shared fixtures: paths of the course and its instructor notebooks."""
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOLUTIONS = REPO / "solutions"
NOTEBOOKS = REPO / "notebooks"


def chapter_paths():
    """Instructor notebooks that have graded tests (00_environment_check has none)."""
    return sorted(p for p in SOLUTIONS.glob("*/*.ipynb") if not p.parent.name.startswith("00_"))


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
