"""Cost of the CI-in-AutoML simulation study, and the BBC vs BBC-F timing design.

Run from the repository root:  python bench/study.py          (small: a slice of the study, 1-3 min on 2 cores)
                               python bench/study.py --full   (the whole 16 settings x 200 runs x 10 methods study)

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
from ciauto.study import (PAPER_METHODS, average_ranks, paper_table, run_simulation_study, summarize, timing_study,
                          timing_summary)

OUT = Path(__file__).parent / "out"


def machine() -> str:
    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def slice_study(n_runs: int, seed: int = 2024):
    grid = paper_settings()
    grid = grid[grid["main_table"]]
    walls = {}
    tables = {}
    for n_jobs in (1, 2):
        start = time.perf_counter()
        tables[n_jobs] = run_simulation_study(grid, n_runs=n_runs, random_state=seed, n_jobs=n_jobs, progress=False)
        walls[n_jobs] = time.perf_counter() - start
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
    start = time.perf_counter()
    runs = run_simulation_study(grid, n_runs=200, random_state=seed, n_jobs=2, progress=True)
    wall = time.perf_counter() - start
    OUT.mkdir(exist_ok=True)
    runs.to_csv(OUT / "simulation_runs.csv.gz", index=False)
    summary = summarize(runs, missing="strict")
    ranks = average_ranks(summary)
    print(f"full simulation study: {len(runs)} records in {wall / 60:.1f} min on 2 processes ({machine()})")
    for value in ("inclusion", "tightness"):
        print(f"\n{value} (strict missing rule, * = rejected by the exact binomial test):")
        print(paper_table(summary, value, ranks=ranks).to_string())
    return runs, wall


def timing(n_repeats: int):
    start = time.perf_counter()
    t = timing_study(n_repeats=n_repeats, random_state=0, progress=False)
    table = timing_summary(t)
    print(f"\ntiming study (B = 200, one thread, {n_repeats} repeats, {time.perf_counter() - start:.0f} s):")
    wide = table.pivot_table(index=["factor", "value"], columns="method", values="median").sort_index()
    wide["BBC / BBC-F"] = wide["BBC"] / wide["BBC-F"]
    print(wide.to_string(float_format=lambda v: f"{v:.4g}"))
    return table


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="run the whole simulation study (16 x 200 x 10)")
    parser.add_argument("--runs", type=int, default=4, help="runs per setting in the slice (default 4)")
    parser.add_argument("--timing-repeats", type=int, default=10, help="repetitions per timing point (paper: 100)")
    args = parser.parse_args()
    slice_study(args.runs)
    timing(args.timing_repeats)
    if args.full:
        full_study()
