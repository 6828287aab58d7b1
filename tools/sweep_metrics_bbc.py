"""Sweep of bad and awkward inputs at the metrics and bbc doors: each case refuses clearly, warns, or is handled
correctly. Counts: clear (refused with a ValueError/TypeError naming what is wrong, warned, or handled right),
unclear (refused, but the message misses what it should say), silent (a number without a word), crash (another
exception). Run from a checkout root with PYTHONPATH=$PWD: python tools/sweep_metrics_bbc.py (before the change, at c34eb7d:
28 clear, 5 unclear, 5 silent, 0 crash of 38; after: 46 clear of 46, the 8 new cases on the new vocabulary)."""
import sys, warnings, types
import numpy as np
from ciauto.bbc import bbc
import ciauto.metrics as M

rng = np.random.default_rng(0)
n = 60
y = np.r_[0, 1, rng.integers(0, 2, n - 2)]; folds = np.arange(n) % 5
S = rng.normal(size=(n, 4)) + y[:, None] * np.array([0.3, 0.8, 1.0, 0.5])
Pp = 1 / (1 + np.exp(-S))
y3 = np.r_[0, 1, 2, rng.integers(0, 3, n - 3)]
P3 = rng.dirichlet(np.ones(3), (n, 4)) + 0.5 * (np.arange(3) == y3[:, None])[:, None, :]
P3 /= P3.sum(axis=2, keepdims=True)
perfect3 = np.repeat(np.eye(3)[y3][:, None, :], 2, axis=1)
B = dict(n_bootstraps=30, random_state=0, progress=False)

def _ovo_case():
    "The 97th draw of a search over random weights (seed 0): roc_auc_ovo returned 1.0000000000000002 on it."
    r = np.random.default_rng(0)
    for _ in range(97):
        K = r.integers(3, 6); m = r.integers(10, 60)
        yy = np.r_[np.arange(K), r.integers(0, K, m - K)]
        PP = np.eye(K)[yy] * r.uniform(0.5, 1, (m, 1))
        w = r.integers(0, 6, m).astype(float); w[:K] = r.integers(1, 6, K)
    return np.c_[yy, w, PP]


def refuse(f, *words):
    return ("refuse", f, words)
def warn(f, *words):
    return ("warn", f, words)
def value(f, check):
    return ("value", f, check)

def cases():
    Metric = M.Metric
    case = _ovo_case()  # a perfect separation whose weighted pair sums gave 1.0000000000000002
    yield "ovo weighted perfect = 1", value(lambda: M.METRICS["roc_auc_ovo"](case[:, 0].astype(int), case[:, 2:], case[:, 1]), lambda v: v == 1.0)
    yield "bbc ovo perfect separation (generic weights)", value(lambda: bbc(perfect3, y3, folds, metric="roc_auc_ovo", **B).estimate, lambda v: v == 1.0)
    yield "custom size_dependent metric in bbc", refuse(lambda: bbc(S, y, folds, metric=Metric("rl", lambda t, s, sample_weight=None: M.average_ranking_loss(t, s, sample_weight=sample_weight), False, 0.0, np.inf, "binary", size_dependent=True), **B), "different scales")
    yield "registry size_dependent metric", refuse(lambda: bbc(S, y, folds, metric="average_ranking_loss", **B), "different scales")
    yield "metric name typo", refuse(lambda: bbc(S, y, folds, metric="roc-auc", **B), "unknown metric")
    yield "NaN prediction", refuse(lambda: bbc(np.where(np.arange(n)[:, None] == 3, np.nan, S), y, folds, **B), "NaN")
    yield "y length mismatch", refuse(lambda: bbc(S, y[:-1], folds, **B), "length")
    yield "3-D class scores, default metric", value(lambda: bbc(P3, y3, folds, **B).metric, lambda v: v == "roc_auc_ovo")
    yield "3-D class scores, metric='f1'", value(lambda: bbc(P3, y3, folds, metric="f1", **B).metric, lambda v: v == "f1_macro")
    yield "3-D probabilities, neg_brier_score", value(lambda: bbc(P3, y3, folds, metric="neg_brier_score", **B).metric, lambda v: "brier" in v)
    yield "scores of the other class (all AUC < .5)", warn(lambda: bbc(-S, y, folds, **B), "chance")
    t = rng.exponential(size=n); ev = rng.integers(0, 2, n); ev[:3] = 1; risk = -t[:, None] + rng.normal(0, .3, (n, 3))
    yield "survival times given instead of risks", warn(lambda: bbc(-risk, np.c_[t, ev], folds, metric="c_index", **B), "chance")
    g_split = np.arange(n) // 4  # groups of 4 consecutive rows, folds i mod 5: every group split
    yield "pooled bbc, folds split groups", warn(lambda: bbc(S, y, folds, groups=g_split, **B), "leaked")
    yield "BBC-F, folds split groups", refuse(lambda: bbc(S, y, folds, groups=g_split, method="folds", **B), "GroupKFold", "!method='pooled'")
    stub = types.SimpleNamespace(predictions=Pp, y=y, folds=folds, metric="roc_auc", winner=int(np.argmax([M.roc_auc(y, Pp[:, c]) for c in range(4)])))
    yield "AUC-tuned result, bbc(metric='accuracy')", warn(lambda: bbc(stub, metric="accuracy", **B), "report_metric")
    yield "labels {1, 2} for a binary metric", refuse(lambda: M.roc_auc([1, 2, 2, 1], [0.1, 0.2, 0.3, 0.4]), "labels")
    yield "probability above 1 for log loss", refuse(lambda: M.neg_log_loss([0, 1], [0.5, 1.5]), "probabilities")
    yield "callable returning NaN", refuse(lambda: bbc(S, y, folds, metric=lambda t, p, sample_weight=None: float("nan"), **B), "NaN")
    yield "callable returning text", refuse(lambda: bbc(S, y, folds, metric=lambda t, p, sample_weight=None: "0.5", **B), "real number")
    yield "single-class y", refuse(lambda: bbc(S, np.zeros(n, int), folds, **B), "single class")
    yield "n_bootstraps=0", refuse(lambda: bbc(S, y, folds, n_bootstraps=0), "n_bootstraps")
    yield "confidence_level=1.5", refuse(lambda: bbc(S, y, folds, confidence_level=1.5, **B), "confidence_level")
    yield "groups of the wrong length", refuse(lambda: bbc(S, y, folds, groups=np.arange(n - 1), **B), "length")
    yield "1-D predictions", refuse(lambda: bbc(S[:, 0], y, folds, **B), "predictions")
    yield "text predictions", refuse(lambda: bbc(np.full((n, 2), "a"), y, folds, **B), "predictions")
    yield "class metric on a regression target", refuse(lambda: bbc(S, rng.normal(size=n), folds, metric="roc_auc", **B), "regression")
    yield "winner_rule='best'", refuse(lambda: bbc(S, y, folds, winner_rule="best", **B), "winner_rule")
    yield "max_redraws=-1", refuse(lambda: bbc(S, y, folds, max_redraws=-1, **B), "max_redraws")
    yield "loss passed as a bare callable", refuse(lambda: bbc(Pp, y, folds, metric=__import__("sklearn.metrics").metrics.mean_absolute_error, **B), "loss")
    yield "a scikit-learn scorer object", refuse(lambda: bbc(Pp, y, folds, metric=__import__("sklearn.metrics").metrics.get_scorer("roc_auc"), **B), "scorer")
    yield "roc_auc_ovo y with a class missing", refuse(lambda: M.roc_auc_ovo([0, 1, 1], rng.random((3, 3))), "lacks class")
    yield "3-D scores with a 2-D-only metric", refuse(lambda: bbc(P3, y3, folds, metric="pr_auc", **B), "N×C")
    yield "multiclass y, 2-D predictions, roc_auc", refuse(lambda: bbc(Pp, y3, folds, **B), "classes")
    yield "y and a CVTResult's y both", refuse(lambda: bbc(stub, y, **B), "do not pass y")
    yield "pos_label not in y", refuse(lambda: bbc(S, y, folds, pos_label=7, **B), "pos_label")
    yield "weights all zero", refuse(lambda: M.roc_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[0, 0, 0, 0]), "weight")
    yield "negative weight", refuse(lambda: M.accuracy([0, 1], [0, 1], sample_weight=[-1, 1]), "weight")
    yield "fold ids out of range", refuse(lambda: M.fold_score_matrix("roc_auc", S, y, folds + 1, 5), "fold_ids")
    # the new vocabulary (absent before the change: counted only after)
    if hasattr(M, "register_metric"):
        yield "register a duplicate name", refuse(lambda: M.register_metric(M.METRICS["roc_auc"]), "registered already")
        yield "Metric with an unknown fast_path", refuse(lambda: Metric("x", M.roc_auc, fast_path="auc"), "fast_path")
        yield "Metric with chance outside its range", refuse(lambda: Metric("x", M.roc_auc, lower=0.0, upper=1.0, chance=2.0), "chance")
        bad_rows = Metric("bad_rows", lambda t, p, sample_weight=None: -float(np.mean((p - t) ** 2)), True, -1.0, 0.0, "binary", row_loss=lambda y_, P: P[:, :1])
        yield "row_loss of the wrong shape", refuse(lambda: bbc(Pp, y, folds, metric=bad_rows, **B), "row_loss")
        yield "roc_auc_ovr with two classes", refuse(lambda: M.roc_auc_ovr([0, 1, 1], rng.random((3, 2))), "K >= 3")
        yield "multiclass Brier rows not summing to 1", refuse(lambda: M.multiclass_brier_score([0, 1], [[0.5, 0.6], [0.2, 0.8]]), "sum")
        yield "report_metric size-dependent", refuse(lambda: bbc(S, y, folds, report_metric="average_ranking_loss", **B), "report_metric")
        yield "report_metric unknown", refuse(lambda: bbc(S, y, folds, report_metric="acc", **B), "unknown metric")

counts = {"clear": 0, "unclear": 0, "silent": 0, "crash": 0}
for name, (kind, f, arg) in cases():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out, err = f(), None
        except Exception as e:
            out, err = None, e
    said = " ".join(str(w.message) for w in caught)
    if kind == "value":  # a valid (if awkward) input: refusing it is unclear, a wrong number silent
        verdict = ("unclear" if isinstance(err, (ValueError, TypeError)) else "crash") if err is not None else \
            "clear" if arg(out) else "silent"
    elif err is None:
        verdict = "clear" if kind == "warn" and any(w in said for w in arg) else "silent"
    elif not isinstance(err, (ValueError, TypeError)):
        verdict = "crash"
    else:
        verdict = "clear" if all((w[1:] not in str(err)) if w.startswith("!") else (w in str(err)) for w in arg) \
            else "unclear"
    counts[verdict] += 1
    detail = f"{type(err).__name__}: {str(err)[:150]}" if err is not None else (said[:150] or repr(out)[:80])
    print(f"{verdict:8s} {name}: {detail}")
print(counts, "total", sum(counts.values()))
