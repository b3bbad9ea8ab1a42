"""The wire format between the judge and the sandboxed student process.

Values travel as a JSON tree plus raw tensor buffers. Decoding never runs code from the
message (no pickle): a compromised student process can only send plain data, which the
judge rebuilds into fresh, ordinary Python and torch objects.

Anything that is not plain data (a module, a function, a generator, ...) stays in the
process that owns it and travels as a numbered handle.
"""
from __future__ import annotations

import json
import socket
import struct
from typing import Any, Callable, List, Optional, Tuple

import torch

MAX_MESSAGE_BYTES = 256 * 2**20
MAX_DEPTH = 32

_DTYPES = {
    str(dt): dt
    for dt in (
        torch.float16, torch.bfloat16, torch.float32, torch.float64,
        torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool,
    )
}


class ProtocolError(Exception):
    """The other side sent something that is not a valid message."""


def encode(value: Any, to_handle: Callable[[Any], dict]) -> Tuple[Any, List[bytes]]:
    """Turn `value` into (json tree, buffers). Objects that are not plain data become whatever
    `to_handle` returns: {"t": "handle", "id": n} for an object of the sender's, {"t": "ref", "id": n}
    to point back at one of the receiver's."""
    buffers: List[bytes] = []

    def enc(x: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError("value is nested too deeply to send")
        if x is None or type(x) in (bool, str):
            return x
        if type(x) is int:
            return {"t": "int", "v": str(x)}
        if type(x) is float:
            return {"t": "float", "v": repr(x)}
        if type(x) in (torch.Tensor, torch.nn.Parameter):
            t = x.detach().to("cpu")
            if str(t.dtype) not in _DTYPES:
                return to_handle(x)
            flat = t.contiguous().reshape(-1)
            raw = flat.view(torch.uint8).numpy().tobytes() if flat.numel() else b""
            buffers.append(raw)
            return {"t": "tensor", "dtype": str(t.dtype), "shape": list(t.shape), "buf": len(buffers) - 1}
        if type(x) is torch.Size:
            return {"t": "size", "v": [int(i) for i in x]}
        if type(x) is torch.dtype:
            return {"t": "dtype", "v": str(x)}
        if type(x) in (tuple, list) or (isinstance(x, tuple) and hasattr(x, "_fields")):
            kind = "list" if type(x) is list else "tuple"
            return {"t": kind, "v": [enc(i, depth + 1) for i in x]}
        if type(x) is dict and all(type(k) is str for k in x):
            return {"t": "dict", "v": [[k, enc(v, depth + 1)] for k, v in x.items()]}
        return to_handle(x)

    return enc(value, 0), buffers


def decode(tree: Any, buffers: List[bytes], from_handle: Callable[[int, str], Any]) -> Any:
    """Rebuild a value from `encode`'s output; `from_handle(id, kind)` resolves handles ("handle": the
    sender's object, "ref": one of ours sent back)."""

    def dec(x: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ProtocolError("message nested too deeply")
        if x is None or type(x) in (bool, str):
            return x
        if type(x) is not dict:
            raise ProtocolError(f"unexpected JSON value of type {type(x).__name__}")
        t = x.get("t")
        if t == "int":
            return int(str(x["v"]))
        if t == "float":
            return float(str(x["v"]))
        if t == "tensor":
            dtype = _DTYPES.get(x.get("dtype"))
            shape = x.get("shape")
            if dtype is None or type(shape) is not list or not all(type(s) is int and s >= 0 for s in shape):
                raise ProtocolError("malformed tensor")
            raw = buffers[int(x["buf"])]
            numel = 1
            for s in shape:
                numel *= s
            itemsize = torch.empty((), dtype=dtype).element_size()
            if len(raw) != numel * itemsize:
                raise ProtocolError("tensor size does not match its shape")
            if numel == 0:
                return torch.empty(shape, dtype=dtype)
            return torch.frombuffer(bytearray(raw), dtype=torch.uint8).view(dtype).reshape(shape).clone()
        if t == "size":
            return torch.Size([int(i) for i in x["v"]])
        if t == "dtype":
            dtype = _DTYPES.get(x["v"])
            if dtype is None:
                raise ProtocolError("unknown dtype")
            return dtype
        if t == "list":
            return [dec(i, depth + 1) for i in x["v"]]
        if t == "tuple":
            return tuple(dec(i, depth + 1) for i in x["v"])
        if t == "dict":
            return {str(k): dec(v, depth + 1) for k, v in x["v"]}
        if t in ("handle", "ref"):
            return from_handle(int(x["id"]), t)
        raise ProtocolError(f"unknown value tag {t!r}")

    return dec(tree, 0)


def send(sock: socket.socket, header: dict, buffers: List[bytes] = ()) -> None:
    head = json.dumps(header).encode()
    parts = [struct.pack("!II", len(head), len(buffers)), head]
    for b in buffers:
        parts += [struct.pack("!Q", len(b)), b]
    sock.sendall(b"".join(parts))


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 20))
        if not chunk:
            raise EOFError("the other process closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def recv(sock: socket.socket, limit: Optional[int] = MAX_MESSAGE_BYTES) -> Tuple[dict, List[bytes]]:
    """Read one message; raises ProtocolError when it is malformed or larger than `limit` bytes."""
    head_len, count = struct.unpack("!II", _recv_exactly(sock, 8))
    total = head_len
    if limit is not None and (head_len > limit or count > 100_000):
        raise ProtocolError("message too large")
    try:
        header = json.loads(_recv_exactly(sock, head_len))
    except ValueError as e:
        raise ProtocolError("header is not JSON") from e
    if type(header) is not dict:
        raise ProtocolError("header is not an object")
    buffers = []
    for _ in range(count):
        (n,) = struct.unpack("!Q", _recv_exactly(sock, 8))
        total += n
        if limit is not None and total > limit:
            raise ProtocolError("message too large")
        buffers.append(_recv_exactly(sock, n))
    return header, buffers
