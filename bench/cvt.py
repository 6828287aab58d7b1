"""Benchmark of ciauto.cvt: CVT wall time with n_jobs=1 and 2 against a straightforward reference loop.

Run from the repo root:  python bench/cvt.py [--quick] [--full-adult] [--adult-rows N] [--out bench/out]

Each comparison times, on the same folds and seeds:
  cvt n=1    `cross_validate_configurations(..., n_jobs=1)`;
  cvt n=2    `cross_validate_configurations(..., n_jobs=2)` (asserted to give identical predictions);
  reference  (small grid on credit-g) a plain loop, one scikit-learn `cross_val_predict` per configuration,
             asserted to give the same predictions.
Default: credit-g and a stratified 10 000-row sample of adult with the small grid; the full grid (81 configurations)
fitted once per configuration on 9/10 of adult (one tenth of its CVT cost, per-configuration fit times); credit-g with
the full grid, n_jobs 1 vs 2; how cost grows with the rows (adult, small grid, 2 500 / 5 000 / 10 000 rows).
--quick: only the small-grid runs and the growth.  --full-adult: also the full grid on adult, n_jobs 1 vs 2 (hours
on 2 busy cores).  The machine is shared, so read the ratios, not the absolute seconds.
"""
import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.model_selection import cross_val_predict
from threadpoolctl import threadpool_limits

from ciauto.cvt import _encode_labels, _seeded, cross_validate_configurations, default_configurations
from ciauto.datasets import load_dataset


def adult_sample(n_rows, seed=0):
    X, y = load_dataset("adult")
    keep = y.groupby(y).sample(frac=n_rows / len(y), random_state=seed).index
    return X.loc[keep].reset_index(drop=True), y.loc[keep].reset_index(drop=True)


def reference_loop(X, y, configurations, folds, seed):
    "The straightforward way: one scikit-learn cross_val_predict per configuration, the same folds and seeds."
    codes, _ = _encode_labels(y.to_numpy())
    splits = [(np.flatnonzero(folds != f), np.flatnonzero(folds == f)) for f in range(folds.max() + 1)]
    seeds = np.random.SeedSequence(seed).generate_state(len(configurations) + 1, dtype=np.uint32)[1:]
    columns = []
    with threadpool_limits(limits=1):
        for config, s in zip(configurations, seeds):
            est = _seeded(config, int(s))
            method = "predict_proba" if hasattr(est, "predict_proba") else "decision_function"
            pred = cross_val_predict(est, X, codes, cv=splits, method=method)
            columns.append(pred[:, 1] if pred.ndim == 2 else pred)
    return np.column_stack(columns)


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def compare(name, X, y, grid, seed, out_dir, reference=True):
    "Reference loop vs CVT with n_jobs 1 and 2 on the same folds; returns a summary row."
    configurations = default_configurations(grid)
    print(f"\n== {name}: {len(X)} rows, grid {grid!r} ({len(configurations)} configurations)", flush=True)
    one, t1 = timed(cross_validate_configurations, X, y, configurations, random_state=seed, n_jobs=1, progress=False)
    print(f"cvt n_jobs=1: {t1:8.1f} s", flush=True)
    two, t2 = timed(cross_validate_configurations, X, y, configurations, random_state=seed, n_jobs=2, progress=False)
    print(f"cvt n_jobs=2: {t2:8.1f} s   speedup {t1 / t2:.2f}x", flush=True)
    assert np.array_equal(one.predictions, two.predictions), "n_jobs changed the predictions"
    row = {"data": name, "rows": len(X), "grid": grid, "configurations": len(configurations),
           "folds": one.n_folds, "fits": len(configurations) * one.n_folds, "cvt_n1_s": t1, "cvt_n2_s": t2,
           "speedup_n2": t1 / t2, "sum_fit_s": one.configurations["fit_seconds"].sum(),
           "winner": one.winner_name, "cv_auc": one.apparent}
    if reference:
        ref, tr = timed(reference_loop, X, y, configurations, one.folds, seed)
        assert np.allclose(ref, one.predictions), "the reference loop disagrees with CVT"
        print(f"reference   : {tr:8.1f} s   cvt n=1 / reference {t1 / tr:.2f}, cvt n=2 / reference {t2 / tr:.2f}")
        row |= {"reference_s": tr, "n1_over_reference": t1 / tr, "n2_over_reference": t2 / tr}
    table = one.configurations[["name", "family", "feature_selection", "cv_score", "fit_seconds"]]
    table.to_csv(out_dir / f"cvt_{name}_{grid}_configurations.csv", index=False)
    by_family = table.groupby(["family", "feature_selection"])["fit_seconds"].mean().unstack().round(2)
    print("mean CVT seconds per configuration (all folds), by family x feature selection:")
    print(by_family.to_string())
    return row


def probe(name, X, y, seed, out_dir):
    "Each full-grid configuration fitted once on 9/10 of the rows (one CVT fold), two at a time."
    configurations = default_configurations("full")
    codes, _ = _encode_labels(y.to_numpy())
    train = np.random.default_rng(seed).permutation(len(X))[: len(X) * 9 // 10]

    def fit_once(config):
        est = _seeded(config, seed)
        start = time.perf_counter()
        with threadpool_limits(limits=1):
            est.fit(X.iloc[train], codes[train])
        return time.perf_counter() - start

    print(f"\n== probe: the full grid fitted once on {len(train)} rows of {name} (n_jobs=2)", flush=True)
    seconds, total = timed(lambda: Parallel(n_jobs=2)(delayed(fit_once)(c) for c in configurations))
    table = pd.DataFrame({"name": [c.name for c in configurations], "family": [c.family for c in configurations],
                          "feature_selection": [c.feature_selection for c in configurations],
                          "one_fit_s": seconds})
    table.to_csv(out_dir / f"probe_{name}_full.csv", index=False)
    by_family = table.groupby(["family", "feature_selection"])["one_fit_s"].mean().unstack().round(2)
    print(by_family.to_string())
    print(f"probe wall time {total:.1f} s; sum of one fit per configuration {table.one_fit_s.sum():.1f} s "
          f"=> 10-fold full-grid CVT ~ {10 * table.one_fit_s.sum():.0f} s of fitting", flush=True)
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small grid only: no full-grid runs, no probe")
    parser.add_argument("--full-adult", action="store_true", help="also the full grid on adult (hours)")
    parser.add_argument("--adult-rows", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench/out")
    args = parser.parse_args()
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)

    # Cheapest and most informative first: each step prints as soon as it is done.
    X, y = load_dataset("credit-g")
    Xa, ya = adult_sample(args.adult_rows, args.seed)
    rows = [compare("credit-g", X, y, "small", args.seed, out_dir, reference=True),
            compare("adult", Xa, ya, "small", args.seed, out_dir, reference=False)]
    if not args.quick:
        probe("adult", Xa, ya, args.seed, out_dir)
        rows.append(compare("credit-g", X, y, "full", args.seed, out_dir, reference=False))

    print("\n== growth with rows: adult, small grid, n_jobs=2", flush=True)
    growth = []
    for n in (args.adult_rows // 4, args.adult_rows // 2):
        Xs, ys = adult_sample(n, args.seed)
        _, secs = timed(cross_validate_configurations, Xs, ys, default_configurations("small"), random_state=args.seed,
                        n_jobs=2, progress=False)
        growth.append((n, secs))
    growth.append((args.adult_rows, rows[1]["cvt_n2_s"]))
    for (n0, s0), (n1, s1) in zip(growth, growth[1:]):
        print(f"{n0:6d} -> {n1:6d} rows: time x{s1 / s0:.2f} (exponent {np.log(s1 / s0) / np.log(n1 / n0):.2f})")
    for n, s in growth:
        print(f"{n:6d} rows: {s:7.1f} s", flush=True)

    if args.full_adult:
        rows.append(compare("adult", Xa, ya, "full", args.seed, out_dir, reference=False))
    summary = pd.DataFrame(rows)
    summary.to_csv(out_dir / "cvt_summary.csv", index=False)
    print("\n== summary")
    print(summary.drop(columns=["winner"]).round(3).to_string(index=False))


if __name__ == "__main__":
    main()
