"""Runs a chapter's test cells against one submission, in a process that never runs student code.

The student's `setup` and answer cells run in a sandbox (sandbox.py). Here, each graded name
is bound to a stand-in (`Remote`) that forwards calls and attribute reads to the sandbox and
gets plain data back, so the test cells compute their verdicts with this process's own,
untouched torch. A crash or hang costs only the items that needed the student's code at that
moment: the sandbox is started again for the next test cell.
"""
from __future__ import annotations

import builtins
import contextlib
import dataclasses
import os
import select
import socket
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import codec
from .chapter import Chapter
from .sandbox import Limits
from .scan import not_by_hand
from .zygote import zygote

_EXCEPTIONS: Dict[str, type] = {}


class StudentCodeStopped(BaseException):
    """The student's process died or ran out of time. A BaseException, so `except Exception`
    in a test cell cannot swallow it."""


class GradingEnvironmentError(Exception):
    """The grading machine cannot run the course's own code in a sandbox: stop the run, blame no student."""


class StudentException(Exception):
    """Mixed into exceptions that the student's code raised, so feedback can tell them apart."""

    label = ""
    line = ""


def _student_exception(report: dict) -> BaseException:
    kind = report.get("type", "RuntimeError")
    if kind not in _EXCEPTIONS:
        if kind == "ForbiddenCall":
            from attnlab.checks import ForbiddenCall as base
        else:
            base = getattr(builtins, kind, None)
            base = base if isinstance(base, type) and issubclass(base, Exception) else RuntimeError
        _EXCEPTIONS[kind] = type(kind, (base, StudentException), {"__module__": "student"})
    exc = _EXCEPTIONS[kind](str(report.get("message", ""))[:2000])
    exc.label = str(report.get("where", ""))[:200]
    exc.line = str(report.get("line", ""))[:300]
    exc.student_type = str(report.get("name", kind))[:100]
    return exc


class Remote:
    """Stands in for an object that lives in the sandbox."""

    __slots__ = ("_session", "_id", "_generation", "_label")

    def __init__(self, session: "Session", id: int, label: str):
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_id", id)
        object.__setattr__(self, "_generation", session.generation)
        object.__setattr__(self, "_label", label)

    def _ask(self, op: str, label: str, **fields) -> Any:
        return self._session.request(op, self, label, **fields)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._ask("getattr", f"{self._label}.{name}", name=name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError("test cells cannot assign attributes of the student's objects")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._ask("call", f"{self._label}(...)", args=args, kwargs=kwargs)

    def __iter__(self):
        return iter(self._ask("iter", f"iterating over {self._label}"))

    def __len__(self) -> int:
        value = self._ask("len", f"len({self._label})")
        if type(value) is not int or value < 0:
            raise TypeError(f"len({self._label}) did not return a non-negative int")
        return value

    def __getitem__(self, key: Any) -> Any:
        return self._ask("getitem", f"{self._label}[...]", key=key)

    def __repr__(self) -> str:
        return f"<student object {self._label}>"

    def __bool__(self) -> bool:
        return True


@dataclass
class Session:
    """One submission's sandbox, restarted when it dies, plus the output it printed."""

    chapter: Chapter
    answers: Dict[str, str]
    limits: Limits
    skipped: Dict[str, str] = field(default_factory=dict)   # answer cells left out after they hung or killed the process
    cell_errors: Dict[str, BaseException] = field(default_factory=dict)
    isolation: List[str] = field(default_factory=list)
    generation: int = 0
    deadline: float = 0.0
    _sock: Optional[socket.socket] = None
    _pids: Tuple[int, ...] = ()
    _output: Any = None
    _output_pos: int = 0
    _names: Dict[str, Any] = field(default_factory=dict)
    _dead_reason: str = ""
    hung: set = field(default_factory=set)   # top-level names whose call never finished: not called again
    by_hand: bool = False                    # inside implemented_by_hand(): answers are scanned before they run

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        """Fork the sandbox and run the answer cells; a cell that hangs or kills the process is left out and retried without it."""
        while True:
            runnable = [(g, s) for g, s in self.chapter.answer_cells(self.answers) if g not in self.skipped]
            culprit = self._spawn(runnable)
            if culprit is None:
                return
            self.skipped[culprit] = self._dead_reason or "it stopped the Python process"

    def _spawn(self, runnable: List[Tuple[str, str]]) -> Optional[str]:
        self.close()
        self.generation += 1
        self._names = {}
        if self._output is None:
            self._output = tempfile.TemporaryFile("w+b", prefix="student-output-")
        parent, child = socket.socketpair()
        pid_read, pid_write = os.pipe()
        request = {"limits": dataclasses.asdict(self.limits), "setup": self.chapter.setup_source,
                   "answers": runnable, "names": self.chapter.answer_ids}
        try:
            pid = zygote().spawn(request, [child.fileno(), self._output.fileno(), pid_write])
        finally:
            child.close()
            os.close(pid_write)
        self._sock, self._pids = parent, (pid,)
        inner = self._read_pid(pid_read)
        if inner and inner != pid:
            self._pids = (pid, inner)
        current = None
        try:
            header, _ = self._receive(self.limits.cell_timeout, "starting your notebook")
            self.isolation = [str(x) for x in header.get("done", [])][:10]
            header, _ = self._receive(self.limits.cell_timeout, "running the chapter's setup cell")
            if header.get("error"):
                raise GradingEnvironmentError(
                    f"the sandbox could not run the setup cell of {self.chapter.assignment}: {header['error']}. "
                    "This is a problem of the grading machine (paths, packages, permissions), not of the submission.")
            for grade_id, _ in runnable:
                current = grade_id
                header, _ = self._receive(self.limits.cell_timeout, f"running the cell `{grade_id}`")
                if header.get("error"):
                    self.cell_errors[grade_id] = _student_exception(header["error"])
            current = None
            self._receive(self.limits.cell_timeout, "finishing the answer cells")
        except StudentCodeStopped:
            if current is None:
                raise
            return current
        return None

    def _read_pid(self, fd: int) -> int:
        data = b""
        ready, _, _ = select.select([fd], [], [], 10)
        if ready:
            data = os.read(fd, 64)
        os.close(fd)
        try:
            return int(data.split(b"\n")[0])
        except ValueError:
            return 0

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        for pid in reversed(self._pids):  # the sandbox first, then its parent; the zygote reaps them
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
        self._pids = ()

    def dispose(self) -> None:
        self.close()
        if self._output is not None:
            self._output.close()
            self._output = None

    def take_output(self, limit: int = 20_000) -> str:
        """What the student's code printed since the last call (truncated to `limit` characters)."""
        if self._output is None:
            return ""
        self._output.seek(self._output_pos)
        data = self._output.read()
        self._output_pos += len(data)
        text = data.decode("utf-8", "replace")
        return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters not shown)"

    # -- requests -------------------------------------------------------------------------
    def _receive(self, timeout: float, doing: str) -> Tuple[dict, List[bytes]]:
        remaining = min(timeout, self.deadline - time.monotonic())
        if remaining <= 0:
            self._stop(f"the notebook ran out of its total time of {self.limits.notebook_timeout:g} s while {doing}")
        ready, _, _ = select.select([self._sock], [], [], remaining)
        if not ready:
            limit = "time" if remaining < timeout else f"{timeout:g} s"
            self._stop(f"no answer within {limit} while {doing}: an infinite loop or very slow code?")
        try:
            self._sock.settimeout(max(remaining, 0.1))
            return codec.recv(self._sock)
        except (EOFError, OSError, socket.timeout):
            self._stop(f"your code stopped the Python process while {doing} ({self._exit_description()})")
        except codec.ProtocolError as e:
            self._stop(f"your code sent back something unreadable while {doing} ({e})")

    def _exit_description(self) -> str:
        inner = self._pids[-1] if self._pids else 0
        self.close()
        return "for example os._exit, a crash in native code or running out of memory" if inner else "it exited"

    def _stop(self, reason: str) -> None:
        self._dead_reason = reason
        self.close()
        raise StudentCodeStopped(reason)

    def ensure_running(self) -> None:
        if self._sock is None:
            self.start()

    def request(self, op: str, target: Optional[Remote], label: str, **fields: Any) -> Any:
        if target is not None and target._generation != self.generation:
            raise StudentCodeStopped(f"{label}: this object was lost when your code stopped the Python process earlier")
        root = label.split("(")[0].split(".")[0].split("[")[0]
        if root in self.hung:
            raise StudentCodeStopped(f"{label}: not run again, because `{root}` did not finish earlier in this notebook")
        if self.by_hand and op == "call":
            self._check_by_hand(root)
        self.ensure_running()
        header: Dict[str, Any] = {"op": op, "label": label}
        buffers: List[bytes] = []
        if target is not None:
            header["target"] = target._id
        for key in ("name", "names"):
            if key in fields:
                header[key] = fields.pop(key)
        if fields:
            header["payload"], buffers = codec.encode(fields, self._handle_for)
        codec.send(self._sock, header, buffers)
        try:
            reply, reply_buffers = self._receive(self.limits.cell_timeout, f"running {label}")
        except StudentCodeStopped:
            if self._dead_reason.startswith("no answer within"):
                self.hung.add(root)
            raise
        if "error" in reply:
            raise _student_exception(reply["error"])
        if reply.get("missing"):
            return _MISSING
        name = header.get("name", label) if op == "name" else label  # a graded name's stand-in is labelled by the name
        return codec.decode(reply.get("ok"), reply_buffers, lambda i, kind: self._remote(i, kind, name))

    def _handle_for(self, obj: Any) -> dict:
        if isinstance(obj, Remote) and obj._session is self and obj._generation == self.generation:
            return {"t": "ref", "id": obj._id}
        raise TypeError(f"cannot send {type(obj).__name__} to the student's code")

    def _remote(self, i: int, kind: str, label: str) -> Remote:
        if kind != "handle":
            raise codec.ProtocolError("unexpected reference")
        return Remote(self, i, label)

    def lookup(self, name: str) -> Any:
        """The value the student's code bound to `name`, or _MISSING (also when reading it hangs or
        kills the process: that answer is then left out, and the others stay available)."""
        if name in self.skipped:
            return _MISSING
        if name not in self._names:
            try:
                self._names[name] = self.request("name", None, f"reading the value of `{name}`", name=name)
            except StudentCodeStopped as e:
                self.skipped[name] = str(e)
                return _MISSING
        return self._names[name]

    @contextlib.contextmanager
    def forbid(self, names: Sequence[str]):
        """Inside: the library routines `names` raise ForbiddenCall in the sandbox, and a graded item
        whose answer cell names them (or ways of reaching them indirectly) is refused before it runs."""
        self.request("forbid", None, "forbid", names=list(names))
        self.by_hand = True
        try:
            yield
        finally:
            self.by_hand = False
            if self._sock is not None:
                with contextlib.suppress(StudentCodeStopped):
                    self.request("forbid", None, "forbid", names=[])

    def _check_by_hand(self, item: str) -> None:
        """Scan `item`'s answer cell and those of the graded items it names (it may call them)."""
        from attnlab.checks import ForbiddenCall

        todo, seen = [item], set()
        while todo:
            name = todo.pop()
            if name in seen or name not in self.answers:
                continue
            seen.add(name)
            source = self.answers[name]
            found = not_by_hand(source)
            if found:
                raise ForbiddenCall(
                    f"the answer cell `{name}` uses {', '.join(f'`{n}`' for n in found)}. This exercise must be written "
                    "by hand with tensor operations; built-in attention routines and ways of reaching code indirectly "
                    "are not accepted, so this item gets no credit.")
            todo += [other for other in self.answers if other != name and other in source]


class _Missing:
    pass


_MISSING = _Missing()


# ---------------------------------------------------------------------------------------------
# Running the test cells

@dataclass
class TestResult:
    grade_id: str
    max_points: float
    points: float
    status: str            # passed | failed | stopped (the student's process died or hung)
    message: str = ""
    output: str = ""       # what the student's code printed while this test ran
    student_message: bool = False  # the message quotes the student's own exception (shown only after redaction)


@dataclass
class NotebookResult:
    tests: List[TestResult]
    answer_errors: Dict[str, str]       # answer cell -> what went wrong when it ran
    answer_output: str                  # what the answer cells printed
    isolation: List[str]

    @property
    def score(self) -> float:
        return sum(t.points for t in self.tests)


def _describe_failure(e: BaseException, chapter: Chapter) -> Tuple[str, str]:
    if isinstance(e, StudentCodeStopped):
        return "stopped", str(e)
    if isinstance(e, StudentException):
        where = f" (in {e.line})" if e.line else ""
        if e.student_type == "ForbiddenCall":
            return "failed", f"Not accepted: {e}"
        return "failed", f"Your code raised {e.student_type}: {e}{where}".strip()
    if isinstance(e, NameError) and getattr(e, "name", None) in chapter.answer_ids:
        return "failed", (f"`{e.name}` is not defined: its answer cell is missing, still raises "
                          "NotImplementedError, or failed when it ran (see above).")
    if type(e).__name__ == "ForbiddenCall":
        return "failed", f"Not accepted: {e}"
    if isinstance(e, AssertionError):
        return "failed", str(e) or "A check failed (no message)."
    return "failed", f"{type(e).__name__}: {e}"


def _short_error(e: BaseException) -> str:
    if isinstance(e, StudentException):
        return f"{e.student_type}: {e}" + (f" ({e.line})" if e.line else "")
    return f"{type(e).__name__}: {e}"


def judge(chapter: Chapter, answers: Dict[str, str], limits: Limits) -> NotebookResult:
    """Grade one submission: the student's answers run in a sandbox, the test cells run here."""
    import io

    import attnlab.checks

    session = Session(chapter, answers, limits, deadline=time.monotonic() + limits.notebook_timeout)
    results: List[TestResult] = []
    sink = io.StringIO()
    ns: Dict[str, Any] = {"__name__": "__main__"}
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        exec(compile(chapter.setup_source, "<setup>", "exec"), ns)
    attnlab.checks.remote_forbid = session.forbid
    answer_output = ""
    try:
        for test in chapter.tests:
            status, message, quoted = "passed", "", False
            try:
                session.ensure_running()
                if not answer_output:
                    answer_output = session.take_output()
                for name in chapter.answer_ids:
                    value = session.lookup(name)
                    if value is _MISSING:
                        ns.pop(name, None)
                    else:
                        ns[name] = value
                session.ensure_running()
                with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                    exec(compile(test.source, f"<{test.grade_id}>", "exec"), ns)
            except BaseException as e:  # every failure of a test cell is that cell's verdict
                if isinstance(e, (KeyboardInterrupt, GradingEnvironmentError)):
                    raise
                status, message = _describe_failure(e, chapter)
                quoted = isinstance(e, StudentException)
            points = test.points if status == "passed" else 0.0
            results.append(TestResult(test.grade_id, test.points, points, status, message, session.take_output(), quoted))
    finally:
        attnlab.checks.remote_forbid = None
        session.dispose()
    errors = {g: _short_error(e) for g, e in session.cell_errors.items()}
    errors.update({g: f"left out: {why}" for g, why in session.skipped.items()})
    return NotebookResult(results, errors, answer_output, session.isolation)
