"""Cost of the CI-in-AutoML simulation study, and the BBC vs BBC-F timing design.

Run from the repository root:  python bench/study.py --quick  (smoke test: seconds)
                               python bench/study.py          (small: a slice of the study, 1-3 min on 2 cores)
                               python bench/study.py --full   (the whole 16 settings x 200 runs x 10 methods study)
                               python bench/study.py --reproduce 200 --modes reference default --n-jobs 2
                                   (both modes, saved every 25 runs to bench/results/sim_<mode>_<runs>/ as compressed
                                   CSV; a rerun skips the saved chunks; several processes share the grid by .lock files)
                               python bench/study.py --compare bench/results/sim_reference_200 bench/results/sim_default_200
                                   (the paper's table beside ciauto's, the difference in SE per cell, the ranks)
                               python bench/study.py --records-check   (the committed records against the printed table)
                               python bench/study.py --replay   (the authors' simulated inputs regenerated from their
                                   RandomState(4321) stream, checked against their summaries, ciauto run on them)
                               python bench/study.py --real-data 50 --configurations 81 --datasets phoneme mozilla4 phishing-websites
                                   (the real-data study in reproduction mode on a local 2-worker Dask cluster, saved
                                   every 4 splits to bench/results/real_<mode>_<C>c/, resumable from the saved chunks)
                               python bench/study.py --real-report bench/results/real_reference_81c [--splits n]
                                   (Table 3 and Table 5 beside the paper, the ranks, BT10p/MABT under both truths)

The slice runs `--runs` runs of each of the 16 binary settings of `paper_settings()` with all ten methods, once on
one process and once on two (loky), checks the two tables are identical, and extrapolates the wall time of the full
study (200 runs per setting) from the per-run cost of each setting. Timings on a shared machine are noisy: the
numbers that matter are the ratios (two processes vs one, each method's share of the time, BBC vs BBC-F).
"""
import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ciauto.simulation import paper_settings
from ciauto.study import (PAPER_METHODS, average_ranks, fallback_counts, paper_table, reference_options,
                          run_simulation_study, setting_label, summarize, timing_study, timing_summary,
                          without_fallback)

try:  # imported as bench.study (tests/test_results.py reads the records through it)
    from ._timing import CLOCKS, Stopwatch, best_seconds, timed
except ImportError:  # run as a script: bench/ is first on sys.path
    from _timing import CLOCKS, Stopwatch, best_seconds, timed

OUT = Path(__file__).parent / "out"
RESULTS = Path(__file__).parent / "results"  # the committed per-run records behind the tables


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def slice_study(n_runs: int, seed: int = 2024):
    grid = paper_settings()
    grid = grid[grid["main_table"]]
    walls = {}
    tables = {}
    for n_jobs in (1, 2):
        tables[n_jobs], watch = timed(run_simulation_study, grid, n_runs=n_runs, random_state=seed, n_jobs=n_jobs,
                                      progress=False)
        walls[n_jobs] = watch.wall
    same = tables[1].drop(columns="seconds").equals(tables[2].drop(columns="seconds"))
    runs = tables[1]
    per_setting = runs.groupby("setting", sort=False)["seconds"].sum() / n_runs  # method seconds per run
    per_method = runs.groupby("method", sort=False)["seconds"].sum()
    full_one_core = per_setting.sum() * 200
    scale = walls[1] / runs["seconds"].sum()  # wall / method time (simulation, selection, bookkeeping)
    print(f"machine: {machine()}")
    print(f"slice: 16 settings x {n_runs} runs x {len(PAPER_METHODS)} methods")
    print(f"  wall, 1 process: {walls[1]:.1f} s   wall, 2 processes: {walls[2]:.1f} s   "
          f"speed-up {walls[1] / walls[2]:.2f}x   identical tables: {same}")
    print(f"  wall / summed method seconds: {scale:.2f} (data simulation, the shared split, bookkeeping)")
    print("  method share of the time:")
    print((100 * per_method / per_method.sum()).round(1).to_string())
    print("  method seconds per run, by setting:")
    print(per_setting.round(3).to_string())
    estimate = full_one_core * scale / (walls[1] / walls[2])
    print(f"extrapolated full study (200 runs/setting) on 2 processes: {estimate / 60:.1f} min "
          f"(1 process: {full_one_core * scale / 60:.1f} min)")
    return runs, walls, estimate


def full_study(seed: int = 2024):
    grid = paper_settings()
    grid = grid[grid["main_table"]]
    runs, watch = timed(run_simulation_study, grid, n_runs=200, random_state=seed, n_jobs=2, progress=True)
    wall = watch.wall
    OUT.mkdir(exist_ok=True)
    runs.to_csv(OUT / "simulation_runs.csv.gz", index=False)
    summary = summarize(runs, missing="strict")
    ranks = average_ranks(summary)
    print(f"full simulation study: {len(runs)} records in {wall / 60:.1f} min on 2 processes ({machine()})")
    for value in ("inclusion", "tightness"):
        print(f"\n{value} (strict missing rule, * = rejected by the exact binomial test):")
        print(paper_table(summary, value, ranks=ranks).to_string())
    return runs, wall


def timing(n_repeats: int, grid=None):
    """BBC against BBC-F per call (B = 200) and per bootstrap: the per-bootstrap cost is the slope between B = 200
    and B = 1000 calls, so the fixed per-call cost (the fold matrix, argument checks, the winner) drops out."""
    grid = grid or {}
    t, watch = timed(timing_study, n_repeats=n_repeats, random_state=0, progress=False, **grid)
    table = timing_summary(t)
    print(f"\ntiming study (B = 200, one thread, {n_repeats} repeats, {watch.wall:.0f} s):")
    wide = table.pivot_table(index=["factor", "value"], columns="method", values="median").sort_index()
    wide["BBC / BBC-F"] = wide["BBC"] / wide["BBC-F"]
    t_big = timing_study(n_repeats=n_repeats, random_state=0, progress=False, n_bootstraps=1000, **grid)
    big = timing_summary(t_big).pivot_table(index=["factor", "value"], columns="method", values="median").sort_index()
    per_boot = (big - wide[["BBC", "BBC-F"]]) / 800  # seconds per extra bootstrap
    wide["BBC / BBC-F per bootstrap"] = per_boot["BBC"] / per_boot["BBC-F"]
    wide["BBC-F fixed share at B=200"] = 1 - 200 * per_boot["BBC-F"] / wide["BBC-F"]
    print("per-call ratio (B = 200) beside the per-bootstrap ratio (slope between B = 200 and B = 1000), and the "
          "share of BBC-F's call that does not grow with B:")
    print(wide.to_string(float_format=lambda v: f"{v:.4g}"))
    return wide


def cpu_timing(n_repeats: int = 7, sizes=((500, 5, 3), (500, 20, 3), (500, 100, 3), (5000, 5, 3), (500, 5, 10))):
    """BBC against BBC-F in CPU seconds of this process (robust on a loaded machine, where wall-clock medians are
    not): the smallest of `n_repeats` calls at B = 200 and at B = 1000; per bootstrap = the slope between them,
    fixed = what a call costs beyond B × the per-bootstrap cost."""
    from threadpoolctl import threadpool_limits

    from ciauto.bbc import bbc
    from ciauto.simulation import simulate_predictions
    rows = []
    with threadpool_limits(limits=1):
        for n, c, f in sizes:
            sim = simulate_predictions(24, 6, n_samples=n, n_configurations=c, n_folds=f, random_state=0)
            cost = {}
            for method in ("pooled", "folds"):
                for b in (200, 1000):
                    bbc(sim.predictions, sim.y, sim.folds, method=method, n_bootstraps=b, random_state=1, n_jobs=1)
                    seeds = iter(range(n_repeats))  # a new seed for each repeat
                    cost[method, b] = best_seconds(lambda: bbc(sim.predictions, sim.y, sim.folds, method=method,
                                                               n_bootstraps=b, random_state=next(seeds), n_jobs=1),
                                                   n_repeats, clock="cpu")
            per = {m: (cost[m, 1000] - cost[m, 200]) / 800 for m in ("pooled", "folds")}
            rows.append({"N": n, "C": c, "F": f, "BBC s/call (B=200)": cost["pooled", 200],
                         "BBC-F s/call (B=200)": cost["folds", 200],
                         "per-call ratio": cost["pooled", 200] / cost["folds", 200],
                         "per-bootstrap ratio": per["pooled"] / per["folds"],
                         "BBC-F fixed ms": 1000 * (cost["folds", 200] - 200 * per["folds"])})
    table = pd.DataFrame(rows)
    print("BBC vs BBC-F in CPU seconds (min of repeats); per-bootstrap = slope between B = 200 and B = 1000:")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    return table


def reproduce(n_runs: int, modes, n_jobs: int, seed: int = 2024, reverse: bool = False, methods=None,
              tag: str = "", chunk: int = 25, results: Path = RESULTS):
    """Both modes of the simulation study, one setting at a time (N = 500 rows first), saved every `chunk` runs as a
    compressed CSV (bench/results/sim_<mode>_<runs><tag>/<setting>_<first>-<last>.csv.gz, one row per setting ×
    run × method). A rerun skips the saved chunks (runs are keyed by index, so chunks equal one study); several
    processes share the grid, each claiming a chunk with a .lock file (a killed process leaves its lock: delete it)."""
    grid = paper_settings()
    grid = grid[grid["main_table"]].sort_values(["n_samples", "beta_a"], ascending=[False, False], kind="stable")
    chosen = list(methods or PAPER_METHODS)
    for mode in modes:
        folder = Path(results) / f"sim_{mode}_{n_runs}{tag}"
        folder.mkdir(parents=True, exist_ok=True)
        rows = [dict(row) for _, row in grid.iterrows()]
        for row in rows[::-1] if reverse else rows:
            label = setting_label(row)
            stem = label.replace(" ", "_").replace("=", "").replace(",", "-")
            for first in range(0, n_runs, chunk):
                size = min(chunk, n_runs - first)
                target = folder / f"{stem}_{first:03d}-{first + size - 1:03d}.csv.gz"
                lock = target.with_suffix(".lock")
                if target.exists():
                    continue
                try:
                    os.close(os.open(lock, os.O_CREAT | os.O_EXCL))
                except FileExistsError:
                    continue
                with Stopwatch() as watch:
                    runs = run_simulation_study(row, n_runs=size, first_run=first, random_state=seed, n_jobs=n_jobs,
                                                progress=False, methods=chosen,
                                                **reference_options(chosen) if mode == "reference" else {})
                    runs.assign(mode=mode, seed=seed).to_csv(target, index=False, float_format="%.10g")
                    lock.unlink()
                print(f"{mode} {label} runs {first}-{first + size - 1}: {len(runs)} records in "
                      f"{watch.wall:.0f} s ({time.strftime('%H:%M:%S')})", flush=True)


# ciauto's default mode, full study (200 runs per setting, seed 2024, commit 9629793; bench/README.md): inclusion %.
PUBLISHED_DEFAULT = """
method                            BBC  BBC-F     NB     DL     HM     BT  DL10p  HM10p  BT10p  MABT
setting                                                                                            
N=50 C=100 b=0.1 Beta(9,6)      100.0   96.5   5.0*      –      –      –      –      –      –     –
N=50 C=100 b=equal Beta(9,6)     99.5   99.5  36.0*  83.0*  84.5*      –  37.5*  43.0*      –     –
N=50 C=500 b=0.1 Beta(9,6)       99.5   99.0   0.5*      –      –      –      –      –      –     –
N=50 C=500 b=equal Beta(9,6)    100.0   98.5  20.5*  79.0*  83.0*      –   3.5*   4.0*      –     –
N=500 C=100 b=0.1 Beta(9,6)      98.5   98.5  76.0*  87.5*  84.5*  91.0*  70.0*  58.5*  79.5*     –
N=500 C=100 b=equal Beta(9,6)    99.0   99.0  86.0*   95.0   95.5   96.0  91.0*   92.5   98.0  98.5
N=500 C=500 b=0.1 Beta(9,6)      99.0   98.5  64.0*  82.5*  77.0*  90.5*  46.0*  37.0*  66.5*     –
N=500 C=500 b=equal Beta(9,6)    99.0   98.5  82.0*   95.0   95.5   96.5  89.5*   93.5   98.5  98.5
N=50 C=100 b=0.1 Beta(24,6)      98.5  90.5*   1.0*      –      –      –      –      –      –     –
N=50 C=100 b=equal Beta(24,6)    99.5   95.5  11.0*  72.5*  74.0*      –  12.5*  17.5*      –     –
N=50 C=500 b=0.1 Beta(24,6)      97.0  89.0*   0.0*      –      –      –      –      –      –     –
N=50 C=500 b=equal Beta(24,6)    99.0   95.5   1.5*  73.0*  75.5*      –   0.0*   0.0*      –     –
N=500 C=100 b=0.1 Beta(24,6)     97.5   95.5  58.5*  77.0*  74.0*  83.0*  49.0*  41.0*  71.5*     –
N=500 C=100 b=equal Beta(24,6)   97.5   98.0  74.5*  91.5*   96.0   97.0  79.5*  85.0*   93.0  94.0
N=500 C=500 b=0.1 Beta(24,6)     97.5   97.0  40.5*  75.5*  73.0*      –  20.5*  19.0*      –     –
N=500 C=500 b=equal Beta(24,6)   99.5   98.5  66.5*  87.0*  91.5*  92.0*  67.5*  81.5*   94.0  95.0
"""


PUBLISHED_DEFAULT_TIGHTNESS = """

tightness
method                            BBC   BBC-F       NB      DL      HM      BT    DL10p    HM10p   BT10p   MABT
setting                                                                                                        
N=50 C=100 b=0.1 Beta(9,6)      0.431   0.433  -0.137*       –       –       –        –        –       –      –
N=50 C=100 b=equal Beta(9,6)    0.224   0.258  -0.025*  0.208*  0.195*       –  -0.042*  -0.032*       –      –
N=50 C=500 b=0.1 Beta(9,6)      0.436   0.498  -0.173*       –       –       –        –        –       –      –
N=50 C=500 b=equal Beta(9,6)    0.218   0.259  -0.051*  0.183*  0.173*       –  -0.173*  -0.169*       –      –
N=500 C=100 b=0.1 Beta(9,6)     0.094   0.099   0.016*  0.080*  0.062*  0.096*   0.034*   0.014*  0.056*      –
N=500 C=100 b=equal Beta(9,6)   0.050   0.054   0.017*   0.057   0.059   0.065   0.047*    0.050   0.065  0.068
N=500 C=500 b=0.1 Beta(9,6)     0.090   0.096   0.009*  0.077*  0.060*  0.094*  -0.003*  -0.016*  0.025*      –
N=500 C=500 b=equal Beta(9,6)   0.047   0.049   0.013*   0.049   0.051   0.058   0.042*    0.047   0.069  0.071
N=50 C=100 b=0.1 Beta(24,6)     0.325  0.342*  -0.121*       –       –       –        –        –       –      –
N=50 C=100 b=equal Beta(24,6)   0.166   0.191  -0.055*  0.151*  0.146*       –  -0.077*  -0.071*       –      –
N=50 C=500 b=0.1 Beta(24,6)     0.308  0.337*  -0.127*       –       –       –        –        –       –      –
N=50 C=500 b=equal Beta(24,6)   0.163   0.202  -0.083*  0.150*  0.146*       –  -0.110*  -0.110*       –      –
N=500 C=100 b=0.1 Beta(24,6)    0.064   0.066   0.003*  0.058*  0.044*  0.074*   0.003*  -0.005*  0.027*      –
N=500 C=100 b=equal Beta(24,6)  0.035   0.036   0.007*  0.034*   0.038   0.043   0.021*   0.027*   0.041  0.043
N=500 C=500 b=0.1 Beta(24,6)    0.060   0.064  -0.004*  0.048*  0.035*       –  -0.023*  -0.025*       –      –
N=500 C=500 b=equal Beta(24,6)  0.032   0.033   0.004*  0.026*  0.030*  0.035*   0.007*   0.017*   0.032  0.038
"""


def _published_cells(text):
    lines = [l for l in text.strip().splitlines() if l.startswith("N=")]
    methods = next(l for l in text.splitlines() if l.startswith("method")).split()[1:]
    for line in lines:
        parts = line.split()
        for method, v in zip(methods, parts[4:]):
            yield " ".join(parts[:4]), method, v


def published_default_summary() -> pd.DataFrame:
    "The published default-mode table (inclusion, tightness) as a summary (n_runs = 200, '–' = a blanked cell)."
    tight = {(label, m): v for label, m, v in _published_cells(PUBLISHED_DEFAULT_TIGHTNESS)}
    rows = []
    for label, method, v in _published_cells(PUBLISHED_DEFAULT):
        t = tight[label, method]
        rows.append({"setting": label, "method": method,
                     "inclusion": np.nan if v == "–" else float(v.rstrip("*")) / 100,
                     "tightness": np.nan if t == "–" else float(t.rstrip("*")),
                     "n_runs": 200, "n_missing": 0 if v != "–" else 200,
                     "rejected": pd.NA if v == "–" else v.endswith("*")})
    return pd.DataFrame(rows)


def load_runs(folder) -> pd.DataFrame:
    """The saved runs of one mode: the compressed CSV chunks of `reproduce` (or one pickle per setting, as earlier
    rounds saved them); `a+b` joins the folders of one mode (e.g. a full run of some settings and a one-method rerun
    of all), keeping one record per setting, run and method."""
    parts = []
    for part in str(folder).split("+"):
        parts += [pd.read_pickle(f) for f in sorted(Path(part).glob("*.pkl"))]
        for f in sorted(Path(part).glob("*.csv.gz")):
            frame = pd.read_csv(f, keep_default_na=False, na_values=[""])
            frame["balance"] = [b if b == "equal" else float(b) for b in frame["balance"].astype(str)]
            frame["balance"] = frame["balance"].astype(object)
            frame["included"] = frame["included"].astype("boolean")
            frame["selected"] = frame["selected"].astype("Int64")
            frame["reason"] = frame["reason"].astype(object).where(frame["reason"].notna(), None)
            parts.append(frame)
    runs = pd.concat(parts, ignore_index=True)
    return runs.drop_duplicates(["setting", "run", "method"], ignore_index=True)


def mode_summary(runs: pd.DataFrame, mode: str) -> pd.DataFrame:
    return summarize(runs, missing="strict", strict=["NB"] if mode == "reference" else False)


def compare(folders):
    """The paper's table beside each saved mode: inclusion (%) per cell with z = difference / SE, the cells outside
    3 SE, and the average ranks over the complete rows. Markdown goes to bench/out/comparison.md."""
    from ciauto.study import PAPER_SIMULATION_RANKS, compare_with_paper
    lines = []
    say = lambda text="": (print(text), lines.append(text))
    modes = {}
    if "published" in folders:  # the default-mode full run published in bench/README.md (200 runs)
        folders = [f for f in folders if f != "published"]
        modes["default (published, 200 runs)"] = (None, published_default_summary())
    for folder in folders:
        mode = "reference" if "reference" in str(folder) else "default"
        runs = load_runs(folder)
        n_runs = runs.groupby(["setting", "method"])["run"].nunique()
        summary = mode_summary(runs, mode)
        say(f"{mode}: {folder} ({runs.setting.nunique()} settings, {n_runs.min()}-{n_runs.max()} runs per cell)")
        have = set(zip(summary.setting, summary.method))
        published = published_default_summary()
        fill = published[[(a, b) not in have and a in set(summary.setting)
                          for a, b in zip(published.setting, published.method)]]
        if len(fill):
            say(f"  {len(fill)} cells not run here (methods {sorted(set(fill.method))}) are taken from the "
                "published default-mode run (200 runs, commit 9629793)")
            summary = pd.concat([summary, fill], ignore_index=True)
            summary["rejected"] = summary["rejected"].astype("boolean")
            summary.attrs.update(key="setting", coverage=0.95)
        modes[mode] = (runs, summary)
    if "reference" in modes:  # the ranks also with NaN runs dropped instead of blanking their cell
        runs, summary = modes["reference"]
        dropped = summarize(runs, missing="drop", strict=["NB"])
        have = set(zip(dropped.setting, dropped.method))
        extra = summary[[(a, b) not in have for a, b in zip(summary.setting, summary.method)]]
        dropped = pd.concat([dropped, extra], ignore_index=True)
        dropped["rejected"] = dropped["rejected"].astype("boolean")
        dropped.attrs.update(key="setting", coverage=0.95)
        dropped = dropped[dropped.setting.str.startswith("N=500 ")]  # the paper's 8 ranked rows
        dropped.attrs.update(key="setting", coverage=0.95)
        drop_ranks = average_ranks(dropped)
    tables = {m: compare_with_paper(s) for m, (_, s) in modes.items()}
    first = next(iter(tables.values()))
    wide = first[["setting", "method", "inclusion_paper"]].copy()
    for m, t in tables.items():
        wide[f"{m}"] = t["inclusion_ciauto"].to_numpy()
        wide[f"z {m}"] = t["z"].to_numpy()
    say("\n### Inclusion per cell: the paper, ciauto in each mode, and the difference in standard errors (z)\n")
    fmt = lambda v: "–" if pd.isna(v) else f"{v:.2f}"
    header = "| setting | method | paper | " + " | ".join(f"{m} | z {m}" for m in tables) + " |"
    say(header)
    say("|" + " --- |" * (3 + 2 * len(tables)))
    for _, r in wide.iterrows():
        cells = " | ".join(f"{fmt(r[m])} | {fmt(r['z ' + m])}" for m in tables)
        say(f"| {r.setting} | {r.method} | {fmt(r.inclusion_paper)} | {cells} |")
    say("\n### Cells outside 3 SE (of the cells both tables report)\n")
    say(f"- before (previous round, bench/study.md at 2ec60d1): {BEFORE}")
    for m, t in tables.items():
        both = t[t.status == "both"]
        say(f"- {m}: {int(both.outside.sum())} of {len(both)} outside 3 SE; cells the paper has and ciauto blanks: "
            f"{int((t.status == 'paper only').sum())}; ciauto has and the paper blanks: "
            f"{int((t.status == 'ciauto only').sum())}")
        for _, r in both[both.outside].iterrows():
            say(f"  - {r.setting} {r.method}: paper {r.inclusion_paper:.2f}, ciauto {r.inclusion_ciauto:.3f} "
                f"(z = {r.z:+.1f})")
    say("\n### Average ranks\n")
    rank_rows = {"paper": pd.Series(PAPER_SIMULATION_RANKS)}
    for m, (_, summary) in modes.items():
        ranks = average_ranks(summary)
        rank_rows[f"{m} ({len(ranks.attrs['rows_used'])} rows)"] = ranks.loc["Avg Rnk"]
    if "reference" in modes:
        rank_rows[f"reference, the paper's N = 500 rows, NaN runs dropped ({len(drop_ranks.attrs['rows_used'])} rows)"] = \
            drop_ranks.loc["Avg Rnk"]
    rank_table = pd.DataFrame(rank_rows).T[list(PAPER_SIMULATION_RANKS)]
    say("| | " + " | ".join(rank_table.columns) + " |")
    say("|" + " --- |" * (1 + rank_table.shape[1]))
    for name, row in rank_table.iterrows():
        say(f"| {name} | " + " | ".join(fmt(v) for v in row) + " |")
    if "reference" in modes:
        runs, _ = modes["reference"]
        fell = runs[runs.reason.fillna("").str.startswith("fallback")]
        nan = runs[runs.n_samples == 500].assign(nan=runs.bound.isna())
        nan = nan.pivot_table(index="setting", columns="method", values="nan", aggfunc="sum")
        nan = nan.loc[:, nan.sum() > 0]
        say("\nNaN runs at N = 500 in reproduction mode (each blanks its cell under the strict rule):")
        say(nan.astype(int).to_string() if nan.shape[1] else "none")
        say(f"\nMABT runs that used the DeLong fallback in reproduction mode: {len(fell)} of "
            f"{int((runs.method == 'MABT').sum())}, by setting:")
        say(fell.groupby("setting").size().to_string())
        say("\nShare of runs whose bound has standard error 0 (perfectly separated eval rows: bound = estimate = 1 "
            "whatever the level), by setting and method:")
        runs = runs[runs.method.isin(["DL", "HM", "DL10p", "HM10p"])]
        degenerate = runs.assign(zero=runs.reason.fillna("").str.startswith("standard error 0"))
        say(degenerate.pivot_table(index="setting", columns="method", values="zero", aggfunc="mean")
            .round(3).to_string())
    OUT.mkdir(exist_ok=True)
    (OUT / "comparison.md").write_text("\n".join(lines) + "\n")
    return tables


def published_cells(text: str) -> pd.DataFrame:
    """The per-cell table of bench/study.md ('| setting | method | paper | reference | z reference | default | z
    default |'): one row per setting × method with the printed inclusions (NaN for '–')."""
    rows = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 7 and parts[0].startswith("N=") and parts[1] in PAPER_METHODS:
            value = lambda v: np.nan if v in ("–", "-") else float(v)
            rows.append({"setting": parts[0], "method": parts[1], "paper": value(parts[2]),
                         "reference": value(parts[3]), "default": value(parts[5])})
    return pd.DataFrame(rows)


def records_check(results: Path = RESULTS, study_md: Path = Path(__file__).parent / "study.md") -> pd.DataFrame:
    """The rerun simulation study's committed records (bench/results/sim_<mode>_200) against the published per-cell
    table of bench/study.md, for every setting whose 200 runs are all saved: the inclusion per cell recomputed from
    the records (the strict missing rule; NB strict in reproduction mode) beside the printed value (2 decimals)."""
    printed = published_cells(Path(study_md).read_text()).set_index(["setting", "method"])
    rows = []
    for mode in ("reference", "default"):
        folder = Path(results) / f"sim_{mode}_200"
        if not any(folder.glob("*.csv.gz")):
            continue
        runs = load_runs(folder)
        complete = runs.groupby("setting")["run"].nunique()
        runs = runs[runs.setting.isin(complete.index[complete == 200])]
        if runs.empty:
            continue
        summary = mode_summary(runs, mode)
        for _, cell in summary.iterrows():
            rows.append({"mode": mode, "setting": cell.setting, "method": cell.method,
                         "records": cell.inclusion, "printed": printed.loc[(cell.setting, cell.method), mode]})
    table = pd.DataFrame(rows)
    if len(table):
        as_printed = table.records.map(lambda v: np.nan if pd.isna(v) else float(f"{v:.2f}"))  # the table's format
        table["agrees"] = (as_printed == table.printed) | (table.records.isna() & table.printed.isna())
    return table


def _study_run(setting: dict, run: int, seed: int = 2024):
    "Run `run` of one setting exactly as the study draws it (reproduction mode's data and split), with its seed."
    from ciauto.simulation import simulate_predictions
    from ciauto.study import StudyRun, keyed_child
    s = {"n_folds": None, "n_classes": 2, **setting}
    key = keyed_child(np.random.SeedSequence(seed), setting_label(s), run)
    sim = simulate_predictions(s["beta_a"], s["beta_b"], n_samples=s["n_samples"],
                               n_configurations=s["n_configurations"], balance=s["balance"],
                               random_state=np.random.default_rng(keyed_child(key, "data")),
                               score_location="reference")
    study_run = StudyRun(sim.predictions, sim.y, sim.folds, truth=np.asarray(sim.true_performance),
                         selection_seed=keyed_child(key, "selection"), selection_options={"direction": "auto"})
    return sim, study_run, key


def bbcf_conventions(n_runs: int, n_configurations: int = 100, balance="equal", n_bootstraps: int = 1000):
    """BBC-F at (24, 6), N = 50 under the conventions that could differ from the authors' code, each on the same
    fold draws of every run (the study's own data): the in-bag tie rule (first / last index, a random choice), the
    authors' float path (float32 fold AUCs, a sequential mean over the sorted in-bag rows, argmax, also for the CV
    winner), and L_b as the pooled AUC of the out-of-bag rows instead of the mean of out-of-bag fold AUCs."""
    from ciauto.bbc import bbc
    from ciauto.intervals import fold_aucs
    from ciauto.study import keyed_child
    setting = dict(beta_a=24, beta_b=6, n_samples=50, n_configurations=n_configurations, balance=balance)
    found = {k: [] for k in ("ciauto", "first", "last", "random", "float32 path", "pooled OOB AUC")}
    for r in range(n_runs):
        sim, run, key = _study_run(setting, r)
        y, folds = np.asarray(sim.y), np.asarray(sim.folds)
        P = fold_aucs(sim.predictions, y, folds)
        P32 = P.astype(np.float32).astype(np.float64)
        truth = sim.true_performance[run.winner]
        truth32 = sim.true_performance[int(np.argmax(P32.mean(axis=0)))]
        out = bbc(sim.predictions, y, folds, method="folds", n_bootstraps=n_bootstraps, confidence_level=0.95,
                  alternative="greater", n_jobs=1,
                  random_state=np.random.default_rng(keyed_child(key, "method", "BBC-F")))
        found["ciauto"].append((truth >= out.confidence_interval.low, truth - out.confidence_interval.low))
        rng = np.random.default_rng([r, 11])
        F = P.shape[0]
        inbag = np.sort(rng.integers(0, F, (3 * n_bootstraps, F)), axis=1)
        V = np.stack([np.bincount(i, minlength=F) for i in inbag])
        keep = (V == 0).any(axis=1)  # at least one out-of-bag fold, as both codes redraw
        inbag, V = inbag[keep][:n_bootstraps], V[keep][:n_bootstraps]
        oob = (V == 0).astype(float)
        oob_mean = (oob @ P) / oob.sum(axis=1, keepdims=True)
        score = V @ P
        top = np.isclose(score, score.max(axis=1, keepdims=True), rtol=0, atol=1e-9)
        rows = np.arange(len(V))
        # Mann-Whitney counts per (case fold, control fold) for every column: the pooled AUC of any fold union
        cases, controls = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
        diff = sim.predictions[cases][:, None, :] - sim.predictions[controls][None, :, :]
        pairs = np.zeros((P.shape[1], F, F))
        np.add.at(pairs, (slice(None), folds[cases][:, None], folds[controls][None, :]),
                  np.moveaxis((diff > 0) + 0.5 * (diff == 0), 2, 0))
        n_cases, n_controls = np.bincount(folds[cases], minlength=F), np.bincount(folds[controls], minlength=F)
        first = top.argmax(axis=1)
        L = {"first": oob_mean[rows, first],
             "last": oob_mean[rows, P.shape[1] - 1 - top[:, ::-1].argmax(axis=1)],
             "random": oob_mean[rows, np.argmax(top * rng.random(top.shape), axis=1)],
             "float32 path": ((oob @ P32) / oob.sum(axis=1, keepdims=True))[rows, P32[inbag].mean(axis=1).argmax(1)],
             "pooled OOB AUC": np.einsum("bf,bfg,bg->b", oob, pairs[first], oob) / ((oob @ n_cases) * (oob @ n_controls))}
        for name, values in L.items():
            t = truth32 if name == "float32 path" else truth
            found[name].append((np.mean(values <= t) >= 0.05, t - np.sort(values)[int(0.05 * len(values))]))
    table = pd.DataFrame({k: {"inclusion": np.mean([a for a, _ in v]), "tightness": np.mean([b for _, b in v])}
                          for k, v in found.items()}).T
    print(f"BBC-F at (24, 6), N = 50, C = {n_configurations}, b = {balance}: {n_runs} runs of the study's data, "
          f"B = {n_bootstraps}")
    print(table.to_string(float_format=lambda v: f"{v:.4f}"))
    return table


def hm_fresh_eval(n_runs: int, n_fresh: int = 5):
    """HM (reference variant) and DL at (24, 6), N = 500, C = 100, b = 0.1: the bound for `best` on the study's
    eval rows, and for the same configuration and truth on fresh eval sets with the same class counts (and with
    balanced ones), so the selection's part and the small minority's part separate."""
    from scipy.stats import norm

    from ciauto.intervals import delong_bound, hanley_mcneil_bound
    setting = dict(beta_a=24, beta_b=6, n_samples=500, n_configurations=100, balance=0.1)
    hm = dict(variant="reference", n_total=500, threshold=0.0, direction="auto")
    found = {k: [] for k in ("HM study", "HM fresh", "HM fresh balanced", "DL study", "DL fresh",
                             "DL fresh balanced")}
    for r in range(n_runs):
        sim, run, _ = _study_run(setting, r)
        held = ~run.selection.learn_mask
        c = run.selection.best
        y_eval, s_eval, truth = np.asarray(sim.y)[held], sim.predictions[held, c], sim.true_performance[c]
        found["HM study"].append(truth >= hanley_mcneil_bound(y_eval, s_eval, **hm).bound)
        found["DL study"].append(truth >= delong_bound(y_eval, s_eval, direction="auto").bound)
        mu, rng = np.sqrt(2) * norm.ppf(truth), np.random.default_rng([r, 5])
        n0 = int((y_eval == 0).sum())
        for _ in range(n_fresh):
            for tag, a in (("", n0), (" balanced", len(y_eval) // 2)):
                y = np.r_[np.zeros(a, int), np.ones(len(y_eval) - a, int)]
                s = np.r_[rng.normal(-mu, 1, a), rng.normal(0, 1, len(y_eval) - a)]
                found["HM fresh" + tag].append(truth >= hanley_mcneil_bound(y, s, **hm).bound)
                found["DL fresh" + tag].append(truth >= delong_bound(y, s, direction="auto").bound)
    table = pd.Series({k: np.mean(v) for k, v in found.items()}, name="inclusion")
    print(f"HM and DL at (24, 6), N = 500, C = 100, b = 0.1: {n_runs} runs, {n_fresh} fresh eval sets per run")
    print(table.to_string(float_format=lambda v: f"{v:.3f}"))
    return table


# The authors' stored summaries (kparaschakis/BBC_algorithm, output/simulation_summaries_all.csv: average_best = mean
# best true AUC, average_theoretical = mean truth of the CV winner, the inclusion of DL/HM/BT/DL10p/HM10p/BT10p/MABT
# (PercentInclusion95_*), and output/simulation_summaries_winners_curse.csv: average_performance, 16 settings).
AUTHORS_SUMMARY = {  # label: (average_best, average_theoretical, DL, HM, BT, DL10p, HM10p, BT10p, MABT)
    "N=500 C=100 b=0.1 Beta(24,6)": (0.938496735098467, 0.9286088246673236, 0.895, 0.855, 0.93, 0.535, 0.26, 0.75, 0.805),
    "N=500 C=100 b=equal Beta(24,6)": (0.939378895972365, 0.935693090764626, 0.91, 0.9, 0.95, 0.79, 0.485, 0.925, 0.93),
    "N=500 C=500 b=0.1 Beta(24,6)": (0.955905372612243, 0.9451763288723696, 0.86, 0.83, 0.9, 0.305, 0.12, 0.68, 0.82),
    "N=500 C=500 b=equal Beta(24,6)": (0.957628796681962, 0.9541231380222276, 0.875, 0.875, 0.935, 0.67, 0.32, 0.965, 0.975),
    "N=500 C=100 b=0.1 Beta(9,6)": (0.866149611717786, 0.8542415578824497, 0.825, 0.695, 0.855, 0.71, 0.305, 0.815, 0.825),
    "N=500 C=100 b=equal Beta(9,6)": (0.863552958251042, 0.8598012751684132, 0.885, 0.84, 0.925, 0.905, 0.565, 0.95, 0.95),
    "N=500 C=500 b=0.1 Beta(9,6)": (0.901048114014419, 0.8868887596815039, 0.89, 0.84, 0.91, 0.61, 0.235, 0.82, 0.85),
    "N=500 C=500 b=equal Beta(9,6)": (0.904246092413367, 0.9001936230210765, 0.92, 0.87, 0.955, 0.875, 0.39, 0.965, 0.96),
}
AUTHORS_WINNER_TRUTH = {  # label: average_performance (mean truth of the CV winner), winners_curse file
    "N=500 C=100 b=0.1 Beta(24,6)": 0.9285412866959905, "N=50 C=500 b=0.1 Beta(24,6)": 0.8772870217918413,
    "N=50 C=100 b=0.1 Beta(24,6)": 0.8725162612875057, "N=500 C=100 b=equal Beta(9,6)": 0.8598012751684132,
    "N=500 C=100 b=0.1 Beta(9,6)": 0.8542415578824497, "N=500 C=100 b=equal Beta(24,6)": 0.9356930907646261,
    "N=50 C=100 b=equal Beta(24,6)": 0.8994839837770242, "N=500 C=500 b=equal Beta(9,6)": 0.9001936230210765,
    "N=50 C=500 b=equal Beta(24,6)": 0.9132129432171427, "N=50 C=100 b=equal Beta(9,6)": 0.8197119104165,
    "N=50 C=500 b=0.1 Beta(9,6)": 0.8084198226885672, "N=500 C=500 b=equal Beta(24,6)": 0.9541231380222277,
    "N=500 C=500 b=0.1 Beta(24,6)": 0.9455191468721472, "N=50 C=500 b=equal Beta(9,6)": 0.8464183963188754,
    "N=500 C=500 b=0.1 Beta(9,6)": 0.8868887596815039, "N=50 C=100 b=0.1 Beta(9,6)": 0.7888205036200067,
}
SPLIT_METHODS = ("DL", "HM", "BT", "DL10p", "HM10p", "BT10p", "MABT")
REPLAY_METHODS = {  # settings of the regenerated inputs that get methods (all: BBC-F), and their extra selection draws
    "N=500 C=100 b=0.1 Beta(24,6)": (list(PAPER_METHODS), 5),
    "N=50 C=100 b=equal Beta(24,6)": (["BBC", "BBC-F", "NB"], 1),
    "N=50 C=100 b=0.1 Beta(24,6)": (["BBC", "BBC-F"], 1),
    "N=50 C=500 b=equal Beta(24,6)": (["BBC", "BBC-F"], 1),
}


def replay_study(seed: int = 2024, results: Path = RESULTS, methods_everywhere=("BBC-F",)):
    """The authors' simulated inputs regenerated (`replay_reference_inputs`: their one RandomState(4321) stream, all
    16 binary settings, so the whole loop up to (24, 6), N = 500, C = 500, b = 0.1 is replayed, ≈ 1.6·10⁹ normals),
    checked against their stored summaries (mean best true AUC, mean truth of the CV winner), with ciauto's
    reproduction mode on them: `REPLAY_METHODS` per setting (the split methods over several learn/eval draws) and
    `methods_everywhere` on all 16. Records: bench/results/replay_reference.csv.gz; summary printed."""
    from ciauto.intervals import fold_aucs
    from ciauto.simulation import paper_settings, replay_reference_inputs
    from ciauto.study import StudyRun, apply_methods, keyed_child
    grid = paper_settings()
    keep = list(grid.index[grid.main_table])
    labels = {i: setting_label(dict(grid.loc[i])) for i in keep}
    root = np.random.SeedSequence(seed)
    checks, records = [], []
    method_seconds = 0.0
    with Stopwatch() as whole:
        for setting, run, sim in replay_reference_inputs(keep):
            label = labels[setting]
            truth = sim.true_performance
            P = fold_aucs(sim.predictions.astype(np.float32).astype(np.float64), sim.y, sim.folds)
            checks.append({"setting": label, "run": run, "best_truth": truth.max(),
                           "winner_truth": truth[np.argmax(P.mean(axis=0))]})
            chosen, draws = REPLAY_METHODS.get(label, ([], 1))
            chosen = list(dict.fromkeys([*chosen, *methods_everywhere]))
            with Stopwatch() as methods_watch:
                for draw in range(draws):
                    names = chosen if draw == 0 else [m for m in chosen if m in SPLIT_METHODS]
                    key = keyed_child(root, label, run, draw)
                    study_run = StudyRun(sim.predictions, sim.y, sim.folds, truth=truth,
                                         selection_seed=keyed_child(key, "selection"),
                                         selection_options={"direction": "auto"})
                    options = reference_options(names)
                    out = apply_methods(study_run, names, alpha=0.05, seed=key,
                                        method_options=options["method_options"])
                    strict = set(options["strict_inclusion"])
                    for r in out:
                        if r["method"] in strict and np.isfinite(r["bound"]):
                            r["included"] = bool(r["truth"] > r["bound"])
                        records.append({"setting": label, "run": run, "draw": draw, "method": r["method"],
                                        "bound": r["bound"], "truth": r["truth"], "included": r["included"],
                                        "selected": r["selected"], "seed": seed})
            method_seconds += methods_watch.cpu
            if run == 199:
                print(f"{label}: done at {whole.lap():.0f} s wall", flush=True)
    wall, cpu = whole.wall, whole.cpu
    results = Path(results)
    results.mkdir(parents=True, exist_ok=True)
    checks = pd.DataFrame(checks)
    checks.to_csv(results / "replay_checks.csv.gz", index=False, float_format="%.17g")
    runs = pd.DataFrame(records)
    runs["included"] = runs["included"].astype("boolean")
    runs.to_csv(results / "replay_reference.csv.gz", index=False, float_format="%.10g")
    print(f"replay: {wall:.0f} s wall, {cpu:.0f} CPU s ({method_seconds:.0f} of them in the methods), {machine()}")
    print(replay_report(results))
    return checks, runs


def replay_report(results: Path = RESULTS) -> str:
    "The markdown tables of the replay (bench/study.md) from bench/results/replay_{checks,reference}.csv.gz."
    checks = pd.read_csv(Path(results) / "replay_checks.csv.gz")
    runs = pd.read_csv(Path(results) / "replay_reference.csv.gz")
    runs["included"] = runs["included"].astype("boolean")
    lines = ["| setting | mean best true AUC: replay | authors | mean CV-winner truth: replay | authors (all / winners' curse file) |",
             "|---|---:|---:|---:|---:|"]
    for label, g in checks.groupby("setting", sort=False):
        best, theo = (AUTHORS_SUMMARY[label][:2] if label in AUTHORS_SUMMARY else (np.nan, np.nan))
        lines.append(f"| {label} | {g.best_truth.mean():.10f} | {best:.10f} | {g.winner_truth.mean():.10f} | "
                     f"{theo:.10f} / {AUTHORS_WINNER_TRUTH[label]:.10f} |".replace("nan", "–"))
    per = runs.groupby(["setting", "method", "draw"], sort=False)["included"].mean().unstack("draw")
    from ciauto.study import paper_simulation_table
    paper = paper_simulation_table().set_index(["setting", "method"])["inclusion"]
    lines += ["", "| setting | method | inclusion, draw 0 | mean over draws | per-draw SD | draws | tightness (draw 0) |"
              " authors' summary | paper |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    columns = ("DL", "HM", "BT", "DL10p", "HM10p", "BT10p", "MABT")
    for (label, method), row in per.iterrows():
        row = row.dropna()
        if row.empty:  # no run could be bounded (e.g. the split methods at N = 50, b = 0.1)
            continue
        t = runs[(runs.setting == label) & (runs.method == method) & (runs.draw == 0)]
        authors = (AUTHORS_SUMMARY[label][2 + columns.index(method)]
                   if label in AUTHORS_SUMMARY and method in columns else np.nan)
        printed = paper.get((label, method), np.nan)
        lines.append(f"| {label} | {method} | {row.iloc[0]:.3f} | {row.mean():.3f} | "
                     f"{row.std(ddof=1) if len(row) > 1 else np.nan:.3f} | {len(row)} | "
                     f"{(t.truth - t.bound).mean():.3f} | {authors:.3f} | {printed:.2f} |".replace("nan", "–"))
    return "\n".join(lines)


# The previous round's counts, for the before/after line of the comparison.
BEFORE = ("default mode 15 of 106 outside 3 SE (published run, 200 runs); reproduction mode 3 of 111 (60-100 runs "
          "per setting, BBC/BBC-F taken from the default run)")


def spread_grid(size: int):
    """The first `size` configurations of `default_configurations()` taken family by family (every family's first,
    then every family's second, ...), so a small grid still spans all eight families."""
    from ciauto.cvt import default_configurations
    by_family = {}
    for c in default_configurations():
        by_family.setdefault(c.family, []).append(c)
    spread = [c for rank in range(max(map(len, by_family.values()))) for cs in by_family.values()
              for c in cs[rank:rank + 1]]
    return spread[:size]


def _dask_context(backend: str, n_workers: int = 2):
    "joblib's Dask backend on a local cluster of `n_workers` single-threaded processes (as a cluster user would)."
    import contextlib

    from joblib import parallel_backend
    context = contextlib.ExitStack()
    if backend == "dask":
        from dask.distributed import Client, LocalCluster
        cluster = context.enter_context(LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                                     memory_limit="3GB", dashboard_address=None))
        context.client = context.enter_context(Client(cluster))
        context.enter_context(parallel_backend("dask"))
    return context


def _worker_cpu(context) -> float:
    "CPU seconds used so far by the Dask workers (the CPU clock of each, summed); NaN without Dask."
    client = getattr(context, "client", None)
    return sum(client.run(CLOCKS["cpu"]).values()) if client is not None else float("nan")


def _timed_split(name, size, split_count, grid, data_home, seed):
    "One dataset's first `split_count` splits on this worker, with the CPU seconds they took (this process's clock)."
    from ciauto.study import run_real_data_study
    cpu = CLOCKS["cpu"]  # the clock itself (a builtin), not a helper: this runs on a Dask worker
    start = cpu()
    runs = run_real_data_study([name], train_size=size, n_splits=split_count, configurations=grid,
                               random_state=seed, n_jobs=1, progress=False, data_home=data_home)
    return name, cpu() - start, runs


def real_data_cost(data_home: str, n_configurations: int = 24, seed: int = 7, backend: str = "dask"):
    "CPU seconds of one split per dataset of `PAPER_DATASETS` at `n_configurations` (one task per dataset)."
    from joblib import Parallel, delayed

    from ciauto.study import PAPER_DATASETS
    grid = spread_grid(n_configurations)
    with _dask_context(backend) as context:
        before = _worker_cpu(context)
        out = Parallel(n_jobs=-1)(delayed(_timed_split)(name, size, 1, grid, data_home, seed)
                                  for name, size in PAPER_DATASETS.items())
        total = _worker_cpu(context) - before
    cost = pd.Series({name: seconds for name, seconds, _ in out}, name="cpu_seconds")
    # in the run of bench/study.md the per-task process_time summed to twice the workers' own CPU time (not
    # explained): the workers' total is the figure to size a run with
    print(f"workers' CPU seconds in all: {total:.0f} (per-task sum {cost.sum():.0f})")
    OUT.mkdir(exist_ok=True)
    cost.to_csv(OUT / f"real_cost_{n_configurations}.csv")
    print(f"one split per dataset, {n_configurations} configurations: CPU seconds")
    print(cost.to_string(float_format=lambda v: f"{v:.1f}"))
    return cost


REAL_COLUMNS = ["dataset", "train_size", "n_holdout", "run", "method", "bound", "truth", "included", "selected",
                "mode", "n_configurations", "n_folds", "seed", "seconds", "reason"]


def real_folder(mode: str, n_configurations: int, seed: int = 7, results: Path = RESULTS) -> Path:
    "Where the chunks of one real-data run live: bench/results/real_<mode>_<C>c[_s<seed>]/."
    return Path(results) / f"real_{mode}_{n_configurations}c{'' if seed == 7 else f'_s{seed}'}"


def load_real_records(*folders) -> pd.DataFrame:
    """The per-run records of a chunked real-data run (every `*.csv.gz` chunk of the folders), one row per dataset ×
    split × method; a split saved twice (two processes, or a rerun chunk) is kept once."""
    files = sorted(f for folder in folders for f in Path(folder).glob("*.csv.gz"))
    if not files:
        return pd.DataFrame(columns=REAL_COLUMNS)
    runs = pd.concat([pd.read_csv(f) for f in files], ignore_index=True)
    runs = runs.drop_duplicates(["dataset", "seed", "run", "method"], ignore_index=True)
    runs["included"] = runs["included"].astype("boolean")
    runs["selected"] = runs["selected"].astype("Int64")
    runs["setting"] = runs["dataset"]
    runs.attrs.update(missing="drop", strict=["NB"] if (runs["mode"] == "reference").any() else [])
    return runs


def real_data(n_splits: int, data_home: str, n_configurations: int = 81, seed: int = 7, backend: str = "dask",
              datasets=None, mode: str = "reference", chunk: int = 4, results: Path = RESULTS):
    """The real-data study on datasets of the paper (`PAPER_DATASETS`, default all eleven), `n_splits` splits each,
    a grid of `n_configurations` spread over the families of `default_configurations()` (81: the whole grid), all
    ten methods (BBC/BBC-F B = 500) in `mode` ("reference": `reference_options()`, or "default"), through joblib's
    Dask backend on a local 2-worker cluster. Saved every `chunk` splits, append-only, one compressed CSV per
    chunk (bench/results/real_<mode>_<C>c/<dataset>_<first>-<last>.csv.gz); a rerun reads the saved chunks and runs
    only the missing split indices (every split is keyed by its index, so chunks equal one run). The datasets take
    turns chunk by chunk, so a cut-off run has every dataset about equally far."""
    from ciauto.study import PAPER_DATASETS, run_real_data_study
    names = list(datasets or PAPER_DATASETS)
    grid = spread_grid(n_configurations)
    folder = real_folder(mode, n_configurations, seed, results)
    folder.mkdir(parents=True, exist_ok=True)
    options = {}
    if mode == "reference":
        options = reference_options(PAPER_METHODS)
        options.pop("simulation_options")  # nothing is simulated
        # The committed reference records were made with B = 1000: run_real_data_study then let the
        # {"quantile": "reference"} entries replace its B = 500 (fixed since); keep them reproducible.
        options["n_bootstraps"] = 1000
    done = load_real_records(folder)
    todo = {}
    for name in names:
        have = set(done.loc[done.dataset == name, "run"]) if len(done) else set()
        missing = [i for i in range(n_splits) if i not in have]
        todo[name] = [missing[i:i + chunk] for i in range(0, len(missing), chunk)]
    print(f"{folder}: {len(done)} saved records; to run: "
          + ", ".join(f"{n} {sum(map(len, c))} splits" for n, c in todo.items()), flush=True)
    cost_path = folder / "cost.csv"
    with _dask_context(backend) as context:
        while any(todo.values()):
            for name in names:
                if not todo[name]:
                    continue
                splits = todo[name].pop(0)
                cpu = _worker_cpu(context)
                with Stopwatch() as watch:
                    runs = []
                    for first, last in _contiguous(splits):
                        runs.append(run_real_data_study([name], train_size=PAPER_DATASETS[name],
                                                        n_splits=last - first + 1, first_split=first,
                                                        configurations=grid, random_state=seed, n_jobs=-1,
                                                        progress=False, data_home=data_home, **options))
                    runs = pd.concat(runs, ignore_index=True).assign(mode=mode, seed=seed)
                wall, cpu = watch.wall, _worker_cpu(context) - cpu
                target = folder / f"{name}_{splits[0]:03d}-{splits[-1]:03d}.csv.gz"
                runs[REAL_COLUMNS].to_csv(target, index=False, float_format="%.10g")
                pd.DataFrame([{"dataset": name, "first": splits[0], "last": splits[-1], "wall_seconds": round(wall, 1),
                               "worker_cpu_seconds": round(cpu, 1), "finished": time.strftime("%Y-%m-%d %H:%M:%S")}]
                             ).to_csv(cost_path, mode="a", header=not cost_path.exists(), index=False)
                print(f"{name} splits {splits[0]}-{splits[-1]}: {wall:.0f} s wall, {cpu:.0f} CPU s on the workers "
                      f"({time.strftime('%H:%M:%S')})", flush=True)
    done = load_real_records(folder)
    summary = summarize(done)
    for value in ("inclusion", "tightness"):
        print(paper_table(summary, value, ranks=average_ranks(summary)).to_string())
    return done


def _contiguous(indices):
    "Runs of consecutive split indices as (first, last) pairs."
    pairs = []
    for i in indices:
        if pairs and i == pairs[-1][1] + 1:
            pairs[-1][1] = i
        else:
            pairs.append([i, i])
    return [tuple(p) for p in pairs]


# The paper's Table 3 (real data, 766 JADBio configurations, 100 splits): inclusion (tightness) per method; musk has
# BBC and BBC-F only. Read from ../shared/papers/ci_automl_v3.txt.
PAPER_REAL = {
    "credit-g": "0.95 (0.24) 0.95 (0.22) 0.86 (0.23) 0.69 (0.07) 0.11 (-0.23) 0.55 (0.02) 0.09 (-0.19) 0.21 (-0.10) 0.19 (-0.12) 0.37 (-0.05)",
    "spambase": "0.97 (0.19) 0.93 (0.17) 0.80 (0.20) 0.80 (0.19) 0.84 (0.15) 0.37 (0.02) 0.33 (-0.03) 0.95 (0.19) 0.93 (0.17) 0.38 (-0.02)",
    "musk": "0.97 (0.01) 0.93 (0.00) - - - - - - - -",
    "phoneme": "0.93 (0.22) 0.91 (0.20) 0.87 (0.27) 0.87 (0.27) 0.37 (-0.08) 0.59 (0.09) 0.41 (-0.06) 0.54 (0.00) 0.52 (-0.02) 0.28 (-0.04)",
    "phishing-websites": "0.96 (0.13) 0.90 (0.11) 0.64 (0.15) 0.64 (0.12) 0.89 (0.20) 0.24 (0.00) 0.22 (-0.03) 1.00 (0.28) 0.94 (0.26) 0.44 (-0.01)",
    "electricity": "0.99 (0.05) 0.97 (0.05) 0.97 (0.07) 0.97 (0.06) 0.99 (0.07) 0.99 (0.10) 0.94 (0.05) 1.00 (0.13) 0.99 (0.08) 0.90 (0.02)",
    "mozilla4": "0.97 (0.03) 0.94 (0.03) 0.85 (0.04) 0.82 (0.03) 0.91 (0.06) 0.84 (0.06) 0.71 (0.02) 0.98 (0.10) 0.91 (0.06) 0.76 (0.01)",
    "nomao": "0.97 (0.02) 0.97 (0.02) 0.85 (0.02) 0.89 (0.02) 0.95 (0.03) 0.88 (0.02) 0.78 (0.01) 1.00 (0.05) 1.00 (0.04) 0.70 (0.00)",
    "adult": "1.00 (0.04) 0.99 (0.04) 0.91 (0.05) 0.94 (0.06) 0.91 (0.06) 0.95 (0.07) 0.92 (0.04) 0.98 (0.10) 0.95 (0.06) 0.66 (0.01)",
    "bank-marketing": "0.93 (0.06) 0.93 (0.06) 0.82 (0.07) 0.92 (0.09) 0.87 (0.08) 0.89 (0.08) 0.83 (0.06) 0.94 (0.11) 0.91 (0.11) 0.59 (0.00)",
    "eeg-eye-state": "0.92 (0.05) 0.93 (0.06) 0.87 (0.07) 0.88 (0.06) 0.91 (0.08) 0.99 (0.11) 0.79 (0.04) 0.98 (0.13) 0.97 (0.10) 0.83 (0.03)",
}
PAPER_COLUMNS = ("BBC", "BBC-F", "DL", "HM", "BT", "DL10p", "HM10p", "BT10p", "MABT", "NB")  # Table 3's order
PAPER_REAL_RANKS = dict(zip(PAPER_COLUMNS, (1.6, 1.8, 5.9, 5.3, 5.6, 6.9, 8.0, 5.8, 4.9, 9.0)))


def _paper_real_cells(text: str) -> list:
    "One dataset's row of Table 3 as ten 'inclusion (tightness)' strings ('–' where the paper has none)."
    cells, tokens = [], text.split()
    while tokens:
        token = tokens.pop(0)
        cells.append("–" if token == "-" else f"{token} {tokens.pop(0)}")
    return cells


# The paper's Table 5 (ci_automl_v1.txt, appendix: average AUC-ROC lower bounds on the real data): the mean holdout
# AUC of the CV winner ("Hold Out"), of the validation-set and evaluation-set winners ("Val.", "Eval."), and the
# mean bound of each method. (Only v1 of the paper prints it; its runs may differ from Table 3's.)
PAPER_TABLE5_COLUMNS = ("Hold Out", "BBC", "BBC-F", "Val.", "Eval.", "DL", "HM", "BT", "DL10p", "HM10p", "BT10p", "MABT")
PAPER_TABLE5 = {
    "credit-g": "0.643 0.404 0.420 0.620 0.627 0.391 0.55 0.850 0.607 0.820 0.726 0.744",
    "spambase": "0.896 0.703 0.730 0.889 0.874 0.687 0.703 0.744 0.857 0.907 0.680 0.700",
    "musk": "1 0.986 1 - - - - - - - - -",
    "phoneme": "0.755 0.533 0.552 0.730 0.730 0.464 0.455 0.805 0.642 0.791 0.735 0.750",
    "phishing-websites": "0.939 0.807 0.831 0.926 0.934 0.777 0.810 0.726 0.939 0.964 0.653 0.670",
    "electricity": "0.859 0.811 0.811 0.857 0.856 0.791 0.793 0.783 0.754 0.807 0.726 0.772",
    "mozilla4": "0.950 0.920 0.919 0.950 0.950 0.908 0.920 0.894 0.895 0.933 0.853 0.895",
    "nomao": "0.979 0.962 0.962 0.979 0.979 0.959 0.959 0.950 0.957 0.957 0.930 0.942",
    "adult": "0.890 0.851 0.851 0.887 0.890 0.840 0.827 0.830 0.822 0.850 0.790 0.829",
    "bank-marketing": "0.866 0.805 0.804 0.867 0.870 0.801 0.778 0.786 0.789 0.816 0.764 0.761",
    "eeg-eye-state": "0.791 0.739 0.727 0.789 0.787 0.719 0.725 0.711 0.682 0.748 0.659 0.684",
}


def both_truths(runs: pd.DataFrame) -> pd.DataFrame:
    """BT10p and MABT scored against both truths: `winners_eval` (the holdout AUC of `final`, the evaluation-set
    winner they bound: ciauto's records, and the authors' truth for DL10p/HM10p) and `winners_valid` (the holdout
    AUC of `best`, the validation-set winner: the truth of DL/HM/BT, which the authors' `real_data_5_calculate_CI.py`
    uses for BT10p and MABT). One row per dataset × method × truth: n, inclusion, tightness."""
    best = (runs[runs.method.isin(["DL", "HM", "BT"])].dropna(subset=["truth"])
            .drop_duplicates(["dataset", "run"]).set_index(["dataset", "run"])["truth"])
    rows = []
    for method in ("BT10p", "MABT"):
        cell = runs[(runs.method == method) & runs.bound.notna()].set_index(["dataset", "run"])
        for name, truth in (("winners_eval", cell["truth"]), ("winners_valid", best.reindex(cell.index))):
            for dataset, part in pd.DataFrame({"bound": cell.bound, "truth": truth}).dropna().groupby(level=0):
                rows.append({"dataset": dataset, "method": method, "truth": name, "n": len(part),
                             "inclusion": (part.truth >= part.bound).mean(),
                             "tightness": (part.truth - part.bound).mean()})
    return pd.DataFrame(rows)


def _paper_real_summary(names) -> pd.DataFrame:
    """The paper's Table 3 rows of `names` as a summary for `average_ranks`: its printed inclusion and tightness, and
    `rejected` recomputed by the one-sided exact binomial test at its 100 splits (the text copy has lost the bold)."""
    from scipy.stats import binom
    rows = []
    for name in names:
        for method, cell in zip(PAPER_COLUMNS, _paper_real_cells(PAPER_REAL[name])):
            inclusion, tightness = ((np.nan, np.nan) if cell == "–" else
                                    (float(cell.split()[0]), float(cell.split()[1].strip("()"))))
            rows.append({"setting": name, "method": method, "inclusion": inclusion, "tightness": tightness,
                         "rejected": pd.NA if cell == "–" else bool(binom.cdf(round(100 * inclusion), 100, 0.95) <= 0.05)})
    summary = pd.DataFrame(rows)
    summary.attrs.update(key="setting", coverage=0.95)
    return summary


def real_study_report(*folders, splits: int | None = None) -> str:
    """The markdown tables of bench/study.md for a chunked real-data run (`load_real_records`): Table 3 (inclusion,
    tightness) and Table 5 (mean truths, mean bounds) beside the paper, the average ranks, and BT10p/MABT under
    both truths. `splits`: only the first that many splits of each dataset (the state a table was written at)."""
    runs = load_real_records(*folders)
    if splits is not None:
        runs = runs[runs["run"] < splits]
    summary = summarize(runs)
    splits = runs.groupby("dataset")["run"].nunique()
    configurations = int(runs["n_configurations"].max())
    mode = "/".join(sorted(set(runs["mode"])))
    names = [d for d in PAPER_REAL if d in set(runs["dataset"])]
    size = lambda name: int(runs.loc[runs.dataset == name, "train_size"].iloc[0])
    lines = [f"**Table 3** (inclusion (tightness); * = rejected by the one-sided exact binomial test at 0.95):", "",
             "| dataset | N | source | " + " | ".join(PAPER_COLUMNS) + " |",
             "|---|---:|---|" + "---|" * len(PAPER_COLUMNS)]
    for name in names:
        cell = summary[summary["setting"] == name].set_index("method")
        lines.append(f"| {name} | {size(name)} | paper (766 configs, 100 splits) | "
                     + " | ".join(_paper_real_cells(PAPER_REAL[name])) + " |")
        ours = [("–" if not np.isfinite(cell.loc[m, "inclusion"]) else
                 f"{'*' if cell.loc[m, 'rejected'] else ''}{cell.loc[m, 'inclusion']:.2f} ({cell.loc[m, 'tightness']:.2f})")
                for m in PAPER_COLUMNS]
        lines.append(f"| {name} | {size(name)} | ciauto {mode} ({configurations} configs, {splits[name]} splits) | "
                     + " | ".join(ours) + " |")
    ranks = average_ranks(summary)
    paper_ranks = average_ranks(_paper_real_summary(names))
    lines += ["", "| average rank | rows | " + " | ".join(PAPER_COLUMNS) + " |",
              "|---|---:|" + "---:|" * len(PAPER_COLUMNS),
              "| paper (its 10 ranked datasets) | 10 | " + " | ".join(f"{PAPER_REAL_RANKS[m]:.1f}" for m in PAPER_COLUMNS)
              + " |",
              f"| paper, these datasets (its printed cells; rejected = exact binomial test at 100 splits) | "
              f"{len(paper_ranks) - 1} | " + " | ".join(f"{paper_ranks.loc['Avg Rnk', m]:.1f}" for m in PAPER_COLUMNS)
              + " |",
              f"| ciauto, these datasets | {len(ranks) - 1} | "
              + " | ".join(f"{ranks.loc['Avg Rnk', m]:.1f}" for m in PAPER_COLUMNS) + " |"]
    # Table 5: mean holdout AUC of the CV winner (BBC's truth), of best (DL's) and final (DL10p's), mean bounds
    lines += ["", "**Table 5** (mean holdout AUC of the CV winner, of the validation-set winner `best` and of the "
              "evaluation-set winner `final`; then each method's mean bound):", "",
              "| dataset | source | " + " | ".join(PAPER_TABLE5_COLUMNS) + " |",
              "|---|---|" + "---:|" * len(PAPER_TABLE5_COLUMNS)]
    for name in names:
        cell = summary[summary["setting"] == name].set_index("method")
        truth = lambda m: cell.loc[m, "mean_truth"]
        ours = [truth("BBC"), cell.loc["BBC", "mean_bound"], cell.loc["BBC-F", "mean_bound"], truth("DL"),
                truth("DL10p")] + [cell.loc[m, "mean_bound"] for m in PAPER_TABLE5_COLUMNS[5:]]
        lines.append(f"| {name} | paper (v1) | " + " | ".join(PAPER_TABLE5[name].split()) + " |")
        lines.append(f"| {name} | ciauto | " + " | ".join("–" if not np.isfinite(v) else f"{v:.3f}" for v in ours)
                     + " |")
    both = both_truths(runs)
    lines += ["", "**BT10p and MABT under both truths** (inclusion (tightness); `winners_eval` = the holdout AUC of "
              "`final`, the configuration they bound; `winners_valid` = that of `best`):", "",
              "| dataset | BT10p eval | BT10p valid | MABT eval | MABT valid | paper BT10p | paper MABT |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for name in names:
        b = both[both.dataset == name].set_index(["method", "truth"])
        fmt = lambda m, t: (f"{b.loc[(m, t), 'inclusion']:.2f} ({b.loc[(m, t), 'tightness']:.2f})"
                            if (m, t) in b.index else "–")
        paper = _paper_real_cells(PAPER_REAL[name])
        lines.append(f"| {name} | {fmt('BT10p', 'winners_eval')} | {fmt('BT10p', 'winners_valid')} | "
                     f"{fmt('MABT', 'winners_eval')} | {fmt('MABT', 'winners_valid')} | "
                     f"{paper[PAPER_COLUMNS.index('BT10p')]} | {paper[PAPER_COLUMNS.index('MABT')]} |")
    lines += ["", "**MABT with and without the DeLong fallback** (k/n included, inclusion (tightness); with = "
              "`reference_options()`, Rink's original; without = the authors' copy, an infeasible run is missing and "
              "dropped; a degenerate fallback is DeLong with standard error 0, bound = eval AUC = 1):", "",
              "| dataset | MABT with fallback | MABT without fallback | without, against `best`'s truth | "
              "only the degenerate dropped | fallback runs with a bound | degenerate (bound 1) | fallback runs included "
              "| paper MABT |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    counts = fallback_counts(runs, "MABT", by="dataset").set_index("dataset")
    cells = summarize(without_fallback(runs, "MABT")).set_index(["setting", "method"])
    plain = runs[~((runs.method == "MABT") & runs.reason.fillna("").str.startswith("fallback"))]
    valid = both_truths(plain).set_index(["dataset", "method", "truth"])
    for name in names:
        c = counts.loc[name]
        fmt = lambda m: f"{cells.loc[(name, m), 'inclusion']:.2f} ({cells.loc[(name, m), 'tightness']:.2f})"
        v = valid.loc[(name, "MABT", "winners_valid")]
        lines.append(f"| {name} | {c.included_with}/{c.n_with} = {fmt('MABT')} | {c.included_without}/{c.n_without} = "
                     f"{fmt('MABT (no fallback)')} | {v.inclusion:.2f} ({v.tightness:.2f}) | "
                     f"{c.included_ordinary}/{c.n_ordinary} | {c.n_fallback} | "
                     f"{c.n_degenerate} | {c.n_fallback_included} | "
                     f"{_paper_real_cells(PAPER_REAL[name])[PAPER_COLUMNS.index('MABT')]} |")
    return "\n".join(lines)


def quick():
    "Smoke mode: two tiny settings in both modes, and one timing point (ratios only, no claims)."
    settings = [dict(beta_a=24, beta_b=6, n_samples=100, n_configurations=20),
                dict(beta_a=9, beta_b=6, n_samples=100, n_configurations=20, balance=0.1)]
    options = {"BBC": {"n_bootstraps": 100}, "BBC-F": {"n_bootstraps": 100}, "BT": {"n_bootstraps": 200},
               "BT10p": {"n_bootstraps": 200}, "MABT": {"n_bootstraps": 200}}
    ref = reference_options(PAPER_METHODS)
    ref["method_options"] = {m: {**o, **options.get(m, {})} for m, o in ref["method_options"].items()}
    for mode, kwargs in (("default", {"method_options": options}), ("reference", ref)):
        runs, watch = timed(run_simulation_study, settings, n_runs=2, random_state=0, progress=False, **kwargs)
        print(f"quick {mode}: {len(runs)} records in {watch.wall:.1f} s; "
              f"summed method seconds ratio BBC / BBC-F = "
              f"{runs[runs.method == 'BBC'].seconds.sum() / runs[runs.method == 'BBC-F'].seconds.sum():.2f}")
    timing(1, grid=dict(n_samples=(200,), n_configurations=(5,), n_folds=(3,)))
    cpu_timing(1, sizes=((200, 5, 3),))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke mode (seconds)")
    parser.add_argument("--full", action="store_true", help="run the whole simulation study (16 x 200 x 10)")
    parser.add_argument("--reproduce", type=int, default=0, help="runs per setting of the two-mode study")
    parser.add_argument("--modes", nargs="+", default=["reference", "default"])
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--reverse", action="store_true", help="work through the grid from its last setting")
    parser.add_argument("--methods", nargs="+", default=None, help="a subset of the methods (default: all ten)")
    parser.add_argument("--chunk-runs", type=int, default=25, help="runs per saved chunk of the simulation study")
    parser.add_argument("--tag", default="", help="suffix of the output folder")
    parser.add_argument("--compare", nargs="+", default=None, help="folders of saved runs to compare with the paper")
    parser.add_argument("--bbcf-conventions", type=int, default=0, help="runs of the BBC-F convention check")
    parser.add_argument("--hm-fresh", type=int, default=0, help="runs of the HM/DL fresh-eval-set check")
    parser.add_argument("--real-data", type=int, default=0, help="splits per dataset of the real-data study")
    parser.add_argument("--real-report", nargs="+", default=None, help="saved real-data runs (parquet): the table")
    parser.add_argument("--seed", type=int, default=7, help="root seed of the real-data splits (another: new splits)")
    parser.add_argument("--datasets", nargs="+", default=None, help="datasets of the real-data study (default: all 11)")
    parser.add_argument("--mode", default="reference", choices=["reference", "default"],
                        help="conventions of the real-data study (reference: reference_options())")
    parser.add_argument("--splits", type=int, default=None, help="--real-report: only the first that many splits")
    parser.add_argument("--chunk", type=int, default=4, help="splits per saved chunk of the real-data study")
    parser.add_argument("--results", default=str(RESULTS), help="folder of the saved real-data chunks")
    parser.add_argument("--replay", action="store_true",
                        help="regenerate the authors' simulated inputs (RandomState(4321)), check and run ciauto on them")
    parser.add_argument("--records-check", action="store_true",
                        help="the rerun simulation records against the published per-cell table")
    parser.add_argument("--replay-report", action="store_true", help="the replay's tables from bench/results/")
    parser.add_argument("--real-cost", action="store_true", help="CPU seconds of one real-data split per dataset")
    parser.add_argument("--configurations", type=int, default=24, help="grid size of the real-data study")
    parser.add_argument("--backend", default="dask", choices=["dask", "loky"], help="joblib backend of the real-data study")
    parser.add_argument("--cpu-timing", action="store_true", help="BBC vs BBC-F in CPU seconds, per call and per bootstrap")
    parser.add_argument("--data-home", default=os.environ.get("CIAUTO_DATA", "../shared/data"))
    parser.add_argument("--runs", type=int, default=4, help="runs per setting in the slice (default 4)")
    parser.add_argument("--timing-repeats", type=int, default=10, help="repetitions per timing point (paper: 100)")
    args = parser.parse_args()
    if args.quick:
        quick()
        raise SystemExit
    if args.reproduce:
        reproduce(args.reproduce, args.modes, args.n_jobs, reverse=args.reverse, methods=args.methods,
                  tag=args.tag, chunk=args.chunk_runs, results=Path(args.results))
        raise SystemExit
    if args.compare:
        compare(args.compare)
        raise SystemExit
    if args.bbcf_conventions:
        for c, b in ((100, "equal"), (100, 0.1), (500, "equal")):
            bbcf_conventions(args.bbcf_conventions, c, b)
        raise SystemExit
    if args.hm_fresh:
        hm_fresh_eval(args.hm_fresh)
        raise SystemExit
    if args.cpu_timing:
        cpu_timing()
        raise SystemExit
    if args.replay:
        replay_study(results=Path(args.results))
        raise SystemExit
    if args.records_check:
        table = records_check(Path(args.results))
        print(table.to_string(index=False) if len(table) else "no complete setting saved yet")
        raise SystemExit
    if args.replay_report:
        print(replay_report(Path(args.results)))
        raise SystemExit
    if args.real_report:
        print(real_study_report(*args.real_report, splits=args.splits))
        raise SystemExit
    if args.real_cost:
        real_data_cost(args.data_home, args.configurations, backend=args.backend)
        raise SystemExit
    if args.real_data:
        real_data(args.real_data, args.data_home, args.configurations, seed=args.seed, backend=args.backend,
                  datasets=args.datasets, mode=args.mode, chunk=args.chunk, results=Path(args.results))
        raise SystemExit
    slice_study(args.runs)
    timing(args.timing_repeats)
    if args.full:
        full_study()
