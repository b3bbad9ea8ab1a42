"""The gradebook in a real PostgreSQL server: `python -m autograder grade --db postgresql://...`.

The test starts its own throw-away server (initdb + pg_ctl, listening only on a Unix socket in a
temporary folder). Without the PostgreSQL binaries it is skipped on a workstation; with the
environment variable CI set it fails instead, so CI cannot pass without running it.
As root, the server runs as the `postgres` user (or `nobody`), because initdb refuses root.
"""
import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import REPO

ASSIGNMENT = "01_scaled_dot_product_attention"
SAMPLE = REPO / "autograder" / "sample_class"
STUDENTS = ("perfect", "blank", "partial", "scale_by_d")


def _pg_bin():
    """The folder holding initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<version>/bin."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl and Path(initdb).parent == Path(pg_ctl).parent:
        return Path(initdb).parent
    candidates = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    candidates = [c for c in candidates if (c / "pg_ctl").exists()]
    candidates.sort(key=lambda c: int(c.parent.name) if c.parent.name.isdigit() else -1)
    return candidates[-1] if candidates else None


def _server_user():
    """(user name, uid, gid) the server runs as: ourselves, or an unprivileged account when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            entry = pwd.getpwnam(name)
            return name, entry.pw_uid, entry.pw_gid
    pytest.fail("running as root and there is neither a `postgres` nor a `nobody` account to run PostgreSQL as")


class Server:
    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.run_as = _server_user()
        # Not under pytest's tmp_path: its parents are private to root and the server user must reach its files.
        # Directly in /tmp where there is one: a Unix socket path must stay under about 100 characters.
        self.dir = Path(tempfile.mkdtemp(prefix="attention-lab-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.data, self.socket_dir, self.log = self.dir / "data", self.dir / "socket", self.dir / "server.log"
        self.socket_dir.mkdir()
        self.superuser = "gradebook_admin"
        if self.run_as:
            for path in (self.dir, self.socket_dir):
                os.chown(path, self.run_as[1], self.run_as[2])

    def _cmd(self, *args, check=True, timeout=120):
        kwargs = {}
        if self.run_as:
            kwargs = {"user": self.run_as[1], "group": self.run_as[2], "extra_groups": []}
        proc = subprocess.run([str(a) for a in args], cwd=str(self.dir), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout, **kwargs)
        if check and proc.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(map(str, args))} failed ({proc.returncode}):\n{proc.stdout}\n{log[-3000:]}")
        return proc

    def start(self) -> None:
        self._cmd(self.bin / "initdb", "-D", self.data, "-U", self.superuser, "--auth=trust", "--no-locale",
                  "-E", "UTF8", "--no-sync")
        options = f"-c listen_addresses='' -c unix_socket_directories={self.socket_dir} -c fsync=off"
        self._cmd(self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._cmd(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)

    def create_database(self, name: str) -> str:
        """A new, empty database; returns its SQLAlchemy URL."""
        import psycopg

        with psycopg.connect(dbname="postgres", user=self.superuser, host=str(self.socket_dir), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://{self.superuser}@/{name}?host={self.socket_dir}"


@pytest.fixture(scope="module")
def postgres():
    bin_dir = _pg_bin()
    if bin_dir is None:
        message = ("PostgreSQL's initdb and pg_ctl are not on PATH nor under /usr/lib/postgresql/*/bin "
                   "(Debian: apt-get install postgresql)")
        if os.environ.get("CI"):
            pytest.fail(message + "; CI is set, so this test must run")
        pytest.skip(message)
    server = Server(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def _class(root: Path, students) -> Path:
    for student in students:
        shutil.copytree(SAMPLE / student / ASSIGNMENT, root / student / ASSIGNMENT)
    return root


def _grade(submissions: Path, out: Path, db=None) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "autograder", "grade", str(submissions), "--out", str(out), "--quiet", "--timeout", "20"]
    if db:
        cmd += ["--db", db]
    return subprocess.Popen(cmd, cwd=str(REPO), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _finish(proc: subprocess.Popen) -> str:
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, f"the grader failed ({proc.returncode}):\n{out[-4000:]}"
    return out


def _gradebook(db_url: str):
    """{student: (assignment score, {test cell: (score, max_score)})} read back with nbgrader's Gradebook API."""
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(db_url) as gb:
        submissions = gb.assignment_submissions(ASSIGNMENT)
        ids = [s.student_id for s in submissions]
        assert len(ids) == len(set(ids)), f"a student has more than one submission: {sorted(ids)}"
        for submission in submissions:
            nb = gb.find_submission_notebook(ASSIGNMENT, ASSIGNMENT, submission.student_id)
            cells = {g.name: (float(g.score), float(g.max_score)) for g in nb.grades}
            scores[submission.student_id] = (float(submission.score), cells)
    return scores


@pytest.fixture(scope="module")
def sqlite_reference(tmp_path_factory):
    """The students graded into the default SQLite gradebook, and the folders of that run."""
    root = tmp_path_factory.mktemp("pg")
    submissions = _class(root / "submissions", STUDENTS)
    out = root / "out"
    _finish(_grade(submissions, out))
    reference = _gradebook(f"sqlite:///{out / 'gradebook.db'}")
    assert set(reference) == set(STUDENTS)
    # Guard against a vacuous comparison: the students did different work and must differ.
    assert len({total for total, _ in reference.values()}) == len(STUDENTS), reference
    assert all(len(cells) > 0 for _, cells in reference.values())
    return reference, submissions, out


def test_grades_in_postgres_equal_the_sqlite_run(postgres, sqlite_reference):
    reference, submissions, out = sqlite_reference
    # The URL as the README writes it: `postgresql://` with no driver named.
    url = postgres.create_database("gradebook")
    # Same submissions and OUT as the SQLite run: only the gradebook it writes to differs.
    _finish(_grade(submissions, out, url))
    assert _gradebook(url) == reference
    # Grading again into the same gradebook updates the rows rather than adding a second set.
    _finish(_grade(submissions, out, url))
    assert _gradebook(url) == reference


def test_two_graders_share_one_gradebook(postgres, sqlite_reference, tmp_path):
    reference, _, _ = sqlite_reference
    url = postgres.create_database("gradebook_shared")
    first = _class(tmp_path / "first", STUDENTS[:2])
    second = _class(tmp_path / "second", STUDENTS[2:])
    # Two graders, e.g. two teaching assistants' machines, writing into the same server at the same time.
    # Equal halves, so both reach the gradebook at about the same moment (a fresh one: neither created it).
    runs = [_grade(first, tmp_path / "out_first", url)]
    runs.append(_grade(second, tmp_path / "out_second", url))
    for proc in runs:
        _finish(proc)
    assert _gradebook(url) == reference
