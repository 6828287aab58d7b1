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
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ciauto.subgroups import _prepare, find_subgroups, subroc_splits  # noqa: E402

METRICS = ("roc_auc", "pr_auc", "average_ranking_loss")
POSITIVE = {"adult": ("class", "<=50K"), "credit-g": ("class", "good")}


def data_dir():
    if os.environ.get("CIAUTO_DATA"):
        return Path(os.environ["CIAUTO_DATA"])
    root = Path(__file__).resolve().parents[1]
    for candidate in (root.parent / "shared" / "data", root.parent.parent / "shared" / "data"):
        if candidate.exists():
            return candidate
    raise FileNotFoundError("shared data not found: set CIAUTO_DATA")


def search_split(name):
    "Part 2 of the paper's split with scores of a model fitted on part 1."
    frame = pd.read_csv(data_dir() / f"{name}.csv.gz").dropna().reset_index(drop=True)
    target, positive = POSITIVE[name]
    label = (frame.pop(target) == positive).astype(int)
    nominal = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    model_input = frame.astype({c: "category" for c in nominal})
    train, search, _, _ = subroc_splits(len(frame), random_state=0)
    model = HistGradientBoostingClassifier(categorical_features="from_dtype", random_state=0)
    model.fit(model_input.iloc[train], label.iloc[train])
    scored = frame.assign(label=label, score=model.predict_proba(model_input)[:, 1])
    return scored.iloc[search].reset_index(drop=True)


def timed(fn, repeats, clock=time.process_time):
    "Median over `repeats` of the CPU time of this process (robust on a shared machine) and the last result."
    times, out = [], None
    for _ in range(repeats):
        start = clock()
        out = fn()
        times.append(clock() - start)
    return statistics.median(times), out


def run_ours(D, metric, depth, ab, oe, repeats, clock=time.process_time, **kw):
    return timed(lambda: find_subgroups(D, label="label", score="score", metric=metric, depth=depth, min_support=20,
                                        top_k=5, size_weight=ab, balance_weight=ab, optimistic_estimates=oe, **kw),
                 repeats, clock)


# ---------------------------------------------------------------- pysubgroup on the same selectors
def run_pysubgroup(D, metric, depth, ab, oe):
    import pysubgroup as ps
    from pysubgroup import model_predictions_target as mpt
    attributes = [c for c in D.columns if c not in ("label", "score")]
    prep = _prepare(D, label="label", score="score", attributes=attributes, nominal=None, positive=None, n_bins=10,
                    missing_selector=False, one_hot_compat=False)
    space, names = [], {}
    for sel, string in zip(prep.selectors, prep.sel_strings):
        ps_sel = (ps.IntervalSelector(sel.attribute, sel.lo, sel.hi) if sel.kind == "interval"
                  else ps.EqualitySelector(sel.attribute, sel.value))
        space.append(ps_sel)
        names[ps_sel] = string
    qf = {"roc_auc": lambda: mpt.ROCAUCQF("label", ab, ab), "pr_auc": lambda: mpt.PRAUCQF("label", 1, ab, ab),
          "average_ranking_loss": lambda: mpt.ARLQF("label", 1, ab, ab)}[metric]()
    counting = _Counting(qf, oe)
    task = ps.SubgroupDiscoveryTask(D, mpt.SoftClassifierTarget("label", "score"), space, counting, result_set_size=5,
                                    depth=depth, min_quality=0, constraints=[ps.MinSupportConstraint(20)])
    start = time.process_time()
    result = ps.BestFirstSearch().execute(task)
    seconds = time.process_time() - start
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
    args = parser.parse_args()
    repeats = 3 if args.full else 1
    splits = {name: search_split(name) for name in ("credit-g", "adult")}
    find_subgroups(splits["credit-g"], label="label", score="score", depth=1)   # numba compile / cache load

    # ours: runtime with and without optimistic estimates
    grid = []
    for name, D in splits.items():
        for depth in (2, 3, 4):
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
        t_seq, r_seq = run_ours(splits["adult"], metric, 4, 0.0, True, repeats, clock=time.perf_counter)
        t_par, r_par = run_ours(splits["adult"], metric, 4, 0.0, True, repeats, clock=time.perf_counter, n_jobs=2)
        par_rows.append(dict(metric=metric, seconds_sequential=t_seq, seconds_n_jobs_2=t_par,
                             evaluated_sequential=r_seq.n_evaluated, evaluated_n_jobs_2=r_par.n_evaluated,
                             same_table=bool(r_seq.table.equals(r_par.table))))
        print(par_rows[-1], flush=True)
    par_table = pd.DataFrame(par_rows)

    # pysubgroup on identical inputs (its pruning checks only the minimum support: so do we here)
    ps_table, ps_version = None, None
    if not args.no_pysubgroup:
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
            prep_seconds[name] = timed(lambda: _prepare(D, label="label", score="score", attributes=attributes,
                                                        nominal=None, positive=None, n_bins=10,
                                                        missing_selector=False, one_hot_compat=False), 3)[0]
        ps_rows = []
        for name, depth, metric, ab in configs:
            D = splits[name]
            t_ps, n_ps, top_ps = run_pysubgroup(D, metric, depth, ab, True)
            t_us, r_us = run_ours(D, metric, depth, ab, True, repeats, precondition_pruning=False)
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
            markdown(ours_table), "\n## Depth 4 on adult, sequential vs `n_jobs=2`\n", markdown(par_table)]
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
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
