"""The compressed gather through numba's cache and on other CPUs. Run it twice with a fresh NUMBA_CACHE_DIR: the
first run compiles, the second must load every kernel from the cache and run as fast. With NUMBA_CPU_NAME=generic or
haswell (no AVX-512) LLVM writes the compress lane by lane: no vpcompressq, the same sets. main's prediction_sets.py
(--before) gives the sets to compare with, in the same process. From the checkout's root:
    export NUMBA_CACHE_DIR=$(mktemp -d)
    PYTHONPATH=$PWD:$PWD/bench python bench/results/limits/aps_compress_cache.py --before /tmp/main_ps.py  # twice
"""
import argparse
import importlib.util
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from aps_before_after import inputs  # noqa: E402

started = time.perf_counter()
import ciauto.prediction_sets as after  # noqa: E402


def load(path):
    spec = importlib.util.spec_from_file_location("ciauto._before_ps", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    args = parser.parse_args()
    before = load(args.before)
    cal, y, test = inputs(2000, 1000)
    first = time.perf_counter()
    result = after.conformal_sets(cal, y, test, method="aps")
    first = time.perf_counter() - first
    kernel = after._aps_sets
    hits, misses = sum(kernel.stats.cache_hits.values()), sum(kernel.stats.cache_misses.values())
    wide = [s for s in kernel.signatures if str(s[-1]) != "none"][0]
    asm = kernel.inspect_asm(wide) if misses else ""  # a kernel loaded from the cache has no assembly to show
    same = all(np.array_equal(before.conformal_sets(c, yy, t, method=m, rule=r).sets,
                              after.conformal_sets(c, yy, t, method=m, rule=r).sets)
               for n, k in [(300, 7), (300, 256), (300, 263), (200, 1000), (200, 1001)]
               for c, yy, t in [inputs(n, k)] for m in ("aps", "raps") for r in ("include_last", "randomized"))
    calls = []
    for _ in range(21):
        t0 = time.process_time()
        after.conformal_sets(cal, y, test, method="aps")
        calls.append(time.process_time() - t0)
    print(f"CPU {os.environ.get('NUMBA_CPU_NAME', 'host')}: set kernel cache hits {hits}, misses {misses}; "
          + (f"vpcompress {len(re.findall('vpcompress', asm))}, zmm {len(re.findall('zmm', asm))} in its assembly; "
             if asm else "") + f"first call {first * 1e3:.0f} ms; K = 1 000 call median {np.median(calls) * 1e3:.2f} ms; "
          f"sets equal to main's (K 7-1 001, APS/RAPS): {same and np.array_equal(result.sets, before.conformal_sets(cal, y, test, method='aps').sets)}")


if __name__ == "__main__":
    main()
