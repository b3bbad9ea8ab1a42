"""Every known trick against notebook graders, graded in one class run of chapter 01.

Each attack in tests/attacks/catalog.py is graded next to the same submission without its trick,
and must never score more, test by test. The honest students in the same run must get exactly
their usual grade, whatever the attackers did to their own processes, the files or the network.
"""
import contextlib
import csv
import faulthandler
import hashlib
import html
import json
import math
import os
import re
import select
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import pytest
import torch

from attacks import catalog
from attacks.catalog import ASSIGNMENT, ATTACKS, HONEST, Context
from autograder.grade import grade_class
from autograder.sandbox import Limits
from conftest import REPO

SOLUTION = REPO / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
LIMITS = Limits(cell_timeout=2.0, notebook_timeout=30.0, memory_bytes=2**30)   # floats, as the command line passes them (cache keys use their repr)
ISOLATION = {"no network", "own process tree", "course files hidden", "read-only files", "no privileges"}
PTH = Path(__import__("sysconfig").get_paths()["purelib"]) / "zz_attack_canary.pth"


def _hashes(root: Path):
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def _hidden_lines():
    """Every line of the hidden test blocks of the instructor notebook (8 characters or more)."""
    nb = nbformat.read(str(SOLUTION), as_version=4)
    lines = set()
    for cell in nb.cells:
        for block in re.findall(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", cell.source, re.S):
            lines |= {line.strip() for line in block.splitlines() if len(line.strip()) >= 8}
    assert len(lines) > 20
    return sorted(lines)


class Listener:
    """TCP, UDP and abstract unix socket servers on one port; records everything they receive."""

    def __init__(self):
        self.tcp = socket.socket()
        self.tcp.bind(("0.0.0.0", 0))
        self.tcp.listen(16)
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("0.0.0.0", self.port))
        self.unix = socket.socket(socket.AF_UNIX)
        self.unix.bind(f"\0attack-{self.port}")
        self.unix.listen(16)
        self.received = []
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        conns = []
        while not self._stop:
            ready, _, _ = select.select([self.tcp, self.udp, self.unix] + conns, [], [], 0.1)
            for s in ready:
                if s in (self.tcp, self.unix):
                    conn, _ = s.accept()
                    conns.append(conn)
                    self.received.append(("connect", s.family))
                elif s is self.udp:
                    self.received.append(("udp", s.recv(65536)))
                else:
                    data = s.recv(65536)
                    if data:
                        self.received.append(("data", data))
                    else:
                        conns.remove(s)
                        s.close()

    def close(self):
        self._stop = True
        self._thread.join(2)
        for s in (self.tcp, self.udp, self.unix):
            s.close()


def _host_ip() -> str:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def _read_csv(path: Path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _scores_by_test(out: Path):
    return {(r["student_id"], r["grade_id"]): float(r["score"]) for r in _read_csv(out / "grades_by_test.csv")}


def _totals(out: Path):
    return {r["student_id"]: (float(r["score"]), float(r["max_score"])) for r in _read_csv(out / "grades.csv")}


def _page(out: Path, student: str) -> Path:
    return out / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"


def build_class(subs: Path, ctx: Context):
    """Write every honest student, every attack and each distinct submission without its trick.
    Returns {attack name: (attacker id, baseline id)}."""
    release = catalog.release_notebook(REPO)
    by_bytes = {}
    for student, answers in HONEST.items():
        nb = nbformat.from_dict(json.loads(json.dumps(release)))
        catalog.set_answers(nb, answers)
        catalog.write_submission(nb, subs, student)
        by_bytes[nbformat.writes(nb)] = student
    pairs = {}
    for attack in ATTACKS:
        fresh = lambda: nbformat.from_dict(json.loads(json.dumps(release)))  # noqa: E731
        with_trick = attack.build(fresh(), True, ctx)
        without = attack.build(fresh(), False, ctx)
        text = nbformat.writes(without)
        assert attack.link_to or nbformat.writes(with_trick) != text, f"{attack.name}: the trick changes nothing"
        if text not in by_bytes:
            by_bytes[text] = f"baseline_{hashlib.sha256(text.encode()).hexdigest()[:8]}"
            catalog.write_submission(without, subs, by_bytes[text])
        attacker = f"x_{attack.name}"
        if attack.link_to:
            link = subs / attacker / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
            link.parent.mkdir(parents=True)
            link.symlink_to(attack.link_to(ctx))
        else:
            catalog.write_submission(with_trick, subs, attacker)
        pairs[attack.name] = (attacker, by_bytes[text])
    return pairs


@pytest.fixture(scope="module")
def class_run():
    base = Path(tempfile.mkdtemp(prefix="attacks-", dir="/var/tmp"))   # outside /tmp, which the sandbox replaces anyway
    subs, out, canary = base / "submissions", base / "out", base / "canary"
    repo_canary = Path(tempfile.mkdtemp(prefix="attack-canary-", dir=REPO / "build" if (REPO / "build").is_dir() else REPO))
    for folder in (canary, repo_canary):
        folder.mkdir(exist_ok=True)
        for i in range(3):
            (folder / f"canary{i}.py").write_text(f"canary = {i}\n")
    listener = Listener()
    ctx = Context(repo=REPO, subs=subs, out=out, canary=canary, repo_canary=repo_canary, peer="perfect", port=listener.port,
                  host_ip=_host_ip())
    # The listener must work from here, or "received nothing" would prove nothing.
    with socket.create_connection(("127.0.0.1", listener.port)) as probe:
        probe.sendall(b"probe")
    deadline = time.time() + 5
    while ("data", b"probe") not in listener.received and time.time() < deadline:
        time.sleep(0.05)
    assert ("data", b"probe") in listener.received, "the test's own listener does not work"
    listener.received.clear()

    pairs = build_class(subs, ctx)
    before = {"subs": _hashes(subs), "canary": _hashes(canary), "repo_canary": _hashes(repo_canary), "pth": PTH.exists()}
    start = time.monotonic()
    # pytest's faulthandler would be inherited by the forked sandboxes and print a dump for each segfault attack.
    dumps = faulthandler.is_enabled()
    faulthandler.disable()
    try:
        grade_class(subs, out, limits=LIMITS, progress=False, workers=2)
    finally:
        if dumps:
            faulthandler.enable(file=sys.__stderr__)
        time.sleep(0.3)
        listener.close()
    if os.environ.get("ATTACKS_REPORT"):   # a table of verdicts, for people reviewing the engine
        totals = _totals(out)
        with open(os.environ["ATTACKS_REPORT"], "w") as f:
            json.dump({name: {"attack": totals[a][0], "without_trick": totals[b][0], "baseline": b}
                       for name, (a, b) in pairs.items()}, f, indent=1)
    run = {"base": base, "subs": subs, "out": out, "canary": canary, "repo_canary": repo_canary, "pairs": pairs, "before": before,
           "received": list(listener.received), "seconds": time.monotonic() - start}
    yield run
    shutil.rmtree(base, ignore_errors=True)
    shutil.rmtree(repo_canary, ignore_errors=True)


# -- verdicts --------------------------------------------------------------------------------------
def test_honest_students_get_their_grade_next_to_the_attackers(class_run):
    totals = _totals(class_run["out"])
    expected_students = set(HONEST) | {a for a, _ in class_run["pairs"].values()} | {b for _, b in class_run["pairs"].values()}
    assert set(totals) == expected_students, "grades.csv must have one row per submitted student"
    assert totals["perfect"] == (16.0, 16.0)
    assert totals["blank"] == (0.0, 16.0)
    assert all(m == 16.0 for _, m in totals.values())


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_trick_earns_nothing(class_run, attack):
    attacker, baseline = class_run["pairs"][attack.name]
    scores = _scores_by_test(class_run["out"])
    tests = sorted({g for s, g in scores if s == attacker})
    assert len(tests) == 12
    base_total = sum(scores[(baseline, g)] for g in tests)
    assert base_total < 16, f"{attack.name}: the submission without the trick ({baseline}) already has full marks"
    gained = {g: (scores[(attacker, g)], scores[(baseline, g)]) for g in tests if scores[(attacker, g)] > scores[(baseline, g)]}
    total = sum(scores[(attacker, g)] for g in tests)
    assert not gained, (f"{attack.name} ({attack.description}) got through: {total:g} points vs {base_total:g} without "
                        f"the trick; gained on {gained} (attacker {attacker}, baseline {baseline})")


def test_every_notebook_ran_isolated(class_run):
    for path in sorted((class_run["out"] / ".results").rglob("*.json")):
        data = json.loads(path.read_text())
        result = data["result"]
        if result is None:  # refused before anything ran: only a linked notebook may be
            assert "is a link, not a file" in data["problem"], path
            continue
        assert ISOLATION <= set(result["isolation"]), f"{path.parent.parent.name}: isolation {result['isolation']}"


# -- what the attacks must not reach ---------------------------------------------------------------
def _decoded_exfil(text: str):
    for match in re.finditer(r"EXFIL (\S+) ([0-9a-f]+)", text):
        try:
            yield match.group(1), bytes.fromhex(match.group(2)).decode("utf-8", "replace").replace("\\n", "\n")
        except ValueError:
            continue


def test_feedback_never_shows_a_hidden_test_line(class_run):
    hidden = _hidden_lines()
    leaks = []
    pages = sorted((class_run["out"] / "feedback").rglob("*.html"))
    assert len(pages) == len(_totals(class_run["out"]))
    for page in pages:
        text = html.unescape(page.read_text())
        student = page.parent.parent.name
        for line in hidden:
            if line in text or line[::-1] in text:
                leaks.append(f"{student}: page shows {line!r}")
        for label, decoded in _decoded_exfil(text):
            found = [line for line in hidden if line in decoded]
            if found:
                leaks.append(f"{student}: hex-encoded output ({label}) holds {len(found)} hidden test lines, e.g. {found[0]!r}")
    assert not leaks, "hidden tests reached the feedback pages:\n" + "\n".join(leaks)


def test_feedback_pages_stay_small_and_cannot_be_injected(class_run):
    for page in sorted((class_run["out"] / "feedback").rglob("*.html")):
        text = page.read_text()
        assert page.stat().st_size < 300_000, f"{page}: {page.stat().st_size} bytes"
        assert "<script" not in text.lower(), f"{page}: student output became HTML"
        assert text.count("class='total'") == 1, f"{page}: the score line appears more than once"
    huge = _page(class_run["out"], "x_huge_output").read_text()
    assert "more characters not shown" in huge, "the huge output should be cut, not dropped silently"
    injected = _page(class_run["out"], "x_html_injection").read_text()
    assert "&lt;script&gt;" in injected, "the injection attempt should show, escaped"


def test_submissions_and_outputs_are_untouched(class_run):
    assert _hashes(class_run["subs"]) == class_run["before"]["subs"], "a submission changed during grading"
    assert _hashes(class_run["canary"]) == class_run["before"]["canary"], "a canary file changed during grading"
    out = class_run["out"]
    assert "0 / 16" not in _page(out, "perfect").read_text() and "16 / 16" in _page(out, "perfect").read_text()
    results = sorted((out / ".results").rglob("*.json"))
    assert len(results) == len(_totals(out)), "one cached result per notebook"


def test_repository_files_are_untouched(class_run):
    """Canary files inside the repository keep their bytes, and no repository file could be rewritten
    (the attack rewrites them with their own bytes and reports each success; other people may be
    editing the real files right now, so their hashes prove nothing here)."""
    assert _hashes(class_run["repo_canary"]) == class_run["before"]["repo_canary"], "a canary file in the repository changed"
    page = html.unescape(_page(class_run["out"], class_run["pairs"]["modify_repo_files"][0]).read_text())
    # The five named targets; the canary folder is hidden from the sandbox altogether (its hashes are checked above).
    assert page.count("cannot write") >= 5, "the attack did not try every file"
    assert "rewrote " not in page and "changed " not in page and "wrote a .pth file" not in page, "student code wrote into the repository"
    created = PTH.exists() and not class_run["before"]["pth"]
    if created:
        PTH.unlink()
    assert not created, f"student code added {PTH} to the virtual environment"


def test_no_network_reached_the_listener(class_run):
    assert class_run["received"] == [], f"student code reached the test's listener: {class_run['received'][:5]}"


def test_no_student_process_survives(class_run):
    survivors = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == "atkforkbomb":
                survivors.append(comm.parent.name)
        except OSError:
            continue
    assert not survivors, f"fork bomb processes still running: {survivors}"


def test_forbidden_shortcut_answers_would_be_correct_without_the_guard():
    """Otherwise the forbidden-routine attacks above would fail for the wrong reason."""
    torch.manual_seed(0)
    q, k, v = torch.randn(2, 3, 4, 5, dtype=torch.float64), torch.randn(2, 3, 6, 5, dtype=torch.float64), torch.randn(2, 3, 6, 7, dtype=torch.float64)
    mask = torch.zeros(6, dtype=torch.float64)
    mask[-2:] = -math.inf
    expected = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(5) + mask, dim=-1) @ v
    sources = {name: catalog.shortcut_source(*spec) for name, spec in {**catalog.SHORTCUTS, **catalog.SHORTCUT_BYPASSES}.items()}
    sources["multihead_attention"] = catalog.MHA_SDPA
    for name, source in sources.items():
        ns = {"math": math, "torch": torch}
        exec(source, ns)
        out, weights = ns["scaled_dot_product_attention"](q, k, v, mask)
        torch.testing.assert_close(out, expected, msg=f"{name}: wrong output")
        torch.testing.assert_close(weights.sum(-1), torch.ones(2, 3, 4, dtype=torch.float64), msg=name)


# -- runs: again, and after an interruption -------------------------------------------------------------
def test_second_run_gives_identical_csvs(class_run):
    out = class_run["out"]
    first = {name: (out / name).read_bytes() for name in ("grades.csv", "grades_by_test.csv")}
    grade_class(class_run["subs"], out, limits=LIMITS, progress=False, workers=2)
    for name, data in first.items():
        assert (out / name).read_bytes() == data, f"{name} changed on a second run"


SMALL_CLASS = ("blank", "partial", "perfect", "wrong")


def test_interrupted_run_resumes_to_the_same_csvs(class_run, tmp_path):
    """SIGKILL a class run (coordinator and workers) after its first result is saved; a new run
    finishes the job without regrading what was saved, and writes the same CSV rows as the
    uninterrupted class run."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    for student in SMALL_CLASS:
        shutil.copytree(class_run["subs"] / student, subs / student)
    pid = os.fork()   # a forked grader starts in a second instead of re-importing torch
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.setsid()
            grade_class(subs, out, limits=LIMITS, progress=False, workers=1)
            code = 0
        finally:
            os._exit(code)
    deadline = time.time() + 120
    try:
        while time.time() < deadline and not list((out / ".results").rglob("*.json")):
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                pytest.fail("the grader ended before it could be interrupted")
            time.sleep(0.02)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    saved = {p: p.stat().st_mtime_ns for p in (out / ".results").rglob("*.json")}
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert 1 <= len(saved) < len(SMALL_CLASS), f"{len(saved)} results saved before the kill"
    assert not (out / "grades.csv").exists()

    grade_class(subs, out, limits=LIMITS, progress=False, workers=2)
    assert all(p.stat().st_mtime_ns == m for p, m in saved.items()), "results saved before the interruption were graded again"
    for name in ("grades.csv", "grades_by_test.csv"):
        clean = [r for r in _read_csv(class_run["out"] / name) if r["student_id"] in SMALL_CLASS]
        assert _read_csv(out / name) == clean, f"{name} after an interruption differs from the clean run"


@pytest.mark.parametrize("attack", [a for a in ATTACKS if a.shows], ids=[a.name for a in ATTACKS if a.shows])
def test_trick_was_tried(class_run, attack):
    """The attacker's own output proves the trick ran, so its verdict above is not an accident."""
    text = html.unescape(_page(class_run["out"], class_run["pairs"][attack.name][0]).read_text())
    assert attack.shows in text, f"{attack.name}: its trick did not run as written (no {attack.shows!r} in its feedback)"
