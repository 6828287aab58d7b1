"""Checks of the CI-in-AutoML reproduction that a reviewer asked for (bench/study.md, "Checks at small N and of the
learn/eval selection").

Run from the repository root (niced: they share the machine):
    python bench/study_checks.py --quick                     (smoke mode: seconds)
    python bench/study_checks.py --fresh-seeds               (BBC-F at (24, 6), N = 50, C = 100, balanced on the
        authors' generator with five fresh seeds; --fresh-seeds-report prints the table)
    python bench/study_checks.py --matched-simulation [--n-folds 5]   (the 50-row real-data shape simulated)
    python bench/study_checks.py --small-n phoneme --splits 0 9 21 22 24 34 37 39 --data-home ../shared/data
        (real-data splits rerun with their committed seeds, keeping what the records do not hold: the fold-AUC
        matrix P, every configuration's holdout AUC, and the holdout AUC of the CV winner's ten fold models;
        one compressed CSV per split in bench/results/small_n/, resumable)
    python bench/study_checks.py --small-n-report            (the tables of bench/study.md from those records)
    python bench/study_checks.py --selection-replay           (the learn/eval selection on the authors' regenerated
        inputs at (9, 6), N = 500, C = 100, b = 0.1: ciauto's split methods over draws of the split, records in
        bench/results/selection_replay.csv.gz)
    python bench/study_checks.py --selection-report

Every split of the real-data study is keyed by (seed 7, dataset, training size, split index), exactly as
`run_real_data_study` keys it, so a rerun split sees the same training rows, folds, Π and refit seed; the check
recomputes BBC and BBC-F with the study's options and asserts the committed bounds.
"""
import argparse
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from ciauto.cvt import cross_validate_configurations, predict_scores, seeded_estimator
from ciauto.datasets import load_dataset
from ciauto.metrics import roc_auc
from ciauto.study import (PAPER_DATASETS, StudyRun, apply_methods, fold_performance, keyed_child, reference_options,
                          stratified_train_indices)

try:  # imported as bench.study_checks
    from ._timing import best_seconds
    from .study import RESULTS, load_real_records, spread_grid
except ImportError:  # run as a script
    from _timing import best_seconds
    from study import RESULTS, load_real_records, spread_grid

SMALL_N = RESULTS / "small_n"
REAL_81 = RESULTS / "real_reference_81c"


def _split_inputs(name: str, split: int, seed: int = 7, data_home=None):
    "The training/holdout rows, the keyed seeds and the data of one split, as `run_real_data_study` draws them."
    X, y = load_dataset(name, data_home=data_home)
    values, counts = np.unique(np.asarray(y), return_counts=True)
    codes = (np.asarray(y) == values[np.argmin(counts)]).astype(np.int64)  # 1 = the minority class
    size = PAPER_DATASETS[name]
    key = keyed_child(seed, name, size, split)
    train = stratified_train_indices(codes, size, np.random.default_rng(keyed_child(key, "split")))
    holdout = np.setdiff1d(np.arange(len(codes)), train)
    return key, X.iloc[train].reset_index(drop=True), codes[train], X.iloc[holdout].reset_index(drop=True), codes[holdout]


def small_n_split(name: str, split: int, seed: int = 7, data_home=None, n_configurations: int = 81) -> tuple:
    """One split of the real-data study rerun: one row per configuration (CVT column) with its F fold AUCs
    (`fold_0`, …), its pooled out-of-fold AUC, its holdout AUC when refit on the training rows (the study's truth),
    and, for the CV winner only, the holdout AUC of each of its F fold models (`fold_model_0`, …: the models whose
    out-of-fold predictions the fold AUCs score). BBC and BBC-F are recomputed and must equal the committed bounds.
    Also returns the split's inputs (y, fold and Π, one row per training row), saved beside the table."""
    grid = spread_grid(n_configurations)
    key, X_train, y_train, X_holdout, y_holdout = _split_inputs(name, split, seed, data_home)
    cvt_seed = int(keyed_child(key, "cvt").generate_state(1)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cvt = cross_validate_configurations(X_train, y_train, grid, n_folds=None, random_state=cvt_seed, n_jobs=1,
                                            refit=False, progress=False, pos_label=1)
    column_to_configuration = {int(c): i for i, c in enumerate(cvt.configurations["column"]) if not pd.isna(c)}
    refit_seed = int(keyed_child(key, "refit").generate_state(1)[0])

    def holdout_auc(configuration, rows=None):
        model = seeded_estimator(configuration, refit_seed)
        rows = slice(None) if rows is None else rows
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(X_train.iloc[rows], y_train[rows])
        return roc_auc(y_holdout, predict_scores(model, X_holdout, 2))

    truth = {c: holdout_auc(grid[column_to_configuration[c]]) for c in column_to_configuration}
    run = StudyRun(cvt.predictions, cvt.y, cvt.folds, truth=lambda c: truth[c], metric="roc_auc",
                   selection_seed=keyed_child(key, "selection"), selection_options={"direction": "auto"})
    # the study's merge: `reference_options()` replaces run_real_data_study's {"n_bootstraps": 500} entry of BBC and
    # BBC-F, so the committed run used bbc_bound's default B = 1000
    options = reference_options(["BBC", "BBC-F"])["method_options"]
    out = {r["method"]: r for r in apply_methods(run, ["BBC", "BBC-F"], alpha=0.05, seed=key, method_options=options)}
    committed = load_real_records(REAL_81)
    committed = committed[(committed.dataset == name) & (committed.run == split)].set_index("method")
    for method in ("BBC", "BBC-F"):
        assert abs(out[method]["bound"] - committed.loc[method, "bound"]) < 1e-8, (name, split, method)
    P = run.fold_scores
    winner = run.winner
    folds = np.asarray(cvt.folds)
    fold_models = [holdout_auc(grid[column_to_configuration[winner]], np.flatnonzero(folds != f))
                   for f in range(P.shape[0])]
    table = pd.DataFrame(P.T, columns=[f"fold_{f}" for f in range(P.shape[0])])
    table.insert(0, "column", np.arange(P.shape[1]))
    table.insert(0, "split", split)
    table.insert(0, "dataset", name)
    table["pooled_oof"] = [roc_auc(cvt.y, cvt.predictions[:, c]) for c in range(P.shape[1])]
    table["truth"] = [truth.get(c, np.nan) for c in range(P.shape[1])]
    table["winner"] = table["column"] == winner
    for f, value in enumerate(fold_models):
        table[f"fold_model_{f}"] = np.where(table["winner"], value, np.nan)
    table["bbc"] = out["BBC"]["bound"]
    table["bbcf"] = out["BBC-F"]["bound"]
    table["n_minority"] = int(y_train.sum())
    inputs = pd.DataFrame(np.asarray(cvt.predictions), columns=[f"c{c}" for c in range(P.shape[1])])
    inputs.insert(0, "fold", folds)
    inputs.insert(0, "y", np.asarray(cvt.y))
    return table, inputs


def small_n(name: str, splits, seed: int = 7, data_home=None, folder: Path = SMALL_N):
    "Rerun `splits` of `name` (`small_n_split`), one compressed CSV per split, skipping those already saved."
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for split in splits:
        target = folder / f"{name}_{split:03d}.csv.gz"
        if target.exists():
            continue
        table, inputs = small_n_split(name, split, seed, data_home)
        inputs.to_csv(folder / f"{name}_{split:03d}_pi.csv.gz", index=False, float_format="%.10g")
        table.to_csv(target, index=False, float_format="%.10g")
        print(f"{name} split {split} saved", flush=True)


def load_small_n(folder: Path = SMALL_N) -> pd.DataFrame:
    "The per-configuration tables of the rerun splits (`small_n`), one row per split × configuration."
    files = sorted(f for f in Path(folder).glob("*.csv.gz") if not f.name.endswith("_pi.csv.gz"))
    return pd.concat([pd.read_csv(f) for f in files], ignore_index=True) if files else pd.DataFrame()




def winner_anatomy(P: np.ndarray) -> dict:
    """Fold-level facts about the CV winner of an F × C fold-AUC matrix: its fold-mean (the CV estimate), how many
    of its folds score exactly 1, how many distinct fold-AUC values the matrix holds, and how many configurations
    tie with the winner's fold mean."""
    means = P.mean(axis=0)
    winner = int(np.argmax(means))
    return {"cv_estimate": means[winner], "winner_folds_at_1": int((P[:, winner] >= 1).sum()),
            "distinct_fold_aucs": int(np.unique(np.round(P, 12)).size),
            "tied_winners": int((np.abs(means - means[winner]) < 1e-12).sum())}


def matched_simulation(betas=((9, 6), (24, 6)), n_runs: int = 200, seed: int = 2024, results: Path = RESULTS,
                       n_folds: int = 10):
    """The real-data shape at 50 training rows simulated (N = 50, 10 folds of 5 rows, minority share 0.3 as phoneme's
    15 of 50, C = 81), BBC, BBC-F and NB in reproduction mode, with the winner's fold-level facts
    (`winner_anatomy`). Records: bench/results/small_n_sim.csv.gz (one row per setting × run); `n_folds=5` (folds
    of 10 rows) appends its settings to the same file."""
    from ciauto.simulation import simulate_predictions
    names = ["BBC", "BBC-F", "NB"]
    options = reference_options(names)
    rows = []
    for a, b in betas:
        for run in range(n_runs):
            key = keyed_child(seed, "small-n", a, b, run, *(() if n_folds == 10 else (n_folds,)))
            sim = simulate_predictions(a, b, n_samples=50, n_configurations=81, balance=0.3, n_folds=n_folds,
                                       random_state=np.random.default_rng(keyed_child(key, "data")),
                                       **options["simulation_options"])
            study_run = StudyRun(sim.predictions, sim.y, np.asarray(sim.folds), truth=np.asarray(sim.true_performance))
            out = {r["method"]: r for r in apply_methods(study_run, names, alpha=0.05, seed=key,
                                                         method_options=options["method_options"])}
            rows.append({"setting": f"N=50 C=81 b=0.3 F={n_folds} Beta({a},{b})", "run": run,
                         "truth": out["BBC-F"]["truth"], **{f"bound_{m}": out[m]["bound"] for m in names},
                         **winner_anatomy(study_run.fold_scores)})
    frame = pd.DataFrame(rows)
    path = Path(results) / "small_n_sim.csv.gz"
    if path.exists():
        old = pd.read_csv(path)
        frame = pd.concat([old[~old.setting.isin(set(frame.setting))], frame], ignore_index=True)
    frame.to_csv(path, index=False, float_format="%.10g")
    return frame



def merged_folds_bbcf(inputs: pd.DataFrame, n_bootstraps: int = 1000, seed: int = 2024, split: int = 0) -> dict:
    """On one rerun split's Π: BBC-F on its 10 folds of 5 rows (the study's), and on the same Π with folds f and
    f + 5 merged (5 folds of 10 rows: a fold AUC then takes up to 4 × 6 + 1 values instead of 1 × 4 + 1), reproduction
    mode, B = `n_bootstraps`."""
    from ciauto.bbc import bbc
    y = inputs["y"].to_numpy()
    folds = inputs["fold"].to_numpy()
    predictions = inputs.filter(regex=r"^c\d+$").to_numpy()
    out = {}
    for name, f in (("bbcf_10x5", folds), ("bbcf_5x10", folds % 5)):
        result = bbc(predictions, y, f, metric="roc_auc", method="folds", n_bootstraps=n_bootstraps,
                     confidence_level=0.95, alternative="greater", quantile="reference", progress=False,
                     random_state=keyed_child(seed, "merged", split, name))
        out[name] = result.confidence_interval.low
    return out


def small_n_report(results: Path = RESULTS) -> str:
    """The tables of "BBC-F at N ≤ 50" in bench/study.md: the committed real-data records (misses, degenerate
    bounds), the matched simulation, and the rerun phoneme splits (the winner's folds, its truth, merged folds)."""
    runs = load_real_records(REAL_81)
    lines = ["| dataset (50 splits) | BBC-F included | BBC-F misses | of them a bound of 1 | BBC included | "
             "BBC-F without the bounds of 1 |", "|---|---:|---:|---:|---:|---:|"]
    for name in ("phoneme", "phishing-websites"):
        part = runs[runs.dataset == name]
        f = part[part.method == "BBC-F"]
        b = part[part.method == "BBC"]
        ones = f.bound >= 1
        lines.append(f"| {name} | {int(f.included.sum())}/{len(f)} | {int((~f.included).sum())} | "
                     f"{int((ones & ~f.included).sum())} | {int(b.included.sum())}/{len(b)} | "
                     f"{int(f[~ones].included.sum())}/{int((~ones).sum())} |")
    sim_path = Path(results) / "small_n_sim.csv.gz"
    if sim_path.exists():
        sim = pd.read_csv(sim_path)
        lines += ["", "| simulated, 200 runs | BBC-F | BBC | NB | BBC-F bound of 1 | winner's folds at AUC 1 (mean) | "
                  "mean truth of the winner | CV estimate − truth of the winner (mean) | configurations tied with the winner "
                  "(mean) |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for label, part in sim.groupby("setting", sort=False):
            inc = {m: (part.truth >= part[f"bound_{m}"]).mean() for m in ("BBC-F", "BBC")}
            nb = (part.truth > part["bound_NB"]).mean()
            lines.append(f"| {label} | {inc['BBC-F']:.3f} | {inc['BBC']:.3f} | {nb:.3f} | "
                         f"{(part['bound_BBC-F'] >= 1).mean():.3f} | {part.winner_folds_at_1.mean():.2f} | {part.truth.mean():.3f} | "
                         f"{(part.cv_estimate - part.truth).mean():+.3f} | {part.tied_winners.mean():.2f} |")
    table = load_small_n(Path(results) / "small_n")
    if not table.empty:
        lines += ["", "| phoneme split | BBC-F | BBC | truth (refit on 50 rows) | mean truth of the 10 fold models | "
                  "CV estimate | winner's folds at AUC 1 | tied winners | BBC-F, 5 folds of 10 rows | "
                  "mean over all 81: CV estimate − truth |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        optimism, fold_gap, kept = [], [], []
        for split, part in table.groupby("split"):
            fold_cols = [c for c in part.columns if c.startswith("fold_") and not c.startswith("fold_model")]
            P = part[fold_cols].to_numpy().T
            w = part[part.winner].iloc[0]
            anatomy = winner_anatomy(P)
            fold_truth = w[[c for c in part.columns if c.startswith("fold_model_")]].astype(float).mean()
            inputs = pd.read_csv(Path(results) / "small_n" / f"{w.dataset}_{split:03d}_pi.csv.gz")
            merged = merged_folds_bbcf(inputs, split=int(split))
            gap = (P.mean(axis=0) - part.truth.to_numpy())
            kept.append((w.truth, w.bbcf, merged["bbcf_5x10"], w.bbc))
            optimism.append(anatomy["cv_estimate"] - w.truth)
            fold_gap.append(fold_truth - w.truth)
            mark = lambda bound: f"{bound:.3f}{'' if w.truth >= bound else ' (miss)'}"
            lines.append(f"| {split} | {mark(w.bbcf)} | {mark(w.bbc)} | {w.truth:.3f} | {fold_truth:.3f} | "
                         f"{anatomy['cv_estimate']:.3f} | {anatomy['winner_folds_at_1']} | {anatomy['tied_winners']} | "
                         f"{mark(merged['bbcf_5x10'])} | {np.nanmean(gap):+.3f} |")
        kept = np.array(kept)
        cover = lambda j: f"{int((kept[:, 0] >= kept[:, j]).sum())}/{len(kept)} (tightness {np.mean(kept[:, 0] - kept[:, j]):.3f})"
        lines += ["", f"Rerun phoneme splits ({len(kept)}): mean CV estimate − truth of the winner "
                  f"{np.mean(optimism):+.3f}; mean (truth of its fold models − truth of the refit model) "
                  f"{np.mean(fold_gap):+.3f}. Included: BBC-F on 10 folds of 5 rows {cover(1)}, on 5 folds of 10 rows "
                  f"{cover(2)}, BBC {cover(3)}."]
    return "\n".join(lines)


SPLIT_METHODS = ("DL", "HM", "BT", "DL10p", "HM10p", "BT10p", "MABT")
SELECTION_SETTINGS = ("N=500 C=100 b=0.1 Beta(9,6)", "N=500 C=500 b=0.1 Beta(9,6)")


def selection_replay(labels=SELECTION_SETTINGS, n_draws: int = 5, seed: int = 2024, results: Path = RESULTS):
    """The authors' inputs of `labels` regenerated (`replay_reference_inputs`), and on each of their 200 runs ciauto's
    learn/eval selection (reproduction mode: pROC's direction) and the seven split methods with `reference_options()`,
    over `n_draws` learn/eval draws (the authors' R split draw cannot be replayed: `set.seed` is commented out in
    their script). MABT is run with and without the DeLong fallback. Keyed as `replay_study` keys its draws, so draw 0
    of a setting is the draw `--replay` would use. One file per setting: bench/results/selection_replay_<label>.csv.gz
    (one row per run × draw × method: bound, truth, included, selected, best/final truth and eval AUC, K)."""
    from ciauto.simulation import paper_settings, replay_reference_inputs
    from ciauto.study import setting_label
    grid = paper_settings()
    keep = {i: setting_label(dict(grid.loc[i])) for i in grid.index[grid.main_table]}
    keep = {i: label for i, label in keep.items() if label in labels}
    root = np.random.SeedSequence(seed)
    names = list(SPLIT_METHODS)
    options = reference_options(names)["method_options"]
    options_nf = {"MABT": {**options["MABT"], "fallback": None}}
    records = {label: [] for label in keep.values()}
    done = [label for label in keep.values() if _selection_path(label, results).exists()]
    wanted = [i for i, label in keep.items() if label not in done]
    if not wanted:
        return
    for setting, run, sim in replay_reference_inputs(wanted):
        label = keep[setting]
        truth = sim.true_performance
        for draw in range(n_draws):
            key = keyed_child(root, label, run, draw)
            study_run = StudyRun(sim.predictions, sim.y, sim.folds, truth=truth,
                                 selection_seed=keyed_child(key, "selection"), selection_options={"direction": "auto"})
            sel = study_run.selection
            common = {"setting": label, "run": run, "draw": draw, "best_truth": truth[sel.best],
                      "final_truth": truth[sel.final], "best_eval_auc": sel.eval_scores[sel.best],
                      "final_eval_auc": sel.eval_scores[sel.final], "K": len(sel.top)}
            out = apply_methods(study_run, names, alpha=0.05, seed=key, method_options=options)
            nf = apply_methods(study_run, ["MABT"], alpha=0.05, seed=key, method_options=options_nf)
            for r in out + [{**nf[0], "method": "MABT (no fallback)"}]:
                records[label].append({**common, "method": r["method"], "bound": r["bound"], "truth": r["truth"],
                                       "included": r["included"], "selected": r["selected"], "reason": r["reason"]})
        if run == 199:
            frame = pd.DataFrame(records[label])
            frame["included"] = frame["included"].astype("boolean")
            frame.to_csv(_selection_path(label, results), index=False, float_format="%.10g")
            print(f"{label}: saved", flush=True)


def _selection_path(label: str, results: Path = RESULTS) -> Path:
    return Path(results) / f"selection_replay_{label.replace(' ', '_').replace('(', '').replace(')', '').replace(',', '-')}.csv.gz"



# The authors' stored means (output/simulation_summaries_all.csv of kparaschakis/BBC_algorithm): the truth of `best`
# (average_theoretical_validation) and of `final` (average_theoretical_final), and each split method's mean bound.
AUTHORS_MEANS = {
    "N=500 C=100 b=0.1 Beta(9,6)": {"best": 0.834076432888179, "final": 0.8369705694882, "DL": 0.777079212167471,
                                    "HM": 0.808243280463318, "BT": 0.759993847062827, "DL10p": 0.809123506078021,
                                    "HM10p": 0.863194007426812, "BT10p": 0.777752135736771,
                                    "MABT": 0.773325949784177},
    "N=500 C=500 b=0.1 Beta(9,6)": {"best": 0.879900164282358, "final": 0.867844044574658, "DL": 0.801000995557741,
                                    "HM": 0.829072550921739, "BT": 0.784470480067558, "DL10p": 0.850726975027781,
                                    "HM10p": 0.901579000351225, "BT10p": 0.812708598256465,
                                    "MABT": 0.802854790482244},
}


def selection_report(results: Path = RESULTS) -> str:
    """The tables of the learn/eval check (bench/study.md) from the `selection_replay` records: the mean truth of
    `best` and `final` and each method's inclusion, mean bound and tightness, as the mean over draws with the SD of
    the per-draw values (the inputs are fixed, so the SD is that of one draw, i.e. of the authors' one split), beside
    the authors' stored summary and the paper."""
    try:
        from .study import AUTHORS_SUMMARY
    except ImportError:
        from study import AUTHORS_SUMMARY
    from ciauto.study import paper_simulation_table
    paper = paper_simulation_table().set_index(["setting", "method"])
    columns = list(SPLIT_METHODS)
    lines = []
    for label in SELECTION_SETTINGS:
        path = _selection_path(label, results)
        if not path.exists():
            continue
        runs = pd.read_csv(path)
        runs["included"] = runs["included"].astype("boolean")
        first = runs.drop_duplicates(["run", "draw"])
        per_draw = first.groupby("draw")[["best_truth", "final_truth", "best_eval_auc", "final_eval_auc"]].mean()
        authors = AUTHORS_MEANS[label]
        lines += [f"**{label}**, the authors' inputs regenerated, {runs.draw.nunique()} learn/eval draws × "
                  f"{runs.run.nunique()} runs (mean over draws ± SD of one draw):", "",
                  "| quantity | ciauto | authors' summary | (authors − ciauto) / SD |", "|---|---:|---:|---:|"]
        for name, column in (("mean truth of `best`", "best_truth"), ("mean truth of `final`", "final_truth")):
            m, sd = per_draw[column].mean(), per_draw[column].std(ddof=1)
            theirs = authors[column.split("_")[0]]
            lines.append(f"| {name} | {m:.4f} ± {sd:.4f} | {theirs:.4f} | {(theirs - m) / sd:+.1f} |")
        for name, column in (("mean eval AUC of `best`", "best_eval_auc"), ("mean eval AUC of `final`", "final_eval_auc")):
            lines.append(f"| {name} | {per_draw[column].mean():.4f} ± {per_draw[column].std(ddof=1):.4f} | – | – |")
        inverted = first.assign(inv=first.best_truth < 0.5).groupby("draw")["inv"].sum()
        lines.append(f"| runs whose `best` is an inverted configuration (truth < 0.5), per draw | "
                     f"{inverted.mean():.1f} ({inverted.min()}–{inverted.max()}) | – | – |")
        lines += ["", "| method | inclusion | authors | paper | mean bound | authors | (authors − ciauto) / SD | "
                  "tightness | authors | paper |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for method in columns + ["MABT (no fallback)"]:
            part = runs[runs.method == method]
            if part.empty:
                continue
            draws = part.groupby("draw").agg(inclusion=("included", "mean"), bound=("bound", "mean"),
                                             tight=("truth", "mean"))
            draws["tight"] = draws["tight"] - draws["bound"]
            base = method.split(" ")[0]
            i = columns.index(base)
            a_inc = AUTHORS_SUMMARY[label][2 + i]
            a_bound = authors[base]
            a_truth = authors["best"] if base in ("DL", "HM", "BT") else authors["final"]
            p_inc, p_tight = (paper.loc[(label, base), "inclusion"], paper.loc[(label, base), "tightness"])
            sd = draws["bound"].std(ddof=1)
            lines.append(f"| {method} | {draws.inclusion.mean():.3f} ± {draws.inclusion.std(ddof=1):.3f} | {a_inc:.3f} | "
                         f"{p_inc:.2f} | {draws.bound.mean():.4f} ± {sd:.4f} | {a_bound:.4f} | "
                         f"{(a_bound - draws.bound.mean()) / sd:+.1f} | {draws.tight.mean():.3f} | "
                         f"{a_truth - a_bound:.3f} | {p_tight:.2f} |")
        lines.append("")
    return "\n".join(lines).rstrip()


FRESH_LABEL = "N=50 C=100 b=equal Beta(24,6)"


def authors_draws(seed: int, n_runs: int = 200, beta=(24, 6), n_samples: int = 50, n_configurations: int = 100):
    """Binary runs drawn the way the authors' generator draws them (their multiclass branch with K = 2, one legacy
    `RandomState(seed)` per call, balanced classes), but starting the stream at this setting: a fresh seed gives a
    new sample from their data-generating process. The per-run draw order is `replay_reference_inputs`': Beta(a, b)
    C values (drawn, unused), the pairwise AUCs (C × 2 × 2), then the C × 2 × N normals. Yields (predictions N × C,
    y, folds, true AUCs)."""
    from scipy.special import ndtri
    a, b = beta
    c, k = n_configurations, 2
    y = np.repeat(np.arange(k), n_samples // k)
    folds = np.arange(n_samples) % min(10, n_samples // k)
    stream = np.random.RandomState(seed)
    for _ in range(n_runs):
        stream.beta(a, b, c)
        pairwise = stream.beta(a, b, c * k * k).reshape(c, k, k)
        noise = stream.standard_normal(c * k * n_samples).reshape(c, k, n_samples)
        pairwise[:, np.arange(k), np.arange(k)] = 0.5
        shift = np.sqrt(2.0) * ndtri(pairwise)
        yield (noise[:, 1, :] - shift[:, 1, y]).T, y, folds, pairwise[:, 1, 0]


def fresh_seeds_bbcf(seeds=(1, 2, 3, 4, 5), n_runs: int = 200, results: Path = RESULTS):
    """BBC-F (reproduction mode) on the authors' generator at (24, 6), N = 50, C = 100, balanced with fresh seeds:
    does their printed 1.00 recur? Records: bench/results/bbcf_fresh_seeds.csv.gz (seed × run: bound, truth,
    included). The method's stream is keyed by (2024, seed, run)."""
    options = reference_options(["BBC-F"])["method_options"]
    rows = []
    for seed in seeds:
        for run, (predictions, y, folds, truth) in enumerate(authors_draws(seed, n_runs)):
            study_run = StudyRun(predictions, y, folds, truth=truth)
            out = apply_methods(study_run, ["BBC-F"], alpha=0.05, seed=keyed_child(2024, "fresh", seed, run),
                                method_options=options)[0]
            rows.append({"setting": FRESH_LABEL, "generator_seed": seed, "run": run, "bound": out["bound"],
                         "truth": out["truth"], "included": out["included"]})
    frame = pd.DataFrame(rows)
    frame.to_csv(Path(results) / "bbcf_fresh_seeds.csv.gz", index=False, float_format="%.10g")
    return frame


def fresh_seeds_report(results: Path = RESULTS) -> str:
    """The (24, 6), N = 50, C = 100, balanced BBC-F cell from every record that has it: the authors' generator on
    fresh seeds, ciauto's study (both modes), the authors' own seed (the replay), and the paper."""
    from scipy.stats import binom
    fresh = pd.read_csv(Path(results) / "bbcf_fresh_seeds.csv.gz")
    lines = ["| source | runs | included | inclusion (SE) |", "|---|---:|---:|---|"]

    def row(name, included):
        k, n = int(np.sum(included)), len(included)
        p = k / n
        lines.append(f"| {name} | {n} | {k} | {p:.3f} ({np.sqrt(p * (1 - p) / n):.3f}) |")
        return p
    for seed, part in fresh.groupby("generator_seed"):
        row(f"authors' generator, fresh seed {seed}", part.included)
    pooled = row("authors' generator, fresh seeds pooled", fresh.included)
    label = "N50_C100_bequal_Beta(24-6)"
    for mode in ("reference", "default"):
        files = sorted((Path(results) / f"sim_{mode}_200").glob(f"{label}_*.csv.gz"))
        sim = pd.concat([pd.read_csv(f) for f in files])
        row(f"ciauto's study, {mode} mode (seed 2024)", sim[sim.method == "BBC-F"].included.astype(bool))
    replay = pd.read_csv(Path(results) / "replay_reference.csv.gz")
    replay = replay[(replay.setting == FRESH_LABEL) & (replay.method == "BBC-F") & (replay.draw == 0)]
    row("the authors' own seed 4321 (their inputs regenerated), ciauto's BBC-F", replay.included.astype(bool))
    lines.append("| the paper (200 runs) | 200 | – | 1.00 |")
    lines += ["", f"If the cell's inclusion is the pooled fresh-seed value {pooled:.3f}, 200 runs give 199 or 200 "
              f"included with probability {binom.sf(198, 200, pooled):.4f}."]
    return "\n".join(lines)



def quick():
    """Smoke mode (seconds): the authors' draw order against the replay on the first setting of their loop, two runs
    of the matched simulation into a scratch folder, BBC against BBC-F on one of them (a seconds ratio), and the
    three reports from the committed records."""
    import tempfile

    from ciauto.simulation import reference_loop_order, replay_reference_inputs
    first = reference_loop_order()[0]
    for (_, _, sim), (P, y, folds, truth) in zip(replay_reference_inputs([first], n_runs=2),
                                                 authors_draws(4321, 2, beta=(9, 6))):
        assert np.array_equal(sim.predictions, P) and np.array_equal(sim.true_performance, truth)
    with tempfile.TemporaryDirectory() as scratch:
        frame = matched_simulation(betas=((9, 6),), n_runs=2, results=Path(scratch))
    print(f"quick: authors' draw order equals the replay; matched simulation {len(frame)} runs")
    P, y, folds, truth = next(authors_draws(1, 1))
    study_run = StudyRun(P, y, folds, truth=truth)
    seconds = {m: best_seconds(lambda m=m: apply_methods(study_run, [m], alpha=0.05, seed=0), 3) for m in ("BBC", "BBC-F")}
    print(f"BBC / BBC-F seconds ratio on one (24, 6), N = 50, C = 100 run: {seconds['BBC'] / seconds['BBC-F']:.2f}")
    for report in (fresh_seeds_report, selection_report, small_n_report):
        assert report().count("|") > 10


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke mode (seconds)")
    parser.add_argument("--small-n", default=None, help="dataset whose real-data splits to rerun (e.g. phoneme)")
    parser.add_argument("--splits", nargs="+", type=int, default=None, help="split indices to rerun")
    parser.add_argument("--small-n-report", action="store_true", help="the small-N tables from bench/results/small_n")
    parser.add_argument("--write", action="store_true", help="--small-n-report: also write it into bench/study.md")
    parser.add_argument("--selection-replay", action="store_true", help="the learn/eval selection on the authors' inputs")
    parser.add_argument("--selection-report", action="store_true", help="its table from bench/results/")
    parser.add_argument("--fresh-seeds", action="store_true", help="BBC-F on the authors' generator, fresh seeds")
    parser.add_argument("--fresh-seeds-report", action="store_true", help="its table from bench/results/")
    parser.add_argument("--matched-simulation", action="store_true", help="the 50-row real-data shape simulated")
    parser.add_argument("--n-folds", type=int, default=10, help="--matched-simulation: folds (10: 5 rows each)")
    parser.add_argument("--data-home", default=os.environ.get("CIAUTO_DATA", "../shared/data"))
    args = parser.parse_args()
    if args.quick:
        quick()
        raise SystemExit
    if args.small_n:
        small_n(args.small_n, args.splits, data_home=args.data_home)
    if args.fresh_seeds:
        fresh_seeds_bbcf()
    if args.fresh_seeds or args.fresh_seeds_report:
        print(fresh_seeds_report())
    if args.matched_simulation:
        matched_simulation(n_folds=args.n_folds)
    if args.small_n_report:
        report = small_n_report()
        print(report)
        if args.write:  # the block between the markers of bench/study.md
            path = Path(__file__).parent / "study.md"
            text = path.read_text()
            head, rest = text.split("<!-- small-n-report -->", 1)
            path.write_text(head + "<!-- small-n-report -->\n" + report + "\n<!-- /small-n-report -->"
                            + rest.split("<!-- /small-n-report -->", 1)[1])
    if args.selection_replay:
        selection_replay()
    if args.selection_report:
        print(selection_report())
