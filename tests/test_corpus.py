"""Realistic wrong answers fail exactly the tests they should, and valid alternative styles pass.

Each file in tests/corpus/<assignment>/ replaces one answer cell of the solution
(`<grade_id>__<name>.py`) and declares its verdict in its first lines:
`# expect: pass` or `# expect: fail <test ids>` (exactly the tests that must fail).
"""
from pathlib import Path

import pytest

from autograder.chapter import load_chapter
from autograder.judge import judge
from autograder.sandbox import Limits

from conftest import REPO, SOLUTIONS

CORPUS = REPO / "tests" / "corpus"
VARIANTS = sorted(CORPUS.glob("*/*.py"))
_CHAPTERS = {}


def _chapter(assignment):
    if assignment not in _CHAPTERS:
        _CHAPTERS[assignment] = load_chapter(SOLUTIONS / assignment / f"{assignment}.ipynb")
    return _CHAPTERS[assignment]


def _expectation(path: Path):
    for line in path.read_text().splitlines():
        if line.startswith("# expect:"):
            words = line.split(":", 1)[1].split()
            if words == ["pass"]:
                return set()
            assert words and words[0] == "fail" and len(words) > 1, f"{path.name}: malformed expect line"
            return set(words[1:])
    raise AssertionError(f"{path.name} has no '# expect:' line")


def test_every_graded_item_has_bugs_and_valid_styles():
    for assignment_dir in sorted(p for p in SOLUTIONS.iterdir() if p.is_dir() and not p.name.startswith("00_")):
        chapter = _chapter(assignment_dir.name)
        files = list((CORPUS / assignment_dir.name).glob("*.py"))
        for item in chapter.answer_ids:
            if item.startswith("answer_"):
                continue  # concept questions: a number or a choice
            mine = [f for f in files if f.name.split("__")[0] == item]
            kinds = {bool(_expectation(f)) for f in mine}
            assert kinds == {True, False}, f"{assignment_dir.name}/{item}: needs both buggy and valid variants in the corpus"


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_variant_gets_its_verdict(path):
    chapter = _chapter(path.parent.name)
    item = path.stem.split("__")[0]
    assert item in chapter.answer_ids, f"{path.name}: no answer cell {item} in {path.parent.name}"
    answers = dict(chapter.solution_sources)
    answers[item] = path.read_text()
    result = judge(chapter, answers, Limits(cell_timeout=10))
    failed = {t.grade_id for t in result.tests if t.status != "passed"}
    expected = _expectation(path)
    messages = {t.grade_id: t.message for t in result.tests if t.status != "passed"}
    assert failed == expected, f"failed {sorted(failed)}, expected {sorted(expected)}; messages: {messages}"
    for grade_id in failed:
        assert messages[grade_id], f"{grade_id} failed without a message"
