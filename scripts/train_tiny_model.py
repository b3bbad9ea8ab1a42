"""Retrain the course's tiny transformers and write attnlab/data/tiny_transformers.pt.

Usage (from the repository root):  OMP_NUM_THREADS=1 python scripts/train_tiny_model.py
Both tasks train on one CPU thread in well under a minute (the script prints the time and accuracy).
"""
import argparse
import os
import time

import torch

from attnlab import tiny_transformer as tt

STEPS = {"reverse": 400, "copy": 500}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=tt.WEIGHTS_PATH, help="where to write the weights")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    start = time.perf_counter()
    models = {}
    for task, steps in STEPS.items():
        model, acc, seconds = tt.train(task, steps=steps, seed=args.seed)
        print(f"{task}: {steps} steps in {seconds:.1f} s, accuracy on fresh examples {acc:.4f}")
        models[task] = model
    tt.save_trained(models, args.out)
    print(f"wrote {args.out} ({os.path.getsize(args.out) / 1024:.0f} KiB) in {time.perf_counter() - start:.1f} s total")


if __name__ == "__main__":
    main()
