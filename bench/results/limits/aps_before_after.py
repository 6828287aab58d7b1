"""APS sets before/after in one process: a `prediction_sets.py` of another commit (--before) loaded beside this
checkout's, on bench/limits.py's APS inputs; equal sets and thresholds first, then interleaved CPU-time medians of
both whole `conformal_sets` calls, the read-once floor (numpy's row maxima of both matrices) and the after-version's
two kernels alone. Run from the checkout's root:
    git show d8aa7fe:ciauto/prediction_sets.py > /tmp/before_ps.py
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_before_after.py --before /tmp/before_ps.py
"""
import argparse
import importlib.util
import sys

import numpy as np
from threadpoolctl import threadpool_limits

import ciauto.prediction_sets as after
from _timing import interleaved_medians


def load(path):
    "The module at `path` as ciauto._before_ps (its relative imports resolve in the installed ciauto)."
    spec = importlib.util.spec_from_file_location("ciauto._before_ps", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def inputs(n, k):
    "bench/limits.py's APS generator: cal = test = n rows, the first 200 labels drawn from p, the rest the argmax."
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(2 * n, k)) * 2
    logits[np.arange(2 * n), rng.integers(0, k, 2 * n)] += 3
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(k, p=row) for row in p[:200]] + list(p[200:].argmax(axis=1)))
    return p[:n], y[:n], p[n:]


def check_equal(before, cal, y, test):
    for options in (dict(method="aps"), dict(method="aps", rule="randomized"), dict(method="aps", rule="exact"),
                    dict(method="raps")):
        a, b = before.conformal_sets(cal, y, test, **options), after.conformal_sets(cal, y, test, **options)
        if not (np.array_equal(a.sets, b.sets) and np.float64(a.threshold).tobytes() == np.float64(b.threshold).tobytes()):
            raise AssertionError(f"{options}: the sets or the threshold differ")


def true_pass(cal, y, u):
    "This checkout's true-class pass alone (approximate where the threshold does not need them), APS."
    return after._aps_true(cal, cal.view(np.uint64), y, u, None, 0, False, after._rank_in_max(cal.shape[1]))


def set_pass(test, q):
    "This checkout's set pass alone, APS, u = 0 (include_last)."
    compress = True if after._AVX512 and test.shape[1] >= after._COMPRESSED else None
    return after._aps_sets(test, test.view(np.uint64), np.zeros(len(test)), q, None, 0, np.empty(test.shape, bool),
                           compress)


def main(true_kernel=true_pass, set_kernel=set_pass):
    """`true_kernel(cal, y, u)`, `set_kernel(test, q)`: the after-version's true-class scores and sets as timed alone
    (by default this checkout's passes; the earlier sessions' scripts ran with their commits' own)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="path of the other commit's prediction_sets.py")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--inner", type=int, default=5, help="calls per timed sample")
    args = parser.parse_args()
    before = load(args.before)
    print("| n (cal = test) | K | before | after | before / after | floor (both row maxima) | before / floor | "
          "after / floor | after: true-class kernel | after: set kernel | after: rest (checks, draws, threshold) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, k in [(10_000, 10), (10_000, 100), (2_000, 1000)]:
        cal, y, test = inputs(n, k)
        check_equal(before, cal, y, test)
        u = np.random.default_rng(0).random(n)
        q = after.conformal_sets(cal, y, test, method="aps", alpha=0.1).threshold
        calls = [lambda: before.conformal_sets(cal, y, test, method="aps", alpha=0.1),
                 lambda: after.conformal_sets(cal, y, test, method="aps", alpha=0.1),
                 lambda: (cal.max(axis=1), test.max(axis=1)),
                 lambda: true_kernel(cal, y, u), lambda: set_kernel(test, q)]
        times = interleaved_medians(*[lambda f=f: [f() for _ in range(args.inner)] for f in calls],
                                    repeats=args.repeats, clock="cpu")
        old, new, floor, true, sets = (t / args.inner * 1e3 for t in times)
        print(f"| {n} | {k} | {old:.2f} ms | {new:.2f} ms | {old / new:.2f}× | {floor:.2f} ms | {old / floor:.2f}× | "
              f"**{new / floor:.2f}×** | {true:.2f} ms | {sets:.2f} ms | {new - true - sets:.2f} ms |", flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
