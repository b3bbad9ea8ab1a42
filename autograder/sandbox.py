"""The sandboxed process that runs one student's answer cells and answers the judge's requests.

It is forked from a grading worker that has torch already imported, so starting one costs a
fork, not an interpreter start. Before any student code runs it (where the OS allows):
enters new network, mount and PID namespaces (no network; the course's solutions, references,
the other submissions and the output folder hidden behind empty read-only mounts), drops root,
caps its address space, file sizes and core dumps, and sends stdout/stderr to a file the judge
reads. It then executes the `setup` cell and the answer cells, and serves requests: call a
function, read an attribute, iterate, index. Every reply is plain data (see codec.py).
"""
from __future__ import annotations

import ctypes
import faulthandler
import io
import linecache
import os
import resource
import signal
import socket
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from typing import Any, Dict, List, Sequence, Tuple

from IPython.core.inputtransformer2 import TransformerManager

from attnlab.checks import BUILTIN_ATTENTION, ForbiddenCall, forbidden_message

from . import codec

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 0x1000, 0x4000, 0x40000

# Exceptions the judge re-raises under their own type; anything else arrives as RuntimeError.
EXCEPTION_TYPES = (
    "ForbiddenCall", "ValueError", "TypeError", "IndexError", "KeyError", "AttributeError",
    "NotImplementedError", "ZeroDivisionError", "AssertionError", "NameError", "OverflowError",
    "RuntimeError",
)


@dataclass
class Limits:
    cell_timeout: float = 5.0         # seconds for one answer cell or one call from a test
    notebook_timeout: float = 120.0   # seconds for the whole notebook
    memory_bytes: int = 2 * 2**30     # address space the student's code may add
    output_bytes: int = 4 * 2**20     # what the student's code may print
    hide_paths: Sequence[str] = field(default_factory=list)


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _check(ret: int, what: str) -> None:
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def enter_namespaces() -> List[str]:
    """New network, mount and PID namespaces (through a user namespace when not root).
    The caller must fork next: the child is PID 1 of the new namespace."""
    root = os.geteuid() == 0
    uid, gid = os.geteuid(), os.getegid()
    flags = CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID
    try:
        _check(_libc().unshare(flags if root else flags | CLONE_NEWUSER), "unshare")
        if not root:
            _map_ids(uid, gid)
    except OSError:
        return []
    return ["no network", "own process tree"]


def _map_ids(uid: int, gid: int) -> None:
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"0 {uid} 1")
    _write("/proc/self/gid_map", f"0 {gid} 1")


def python_paths() -> List[str]:
    """Folders Python imports from: the interpreter, the virtual environment, the student helpers
    (outermost only)."""
    import attnlab

    paths = {os.path.realpath(p) for p in [sys.prefix, sys.base_prefix, os.path.dirname(attnlab.__file__)]}
    paths |= {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p) and "-packages" in p}
    return sorted(p for p in paths if not any(p.startswith(q + os.sep) for q in paths))


def private_paths() -> List[str]:
    """Everything in the course repository and the grader's home folder except python_paths(): its
    .git history, the solutions, the instructor tooling, shell history, credentials."""
    keep = set(python_paths())
    repo = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    roots = [repo, os.path.realpath(os.path.expanduser("~"))]
    hidden: List[str] = []
    stack = [r for r in roots if os.path.isdir(r) and r != "/"]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                path = os.path.realpath(entry.path)
                if path in keep:
                    continue
                if any(k.startswith(path + os.sep) for k in keep) and entry.is_dir(follow_symlinks=False):
                    stack.append(path)
                else:
                    hidden.append(entry.path)
    return hidden


def seal_filesystem(hide_paths: Sequence[str]) -> List[str]:
    """Hide `hide_paths` behind empty mounts, give the process its own /tmp and /proc, make every
    other mount read-only, then nest a user namespace: that locks all of it (no capability over the
    original mounts remains, so nothing can be unmounted or made writable again)."""
    libc = _libc()
    done: List[str] = []

    def mount(source: bytes, target: str, fstype, flags: int, data) -> None:
        _check(libc.mount(source, os.fsencode(target), fstype, flags, data), f"mount {target}")

    try:
        mount(b"none", "/", None, MS_REC | MS_PRIVATE, None)
        for path in [*hide_paths, *private_paths(), "/run", "/var/run"]:
            if os.path.isdir(path) and not os.path.islink(path):
                mount(b"tmpfs", path, b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, b"size=4k")
            elif os.path.isfile(path):
                mount(b"/dev/null", path, None, MS_BIND, None)
        # A private, empty /tmp. Folders Python imports from that live under /tmp (a course cloned
        # there) are carried over: bound to a staging place first, then back onto the new /tmp.
        carried = [p for p in python_paths() if p.startswith("/tmp/")]
        mount(b"tmpfs", "/dev/shm", b"tmpfs", MS_NOSUID | MS_NODEV, b"size=64m,mode=1777")
        for i, path in enumerate(carried):
            os.makedirs(f"/dev/shm/.carried{i}")
            mount(os.fsencode(path), f"/dev/shm/.carried{i}", None, MS_BIND | MS_REC, None)
        mount(b"tmpfs", "/tmp", b"tmpfs", MS_NOSUID | MS_NODEV, b"size=64m,mode=1777")
        for i, path in enumerate(carried):
            os.makedirs(path)
            mount(os.fsencode(f"/dev/shm/.carried{i}"), path, None, MS_BIND | MS_REC, None)
            libc.umount2(os.fsencode(f"/dev/shm/.carried{i}"), 2)  # MNT_DETACH
        mount(b"proc", "/proc", b"proc", MS_NOSUID | MS_NODEV, None)
        done.append("course files hidden")
        with open("/proc/self/mountinfo") as f:
            points = [line.split()[4] for line in f]
        for point in points:
            if point in ("/tmp", "/dev/shm", "/proc") or point.startswith("/proc/"):
                continue
            libc.mount(b"none", os.fsencode(point), None, MS_REMOUNT | MS_BIND | MS_RDONLY, None)
        done.append("read-only files")
        uid, gid = os.geteuid(), os.getegid()
        _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
        _map_ids(uid, gid)
        done.append("no privileges")
    except OSError:
        pass
    return done


def apply_limits(limits: Limits) -> None:
    with open("/proc/self/statm") as f:
        vm_pages = int(f.read().split()[0])
    base = vm_pages * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (base + limits.memory_bytes,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.output_bytes,) * 2)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    if os.getuid() != 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (256, 256))


# ---------------------------------------------------------------------------------------------
# Inside the sandbox

class _Forbidden:
    """Guards the library routines a core exercise must not call; they raise only while the judge
    says so (inside `implemented_by_hand()`). The judge also scans the answer's source (scan.py),
    since anything in this process can be undone from inside it."""

    def __init__(self) -> None:
        self.active: set = set()

    def install(self, dotted_names: Sequence[str]) -> None:
        import importlib

        import torch

        for dotted in dotted_names:
            module_name, _, attr = dotted.rpartition(".")
            try:
                owner = importlib.import_module(module_name)
            except ImportError:
                owner_module, _, cls = module_name.rpartition(".")
                owner = getattr(importlib.import_module(owner_module), cls)
            self._guard(owner, attr, dotted)
        if "torch.nn.functional.scaled_dot_product_attention" in dotted_names:
            # The same routine under the names of its C binding and of its aten operators.
            dotted = "torch.nn.functional.scaled_dot_product_attention"
            self._guard(torch._C._nn, "scaled_dot_product_attention", dotted)
            ops = {op for op in dir(torch.ops.aten) if op.startswith("_scaled_dot_product") and not op.endswith("backward")}
            for op in sorted(ops | {"scaled_dot_product_attention", "_scaled_dot_product_attention_math"}):
                self._guard(torch.ops.aten, op, dotted)

    def _guard(self, owner: Any, attr: str, dotted: str) -> None:
        try:
            original, active = getattr(owner, attr), self.active
        except (AttributeError, RuntimeError):  # an operator this torch build does not have
            return

        def guard(*args, **kwargs):
            if dotted in active:
                raise ForbiddenCall(forbidden_message(dotted))
            return original(*args, **kwargs)

        setattr(owner, attr, guard)


def _exception_report(e: BaseException, where: str) -> dict:
    kind = next((c.__name__ for c in type(e).__mro__ if c.__name__ in EXCEPTION_TYPES), "RuntimeError")
    tb = traceback.extract_tb(e.__traceback__)
    student_frames = [f for f in tb if f.filename.startswith("<answer ")]
    line = ""
    if student_frames:
        f = student_frames[-1]
        line = f"{f.filename[1:-1]}, line {f.lineno}: {f.line or ''}".strip()
    return {"type": kind, "name": type(e).__name__, "message": str(e)[:2000], "where": where, "line": line}


def _serve(sock: socket.socket, setup_source: str, answers: List[Tuple[str, str]], names: Sequence[str]) -> None:
    forbidden = _Forbidden()
    forbidden.install(BUILTIN_ATTENTION)
    objects: Dict[int, Any] = {}

    def to_handle(obj: Any) -> dict:
        objects[id(obj)] = obj
        return {"t": "handle", "id": id(obj)}

    def from_handle(i: int, kind: str) -> Any:
        if kind != "ref" or i not in objects:
            raise codec.ProtocolError("unknown handle")
        return objects[i]

    def reply(value: Any) -> None:
        tree, buffers = codec.encode(value, to_handle)
        codec.send(sock, {"ok": tree}, buffers)

    ns: Dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(compile(setup_source, "<setup>", "exec"), ns)
    except BaseException as e:  # the instructor's cell: a broken grading environment, not the student's fault
        codec.send(sock, {"event": "setup", "error": f"{type(e).__name__}: {e}"[:2000]})
        return
    codec.send(sock, {"event": "setup"})
    transform = TransformerManager().transform_cell
    for grade_id, source in answers:
        filename = f"<answer {grade_id}>"
        try:
            code = transform(source)
            linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
            exec(compile(code, filename, "exec"), ns)
            codec.send(sock, {"event": "cell", "grade_id": grade_id})
        except BaseException as e:  # the student's cell may raise anything, SystemExit included
            codec.send(sock, {"event": "cell", "grade_id": grade_id, "error": _exception_report(e, grade_id)})
        sys.stdout.flush()
        sys.stderr.flush()
    codec.send(sock, {"event": "ready"})

    while True:
        try:
            request, buffers = codec.recv(sock, limit=None)
        except EOFError:
            return
        op = request.get("op")
        try:
            if op == "name":
                if request["name"] not in names or request["name"] not in ns:
                    codec.send(sock, {"missing": True})
                    continue
                value = ns[request["name"]]
            else:
                target = from_handle(int(request["target"]), "ref") if "target" in request else None
                payload = codec.decode(request["payload"], buffers, from_handle) if "payload" in request else {}
                if op == "call":
                    value = target(*payload["args"], **payload["kwargs"])
                elif op == "getattr":
                    value = getattr(target, request["name"])
                elif op == "iter":
                    value = list(target)
                elif op == "len":
                    value = len(target)
                elif op == "getitem":
                    value = target[payload["key"]]
                elif op == "forbid":
                    forbidden.active.clear()
                    forbidden.active.update(request["names"])
                    value = None
                else:
                    raise codec.ProtocolError(f"unknown op {op!r}")
            sys.stdout.flush()
            sys.stderr.flush()
            reply(value)
        except BaseException as e:  # reported to the judge; the sandbox keeps serving
            sys.stdout.flush()
            sys.stderr.flush()
            codec.send(sock, {"error": _exception_report(e, request.get("label", ""))})
        value = None


def child_main(sock: socket.socket, output_fd: int, limits: Limits, setup_source: str,
               answers: List[Tuple[str, str]], names: Sequence[str], pid_pipe: int) -> None:
    """Runs in the forked process; never returns."""
    code = 0
    try:
        import torch

        # The parent's OpenMP thread pool does not survive fork: parallel kernels would wait for it forever.
        torch.set_num_threads(1)
        os.environ["OMP_NUM_THREADS"] = "1"
        faulthandler.disable()  # a crash is reported by the judge, not dumped on the grader's terminal
        os.setsid()
        isolated = enter_namespaces()
        if isolated:
            # The first child in a new PID namespace is its init: when it dies, everything it started dies.
            pid = os.fork()
            if pid:
                os.write(pid_pipe, f"{pid}\n".encode())
                sock.close()
                _, status = os.waitpid(pid, 0)
                os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
            isolated += seal_filesystem(limits.hide_paths)
        else:
            os.write(pid_pipe, f"{os.getpid()}\n".encode())
        os.close(pid_pipe)
        os.chdir(tempfile.mkdtemp(prefix="submission-"))
        apply_limits(limits)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        os.close(output_fd)
        sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", buffering=0), write_through=True)
        sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", buffering=0), write_through=True)
        codec.send(sock, {"event": "isolation", "done": [x for x in isolated if x]})
        _serve(sock, setup_source, answers, names)
    except BaseException:  # the judge sees the closed connection and reports it
        code = 1
    finally:
        os._exit(code)
