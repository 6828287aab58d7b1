"""The APS set kernel alone (`_aps_set_rows`), main's module (--before) beside this checkout's and an A/A copy of main
(--copy, the same file under another name), on bench/limits.py's APS test inputs: equal sets first, then interleaved
CPU-time medians, and numpy's row maxima of the test matrix (the test side's floor). From the checkout's root:
    git -C /work/main show HEAD:ciauto/prediction_sets.py > /tmp/main_ps.py; cp /tmp/main_ps.py /tmp/main_copy_ps.py
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_compress_kernel.py \\
        --before /tmp/main_ps.py --copy /tmp/main_copy_ps.py
"""
import argparse
import importlib.util
import os
import sys

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, os.path.dirname(__file__))
import ciauto.prediction_sets as after  # noqa: E402
from _timing import interleaved_medians  # noqa: E402
from aps_before_after import inputs  # noqa: E402


def load(path, name):
    spec = importlib.util.spec_from_file_location(f"ciauto.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--copy", required=True)
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    before, copy = load(args.before, "_before_ps"), load(args.copy, "_copy_ps")
    print("| n | K | main | branch | main's copy (A/A) | main / branch | main / copy | branch / test row max |")
    print("|---|---|---|---|---|---|---|---|")
    for n, k in [(10000, 10), (10000, 64), (10000, 100), (5000, 128), (4000, 255), (4000, 256), (2000, 512),
                 (2000, 1000), (1000, 2000)]:
        cal, y, test = inputs(n, k)
        q = before.conformal_sets(cal, y, test, method="aps").threshold
        z = np.zeros(n)
        sets = [m._aps_set_rows(test, z, q) for m in (before, after, copy)]
        assert all(np.array_equal(sets[0], s) for s in sets[1:])
        inner = 5
        calls = [lambda m=m: [m._aps_set_rows(test, z, q) for _ in range(inner)] for m in (before, after, copy)]
        calls.append(lambda: [test.max(axis=1) for _ in range(inner)])
        old, new, aa, floor = (t / inner * 1e3 for t in interleaved_medians(*calls, repeats=args.repeats, clock="cpu"))
        print(f"| {n} | {k} | {old:.2f} ms | {new:.2f} ms | {aa:.2f} ms | {old / new:.2f}× | {old / aa:.2f}× | "
              f"{new / floor:.2f}× |", flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
