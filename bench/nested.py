"""Benchmark: CVT + BBC against nested cross-validation, the yardstick users compare BBC with.

Run from the repo root:  nice -n 10 python bench/nested.py [--quick] [--repeats R] [--train-rows N] [--seed S]

For each embedded dataset (credit-g, breast-w by default) and each of R repetitions, a stratified random split
gives a training part of N rows and a held-out part (the rest, at most 1 000 rows). On the training part:
  cvt+bbc   `cross_validate_configurations` (F = 5 folds) picks the winner; `bbc(result)` (B = 1000) estimates its
            performance; the apparent value (the winner's CV mean) is reported too;
  nested    `nested_cross_validation` with K = 5 outer and F = 5 inner folds; its estimate is the mean outer score.
The held-out truth is what the user deploys: CVT's winner refit on the whole training part (its `final_model`),
scored on the held-out part. Each estimate's error is estimate − truth; over the repetitions the table gives its
bias (mean error), spread (s.d. of the error) and RMSE, as the BBC-CV literature compares them (Tsamardinos,
Greasidou & Borboudakis 2018, §5). Nested CV estimates the *procedure* on 4/5 of the training rows, not this
winner, and gives no final model: a user still runs CVT on all rows for that, so its cost is given alone and
with the final CVT ("nested + final").

Costs, measured in the same process and run under the same load: model fits (CVT: C·F + 1 refit; nested:
K·(C·F + 1)) and CPU seconds (process time; everything runs in this one process, n_jobs=1). ROC AUC throughout;
a small grid of six fast configurations, so the repetitions take minutes.
--quick: two datasets, one repetition, 150 training rows, three configurations, 3 folds (a smoke test).
The machine is shared: read the ratios, not the absolute seconds.
"""
import argparse
import warnings

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from _timing import timed
from ciauto.bbc import bbc
from ciauto.cvt import cross_validate_configurations, nested_cross_validation, predict_scores, preprocessor
from ciauto.datasets import load_dataset
from ciauto.metrics import roc_auc


def grid(quick: bool) -> list:
    "Six fast, diverse configurations (three with --quick), each with ciauto's default preprocessing."
    models = [("logistic(C=0.01)", LogisticRegression(C=0.01, max_iter=2000)),
              ("logistic(C=1)", LogisticRegression(C=1, max_iter=2000)),
              ("knn(k=15)", KNeighborsClassifier(n_neighbors=15, weights="distance")),
              ("tree(leaf=4)", DecisionTreeClassifier(min_samples_leaf=4, ccp_alpha=0.01)),
              ("rbf_svm(C=1)", SVC(C=1, gamma=0.01)),
              ("forest(50)", RandomForestClassifier(n_estimators=50, min_samples_leaf=2))]
    models = models[:3] if quick else models
    return [(name, make_pipeline(preprocessor(), model)) for name, model in models]


def split(y: pd.Series, n_train: int, max_test: int, rng) -> tuple[np.ndarray, np.ndarray]:
    "A stratified random split: n_train training rows, at most max_test held-out rows."
    train, test = [], []
    for label in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y.to_numpy() == label))
        k = int(round(n_train * len(rows) / len(y)))
        train.append(rows[:k])
        test.append(rows[k:])
    test = rng.permutation(np.concatenate(test))[:max_test]
    return np.sort(np.concatenate(train)), np.sort(test)


def repetition(X, y, configurations, n_train, folds, seed) -> dict:
    rng = np.random.default_rng(seed)
    train, test = split(y, n_train, 1000, rng)
    X_train, y_train, X_test = X.iloc[train], y.iloc[train], X.iloc[test]
    result, cvt_watch = timed(cross_validate_configurations, X_train, y_train, configurations, n_folds=folds,
                              random_state=seed, progress=False)
    corrected, bbc_watch = timed(bbc, result, n_bootstraps=1000, random_state=seed, progress=False)
    codes_test = (y.iloc[test] == result.pos_label).astype(int).to_numpy()
    truth = roc_auc(codes_test, predict_scores(result.final_model, X_test.reset_index(drop=True), 2))
    nested, nested_watch = timed(nested_cross_validation, X_train, y_train, configurations, outer=folds,
                                 inner=folds, random_state=seed, progress=False)
    cvt_cpu, bbc_cpu, nested_cpu = cvt_watch.cpu, bbc_watch.cpu, nested_watch.cpu  # process CPU seconds
    return {"truth": truth, "apparent": result.apparent, "bbc": corrected.estimate, "nested": nested.estimate,
            "cvt_fits": result.n_fits + 1, "nested_fits": nested.n_fits, "cvt_cpu": cvt_cpu, "bbc_cpu": bbc_cpu,
            "nested_cpu": nested_cpu, "nested_winners": len(set(nested.winners)), "winner": result.winner_name}


def summary(rows: pd.DataFrame) -> pd.DataFrame:
    out = []
    for estimate in ("apparent", "bbc", "nested"):
        error = rows[estimate] - rows["truth"]
        out.append({"estimate": {"apparent": "CVT apparent (no correction)", "bbc": "CVT + BBC",
                                 "nested": "nested CV"}[estimate],
                    "mean": rows[estimate].mean(), "bias": error.mean(), "spread (s.d. of error)": error.std(ddof=1),
                    "RMSE": float(np.sqrt((error ** 2).mean()))})
    return pd.DataFrame(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke test: 1 repetition, 150 rows, 3 configurations")
    parser.add_argument("--repeats", type=int, default=8, help="held-out splits per dataset")
    parser.add_argument("--train-rows", type=int, default=300, help="rows of each training part")
    parser.add_argument("--datasets", default="credit-g,breast-w", help="comma-separated embedded datasets")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    repeats, n_train, folds = (1, 150, 3) if args.quick else (args.repeats, args.train_rows, 5)
    configurations = grid(args.quick)
    print(f"{len(configurations)} configurations, {folds} folds (nested: {folds} outer × {folds} inner), "
          f"{n_train} training rows, {repeats} repetition(s) per dataset; ROC AUC; n_jobs=1 (shared, loaded machine)")
    rows = []
    warnings.simplefilter("ignore")  # convergence and small-class warnings of the small grid
    with threadpool_limits(1):
        X, y = load_dataset("breast-w")  # warm-up, untimed: first-call costs (imports, caches) hit neither side
        repetition(X, y, configurations[:2], 60, 3, args.seed)
        for name in args.datasets.split(","):
            X, y = load_dataset(name)
            for r in range(repeats):
                row = repetition(X, y, configurations, n_train, folds, args.seed + 1000 * r + 7)
                rows.append({"dataset": name, "split": r, **row})
                print(f"  {name} split {r}: truth {row['truth']:.4f}  apparent {row['apparent']:.4f}  "
                      f"bbc {row['bbc']:.4f}  nested {row['nested']:.4f}  (CPU s: cvt {row['cvt_cpu']:.1f} + bbc "
                      f"{row['bbc_cpu']:.2f}, nested {row['nested_cpu']:.1f})", flush=True)
    rows = pd.DataFrame(rows)
    pd.set_option("display.width", 160)
    for name, part in rows.groupby("dataset", sort=False):
        print(f"\n{name}: estimate − held-out truth over {len(part)} split(s) (truth mean {part['truth'].mean():.4f})")
        print(summary(part).to_markdown(index=False, floatfmt=".4f"))
    if rows["dataset"].nunique() > 1:
        print(f"\nall datasets ({len(rows)} splits)")
        print(summary(rows).to_markdown(index=False, floatfmt=".4f"))
    cvt_fits, nested_fits = rows["cvt_fits"].sum(), rows["nested_fits"].sum()
    cvt_bbc_cpu, nested_cpu = (rows["cvt_cpu"] + rows["bbc_cpu"]).sum(), rows["nested_cpu"].sum()
    cost = pd.DataFrame([
        {"": "CVT + BBC", "fits": cvt_fits, "CPU s": cvt_bbc_cpu, "fits ratio": 1.0, "CPU ratio": 1.0},
        {"": "nested CV", "fits": nested_fits, "CPU s": nested_cpu, "fits ratio": nested_fits / cvt_fits,
         "CPU ratio": nested_cpu / cvt_bbc_cpu},
        {"": "nested + final CVT", "fits": nested_fits + cvt_fits, "CPU s": nested_cpu + rows["cvt_cpu"].sum(),
         "fits ratio": (nested_fits + cvt_fits) / cvt_fits,
         "CPU ratio": (nested_cpu + rows["cvt_cpu"].sum()) / cvt_bbc_cpu}])
    print(f"\ncost over all {len(rows)} splits (BBC's share of CVT + BBC: {rows['bbc_cpu'].sum():.1f} CPU s)")
    print(cost.to_markdown(index=False, floatfmt=".2f"))
    print(f"\nratio nested CV / (CVT + BBC): fits {nested_fits / cvt_fits:.2f}×, CPU seconds "
          f"{nested_cpu / cvt_bbc_cpu:.2f}×; distinct nested winners per split: "
          f"{rows['nested_winners'].mean():.1f} on average")


if __name__ == "__main__":
    main()
