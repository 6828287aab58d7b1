"""The APS set kernel alone (`_aps_set_rows`, u = 0) with narrow and broad sets: main's module (--before), the block
version (--blocks, e.g. `git show b73aee8:ciauto/prediction_sets.py`) and a second copy of main's (--copy: an A/A
check of the interleaving's position effect), in one process, on a generator whose top class gets +boost in the
logits and whose calibration labels are the argmax for 90 % of rows, random for the rest (so a large boost gives
broad sets). Identical sets first; CPU time, medians of 15 interleaved rounds of 5 calls. Run from the root:
    git -C /work/main show HEAD:ciauto/prediction_sets.py > /tmp/main_ps.py; cp /tmp/main_ps.py /tmp/main_copy.py
    git show b73aee8:ciauto/prediction_sets.py > /tmp/blocks_ps.py
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_blocks_broad.py --before /tmp/main_ps.py \\
        --blocks /tmp/blocks_ps.py --copy /tmp/main_copy.py
"""
import argparse
import importlib.util
import sys

import numpy as np
from threadpoolctl import threadpool_limits

from _timing import interleaved_medians

import ciauto.prediction_sets  # noqa: F401  (the loaded copies' relative imports resolve in the installed ciauto)


def load(path, name):
    spec = importlib.util.spec_from_file_location(f"ciauto.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def inputs(n, k, boost):
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(2 * n, k)) * 2
    logits[np.arange(2 * n), rng.integers(0, k, 2 * n)] += boost
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.where(rng.random(n) < 0.9, p[:n].argmax(axis=1), rng.integers(0, k, n))
    return p[:n], y, p[n:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("--before", "--blocks", "--copy"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    before, blocks, copy = load(args.before, "_before_ps"), load(args.blocks, "_blocks_ps"), load(args.copy, "_copy_ps")
    print("| n | K | boost | median set size | main | blocks (main / blocks) | main's copy (main / copy) |")
    print("|---|---|---|---|---|---|---|")
    for n, k, boost in [(2000, 300, 8), (2000, 600, 8), (2000, 1000, 3), (2000, 1000, 5), (2000, 1000, 8),
                        (1300, 1500, 3), (1000, 2000, 3), (1000, 2000, 8)]:
        cal, y, test = inputs(n, k, boost)
        q = before.conformal_sets(cal, y, test, method="aps", alpha=0.1).threshold
        z = np.zeros(n)
        calls = [lambda m=m: m._aps_set_rows(test, z, q) for m in (before, blocks, copy)]
        sets = [f() for f in calls]
        if not (np.array_equal(sets[0], sets[1]) and np.array_equal(sets[0], sets[2])):
            raise AssertionError(f"K = {k}, boost {boost}: the sets differ")
        times = interleaved_medians(*[lambda f=f: [f() for _ in range(5)] for f in calls], repeats=15, clock="cpu")
        m, b, c = (t / 5 * 1e3 for t in times)
        print(f"| {n} | {k} | +{boost} | {np.median(sets[0].sum(1)):.0f} | {m:.2f} ms | {b:.2f} ms ({m / b:.2f}×) | "
              f"{c:.2f} ms ({m / c:.2f}×) |", flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
