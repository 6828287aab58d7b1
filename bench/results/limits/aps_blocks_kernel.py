"""The APS set kernel alone (`_aps_set_rows`, u = 0), another commit's module (--before) beside this checkout's, at K
around the block path's threshold (`_BLOCKED` = 512); numpy's row maxima of the test matrix as the floor. Identical
sets first; CPU time, medians of 21 interleaved rounds of 5 calls. Run from the root of a checkout of the block version
(b73aee8; main kept its kernel, bench/limits.md §12):
    git -C /work/main show HEAD:ciauto/prediction_sets.py > /tmp/main_ps.py
    PYTHONPATH=$PWD:$PWD/bench nice -n 5 python bench/results/limits/aps_blocks_kernel.py --before /tmp/main_ps.py
"""
import argparse
import sys
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).parent))
import ciauto.prediction_sets as after
from _timing import interleaved_medians
from aps_before_after import inputs, load


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="path of the other commit's prediction_sets.py")
    args = parser.parse_args()
    before = load(args.before)
    print("| n | K | set kernel before | after | before / after | floor (test row maxima) | after / floor |")
    print("|---|---|---|---|---|---|---|")
    for n, k in [(10_000, 10), (10_000, 100), (4_000, 300), (2_000, 500), (2_000, 512), (2_000, 1000), (1_000, 2000)]:
        cal, y, test = inputs(n, k)
        q = after.conformal_sets(cal, y, test, method="aps", alpha=0.1).threshold
        z = np.zeros(n)
        calls = [lambda: before._aps_set_rows(test, z, q), lambda: after._aps_set_rows(test, z, q),
                 lambda: test.max(axis=1)]
        if not np.array_equal(calls[0](), calls[1]()):
            raise AssertionError(f"K = {k}: the sets differ")
        times = interleaved_medians(*[lambda f=f: [f() for _ in range(5)] for f in calls], repeats=21, clock="cpu")
        old, new, floor = (t / 5 * 1e3 for t in times)
        print(f"| {n} | {k} | {old:.2f} ms | {new:.2f} ms | {old / new:.2f}× | {floor:.2f} ms | {new / floor:.2f}× |",
              flush=True)


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
