"""How far ciauto's hot paths are from what this machine can do: each timed beside a reference limit of our own, a
straightforward implementation and the peers, all in one run.

The reference limits are bench code (numba kernels here and in `_limits_lanes.py`), not ciauto's: each is checked to
reproduce ciauto's numbers before it is timed.
- BBC with roc_auc: 16 bootstrap draws per pass over the presorted columns, each row packed as one uint32
  (row << 2 | new tie block << 1 | label), the 16 draws' multiplicities side by side as uint8, and no flush per tie
  block: 2·credit = S1 + P·N − S2 with S1 = Σ_pos w·(negative weight below the row's block), S2 = Σ_neg w·(positive
  weight below its block), P and N the in-bag class weights. Same out-of-bag values and winners to the last bit.
- BBC with PR AUC / average precision: the same 16-lane pass with ciauto's float operations per tie block.
- BBC with balanced accuracy, F1, log loss, r²: one matrix product per chunk of draws (float32 for hit counts,
  exact below 2^24; float64 for losses, which reorders sums: values within 1e-12, winners equal).
- The presort: transpose once and the default argsort, against ciauto's argsort along axis 0 (stable).
- APS prediction sets: a one-pass kernel (the true class's score only on the calibration side; on the test side
  the ranked classes until the threshold is passed), same sets; and the read-once floor: numpy's row maxima of both
  matrices (every exact method reads every class of every row on both sides).
- roc_auc at N ≥ 1e5: a radix sort (LSD, 11-bit digits) against np.sort.

    python bench/limits.py --quick   # smoke mode (seconds): tiny sizes, equality checks, one repeat
    python bench/limits.py           # the issue's sizes, writes bench/out/limits.md
    python bench/limits.py --generate  # rewrite bench/_limits_lanes.py (the unrolled 16-lane kernels)

Every kernel runs on one core (bbc with n_jobs=1) and is timed in CPU seconds of this process (the machine is
shared: CPU time is less disturbed by other processes than elapsed time), as the median of interleaved repeats.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import platform
import subprocess
import sys
import warnings
from datetime import datetime, timezone
from pathlib import Path

import numba
import numpy as np
from numba import njit
from numba.core.compiler_lock import global_compiler_lock
from sklearn.metrics import roc_auc_score
from threadpoolctl import threadpool_limits

from _timing import interleaved_medians, timed
from ciauto.bbc import bbc
from ciauto.metrics import roc_auc
from ciauto.prediction_sets import conformal_sets

HERE = Path(__file__).parent
LANES = 16
UNIT = "ns per N·C·B"

# ----------------------------------------------------------------------------------------------------------------
# The vectoriser switch. numba compiles with LLVM's SLP vectoriser off (config.SLP_VECTORIZE, read each time a
# pass manager is built, i.e. at compile time) and has no per-function option for it; the environment variable
# NUMBA_SLP_VECTORIZE sets it for the whole process, and a cached kernel (cache=True) keeps whatever code the first
# compile produced: the flag is not part of the cache key. What works: compile the kernel's signature eagerly with
# the flag set for that compile only (under numba's compiler lock, so that no other thread compiles meanwhile). The
# object code then holds the vector instructions and the cache stores that code: later processes load it with the
# flag off. (A cache entry written earlier without the flag would be loaded instead; the kernel's own file then
# holds only kernels that are always compiled through this switch.)


@contextlib.contextmanager
def slp_vectorize():
    "LLVM's SLP vectoriser on for the compiles inside the block (and only those: numba's compiler lock is held)."
    with global_compiler_lock:
        before = numba.config.SLP_VECTORIZE
        numba.config.SLP_VECTORIZE = True
        try:
            yield
        finally:
            numba.config.SLP_VECTORIZE = before


def slp_compile(dispatcher, signature):
    "Compile `signature` of a numba dispatcher with the SLP vectoriser on (or load it from the cache)."
    with slp_vectorize():
        dispatcher.compile(signature)
    return dispatcher


# ----------------------------------------------------------------------------------------------------------------
# ciauto's draws, reproduced: splitmix64 from the per-bootstrap seed (SeedSequence(random_state).generate_state),
# rows drawn by multiply-shift, a draw redrawn until both classes are in-bag and out-of-bag.
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def seeds_of(random_state, n_bootstraps):
    "The per-bootstrap seeds of ciauto's bbc for an int random_state."
    return np.random.SeedSequence(random_state).generate_state(n_bootstraps, np.uint64)


@njit(cache=True, nogil=True)
def draw_counts(seed, codes, n_classes, counts):
    "One usable draw of rows (every class in-bag and out-of-bag) into `counts`; returns the out-of-bag class sizes."
    n = codes.shape[0]
    state = seed
    inside = np.zeros(n_classes, np.int64)
    outside = np.zeros(n_classes, np.int64)
    while True:
        counts[:] = 0
        for _ in range(n):
            state = state + _GAMMA
            z = state
            z = (z ^ (z >> np.uint64(30))) * _MIX1
            z = (z ^ (z >> np.uint64(27))) * _MIX2
            z = z ^ (z >> np.uint64(31))
            counts[np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))] += 1
        inside[:] = 0
        outside[:] = 0
        for i in range(n):
            if counts[i] > 0:
                inside[codes[i]] += 1
            else:
                outside[codes[i]] += 1
        if inside.min() > 0 and outside.min() > 0:
            return outside


@njit(cache=True, nogil=True)
def draw_block(seeds, codes, n_classes, counts, lanes, outside):
    "Draws for up to 16 seeds: `counts` (m×N int64), `lanes` (N×16 uint8, the same side by side), `outside` (m×K)."
    m = seeds.shape[0]
    lanes[:] = 0
    for d in range(m):
        outside[d] = draw_counts(seeds[d], codes, n_classes, counts[d])
        for i in range(codes.shape[0]):
            if counts[d, i] > 255:
                raise ValueError("a multiplicity above 255 does not fit a uint8 lane")
            lanes[i, d] = counts[d, i]


# ----------------------------------------------------------------------------------------------------------------
# Presort: transpose once, default argsort, one uint32 per sorted row.
def presort_packed(scores, labels):
    "C×N uint32: each column's rows by ascending score, as row << 2 | (score differs from the previous) << 1 | label."
    if scores.shape[0] >= 2**30:
        raise ValueError("the packed presort holds row indices below 2^30")
    columns = np.ascontiguousarray(scores.T)
    order = np.argsort(columns, axis=1)
    ranked = np.take_along_axis(columns, order, axis=1)
    packed = (order.astype(np.uint32) << np.uint32(2)) | labels.astype(np.uint32)[order]
    packed[:, 0] |= np.uint32(2)
    packed[:, 1:] |= (ranked[:, 1:] != ranked[:, :-1]).astype(np.uint32) << np.uint32(1)
    return packed


def presort_straightforward(scores, labels):
    "ciauto's presort before this study (argsort along axis 0, stable; int64 order and int8 codes)."
    order = np.ascontiguousarray(np.argsort(scores, axis=0, kind="stable").T)
    sorted_scores = np.take_along_axis(scores, order.T, axis=0).T
    codes = labels[order].astype(np.int8)
    codes[:, 1:] += 2 * (sorted_scores[:, 1:] != sorted_scores[:, :-1])
    return order, np.ascontiguousarray(codes)


# ----------------------------------------------------------------------------------------------------------------
# One column at a time (the out-of-bag value of each draw's winner) and the 16-lane kernels of any lane count
# (the straightforward loop-vectorised form, state in small arrays).
@njit(cache=True, nogil=True)
def credit_one(packed_column, weights):
    "2·credit of one presorted column for integer weights (2·credit = S1 + P·N − S2)."
    pos = neg = pos_below = neg_below = s = 0
    for k in range(packed_column.shape[0]):
        p = packed_column[k]
        if p & np.uint32(2):
            pos_below, neg_below = pos, neg
        w = np.int64(weights[np.int64(p >> np.uint32(2))])
        wp = w * np.int64(p & np.uint32(1))
        s += wp * neg_below - (w - wp) * pos_below
        pos += wp
        neg += w - wp
    return s + pos * neg


@njit(cache=True, nogil=True)
def credit_arrays(packed, counts, out):
    "As `credit_lanes`, the 16 draws' state in arrays (numba's loop vectoriser, no switch needed)."
    n_cfg, n = packed.shape
    m = counts.shape[1]
    pos = np.zeros(m, np.int32)
    neg = np.zeros(m, np.int32)
    pos_below = np.zeros(m, np.int32)
    neg_below = np.zeros(m, np.int32)
    s = np.zeros(m, np.int64)
    for c in range(n_cfg):
        pos[:] = 0
        neg[:] = 0
        pos_below[:] = 0
        neg_below[:] = 0
        s[:] = 0
        for k in range(n):
            p = packed[c, k]
            row = np.int64(p >> np.uint32(2))
            new = (p & np.uint32(2)) != 0
            lab = np.int32(p & np.uint32(1))
            for d in range(m):
                if new:
                    neg_below[d] = neg[d]
                    pos_below[d] = pos[d]
                w = np.int32(counts[row, d])
                wp = w * lab
                s[d] += np.int64(wp * neg_below[d] - (w - wp) * pos_below[d])
                pos[d] += wp
                neg[d] += w - wp
        for d in range(m):
            out[c, d] = s[d] + np.int64(pos[d]) * np.int64(neg[d])


@njit(cache=True, nogil=True)
def credit_blocks(packed, counts, out):
    """As `credit_arrays`, with ciauto's flush per tie block instead (2·credit += block positives × (2·negatives
    below + block negatives)): per row only two additions per draw, so on tied scores it is the faster limit."""
    n_cfg, n = packed.shape
    m = counts.shape[1]
    block_pos = np.zeros(m, np.int32)
    block_neg = np.zeros(m, np.int32)
    below = np.zeros(m, np.int32)
    s = np.zeros(m, np.int64)
    for c in range(n_cfg):
        block_pos[:] = 0
        block_neg[:] = 0
        below[:] = 0
        s[:] = 0
        for k in range(n):
            p = packed[c, k]
            if k > 0 and (p & np.uint32(2)) != 0:
                for d in range(m):
                    s[d] += np.int64(block_pos[d]) * (2 * np.int64(below[d]) + block_neg[d])
                    below[d] += block_neg[d]
                    block_pos[d] = 0
                    block_neg[d] = 0
            row = np.int64(p >> np.uint32(2))
            lab = np.int32(p & np.uint32(1))
            for d in range(m):
                w = np.int32(counts[row, d])
                block_pos[d] += w * lab
                block_neg[d] += w - w * lab
        for d in range(m):
            out[c, d] = s[d] + np.int64(block_pos[d]) * (2 * np.int64(below[d]) + block_neg[d])


@njit(cache=True, nogil=True, error_model="numpy")
def pr_one(packed_column, weights, total_pos, trapezoid):
    "ciauto's `_sorted_pr_area` on one packed column (same float operations, same bits)."
    tp = fp = area = prev_tp = 0.0
    prev_precision = 1.0
    block_pos = block_neg = 0
    previous = 1.0 if trapezoid else 0.0
    for k in range(packed_column.shape[0] - 1, -1, -1):
        p = packed_column[k]
        w = np.int64(weights[np.int64(p >> np.uint32(2))])
        positive = np.int64(p & np.uint32(1))
        block_pos += w * positive
        block_neg += w * (1 - positive)
        if (p & np.uint32(2)) == 0 and k > 0:
            continue
        tp += block_pos
        fp += block_neg
        precision = tp / max(tp + fp, 1.0)
        area += (tp - prev_tp) * (precision + previous * prev_precision)
        prev_tp = tp
        prev_precision = precision if block_pos + block_neg > 0 else prev_precision
        block_pos = 0
        block_neg = 0
    return (0.5 * area if trapezoid else area) / total_pos


@njit(cache=True, nogil=True)
def oob_weights(counts):
    out = np.empty(counts.shape[0], np.int64)
    for i in range(counts.shape[0]):
        out[i] = counts[i] == 0
    return out


@njit(cache=True, nogil=True)
def in_positive(counts, labels):
    total = 0
    for i in range(counts.shape[0]):
        total += counts[i] * labels[i]
    return total


# The unrolled kernels are generated (16 copies of each line).

def _auc_source():
    L = ["@njit(cache=True, nogil=True)",
         "def credit_lanes(packed, counts, out):",
         '    """2·credit (= S1 + P·N − S2) of every column for 16 draws at once. packed: C×N uint32 presorted rows',
         "    (row << 2 | new tie block << 1 | label), counts: N×16 uint8 multiplicities, out: C×16 int64. One scalar",
         '    per draw and quantity, so that LLVM\'s SLP vectoriser packs the 16 draws into vector registers."""',
         "    n_cfg, n = packed.shape",
         "    for c in range(n_cfg):"]
    for d in range(LANES):
        L.append(f"        pc{d} = nc{d} = pl{d} = nl{d} = np.int32(0)")
        L.append(f"        a{d} = np.int64(0)")
    L += ["        for k in range(n):",
          "            p = packed[c, k]",
          "            row = np.int64(p >> np.uint32(2))",
          "            new = (p & np.uint32(2)) != 0",
          "            lab = np.int32(p & np.uint32(1))",
          "            cr = counts[row]"]
    for d in range(LANES):
        L += [f"            w = np.int32(cr[{d}])",
              f"            nl{d} = nc{d} if new else nl{d}",
              f"            pl{d} = pc{d} if new else pl{d}",
              f"            wp = w * lab",
              f"            a{d} += np.int64(wp * nl{d} - (w - wp) * pl{d})",
              f"            pc{d} += wp",
              f"            nc{d} += w - wp"]
    for d in range(LANES):
        L.append(f"        out[c, {d}] = a{d} + np.int64(pc{d}) * np.int64(nc{d})")
    return "\n".join(L)


def _pr_source():
    L = ["@njit(cache=True, nogil=True, error_model='numpy')",
         "def pr_lanes(packed, counts, total_pos, trapezoid, out):",
         '    """PR AUC (trapezoid) or average precision of every column for 16 draws at once, walked from the top score',
         "    down with ciauto's float operations per tie block (so every value is the same to the last bit). packed and",
         '    counts as in `credit_lanes`; total_pos: the 16 draws\' in-bag positive weight (float64); out: C×16."""',
         "    n_cfg, n = packed.shape",
         "    previous = 1.0 if trapezoid else 0.0",
         "    for c in range(n_cfg):"]
    for d in range(LANES):
        L.append(f"        tp{d} = fp{d} = ar{d} = ptp{d} = 0.0")
        L.append(f"        pp{d} = 1.0")
        L.append(f"        bp{d} = bn{d} = np.int64(0)")
    L += ["        for k in range(n - 1, -1, -1):",
          "            p = packed[c, k]",
          "            row = np.int64(p >> np.uint32(2))",
          "            lab = np.int64(p & np.uint32(1))",
          "            cr = counts[row]"]
    for d in range(LANES):
        L += [f"            w = np.int64(cr[{d}])",
              f"            bp{d} += w * lab",
              f"            bn{d} += w * (1 - lab)"]
    L += ["            if (p & np.uint32(2)) == 0 and k > 0:",
          "                continue"]
    for d in range(LANES):
        L += [f"            tp{d} += bp{d}",
              f"            fp{d} += bn{d}",
              f"            pr = tp{d} / max(tp{d} + fp{d}, 1.0)",
              f"            ar{d} += (tp{d} - ptp{d}) * (pr + previous * pp{d})",
              f"            ptp{d} = tp{d}",
              f"            pp{d} = pr if bp{d} + bn{d} > 0 else pp{d}",
              f"            bp{d} = 0",
              f"            bn{d} = 0"]
    for d in range(LANES):
        L.append(f"        out[c, {d}] = (0.5 * ar{d} if trapezoid else ar{d}) / total_pos[{d}]")
    return "\n".join(L)


_HEADER = '''"""Generated by `python bench/limits.py --generate` (do not edit): the reference one-pass BBC kernels of bench/limits.py
with 16 bootstrap draws side by side, one scalar per draw, so that LLVM's SLP vectoriser can pack the draws into
vector registers. bench/limits.py compiles them with the vectoriser switched on (see its `slp_compile`)."""
import numpy as np
from numba import njit

LANES = 16

'''


def lanes_source():
    "The text of bench/_limits_lanes.py: the 16-lane kernels unrolled, one scalar per draw and quantity."
    return _HEADER + _auc_source() + "\n\n\n" + _pr_source() + "\n"


def _lanes_module():
    import _limits_lanes
    return _limits_lanes


def compiled_lanes(slp=True):
    "The unrolled 16-lane kernels, compiled (or loaded from numba's cache) with the SLP vectoriser on (`slp`)."
    lanes = _lanes_module()
    auc_sig = "void(uint32[:, ::1], uint8[:, ::1], int64[:, ::1])"
    pr_sig = "void(uint32[:, ::1], uint8[:, ::1], float64[::1], boolean, float64[:, ::1])"
    if slp:
        return slp_compile(lanes.credit_lanes, auc_sig), slp_compile(lanes.pr_lanes, pr_sig)
    lanes.credit_lanes.compile(auc_sig)
    lanes.pr_lanes.compile(pr_sig)
    return lanes.credit_lanes, lanes.pr_lanes


def reference_bbc(scores, y, random_state, n_bootstraps, metric="roc_auc", kernels=None, packed=None, blocks=False):
    """Pooled BBC (winner_rule="pooled" draws, unit rows) for roc_auc, pr_auc or average_precision with the 16-lane
    kernels: (out-of-bag values, winners)."""
    credit_lanes, pr_lanes = kernels or compiled_lanes()
    labels = np.asarray(y, np.int64)
    packed = presort_packed(scores, labels) if packed is None else packed
    n, n_cfg = scores.shape
    seeds = seeds_of(random_state, n_bootstraps)
    L = np.full(n_bootstraps, np.nan)
    winners = np.zeros(n_bootstraps, np.int64)
    counts = np.zeros((LANES, n), np.int64)
    lanes = np.zeros((n, LANES), np.uint8)
    outside = np.zeros((LANES, 2), np.int64)
    table = np.zeros((n_cfg, LANES), np.int64 if metric == "roc_auc" else np.float64)
    total_pos = np.ones(LANES)
    trapezoid = metric == "pr_auc"
    for start in range(0, n_bootstraps, LANES):
        block = seeds[start:start + LANES]
        m = len(block)
        draw_block(block, labels, 2, counts, lanes, outside)
        if metric == "roc_auc":
            (credit_blocks if blocks else credit_lanes)(packed, lanes, table)
        else:
            for d in range(m):
                total_pos[d] = in_positive(counts[d], labels)
            pr_lanes(packed, lanes, total_pos, trapezoid, table)
        for d in range(m):
            w = int(np.argmax(table[:, d]))
            winners[start + d] = w
            oob = oob_weights(counts[d])
            if metric == "roc_auc":
                L[start + d] = credit_one(packed[w], oob) / (2.0 * outside[d, 0] * outside[d, 1])
            else:
                L[start + d] = pr_one(packed[w], oob, outside[d, 1], trapezoid)
    return L, winners


# ----------------------------------------------------------------------------------------------------------------
# The linear metrics: one matrix product per chunk of draws.
def reference_linear(predictions, y, random_state, n_bootstraps, metric, chunk=64):
    """Pooled BBC for balanced_accuracy, f1 (0/1 predictions), neg_log_loss (P(class 1)) or r2 from one matrix
    product per chunk of draws: (out-of-bag values, winners)."""
    y = np.asarray(y)
    n, n_cfg = predictions.shape
    codes = (y == 1).astype(np.int64) if metric != "r2" else np.zeros(n, np.int64)
    n_classes = 2 if metric != "r2" else 1
    seeds = seeds_of(random_state, n_bootstraps)
    L = np.full(n_bootstraps, np.nan)
    winners = np.zeros(n_bootstraps, np.int64)
    if metric in ("balanced_accuracy", "f1"):
        hits = (predictions == (y[:, None] if metric == "balanced_accuracy" else 1)).astype(np.float32)
        classes = [np.flatnonzero(codes == k) for k in range(2)]
        parts = [np.ascontiguousarray(hits[rows]) for rows in classes]
    else:
        if metric == "neg_log_loss":
            eps = np.finfo(np.float64).eps
            losses = -np.log(np.clip(np.where(y[:, None] == 1, predictions, 1 - predictions), eps, 1 - eps))
        else:
            losses = (predictions - y[:, None].astype(np.float64)) ** 2
    counts = np.zeros((chunk, n), np.int64)
    lanes = np.zeros((n, LANES), np.uint8)
    outside = np.zeros((chunk, 2), np.int64)
    for start in range(0, n_bootstraps, chunk):
        block = seeds[start:start + chunk]
        m = len(block)
        for d in range(m):
            outside[d, :n_classes] = draw_counts(block[d], codes, n_classes, counts[d])
        w_in = counts[:m]
        if metric in ("balanced_accuracy", "f1"):
            class_hits = [w_in[:, rows].astype(np.float32) @ part for rows, part in zip(classes, parts)]  # m×C, exact
            weight = np.stack([w_in[:, rows].sum(axis=1) for rows in classes], axis=1).astype(np.float64)
            if metric == "f1":
                tp, fp = class_hits[1].astype(np.float64), class_hits[0].astype(np.float64)
                denominator = 2 * tp + fp + (weight[:, 1:2] - tp)
                value = np.where(denominator > 0, 2 * tp / np.where(denominator > 0, denominator, 1), 0.0)
            else:
                value = (class_hits[0] / weight[:, :1] + class_hits[1] / weight[:, 1:]) / 2
            best = np.argmax(value, axis=1)
        else:
            best = np.argmin(w_in.astype(np.float64) @ losses, axis=1)
        winners[start:start + m] = best
        oob = w_in == 0
        for d in range(m):
            rows, c = oob[d], best[d]
            if metric == "balanced_accuracy":
                L[start + d] = np.mean([hits[rows & (codes == k), c].sum() / outside[d, k] for k in range(2)])
            elif metric == "f1":
                tp = hits[rows & (codes == 1), c].sum()
                fp = hits[rows & (codes == 0), c].sum()
                L[start + d] = 2 * tp / (2 * tp + fp + (outside[d, 1] - tp))
            elif metric == "neg_log_loss":
                L[start + d] = -losses[rows, c].mean()
            else:
                t = y[rows].astype(np.float64)
                L[start + d] = 1 - losses[rows, c].sum() / ((t - t.mean()) ** 2).sum()
    return L, winners


# ----------------------------------------------------------------------------------------------------------------
# APS: one pass per row.
@njit(cache=True, nogil=True)
def aps_true_scores(p, y, u):
    "APS score of each row's true class: the mass ranked before it (in rank order) + u·p(y)."
    n, k = p.shape
    out = np.empty(n)
    above = np.empty(k)
    for i in range(n):
        py = p[i, y[i]]
        m = 0
        for j in range(k):
            if p[i, j] > py or (p[i, j] == py and j < y[i]):
                above[m] = p[i, j]
                m += 1
        ranked = np.sort(above[:m])  # ascending; summed from the largest down, as the cumulative sum does
        before = 0.0
        for j in range(m - 1, -1, -1):
            before += ranked[j]
        out[i] = before + u[i] * py
    return out


@njit(cache=True, nogil=True)
def aps_sets(p, u, threshold):
    """APS sets in one pass per row: the row's 8 largest classes (stable order) found in one scan, then taken in
    rank order while before + u·p ≤ threshold (non-decreasing along the ranks); a longer set sorts the row."""
    n, k = p.shape
    sets = np.zeros((n, k), np.bool_)
    values = np.full(8, -np.inf)
    index = np.zeros(8, np.int64)
    for i in range(n):
        values[:] = -np.inf
        count = 0
        for j in range(k):
            v = p[i, j]
            if v > values[7] or count < 8:
                s = min(count, 7)
                count += 1
                while s > 0 and v > values[s - 1]:
                    values[s] = values[s - 1]
                    index[s] = index[s - 1]
                    s -= 1
                values[s] = v
                index[s] = j
        ranks = index if k > 8 else index[:k]
        before = 0.0
        for r in range(k):
            if r == 8:
                ranks = np.argsort(-p[i], kind="mergesort")
            c = ranks[r]
            if before + u[i] * p[i, c] > threshold:
                break
            sets[i, c] = True
            before = p[i, c] if r == 0 else before + p[i, c]
    return sets


def reference_aps(cal, y, test, alpha, random_state=0):
    "The sets of conformal_sets(method='aps') (rule include_last) from the one-pass kernels."
    rng = np.random.default_rng(random_state)
    u_cal = rng.random(cal.shape[0])
    r = aps_true_scores(cal, y, u_cal)
    k = int(np.ceil((r.size + 1) * (1 - alpha)))
    q = np.inf if k > r.size else float(np.partition(r, k - 1)[k - 1])
    return aps_sets(test, np.zeros(test.shape[0]), q)


# ----------------------------------------------------------------------------------------------------------------
# roc_auc at large N: an LSD radix sort of float64 keys.
@njit(cache=True, nogil=True)
def radix_sort(values):
    "float64 values sorted ascending (as np.sort for finite values): LSD radix on the order-preserving uint64 keys."
    n = values.shape[0]
    keys = values.view(np.uint64).copy()
    sign = np.uint64(1) << np.uint64(63)
    for i in range(n):
        keys[i] = ~keys[i] if keys[i] & sign else keys[i] | sign
    buffer = np.empty_like(keys)
    counts = np.zeros((6, 2048), np.int64)
    for i in range(n):  # one histogram pass for all six digits
        key = keys[i]
        for d in range(6):
            counts[d, (key >> np.uint64(11 * d)) & np.uint64(2047)] += 1
    for d in range(6):
        if counts[d].max() == n:
            continue  # every key has the same digit: the pass would copy
        total = 0
        for b in range(2048):
            c = counts[d, b]
            counts[d, b] = total
            total += c
        shift = np.uint64(11 * d)
        for i in range(n):
            key = keys[i]
            b = (key >> shift) & np.uint64(2047)
            buffer[counts[d, b]] = key
            counts[d, b] += 1
        keys, buffer = buffer, keys
    for i in range(n):
        keys[i] = keys[i] & ~sign if keys[i] & sign else ~keys[i]
    return keys.view(np.float64)


def radix_auc(y, s):
    "roc_auc through two radix sorts and the merge: the same float as ciauto's roc_auc."
    from ciauto.metrics import auc_merge_sorted
    positive = y == 1
    return float(auc_merge_sorted(radix_sort(s[positive]), radix_sort(s[~positive])))


# ----------------------------------------------------------------------------------------------------------------
# The straightforward implementations and the peers.
def straightforward_auc_bbc(scores, y, random_state, n_bootstraps):
    "numpy per draw and column: weighted AUC from an argsort and cumulative sums (ties ½), the same draws."
    labels = np.asarray(y, np.int64)
    counts = np.zeros(len(y), np.int64)
    L = np.full(n_bootstraps, np.nan)
    for b, seed in enumerate(seeds_of(random_state, n_bootstraps)):
        draw_counts(seed, labels, 2, counts)
        best, best_c = -1.0, 0
        for c in range(scores.shape[1]):
            value = weighted_auc(scores[:, c], labels, counts)
            if value > best:
                best, best_c = value, c
        L[b] = weighted_auc(scores[:, best_c], labels, (counts == 0).astype(np.int64))
    return L


def weighted_auc(s, labels, w):
    order = np.argsort(s, kind="stable")
    s, labels, w = s[order], labels[order], w[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    pos = np.add.reduceat(w * labels, starts)
    neg = np.add.reduceat(w * (1 - labels), starts)
    below = np.cumsum(neg) - neg
    return float((pos * (2 * below + neg)).sum() / (2.0 * pos.sum() * neg.sum()))


def sklearn_auc_bbc(scores, y, random_state, n_bootstraps):
    "The scikit-learn loop: roc_auc_score on the in-bag rows of every configuration, then on the winner's out-of-bag."
    rng = np.random.default_rng(random_state)
    n = len(y)
    L = np.full(n_bootstraps, np.nan)
    for b in range(n_bootstraps):
        while True:
            idx = rng.integers(0, n, n)
            oob = np.setdiff1d(np.arange(n), idx)
            if len(np.unique(y[idx])) == 2 and len(np.unique(y[oob])) == 2:
                break
        best = int(np.argmax([roc_auc_score(y[idx], scores[idx, j]) for j in range(scores.shape[1])]))
        L[b] = roc_auc_score(y[oob], scores[oob, best])
    return L


def generator(n, c, seed=0, ties=2):
    "Binary labels (balance 0.5) and N×C scores N(μ_c·y, 1) rounded to `ties` decimals (tie blocks, as real models)."
    rng = np.random.default_rng(seed)
    y = (np.arange(n) % 2).astype(np.int64)
    mu = rng.uniform(0.3, 1.2, c)
    return np.round(rng.normal(size=(n, c)) + y[:, None] * mu, ties), y


def quiet_bbc(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bbc(*args, **kwargs)


def ns_per_unit(seconds, n, c, b):
    return 1e9 * seconds / (n * c * b)


# ----------------------------------------------------------------------------------------------------------------
def check_equal(name, ours, reference, winners_ours, winners_ref, tolerance=0.0):
    same_values = (np.array_equal(ours, reference) if tolerance == 0 else
                   bool(np.max(np.abs(ours - reference)) <= tolerance))
    same_winners = np.array_equal(winners_ours, winners_ref)
    if not (same_values and same_winners):
        raise AssertionError(f"{name}: the reference does not reproduce ciauto (values {same_values}, winners "
                             f"{same_winners}; largest difference {np.max(np.abs(ours - reference)):.3g})")
    return "bitwise" if tolerance == 0 else f"≤ {tolerance:g}"


def bench_bbc_sorted(sizes, b, repeats, lines, metrics=("pr_auc", "average_precision", "roc_auc")):
    "roc_auc, pr_auc, average_precision: ciauto's bbc against the reference, the straightforward loop and sklearn."
    kernels = compiled_lanes(slp=True)
    lines += ["| metric | N | C | B | ciauto | reference | ratio | straightforward | ratio | sklearn loop | ratio | equal |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for metric in metrics:
        for n, c in (sizes if metric == "roc_auc" or len(sizes) == 1 else sizes[1:2]):
            scores, y = generator(n, c)
            result = quiet_bbc(scores, y, metric=metric, n_bootstraps=b, random_state=7, winner_rule="pooled",
                               progress=False, n_jobs=1)
            L, winners = reference_bbc(scores, y, 7, b, metric, kernels)
            equal = check_equal(f"{metric} N={n} C={c}", result.distribution, L, result.bootstrap_winners,
                                np.bincount(winners, minlength=c))
            if metric == "roc_auc":
                L, winners = reference_bbc(scores, y, 7, b, metric, kernels, blocks=True)
                check_equal(f"{metric} (per-block flush) N={n} C={c}", result.distribution, L,
                            result.bootstrap_winners, np.bincount(winners, minlength=c))
            # the cost of one more draw: calls with b and 3b draws (the presort and the set-up cancel out)
            packed = presort_packed(scores, y)
            variants = (False, True) if metric == "roc_auc" else (False,)  # AUC: 16-lane no-flush and per-block
            t = interleaved_medians(
                *[lambda draws=draws: quiet_bbc(scores, y, metric=metric, n_bootstraps=draws, random_state=7,
                                                winner_rule="pooled", progress=False, n_jobs=1) for draws in (b, 3 * b)],
                *[lambda draws=draws, blocks=blocks: reference_bbc(scores, y, 7, draws, metric, kernels, packed, blocks)
                  for blocks in variants for draws in (b, 3 * b)], repeats=repeats, clock="cpu")
            ours = (t[1] - t[0]) / 2
            refs = [(t[3 + 2 * v] - t[2 + 2 * v]) / 2 for v in range(len(variants))]
            ref = min(refs)
            if len(refs) > 1:
                print(f"  {metric} N={n} C={c}: no-flush lanes {ns_per_unit(refs[0], n, c, b):.2f}, per-block flush "
                      f"{ns_per_unit(refs[1], n, c, b):.2f} ns/unit", flush=True)
                lines.append(f"<!-- {metric} N={n} C={c}: no-flush lanes {ns_per_unit(refs[0], n, c, b):.2f}, "
                             f"per-block flush {ns_per_unit(refs[1], n, c, b):.2f} ns/unit -->")
            row = [metric, n, c, b, f"{ns_per_unit(ours, n, c, b):.2f}", f"{ns_per_unit(ref, n, c, b):.2f}",
                   f"{ours / ref:.1f}×"]
            if metric == "roc_auc":  # the straightforward loop and the peer: a few draws, scaled (linear in B)
                few = max(2, min(b, 4_000_000 // (n * c) or 2))
                _, plain = timed(straightforward_auc_bbc, scores, y, 7, few)
                _, peer = timed(sklearn_auc_bbc, scores, y, 7, few)
                plain_ns, peer_ns = ns_per_unit(plain.cpu, n, c, few), ns_per_unit(peer.cpu, n, c, few)
                row += [f"{plain_ns:.1f}", f"{plain_ns / ns_per_unit(ours, n, c, b):.0f}× ciauto",
                        f"{peer_ns:.1f}", f"{peer_ns / ns_per_unit(ours, n, c, b):.0f}× ciauto"]
            else:
                row += ["", "", "", ""]
            lines.append("| " + " | ".join(map(str, row + [equal])) + " |")
            print(lines[-1], flush=True)
    lines.append(f"\nTimes in {UNIT} of one more draw: (t(3B) − t(B)) / 2B, CPU time, medians of {repeats} "
                 "interleaved calls, so the presort and the set-up are left out (the presort has its own section); "
                 "`ratio` = ciauto / reference (the distance to the limit); the straightforward loop (numpy per "
                 "draw and configuration) and the scikit-learn loop (roc_auc_score on the in-bag rows) are timed on "
                 "a few draws and per unit, and their ratio is to ciauto's time.")


def bench_slp(n, c, b, repeats, lines):
    "Does the vectoriser switch survive the cache? Three fresh processes on one cache folder, and a control."
    code = ("import sys; sys.argv=['x']; import limits, numpy as np; from _timing import interleaved_medians;"
            "k = limits.compiled_lanes(slp={slp});"
            "s, y = limits.generator({n}, {c}); packed = limits.presort_packed(s, y);"
            "lanes = np.random.default_rng(0).poisson(1, ({n}, 16)).astype(np.uint8); out = np.zeros(({c}, 16), np.int64);"
            "t, a = interleaved_medians(lambda: k[0](packed, lanes, out), "
            "lambda: limits.credit_arrays(packed, lanes, out), repeats={repeats}, clock='cpu');"
            "print(1e9 * t / ({n} * {c} * 16), 1e9 * a / ({n} * {c} * 16))")
    import tempfile
    rows = []
    with tempfile.TemporaryDirectory() as cache_on, tempfile.TemporaryDirectory() as cache_off:
        for label, folder, slp, env_flag in (
                ("compiled through slp_compile (fresh cache)", cache_on, True, None),
                ("loaded from that cache, flag off", cache_on, False, None),
                ("compiled without the switch (fresh cache)", cache_off, False, None),
                ("NUMBA_SLP_VECTORIZE=1, loaded from that cache", cache_off, False, "1")):
            env = dict(os.environ, NUMBA_CACHE_DIR=folder)
            env.pop("NUMBA_SLP_VECTORIZE", None)
            if env_flag:
                env["NUMBA_SLP_VECTORIZE"] = env_flag
            out = subprocess.run([sys.executable, "-c", code.format(slp=slp, n=n, c=c, repeats=repeats)], cwd=HERE,
                                 env=env, capture_output=True, text=True, check=True).stdout.split()
            rows.append((label, float(out[0]), float(out[1])))
    lines += ["| credit_lanes (16 scalars per draw) | ns per unit | arrays-of-16 kernel, same process |", "|---|---|---|"]
    lines += [f"| {label} | {t:.3f} | {a:.3f} |" for label, t, a in rows]
    print("\n".join(lines[-6:]), flush=True)


def bench_linear(n, c, b, repeats, lines):
    lines += ["| metric | ciauto | reference (matrix products) | ratio | equal |", "|---|---|---|---|---|"]
    rng = np.random.default_rng(3)
    y = (np.arange(n) % 2).astype(np.int64)
    probability = np.clip(0.5 + (y[:, None] - 0.5) * rng.uniform(0.05, 0.4, c) + rng.normal(0, 0.25, (n, c)),
                          0.001, 0.999)
    inputs = {"balanced_accuracy": (probability > 0.5).astype(np.float64), "f1": (probability > 0.5).astype(np.float64),
              "neg_log_loss": probability, "r2": y[:, None] + rng.normal(0, 1, (n, c)) * rng.uniform(0.5, 1.5, c)}
    for metric, predictions in inputs.items():
        target = y.astype(np.float64) + (rng.normal(0, 0.0, n) if metric == "r2" else 0)
        call = lambda: quiet_bbc(predictions, target if metric == "r2" else y, metric=metric, n_bootstraps=b,
                                 random_state=7, winner_rule="pooled", progress=False, n_jobs=1)
        result = call()
        L, winners = reference_linear(predictions, target if metric == "r2" else y, 7, b, metric)
        tolerance = 1e-12 if metric in ("neg_log_loss", "r2") else 0.0
        equal = check_equal(metric, result.distribution, L, result.bootstrap_winners, np.bincount(winners, minlength=c),
                            tolerance)
        ours, ref = interleaved_medians(call, lambda: reference_linear(predictions, target if metric == "r2" else y, 7,
                                                                        b, metric), repeats=repeats, clock="cpu")
        lines.append(f"| {metric} | {ns_per_unit(ours, n, c, b):.2f} | {ns_per_unit(ref, n, c, b):.2f} | "
                     f"{ours / ref:.1f}× | {equal} |")
        print(lines[-1], flush=True)
    lines.append(f"\nN = {n}, C = {c}, B = {b}; {UNIT}, CPU time.")


def bench_presort(sizes, repeats, lines):
    lines += ["| N | C | ciauto's presort (stable, axis 0) | transpose + default argsort + pack | ratio | "
              "its share of bbc(B=32) |", "|---|---|---|---|---|---|"]
    for n, c in sizes:
        scores, y = generator(n, c)
        old, new = interleaved_medians(lambda: presort_straightforward(scores, y), lambda: presort_packed(scores, y),
                                       repeats=repeats, clock="cpu")
        _, whole = timed(quiet_bbc, scores, y, n_bootstraps=32, random_state=7, winner_rule="pooled", progress=False,
                         n_jobs=1)
        share = f"{new / whole.cpu:.0%} (a presort like the old one: {old / (whole.cpu - new + old):.0%})"
        lines.append(f"| {n} | {c} | {old:.3f} s | {new:.3f} s | {old / new:.2f}× | {share} |")
        print(lines[-1], flush=True)


def bench_aps(sizes, repeats, lines):
    """conformal_sets(aps) beside the one-pass reference kernel and two floors, in one run. The read-once floor reads
    both matrices once (numpy's row maxima of each): an APS calibration score depends on every class of its row
    (the mass ranked above the true class), and a set on every class of its row (the top class), so no exact method
    reads less. The old floor (phase 1-3) read the test matrix and only the true-class column of the calibration
    matrix: it left out half of the data a method must read, so it is kept for comparison only."""
    lines += ["| n (cal = test) | K | conformal_sets(aps) | one-pass reference | ciauto / ref | read-once floor (both "
              "matrices) | ciauto / floor | old floor (test + true column) | ciauto / old floor | MAPIE | equal |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, k in sizes:
        rng = np.random.default_rng(5)
        logits = rng.normal(size=(2 * n, k)) * 2
        logits[np.arange(2 * n), rng.integers(0, k, 2 * n)] += 3
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        y = np.array([rng.choice(k, p=row) for row in p[:200]] + list(p[200:].argmax(axis=1)))
        cal, test, y_cal = p[:n], p[n:], y[:n]
        ours = conformal_sets(cal, y_cal, test, method="aps", alpha=0.1)
        same = np.array_equal(ours.sets, reference_aps(cal, y_cal, test, 0.1))
        if not same:
            raise AssertionError(f"APS n={n} K={k}: the one-pass kernel's sets differ from conformal_sets'")
        t_ours, t_ref, t_floor, t_old = interleaved_medians(
            lambda: conformal_sets(cal, y_cal, test, method="aps", alpha=0.1),
            lambda: reference_aps(cal, y_cal, test, 0.1), lambda: (cal.max(axis=1), test.max(axis=1)),
            lambda: (cal[np.arange(n), y_cal].sum(), test.max(axis=1)), repeats=repeats, clock="cpu")
        peer = mapie_aps_seconds(cal, y_cal, test)
        lines.append(f"| {n} | {k} | {t_ours * 1e3:.2f} ms | {t_ref * 1e3:.2f} ms | {t_ours / t_ref:.2f}× | "
                     f"{t_floor * 1e3:.2f} ms | {t_ours / t_floor:.2f}× | {t_old * 1e3:.2f} ms | {t_ours / t_old:.2f}× | "
                     f"{'not installed' if peer is None else f'{peer * 1e3:.1f} ms ({peer / t_ours:.0f}× ciauto)'} | "
                     f"{'identical sets' if same else 'DIFFERENT'} |")
        print(lines[-1], flush=True)


def mapie_aps_seconds(cal, y_cal, test):
    "MAPIE's APS (its conformity score on given probabilities, prefit identity model), or None when not installed."
    try:
        from mapie.classification import SplitConformalClassifier
    except ImportError:
        return None
    from sklearn.base import BaseEstimator, ClassifierMixin

    class Given(ClassifierMixin, BaseEstimator):  # predict_proba returns the rows it is given
        def fit(self, X, y):
            self.classes_ = np.arange(X.shape[1])
            return self

        def predict_proba(self, X):
            return X

        def predict(self, X):
            return X.argmax(axis=1)

    model = Given().fit(cal, y_cal)

    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mapie = SplitConformalClassifier(model, confidence_level=0.9, conformity_score="aps", prefit=True)
            mapie.conformalize(cal, y_cal)
            mapie.predict_set(test)

    (seconds,) = interleaved_medians(run, repeats=3, clock="cpu")
    return seconds


def bench_roc_auc(sizes, repeats, lines):
    lines += ["| N | ciauto roc_auc | one np.sort | radix-sort AUC | ratio ciauto / radix | radix / np.sort of all | "
              "sklearn roc_auc_score | equal |", "|---|---|---|---|---|---|---|---|"]
    for n in sizes:
        rng = np.random.default_rng(11)
        y = (rng.random(n) < 0.5).astype(np.int64)
        s = rng.normal(size=n) + y
        same = radix_auc(y, s) == roc_auc(y, s)
        if not same:
            raise AssertionError(f"roc_auc N={n}: the radix-sort AUC differs")
        t_ours, t_sort, t_radix, t_rs, t_peer = interleaved_medians(
            lambda: roc_auc(y, s), lambda: np.sort(s), lambda: radix_auc(y, s), lambda: radix_sort(s),
            lambda: roc_auc_score(y, s), repeats=repeats, clock="cpu")
        lines.append(f"| {n:.0e} | {t_ours * 1e3:.1f} ms | {t_sort * 1e3:.1f} ms | {t_radix * 1e3:.1f} ms | "
                     f"{t_ours / t_radix:.2f}× | {t_rs / t_sort:.2f} | {t_peer * 1e3:.1f} ms ({t_peer / t_ours:.1f}× ciauto) | "
                     f"{'same float' if same else 'DIFFERENT'} |")
        print(lines[-1], flush=True)


def bench_memory(n, c, lines):
    "Peak extra memory of one bbc call (tracemalloc, in a fresh process) as a multiple of the prediction matrix."
    code = ("import warnings, tracemalloc, numpy as np; warnings.simplefilter('ignore');"
            "from ciauto.bbc import bbc; import limits;"
            "s, y = limits.generator({n}, {c}); bbc(s[:200, :3], y[:200], n_bootstraps=20, progress=False);"
            "tracemalloc.start(); base = tracemalloc.get_traced_memory()[0];"
            "bbc(s, y, n_bootstraps=16, random_state=1, winner_rule='pooled', progress=False, n_jobs=1);"
            "peak = tracemalloc.get_traced_memory()[1] - base; tracemalloc.stop();"
            "tracemalloc.start(); base = tracemalloc.get_traced_memory()[0]; limits.presort_straightforward(s, y);"
            "old = tracemalloc.get_traced_memory()[1] - base; tracemalloc.stop();"
            "print(peak / s.nbytes, old / s.nbytes, s.nbytes)")
    out = subprocess.run([sys.executable, "-c", code.format(n=n, c=c)], cwd=HERE, capture_output=True, text=True,
                         check=True).stdout.split()
    peak, old, nbytes = float(out[0]), float(out[1]), int(out[2])
    lines.append(f"bbc(roc_auc) at N = {n}, C = {c} (prediction matrix {nbytes / 2**20:.0f} MiB): peak extra memory "
                 f"{peak:.2f}× the matrix (numpy allocations, tracemalloc); the presort before this study alone "
                 f"took {old:.2f}×.")
    print(lines[-1], flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke mode: tiny sizes, one repeat")
    parser.add_argument("--generate", action="store_true", help="rewrite bench/_limits_lanes.py")
    parser.add_argument("--only", default="", help="comma-separated sections: bbc,slp,linear,presort,aps,auc,memory")
    parser.add_argument("--metrics", default="pr_auc,average_precision,roc_auc",
                        help="the sorted metrics of section bbc (comma-separated)")
    parser.add_argument("--out", default=str(HERE / "out" / "limits.md"))
    args = parser.parse_args(argv)
    if args.generate:
        (HERE / "_limits_lanes.py").write_text(lanes_source())
        return
    if _lanes_module().__doc__ is None or (HERE / "_limits_lanes.py").read_text() != lanes_source():
        raise SystemExit("bench/_limits_lanes.py is not what --generate writes: run python bench/limits.py --generate")
    quick = args.quick
    with threadpool_limits(1):  # one core for every contender: BLAS threads would spin and count as CPU time
        run(args, quick)


def save(args, quick, lines):
    "Write the lines so far to --out (not in the smoke run)."
    if not quick:
        Path(args.out).parent.mkdir(exist_ok=True)
        Path(args.out).write_text("\n".join(lines) + "\n")
        print(f"wrote {args.out}", flush=True)


def run(args, quick):
    sections = set(args.only.split(",")) if args.only else {"bbc", "slp", "linear", "presort", "aps", "auc", "memory"}
    lines = [f"# Distance to the limit ({datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {platform.processor() or platform.machine()}, "
             f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, numba {numba.__version__}, numpy {np.__version__})",
             "", "The machine is shared: every ratio is between calls interleaved in the same run, in CPU time."]
    if "bbc" in sections:
        lines += ["", "## BBC, sorted metrics (one core)", ""]
        sizes = [(300, 4)] if quick else [(2_000, 100), (20_000, 100), (5_000, 20), (5_000, 400)]
        bench_bbc_sorted(sizes, 32, 1 if quick else 3, lines, args.metrics.split(","))
    save(args, quick, lines)  # the sections so far, in case the run is stopped
    if "slp" in sections and not quick:  # four fresh processes, two of them compiling: not for the smoke run
        lines += ["", "## The vectoriser switch and numba's cache", ""]
        bench_slp(10_000, 50, 16, 5, lines)
    save(args, quick, lines)  # the sections so far, in case the run is stopped
    if "linear" in sections:
        lines += ["", "## BBC, linear metrics (one core)", ""]
        bench_linear(*((300, 4, 32, 1) if quick else (10_000, 100, 64, 3)), lines)
    save(args, quick, lines)  # the sections so far, in case the run is stopped
    if "presort" in sections:
        lines += ["", "## The presort", ""]
        bench_presort([(300, 4)] if quick else [(50_000, 100), (5_000, 400)], 1 if quick else 3, lines)
    save(args, quick, lines)  # the sections so far, in case the run is stopped
    if "aps" in sections:
        lines += ["", "## APS prediction sets", ""]
        bench_aps([(300, 5)] if quick else [(10_000, 10), (10_000, 100), (2_000, 1000)], 1 if quick else 15, lines)
    save(args, quick, lines)  # the sections so far, in case the run is stopped
    if "auc" in sections:
        lines += ["", "## roc_auc at large N", ""]
        bench_roc_auc([10_000] if quick else [100_000, 1_000_000], 1 if quick else 3, lines)
    save(args, quick, lines)  # the sections so far, in case the run is stopped
    if "memory" in sections:
        lines += ["", "## Peak memory of bbc", ""]
        bench_memory(*((2_000, 50) if quick else (50_000, 500)), lines)
    save(args, quick, lines)


if __name__ == "__main__":
    main()
