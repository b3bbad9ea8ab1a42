"""A clean process that forks the sandboxes.

A sandbox forked straight from a grading worker would inherit the worker's memory: the
instructor notebook, the hidden tests, the references. So each worker starts this small
server once, as a fresh interpreter that imports torch and the course helpers and never
loads anything of a chapter; every sandbox is a fork of it. Forking costs milliseconds,
and `import torch` is paid once per worker, not once per notebook.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
from typing import List, Optional

from .codec import _recv_exactly


class Zygote:
    """The worker's side: start the server, ask it to fork a sandbox."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair()
        env = dict(os.environ, OMP_NUM_THREADS="1", MPLBACKEND="Agg", PYTHONFAULTHANDLER="")
        self.owner = os.getpid()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=env,
        )
        theirs.close()
        self.sock = mine

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def spawn(self, request: dict, fds: List[int]) -> int:
        """Fork a sandbox running sandbox.child_main(*fds, **request); returns its pid."""
        data = json.dumps(request).encode()
        socket.send_fds(self.sock, [struct.pack("!Q", len(data))], fds)
        self.sock.sendall(data)
        (pid,) = struct.unpack("!Q", _recv_exactly(self.sock, 8))
        return pid


_current: Optional[Zygote] = None


def zygote() -> Zygote:
    """This process's zygote, started on first use (and again if it died)."""
    global _current
    if _current is None or not _current.alive():
        _current = Zygote()
    return _current


def _serve(fd: int) -> None:
    import ctypes

    import torch

    import matplotlib  # noqa: F401  (preloaded: setup cells import it)
    import matplotlib.pyplot  # noqa: F401

    from . import sandbox
    from .sandbox import Limits

    torch.set_num_threads(1)
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: go when the worker goes
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # sandboxes are reaped automatically
    ctl = socket.socket(fileno=fd)
    while True:
        try:
            head, fds, _, _ = socket.recv_fds(ctl, 8, 3)
        except OSError:
            return
        if len(head) < 8:
            return
        (size,) = struct.unpack("!Q", head)
        request = json.loads(_recv_exactly(ctl, size))
        pid = os.fork()
        if pid == 0:
            ctl.close()
            sock_fd, output_fd, pid_fd = fds
            sandbox.child_main(
                socket.socket(fileno=sock_fd), output_fd, Limits(**request["limits"]), request["setup"],
                [tuple(a) for a in request["answers"]], request["names"], pid_fd,
            )
        for f in fds:
            os.close(f)
        ctl.sendall(struct.pack("!Q", pid))


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
