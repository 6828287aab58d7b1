"""Benchmark of `ciauto.subgroups` (SubROC search): runtime, evaluated subgroups, pruning speed-up, and a
side-by-side with the `pysubgroup` port of the reference quality functions on identical inputs.

Run from the repository root: `python bench/subgroups.py` (small) or `python bench/subgroups.py --full`.
Writes the measured tables to bench/out/subgroups.md. `pysubgroup` is optional (pip install pysubgroup); without it
the comparison is skipped.

Protocol (the SubROC paper's runtime protocol, on the search part): complete cases, the paper's positive class,
four equal parts by `subroc_splits`, a HistGradientBoosting model fitted on part 1, the search on part 2;
best-first, top-5, minimum support 20, depths 2–4, each metric, α = β ∈ {0, 1}, optimistic estimates on and off.
"""
import argparse
import os
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier

from _timing import Stopwatch, median_seconds, timed
from ciauto.datasets import load_dataset
from ciauto.subgroups import (SearchOptions, build_selectors, find_subgroups, labels_scores, prepare_split,
                              subroc_splits)

METRICS = ("roc_auc", "pr_auc", "average_ranking_loss")
POSITIVE = {"adult": ("class", "<=50K"), "credit-g": ("class", "good")}


SHIPPED_ONLY = False   # --quick: read only the data shipped in ciauto/data
ROW_ORDER = None       # --row-order: None is each table's default (adult: adult.test first, the SubROC paper's order)


def data_file(file):
    "`file` from CIAUTO_DATA, the shared data folder beside the checkout, or the data shipped in ciauto/data."
    root = Path(__file__).resolve().parents[1]
    folders = [Path(os.environ["CIAUTO_DATA"])] if os.environ.get("CIAUTO_DATA") else []
    folders += [root.parent / "shared" / "data", root.parent.parent / "shared" / "data"]
    folders = [root / "ciauto" / "data"] if SHIPPED_ONLY else folders + [root / "ciauto" / "data"]
    for folder in folders:
        if (folder / file).exists():
            return folder / file
    raise FileNotFoundError(f"{file} not found in {[str(f) for f in folders]}: set CIAUTO_DATA")


def read_table(file):
    "A benchmark table with its target as the last column, through `load_dataset` (checksum and row order)."
    X, y = load_dataset(file, data_home=data_file(f"{file}.csv.gz").parent,
                        row_order=ROW_ORDER if file == "adult" else None)
    return X.assign(**{y.name: y})


def search_split(name):
    "Part 2 of the paper's split with scores of a model fitted on part 1."
    frame = read_table(name).dropna().reset_index(drop=True)
    target, positive = POSITIVE[name]
    label = (frame.pop(target) == positive).astype(int)
    nominal = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    model_input = frame.astype({c: "category" for c in nominal})
    train, search, _, _ = subroc_splits(len(frame), random_state=0)
    model = HistGradientBoostingClassifier(categorical_features="from_dtype", random_state=0)
    model.fit(model_input.iloc[train], label.iloc[train])
    scored = frame.assign(label=label, score=model.predict_proba(model_input)[:, 1])
    return scored.iloc[search].reset_index(drop=True)


def median_and_result(fn, repeats, clock="cpu"):
    "Median seconds of `repeats` calls on `clock` (CPU of this process: robust on a shared machine), and the last result."
    out = []
    seconds = median_seconds(lambda: out.append(fn()), repeats=repeats, min_total=0, warmup=False, clock=clock)
    return seconds, out[-1]


def run_ours(D, metric, depth, ab, oe, repeats, clock="cpu", **kw):
    return median_and_result(lambda: find_subgroups(D, label="label", score="score", metric=metric, depth=depth,
                                                    min_support=20, top_k=5, size_weight=ab, balance_weight=ab,
                                                    optimistic_estimates=oe, **kw), repeats, clock)


def prepare_only(D):
    "What find_subgroups does before searching: labels, selectors, sorted bitsets (the preparation cost)."
    attributes = [c for c in D.columns if c not in ("label", "score")]
    y, s = labels_scores(D, "label", "score", None)
    selectors, sel_attr = build_selectors(D, attributes, None, n_bins=10, thresholds="intervals", max_values=1000,
                                          options=SearchOptions())
    return prepare_split(D, y, s, None, selectors, sel_attr)


def features(D, name, depth, repeats, n_bootstraps):
    "Depth-first vs best-first, open thresholds, per-row losses and corrected_gaps, as ratios to the default search."
    from ciauto.subgroups import corrected_gaps
    variants = {"bfs (default)": {}, "dfs": dict(strategy="dfs"), "open thresholds": dict(thresholds="open"),
                "log_loss": dict(quality="log_loss"), "squared_error": dict(quality="squared_error"),
                "bfs, no bounds": dict(optimistic_estimates=False), "dfs, no bounds": dict(strategy="dfs",
                                                                                          optimistic_estimates=False)}
    rows, base = [], None
    for label, kw in variants.items():
        t, r = median_and_result(lambda: find_subgroups(D, **{"label": "label", "score": "score", "depth": depth,
                                                              "min_support": 20, "top_k": 5, **kw}), repeats)
        base = base or t
        rows.append(dict(data=name, depth=depth, variant=label, seconds=t, ratio=t / base,
                         evaluated=r.n_evaluated, max_frontier=r.settings["max_frontier"],
                         top=r.table["pattern"].iloc[0] if len(r.table) else ""))
        print(rows[-1], flush=True)
    t_search, found = median_and_result(lambda: find_subgroups(D, label="label", score="score", depth=min(depth, 3),
                                                               min_support=20, top_k=5), repeats)
    t = timed(corrected_gaps, found, D, n_bootstraps=n_bootstraps, random_state=0)[1].cpu
    rows.append(dict(data=name, depth=min(depth, 3), variant=f"corrected_gaps, B={n_bootstraps}", seconds=t,
                     ratio=t / t_search, evaluated=found.n_evaluated, max_frontier=np.nan,
                     top=f"per bootstrap: {t / n_bootstraps / t_search:.2f} x one search at this depth"))
    print(rows[-1], flush=True)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- pysubgroup on the same selectors
def run_pysubgroup(D, metric, depth, ab, oe):
    import pysubgroup as ps
    from pysubgroup import model_predictions_target as mpt
    space, names = [], {}
    for sel in prepare_only(D).selectors:
        ps_sel = (ps.IntervalSelector(sel.attribute, sel.lo, sel.hi) if sel.operator == "in"
                  else ps.EqualitySelector(sel.attribute, sel.value))
        space.append(ps_sel)
        names[ps_sel] = sel.string
    qf = {"roc_auc": lambda: mpt.ROCAUCQF("label", ab, ab), "pr_auc": lambda: mpt.PRAUCQF("label", 1, ab, ab),
          "average_ranking_loss": lambda: mpt.ARLQF("label", 1, ab, ab)}[metric]()
    counting = _Counting(qf, oe)
    task = ps.SubgroupDiscoveryTask(D, mpt.SoftClassifierTarget("label", "score"), space, counting, result_set_size=5,
                                    depth=depth, min_quality=0, constraints=[ps.MinSupportConstraint(20)])
    result, watch = timed(ps.BestFirstSearch().execute, task)
    seconds = watch.cpu
    top = [(float(q), " AND ".join(sorted(names[s] for s in desc.selectors)))
           for q, desc in result.to_descriptions() if q > 0]
    return seconds, counting.n, top


class _Counting:
    "Counts the quality evaluations (one per generated refinement); hides the bound when `oe` is False."

    def __init__(self, qf, oe):
        self.qf, self.n = qf, 0
        if oe:
            self.optimistic_estimate = qf.optimistic_estimate

    def calculate_constant_statistics(self, *args):
        return self.qf.calculate_constant_statistics(*args)

    def calculate_statistics(self, *args, **kwargs):
        return self.qf.calculate_statistics(*args, **kwargs)

    def evaluate(self, *args, **kwargs):
        self.n += 1
        return self.qf.evaluate(*args, **kwargs)


def top_k_agree(ours, theirs, tol=1e-9):
    "Same qualities (multiset) and the same patterns above the k-th quality (ties at the k-th may differ)."
    q1 = ours.table["quality"].to_numpy()
    q2 = np.array([q for q, _ in theirs])
    if len(q1) != len(q2) or not np.allclose(np.sort(q1), np.sort(q2), atol=tol, rtol=0):
        return False
    if not len(q1):
        return True
    kth = q1.min()
    above1 = set(ours.table.loc[ours.table["quality"] > kth + tol, "pattern"])
    above2 = {p for q, p in theirs if q > kth + tol}
    return above1 == above2


# ---------------------------------------------------------------- main
def markdown(frame):
    cols = list(frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in frame.iterrows():
        lines.append("| " + " | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="all depths on adult, 3 repetitions, more pysubgroup runs")
    parser.add_argument("--out", default=str(Path(__file__).parent / "out" / "subgroups.md"))
    parser.add_argument("--no-pysubgroup", action="store_true")
    parser.add_argument("--paper", action="store_true", help="the paper's result-set experiments (Tables 1, 5, 6)")
    parser.add_argument("--quick", action="store_true", help="smoke mode (with --paper: 200 random subsets, no "
                        "pruning-off runs)")
    parser.add_argument("--datasets", nargs="*", help="with --paper: a subset of " + ", ".join(PAPER_DATA))
    parser.add_argument("--model", default="xgboost", choices=["xgboost", "hgb"])
    parser.add_argument("--permutations", type=int, default=None)
    parser.add_argument("--seeds", type=int, nargs="+", default=None,
                        help="with --paper: significance seeds; each search runs once, its filter once per seed "
                             "(the spread of the counts over the random subsets)")
    parser.add_argument("--metrics", nargs="+", default=None, choices=list(PAPER_METRICS.values()),
                        help="with --paper --seeds: the metrics to run (default all three)")
    parser.add_argument("--settings", nargs="+", default=["b", "f", "t6"], choices=["b", "f", "t6"],
                        help="with --paper --seeds: the settings to run (basic, full, Table 6)")
    parser.add_argument("--row-order", default=None, choices=["test_first", "stored"],
                        help="adult's row order (default test_first, the SubROC paper's; stored: the file's, OpenML's)")
    args = parser.parse_args()
    global SHIPPED_ONLY, ROW_ORDER
    SHIPPED_ONLY, ROW_ORDER = args.quick, args.row_order
    if args.paper and args.seeds:
        args.permutations = args.permutations or (200 if args.quick else 10_000)
        return paper_seeds(args)
    if args.paper:
        args.permutations = args.permutations or (200 if args.quick else 10_000)
        return paper_main(args)
    repeats = 3 if args.full else 1
    big = "credit-g" if args.quick else "adult"      # --quick: only data shipped in ciauto/data
    splits = {name: search_split(name) for name in dict.fromkeys(("credit-g", big))}
    find_subgroups(splits["credit-g"], label="label", score="score", depth=1)   # numba compile / cache load

    # ours: runtime with and without optimistic estimates
    grid = []
    for name, D in splits.items():
        for depth in (2, 3) if args.quick else (2, 3, 4):
            for metric in METRICS:
                for ab in (0.0, 1.0):
                    if name == "adult" and depth == 4 and not args.full and (metric, ab) != ("roc_auc", 0.0):
                        continue
                    grid.append((name, depth, metric, ab))
    rows = []
    for name, depth, metric, ab in grid:
        D = splits[name]
        t_on, r_on = run_ours(D, metric, depth, ab, True, repeats)
        t_off, r_off = run_ours(D, metric, depth, ab, False, repeats)
        assert r_on.table.equals(r_off.table)
        rows.append(dict(data=name, rows=len(D), depth=depth, metric=metric, alpha_beta=ab,
                         seconds_pruned=t_on, seconds_exhaustive=t_off, evaluated_pruned=r_on.n_evaluated,
                         evaluated_exhaustive=r_off.n_evaluated,
                         evaluated_share=r_on.n_evaluated / r_off.n_evaluated,
                         us_per_evaluated=1e6 * t_off / r_off.n_evaluated, pruning_speedup=t_off / t_on))
        print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in rows[-1].items()}, flush=True)
    ours_table = pd.DataFrame(rows)

    # parallel: depth 4 on adult, sequential vs n_jobs=2 (identical table)
    par_rows = []
    for metric in ("roc_auc",) if not args.full else METRICS:
        t_seq, r_seq = run_ours(splits[big], metric, 4, 0.0, True, repeats, clock="wall")
        t_par, r_par = run_ours(splits[big], metric, 4, 0.0, True, repeats, clock="wall", n_jobs=2)
        par_rows.append(dict(metric=metric, seconds_sequential=t_seq, seconds_n_jobs_2=t_par,
                             evaluated_sequential=r_seq.n_evaluated, evaluated_n_jobs_2=r_par.n_evaluated,
                             same_table=bool(r_seq.table.equals(r_par.table))))
        print(par_rows[-1], flush=True)
    par_table = pd.DataFrame(par_rows)
    feature_table = features(splits[big], big, 3 if args.quick else 4, repeats, 10 if args.quick else 50)

    # pysubgroup on identical inputs (its pruning checks only the minimum support: so do we here)
    ps_table, ps_version = None, None
    if not (args.no_pysubgroup or args.quick):
        try:
            import importlib.metadata
            ps_version = importlib.metadata.version("pysubgroup")
        except Exception:
            ps_version = None
    if ps_version:
        configs = [("credit-g", 2, "roc_auc", 0.0), ("credit-g", 2, "average_ranking_loss", 1.0),
                   ("adult", 1, "roc_auc", 0.0), ("adult", 2, "average_ranking_loss", 1.0)]
        if args.full:
            configs += [("credit-g", 2, m, ab) for m in METRICS for ab in (0.0, 1.0)
                        if (m, ab) not in {("roc_auc", 0.0), ("average_ranking_loss", 1.0)}]
            configs += [("adult", 1, "pr_auc", 0.0), ("adult", 1, "average_ranking_loss", 0.0),
                        ("credit-g", 3, "average_ranking_loss", 0.0), ("adult", 2, "roc_auc", 0.0)]
        prep_seconds = {}
        for name, D in splits.items():
            attributes = [c for c in D.columns if c not in ("label", "score")]
            prep_seconds[name] = median_seconds(lambda: prepare_only(D), repeats=3, min_total=0, warmup=False,
                                                clock="cpu")
        ps_rows = []
        for name, depth, metric, ab in configs:
            D = splits[name]
            t_ps, n_ps, top_ps = run_pysubgroup(D, metric, depth, ab, True)
            t_us, r_us = run_ours(D, metric, depth, ab, True, repeats,
                                  options=SearchOptions(precondition_pruning=False))
            per_ps, per_us = t_ps / n_ps, t_us / r_us.n_evaluated
            ps_rows.append(dict(data=name, depth=depth, metric=metric, alpha_beta=ab, seconds_pysubgroup=t_ps,
                                evaluated_pysubgroup=n_ps, seconds_ciauto=t_us, evaluated_ciauto=r_us.n_evaluated,
                                us_per_evaluated_pysubgroup=1e6 * per_ps, us_per_evaluated_ciauto=1e6 * per_us,
                                ratio=per_ps / per_us, top5_agree=top_k_agree(r_us, top_ps)))
            print(ps_rows[-1], flush=True)
        ps_table = pd.DataFrame(ps_rows)

    header = (f"# ciauto.subgroups benchmark\n\nCommand: `python bench/subgroups.py{' --full' if args.full else ''}` "
              f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.processor() or platform.machine()}, "
              f"{os.cpu_count()} cores shared with other jobs: absolute times are noisy, ratios measured in the "
              f"same run are the numbers to read). Times are CPU seconds of the process (single-threaded runs), "
              f"except the parallel table (wall-clock). Median of {repeats} run(s). Search part of the paper's split "
              "(HistGradientBoosting scores), top-5, minimum support 20, n_bins 10.\n")
    text = [header, "## Runtime with and without optimistic estimates\n",
            "`us_per_evaluated` = exhaustive seconds / evaluated subgroups (includes preparation); "
            "`pruning_speedup` = exhaustive / pruned seconds; `evaluated_share` = pruned / exhaustive count.\n",
            markdown(ours_table), f"\n## Depth 4 on {big}, sequential vs `n_jobs=2`\n", markdown(par_table),
            f"\n## Second-round features on {big} (ROC AUC unless named)\n",
            "`ratio` = seconds / seconds of the default best-first interval search in the same run; "
            "`max_frontier` = most patterns held at once.\n", markdown(feature_table)]
    if ps_table is not None:
        text += [f"\n## Side by side with pysubgroup {ps_version} (best-first, same selectors, same data)\n",
                 "`ratio` = pysubgroup's time per evaluated subgroup / ciauto's. Both prune on the minimum "
                 "support only here (ciauto: `precondition_pruning=False`), with optimistic estimates on. "
                 "`top5_agree`: same qualities and the same patterns above the 5th quality. ciauto's time includes "
                 "its preparation (sorting, selectors, bitsets: "
                 + ", ".join(f"{k} {v * 1e3:.0f} ms" for k, v in prep_seconds.items())
                 + "), which dominates at depth 1.\n",
                 markdown(ps_table)]
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text("\n".join(text) + "\n")
    print(f"pruning speed-up ratio (exhaustive / pruned), median: {ours_table['pruning_speedup'].median():.3g}")
    print(f"wrote {args.out}")


# ---------------------------------------------------------------- the paper's result-set experiments (Tables 1, 5, 6)
# name -> (file, target, positive value, nominal attributes in the data set's list order; spec §11.1)
PAPER_DATA = {
    "adult": ("adult", "class", "<=50K", ["workclass", "education", "marital-status", "occupation", "relationship",
                                        "race", "sex", "native-country"]),
    "bank": ("bank-full", "y", "yes", ["job", "marital", "education", "default", "housing", "loan", "contact", "day",
                                       "month", "poutcome"]),
    "bank-unknown-missing": ("bank-full", "y", "yes", ["job", "marital", "education", "default", "housing", "loan",
                                                       "contact", "day", "month", "poutcome"]),
    "credit": ("default-credit-card-clients", "default payment next month", 1, []),
    "mushroom": ("mushroom", "class", "p", None),   # None: every attribute is nominal
    "statlog": ("credit-g", "class", "good", ["checking_status", "credit_history", "purpose", "savings_status",
                                              "employment", "personal_status", "other_parties", "property_magnitude",
                                              "other_payment_plans", "housing", "job", "own_telephone",
                                              "foreign_worker"]),
    "cancer": ("breast-w", "Class", "malignant", []),
    "approval": ("credit-approval", "class", "+", ["A1", "A4", "A5", "A6", "A7", "A9", "A10", "A12", "A13"]),
}
PAPER_METRICS = {"ROC": "roc_auc", "PR": "pr_auc", "ARL": "average_ranking_loss"}

# The paper's numbers: Table 1 / Table 5 (basic b and full f: mean cover size, significant/top-5, filtered-5/
# significant/top-100, mean exceptionality, mean NCR, mean pairwise IoU) and Table 6 (basic top-100 filtered:
# exceptionality, IoU, cover, NCR, top-5/significant/top-100). "-" = not reported (empty result).
PAPER_T1 = """
adult ROC | 27 6492 | 0/5 | 5/77/100 | 0.92 0.06 | 0.04 0.37 | 0.48 0.61
adult PR | 27 2803 | 2/5 | 5/70/100 | 0.94 0.08 | 0.96 0.46 | 0.37 0.19
adult ARL | 4614 6930 | 5/5 | 5/5/5 | 148 55 | 0.42 0.34 | 0.85 0.61
bank ROC | 22 311 | 0/5 | 5/22/100 | 0.83 0.16 | 0.95 0.48 | 0.10 0.12
bank PR | 157 72 | 0/5 | 2/2/100 | 0.68 0.10 | 0.99 0.48 | 0.80 0.51
bank ARL | - - | 0/0 | 0/0/0 | - - | - - | - -
credit ROC | 24 1506 | 0/5 | 5/38/100 | 0.75 0.12 | 0.96 0.61 | 0.01 0.09
credit PR | 75 1895 | 0/5 | 5/17/100 | 0.51 0.29 | 0.99 0.85 | 0.18 0.34
credit ARL | - - | 0/0 | 0/0/0 | - - | - - | - -
approval ROC | 29 - | 0/5 | 0/0/41 | 0.64 - | 0.96 - | 0.69 -
approval PR | 41 80 | 2/5 | 1/1/25 | 0.89 0.85 | 0.98 0.95 | 0.75 -
approval ARL | 60 87 | 3/5 | 3/3/3 | 26 10 | 0.96 0.79 | 0.68 0.69
mushroom ROC | 203 - | 0/5 | 0/0/100 | 0.00 - | 0.76 - | 0.28 -
mushroom PR | 35 57 | 0/5 | 1/1/100 | 0.00 0.00 | 0.17 0.49 | 0.14 -
mushroom ARL | - - | 0/0 | 0/0/0 | - - | - - | - -
statlog ROC | 23 - | 0/5 | 0/0/100 | 0.74 - | 0.04 - | 0.36 -
statlog PR | 21 - | 0/5 | 0/0/100 | 0.50 - | 0.63 - | 0.95 -
statlog ARL | 241 - | 0/1 | 0/0/1 | 0.16 - | 0.28 - | - -
cancer ROC | 41 - | 0/5 | 0/0/5 | 0.03 - | 1.00 - | 0.17 -
cancer PR | 78 - | 0/5 | 0/0/7 | 0.55 - | 1.00 - | 0.80 -
cancer ARL | 83 - | 0/1 | 0/0/1 | 0.18 - | 1.00 - | - -
"""
PAPER_T6 = """
adult ROC | 0.80 | 0.16 | 25 | 0.06 | 5/14/100
adult PR | 0.93 | 0.21 | 26 | 0.95 | 5/14/100
adult ARL | 147.66 | 0.85 | 4614 | 0.42 | 5/82/82
bank ROC | - | - | - | - | 0/0/100
bank PR | - | - | - | - | 0/0/100
bank ARL | - | - | - | - | 0/0/0
credit ROC | - | - | - | - | 0/0/100
credit PR | - | - | - | - | 0/0/100
credit ARL | - | - | - | - | 0/0/0
mushroom ROC | - | - | - | - | 0/0/100
mushroom PR | - | - | - | - | 0/0/100
mushroom ARL | - | - | - | - | 0/0/0
statlog ROC | - | - | - | - | 0/0/100
statlog PR | - | - | - | - | 0/0/100
statlog ARL | - | - | - | - | 0/0/1
cancer ROC | - | - | - | - | 0/0/8
cancer PR | - | - | - | - | 0/0/15
cancer ARL | - | - | - | - | 0/0/1
approval ROC | 0.58 | - | 49 | 0.98 | 1/1/100
approval PR | 0.89 | 0.81 | 40 | 0.97 | 5/12/100
approval ARL | 20.40 | 0.68 | 49 | 0.97 | 5/8/100
"""


def _paper_rows(text):
    out = {}
    for line in text.strip().splitlines():
        key, *cells = [c.strip() for c in line.split("|")]
        out[tuple(key.split())] = cells
    return out


def paper_parts(name, model="xgboost"):
    """The paper's protocol (spec §11.2–11.4): complete cases, label = the paper's positive class, four equal parts
    by `subroc_splits`, the model fitted on part 1 with one-hot encoded nominal attributes (XGBoost defaults, or
    HistGradientBoosting), scores on every row. Returns (frame with label/score, nominal list, parts, fit seconds)."""
    file, target, positive, nominal = PAPER_DATA[name]
    frame = read_table(file)
    if name == "bank-unknown-missing":
        frame = frame.replace("unknown", np.nan)
    frame = frame.dropna().reset_index(drop=True)
    label = (frame.pop(target) == positive).astype(int)
    nominal = list(frame.columns) if nominal is None else nominal
    frame = frame.astype({c: str for c in nominal})
    encoded = pd.get_dummies(frame, columns=nominal, dtype=bool)
    encoded.columns = [f"f{i}" for i in range(encoded.shape[1])]   # xgboost refuses '[', ']', '<' in names
    train, search, validation, holdout = subroc_splits(len(frame), random_state=0)
    with Stopwatch() as watch:
        if model == "xgboost":
            from xgboost import XGBClassifier
            clf = XGBClassifier(n_jobs=1)
        else:
            clf = HistGradientBoostingClassifier(random_state=0)
        clf.fit(encoded.iloc[train], label.iloc[train])
    fit_seconds = watch.cpu
    scored = frame.assign(label=label, score=clf.predict_proba(encoded)[:, 1].astype(float))
    return scored, nominal, (train, search, validation, holdout), fit_seconds


def set_statistics(result, rows):
    """Mean cover size, exceptionality (the unweighted relative score φ, as the paper's tables), weighted quality,
    NCR and pairwise IoU of the result rows `rows` (spec §11.5)."""
    if len(rows) == 0:
        return dict(cover=np.nan, exceptionality=np.nan, quality=np.nan, ncr=np.nan, iou=np.nan)
    covers = result.covers[rows]
    table = result.table.iloc[rows]
    ious = [np.sum(a & b) / np.sum(a | b) for i, a in enumerate(covers) for b in covers[i + 1:]]
    return dict(cover=float(table["size"].mean()), exceptionality=float(table["phi"].mean()),
                quality=float(table["quality"].mean()),
                ncr=float((1 - table["positives"] / table["size"]).mean()),
                iou=float(np.mean(ious)) if ious else np.nan)


def paper_experiment(name, metric, n_permutations, model="xgboost", parts=None, pvalue="subroc", seeds=(0,),
                     only=("b", "f", "t6")):
    """One row of Tables 1/5/6 for one data set and metric: basic top-5, full top-100 filtered, basic top-100
    filtered (`only`: a subset of the settings "b", "f", "t6"). With several `seeds` each search runs once and its
    significance filter once per seed (the random subsets are the only random part): the counts get a `_seed<s>`
    suffix per seed."""
    from ciauto.subgroups import significance_filter
    frame, nominal, (train, search, validation, _), _ = parts or paper_parts(name, model)
    D = frame.iloc[search].reset_index(drop=True)
    V = frame.iloc[validation].reset_index(drop=True)
    common = dict(label="label", score="score", quality=metric, depth=4, min_support=20, nominal=nominal,
                  options=SearchOptions(one_hot_compat=True))
    row = dict(data=name, metric=metric, rows_search=len(D))
    settings = {"b": dict(top_k=5), "f": dict(top_k=100, size_weight=1.0, balance_weight=1.0,
                                              generalization_aware=True), "t6": dict(top_k=100)}
    for key, extra in ((k, v) for k, v in settings.items() if k in only):
        found, watch = timed(find_subgroups, D, **common, **extra)
        row[f"seconds_search_{key}"] = watch.cpu
        for seed in seeds:
            suffix = "" if len(seeds) == 1 and seed == 0 else f"_seed{seed}"
            with warnings.catch_warnings(), Stopwatch() as watch:
                warnings.simplefilter("ignore")
                tested = significance_filter(found, V, n_permutations=n_permutations, fdr=0.05, random_state=seed,
                                             k=None if key == "b" else 5, pvalue=pvalue)
            row[f"seconds_test_{key}{suffix}"] = watch.cpu
            significant = np.flatnonzero(tested.table["significant"].to_numpy())
            n_found, n_sig = len(found.table), len(significant)
            if key == "b":
                stats = set_statistics(found, np.arange(n_found))
                row[f"b_counts{suffix}"] = f"{n_sig}/{n_found}"
            else:
                stats = set_statistics(found, significant[:5])
                row[f"{key}_counts{suffix}"] = f"{min(n_sig, 5)}/{n_sig}/{n_found}"
            if seed == seeds[0]:
                row.update({f"{key}_{k}": v for k, v in stats.items()})
        row[f"{key}_evaluated"] = found.n_evaluated
    return row


def paper_runtimes(name, metric, parts, repeats=1):
    "Spec §11.6 on the search part: top-5, depth 4, best-first, pruning on vs off, alpha = beta in {0, 1}."
    frame, nominal, (_, search, _, _), _ = parts
    D = frame.iloc[search].reset_index(drop=True)
    out = []
    for ab in (0.0, 1.0):
        kw = dict(nominal=nominal, options=SearchOptions(one_hot_compat=True))
        t_on, r_on = run_ours(D, metric, 4, ab, True, repeats, **kw)
        t_off, r_off = run_ours(D, metric, 4, ab, False, repeats, **kw)
        out.append(dict(data=name, metric=metric, alpha_beta=ab, seconds_pruned=t_on, seconds_exhaustive=t_off,
                        speedup=t_off / t_on, evaluated_share=r_on.n_evaluated / r_off.n_evaluated,
                        same_table=bool(r_on.table.equals(r_off.table))))
    return out


def _fmt(v, digits=2):
    if isinstance(v, str):
        return v
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    return f"{v:.0f}" if abs(v) >= 100 else f"{v:.{digits}f}"


def paper_markdown(rows, runtimes, fits, model, n_permutations):
    t1, t6 = _paper_rows(PAPER_T1), _paper_rows(PAPER_T6)
    short = {v: k for k, v in PAPER_METRICS.items()}
    lines = [f"## Tables 1 and 5: basic (b) vs full (f) setting, ours beside the paper's\n",
             f"Model: {model}; significance: randomization test on part 3 with {n_permutations} random subsets, "
             "the paper's p-value hits/R (`pvalue=\"subroc\"`), Benjamini–Yekutieli at 0.05 (basic: the family is "
             "the five). Exceptionality = mean unweighted relative score φ. Each cell: ours (paper).\n",
             "| data | metric | rows (search) | cover b | cover f | sig/top-5 b | filtered-5/sig/top-100 f | "
             "exceptionality b | exceptionality f | NCR b | NCR f | IoU b | IoU f | seconds b | seconds f |",
             "|" + "---|" * 15]
    for r in rows:
        p = t1.get((r["data"].split("-")[0], short[r["metric"]]))
        pc = [c.split() for c in p] if p else None

        def both(ours, i, j=None):
            ref = "?" if pc is None else (pc[i][j] if j is not None else pc[i][0])
            return f"{_fmt(ours)} ({ref})"
        lines.append(" | ".join([f"| {r['data']}", short[r["metric"]], str(r["rows_search"]),
                                 both(r["b_cover"], 0, 0), both(r["f_cover"], 0, 1), both(r["b_counts"], 1),
                                 both(r["f_counts"], 2), both(r["b_exceptionality"], 3, 0),
                                 both(r["f_exceptionality"], 3, 1), both(r["b_ncr"], 4, 0), both(r["f_ncr"], 4, 1),
                                 both(r["b_iou"], 5, 0), both(r["f_iou"], 5, 1),
                                 _fmt(r["seconds_search_b"] + r["seconds_test_b"]),
                                 _fmt(r["seconds_search_f"] + r["seconds_test_f"])]) + " |")
    lines += ["\n## Table 6: basic setting, top-100 filtered to 5\n",
              "| data | metric | exceptionality | IoU | cover | NCR | top-5/sig/top-100 | seconds |", "|" + "---|" * 8]
    for r in rows:
        p = t6.get((r["data"].split("-")[0], short[r["metric"]]), ["?"] * 5)
        lines.append(f"| {r['data']} | {short[r['metric']]} | {_fmt(r['t6_exceptionality'])} ({p[0]}) | "
                     f"{_fmt(r['t6_iou'])} ({p[1]}) | {_fmt(r['t6_cover'])} ({p[2]}) | {_fmt(r['t6_ncr'])} ({p[3]}) | "
                     f"{r['t6_counts']} ({p[4]}) | {_fmt(r['seconds_search_t6'] + r['seconds_test_t6'])} |")
    lines += ["\n## Runtime: pruning on vs off (search part, top-5, depth 4; CPU seconds, 1 run)\n",
              markdown(pd.DataFrame(runtimes)),
              "\n## Model fit (part 1) and AUC on the search part\n", markdown(pd.DataFrame(fits))]
    return "\n".join(lines) + "\n"


def paper_main(args):
    from sklearn.metrics import roc_auc_score
    names = args.datasets or (["cancer", "approval", "statlog"] if args.quick else   # shipped in ciauto/data
                              ["cancer", "approval", "statlog", "mushroom", "adult", "bank", "bank-unknown-missing",
                               "credit"])
    try:
        import xgboost  # noqa: F401
    except ImportError:
        print("xgboost is not installed: HistGradientBoosting instead (not comparable with the paper)")
        args.model = "hgb"
    rows, runtimes, fits = [], [], []
    out = Path(args.out).with_name("subgroups_paper.md")
    out.parent.mkdir(exist_ok=True)
    for name in names:
        parts = paper_parts(name, args.model)
        frame, _, (train, search, _, _), fit_seconds = parts
        fits.append(dict(data=name, rows=len(frame), ncr=float(1 - frame["label"].mean()), fit_seconds=fit_seconds,
                         auc_search=roc_auc_score(frame["label"].iloc[search], frame["score"].iloc[search])))
        print(fits[-1], flush=True)
        for metric in PAPER_METRICS.values():
            rows.append(paper_experiment(name, metric, args.permutations, args.model, parts))
            print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in rows[-1].items()}, flush=True)
            if not args.quick:
                runtimes += paper_runtimes(name, metric, parts)
                print(runtimes[-2:], flush=True)
            pd.DataFrame(rows).to_csv(out.with_suffix(".csv"), index=False)
            out.write_text(paper_markdown(rows, runtimes, fits, args.model, args.permutations))
    if runtimes:
        print(f"pruning speed-up ratio (exhaustive / pruned), median: {pd.DataFrame(runtimes)['speedup'].median():.3g}")
    print(f"wrote {out}")


def paper_seeds(args):
    """Tables 1/5/6's significance counts over several seeds of the random subsets at the paper's R (issue 24):
    one search per data set, metric and setting, its significance filter once per seed. Writes
    bench/out/subgroups_seeds.csv, one row per data set and metric, a counts column per setting and seed."""
    names = args.datasets or ["cancer", "approval", "statlog", "adult"]
    out = Path(args.out).with_name("subgroups_seeds.csv")
    out.parent.mkdir(exist_ok=True)
    from sklearn.metrics import average_precision_score, roc_auc_score
    import sklearn
    import xgboost
    rows = []
    for name in names:
        parts = paper_parts(name, args.model)
        frame, _, (_, search, _, _), _ = parts
        y, s = frame["label"].iloc[search], frame["score"].iloc[search]
        # the search part as the paper describes it: its negatives' share and the model's ROC and PR AUC there
        part = dict(ncr_search=1 - y.mean(), roc_auc_search=roc_auc_score(y, s),
                    pr_auc_search=average_precision_score(y, s), row_order=ROW_ORDER or "default", model=args.model,
                    versions=f"xgboost {xgboost.__version__}, scikit-learn {sklearn.__version__}")
        for metric in args.metrics or PAPER_METRICS.values():
            row = paper_experiment(name, metric, args.permutations, args.model, parts, seeds=tuple(args.seeds),
                                   only=tuple(args.settings))
            stats = ("cover", "exceptionality", "ncr", "iou")   # of the first seed's survivors (Table 6's columns)
            rows.append({k: v for k, v in row.items() if "counts" in k or k in ("data", "metric", "rows_search")
                         or k.startswith("seconds") or k.endswith(stats)} | part)
            print(rows[-1], flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
