"""ciauto.metrics against scikit-learn on the same data: ROC AUC (unweighted and with bootstrap weights) and PR AUC.

Run from the repo root: `python bench/metrics.py` (N up to 10^6) or `python bench/metrics.py --full` (up to 10^7).
Prints the median seconds of each, the ratio (scikit-learn / ciauto) and ns per row / log2(N), whose flatness
shows the N log N growth.
"""
import argparse
import math
import sys
from pathlib import Path

import numpy as np
from sklearn import metrics as skm

sys.path.insert(0, str(Path(__file__).parents[1]))
from bench._timing import median_seconds  # noqa: E402
from ciauto.metrics import pr_auc, roc_auc  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="go up to N = 10^7")
    args = parser.parse_args(argv)
    sizes = [10**k for k in range(3, 8 if args.full else 7)]
    rng = np.random.default_rng(0)
    print(f"{'case':<22}{'N':>10}{'ciauto s':>12}{'sklearn s':>12}{'ratio':>8}{'ns/(N log2 N)':>15}")
    for n in sizes:
        y = rng.integers(0, 2, n)
        s = np.round(rng.normal(size=n) + y, 3)  # some ties, as real scores have
        w = rng.multinomial(n, np.full(n, 1 / n)).astype(float)  # bootstrap multiplicities
        assert math.isclose(roc_auc(y, s), skm.roc_auc_score(y, s), rel_tol=1e-12)
        repeats = 3 if n >= 10**6 else 7
        cases = [
            ("roc_auc", lambda: roc_auc(y, s), lambda: skm.roc_auc_score(y, s)),
            ("roc_auc (weights)", lambda: roc_auc(y, s, sample_weight=w),
             lambda: skm.roc_auc_score(y, s, sample_weight=w)),
            ("pr_auc", lambda: pr_auc(y, s), lambda: skm.auc(*skm.precision_recall_curve(y, s)[1::-1])),
        ]
        for name, ours, theirs in cases:
            t_ours = median_seconds(ours, repeats=repeats)
            t_ref = median_seconds(theirs, repeats=repeats)
            print(f"{name:<22}{n:>10}{t_ours:>12.5f}{t_ref:>12.5f}{t_ref / t_ours:>8.1f}"
                  f"{1e9 * t_ours / (n * math.log2(n)):>15.2f}")


if __name__ == "__main__":
    main()
