"""Timing of ciauto.adapters against the straightforward routes, measured in the same run.

- `from_search` re-fits every candidate on every fold; the straightforward route is one `cross_val_predict` per
  candidate plus the fold scores. Both do the same fits, so the ratio should be about 1 on one core (the
  overhead of the adapter), and below 1 with n_jobs=2 when the machine has two idle cores.
- `from_oof` on a wide and a long CSV file against `pandas.read_csv` of the same file alone (the cost of the
  checks, the pivot and the fold scores on top of reading).
- `capture_predictions`: a search fitted and then `from_search` (which cross-validates every candidate again)
  against the same search prepared by `capture_predictions`, fitted, then `from_search` (which fits nothing).
- The import of `from ciauto.adapters import from_oof` in a fresh interpreter (what `ciauto bbc --predictions`
  pays before reading), and whether it loads scikit-learn.

    python bench/adapters.py           # writes bench/out/adapters.md
    python bench/adapters.py --quick   # smoke test, tiny sizes
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from _timing import median_seconds
from ciauto.adapters import capture_predictions, from_oof, from_search, to_oof


def straightforward_search(search, X, y):
    "One cross_val_predict per candidate and its fold AUCs: what a user would write by hand."
    cv = search.cv
    folds = np.empty(len(y), int)
    for f, (_, test) in enumerate(cv.split(X, y)):
        folds[test] = f
    columns = []
    for params in search.cv_results_["params"] if hasattr(search, "cv_results_") else search.param_grid_list:
        model = search.estimator.set_params(**params)
        columns.append(cross_val_predict(model, X, y, cv=cv, method="predict_proba")[:, 1])
    P = np.column_stack(columns)
    return np.array([[roc_auc_score(y[folds == f], P[folds == f, c]) for c in range(P.shape[1])]
                     for f in range(folds.max() + 1)])


def search_setup():
    "The searches' data and model: breast cancer, scaled logistic regression, shuffled stratified 5-fold."
    X, y = load_breast_cancer(return_X_y=True)
    return X, y, make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)), StratifiedKFold(
        5, shuffle=True, random_state=0)


def search_rows(candidates_list, repeats):
    X, y, pipe, cv = search_setup()
    rows = []
    for n_candidates in candidates_list:
        grid = {"logisticregression__C": list(np.logspace(-3, 2, n_candidates))}
        search = GridSearchCV(pipe, grid, cv=cv, scoring="roc_auc")
        search.param_grid_list = [{"logisticregression__C": c} for c in grid["logisticregression__C"]]
        ours = median_seconds(lambda: from_search(search, X, y, n_jobs=1), repeats=repeats, min_total=0)
        two = median_seconds(lambda: from_search(search, X, y, n_jobs=2), repeats=repeats, min_total=0)
        reference = median_seconds(lambda: straightforward_search(search, X, y), repeats=repeats, min_total=0)
        rows.append((n_candidates, ours, two, reference))
        print(f"| {n_candidates} | {ours:.2f} s | {two:.2f} s | {reference:.2f} s | {reference / ours:.2f}× | "
              f"{ours / two:.2f}× |", flush=True)
    return rows


def cpu_seconds(f, repeats):
    "Median CPU seconds of this process over `repeats` calls (one BLAS thread): steadier than wall time under load."
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1):
        return median_seconds(f, repeats=repeats, min_total=0, warmup=False, clock="cpu")


def capture_rows(candidates_list, repeats):
    "CPU seconds of fit + from_search without and with capture_predictions, same search, same run."
    X, y, pipe, cv = search_setup()
    rows = []
    for n_candidates in candidates_list:
        grid = {"logisticregression__C": list(np.logspace(-3, 2, n_candidates))}

        def refit():
            search = GridSearchCV(pipe, grid, cv=cv, scoring="roc_auc").fit(X, y)
            return from_search(search, X, y, n_jobs=1)

        def captured():
            search = capture_predictions(GridSearchCV(pipe, grid, cv=cv, scoring="roc_auc")).fit(X, y)
            return from_search(search, X, y)

        assert np.allclose(refit().predictions, captured().predictions, atol=1e-8)
        before, after = (cpu_seconds(f, max(repeats, 3)) for f in (refit, captured))
        fits_before, fits_after = 2 * n_candidates * 5 + 1, n_candidates * 5 + 1
        rows.append((n_candidates, fits_before, before, fits_after, after))
        print(f"| {n_candidates} | {fits_before} | {before:.2f} s | {fits_after} | {after:.2f} s | "
              f"{before / after:.2f}× |", flush=True)
    return rows


def import_rows(repeats):
    "Fresh-interpreter seconds of the table path's import, and whether scikit-learn/scipy's own modules load."
    import subprocess
    probe = ("import sys; from _timing import timed; _, watch = timed(__import__, 'ciauto.adapters'); "
             "print(watch.wall, 'sklearn' in sys.modules, 'scipy.stats' in sys.modules)")
    here = Path(__file__).resolve().parent  # the child imports this checkout's package and the timing helper
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here.parent), str(here)])}
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env).stdout.split()
            for _ in range(max(repeats, 3))]
    seconds = float(np.median([float(r[0]) for r in runs]))
    print(f"| `from ciauto.adapters import from_oof` | {seconds:.2f} s | {runs[0][1]} | {runs[0][2]} |", flush=True)
    return [(seconds, runs[0][1], runs[0][2])]


def oof_rows(sizes, repeats):
    rows = []
    folder = Path(tempfile.mkdtemp())
    for n, c in sizes:
        rng = np.random.default_rng(0)
        y = np.tile([0, 1], n // 2)
        table = pd.DataFrame(rng.random((n, c)), columns=[f"configuration {j}" for j in range(c)])
        table.insert(0, "fold", (np.arange(n) // 2) % 10)
        table.insert(0, "y", y)
        wide = folder / f"wide_{n}_{c}.csv"
        table.to_csv(wide, index=False)
        result = from_oof(wide)
        long = folder / f"long_{n}_{c}.csv"
        to_oof(result, "long", long)
        for layout, path in (("wide", wide), ("long", long)):
            read = median_seconds(lambda: pd.read_csv(path), repeats=repeats, min_total=0)
            ours = median_seconds(lambda: from_oof(path, layout=layout), repeats=repeats, min_total=0)
            rows.append((layout, n, c, ours, read))
            print(f"| {layout} | {n} | {c} | {ours:.2f} s | {read:.2f} s | {ours / read:.2f}× |", flush=True)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke test: tiny sizes, one repetition")
    parser.add_argument("--out", default=str(Path(__file__).parent / "out" / "adapters.md"))
    args = parser.parse_args(argv)
    candidates, sizes, repeats = (([2], [(200, 5)], 1) if args.quick else ([4, 8, 16], [(2000, 50), (20000, 100)], 2))
    head = [f"# Timing of ciauto.adapters ({'quick' if args.quick else 'default'} run)", "",
            f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average "
            f"{os.getloadavg()[0]:.1f} at the start (shared machine: ratios measured in the same run are what "
            f"counts). Medians of {repeats} calls.", "",
            "## from_search vs one cross_val_predict per candidate (breast cancer, 569 rows, 5 folds)", "",
            "| candidates | from_search n_jobs=1 | n_jobs=2 | straightforward | ratio (straightforward / ours) | "
            "n_jobs=2 speed-up |", "| --- | --- | --- | --- | --- | --- |"]
    print("\n".join(head))
    rows = search_rows(candidates, repeats)
    growth = []
    if len(rows) > 1:
        slope = np.polyfit(np.log([r[0] for r in rows]), np.log([r[1] for r in rows]), 1)[0]
        growth = ["", f"Growth with the number of candidates: log-log slope **{slope:.2f}** (1 = linear: one fit per "
                      "candidate and fold, nothing else grows)."]
        print(growth[-1])
    oof_head = ["", "## from_oof vs reading the same CSV with pandas", "",
                "| layout | rows | configurations | from_oof | pandas.read_csv | ratio |", "| --- | --- | --- | --- | --- | --- |"]
    print("\n".join(oof_head))
    table_rows = oof_rows(sizes, repeats)
    capture_head = ["", "## capture_predictions: the search's own fits only (breast cancer, 5 folds)", "",
                    "| candidates | fits without | CPU: fit + from_search | fits with capture | CPU: fit + from_search | "
                    "ratio |", "| --- | --- | --- | --- | --- | --- |"]
    print("\n".join(capture_head))
    captured = capture_rows(candidates, repeats)
    import_head = ["", "## The table path's import (fresh interpreter)", "",
                   "| statement | seconds (median) | loads sklearn | loads scipy.stats |", "| --- | --- | --- | --- |"]
    print("\n".join(import_head))
    imports = import_rows(repeats)
    lines = head + [f"| {n} | {a:.2f} s | {b:.2f} s | {r:.2f} s | {r / a:.2f}× | {a / b:.2f}× |" for n, a, b, r in rows]
    lines += growth + oof_head + [f"| {layout} | {n} | {c} | {a:.2f} s | {r:.2f} s | {a / r:.2f}× |"
                                  for layout, n, c, a, r in table_rows]
    lines += capture_head + [f"| {n} | {fb} | {b:.2f} s | {fa} | {a:.2f} s | {b / a:.2f}× |"
                             for n, fb, b, fa, a in captured]
    lines += import_head + [f"| `from ciauto.adapters import from_oof` | {t:.2f} s | {k} | {sp} |"
                            for t, k, sp in imports]
    if args.quick:
        print("quick run: nothing written")
        return
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
