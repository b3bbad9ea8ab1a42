"""The grading contract every chapter follows (docs/writing-a-chapter.md): the grader and the
instructors' tooling rely on it."""
import ast

import nbformat
import pytest

from autograder.chapter import load_chapter

from conftest import REPO, SOLUTIONS, chapter_paths

INSTALL_CELL = (REPO / "autograder" / "templates" / "install_cell.py").read_text().strip()
ALL_SOURCES = sorted(SOLUTIONS.glob("*/*.ipynb"))


def _cells(path):
    return nbformat.read(str(path), as_version=4).cells


def _meta(cell):
    return cell.metadata.get("nbgrader", {})


@pytest.mark.parametrize("path", ALL_SOURCES, ids=lambda p: p.parent.name)
def test_notebook_is_named_after_its_assignment_and_opens_with_install_then_setup(path):
    assert path.stem == path.parent.name
    code = [c for c in _cells(path) if c.cell_type == "code"]
    assert _meta(code[0]).get("grade_id") == "install" and code[0].source.strip() == INSTALL_CELL, \
        "the first code cell must be autograder/templates/install_cell.py, verbatim"
    if path in chapter_paths():
        assert _meta(code[1]).get("grade_id") == "setup"


@pytest.mark.parametrize("path", ALL_SOURCES, ids=lambda p: p.parent.name)
def test_every_cell_but_the_answers_is_read_only(path):
    for cell in _cells(path):
        meta = _meta(cell)
        if not meta.get("solution"):
            assert meta.get("locked"), f"cell {cell.get('id')} ({cell.source[:40]!r}) must be read-only"


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.parent.name)
def test_each_answer_cell_defines_exactly_its_grade_id(path):
    chapter = load_chapter(path)
    for grade_id, source in chapter.solution_sources.items():
        tree = ast.parse(source)
        defined = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
        defined += [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]
        assert defined == [grade_id], f"answer cell {grade_id} defines {defined}"
        assert not [n for n in tree.body if isinstance(n, ast.Expr) and not isinstance(n.value, ast.Constant)], \
            f"answer cell {grade_id} does top-level work"


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.parent.name)
def test_each_test_cell_has_points_and_ends_with_a_statement(path):
    chapter = load_chapter(path)
    ids = [t.grade_id for t in chapter.tests]
    assert len(ids) == len(set(ids)) and all(i.startswith("test_") for i in ids)
    for test in chapter.tests:
        assert test.points > 0, test.grade_id
        last = ast.parse(test.source).body[-1]
        # A bare expression as the last line gives full credit under nbgrader whatever its value.
        assert not isinstance(last, ast.Expr) or isinstance(last.value, ast.Call), f"{test.grade_id} ends with a bare expression"


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.parent.name)
def test_test_cells_do_not_patch_libraries(path):
    """mock.patch in a test cell would patch the grader's process, not the student's: use implemented_by_hand()."""
    for test in load_chapter(path).tests:
        assert "mock.patch" not in test.source and "unittest.mock" not in test.source, test.grade_id


@pytest.mark.parametrize("path", chapter_paths(), ids=lambda p: p.parent.name)
def test_header_states_difficulty_runtime_prerequisites_and_launch_links(path):
    header = _cells(path)[0].source
    for needed in ("Difficulty", "Runtime", "Prerequisites", "mybinder.org", "modelscope.cn", "colab.research.google.com"):
        assert needed.lower() in header.lower(), f"header lacks {needed}"
    assert f"notebooks/{path.parent.name}/{path.name}" in header
