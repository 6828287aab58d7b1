"""The literature's yardsticks (corrected t, Tibshirani & Tibshirani, conservative Z, nested CV) beside BBC.

Run from the repository root:  python bench/yardsticks.py --quick   (smoke test: seconds)
                               python bench/yardsticks.py --sim 200  (CT and TT on the simulation grid: the same
                                   simulated data as bench/results/sim_default_200, saved per setting to
                                   bench/results/sim_yardsticks_200/)
                               python bench/yardsticks.py --coverage 500  (CT and NCV without selection: coverage of
                                   what each estimates, against a 20 000-row holdout; chunks of 50 data sets in
                                   bench/results/yardsticks_coverage/, resumable)
                               python bench/yardsticks.py --real-data 50  (the real-data study of bench/study.md,
                                   phoneme, phishing-websites and mozilla4, re-run in reproduction mode with the paper's
                                   ten methods and the four yardsticks; chunks of 4 splits in
                                   bench/results/real_yardsticks_81c/, resumable: rerun the same command)
                               python bench/yardsticks.py --report  (the tables of bench/yardsticks.md)
"""
import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from ciauto.intervals import corrected_t_bound, ncv_interval
from ciauto.metrics import roc_auc
from ciauto.simulation import paper_settings
from ciauto.study import (PAPER_DATASETS, PAPER_METHODS, YARDSTICK_METHODS, reference_options, run_real_data_study,
                          run_simulation_study, setting_label, summarize)

try:  # imported as bench.yardsticks
    from ._timing import Stopwatch
    from .study import REAL_COLUMNS, _contiguous, _dask_context, load_real_records, spread_grid
except ImportError:  # run as a script: bench/ is first on sys.path
    from _timing import Stopwatch
    from study import REAL_COLUMNS, _contiguous, _dask_context, load_real_records, spread_grid

RESULTS = Path(__file__).parent / "results"
REAL_DATASETS = ("phoneme", "phishing-websites", "mozilla4")


def _stem(label: str) -> str:
    return label.replace(" ", "_").replace("=", "").replace(",", "-")


def simulation_grid(n_runs: int = 200, seed: int = 2024, folder: Path | None = None, settings=None):
    """CT and TT on the paper's 16 binary settings, `n_runs` runs each, seed 2024: the runs are keyed by setting and
    index, so the simulated Π equal those behind bench/results/sim_default_200 and the records join them."""
    folder = Path(folder or RESULTS / f"sim_yardsticks_{n_runs}")
    folder.mkdir(parents=True, exist_ok=True)
    if settings is None:
        grid = paper_settings()
        settings = [dict(r) for _, r in grid[grid["main_table"]].iterrows()]
    for row in settings:
        target = folder / f"{_stem(setting_label({'n_classes': 2, 'balance': 0.5, **row}))}.csv.gz"
        if target.exists():
            continue
        with Stopwatch() as watch:
            runs = run_simulation_study(row, n_runs=n_runs, random_state=seed, methods=["CT", "TT"], progress=False)
        runs.assign(mode="default", seed=seed).to_csv(target, index=False, float_format="%.10g")
        print(f"{target.name}: {len(runs)} records in {watch.wall:.0f} s", flush=True)


def _gaussian_data(rng, n, p=10, signal=1.0):
    "Two Gaussian classes (balanced on average) that differ in the first p/2 coordinates' means: a logistic model."
    y = rng.integers(0, 2, size=n)
    X = rng.normal(size=(n, p))
    X[:, : p // 2] += signal * (y[:, None] - 0.5)
    return X, y


def misclassification(y, scores):
    "Per-row 0/1 loss of the rule score > 1/2 (Bates et al.'s loss)."
    return (np.asarray(y) != (np.asarray(scores) > 0.5)).astype(float)


def coverage_run(index: int, n: int = 100, n_folds: int = 10, ncv_folds: int = 5, n_repeats: int = 20,
                 n_holdout: int = 20_000, seed: int = 37) -> dict:
    """One simulated data set without selection (LDA on n rows): CT (AUC and accuracy, 10-fold CV), NCV (AUC and
    misclassification, K = 5) and the naive CV interval; their truths from a holdout of `n_holdout` rows."""
    rng = np.random.default_rng([seed, index])
    X, y = _gaussian_data(rng, n)
    X_hold, y_hold = _gaussian_data(rng, n_holdout)
    model = LinearDiscriminantAnalysis()
    folds = np.empty(n, int)
    for k in (0, 1):  # stratified 10-fold assignment
        members = rng.permutation(np.flatnonzero(y == k))
        folds[members] = np.arange(members.size) % n_folds
    fold_auc, fold_acc, fold_truth_auc, fold_truth_acc, errors = [], [], [], [], []
    for f in range(n_folds):
        fit = model.fit(X[folds != f], y[folds != f])
        s = fit.predict_proba(X[folds == f])[:, 1]
        fold_auc.append(roc_auc(y[folds == f], s))
        fold_acc.append(1 - misclassification(y[folds == f], s).mean())
        errors.append(misclassification(y[folds == f], s))
        hold = fit.predict_proba(X_hold)[:, 1]  # the model trained on n1 rows, on the holdout: Err at n1 for this draw
        fold_truth_auc.append(roc_auc(y_hold, hold))
        fold_truth_acc.append(1 - misclassification(y_hold, hold).mean())
    full = model.fit(X, y).predict_proba(X_hold)[:, 1]
    sizes = np.bincount(folds)
    n_test = sizes.mean()
    errors = np.concatenate(errors)
    z90 = stats.norm.ppf(0.95)
    ncv_auc = ncv_interval(LinearDiscriminantAnalysis(), X, y, n_folds=ncv_folds, n_repeats=n_repeats,
                           confidence_level=0.90, random_state=np.random.SeedSequence([seed, index]), progress=False)
    ncv_err = ncv_interval(LinearDiscriminantAnalysis(), X, y, loss=misclassification, n_folds=ncv_folds,
                           n_repeats=n_repeats, confidence_level=0.90, random_state=np.random.SeedSequence([seed, index]), progress=False)
    return {"index": index, "n": n,
            "ct_auc": corrected_t_bound(fold_auc, n_train=n - n_test, n_test=n_test).bound,
            "ct_acc": corrected_t_bound(fold_acc, n_train=n - n_test, n_test=n_test).bound,
            "truth_auc_n1": np.mean(fold_truth_auc), "truth_acc_n1": np.mean(fold_truth_acc),
            "truth_auc": roc_auc(y_hold, full), "truth_err": misclassification(y_hold, full).mean(),
            "ncv_auc_low": ncv_auc.confidence_interval.low, "ncv_auc_high": ncv_auc.confidence_interval.high, "ncv_auc_est": ncv_auc.estimate,
            "ncv_err_low": ncv_err.confidence_interval.low, "ncv_err_high": ncv_err.confidence_interval.high, "ncv_err_est": ncv_err.estimate,
            "ncv_err_inflation": ncv_err.inflation, "ncv_auc_inflation": ncv_auc.inflation,
            "naive_err_low": errors.mean() - z90 * errors.std(ddof=1) / np.sqrt(n),
            "naive_err_high": errors.mean() + z90 * errors.std(ddof=1) / np.sqrt(n)}


def coverage_study(n_datasets: int = 500, chunk: int = 50, folder: Path | None = None, n_repeats: int = 20):
    "`coverage_run` on data sets 0..n_datasets−1, saved per chunk (a rerun skips the saved chunks)."
    folder = Path(folder or RESULTS / "yardsticks_coverage")
    folder.mkdir(parents=True, exist_ok=True)
    for first in range(0, n_datasets, chunk):
        last = min(first + chunk, n_datasets) - 1
        target = folder / f"datasets_{first:03d}-{last:03d}.csv.gz"
        if target.exists():
            continue
        with Stopwatch() as watch:
            rows = [coverage_run(i, n_repeats=n_repeats) for i in range(first, last + 1)]
        pd.DataFrame(rows).to_csv(target, index=False, float_format="%.10g")
        print(f"{target.name}: {watch.wall:.0f} s ({time.strftime('%H:%M:%S')})", flush=True)


def coverage_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Coverage of each interval of what it estimates, with its binomial standard error: CT (one-sided 95 %) of the
    expected performance at n1 training rows (the mean over data sets of the per-draw truth at n1); NCV and the
    naive CV interval (two-sided 90 %, as Bates et al.) of the error (AUC) of the model fitted to the data."""
    expected_auc, expected_acc = runs["truth_auc_n1"].mean(), runs["truth_acc_n1"].mean()
    hits = {"CT (AUC) ≤ E[AUC at n1]": runs["ct_auc"] <= expected_auc,
            "CT (accuracy) ≤ E[accuracy at n1]": runs["ct_acc"] <= expected_acc,
            "CT (AUC) ≤ AUC of this fit": runs["ct_auc"] <= runs["truth_auc"],
            "NCV 90 % (misclassification) ∋ its error": runs["ncv_err_low"].le(runs["truth_err"])
            & runs["ncv_err_high"].ge(runs["truth_err"]),
            "naive CV 90 % (misclassification) ∋ its error": runs["naive_err_low"].le(runs["truth_err"])
            & runs["naive_err_high"].ge(runs["truth_err"]),
            "NCV 90 % (AUC) ∋ its AUC": runs["ncv_auc_low"].le(runs["truth_auc"])
            & runs["ncv_auc_high"].ge(runs["truth_auc"])}
    nominal = {k: 0.95 if k.startswith("CT") else 0.90 for k in hits}
    rows = []
    for name, hit in hits.items():
        p, n = hit.mean(), len(hit)
        se = np.sqrt(nominal[name] * (1 - nominal[name]) / n)
        rows.append({"interval": name, "nominal": nominal[name], "coverage": p, "se": se,
                     "z": (p - nominal[name]) / se, "data sets": n})
    return pd.DataFrame(rows)


def real_data(n_splits: int = 50, data_home: str = "../shared/data", n_configurations: int = 81, seed: int = 7,
              backend: str = "loky", datasets=REAL_DATASETS, chunk: int = 4, folder: Path | None = None):
    """The real-data study of bench/study.md (reference mode, 81 configurations, seed 7, the same splits) with the
    paper's ten methods and the four yardsticks (CZ and NCV on the first 10 splits of each dataset), saved every
    `chunk` splits; a rerun runs only the missing splits. The ten methods' bounds reproduce
    bench/results/real_reference_81c (the same seeds), which `--report` checks."""
    folder = Path(folder or RESULTS / f"real_yardsticks_{n_configurations}c")
    folder.mkdir(parents=True, exist_ok=True)
    methods = list(PAPER_METHODS) + list(YARDSTICK_METHODS)
    options = reference_options(PAPER_METHODS)
    options.pop("simulation_options")
    options["n_bootstraps"] = 1000  # as bench/results/real_reference_81c was made (see bench/study.md), so BBC reproduces it
    grid = spread_grid(n_configurations)
    done = load_real_records(folder)
    todo = {}
    for name in datasets:
        have = set(done.loc[done.dataset == name, "run"]) if len(done) else set()
        missing = [i for i in range(n_splits) if i not in have]
        todo[name] = [missing[i:i + chunk] for i in range(0, len(missing), chunk)]
    print(f"{folder}: {len(done)} saved records; to run: "
          + ", ".join(f"{n} {sum(map(len, c))} splits" for n, c in todo.items()), flush=True)
    cost = folder / "cost.csv"
    with _dask_context(backend):
        while any(todo.values()):
            for name in datasets:
                if not todo[name]:
                    continue
                splits = todo[name].pop(0)
                with Stopwatch() as watch:
                    runs = [run_real_data_study([name], train_size=PAPER_DATASETS[name], n_splits=last - first + 1,
                                                first_split=first, configurations=grid, methods=methods,
                                                random_state=seed, n_jobs=2 if backend == "loky" else -1,
                                                progress=False, data_home=data_home, **options)
                            for first, last in _contiguous(splits)]
                    runs = pd.concat(runs, ignore_index=True).assign(mode="reference", seed=seed)
                target = folder / f"{name}_{splits[0]:03d}-{splits[-1]:03d}.csv.gz"
                runs[REAL_COLUMNS].to_csv(target, index=False, float_format="%.10g")
                pd.DataFrame([{"dataset": name, "first": splits[0], "last": splits[-1],
                               "wall_seconds": round(watch.wall, 1), "finished": time.strftime("%Y-%m-%d %H:%M:%S")}]
                             ).to_csv(cost, mode="a", header=not cost.exists(), index=False)
                print(f"{name} splits {splits[0]}-{splits[-1]}: {watch.wall:.0f} s ({time.strftime('%H:%M:%S')})",
                      flush=True)


class GlmnetLogistic(ClassifierMixin, BaseEstimator):
    """glmnet's lasso logistic regression at a fixed λ (`family = "binomial"`, `standardize = TRUE`) in scikit-learn:
    glmnet minimises −loglik/n + λ‖β‖₁ on standardised columns, liblinear C·Σ loss + ‖w‖₁, so C = 1/(nλ) with n the
    rows of *this* fit (the vignette keeps λ fixed while the training size changes between inner and outer fits).
    The intercept is left (nearly) unpenalised by liblinear's intercept_scaling, as in glmnet."""

    def __init__(self, lam: float = 0.1):
        self.lam = lam

    def fit(self, X, y):
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler
        self.scaler_ = StandardScaler().fit(X)  # glmnet standardises with the 1/n variance, as StandardScaler
        self.model_ = LogisticRegression(penalty="l1", C=1 / (len(y) * self.lam), solver="liblinear",
                                         intercept_scaling=100.0, tol=1e-6, max_iter=1000)
        with warnings.catch_warnings():  # scikit-learn 1.8 deprecates penalty= (1.4, the oldest allowed, needs it)
            warnings.simplefilter("ignore", FutureWarning)
            warnings.filterwarnings("ignore", message="Inconsistent values: penalty=l1")
            self.model_.fit(self.scaler_.transform(X), y)
        self.classes_ = self.model_.classes_
        return self

    def predict_proba(self, X):
        return self.model_.predict_proba(self.scaler_.transform(X))


def glmnet_lambda_1se(X, y, rng, n_folds: int = 10, n_lambdas: int = 100):
    """cv.glmnet's lambda.1se, re-implemented: glmnet's path (λ_max = max_j |x̃_jᵀ(y − ȳ)|/n on standardised columns,
    100 values log-spaced down to 0.01 λ_max since n < p), 10 random folds, the binomial deviance per fold, cvm the
    fold-size weighted mean, cvsd its weighted standard error; the largest λ with cvm ≤ min cvm + cvsd at the min."""
    n = len(y)
    Xs = (X - X.mean(0)) / X.std(0)
    lam_max = np.abs(Xs.T @ (y - y.mean())).max() / n
    lambdas = lam_max * np.logspace(0, -2, n_lambdas)
    folds = rng.permutation(np.arange(n) % n_folds)
    dev = np.empty((n_folds, n_lambdas))
    for f in range(n_folds):
        train, test = folds != f, folds == f
        for j, lam in enumerate(lambdas):
            p = GlmnetLogistic(lam).fit(X[train], y[train]).predict_proba(X[test])[:, 1].clip(1e-5, 1 - 1e-5)
            dev[f, j] = -2 * np.mean(y[test] * np.log(p) + (1 - y[test]) * np.log(1 - p))
    w = np.bincount(folds, minlength=n_folds)
    cvm = w @ dev / w.sum()
    cvsd = np.sqrt((w @ (dev - cvm) ** 2) / w.sum() / (n_folds - 1))
    best = int(np.argmin(cvm))
    return lambdas[np.flatnonzero(cvm <= cvm[best] + cvsd[best]).min()], lambdas


def vignette_run(index: int, n_repeats: int = 100, n: int = 90, p: int = 1000, k: int = 4, n_holdout: int = 5000,
                 seed: int = 90) -> dict:
    """One data set of the `nestedcv` vignette "High-dimensional logistic regression" (Bates, Hastie & Tibshirani):
    X ~ N(0, 1)^{n × p}, β = (1, 1, 1, 1, 0, …), Y ~ Bernoulli(logistic(Xβ)); λ = cv.glmnet's lambda.1se on the data,
    fixed; the lasso at λ, classified by Xβ̂ + a > 0, misclassification loss; nested CV (K = 5, R = n_repeats,
    two-sided 90 %) and the naive 5-fold CV interval; the true error of the fit on all n rows from a 5000-row
    holdout. numpy draws, not R's: the same distribution, not the vignette's data set."""
    rng = np.random.default_rng([seed, index])
    beta = np.r_[np.ones(k), np.zeros(p - k)]
    X = rng.normal(size=(n, p))
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ beta))).astype(int)
    X_hold = rng.normal(size=(n_holdout, p))
    y_hold = (rng.uniform(size=n_holdout) < 1 / (1 + np.exp(-X_hold @ beta))).astype(int)
    lam, _ = glmnet_lambda_1se(X, y, rng)
    fit = GlmnetLogistic(lam).fit(X, y)
    true_err = misclassification(y_hold, fit.predict_proba(X_hold)[:, 1]).mean()
    ncv = ncv_interval(GlmnetLogistic(lam), X, y, loss=misclassification, n_folds=5, n_repeats=n_repeats,
                       confidence_level=0.90, random_state=np.random.SeedSequence([seed, index]), progress=False)
    folds = rng.permutation(np.arange(n) % 5)  # naive_cv: fold_id <- sample((1:n) %% n_folds + 1)
    errors = np.concatenate([misclassification(y[folds == f], GlmnetLogistic(lam).fit(X[folds != f], y[folds != f])
                                               .predict_proba(X[folds == f])[:, 1]) for f in range(5)])
    half = stats.norm.ppf(0.95) * errors.std(ddof=1) / np.sqrt(n)
    return {"index": index, "lambda": lam, "nonzero": int((fit.model_.coef_ != 0).sum()),
            "bayes_error": np.mean((X_hold[:, :k].sum(1) > 0) != y_hold), "true_err": true_err,
            "ncv_low": ncv.confidence_interval.low, "ncv_high": ncv.confidence_interval.high, "ncv_est": ncv.estimate, "inflation": ncv.inflation,
            "naive_low": errors.mean() - half, "naive_high": errors.mean() + half, "naive_est": errors.mean(),
            "width_ratio": (ncv.confidence_interval.high - ncv.confidence_interval.low) / (2 * half)}


def vignette_study(n_datasets: int = 5, n_repeats: int = 100, folder: Path | None = None):
    "`vignette_run` on data sets 0..n_datasets−1, one file per data set (resumable)."
    folder = Path(folder or RESULTS / "yardsticks_coverage")
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n_datasets):
        target = folder / f"vignette_R{n_repeats}_{i:03d}.csv.gz"
        if target.exists():
            continue
        with Stopwatch() as watch:
            row = vignette_run(i, n_repeats=n_repeats)
        pd.DataFrame([row]).to_csv(target, index=False, float_format="%.10g")
        print(f"{target.name}: {watch.wall:.0f} s ({time.strftime('%H:%M:%S')})", flush=True)


def _method_table(runs: pd.DataFrame, order) -> pd.DataFrame:
    """Per setting × method: inclusion % (how often the truth of the method's configuration is ≥ its bound), mean
    bound − truth (tightness: positive = the bound lies above the truth), and, over the runs it missed, the mean miss."""
    runs = runs.assign(gap=runs["bound"] - runs["truth"])
    rows = []
    for (setting, method), g in runs.groupby(["setting", "method"], sort=False):
        ok = g.dropna(subset=["bound"])
        missed = ok[~ok["included"].astype(bool)]
        rows.append({"setting": setting, "method": method, "runs": len(ok),
                     "inclusion %": 100 * ok["included"].astype(bool).mean() if len(ok) else np.nan,
                     "mean truth − bound": -ok["gap"].mean() if len(ok) else np.nan,
                     "mean miss": missed["gap"].mean() if len(missed) else 0.0})
    table = pd.DataFrame(rows)
    table["method"] = pd.Categorical(table["method"], [m for m in order if m in set(table["method"])])
    return table.sort_values(["setting", "method"])


def report(results: Path = RESULTS) -> str:
    "The markdown tables of bench/yardsticks.md from the saved records."
    out = []
    sim_default = results / "sim_default_200"
    sim_yard = results / "sim_yardsticks_200"
    if sim_yard.exists() and any(sim_yard.glob("*.csv.gz")):
        paper = pd.concat([pd.read_csv(f) for f in sorted(sim_default.glob("*.csv.gz"))], ignore_index=True)
        yard = pd.concat([pd.read_csv(f) for f in sorted(sim_yard.glob("*.csv.gz"))], ignore_index=True)
        runs = pd.concat([paper, yard], ignore_index=True)
        runs = runs[runs["setting"].isin(set(yard["setting"]))]
        order = list(PAPER_METHODS) + ["CT", "TT"]
        table = _method_table(runs, order)
        for value in ("inclusion %", "mean truth − bound", "mean miss"):
            wide = table.pivot(index="setting", columns="method", values=value)
            out.append(f"### Simulation grid ({len(yard) // 2} runs × CT, TT; the ten from sim_default_200): {value}\n")
            out.append(wide.to_markdown(floatfmt=".3g" if "mean" in value else ".1f") + "\n")
    coverage = results / "yardsticks_coverage"
    if coverage.exists() and any(coverage.glob("datasets_*.csv.gz")):
        cov = pd.concat([pd.read_csv(f) for f in sorted(coverage.glob("datasets_*.csv.gz"))], ignore_index=True)
        out.append("### Without selection: coverage of what each method estimates\n")
        out.append(coverage_table(cov).to_markdown(index=False, floatfmt=".3f") + "\n")
    vignette = sorted(coverage.glob("vignette_*.csv.gz")) if coverage.exists() else []
    if vignette:
        runs = pd.concat([pd.read_csv(f) for f in vignette], ignore_index=True)
        out.append("### The nestedcv vignette's setting (n = 90, p = 1000, lasso at lambda.1se; K = 5, 90 %)\n")
        columns = ["index", "lambda", "nonzero", "bayes_error", "true_err", "naive_low", "naive_high", "ncv_low",
                   "ncv_high", "inflation", "width_ratio"]
        out.append(runs[columns].to_markdown(index=False, floatfmt=("g", ".3f", "g") + (".3f",) * 8) + "\n")
    real = results / "real_yardsticks_81c"
    if real.exists() and any(real.glob("*.csv.gz")):
        runs = load_real_records(real)
        ref = load_real_records(results / "real_reference_81c")
        both = runs.merge(ref, on=["dataset", "run", "method"], suffixes=("", "_ref"))
        same = np.isclose(both["bound"], both["bound_ref"], rtol=0, atol=1e-9, equal_nan=True).mean()
        out.append(f"### Real data ({runs.groupby('dataset')['run'].nunique().to_dict()} splits done)\n")
        out.append(f"The ten methods' bounds equal the committed bench/results/real_reference_81c on "
                   f"{100 * same:.1f} % of {len(both)} shared records.\n")
        table = _method_table(runs, list(PAPER_METHODS) + list(YARDSTICK_METHODS))
        for value in ("runs", "inclusion %", "mean truth − bound", "mean miss"):
            wide = table.pivot(index="setting", columns="method", values=value)
            title = "runs with a bound (splits)" if value == "runs" else value
            out.append(f"**{title}**\n\n" + wide.to_markdown(floatfmt=".3g") + "\n")
    return "\n".join(out)


def quick():
    "Smoke mode: CT and TT on a tiny simulation, two coverage data sets, and the cost ratio NCV / CT."
    runs = run_simulation_study(dict(beta_a=24, beta_b=6, n_samples=100, n_configurations=20), n_runs=3,
                                random_state=0, methods=["BBC", "CT", "TT"], progress=False)
    print(summarize(runs)[["method", "inclusion"]].to_string(index=False))
    with Stopwatch() as watch:
        rows = [coverage_run(i, n_repeats=3) for i in range(2)]
    print(pd.DataFrame(rows)[["ct_auc", "truth_auc_n1", "ncv_err_low", "truth_err", "ncv_err_high"]].to_string())
    ct, ncv = runs[runs.method == "CT"].seconds.sum(), watch.wall
    print(f"ratio of wall seconds, two coverage data sets (with NCV's refits) / CT on three runs: {ncv / max(ct, 1e-9):.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sim", type=int, default=0, help="runs per setting of CT and TT on the simulation grid")
    parser.add_argument("--coverage", type=int, default=0, help="data sets of the coverage study without selection")
    parser.add_argument("--repeats", type=int, default=None,
                        help="NCV repetitions R (default: 20 in the coverage study, 100 in the vignette's, as theirs)")
    parser.add_argument("--vignette", type=int, default=0, help="data sets of the nestedcv vignette's setting")
    parser.add_argument("--real-data", type=int, default=0, help="splits per dataset of the real-data re-run")
    parser.add_argument("--backend", default="loky", choices=["loky", "dask"])
    parser.add_argument("--data-home", default=os.environ.get("CIAUTO_DATA", "../shared/data"))
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.quick:
        quick()
    if args.sim:
        simulation_grid(args.sim)
    if args.coverage:
        coverage_study(args.coverage, n_repeats=args.repeats or 20)
    if args.vignette:
        vignette_study(args.vignette, n_repeats=args.repeats or 100)
    if args.real_data:
        real_data(args.real_data, args.data_home, backend=args.backend)
    if args.report:
        print(report())
