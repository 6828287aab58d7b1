"""Benchmark of ciauto.conformal and ciauto.prediction_sets: calibration bands, conformal metrics against sklearn's
roc_auc_score, the Monte Carlo calibration (and its n_jobs speed-up), and split-conformal prediction sets against a
straightforward per-point loop.

    python bench/conformal.py --quick  # smoke mode (seconds): small sizes, one repeat
    python bench/conformal.py          # n, M in {1e3, 1e4, 1e5}; Monte Carlo at n = 1e3
    python bench/conformal.py --full   # n, M in {1e3, ..., 1e6}; Monte Carlo at n = 1e3 and 1e4

The machine is shared, so every metric timing is printed as a ratio to `roc_auc_score` measured on the same data
in the same run (best of `--repeats`), next to the absolute seconds.
"""
import argparse
import itertools
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

from _timing import best_seconds, timed
from ciauto import conformal, prediction_sets

_FRESH = itertools.count(1)


def cold_band(n, method, **options):
    """Build a band the cache has not seen, so that its construction is what is timed: each call asks for a new
    delta a hair below 0.05 (the bands are cached by their arguments; the cost does not depend on delta)."""
    return conformal.calibration_band(n, 0.05 * (1 - 1e-9 * next(_FRESH)), method=method, **options)


def bench_bands(sizes, repeats):
    rows = []
    for n in sizes:
        row = {"n": n}
        for method, options in (("simes", {}), ("dkwm", {}), ("asymptotic", {}), ("monte_carlo", {"c": 3.0})):
            label = "monte_carlo (given c)" if method == "monte_carlo" else method
            row[label] = best_seconds(lambda: cold_band(n, method, **options), repeats)
        rows.append(row)
    return pd.DataFrame(rows).set_index("n")


def bench_metrics(sizes, repeats, seed=0):
    rng = np.random.default_rng(seed)
    conformal.conformal_metrics(rng.normal(size=10), rng.normal(size=10))  # compile the numba PR kernels first
    rows = []
    for n in sizes:
        for M in sizes:
            id_scores, ood_scores = rng.normal(size=n), rng.normal(1.0, 1.0, M)
            labels, pooled = np.r_[np.zeros(n), np.ones(M)], np.r_[id_scores, ood_scores]
            conformal.calibration_band(n, 0.05)  # warm: the band is cached and shared by every metric
            reference = best_seconds(lambda: roc_auc_score(labels, pooled), repeats)
            metrics = best_seconds(lambda: conformal.conformal_metrics(id_scores, ood_scores, delta=0.05), repeats)
            auroc = best_seconds(lambda: conformal.conformal_auroc(id_scores, ood_scores, delta=0.05), repeats)
            fpr = best_seconds(lambda: conformal.conformal_fpr_at_tpr(id_scores, ood_scores, delta=0.05), repeats)
            assert abs(conformal.conformal_metrics(id_scores, ood_scores).auroc - roc_auc_score(labels, pooled)) < 1e-9
            rows.append({"n": n, "M": M, "roc_auc_score_s": reference, "conformal_metrics_s": metrics,
                         "ratio_metrics": metrics / reference, "ratio_conformal_auroc": auroc / reference,
                         "ratio_conformal_fpr_at_tpr": fpr / reference})
    return pd.DataFrame(rows)


def bench_monte_carlo(sizes, n_simulations=10_000, delta=0.05, seed=0):
    rows = []
    for n in sizes:  # each (n, n_simulations, seed, n_jobs) is asked for once in this script: never a cache hit
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            band, watch = timed(conformal.get_band, n, delta, method="monte_carlo", n_simulations=n_simulations,
                                random_state=seed)
            seconds = watch.wall
        # the straightforward alternative: one big draw sorted at once (R x n doubles in memory)
        sort_only = timed(lambda: np.sort(np.random.RandomState(seed).uniform(size=(n_simulations, n)), axis=1))[1].wall
        rows.append({"n": n, "n_simulations": n_simulations, "seconds": seconds, "one_big_sort_s": sort_only,
                     "ratio_to_one_big_sort": seconds / sort_only, "c": band.c, "at_floor": band.at_floor,
                     "warnings": len(caught)})
    return pd.DataFrame(rows)


def bench_monte_carlo_jobs(n, n_simulations, delta=0.05, seed=0):
    "The same Monte Carlo band with n_jobs = 1 and 2 (threads): identical bands, and the speed-up."
    times, bands = {}, {}
    for n_jobs in (1, 2):  # n_jobs is part of the cache key: both bands are built here
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bands[n_jobs], watch = timed(conformal.calibration_band, n, delta, method="monte_carlo",
                                         n_simulations=n_simulations, random_state=seed, n_jobs=n_jobs)
            times[n_jobs] = watch.wall
    assert np.array_equal(bands[1], bands[2]), "n_jobs changed the band"
    return pd.DataFrame([{"n": n, "n_simulations": n_simulations, "n_jobs=1 s": times[1], "n_jobs=2 s": times[2],
                          "ratio (2 jobs / 1 job)": times[2] / times[1], "identical": True}])


def loop_aps_sets(cal, y, test, alpha, u_cal, u_test):
    "The straightforward reference: APS scores point by point and class by class in Python."
    def score(p, label, u):
        order = sorted(range(len(p)), key=lambda j: (-p[j], j))
        rank = order.index(label)
        return sum(p[j] for j in order[:rank]) + u * p[label]

    r = sorted(score(cal[i], y[i], u_cal[i]) for i in range(len(y)))
    k = int(np.ceil((len(r) + 1) * (1 - alpha)))
    q = r[k - 1]
    return np.array([[score(test[i], j, u_test[i]) <= q for j in range(test.shape[1])] for i in range(len(test))])


def bench_prediction_sets(sizes, n_classes=10, n_calibration=1000, alpha=0.1, seed=0, loop_limit=2000):
    "Randomised APS sets for m test points: conformal_sets against the per-point loop (run up to loop_limit rows)."
    rng = np.random.default_rng(seed)
    rows = []
    for m in sizes:
        probs = rng.dirichlet(np.ones(n_classes), n_calibration + m)
        labels = rng.integers(0, n_classes, n_calibration + m)
        cal, test, y = probs[:n_calibration], probs[n_calibration:], labels[:n_calibration]
        ours, watch = timed(prediction_sets.conformal_sets, cal, y, test, method="aps", randomized=True, alpha=alpha,
                            random_state=seed)
        seconds = watch.wall
        row = {"n_calibration": n_calibration, "m_test": m, "K": n_classes, "conformal_sets_s": seconds}
        if m <= loop_limit:
            g = np.random.default_rng(np.random.SeedSequence(seed))
            u_cal, u_test = g.random(n_calibration), g.random(m)
            reference, watch = timed(loop_aps_sets, cal, y, test, alpha, u_cal, u_test)
            row["loop_s"] = watch.wall
            row["ratio (ours / loop)"] = seconds / row["loop_s"]
            row["identical"] = bool(np.array_equal(ours.sets, reference))
        rows.append(row)
    return pd.DataFrame(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="up to n = M = 1e6 and the Monte Carlo band at n = 1e4")
    parser.add_argument("--quick", action="store_true", help="smoke mode: small sizes, one repeat (seconds)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sizes = [10**3, 10**4, 10**5, 10**6] if args.full else [10**3, 10**4, 10**5]
    if args.quick:
        sizes, args.repeats = [10**3, 10**4], 1
    pd.set_option("display.width", 200)
    print("Band construction, seconds (no cache):")
    print(bench_bands(sizes, args.repeats).to_string(float_format=lambda x: f"{x:.4f}"))
    print("\nMetrics (band cached) against roc_auc_score on the same data:")
    print(bench_metrics(sizes, args.repeats).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print("\nMonte Carlo calibration, 10 000 simulations, delta = 0.05, seed 0:")
    print(bench_monte_carlo([300] if args.quick else [10**3, 10**4] if args.full else [10**3]).to_string(
        index=False, float_format=lambda x: f"{x:.3f}"))
    print("\nMonte Carlo calibration with n_jobs = 1 and 2 (threads; the band must be identical):")
    mc_n, mc_r = (300, 2_000) if args.quick else (10**4, 10_000) if args.full else (10**3, 10_000)
    print(bench_monte_carlo_jobs(mc_n, mc_r).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print("\nRandomised APS prediction sets (K = 10, n = 1000) against a per-point Python loop:")
    ps_sizes = [200, 1000] if args.quick else [10**3, 10**4, 10**5, 10**6] if args.full else [10**3, 10**4, 10**5]
    print(bench_prediction_sets(ps_sizes).to_string(index=False, float_format=lambda x: f"{x:.4f}"))


if __name__ == "__main__":
    main()
