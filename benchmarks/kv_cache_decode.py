"""Decode-step attention time vs. number of KV heads (MHA / GQA / MQA), on CPU or GPU.

One decode step of attention reads the whole KV cache once and does only a few multiply-adds per
value it reads, so its time should follow the bytes of the cache when the shared KV heads are read
in place ("grouped"), and lose that advantage when they are first copied to all query heads
("expand", like repeat_interleave). This script prints both, with the effective bandwidth.

    python benchmarks/kv_cache_decode.py                      # CPU, small sizes
    python benchmarks/kv_cache_decode.py --device cuda --batch 16 --seq-len 8192 --dtype float16
"""
from __future__ import annotations

import argparse
import math
import statistics
import time

import torch


def grouped(q, k, v):
    """q [B, H, 1, D]; k, v [B, H_kv, T, D]: each KV head is read once for its group of query heads."""
    B, H, _, D = q.shape
    H_kv = k.shape[1]
    qg = q.view(B, H_kv, H // H_kv, D)
    w = torch.softmax((qg @ k.transpose(-1, -2)).float() / math.sqrt(D), dim=-1).to(q.dtype)
    return (w @ v).view(B, H, 1, D)


def expand(q, k, v):
    n_rep = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(n_rep, dim=1), v.repeat_interleave(n_rep, dim=1)
    w = torch.softmax((q @ k.transpose(-1, -2)).float() / math.sqrt(q.shape[-1]), dim=-1).to(q.dtype)
    return w @ v


def timed(fn, device, repeats):
    fn()
    times = []
    for _ in range(repeats):
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        if device == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--dtype", default="float32", choices=["float32", "float16", "bfloat16"])
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq-len", type=int, default=1024)
    p.add_argument("--num-heads", type=int, default=32)
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--kv-heads", type=int, nargs="+", default=[32, 8, 1])
    p.add_argument("--repeats", type=int, default=9)
    args = p.parse_args(argv)
    dtype = getattr(torch, args.dtype)
    gen = torch.Generator().manual_seed(0)
    B, H, D, T = args.batch, args.num_heads, args.head_dim, args.seq_len
    q = torch.randn(B, H, 1, D, generator=gen).to(args.device, dtype)
    print(f"device={args.device} dtype={args.dtype} batch={B} seq_len={T} num_heads={H} head_dim={D} "
          f"(median of {args.repeats})")
    print(f"{'num_kv_heads':>12s} {'K+V bytes':>12s} {'grouped ms':>11s} {'GB/s':>7s} {'expand ms':>10s}")
    for kv in args.kv_heads:
        k = torch.randn(B, kv, T, D, generator=gen).to(args.device, dtype)
        v = torch.randn(B, kv, T, D, generator=gen).to(args.device, dtype)
        nbytes = 2 * k.numel() * k.element_size()
        t_grouped = timed(lambda: grouped(q, k, v), args.device, args.repeats)
        t_expand = timed(lambda: expand(q, k, v), args.device, args.repeats)
        print(f"{kv:12d} {nbytes / 2**20:9.1f} MiB {1e3 * t_grouped:11.3f} {nbytes / t_grouped / 1e9:7.1f} {1e3 * t_expand:10.3f}")
        del k, v


if __name__ == "__main__":
    main()
