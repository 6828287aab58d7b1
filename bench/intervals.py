"""Benchmark of ciauto.intervals: every competing method at eval sizes 12, 125, 1000 and K = 10, 50 preselected
configurations, ratios against straightforward reference implementations measured in the same run, and the cost of
the paper's simulation study (16 binary settings × 200 runs) on 2 cores.

Run from the repository root: `python bench/intervals.py --quick` (smoke), `python bench/intervals.py` (small) or
`python bench/intervals.py --full`.
Writes the numbers to bench/out/intervals.md (summarised in bench/README.md).
"""
import argparse
import os
import platform
import warnings
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

from _timing import Stopwatch, interleaved_medians, median_seconds, timed
from ciauto.intervals import (InfeasibleBoundWarning, bootstrap_aucs, delong_bound, empirical_influence,
                              placement_influence, stratified_counts, tilt_log_weights, tilting_bound)
from ciauto.simulation import SIMULATION_ARGS, paper_settings, simulate_predictions
from ciauto.study import StudyRun, apply_methods

METHODS = ("NB", "DL", "HM", "BT", "DL10p", "HM10p", "BT10p", "MABT")  # the competing methods (not BBC/BBC-F)

warnings.simplefilter("ignore", InfeasibleBoundWarning)


# --- straightforward references -------------------------------------------------------------------------------
def reference_replicate_aucs(y, scores, counts):
    "One scikit-learn weighted AUC per replicate and column: the loop the kernel replaces."
    return np.array([[roc_auc_score(y, scores[:, k], sample_weight=counts[r]) for k in range(scores.shape[1])]
                     for r in range(counts.shape[0])])


def pair_matrix_replicate_aucs(y, scores, counts):
    "Vectorised numpy reference: AUC_w = w₊ᵀ Ψ w₋ / (Σw₊ Σw₋) per column, O(R·m·n) through BLAS."
    pos, neg = counts[:, y == 1], counts[:, y == 0]
    out = np.empty((counts.shape[0], scores.shape[1]))
    for k in range(scores.shape[1]):
        a, b = scores[y == 1, k], scores[y == 0, k]
        psi = (a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])
        out[:, k] = np.einsum("rm,rm->r", pos @ psi, neg) / (pos.sum(1) * neg.sum(1))
    return out


def reference_delong(y, scores, alpha=0.05):
    "DeLong with the O(m·n) pair matrix."
    cases, controls = scores[y == 1], scores[y == 0]
    psi = (cases[:, None] > controls[None, :]) + 0.5 * (cases[:, None] == controls[None, :])
    v, u = psi.mean(axis=1), psi.mean(axis=0)
    theta = v.mean()
    return max(0.0, theta - 1.6448536269514722 * np.sqrt(v.var(ddof=1) / cases.size + u.var(ddof=1) / controls.size))


def reference_influence(y, counts, t):
    "empinf(type='reg') as plain least squares with an intercept (numpy's default BLAS threads)."
    sizes = np.where(y == 1, (y == 1).sum(), (y == 0).sum())
    kept = np.ones(len(y), dtype=bool)
    kept[[int(np.flatnonzero(y == c)[0]) for c in (0, 1)]] = False
    coef = np.linalg.lstsq(np.c_[np.ones(len(t)), counts[:, kept] / sizes[kept]], t, rcond=None)[0][1:]
    l = np.zeros(len(y))
    l[kept] = coef
    for c in (0, 1):
        l[y == c] -= l[y == c].mean()
    return l


def reference_weights(counts, influence, tau):
    "W_r(τ) = Π_j (n p_j)^f[r,j], one replicate at a time."
    p = np.exp(tau * influence) / np.exp(tau * influence).sum()
    return np.array([np.prod((len(p) * p) ** counts[r]) for r in range(counts.shape[0])])


# --- parts ----------------------------------------------------------------------------------------------------
def eval_data(n_eval, n_columns, seed):
    sim = simulate_predictions(9, 6, n_samples=n_eval, n_configurations=n_columns, random_state=seed)
    return sim.y, sim.predictions


def bench_parts(sizes, ks, n_reference_replicates, repeats):
    rows = []
    for n_eval in sizes:
        for k in ks:
            y, s = eval_data(n_eval, k, 0)
            counts = stratified_counts(y, 2000, np.random.default_rng(0))
            ours = median_seconds(lambda: bootstrap_aucs(y, s, counts), repeats=repeats, min_total=0)
            sub = counts[:n_reference_replicates]
            ref = (median_seconds(lambda: reference_replicate_aucs(y, s, sub), repeats=1, min_total=0) * 2000
                   / n_reference_replicates)
            rows.append(("replicate AUCs (R = 2000) vs sklearn loop", n_eval, k, ours, ref))
            assert np.allclose(pair_matrix_replicate_aucs(y, s, counts[:50]), bootstrap_aucs(y, s, counts[:50]))
            ours, ref = interleaved_medians(lambda: bootstrap_aucs(y, s, counts),
                                            lambda: pair_matrix_replicate_aucs(y, s, counts), repeats=repeats)
            rows.append(("replicate AUCs (R = 2000) vs numpy pair matrix", n_eval, k, ours, ref))
        y, s = eval_data(n_eval, 1, 0)
        s = s[:, 0]
        ours, ref = interleaved_medians(lambda: delong_bound(y, s), lambda: reference_delong(y, s), repeats=repeats)
        rows.append(("DeLong bound", n_eval, 1, ours, ref))
        counts = stratified_counts(y, 2000, np.random.default_rng(0))
        t = bootstrap_aucs(y, s, counts)[:, 0]
        ours, ref = interleaved_medians(lambda: empirical_influence(y, counts, t),
                                        lambda: reference_influence(y, counts, t), repeats=repeats)
        rows.append(("influence regression", n_eval, 1, ours, ref))
        l = empirical_influence(y, counts, t)
        ours = median_seconds(lambda: tilt_log_weights(counts, l, -2.0), repeats=repeats, min_total=0)
        ref = median_seconds(lambda: reference_weights(counts, l, -2.0), repeats=1, min_total=0)
        rows.append(("tilting weights, one τ", n_eval, 1, ours, ref))
    return rows


def bench_methods(sizes, ks, repeats):
    """Each method through the study's registry (`apply_methods` on one `StudyRun`) on simulated runs with
    n_eval = N − ⌊0.75 N⌋ and C = 10 K (top 10 % ≈ K); the shared learn/eval selection is timed on its own."""
    n_for_eval = {12: 48, 125: 500, 1000: 4000}
    rows = []
    for n_eval in sizes:
        for k in ks:
            n = n_for_eval[n_eval]
            times = {m: [] for m in METHODS}
            times["selection"] = []
            missing, k_seen = 0, []
            run_all(simulate_predictions(9, 6, n_samples=n, n_configurations=10 * k, random_state=99), 0)  # warm-up
            for rep in range(repeats):
                sim = simulate_predictions(9, 6, n_samples=n, n_configurations=10 * k, random_state=rep)
                run = StudyRun(sim.predictions, sim.y, sim.folds, truth=sim.true_performance, selection_seed=rep)
                selection, watch = timed(lambda: run.selection)
                times["selection"].append(watch.wall)
                for record in apply_methods(run, METHODS, seed=rep):
                    times[record["method"]].append(record["seconds"])
                    missing += int(np.isnan(record["bound"]))
                k_seen.append(selection.n_compared)
            rows.append(dict(n_eval=n_eval, K=int(np.median(k_seen)), N=n, C=10 * k,
                             **{m: float(np.median(v)) for m, v in times.items()},
                             nan_share=missing / (repeats * len(METHODS))))
    return rows


def bench_study(runs_per_setting):
    "Time whole runs (simulate + every method the paper runs there) on each of the 16 binary paper settings."
    grid = paper_settings()
    grid = grid[grid.main_table]
    rows = []
    for setting, row in grid.iterrows():
        args = row[list(SIMULATION_ARGS)].to_dict()
        times = []
        for rep in range(runs_per_setting + 1):
            with Stopwatch() as watch:
                sim = simulate_predictions(**args, random_state=1000 * setting + rep)
                methods = ["NB"] if split_too_small(sim.y, sim.folds) else list(METHODS)
                run_all(sim, rep, methods)
            if rep:  # the first run of each setting warms caches
                times.append(watch.wall)
        rows.append(dict(setting=setting, beta=f"({row.beta_a},{row.beta_b})", N=row.n_samples,
                         C=row.n_configurations, balance=row.balance, methods="NB only" if len(methods) == 1 else "all 8",
                         seconds_per_run=float(np.mean(times))))
    return rows


def run_all(sim, seed, methods=METHODS):
    "The competing methods on one simulated run, as the study applies them (one shared learn/eval selection)."
    run = StudyRun(sim.predictions, sim.y, sim.folds, truth=sim.true_performance, selection_seed=seed)
    return apply_methods(run, methods, seed=seed)


def split_too_small(y, folds, learn_share=0.75):
    "The reference study's skip rule: n_minority · learn_share < F (e.g. N = 50 with balance 0.1)."
    return bool(np.bincount(np.asarray(y)).min() * learn_share < np.unique(np.asarray(folds)).size)


def peak_megabytes(fn):
    "Peak traced allocation (numpy allocations included) of one call, in MB."
    import tracemalloc
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1e6


def bench_influence(sizes, big_sizes, repeats):
    """Influence values: the closed-form placements against the regression (the reference's empinf), and
    tilting_bound end to end at large eval sets, where the regression's n × n system was the cost (20 000 rows:
    131 s and 7.5 GB before)."""
    rows = []
    for n in sizes:
        y, s = eval_data(n, 1, 0)
        s = s[:, 0]
        counts = stratified_counts(y, 2000, np.random.default_rng(0))
        t = bootstrap_aucs(y, s, counts)[:, 0]
        ours, ref = interleaved_medians(lambda: placement_influence(y, s),
                                        lambda: empirical_influence(y, counts, t), repeats=repeats)
        agree = np.corrcoef(placement_influence(y, s), empirical_influence(y, counts, t))[0, 1]
        rows.append((f"influence values, placement vs regression (corr {agree:.4f})", n, ours, ref,
                     peak_megabytes(lambda: placement_influence(y, s)),
                     peak_megabytes(lambda: empirical_influence(y, counts, t))))
    for n in big_sizes:
        y, s = eval_data(n, 1, 0)
        s = s[:, 0]
        mb, watch = timed(peak_megabytes, lambda: tilting_bound(y, s, random_state=0))
        rows.append(("tilting_bound end to end (influence='auto': placements)", n, watch.wall, float("nan"), mb,
                     8 * n * n / 1e6))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--full", action="store_true", help="more repeats and reference replicates")
    parser.add_argument("--quick", action="store_true", help="smoke mode: the smallest sizes only")
    args = parser.parse_args()
    repeats = 9 if args.full else 2 if args.quick else 5
    n_reference = 200 if args.full else 5 if args.quick else 20
    study_runs = 10 if args.full else 0 if args.quick else 2
    sizes, ks = ((12,), (10,)) if args.quick else ((12, 125, 1000), (10, 50))
    out = [f"# ciauto.intervals benchmark\n",
           f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared with other work while measured, so seconds "
           f"are upper bounds; ratios are measured in the same run). Python {platform.python_version()}. "
           f"Mode: {'--full' if args.full else 'default'}. One BLAS thread inside BT/MABT. "
           f"Load average at start: {os.getloadavg()[0]:.1f}.\n"]

    parts = bench_parts(sizes, ks, n_reference, repeats)
    out += ["## Kernels against straightforward references\n",
            "Reference = the loop one would write first: scikit-learn's weighted `roc_auc_score` per replicate and "
            f"column (timed on {n_reference} replicates, scaled to 2000), or a vectorised numpy pair matrix "
            "(w₊ᵀΨw₋ per replicate through BLAS, O(R·m·n) per column), the O(m·n) pair matrix for DeLong, "
            "`np.linalg.lstsq` with an intercept (default BLAS threads) for the influence regression, and a loop "
            "over replicates for the tilting weights. Ratio = reference / ciauto.\n",
            "| part | n_eval | K | ciauto s | reference s | ratio |", "|---|---:|---:|---:|---:|---:|"]
    print(out[-2], flush=True)  # the table's header, so the printed rows say which column is the ratio
    for name, n_eval, k, ours, ref in parts:
        out.append(f"| {name} | {n_eval} | {k} | {ours:.5f} | {ref:.4f} | {ref / ours:.3g} |")
        print(out[-1], flush=True)

    methods = bench_methods(sizes, ks, repeats)
    cols = ["selection"] + list(METHODS)
    out += ["\n## Seconds per call of each method (median over runs)\n",
            "`apply_methods` (the study's registry) on simulated runs (Beta(9, 6), balance ½) with N = 48, 500, 4000 so that the eval part has "
            "12, 125, 1000 rows, and C = 10·K configurations so that the top 10 % holds K. BT/BT10p/MABT use R = 2000; "
            "NB R = 500. `nan` = share of NaN bounds (small eval sets: perfectly separated eval data, tilting "
            "infeasible, which also ends early).\n",
            "| n_eval | K | " + " | ".join(cols) + " | nan |", "|" + "---:|" * (len(cols) + 3)]
    for r in methods:
        out.append(f"| {r['n_eval']} | {r['K']} | " + " | ".join(f"{r[c]:.4f}" for c in cols)
                   + f" | {r['nan_share']:.2f} |")
        print(out[-1], flush=True)

    influence = bench_influence((200,) if args.quick else (125, 1000, 4000), (2000,) if args.quick
                                else (2000, 20000), repeats)
    out += ["\n## Influence values: closed-form placements against the regression, and large eval sets\n",
            "Ratio = regression (the reference's `empinf(type='reg')`) / placements, same run; memory = peak traced "
            "allocation of one call. The end-to-end rows run `tilting_bound` (R = 2000) with the default "
            "`influence='auto'`, which uses the placements above n = 1000; their last column is the n × n Gram "
            "matrix alone that the regression would need.\n",
            "| part | n_eval | ciauto s | regression s | ratio | ciauto MB | regression MB |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    print(out[-2], flush=True)
    for name, n, ours, ref, mb, ref_mb in influence:
        out.append(f"| {name} | {n} | {ours:.4f} | {ref:.4f} | {ref / ours:.3g} | {mb:.0f} | {ref_mb:.0f} |")
        print(out[-1], flush=True)
    if not study_runs:
        print("quick mode: the study-cost section is skipped")
        return
    study = bench_study(study_runs)
    total = sum(r["seconds_per_run"] * 200 for r in study)
    out += ["\n## Cost of the paper's simulation study (competing methods only)\n",
            f"Each of the 16 binary settings of `paper_settings()`: simulate + `apply_methods` (all 8 methods; NB only "
            f"where the reference skips the split methods, N = 50 with balance 0.1), mean of {study_runs} runs after a "
            "warm-up run. BBC/BBC-F are not included (ciauto.bbc).\n",
            "| setting | (a,b) | N | C | balance | methods | s/run | s for 200 runs |", "|---:|---|---:|---:|---|---|---:|---:|"]
    for r in study:
        out.append(f"| {r['setting']} | {r['beta']} | {r['N']} | {r['C']} | {r['balance']} | {r['methods']} | "
                   f"{r['seconds_per_run']:.3f} | {200 * r['seconds_per_run']:.0f} |")
    out.append(f"\n**Total: {total:.0f} s on one core ≈ {total / 2 / 60:.1f} min on 2 cores** (3200 runs split over 2 "
               "worker processes; each run is independent).\n")
    print(out[-1], flush=True)
    out += ["## Reading the numbers\n",
            "- Replicate AUCs cost O(R·K·n): one pass over each pre-sorted column per replicate (numba), never a sort. "
            "The vectorised pair matrix does O(R·K·m·n) work but through BLAS at a fraction of a nanosecond per pair, "
            "so it is faster for tiny eval sets and within a small factor either way elsewhere (see its ratio "
            "rows); the numba kernel also handles the per-replicate `direction='auto'` medians, which the pair "
            "matrix does not. scikit-learn's per-call overhead makes the plain loop 10^2–10^5 times slower.",
            "- The influence regression is O(R·n²) (Gram matrix + Cholesky, one BLAS thread); it dominates BT at "
            "n_eval = 1000. Multithreaded BLAS on a busy 2-core machine was ~100× slower than one thread for these "
            "small matrices, hence the thread limit.",
            "- DeLong, HM and NB cost well under a millisecond of arithmetic; their time is input checking, so the "
            "brute-force DeLong is as fast at these sizes (the ratio only says both are negligible).",
            "- The study's split methods see n_eval = 13 (N = 50) or 125 (N = 500) and K ≈ 10 or 50: BT and BT10p "
            "take ~0.1 s and MABT 0.1–0.35 s per run there, so the competing methods of the full simulation study "
            "fit in minutes on 2 cores; BBC/BBC-F (B = 1000) come on top.\n"]
    out_file = Path(__file__).parent / "out" / "intervals.md"
    out_file.parent.mkdir(exist_ok=True)
    out_file.write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
