"""Benchmark of ciauto.cvt: full CVT vs BBCD-CV early dropping vs the winner's fits alone, shared preprocessing, and
the quality of the winner with and without dropping over repeated held-out splits.

Run from the repo root:  python bench/cvt.py [--quick] [--adult-rows N] [--splits K] [--n-jobs 2] [--out bench/out]

Side by side in one run, on the same folds and seeds (random_state):
  full      `cross_validate_configurations(..., drop=None)`: every configuration on every fold;
  bbcd      the same with `drop="bbcd"` (threshold 0.99, 1000 bootstraps: the paper's settings);
  winner    the CV winner's own F fits alone: the limit of any dropping scheme.
--vs-gridsearch N: only CVT against scikit-learn's GridSearchCV on the same grid (a scaler + logistic regression,
8 values of C) and the same 5 folds (PredefinedSplit of CVT's), N synthetic rows, n_jobs workers each, wall-clock
medians of interleaved calls.
The dropping run must be a subset of the full run (same predictions on the folds it did) and must equal the BBCD
rule replayed on the full run's matrix: that replay (public `bbcd_worse_fraction`, the documented seeds) gives the
quality study its dropping result without refitting.
Shared preprocessing: on one fold, fitting each configuration's preprocessing + selector (81 fits on the full grid)
against fitting each distinct prefix once (3 fits); bit-identical predictions are checked on the small grid.
Quality: K random 70/30 splits of credit-g; on each, full CVT on the 70 %, the winner with and without dropping
refit and scored on the 30 % (held-out ROC AUC), and BBC's estimate on the full matrix and on the survivors.
Default: credit-g (1 000 rows), then K = 3 quality splits, then a stratified adult sample (--adult-rows, default
1 000), all with the full grid (81 configurations), n_jobs=2.  --quick: the small grid without its two ensembles
on a 300-row credit-g sample, one split, n_jobs=1 (a smoke test).
The machine is shared, so read the ratios, not the absolute seconds.
"""
import argparse
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import hash as joblib_hash
from sklearn.pipeline import Pipeline
from threadpoolctl import threadpool_limits

from _timing import interleaved_medians, timed
from ciauto.bbc import bbc
from ciauto.cvt import (bbcd_worse_fraction, cross_validate_configurations, default_configurations, predict_scores,
                        seeded_estimator)
from ciauto.datasets import load_dataset
from ciauto.metrics import roc_auc


QUICK = False
THRESHOLDS = (0.99, 0.95, 0.9)


def stratified_sample(X, y, n_rows, seed):
    keep = y.groupby(y).sample(frac=min(1.0, n_rows / len(y)), random_state=seed).index
    return X.loc[keep].reset_index(drop=True), y.loc[keep].reset_index(drop=True)


def seeds_of(random_state, n_configurations):
    "CVT's documented seeds: word 0 folds, 1..C the models, C+1 the shared preprocessing, C+2 the dropping steps."
    return np.random.SeedSequence(random_state).generate_state(n_configurations + 3, dtype=np.uint32)


def replay_drops(predictions, y, folds, drop_seed, threshold=0.99, n_bootstraps=1000, metric="roc_auc"):
    """The BBCD steps on a complete matrix: dropped_at per column, and per fold the current best and every active
    column's p̂ (what `drop="bbcd"` computes with this drop seed, word C+2 of its seeds)."""
    active, dropped_at, steps = list(range(predictions.shape[1])), np.full(predictions.shape[1], -1), []
    for f in range(int(folds.max()) + 1):
        rows = folds <= f
        best, p = bbcd_worse_fraction(predictions[rows][:, active], y[rows], metric, n_bootstraps=n_bootstraps,
                                      random_state=np.random.SeedSequence(drop_seed, spawn_key=(f,)))
        steps.append((active[best], dict(zip(active, p))))
        for c, pc in zip(active, p):
            if pc > threshold:
                dropped_at[c] = f
        active = [c for c in active if dropped_at[c] < 0]
    return dropped_at, steps


def replay_bbcd(full, random_state, threshold=0.99, n_bootstraps=1000):
    "dropped_at of `drop='bbcd'` with the same random_state, replayed on a full run's complete matrix."
    drop_seed = int(seeds_of(random_state, len(full.configurations))[len(full.configurations) + 2])
    return replay_drops(full.predictions, full.y, full.folds, drop_seed, threshold, n_bootstraps, full.metric)[0]


def config_index(result, column):
    "Row of `result.configurations` (= index into the configuration list) holding Π's column `column`."
    return int(np.flatnonzero((result.configurations["column"] == column).fillna(False).to_numpy())[0])


def drop_winner(full, dropped_at):
    "The CV winner among the configurations never dropped (fold means of the complete matrix)."
    means = full.fold_scores.mean(axis=0)
    return int(np.flatnonzero(dropped_at < 0)[np.argmax(means[dropped_at < 0])])


def compare(name, X, y, grid, seed, n_jobs, out_dir, measure_drop=True):
    """Full CVT, then the BBCD rule replayed on its matrix (fits and fitting time of a dropping run, from the measured
    per-fit times), then (measure_drop) a real dropping run and the winner alone, timed on the same folds and seeds."""
    configurations = configurations_of(grid)
    C = len(configurations)
    print(f"\n== {name}: {len(X)} rows, grid {grid!r} ({C} configurations), n_jobs={n_jobs}", flush=True)
    full, watch = timed(cross_validate_configurations, X, y, configurations, random_state=seed, n_jobs=n_jobs,
                        progress=not QUICK, refit=False)
    t_full, cpu_full = watch.wall, watch.cpu  # CPU seconds vary less than wall seconds on a shared machine
    np.savez_compressed(out_dir / f"cvt_full_{name}_{grid}.npz", predictions=full.predictions, y=full.y,
                        folds=full.folds, fold_scores=full.fold_scores)
    print(f"full CVT   : {t_full:8.1f} s  {full.n_fits} fits  winner {full.winner_name}  auc {full.apparent:.4f}",
          flush=True)
    dropped_at = replay_bbcd(full, seed)
    completed = np.where(dropped_at < 0, full.n_folds, dropped_at + 1)
    per_fit = full.configurations["fit_seconds"].to_numpy() / full.n_folds  # mean fit time per fold, per configuration
    fit_full, fit_drop = per_fit.sum() * full.n_folds, (per_fit * completed).sum()
    w_drop = drop_winner(full, dropped_at)
    fit_winner = per_fit[config_index(full, full.winner)] * full.n_folds
    print(f"BBCD-CV (replayed on the full matrix): {int(completed.sum())} fits, fits ratio BBCD/full = "
          f"{completed.sum() / full.n_fits:.3f}; fitting-time ratio BBCD/full = {fit_drop / fit_full:.3f} "
          f"(measured per-fit seconds); winner-alone/full = {fit_winner / fit_full:.3f}; "
          f"{int((dropped_at < 0).sum())} survivors; winner {full.configurations['name'][config_index(full, w_drop)]}",
          flush=True)
    print("configurations dropped after fold:", pd.Series(dropped_at[dropped_at >= 0]).value_counts().sort_index()
          .to_dict(), flush=True)
    _, p_all = bbcd_worse_fraction(full.predictions, full.y, full.metric, n_bootstraps=1000, random_state=seed)
    for threshold in THRESHOLDS:
        k = int((p_all <= threshold).sum())
        d = replay_bbcd(full, seed, threshold=threshold) if threshold != 0.99 else dropped_at
        done = np.where(d < 0, full.n_folds, d + 1)
        s = int((d < 0).sum())
        print(f"alpha={threshold}: {int(done.sum())} fits (ratio {done.sum() / full.n_fits:.3f}, fitting time "
              f"{(per_fit * done).sum() / fit_full:.3f}), {s} survivors, winner "
              f"{'same' if drop_winner(full, d) == full.winner else 'DIFFERENT'}; with these survivors, dropping all "
              f"others after the first fold would still need C + (F-1)s = {C + (full.n_folds - 1) * s} fits (ratio "
              f"{(C + (full.n_folds - 1) * s) / full.n_fits:.3f}); on all {len(full.y)} rows {k} configurations have "
              f"P(worse than the best) <= alpha", flush=True)
    table = full.configurations[["name", "family", "feature_selection", "cv_score", "fit_seconds"]].assign(
        dropped_at=dropped_at, completed_folds=completed)
    table.to_csv(out_dir / f"cvt_bbcd_{name}_{grid}.csv", index=False)
    row = {"data": name, "rows": len(X), "grid": grid, "configurations": C, "folds": full.n_folds,
           "fits_full": full.n_fits, "fits_bbcd": int(completed.sum()), "fits_winner": full.n_folds,
           "fits_ratio": completed.sum() / full.n_fits, "seconds_full": t_full, "fit_seconds_full": fit_full,
           "fit_seconds_bbcd": fit_drop, "fit_seconds_winner": fit_winner, "fit_time_ratio": fit_drop / fit_full,
           "winner_full": full.winner_name, "winner_bbcd": full.configurations["name"][config_index(full, w_drop)],
           "survivors": int((dropped_at < 0).sum())}
    if not measure_drop:
        return row
    drop, watch = timed(cross_validate_configurations, X, y, configurations, random_state=seed, n_jobs=n_jobs,
                        progress=not QUICK, refit=False, drop="bbcd")
    t_drop, cpu_drop = watch.wall, watch.cpu  # CPU seconds vary less than wall seconds on a shared machine
    done = ~np.isnan(drop.predictions)
    assert np.array_equal(drop.predictions[done], full.predictions[done]), "dropping changed a prediction"
    assert np.array_equal(dropped_at, drop.dropped_at), "the replay disagrees with the dropping run"
    winner_config = configurations[config_index(full, full.winner)]
    alone, watch = timed(cross_validate_configurations, X, y, [winner_config], random_state=seed, n_jobs=n_jobs,
                         progress=False, refit=False)
    t_alone, cpu_alone = watch.wall, watch.cpu  # CPU seconds vary less than wall seconds on a shared machine
    fit_drop_run = float(drop.configurations["fit_seconds"].sum())
    print(f"BBCD-CV run: {t_drop:8.1f} s  {drop.n_fits} fits (= the replay; predictions a subset of the full run); "
          f"winner alone {t_alone:.1f} s; wall-time ratio BBCD/full = {t_drop / t_full:.3f}, "
          f"winner-alone/full = {t_alone / t_full:.3f}; its own summed fit seconds {fit_drop_run:.1f} "
          f"(ratio {fit_drop_run / fit_full:.3f})"
          + (f"; process CPU seconds full {cpu_full:.1f}, BBCD {cpu_drop:.1f} (ratio {cpu_drop / cpu_full:.3f}), "
             f"winner alone {cpu_alone:.1f} ({cpu_alone / cpu_full:.3f})" if n_jobs == 1 else ""), flush=True)
    return row | {"seconds_bbcd": t_drop, "seconds_winner": t_alone, "time_ratio": t_drop / t_full,
                  "fit_seconds_bbcd_run": fit_drop_run, "cpu_full": cpu_full, "cpu_bbcd": cpu_drop,
                  "cpu_winner": cpu_alone}


def configurations_of(grid):
    """The grid's configurations; in the smoke run (--quick), without its two ensembles (random forest, histogram
    gradient boosting), whose fits were nine tenths of its time: every code path still runs."""
    configurations = default_configurations(grid)
    if QUICK:
        configurations = [c for c in configurations
                          if not c.name.startswith(("random_forest", "hist_gradient_boosting"))]
    return configurations


def prefix_timing(name, X, y, grid, seed):
    "One fold: each configuration's preprocessing + selector fitted separately vs each distinct prefix once."
    configurations = configurations_of(grid)
    words = seeds_of(seed, len(configurations))
    estimators = [seeded_estimator(c, int(s), int(words[len(configurations) + 1]))
                  for c, s in zip(configurations, words[1:])]
    rng = np.random.default_rng(seed)
    train = np.sort(rng.permutation(len(X))[: len(X) * 9 // 10])
    target = (y == sorted(y.unique())[-1]).astype(int).to_numpy()

    def fit_prefixes(ests):
        with threadpool_limits(limits=1):
            for est in ests:
                Pipeline(est.steps[:-1]).fit_transform(X.iloc[train], target[train])

    distinct = {}
    for est in estimators:
        distinct.setdefault(joblib_hash(Pipeline(est.steps[:-1])), est)
    each, once = timed(fit_prefixes, estimators)[1].wall, timed(fit_prefixes, list(distinct.values()))[1].wall
    print(f"\n== shared preprocessing, {name} ({len(train)} training rows, one fold): {len(estimators)} prefix fits "
          f"{each:.2f} s vs {len(distinct)} shared {once:.2f} s: ratio {once / each:.3f}, "
          f"saved {each - once:.2f} s per fold", flush=True)
    return {"data": name, "prefix_fits_each": len(estimators), "seconds_each": each, "prefix_fits_shared":
            len(distinct), "seconds_shared": once, "saved_per_fold": each - once}


def check_shared_identical(X, y, seed):
    configurations = configurations_of("small")
    kwargs = dict(random_state=seed, n_folds=3, progress=False, refit=False)
    shared, t_shared = timed(cross_validate_configurations, X, y, configurations, **kwargs)
    unshared, t_unshared = timed(cross_validate_configurations, X, y, configurations, share_preprocessing=False,
                                 **kwargs)
    t_shared, t_unshared = t_shared.wall, t_unshared.wall
    assert np.array_equal(shared.predictions, unshared.predictions), "sharing changed a prediction"
    print(f"small grid, 3 folds: shared {t_shared:.1f} s vs unshared {t_unshared:.1f} s "
          f"(ratio {t_shared / t_unshared:.2f}); predictions bit-identical", flush=True)


def quality_split(X, y, grid, split, seed, n_jobs, out_dir=None):
    """One 70/30 split: full CVT on 70 %, the winners with/without dropping scored on 30 %, BBC on both sets.
    With out_dir, the split's full matrix and its row are saved as soon as it is done (a cut-off run still counts)."""
    rng = np.random.default_rng([seed, split])
    test = np.zeros(len(y), bool)
    for label in y.unique():
        rows = np.flatnonzero((y == label).to_numpy())
        test[rng.choice(rows, int(round(0.3 * len(rows))), replace=False)] = True
    X_train, y_train = X.iloc[np.flatnonzero(~test)].reset_index(drop=True), y.iloc[np.flatnonzero(~test)]
    y_train = y_train.reset_index(drop=True)
    X_test, y_test = X.iloc[np.flatnonzero(test)], y.iloc[np.flatnonzero(test)]
    cvt_seed = int(rng.integers(2**31))
    configurations = configurations_of(grid)
    full, watch = timed(cross_validate_configurations, X_train, y_train, configurations, random_state=cvt_seed,
                        n_jobs=n_jobs, progress=False, refit=False)
    secs = watch.wall
    words = seeds_of(cvt_seed, len(configurations))
    truth_y = (y_test == full.pos_label).astype(int).to_numpy()
    target = (y_train == full.pos_label).astype(int).to_numpy()
    per_fit = full.configurations["fit_seconds"].to_numpy() / full.n_folds
    cache = {}

    def held_out(column):
        if column not in cache:
            k = config_index(full, column)
            model = seeded_estimator(configurations[k], int(words[1 + k]), int(words[len(configurations) + 1]))
            with threadpool_limits(limits=1):
                model.fit(X_train, target)
            cache[column] = roc_auc(truth_y, predict_scores(model, X_test, 2))
        return cache[column]

    def name(column):
        return full.configurations["name"][config_index(full, column)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bbc_full = bbc(full.predictions, full.y, full.folds, n_bootstraps=1000, random_state=split)
    means = full.fold_scores.mean(axis=0)
    row = {"split": split, "cvt_seed": cvt_seed, "cvt_seconds": secs, "fit_seconds": float(per_fit.sum() * 10),
           "winner_full": name(full.winner), "cv_full": means[full.winner], "heldout_full": held_out(full.winner),
           "apparent_full": full.apparent, "bbc_full": bbc_full.estimate,
           "bbc_full_low": bbc_full.confidence_interval.low, "bbc_full_high": bbc_full.confidence_interval.high}
    for threshold in THRESHOLDS:  # the paper's 0.99 first; looser thresholds replayed for free on the same matrix
        dropped_at = replay_bbcd(full, cvt_seed, threshold=threshold)
        w_drop, keep = drop_winner(full, dropped_at), np.flatnonzero(dropped_at < 0)
        done = np.where(dropped_at < 0, full.n_folds, dropped_at + 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bbc_drop = bbc(full.predictions[:, keep], full.y, full.folds, n_bootstraps=1000, random_state=split)
        row |= {f"fits_ratio@{threshold}": done.sum() / full.n_fits,
                f"time_ratio@{threshold}": (per_fit * done).sum() / (per_fit.sum() * full.n_folds),
                f"survivors@{threshold}": len(keep), f"same_winner@{threshold}": w_drop == full.winner,
                f"winner@{threshold}": name(w_drop), f"cv@{threshold}": means[w_drop],
                f"full_winner_dropped_at@{threshold}": int(dropped_at[full.winner]),
                f"heldout@{threshold}": held_out(w_drop), f"bbc@{threshold}": bbc_drop.estimate,
                f"bbc_low@{threshold}": bbc_drop.confidence_interval.low,
                f"bbc_high@{threshold}": bbc_drop.confidence_interval.high}
    if out_dir is not None:
        np.savez_compressed(out_dir / f"cvt_quality_split{split:02d}.npz", predictions=full.predictions, y=full.y,
                            folds=full.folds, fold_scores=full.fold_scores, fit_seconds=per_fit * full.n_folds,
                            names=full.configurations["name"].to_numpy(str), test=test, cvt_seed=cvt_seed)
    print(f"split {split}: {secs:6.1f} s  held-out winner {row['heldout_full']:.4f}  BBC {bbc_full.estimate:.4f}  | "
          + "  ".join(f"a={t}: fits {row[f'fits_ratio@{t}']:.3f} same {row[f'same_winner@{t}']} held-out "
                      f"{row[f'heldout@{t}']:.4f} BBC {row[f'bbc@{t}']:.4f}" for t in THRESHOLDS), flush=True)
    return row


def quality_summary(q):
    "Paired differences (drop − full) of the winner's held-out AUC over the splits, per threshold, and BBC."
    from scipy import stats
    n = len(q)
    spread = q["heldout_full"].std(ddof=1) if n > 1 else float("nan")
    print(f"{n} splits; full-CVT winner's held-out AUC {q['heldout_full'].mean():.4f}, split-to-split s.d. "
          f"{spread:.4f}; BBC on the full matrix {q['bbc_full'].mean():.4f} "
          f"[{q['bbc_full_low'].mean():.4f}, {q['bbc_full_high'].mean():.4f}] (means)", flush=True)
    for t in THRESHOLDS:
        diff = q[f"heldout@{t}"] - q["heldout_full"]
        se = diff.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
        p_t = stats.ttest_rel(q[f"heldout@{t}"], q["heldout_full"]).pvalue if n > 1 and diff.any() else 1.0
        p_w = stats.wilcoxon(diff[diff != 0]).pvalue if (diff != 0).sum() > 0 else 1.0
        bbc_diff = q[f"bbc@{t}"] - q["bbc_full"]
        print(f"alpha={t}: fits ratio mean {q[f'fits_ratio@{t}'].mean():.3f} (range {q[f'fits_ratio@{t}'].min():.3f}"
              f"-{q[f'fits_ratio@{t}'].max():.3f}), fitting-time ratio {q[f'time_ratio@{t}'].mean():.3f}; winner "
              f"changed in {n - int(q[f'same_winner@{t}'].sum())}/{n}; held-out AUC drop - full: mean {diff.mean():+.4f}"
              f" (s.e. {se:.4f}, min {diff.min():+.4f}, max {diff.max():+.4f}); paired t p = {p_t:.3f}, Wilcoxon "
              f"(non-zero pairs) p = {p_w:.3f}; BBC drop - full: mean {bbc_diff.mean():+.4f} (max |.| "
              f"{bbc_diff.abs().max():.4f}), interval width {(q[f'bbc_high@{t}'] - q[f'bbc_low@{t}']).mean():.4f} vs "
              f"{(q['bbc_full_high'] - q['bbc_full_low']).mean():.4f}", flush=True)


def diagnose_drops(out_dir, threshold=0.99):
    """Why the eventual full-CVT winner gets dropped: on each saved split, the step where it was dropped, its p̂, and
    how the configuration that led at that step ended up; over all splits, how often a dropped configuration
    finished (on all ten folds) ahead of the one it was dropped against."""
    paths = sorted(out_dir.glob("cvt_quality_split*.npz"))
    wrong = total = 0
    for path in paths:
        d = np.load(path)
        P, y, folds, fs, names = d["predictions"], d["y"], d["folds"], d["fold_scores"], d["names"]
        C = P.shape[1]
        dropped_at, steps = replay_drops(P, y, folds, int(seeds_of(int(d["cvt_seed"]), C)[C + 2]), threshold)
        cv = fs.mean(axis=0)
        for c in np.flatnonzero(dropped_at >= 0):
            total += 1
            wrong += cv[c] > cv[steps[dropped_at[c]][0]]
        w = int(np.argmax(cv))
        if dropped_at[w] < 0:
            continue
        f = int(dropped_at[w])
        best = steps[f][0]
        print(f"{path.name}: the full winner {names[w]} (CV {cv[w]:.4f}) was dropped after fold {f} "
              f"({int((folds <= f).sum())} rows) with p = {steps[f][1][w]:.3f} against {names[best]}, which led with "
              f"fold AUCs {np.round(fs[:f + 1, best], 3)} vs {np.round(fs[:f + 1, w], 3)} and finished at CV "
              f"{cv[best]:.4f} (rank {int((cv > cv[best]).sum()) + 1}); the winner's later folds "
              f"{np.round(fs[f + 1:, w], 3)}, the leader's {np.round(fs[f + 1:, best], 3)}", flush=True)
    if total:
        print(f"alpha={threshold}: {total} drops over {len(paths)} splits; {wrong} ({wrong / total:.1%}) of the dropped "
              f"configurations finished with a higher 10-fold CV AUC than the leader they were dropped against",
              flush=True)


def vs_gridsearch(n_rows, n_jobs, seed, repeats=3):
    "CVT and GridSearchCV on the same grid and folds, timed interleaved (wall clock): (seconds CVT, seconds grid)."
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, PredefinedSplit
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X, y = make_classification(n_rows, 20, n_informative=8, random_state=seed)
    X = pd.DataFrame(X, columns=[f"x{j}" for j in range(20)])
    values = np.logspace(-3, 2, 8)
    pairs = [(f"C={c:.3g}", make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=500))) for c in values]
    cvt = lambda: cross_validate_configurations(X, y, pairs, n_folds=5, random_state=seed, n_jobs=n_jobs,
                                                progress=False, refit=False)
    folds = cvt().folds
    search = GridSearchCV(make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
                          {"logisticregression__C": values}, cv=PredefinedSplit(folds), scoring="roc_auc",
                          refit=False, n_jobs=n_jobs)
    search.fit(X, y)  # warm: the workers started once for both
    cvt_s, grid_s = interleaved_medians(cvt, lambda: search.fit(X, y), repeats=repeats, warmup=False)
    print(f"N = {n_rows}, 8 configurations x 5 folds, n_jobs = {n_jobs}: CVT {cvt_s:.2f} s, GridSearchCV "
          f"{grid_s:.2f} s, CVT / GridSearchCV = {cvt_s / grid_s:.2f} (wall-clock medians of {repeats})", flush=True)
    return cvt_s, grid_s


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small grid on a 300-row credit-g sample, one split")
    parser.add_argument("--adult-rows", type=int, default=1000)
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=None, help="joblib workers (default 2; 1 with --quick)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-drop-run", action="store_true", help="replay the drops only (no timed dropping run)")
    parser.add_argument("--skip", default="", help="comma list of parts to skip: credit-g,adult,prefix,quality")
    parser.add_argument("--diagnose", action="store_true", help="only: why winners were dropped, from the saved splits")
    parser.add_argument("--resume", action="store_true", help="keep the quality splits already in the CSV")
    parser.add_argument("--out", default="bench/out")
    parser.add_argument("--vs-gridsearch", type=int, default=0, metavar="N",
                        help="only: CVT against GridSearchCV on N synthetic rows")
    args = parser.parse_args()
    if args.vs_gridsearch:
        vs_gridsearch(args.vs_gridsearch, args.n_jobs or 2, args.seed)
        return
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    skip = set(filter(None, args.skip.split(",")))
    global QUICK
    QUICK = args.quick
    if args.n_jobs is None:
        args.n_jobs = 1 if args.quick else 2

    if args.diagnose:
        quality_summary(pd.read_csv(out_dir / "cvt_bbcd_quality.csv"))
        diagnose_drops(out_dir)
        return
    X, y = load_dataset("credit-g")
    grid = "small" if args.quick else "full"
    if args.quick:
        X, y = stratified_sample(X, y, 300, args.seed)
    rows = []
    if "prefix" not in skip:
        prefix = prefix_timing("credit-g", X, y, grid, args.seed)
        check_shared_identical(X, y, args.seed)
        pd.DataFrame([prefix]).to_csv(out_dir / "cvt_shared_preprocessing.csv", index=False)
    if "credit-g" not in skip:
        rows.append(compare("credit-g", X, y, grid, args.seed, args.n_jobs, out_dir, not args.no_drop_run))
        summarize(rows, out_dir, args.quick)
    if "quality" not in skip:
        n_splits = 1 if args.quick else args.splits
        print(f"\n== quality: {n_splits} random 70/30 splits of credit-g, grid {grid!r}", flush=True)
        path = out_dir / f"cvt_bbcd_quality{'_quick' if args.quick else ''}.csv"
        quality = pd.read_csv(path).to_dict("records") if args.resume and path.exists() else []
        done = {int(r["split"]) for r in quality}
        for split in range(n_splits):
            if split in done:
                continue
            quality.append(quality_split(X, y, grid, split, args.seed, args.n_jobs, None if args.quick else out_dir))
            pd.DataFrame(quality).sort_values("split").to_csv(path, index=False)
        quality_summary(pd.DataFrame(quality).sort_values("split"))
        if not args.quick:
            diagnose_drops(out_dir)
    if not args.quick and "adult" not in skip:  # last: the most expensive and the least needed
        Xa, ya = load_dataset("adult")
        Xa, ya = stratified_sample(Xa, ya, args.adult_rows, args.seed)
        rows.append(compare(f"adult-{args.adult_rows}", Xa, ya, grid, args.seed, args.n_jobs, out_dir,
                            not args.no_drop_run))
        summarize(rows, out_dir, args.quick)


def summarize(rows, out_dir, quick):
    summary = pd.DataFrame(rows)
    summary.to_csv(out_dir / f"cvt_bbcd_summary{'_quick' if quick else ''}.csv", index=False)
    print("\n== summary")
    print(summary.drop(columns=["winner_full", "winner_bbcd"]).round(3).to_string(index=False), flush=True)
    print("winners:", summary[["data", "winner_full", "winner_bbcd"]].to_dict(orient="records"), flush=True)


if __name__ == "__main__":
    main()
