"""Round four, ninth session: two versions of ciauto/prediction_sets.py side by side in one process, with an A/A copy
of the first, and numpy's read of both matrices (the read-once floor). Prints, per round, the medians of 31 shuffled
calls of the whole `conformal_sets(method="aps")` call and of the set kernel alone (`_aps_sets`, the same threshold).

    python bench/results/limits/aps_s9_side_by_side.py --before OLD.py --after ciauto/prediction_sets.py [--sizes 10000x10,2000x1000]

OLD.py: e.g. `git show 3c26f22:ciauto/prediction_sets.py > /tmp/old_ps.py`. Each file is loaded under its own module
name with numba's cache off (two files of one module would share cache entries), so the first run compiles for a
minute. The sets must be identical, or the script stops."""
import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE)]
from _timing import interleaved_medians  # noqa: E402
from aps_before_after import inputs  # noqa: E402  (bench/limits.py's APS generator)


def load(path, tag, folder):
    "The module at `path` as ciauto._<tag> (its relative imports resolve in the package), numba's cache off."
    copy = Path(folder) / f"{tag}.py"
    copy.write_text(Path(path).read_text().replace("cache=True", "cache=False"))
    name = f"ciauto._{tag}"
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--sizes", default="10000x10,10000x100,2000x1000", help="n x K pairs, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        before, after, again = (load(path, tag, folder) for path, tag in
                                ((args.before, "s9_before"), (args.after, "s9_after"), (args.before, "s9_again")))
        for size in args.sizes.split(","):
            n, k = map(int, size.split("x"))
            cal, y, test = inputs(n, k)
            whole = [lambda m=m: m.conformal_sets(cal, y, test, method="aps") for m in (before, after, again)]
            first, second = whole[0](), whole[1]()
            if not (np.array_equal(first.sets, second.sets) and first.threshold == second.threshold):
                raise AssertionError(f"n={n} K={k}: the two versions' sets differ")
            bits, zeros, q = test.view(np.uint64), np.zeros(n), first.threshold
            compress = True if before._AVX512 and k >= before._COMPRESSED else None
            kernels = [lambda m=m: m._aps_sets(test, bits, zeros, q, None, 0, np.empty(test.shape, bool), compress)
                       for m in (before, after, again)]
            floor = lambda: (cal.max(axis=1), test.max(axis=1))  # noqa: E731
            for _ in range(args.rounds):
                t = interleaved_medians(*whole, *kernels, floor, repeats=31, clock="cpu")
                print(f"n={n} K={k}: whole call {t[0] * 1e3:.2f} -> {t[1] * 1e3:.2f} ms ({t[0] / t[1]:.2f}x faster; "
                      f"A/A {t[0] / t[2]:.2f}x), against the floor {t[0] / t[6]:.2f} -> {t[1] / t[6]:.2f}x | set kernel "
                      f"{t[3] * 1e3:.2f} -> {t[4] * 1e3:.2f} ms ({t[3] / t[4]:.2f}x; A/A {t[3] / t[5]:.2f}x)",
                      flush=True)


if __name__ == "__main__":
    main()
