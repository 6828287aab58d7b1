"""Timing of BBC and BBC-F (ciauto.bbc) against a straightforward implementation, in the paper's design.

The CI-in-AutoML paper times one full call (fold matrix + B bootstraps) while varying one factor at a time around
N = 500 samples, C = 5 configurations, F = 3 folds, B = 200 bootstraps, on binary Beta(24, 6) data with balance
0.5, and reports median times. The straightforward implementation below is what a direct reading of the
algorithms gives: numpy draws and one scikit-learn `roc_auc_score` per configuration and bootstrap (pooled), or
per fold and configuration plus a Python loop over bootstraps (folds). Both run on one core.

    python bench/bbc.py           # small: a few points per factor, writes bench/out/bbc.md
    python bench/bbc.py --full    # the paper's grids, more repetitions
    python bench/bbc.py --quick   # smoke test: one point per factor, tiny sizes
    python bench/bbc.py --metrics # only the per-metric section (issue 26), writes bench/out/bbc_metrics.md

A second section times the generic metric path (any metric other than ROC AUC and accuracy: one metric call per
configuration and bootstrap draw, with the multiplicities as sample weights) against a straightforward
implementation (numpy draws, the metric on the expanded in-bag arrays), says how its cost grows with B·C·N and
extrapolates to N = 20 000, C = 500, B = 1 000.

A third section (issue 26) times, in one run, every registry metric with a fast path beside ROC AUC at
N = 2 000, C = 100, B = 300 (the issue's point): seconds per unit of B·C·N and the ratio to roc_auc's, each metric's
calls interleaved with roc_auc's so that both see the same load. The goal: none above 3×.

    python bench/bbc.py --ovo     # only the one-vs-one AUC beside the binary AUC (issue 32), writes bench/out/bbc_ovo.md

A fourth section times the multiclass AUC (`roc_auc_ovo`, K = 10 classes) at N = 2 000, C = 20, B = 1 000 beside the
binary `roc_auc` on the same rows and configurations (the score of class 0 against the rest), calls interleaved;
the goal is ≤ 20×. The generic path (roc_auc_ovo wrapped as a plain Metric, one metric call per configuration and
draw) is timed at B = 20 and scaled to B (its cost is linear in B).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import warnings
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from scipy import stats
from sklearn.metrics import roc_auc_score

from _timing import Stopwatch, quartile_seconds, timed
from ciauto.bbc import bbc
from ciauto.metrics import Metric, roc_auc_ovo

DEFAULTS = dict(n=500, c=5, f=3, b=200)
FULL_GRID = dict(n=[50, 100, 250, 500, 1000, 5000, 10000], c=[5, 10, 20, 50, 100, 250], f=[3, 5, 10, 20, 30, 50])
SMALL_GRID = dict(n=[50, 500, 2000, 10000], c=[5, 25, 100, 250], f=[3, 10, 50])
QUICK_GRID = dict(n=[100], c=[5], f=[3])
SMALL_REFERENCE_B = 40  # the straightforward cost is exactly linear in B: the small run times B=40 and scales
GENERIC_BASE = dict(n=1000, c=20, b=100)
GENERIC_GRID = dict(n=[1000, 4000, 16000], c=[20, 80], b=[100, 400])
GENERIC_QUICK = dict(n=[200], c=[5], b=[20])


def beta_binormal(n, c, f, seed):
    "The paper's binary generator: AUC_c ~ Beta(24, 6), scores N(μ_c, 1) vs N(0, 1), folds i mod F over class-sorted rows."
    rng = np.random.default_rng(seed)
    mu = np.sqrt(2) * stats.norm.ppf(rng.beta(24, 6, c))
    y = np.r_[np.zeros(n // 2, int), np.ones(n - n // 2, int)]
    return rng.normal(size=(n, c)) + y[:, None] * mu, y, np.arange(n) % f


def draw_with_both_classes(rng, y, n):
    "In-bag rows drawn with replacement, redrawn until in-bag and out-of-bag rows both hold both classes."
    while True:
        idx = rng.integers(0, n, n)
        oob = np.setdiff1d(np.arange(n), idx)
        if len(np.unique(y[idx])) == 2 and len(np.unique(y[oob])) == 2:
            return idx, oob


def straightforward_pooled(scores, y, folds, b, seed):
    "Returns (seconds before the bootstrap loop, seconds in it): only the loop grows with B."
    with Stopwatch() as watch:
        rng = np.random.default_rng(seed)
        n, c = scores.shape
        fold_means = [np.mean([roc_auc_score(y[folds == k], scores[folds == k, j]) for k in np.unique(folds)])
                      for j in range(c)]
        int(np.argmax(fold_means))
        setup = watch.lap()
        L = []
        for _ in range(b):
            idx, oob = draw_with_both_classes(rng, y, n)
            best = int(np.argmax([roc_auc_score(y[idx], scores[idx, j]) for j in range(c)]))
            L.append(roc_auc_score(y[oob], scores[oob, best]))
    return setup, watch.wall - setup


def straightforward_folds(scores, y, folds, b, seed):
    "Returns (seconds for the fold matrix, seconds in the bootstrap loop)."
    with Stopwatch() as watch:
        rng = np.random.default_rng(seed)
        n_folds, c = len(np.unique(folds)), scores.shape[1]
        perf = np.array([[roc_auc_score(y[folds == k], scores[folds == k, j]) for j in range(c)]
                         for k in range(n_folds)])
        int(np.argmax(perf.mean(axis=0)))
        setup = watch.lap()
        L = []
        for _ in range(b):
            while True:
                idx = rng.integers(0, n_folds, n_folds)
                left_out = np.setdiff1d(np.arange(n_folds), idx)
                if left_out.size:
                    break
            best = int(np.argmax(perf[idx].mean(axis=0)))
            L.append(perf[left_out, best].mean())
    return setup, watch.wall - setup


def measure(point, repeats, reference_repeats, with_reference, reference_b=None):
    scores, y, folds = beta_binormal(point["n"], point["c"], point["f"], seed=point["n"] + point["c"] + point["f"])
    b = point["b"]
    rows = {}
    rows["BBC"] = quartile_seconds(lambda: bbc(scores, y, folds, method="pooled", n_bootstraps=b, random_state=0,
                                               n_jobs=1), repeats)
    rows["BBC-F"] = quartile_seconds(lambda: bbc(scores, y, folds, method="folds", n_bootstraps=b, random_state=0,
                                                 n_jobs=1), repeats)
    if with_reference:
        b_ref = reference_b or b
        for name, fn in (("BBC straightforward", straightforward_pooled), ("BBC-F straightforward", straightforward_folds)):
            parts = [fn(scores, y, folds, b_ref, 0) for _ in range(reference_repeats)]
            q = np.percentile([setup + loop * b / b_ref for setup, loop in parts], [25, 50, 75])
            rows[name] = (q[1], q[0], q[2])
    return rows


def brier(y, p, sample_weight=None):
    return float(np.average((p - y) ** 2, weights=sample_weight))


def absolute_error(y, p, sample_weight=None):
    return float(np.average(np.abs(p - y), weights=sample_weight))


ABSOLUTE = Metric("absolute_error", absolute_error, greater_is_better=False, lower=0.0, upper=1.0)


def straightforward_generic(probabilities, y, b, seed, loss=absolute_error):
    "Pooled BBC with a loss as written: numpy draws, the metric on the expanded in-bag arrays."
    rng = np.random.default_rng(seed)
    n, c = probabilities.shape
    L = []
    for _ in range(b):
        idx, oob = draw_with_both_classes(rng, y, n)
        best = int(np.argmin([loss(y[idx], probabilities[idx, j]) for j in range(c)]))
        L.append(loss(y[oob], probabilities[oob, best]))
    return np.array(L)


def generic_section(quick: bool):
    "Timings of the generic path over N, C and B, the growth exponent and the extrapolation the issue asked for."
    grid = GENERIC_QUICK if quick else GENERIC_GRID
    base = dict(n=200, c=5, b=20) if quick else GENERIC_BASE
    rows, points = [], []
    for factor in ("n", "c", "b"):
        for value in grid[factor]:
            point = dict(base, **{factor: value})
            scores, y, folds = beta_binormal(point["n"], point["c"], 5, seed=1)
            probabilities = 1 / (1 + np.exp(-scores))
            ours = quartile_seconds(lambda: bbc(probabilities, y, folds, metric=ABSOLUTE, n_bootstraps=point["b"],
                                                random_state=0, n_jobs=1, progress=False), 1 if quick else 3)[0]
            b_ref = max(5, point["b"] // 10)
            reference = timed(straightforward_generic, probabilities, y, b_ref, 0)[1].wall * point["b"] / b_ref
            points.append((point["b"] * point["c"] * point["n"], ours))
            rows.append(f"| {factor.upper()} | {value} | {fmt(ours)} | {fmt(reference)} | {reference / ours:.1f}× | "
                        f"{ours / (point['b'] * point['c'] * point['n']) * 1e9:.0f} ns |")
            print(rows[-1], flush=True)
    work, seconds = np.array(points, dtype=float).T
    slope = np.polyfit(np.log(work), np.log(seconds), 1)[0] if len(work) > 2 else float("nan")
    per_unit = np.median(seconds / work)
    target = 20_000 * 500 * 1_000
    scores, y, folds = beta_binormal(base["n"], base["c"], 5, seed=1)
    probabilities = 1 / (1 + np.exp(-scores))
    squared = quartile_seconds(lambda: bbc(probabilities, y, folds, metric="brier_score", n_bootstraps=base["b"],
                                           random_state=0, n_jobs=1), 1 if quick else 3)[0]
    b_ref = max(5, base["b"] // 10)
    squared_reference = timed(straightforward_generic, probabilities, y, b_ref, 0, loss=brier)[1].wall * base["b"] / b_ref
    lines = ["", "## The generic metric path (a plain callable: mean absolute error; one core)", "",
             f"Others at N={base['n']}, C={base['c']}, B={base['b']}, F=5. The straightforward implementation's "
             "loop is timed with B/10 bootstraps and scaled (its cost is linear in B).", "",
             "| factor | value | ciauto generic path | straightforward | ratio | per unit of B·C·N |",
             "| --- | --- | --- | --- | --- | --- |", *rows, "",
             f"- Growth: log time vs log(B·C·N) has slope **{slope:.2f}** (1 = linear); median "
             f"{per_unit * 1e9:.0f} ns per unit of B·C·N.",
             f"- Extrapolated to N = 20 000, C = 500, B = 1 000 on one core: about **{per_unit * target / 60:.0f} "
             f"min** (n_jobs threads divide it by up to the number of cores; `progress=True` shows a bar). The fast "
             "paths (ROC AUC, accuracy), the squared-error route and BBC-F do not go through this path.",
             f"- The squared-error route (r², MSE, Brier: one matrix product ranks a chunk of draws) at the base point "
             f"with the Brier score: {fmt(squared)} vs {fmt(squared_reference)} straightforward, ratio "
             f"**{squared_reference / squared:.0f}×**."]
    print("\n".join(lines[-3:]))
    return lines


FAST_METRICS = ("pr_auc", "average_precision", "balanced_accuracy", "accuracy", "brier_score", "f1", "neg_log_loss",
                "r2", "neg_mean_squared_error", "neg_mean_absolute_error", "neg_root_mean_squared_error")
REGRESSION = ("r2", "neg_mean_squared_error", "neg_mean_absolute_error", "neg_root_mean_squared_error")


def metric_costs(quick: bool):
    "Every fast metric's cost per unit of B·C·N beside roc_auc's, measured in the same run (issue 26)."
    n, c, b = (300, 10, 30) if quick else (2000, 100, 300)
    repeats = 1 if quick else 3
    scores, y, folds = beta_binormal(n, c, 5, seed=26)
    probabilities = 1 / (1 + np.exp(-(scores - 0.5)))
    rng = np.random.default_rng(26)
    target = rng.normal(size=n)
    regression = target[:, None] + rng.normal(size=(n, c)) * rng.uniform(0.5, 1.0, c)
    data = {name: (regression, target) if name in REGRESSION else (scores, y) if name in ("roc_auc", "pr_auc",
            "average_precision") else (probabilities, y) for name in ("roc_auc",) + FAST_METRICS}

    def call(name):
        predictions, truth = data[name]
        return timed(bbc, predictions, truth, folds, metric=name, n_bootstraps=b, random_state=0, n_jobs=1,
                     progress=False)[1].wall

    for name in data:  # compile and load every kernel outside the timings
        predictions, truth = data[name]
        small = slice(None, None, 5)  # every 5th row: both classes, three folds
        bbc(predictions[small, :3], truth[small], np.arange(len(truth[small])) % 3, metric=name, n_bootstraps=10,
            random_state=0, progress=False)
    units = b * c * n
    rows, worst = [], 0.0
    for name in FAST_METRICS:
        auc, ours = [], []
        for _ in range(repeats):  # interleaved: both sides under the same load
            auc.append(call("roc_auc"))
            ours.append(call(name))
        auc_s, ours_s = statistics.median(auc), statistics.median(ours)
        ratio = ours_s / auc_s
        worst = max(worst, ratio)
        rows.append(f"| {name} | {fmt(ours_s)} | {ours_s / units * 1e9:.2f} ns | {auc_s / units * 1e9:.2f} ns | "
                    f"**{ratio:.2f}×** |")
        print(rows[-1], flush=True)
    lines = ["", f"## Every metric's cost per unit of B·C·N beside roc_auc's (issue 26; one core)", "",
             f"N = {n}, C = {c}, B = {b}, F = 5, the whole `bbc` call (fold matrix, CV winner, bootstrap), median of "
             f"{repeats} calls each, every metric's calls interleaved with roc_auc's. Scores are binormal (Beta(24, 6) "
             "AUCs); label and probability metrics get σ(score − ½); regression metrics a Gaussian target with "
             "noisy predictions.", "",
             "| metric | seconds | per unit | roc_auc per unit (same run) | ratio |", "| --- | --- | --- | --- | --- |",
             *rows, "", f"- Largest ratio: **{worst:.2f}×** (goal ≤ 3×): " + (
                 "quick run at tiny sizes, where fixed per-call costs dominate: no goal" if quick
                 else "met." if worst <= 3 else "NOT met.")]
    print(lines[-1])
    return lines


def ovo_costs(quick: bool):
    "The one-vs-one AUC's fast path beside the binary AUC on the same rows and configurations (issue 32)."
    n, c, k, b = (300, 5, 4, 50) if quick else (2000, 20, 10, 1000)
    repeats, generic_b = (1, 5) if quick else (3, 20)
    rng = np.random.default_rng(32)
    y = np.r_[np.arange(k), rng.integers(0, k, n - k)]
    scores = rng.normal(size=(n, c, k)) + rng.uniform(0.2, 1.0, (1, c, 1)) * (np.arange(k) == y[:, None])[:, None, :]
    folds = np.arange(n) % 10
    binary, positive = scores[:, :, 0], (y == 0).astype(int)
    generic = Metric("roc_auc_ovo_generic", lambda t, p, sample_weight=None: roc_auc_ovo(t, p, sample_weight=sample_weight),
                     True, 0.0, 1.0, "multiclass")
    run = lambda P, t, metric, boots: timed(bbc, P, t, folds[:len(t)], metric=metric, n_bootstraps=boots,
                                            random_state=0, n_jobs=1, progress=False)[1].wall
    run(scores, y, "roc_auc_ovo", 2), run(binary, positive, "roc_auc", 2)  # compile and load outside the timings
    auc, ovo = [], []
    for _ in range(repeats):  # interleaved: both under the same load
        auc.append(run(binary, positive, "roc_auc", b))
        ovo.append(run(scores, y, "roc_auc_ovo", b))
    auc_s, ovo_s = statistics.median(auc), statistics.median(ovo)
    generic_s = run(scores, y, generic, generic_b) * b / generic_b
    ratio = ovo_s / auc_s
    lines = ["", "## The one-vs-one AUC beside the binary AUC (issue 32; one core)", "",
             f"N = {n}, K = {k} classes, C = {c}, B = {b}, F = 10, the whole `bbc` call, median of {repeats} calls each, "
             "interleaved. Binary: the same rows and configurations, class 0's score column against the rest.", "",
             "| path | seconds | ratio to binary roc_auc |", "| --- | --- | --- |",
             f"| roc_auc (binary) | {fmt(auc_s)} | 1 |",
             f"| roc_auc_ovo, fast path | {fmt(ovo_s)} | **{ratio:.1f}×** |",
             f"| roc_auc_ovo, generic path (timed at B = {generic_b}, scaled) | {fmt(generic_s)} | {generic_s / auc_s:.0f}× |",
             "", f"- Fast path vs binary: **{ratio:.1f}×** (goal ≤ 20×): " + (
                 "quick run at tiny sizes: no goal" if quick else "met." if ratio <= 20 else "NOT met."),
             f"- Fast path vs the generic path: **{generic_s / ovo_s:.0f}×** faster."]
    print("\n".join(lines), flush=True)
    return lines


def fmt(seconds):
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the paper's grids and more repetitions")
    parser.add_argument("--quick", action="store_true", help="smoke test: one tiny point per factor")
    parser.add_argument("--metrics", action="store_true", help="only every metric's cost beside roc_auc's (issue 26)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "out" / "bbc.md"))
    parser.add_argument("--ovo", action="store_true", help="only the one-vs-one AUC beside the binary AUC (issue 32)")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # BBC-F with F = 3 warns by design
    grid = FULL_GRID if args.full else QUICK_GRID if args.quick else SMALL_GRID
    repeats, reference_repeats = (20, 3) if args.full else (1, 1) if args.quick else (5, 1)
    reference_b = None if args.full else SMALL_REFERENCE_B

    if args.ovo:
        header = ["# The one-vs-one AUC in BBC", "",
                  f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average "
                  f"{os.getloadavg()[0]:.1f} at the start (shared machine: absolute times are noisy; the ratios "
                  "come from interleaved calls in one run)."]
        lines = header + ovo_costs(quick=args.quick)
        out = Path(args.out).with_name("bbc_ovo.md")
        out.parent.mkdir(exist_ok=True)
        out.write_text("\n".join(lines) + "\n")
        print(f"wrote {out}")
        return
    if args.metrics:
        header = [f"# Every metric beside roc_auc in BBC", "",
                  f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, load average "
                  f"{os.getloadavg()[0]:.1f} at the start (shared machine: absolute times are noisy; the ratios "
                  "come from interleaved calls in one run)."]
        lines = header + metric_costs(quick=args.quick)
        Path(args.out).parent.mkdir(exist_ok=True)
        out = Path(args.out).with_name("bbc_metrics.md")
        out.write_text("\n".join(lines) + "\n")
        print(f"wrote {out}")
        return
    warm = beta_binormal(60, 3, 3, 0)  # compile / load the numba kernels outside the timings
    bbc(*warm, n_bootstraps=20, random_state=0)
    bbc(*warm, method="folds", n_bootstraps=20, random_state=0)

    lines = [f"# Timing of BBC and BBC-F ({'full' if args.full else 'small'} run)", "",
             f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start (the machine is shared: "
             "absolute times are noisy, ratios measured in the same run are what counts). One core (n_jobs=1). "
             f"Medians [quartiles] of {repeats} calls for ciauto, {reference_repeats} for the straightforward "
             "implementation (numpy + scikit-learn per bootstrap, see the script)"
             + ("." if reference_b is None else f", its bootstrap loop timed with B={reference_b} and scaled to B (the loop's cost is linear in B)."),
             ""]
    table = ["| factor | value | BBC | BBC-F | BBC straightforward | BBC-F straightforward | BBC speed-up | BBC-F speed-up |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    print("\n".join(lines + table))
    pooled_times = []
    for factor in ("n", "c", "f"):
        for value in grid[factor]:
            point = dict(DEFAULTS, **{factor: value})
            rows = measure(point, repeats, reference_repeats, with_reference=True, reference_b=reference_b)
            pooled_times.append((point["b"] * point["c"] * point["n"], rows["BBC"][0]))
            cell = lambda k: f"{fmt(rows[k][0])} [{fmt(rows[k][1])}, {fmt(rows[k][2])}]"
            table.append(f"| {factor.upper()} | {value} | {cell('BBC')} | {cell('BBC-F')} | {fmt(rows['BBC straightforward'][0])} | "
                         f"{fmt(rows['BBC-F straightforward'][0])} | {rows['BBC straightforward'][0] / rows['BBC'][0]:.0f}× | "
                         f"{rows['BBC-F straightforward'][0] / rows['BBC-F'][0]:.0f}× |")
            print(table[-1], flush=True)

    if args.quick:
        lines_generic = generic_section(quick=True)
        metric_costs(quick=True)
        ovo_costs(quick=True)
        print("quick run: no goals, nothing written")
        return
    goals = ["", "## Goals", ""]
    goal_point = dict(n=500, c=100, f=3, b=200)
    rows = measure(goal_point, repeats, reference_repeats, with_reference=True, reference_b=reference_b)
    ratio = rows["BBC straightforward"][0] / rows["BBC"][0]
    goals.append(f"- BBC vs straightforward at N=500, C=100, B=200: {fmt(rows['BBC'][0])} vs "
                 f"{fmt(rows['BBC straightforward'][0])}, **{ratio:.0f}×** (goal ≥ 100×).")
    big = measure(dict(goal_point, b=1000), repeats, 0, with_reference=False)
    goals.append(f"- BBC at N=500, C=100, B=1000, one core: **{fmt(big['BBC'][0])}** (goal: well under a second).")
    goals.append(f"- BBC-F at the paper's defaults (N=500, C=5, F=3, B=200): **{fmt(measure(DEFAULTS, repeats, 0, False)['BBC-F'][0])}**; "
                 f"at N=500, C=100, F=3, B=1000: {fmt(big['BBC-F'][0])}.")
    for b in (1000, 4000):
        pooled_times.append((b * 100 * 500, measure(dict(goal_point, b=b), 3, 0, False)["BBC"][0]))
    work, seconds = np.array(pooled_times, dtype=float).T
    large = work >= 1e6  # below that, fixed per-call costs (checks, presort, seeds) dominate
    slope = np.polyfit(np.log(work[large]), np.log(seconds[large]), 1)[0]
    per_unit = np.median(seconds[large] / work[large])
    goals.append(f"- Growth: over the BBC timings with B·C·N ≥ 10⁶ ({large.sum()} points, N, C and B varied), "
                 f"log time vs log(B·C·N) has slope **{slope:.2f}** (1 = linear); median {per_unit * 1e9:.1f} ns per "
                 "unit of B·C·N.")
    print("\n".join(goals))
    Path(args.out).parent.mkdir(exist_ok=True)
    goals += generic_section(quick=False)
    goals += metric_costs(quick=False)
    Path(args.out).write_text("\n".join(lines + ["## One factor at a time (B = 200; others at N=500, C=5, F=3)", ""]
                                         + table + goals) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
