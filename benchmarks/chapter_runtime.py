"""Run time and peak memory of every chapter: `python benchmarks/chapter_runtime.py [CHAPTER ...]`.

Each instructor notebook in solutions/ runs top to bottom with nbclient in a fresh kernel with
OMP_NUM_THREADS=1, in a scratch copy of its folder (so nothing it writes lands in the repository).
Reported per chapter:
  kernel s  starting the kernel
  cells s   running every cell, first to last
  total s   both together: what "Restart kernel and run all cells" costs a student
  peak MiB  the kernel process's peak resident memory (VmHWM in /proc/<pid>/status), read just
            before the kernel is shut down
The budget is 30 s (total) and 1 GiB (peak). Exit status 1 when a chapter fails to run (a cell
raises, or a cell runs past --cell-timeout); with --strict also when a chapter is over budget.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional

os.environ["OMP_NUM_THREADS"] = "1"  # inherited by every kernel started below

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
BUDGET_SECONDS = 30.0
BUDGET_MIB = 1024.0


def _vm_hwm_mib(pid: Optional[int]) -> Optional[float]:
    """Peak resident set size of `pid` in MiB, or None when it cannot be read."""
    if not pid:
        return None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0  # the kernel reports kB
    except OSError:
        return None
    return None


def _kernel_pid(client: NotebookClient) -> Optional[int]:
    km = client.km
    provisioner = getattr(km, "provisioner", None)
    pid = getattr(provisioner, "pid", None)
    if pid is None:  # older jupyter_client
        pid = getattr(getattr(km, "kernel", None), "pid", None)
    return pid


def run_chapter(path: Path, cell_timeout: float) -> dict:
    nb = nbformat.read(str(path), as_version=4)
    with tempfile.TemporaryDirectory(prefix=f"chapter-{path.stem}-") as tmp:
        workdir = Path(tmp) / path.parent.name
        shutil.copytree(path.parent, workdir)
        client = NotebookClient(nb, timeout=cell_timeout, kernel_name="python3",
                                resources={"metadata": {"path": str(workdir)}})
        row = {"chapter": path.stem, "kernel_s": None, "cells_s": None, "total_s": None,
               "peak_mib": None, "error": "", "slowest": []}
        t0 = time.perf_counter()
        try:
            with open(workdir / "kernel.log", "w") as log, client.setup_kernel(stderr=log):
                t1 = time.perf_counter()
                row["kernel_s"] = t1 - t0
                pid = _kernel_pid(client)
                try:
                    for index, cell in enumerate(nb.cells):
                        started = time.perf_counter()
                        client.execute_cell(cell, index)
                        if cell.cell_type == "code":
                            name = cell.metadata.get("nbgrader", {}).get("grade_id") or f"cell {index}"
                            row["slowest"].append((time.perf_counter() - started, name))
                finally:
                    t2 = time.perf_counter()
                    row["cells_s"], row["total_s"] = t2 - t1, t2 - t0
                    row["peak_mib"] = _vm_hwm_mib(pid)
        except CellExecutionError as e:
            row["error"] = "a cell raised: " + re.sub(r"\x1b\[[0-9;]*m", "", str(e).strip().splitlines()[-1])[:200]
        except CellTimeoutError:
            row["error"] = f"a cell ran longer than {cell_timeout:g} s"
        except DeadKernelError as e:
            row["error"] = f"the kernel died: {e}"[:200]
        except Exception as e:  # noqa: BLE001 (report every failure as this chapter's row)
            row["error"] = f"{type(e).__name__}: {e}"[:200]
        if row["total_s"] is None:
            row["total_s"] = time.perf_counter() - t0
        if row["error"]:
            log_tail = (workdir / "kernel.log").read_text(errors="replace").strip().splitlines()[-5:]
            row["kernel_log"] = [l for l in log_tail if "running over TCP without encryption" not in l]
        row["slowest"] = sorted(row["slowest"], reverse=True)[:3]
    return row


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("chapters", nargs="*", help="chapter folder names or .ipynb paths (default: every solutions/*/*.ipynb)")
    parser.add_argument("--cell-timeout", type=float, default=600.0, help="seconds one cell may run (default: 600)")
    parser.add_argument("--verbose", action="store_true", help="list the three slowest cells of every chapter")
    parser.add_argument("--strict", action="store_true", help="also exit 1 when a chapter is over the 30 s / 1 GiB budget")
    args = parser.parse_args(argv)

    paths = sorted((REPO / "solutions").glob("*/*.ipynb"))
    paths = [p for p in paths if ".ipynb_checkpoints" not in p.parts]
    if args.chapters:
        files = [Path(c) for c in args.chapters if c.endswith(".ipynb")]
        wanted = set(args.chapters)
        paths = [p for p in paths if p.parent.name in wanted or p.stem in wanted] + [f.resolve() for f in files]
    if not paths:
        print("no chapter notebooks found", file=sys.stderr)
        return 1

    print(f"OMP_NUM_THREADS=1, {os.cpu_count()} CPU cores, load average {os.getloadavg()[0]:.1f}, "
          f"budget {BUDGET_SECONDS:g} s and {BUDGET_MIB:g} MiB per chapter")
    header = f"{'chapter':<34} {'kernel s':>8} {'cells s':>8} {'total s':>8} {'peak MiB':>9}  verdict"
    print(header)
    print("-" * len(header))
    rows = []
    for path in paths:
        row = run_chapter(path, args.cell_timeout)
        rows.append(row)
        fmt = lambda v, spec: format(v, spec) if v is not None else "-".rjust(int(spec.split(".")[0]))  # noqa: E731
        if row["error"]:
            verdict = "FAILED TO RUN: " + row["error"]
        else:
            over = []
            if row["total_s"] > BUDGET_SECONDS:
                over.append("over 30 s")
            if row["peak_mib"] is None:
                over.append("peak memory unreadable")
            elif row["peak_mib"] > BUDGET_MIB:
                over.append("over 1 GiB")
            row["over"] = over
            verdict = "OVER BUDGET: " + ", ".join(over) if over else "ok"
        print(f"{row['chapter']:<34} {fmt(row['kernel_s'], '8.1f')} {fmt(row['cells_s'], '8.1f')} "
              f"{fmt(row['total_s'], '8.1f')} {fmt(row['peak_mib'], '9.0f')}  {verdict}", flush=True)
        if (row["error"] or row.get("over") or args.verbose) and row["slowest"]:
            print("    slowest cells: " + ", ".join(f"{name} {sec:.1f} s" for sec, name in row["slowest"]))
        for line in row.get("kernel_log", []):
            print(f"    kernel: {line}")
    failed = [r for r in rows if r["error"]]
    over = [r for r in rows if r.get("over")]
    print(f"\n{len(rows)} chapters: {len(rows) - len(failed)} ran, {len(failed)} failed to run, {len(over)} over budget")
    if failed or (args.strict and over):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
