"""Rebuild the sample class from the chapter 01 release: `python autograder/sample_class/build.py`.

Each student starts from the released notebook and answers some cells; the expected score of each
student is asserted in tests/test_sample_class.py. Run this again whenever chapter 01 changes.
"""
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
ASSIGNMENT = "01_scaled_dot_product_attention"
RELEASE = HERE.parent.parent / "notebooks" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
SOURCE = HERE.parent.parent / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"

CORRECT_SDPA = '''def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
'''
CORRECT_SELF_ATTENTION = '''def self_attention(x, w_q, w_k, w_v):
    return scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v)
'''
QUESTIONS = {
    "answer_score_bytes": "answer_score_bytes = 4096 * 4096 * 4",
    "answer_unscaled_variance": "answer_unscaled_variance = 512",
    "answer_shared_projection": 'answer_shared_projection = "b"',
    "answer_permutation": 'answer_permutation = "b"',
}

STUDENTS = {
    # every answer right
    "perfect": {"scaled_dot_product_attention": CORRECT_SDPA, "self_attention": CORRECT_SELF_ATTENTION, **QUESTIONS},
    # handed in the untouched release
    "blank": {},
    # attention done, self_attention not started, one question wrong and one left out
    "partial": {
        "scaled_dot_product_attention": CORRECT_SDPA,
        "answer_score_bytes": "answer_score_bytes = 4096 * 4096",
        "answer_unscaled_variance": "answer_unscaled_variance = 512",
        "answer_shared_projection": 'answer_shared_projection = "b"',
    },
    # the classic bug: divides by d_k instead of sqrt(d_k)
    "scale_by_d": {
        "scaled_dot_product_attention": CORRECT_SDPA.replace("math.sqrt(query.shape[-1])", "query.shape[-1]"),
        "self_attention": CORRECT_SELF_ATTENTION, **QUESTIONS,
    },
    # one answer cell kills the Python process when it runs
    "kernel_dies": {
        "scaled_dot_product_attention": CORRECT_SDPA, "self_attention": CORRECT_SELF_ATTENTION, **QUESTIONS,
        "answer_permutation": 'import os\nos._exit(1)\nanswer_permutation = "b"',
    },
    # attention never returns
    "infinite_loop": {
        "scaled_dot_product_attention": "def scaled_dot_product_attention(query, key, value, mask=None):\n    while True:\n        pass\n",
        "self_attention": CORRECT_SELF_ATTENTION, **QUESTIONS,
    },
}


def main() -> None:
    for student, answers in STUDENTS.items():
        nb = nbformat.read(str(RELEASE), as_version=4)
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id in answers:
                cell.source = answers[grade_id]
        out = HERE / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(out))
    broken = HERE / "unreadable" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text('{"cells": [ this upload was cut off')


if __name__ == "__main__":
    main()
