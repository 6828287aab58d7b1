"""ciauto.metrics against scikit-learn on the same data, measured in the same run.

Cases: ROC AUC (unweighted, with bootstrap multiplicities, and with the same multiplicities scaled by 1e160, which
the metric rescales), PR AUC (trapezoid, against `auc(precision_recall_curve)`) and average precision.

Run from the repo root: `python bench/metrics.py` (N = 10^3 … 10^6), `--full` (up to 10^7) or `--quick` (a smoke
run: N = 10^4 and 10^6, fewer repeats, about half a minute). Prints the median seconds of each, the ratio
(scikit-learn / ciauto) and ns per N·log2 N, whose flatness shows the N log N growth; the last line says whether
the goal (roc_auc at least 5× faster than scikit-learn at N = 10^6) holds in this run.
"""
import argparse
import math
import sys

import numpy as np
from sklearn import metrics as skm

from _timing import median_seconds
from ciauto.metrics import average_precision, pr_auc, roc_auc

GOAL_N, GOAL_RATIO = 10**6, 5.0


def cases(n, rng, quick):
    "(name, ours, theirs) for one size; the data has ties, as real scores have."
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 3)
    w = rng.multinomial(n, np.full(n, 1 / n)).astype(float)  # bootstrap multiplicities
    assert math.isclose(roc_auc(y, s), skm.roc_auc_score(y, s), rel_tol=1e-12)
    assert math.isclose(roc_auc(y, s, sample_weight=w * 1e160), skm.roc_auc_score(y, s, sample_weight=w),
                        rel_tol=1e-12)
    out = [("roc_auc", lambda: roc_auc(y, s), lambda: skm.roc_auc_score(y, s)),
           ("roc_auc (weights)", lambda: roc_auc(y, s, sample_weight=w),
            lambda: skm.roc_auc_score(y, s, sample_weight=w))]
    if quick:
        return out
    return out + [
        ("roc_auc (weights 1e160)", lambda: roc_auc(y, s, sample_weight=w * 1e160),
         lambda: skm.roc_auc_score(y, s, sample_weight=w * 1e160)),
        ("pr_auc", lambda: pr_auc(y, s), lambda: skm.auc(*skm.precision_recall_curve(y, s)[1::-1])),
        ("average_precision", lambda: average_precision(y, s), lambda: skm.average_precision_score(y, s)),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--full", action="store_true", help="go up to N = 10^7")
    mode.add_argument("--quick", action="store_true", help="smoke run: N = 10^4 and 10^6, fewer repeats")
    args = parser.parse_args(argv)
    sizes = [10**4, 10**6] if args.quick else [10**k for k in range(3, 8 if args.full else 7)]
    rng = np.random.default_rng(0)
    print(f"{'case':<25}{'N':>10}{'ciauto s':>12}{'sklearn s':>12}{'ratio':>8}{'ns/(N log2 N)':>15}")
    goal = None
    for n in sizes:
        repeats = (3 if n >= 10**6 else 5) if args.quick else (3 if n >= 10**6 else 7)
        for name, ours, theirs in cases(n, rng, args.quick):
            t_ours = median_seconds(ours, repeats=repeats)
            t_ref = median_seconds(theirs, repeats=repeats)
            print(f"{name:<25}{n:>10}{t_ours:>12.5f}{t_ref:>12.5f}{t_ref / t_ours:>8.1f}"
                  f"{1e9 * t_ours / (n * math.log2(n)):>15.2f}", flush=True)
            if name == "roc_auc" and n == GOAL_N:
                goal = t_ref / t_ours
    if goal is not None:
        verdict = "met" if goal >= GOAL_RATIO else "NOT met"
        print(f"goal: roc_auc >= {GOAL_RATIO:g}x scikit-learn at N = {GOAL_N:.0e}: {goal:.1f}x, {verdict}")
    return 0  # a speed goal is reported, never a failure: timings move with the machine's load


if __name__ == "__main__":
    sys.exit(main())
