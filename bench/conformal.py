"""Benchmark of ciauto.conformal: calibration bands, conformal metrics against sklearn's roc_auc_score, and the
Monte Carlo calibration.

    python bench/conformal.py          # n, M in {1e3, 1e4, 1e5}; Monte Carlo at n = 1e3
    python bench/conformal.py --full   # n, M in {1e3, ..., 1e6}; Monte Carlo at n = 1e3 and 1e4

The machine is shared, so every metric timing is printed as a ratio to `roc_auc_score` measured on the same data
in the same run (best of `--repeats`), next to the absolute seconds.
"""
import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from ciauto import conformal


def best_time(func, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def cold_band(n, method, **options):
    "Build a band without the cache, so that its construction is what is timed."
    conformal._build_band_cached.cache_clear()
    return conformal.calibration_band(n, 0.05, method=method, **options)


def bench_bands(sizes, repeats):
    rows = []
    for n in sizes:
        row = {"n": n}
        for method, options in (("simes", {}), ("dkwm", {}), ("asymptotic", {}), ("monte_carlo", {"c": 3.0})):
            label = "monte_carlo (given c)" if method == "monte_carlo" else method
            row[label] = best_time(lambda: cold_band(n, method, **options), repeats)
        rows.append(row)
    return pd.DataFrame(rows).set_index("n")


def bench_metrics(sizes, repeats, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        for M in sizes:
            id_scores, ood_scores = rng.normal(size=n), rng.normal(1.0, 1.0, M)
            labels, pooled = np.r_[np.zeros(n), np.ones(M)], np.r_[id_scores, ood_scores]
            conformal.calibration_band(n, 0.05)  # warm: the band is cached and shared by every metric
            reference = best_time(lambda: roc_auc_score(labels, pooled), repeats)
            metrics = best_time(lambda: conformal.conformal_metrics(id_scores, ood_scores, delta=0.05), repeats)
            auroc = best_time(lambda: conformal.conformal_auroc(id_scores, ood_scores, delta=0.05), repeats)
            fpr = best_time(lambda: conformal.conformal_fpr_at_tpr(id_scores, ood_scores, delta=0.05), repeats)
            assert abs(conformal.conformal_metrics(id_scores, ood_scores).auroc - roc_auc_score(labels, pooled)) < 1e-9
            rows.append({"n": n, "M": M, "roc_auc_score_s": reference, "conformal_metrics_s": metrics,
                         "ratio_metrics": metrics / reference, "ratio_conformal_auroc": auroc / reference,
                         "ratio_conformal_fpr_at_tpr": fpr / reference})
    return pd.DataFrame(rows)


def bench_monte_carlo(sizes, n_simulations=10_000, delta=0.05, seed=0):
    rows = []
    for n in sizes:
        conformal._build_band_cached.cache_clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            start = time.perf_counter()
            band = conformal.get_band(n, delta, method="monte_carlo", n_simulations=n_simulations, random_state=seed)
            seconds = time.perf_counter() - start
        # the straightforward alternative: one big draw sorted at once (R x n doubles in memory)
        start = time.perf_counter()
        u = np.sort(np.random.RandomState(seed).uniform(size=(n_simulations, n)), axis=1)
        sort_only = time.perf_counter() - start
        del u
        rows.append({"n": n, "n_simulations": n_simulations, "seconds": seconds, "one_big_sort_s": sort_only,
                     "ratio_to_one_big_sort": seconds / sort_only, "c": band.c, "at_floor": band.at_floor,
                     "warnings": len(caught)})
    return pd.DataFrame(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="up to n = M = 1e6 and the Monte Carlo band at n = 1e4")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sizes = [10**3, 10**4, 10**5, 10**6] if args.full else [10**3, 10**4, 10**5]
    pd.set_option("display.width", 200)
    print("Band construction, seconds (no cache):")
    print(bench_bands(sizes, args.repeats).to_string(float_format=lambda x: f"{x:.4f}"))
    print("\nMetrics (band cached) against roc_auc_score on the same data:")
    print(bench_metrics(sizes, args.repeats).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print("\nMonte Carlo calibration, 10 000 simulations, delta = 0.05, seed 0:")
    print(bench_monte_carlo([10**3, 10**4] if args.full else [10**3]).to_string(
        index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
