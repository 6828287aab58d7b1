"""Coverage with known truth of `compare_to` and `top_k` (ciauto.compare) against the naive answers, and their cost
against `bbc` on the same result.

The study's Beta simulation (`simulate_predictions`, the CI-in-AutoML paper's binary grid of N, C, balance and Beta
shapes) gives every configuration its true AUC, so each run knows
- the truth of the gain, θ(ĉ) − θ(b): ĉ the CV winner (fold-mean rule), b = column 0, a fixed baseline (the
  configurations are exchangeable, so column 0 is as good as any default);
- the truths of the configurations ranked 1..5 by CV.
Per run it records the one-sided 95 % lower bounds and the point estimates of
- `compare_to(..., alternative="greater")` (the winner re-selected in every draw) and the naive gain (the winner's CV
  value minus the baseline's) with DeLong's paired lower bound keeping the winner fixed (`paired_difference`);
- `top_k(..., k=5)` (simultaneous) and the naive per-configuration DeLong lower bounds (`intervals.delong_bound`,
  each at 95 %, no selection accounted for).

    python bench/compare.py --quick                  # smoke test: a tiny setting, a few runs, the timing ratio
    python bench/compare.py --settings 2,6 --runs 500   # run settings (paper_settings() index), resumable chunks
    python bench/compare.py --report                 # summarise bench/results/compare/*.csv into bench/compare.md
    python bench/compare.py --report --keep-timing   # the same, reusing the last timing (bench/results/compare_timing.json)

Records go to bench/results/compare/setting<S>_<first>-<last>.csv, one chunk of runs per file; a chunk that exists is
skipped, so an interrupted study resumes where it stopped.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import warnings
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

from _timing import interleaved_medians, timed
from ciauto.bbc import bbc
from ciauto.compare import compare_to, paired_difference, top_k
from ciauto.intervals import delong_bound
from ciauto.simulation import paper_settings, simulate_predictions

ROOT = Path(__file__).parents[1]
RECORDS = ROOT / "bench" / "results" / "compare"
K = 5
ALPHA = 0.05
# the binary settings of the paper's main table, cheapest first (N = 50, then N = 500 with C = 100, then C = 500)
DEFAULT_ORDER = [2, 6, 0, 4, 18, 22, 16, 20, 10, 8, 26, 24, 14, 12, 30, 28]


def one_run(sim, n_bootstraps, seed, time_bbc=False):
    "One simulated CVT: the bounds and estimates of compare_to, top_k and the naive answers, with their truths."
    P, y, folds, truth = sim.predictions, sim.y, sim.folds, sim.true_performance
    gain, gain_watch = timed(compare_to, P, 0, y=y, folds=folds, alternative="greater", n_bootstraps=n_bootstraps,
                             random_state=seed)
    top, top_watch = timed(top_k, P, K, y=y, folds=folds, n_bootstraps=n_bootstraps, random_state=seed)
    w = gain.winner
    naive = paired_difference(y, P[:, w], P[:, 0], alternative="greater") if w != 0 else None
    row = dict(winner=w, truth_winner=truth[w], truth_baseline=truth[0], truth_gain=truth[w] - truth[0],
               cmp_estimate=gain.estimate, cmp_lower=gain.ci_low, naive_gain=gain.apparent,
               naive_lower=0.0 if naive is None else naive.ci_low,
               winner_estimate=gain.winner_estimate, seconds_compare=gain_watch.wall, seconds_top=top_watch.wall)
    for j, c in enumerate(top.configurations):
        row.update({f"truth_r{j + 1}": truth[c], f"lower_r{j + 1}": top.lower[j], f"est_r{j + 1}": top.estimates[j],
                    f"apparent_r{j + 1}": top.apparent[j], f"naive_r{j + 1}": delong_bound(y, P[:, c], alpha=ALPHA).bound})
    if time_bbc:
        _, watch = timed(bbc, P, y, folds, alternative="greater", n_bootstraps=n_bootstraps, random_state=seed,
                         progress=False)
        row["seconds_bbc"] = watch.wall
    return row


def missing_chunks(out, prefix, runs, chunk):
    "(path, runs) of each chunk of runs 0..runs−1 not yet written: a chunk that exists is skipped, so a study resumes."
    out.mkdir(parents=True, exist_ok=True)
    for first in range(0, runs, chunk):
        last = min(first + chunk, runs) - 1
        path = out / f"{prefix}_{first:04d}-{last:04d}.csv"
        if not path.exists():
            yield path, range(first, last + 1)


def run_setting(setting, runs, chunk, n_bootstraps, out=RECORDS, quiet=False):
    "Runs 0..runs−1 of one setting in chunks of `chunk`, each written (and skipped when present) as its own file."
    s = paper_settings().loc[setting]
    for path, chunk_runs in missing_chunks(out, f"setting{setting:02d}", runs, chunk):
        rows = []
        for run in chunk_runs:
            seed = 1_000_003 * setting + run
            sim = simulate_predictions(s.beta_a, s.beta_b, n_samples=int(s.n_samples),
                                       n_configurations=int(s.n_configurations), balance=s.balance,
                                       n_folds=int(s.n_folds), random_state=seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                row = one_run(sim, n_bootstraps, seed, time_bbc=run % 10 == 0)
            rows.append(dict(setting=setting, run=run, seed=seed, n_samples=int(s.n_samples),
                             n_configurations=int(s.n_configurations), balance=s.balance,
                             beta=f"Beta({s.beta_a:g},{s.beta_b:g})", n_bootstraps=n_bootstraps, **row))
        pd.DataFrame(rows).to_csv(path, index=False)
        if not quiet:
            print(f"setting {setting}: runs {chunk_runs[0]}-{chunk_runs[-1]} written to {path.relative_to(ROOT)}", flush=True)


def summarize(records: pd.DataFrame) -> pd.DataFrame:
    "Per setting: coverage (± its standard error), bias and width of every method."
    rows = []
    for (setting, n, c, balance, beta), g in records.groupby(
            ["setting", "n_samples", "n_configurations", "balance", "beta"]):
        runs = len(g)
        se = np.sqrt(0.95 * 0.05 / runs)
        truths = g[[f"truth_r{j}" for j in range(1, K + 1)]].to_numpy()
        lows = g[[f"lower_r{j}" for j in range(1, K + 1)]].to_numpy()
        naive = g[[f"naive_r{j}" for j in range(1, K + 1)]].to_numpy()
        ests = g[[f"est_r{j}" for j in range(1, K + 1)]].to_numpy()
        cover = lambda low, truth: float(np.mean(np.all(np.atleast_2d((low <= truth).T).T, axis=1)))
        rows.append({
            "setting": setting, "N": n, "C": c, "balance": balance, "beta": beta, "runs": runs,
            "floor (0.95 − 3 se)": 0.95 - 3 * se,
            "gain: compare_to coverage": float(np.mean(g.cmp_lower <= g.truth_gain)),
            "gain: naive coverage": float(np.mean(g.naive_lower <= g.truth_gain)),
            "gain: compare_to bias": float(np.mean(g.cmp_estimate - g.truth_gain)),
            "gain: naive bias": float(np.mean(g.naive_gain - g.truth_gain)),
            "gain: compare_to width": float(np.mean(g.truth_gain - g.cmp_lower)),
            "gain: naive width": float(np.mean(g.truth_gain - g.naive_lower)),
            "top5: simultaneous coverage": cover(lows, truths),
            "top5: naive simultaneous coverage": cover(naive, truths),
            "top5: rank-1 coverage": float(np.mean(lows[:, 0] <= truths[:, 0])),
            "top5: bias (mean over ranks)": float(np.mean(ests - truths)),
            "top5: naive bias (CV values)": float(np.mean(g[[f"apparent_r{j}" for j in range(1, K + 1)]].to_numpy()
                                                           - truths)),
            "top5: width (mean truth − bound)": float(np.mean(truths - lows)),
            "top5: naive width": float(np.mean(truths - naive)),
            "seconds compare_to / bbc": float((g.seconds_compare / g.seconds_bbc).median()) if "seconds_bbc" in g and
            g.seconds_bbc.notna().any() else np.nan,
            "seconds top_k / bbc": float((g.seconds_top / g.seconds_bbc).median()) if "seconds_bbc" in g and
            g.seconds_bbc.notna().any() else np.nan,
        })
    return pd.DataFrame(rows)


def timing(n=500, c=100, b=1000, repeats=3):
    "compare_to and top_k against bbc on the same result, interleaved, in CPU seconds (one thread: the load of other jobs on the shared machine does not count)."
    sim = simulate_predictions(24, 6, n_samples=n, n_configurations=c, n_folds=10, random_state=0)
    P, y, f = sim.predictions, sim.y, sim.folds
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_bbc, t_cmp, t_top = interleaved_medians(
            lambda: bbc(P, y, f, n_bootstraps=b, random_state=1, progress=False),
            lambda: compare_to(P, 0, y=y, folds=f, n_bootstraps=b, random_state=1),
            lambda: top_k(P, K, y=y, folds=f, n_bootstraps=b, random_state=1), repeats=repeats, clock="cpu")
    return dict(N=n, C=c, B=b, bbc=t_bbc, compare_to=t_cmp, top_k=t_top)


def report(records: pd.DataFrame, times: list[dict], items: pd.DataFrame | None = None) -> str:
    summary = summarize(records)
    fmt = lambda x: f"{x:.3f}" if isinstance(x, float) else str(x)
    gain_cols = ["setting", "N", "C", "balance", "beta", "runs", "floor (0.95 − 3 se)", "gain: compare_to coverage",
                 "gain: naive coverage", "gain: compare_to bias", "gain: naive bias", "gain: compare_to width",
                 "gain: naive width"]
    top_cols = ["setting", "N", "C", "balance", "beta", "runs", "floor (0.95 − 3 se)", "top5: simultaneous coverage",
                "top5: naive simultaneous coverage", "top5: rank-1 coverage", "top5: bias (mean over ranks)",
                "top5: naive bias (CV values)", "top5: width (mean truth − bound)", "top5: naive width"]

    def table(cols):
        lines = ["| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
        lines += ["| " + " | ".join(fmt(r[c]) for c in cols) + " |" for _, r in summary.iterrows()]
        return "\n".join(lines)

    timing_lines = ["| N | C | B | bbc (s) | compare_to (s) | top_k (s) | ratio compare_to / bbc | ratio top_k / bbc |",
                    "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    timing_lines += [f"| {t['N']} | {t['C']} | {t['B']} | {t['bbc']:.3f} | {t['compare_to']:.3f} | {t['top_k']:.3f} | "
                     f"{t['compare_to'] / t['bbc']:.2f}× | {t['top_k'] / t['bbc']:.2f}× |" for t in times]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    full = summary[summary.runs >= 500]
    done = ", ".join(str(s) for s in summary.setting)
    missing = ", ".join(str(s) for s in DEFAULT_ORDER if s not in set(summary.setting))
    ok = lambda col: bool((full[col] >= full["floor (0.95 − 3 se)"]).all())
    reading = (
        f"- Settings run (of the paper's 16 binary ones): {done}; {len(full)} with the full {500} runs, the others "
        f"partly. Not yet run: {missing or 'none'} (the machine was shared with other jobs; the script resumes where it stopped).\n"
        f"- `compare_to`'s one-sided 95 % bound covers the true gain in {full['gain: compare_to coverage'].min():.3f}–"
        f"{full['gain: compare_to coverage'].max():.3f} of the runs of the complete settings "
        f"({'at or above' if ok('gain: compare_to coverage') else 'NOT always above'} the floor 0.95 − 3 se); the "
        f"naive bound (winner held fixed) in {full['gain: naive coverage'].min():.3f}–{full['gain: naive coverage'].max():.3f}.\n"
        f"- The naive gain is biased upward by {full['gain: naive bias'].min():+.3f} to {full['gain: naive bias'].max():+.3f}; "
        f"`compare_to`'s estimate by {full['gain: compare_to bias'].min():+.3f} to {full['gain: compare_to bias'].max():+.3f} "
        "(slightly pessimistic, as BBC's own estimate is).\n"
        f"- `top_k`'s five bounds hold together in {full['top5: simultaneous coverage'].min():.3f}–"
        f"{full['top5: simultaneous coverage'].max():.3f} of the runs "
        f"({'at or above' if ok('top5: simultaneous coverage') else 'NOT always above'} the floor); five naive "
        f"DeLong bounds hold together in {full['top5: naive simultaneous coverage'].min():.3f}–"
        f"{full['top5: naive simultaneous coverage'].max():.3f}.\n"
        "- The price is width: the corrected bounds sit further below the truth than the naive ones (which are "
        "invalid). At N = 50 they are loose (the out-of-bag rows are about 18 of 50, and with balance 0.1 only about 2 "
        "positives); at N = 500 the gain's bound is "
        f"{full[full.N == 500]['gain: compare_to width'].min():.2f}–{full[full.N == 500]['gain: compare_to width'].max():.2f} "
        "below the truth. Both methods over-cover rather than "
        "under-cover: like BBC's, their bounds are conservative.")
    return f"""# Honest comparisons: coverage with known truth (`bench/compare.py`)

Written {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {platform.machine()} ({os.cpu_count()} cores, load average
{load:.1f} while writing: the machine was shared, so read ratios, not seconds). Records: `bench/results/compare/`.

Each run simulates one CVT with the CI-in-AutoML paper's Beta generator (`simulate_predictions`; the setting numbers
are `paper_settings()` rows), with every configuration's true AUC known. The baseline is column 0 (the configurations
are exchangeable, so it stands for any fixed default); the winner ĉ is the CV winner (fold-mean rule). One-sided
bounds at 95 %, B = {int(records.n_bootstraps.iloc[0])} bootstraps. Coverage must be at least the floor 0.95 − 3·se
(se = √(0.95·0.05/runs)). *Width* is the mean distance of the bound below the truth (smaller is tighter); *bias* is the
mean of estimate − truth.

## What the numbers say

{reading}

## The gain over a baseline: `compare_to` vs the naive gain

The naive answer is the winner's CV value minus the baseline's, with DeLong's paired lower bound keeping the winner
fixed (`paired_difference(y, P[:, ĉ], P[:, 0], alternative="greater")`; 0 when the baseline itself won).

{table(gain_cols)}

## The top 5 by CV: `top_k` (simultaneous) vs per-configuration DeLong bounds

Simultaneous coverage: all five truths at or above their bounds in the same run. The naive bounds are DeLong's 95 %
lower bounds of each of the five CV-best configurations on the pooled out-of-fold predictions, with no selection
accounted for; its bias column is the CV values' (the apparent performance).

{table(top_cols)}

## Cost: `compare_to` and `top_k` against `bbc` on the same result

Medians of 3 interleaved calls in CPU seconds (`bench/_timing.py`, `clock="cpu"`; one thread, so other jobs' load does not count). The goal: at most 1.5× `bbc`.

{chr(10).join(timing_lines)}

Within the study (every tenth run also timed `bbc` on its result, in wall seconds under the shared load), the median ratios per setting were
{', '.join(f"setting {r.setting}: {r['seconds compare_to / bbc']:.2f}× / {r['seconds top_k / bbc']:.2f}×"
          for _, r in summary.iterrows() if np.isfinite(r['seconds compare_to / bbc']))} (compare_to / top_k, each over bbc).
{"" if items is None else item_section(items)}"""


# --- a benchmark's leaderboard: from_item_scores with known truth --------------------------------------------------
ITEM_RECORDS = ROOT / "bench" / "results" / "compare_items"
ITEM_SETTINGS = {  # name -> (models' skill shifts δ_j on the logit scale, subtask size: 1 = independent items)
    "equal": (np.zeros(30), 1),          # 30 models of one true accuracy: every margin is noise
    "spread": (np.linspace(-0.3, 0.3, 30), 1),  # true accuracies about 0.64-0.75: a real leader exists
    "equal_subtasks": (np.zeros(30), 10),  # equal models, items in subtasks of 10 sharing an ease shift
}
ITEM_POPULATION = 200_000  # items in the population a benchmark samples (its true means are known exactly)
ITEM_N = 500  # items per benchmark


def item_population(name, seed=20261128):
    """A large population of items × models outcomes (int8) and its true mean per model; subtasks share a random
    shift of their items' ease (logit scale), so their items are correlated."""
    shifts, size = ITEM_SETTINGS[name]
    rng = np.random.default_rng([seed, list(ITEM_SETTINGS).index(name)])
    logit = np.log(rng.beta(1.4, 0.6, ITEM_POPULATION).clip(1e-6, 1 - 1e-6))
    logit -= np.log1p(-np.exp(logit))  # logit of the ease
    if size > 1:
        logit += np.repeat(rng.normal(0, 1.0, ITEM_POPULATION // size), size)
    chance = 1 / (1 + np.exp(-(logit[:, None] + shifts[None, :])))
    outcomes = (rng.random(chance.shape) < chance).astype(np.int8)
    return outcomes, outcomes.mean(axis=0), size


def one_item_run(outcomes, truth, size, n_bootstraps, seed):
    "One benchmark of ITEM_N items (whole subtasks when size > 1): compare_to, top_k and the naive answers."
    from scipy.stats import norm
    from ciauto.adapters import from_item_scores
    rng = np.random.default_rng(seed)
    if size > 1:
        tasks = rng.choice(len(outcomes) // size, ITEM_N // size, replace=False)
        rows = (tasks[:, None] * size + np.arange(size)).ravel()
        groups = np.repeat(np.arange(len(tasks)), size)
    else:
        rows, groups = rng.choice(len(outcomes), ITEM_N, replace=False), None
    S = outcomes[rows].astype(np.float64)
    result = from_item_scores(S, groups=groups)
    gain = compare_to(result, 0, alternative="greater", n_bootstraps=n_bootstraps, random_state=seed)
    top = top_k(result, K, n_bootstraps=n_bootstraps, random_state=seed)
    w = gain.winner
    z = norm.ppf(1 - ALPHA)
    diff = S[:, w] - S[:, 0]  # the naive paired bound, the winner held fixed (a paired z interval on the items)
    naive = diff.mean() - z * diff.std(ddof=1) / np.sqrt(len(diff)) if w != 0 else 0.0
    row = dict(winner=w, truth_winner=truth[w], truth_baseline=truth[0], truth_gain=truth[w] - truth[0],
               cmp_estimate=gain.estimate, cmp_lower=gain.ci_low, naive_gain=gain.apparent, naive_lower=naive,
               winner_estimate=gain.winner_estimate)
    for j, c in enumerate(top.configurations):
        mean = S[:, c].mean()
        row.update({f"truth_r{j + 1}": truth[c], f"lower_r{j + 1}": top.lower[j], f"est_r{j + 1}": top.estimates[j],
                    f"apparent_r{j + 1}": top.apparent[j],
                    f"naive_r{j + 1}": mean - z * np.sqrt(mean * (1 - mean) / len(S))})  # Wald bound, one model alone
    return row


def run_items(name, runs, chunk, n_bootstraps, out=ITEM_RECORDS, quiet=False):
    "Runs 0..runs−1 of one item setting in chunks (each its own file, skipped when present: resumable)."
    outcomes, truth, size = item_population(name)
    for path, chunk_runs in missing_chunks(out, name, runs, chunk):
        rows = []
        for run in chunk_runs:
            seed = 7_000_003 * (list(ITEM_SETTINGS).index(name) + 1) + run
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rows.append(dict(setting=name, run=run, seed=seed, n_items=ITEM_N, n_models=outcomes.shape[1],
                                 subtask_size=size, n_bootstraps=n_bootstraps,
                                 **one_item_run(outcomes, truth, size, n_bootstraps, seed)))
        pd.DataFrame(rows).to_csv(path, index=False)
        if not quiet:
            print(f"items {name}: runs {chunk_runs[0]}-{chunk_runs[-1]} written to {path.relative_to(ROOT)}", flush=True)


def item_section(records: pd.DataFrame) -> str:
    "The item-score section of bench/compare.md: the design, the table and what it says."
    s = summarize(records.assign(n_samples=records.n_items, n_configurations=records.n_models, balance="—",
                                 beta=records.subtask_size.astype(str)))
    low = lambda col: f"{s[col].min():.3f}–{s[col].max():.3f}"
    spread = item_population("spread")[1]
    return f"""
## A benchmark's leaderboard: `from_item_scores` with known truth (`--items`)

A population of {ITEM_POPULATION:,} items × 30 models of right/wrong outcomes whose means are the models' true
accuracies (known exactly); each run samples a benchmark of {ITEM_N} items from it (whole subtasks of 10 items in
`equal_subtasks`, passed as `groups=`), reads it with `from_item_scores`, and bounds the leader's gain over model 0
(`compare_to`, one-sided 95 %) and the top 5 (`top_k`). Item ease ~ Beta(1.4, 0.6) on the logit scale plus a model's
skill shift: `equal` has 30 models of one true accuracy (every margin is noise), `spread` shifts from −0.3 to +0.3
(true accuracies {spread.min():.3f}–{spread.max():.3f}), `equal_subtasks` adds a shared N(0, 1) shift to each subtask's items. The naive
answers: the leader's paired z bound over the baseline with the leader held fixed, and a Wald bound per model alone.
B = {int(records.n_bootstraps.iloc[0])}, {records.groupby("setting").size().min()}–{records.groupby("setting").size().max()} runs per setting (records: `bench/results/compare_items/`).

{item_report(records)}

- `compare_to` covers the true gain in {low("gain: compare_to coverage")} of the runs, the naive bound in
  {low("gain: naive coverage")}; `top_k`'s five bounds hold together in {low("top5: simultaneous coverage")}, five naive
  bounds in {low("top5: naive simultaneous coverage")}.
{subtask_line(s)}"""


def subtask_line(summary: pd.DataFrame) -> str:
    "What the subtasks change, from the summary (empty until both equal settings have records)."
    rows = summary.set_index("setting")
    if not {"equal", "equal_subtasks"} <= set(rows.index):
        return ""
    eq, sub = rows.loc["equal"], rows.loc["equal_subtasks"]
    return (f"- Subtasks (`groups=`): the corrected gain bound sits {sub['gain: compare_to width']:.3f} below the truth "
            f"against {eq['gain: compare_to width']:.3f} with independent items, and covers "
            f"{sub['gain: compare_to coverage']:.3f}; the naive bound, which treats the items as independent, covers "
            f"{sub['gain: naive coverage']:.3f} (independent items: {eq['gain: naive coverage']:.3f}).\n")


def item_report(records: pd.DataFrame) -> str:
    "The item-score section of bench/compare.md, from the records."
    cols = ["setting", "runs", "floor (0.95 − 3 se)", "gain: compare_to coverage", "gain: naive coverage",
            "gain: compare_to bias", "gain: naive bias", "gain: compare_to width", "gain: naive width",
            "top5: simultaneous coverage", "top5: naive simultaneous coverage", "top5: width (mean truth − bound)",
            "top5: naive width"]
    summary = summarize(records.assign(n_samples=records.n_items, n_configurations=records.n_models,
                                       balance="—", beta=records.subtask_size.map(lambda s: f"subtasks of {s}")))
    fmt = lambda x: f"{x:.3f}" if isinstance(x, float) else str(x)
    lines = ["| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    lines += ["| " + " | ".join(fmt(r[c]) for c in cols) + " |" for _, r in summary.iterrows()]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smoke test: one tiny setting, a few runs")
    parser.add_argument("--settings", default=None, help="comma-separated paper_settings() rows (default: all binary)")
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--bootstraps", type=int, default=500)
    parser.add_argument("--report", action="store_true", help="write bench/compare.md from the records")
    parser.add_argument("--keep-timing", action="store_true", help="with --report: reuse the last timing run")
    parser.add_argument("--items", default=None,
                        help=f"comma-separated item-score settings ({', '.join(ITEM_SETTINGS)}): from_item_scores with known truth")
    args = parser.parse_args(argv)
    if args.quick:
        out = ROOT / "bench" / "out" / "compare_quick"
        for old in out.glob("*.csv"):
            old.unlink()
        run_setting(2, 6, 3, 100, out=out, quiet=True)
        print(summarize(pd.concat(pd.read_csv(p) for p in sorted(out.glob("*.csv")))).T.to_string())
        t = timing(n=200, c=20, b=200, repeats=1)
        print(f"ratio compare_to / bbc: {t['compare_to'] / t['bbc']:.2f}×, top_k / bbc: {t['top_k'] / t['bbc']:.2f}×")
        return
    if args.report:
        records = pd.concat(pd.read_csv(p) for p in sorted(RECORDS.glob("*.csv")))
        saved = ROOT / "bench" / "results" / "compare_timing.json"
        if args.keep_timing and saved.exists():
            times = json.loads(saved.read_text())
        else:
            times = [timing(n=500, c=100), timing(n=500, c=500), timing(n=2000, c=100)]
            saved.write_text(json.dumps(times, indent=1) + "\n")
        item_files = sorted(ITEM_RECORDS.glob("*.csv"))
        items = pd.concat(pd.read_csv(p) for p in item_files) if item_files else None
        text = report(records, times, items)
        (ROOT / "bench" / "compare.md").write_text(text)
        print(text)
        return
    if args.items is not None:
        for name in args.items.split(","):
            run_items(name, args.runs, args.chunk, args.bootstraps)
        return
    settings = DEFAULT_ORDER if args.settings is None else [int(s) for s in args.settings.split(",")]
    for setting in settings:
        run_setting(setting, args.runs, args.chunk, args.bootstraps)


if __name__ == "__main__":
    main()
