"""Random `conformal_sets` calls, this checkout's module against another commit's (--before) in one process: identical
sets, thresholds to the bit, equal reprs; K around the compressed gather (2..1 001: below and from 256 on, multiples
of 8 and not, K < 8), ties, -0.0, flat rows, the top class first / in the last full block of 8 / in the tail, APS,
RAPS and LAC, the three rules, Mondrian, Fortran order (round four, sixth session; adapted from aps_blocks_equal.py).
Run from the checkout's root:
    git -C /work/main show HEAD:ciauto/prediction_sets.py > /tmp/main_ps.py
    PYTHONPATH=$PWD nice -n 5 python bench/results/limits/aps_compress_equal.py --before /tmp/main_ps.py
"""
import argparse
import importlib.util
import sys

import warnings

import numpy as np

import ciauto.prediction_sets as after


def load(path):
    spec = importlib.util.spec_from_file_location("ciauto._before_ps", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def case(rng, trial):
    k = int(rng.choice([2, 3, 7, 8, 9, 33, 100, 255, 256, 257, 263, 264, 300, 511, 777, 1000, 1001]))
    n_cal, n_test = int(rng.integers(5, 120)), int(rng.integers(1, 80))
    p = rng.dirichlet(np.full(k, rng.choice([0.01, 0.05, 0.3, 1.0])), n_cal + n_test)
    if trial % 4 == 0:
        p = np.round(p * 16) / 16  # ties and zeros
    if trial % 7 == 0:
        p[p == 0] = -0.0
    if trial % 5 == 0:  # the top class placed: first, last of the last full block, in the tail
        at = [0, k - k % 8 - 1, k - 1][trial % 3]
        p[:, max(at, 0)] = 1.5 * p.max(axis=1)
        p /= p.sum(axis=1, keepdims=True)
    if trial % 11 == 0:
        p[: n_cal // 2] = 1.0 / k  # flat rows
    if trial % 6 == 0:
        p = np.asfortranarray(p)
    y = np.where(rng.random(n_cal) < 0.8, np.abs(p[:n_cal]).argmax(axis=1), rng.integers(0, k, n_cal))
    alpha = float(rng.choice([0.01, 0.05, 0.1, 0.3, 0.6]))
    options = dict(method=["aps", "raps", "lac", "aps"][trial % 4], alpha=alpha, random_state=trial)
    if options["method"] != "lac":
        options["rule"] = ["include_last", "randomized", "exact"][trial % 3]
    if trial % 9 == 0:
        options["mondrian"] = True
    return p[:n_cal], y, p[n_cal:], options


def arguments(description):
    "(the parsed arguments, the other commit's module, the cases' generator), shared by the equality scripts."
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--before", required=True)
    parser.add_argument("--calls", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # mondrian's small classes: both versions warn alike
    return args, load(args.before), np.random.default_rng(args.seed)


def main():
    args, before, rng = arguments(__doc__.splitlines()[0])
    same = errors = 0
    for trial in range(args.calls):
        cal, y, test, options = case(rng, trial)
        outcomes = []
        for module in (before, after):
            try:
                r = module.conformal_sets(cal, y, test, **options)
                outcomes.append((r.sets.tobytes(), np.float64(r.threshold).tobytes(), repr(r)))
            except (ValueError, TypeError) as error:
                outcomes.append((type(error).__name__, str(error)))
        if outcomes[0] != outcomes[1]:
            raise AssertionError(f"call {trial} {options} K={cal.shape[1]}: the versions differ")
        same += 1
        errors += len(outcomes[1]) == 2
    print(f"{same} of {args.calls} calls identical ({errors} of them the same error)")


if __name__ == "__main__":
    main()
