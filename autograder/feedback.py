"""One HTML feedback page per student and notebook: each item, points, verdict and what to fix.

The page never contains test code or test inputs. What the student's code printed, and the
messages of exceptions it raised, are shown, but any line that repeats a line of the hidden
tests or of the solution is blanked first, so a submission cannot smuggle them out that way.
Messages written by the tests themselves are shown as they are.
"""
from __future__ import annotations

import html
from typing import Iterable, List, Optional

from .judge import NotebookResult

HIDDEN = "[line hidden: it repeats the instructor's test or solution code]"

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem;margin-bottom:.2rem} .total{font-size:1.1rem;margin:.2rem 0 1.2rem}
table{border-collapse:collapse;width:100%} th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #ddd;vertical-align:top}
.passed{color:#0a7d32;font-weight:600} .failed,.stopped{color:#b3261e;font-weight:600}
pre{background:#f5f5f7;padding:.6rem;white-space:pre-wrap;word-break:break-word;font-size:.85rem;margin:.3rem 0 0}
.note{background:#fff4e5;border-left:4px solid #f0a020;padding:.5rem .8rem;margin:1rem 0}
"""


def redact(text: str, secrets: Iterable[str]) -> str:
    """Blank every line of `text` that contains one of `secrets` (stripped source lines)."""
    secrets = [s for s in secrets if s]
    if not text or not secrets:
        return text
    return "\n".join(HIDDEN if any(s in line for s in secrets) else line for line in text.split("\n"))


def render(student: str, assignment: str, notebook: str, result: Optional[NotebookResult], secrets: List[str],
           max_score: float, problem: str = "") -> str:
    esc = html.escape
    score = result.score if result else 0
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Feedback: {esc(assignment)} / {esc(notebook)} ({esc(student)})</title><style>{_STYLE}</style></head><body>",
        f"<h1>{esc(assignment)}: {esc(notebook)}.ipynb</h1>",
        f"<p>Student: <b>{esc(student)}</b></p>",
        f"<p class='total'>Score: <b>{score:g} / {max_score:g}</b></p>",
    ]
    if problem:
        parts.append(f"<div class='note'>{esc(problem)}</div>")
    if result and result.answer_errors:
        parts.append("<div class='note'><b>Answer cells that did not run cleanly</b><ul>")
        for grade_id, message in result.answer_errors.items():
            parts.append(f"<li><code>{esc(grade_id)}</code>: {esc(redact(message, secrets))}</li>")
        parts.append("</ul></div>")
    if result and result.answer_output.strip():
        parts.append(f"<p>Printed while your notebook's set-up and answer cells ran:</p><pre>{esc(redact(result.answer_output, secrets))}</pre>")
    if result:
        parts.append("<table><tr><th>Test</th><th>Points</th><th>Result</th></tr>")
        for t in result.tests:
            cell = [f"<span class='{t.status}'>{'passed' if t.status == 'passed' else 'failed'}</span>"]
            if t.message:
                cell.append(f"<pre>{esc(redact(t.message, secrets) if t.student_message else t.message)}</pre>")
            if t.output.strip():
                cell.append(f"<div>Your code printed:</div><pre>{esc(redact(t.output, secrets))}</pre>")
            parts.append(f"<tr><td><code>{esc(t.grade_id)}</code></td><td>{t.points:g} / {t.max_points:g}</td><td>{''.join(cell)}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)
