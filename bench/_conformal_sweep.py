"""Dev-only: bad and awkward inputs against every public function of ciauto.conformal and ciauto.prediction_sets.

    PYTHONPATH=. python bench/_conformal_sweep.py [-v]

Each case says what a careful user should get: an error (TypeError/ValueError) whose message names the argument
(`name`), a warning containing a text (`warn=`), or a valid answer (`ok`, with an optional check of the result).
Outcomes: clear (as expected), unclear (an error of another type, or not naming the argument), silent (no error and
no warning where one was expected, or a result failing its check), crash (a hang or a dead interpreter: each case
runs in this process, so a crash stops the sweep). Counts are in notes / bench/conformal.md.
"""
import math
import re
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.ensemble import IsolationForest
from sklearn.neighbors import LocalOutlierFactor

from ciauto import conformal as C
from ciauto import prediction_sets as S

rng = np.random.default_rng(0)
CAL, TEST = rng.normal(size=50), rng.normal(size=30)
P = rng.dirichlet(np.ones(3), 40)
Y = rng.integers(0, 3, 40)
PT = rng.dirichlet(np.ones(3), 10)
FX, FY, FZ = rng.normal(size=(60, 4)), np.repeat([0, 1, 2], 20), rng.normal(size=(7, 4))
INL = rng.normal(size=(80, 3))
CASES = []


def case(label, fn, *args, name=None, warn=None, ok=False, check=None, **kwargs):
    CASES.append((label, fn, args, kwargs, name, warn, ok, check))


def bad_arrays(label, fn, build, name):
    "The usual bad values of one array argument; build(value) -> (args, kwargs)."
    for tag, value in (("None", None), ("string", "abc"), ("empty", []), ("NaN", [0.1, np.nan, 0.3]),
                       ("inf", [0.1, np.inf, 0.3]), ("complex", np.array([1 + 1j, 2.0])), ("ragged", [[1, 2], [3]]),
                       ("object None", np.array([0.1, None], dtype=object)), ("bool", np.array([True, False])),
                       ("strings", ["a", "b"]), ("3-D", np.zeros((2, 2, 2)))):
        args, kwargs = build(value)
        case(f"{label}: {name} {tag}", fn, *args, name=name, **kwargs)


def bad_levels(label, fn, build, name, open_top=True):
    for tag, value in (("0", 0), ("1", 1) if open_top else ("1.5", 1.5), ("-0.1", -0.1), ("1.5", 1.5), ("NaN", math.nan),
                       ("inf", math.inf), ("string", "0.1"), ("None", None), ("True", True), ("list", [0.1])):
        args, kwargs = build(value)
        case(f"{label}: {name}={tag}", fn, *args, name=name, **kwargs)


# ---- conformal: bands
case("asymptotic_constant n=2", C.asymptotic_constant, 2, 0.05, name="n")
case("asymptotic_constant n=1", C.asymptotic_constant, 1, 0.05, name="n")
case("asymptotic_constant n=2.5", C.asymptotic_constant, 2.5, 0.05, name="n")
case("asymptotic_constant delta=1.5", C.asymptotic_constant, 100, 1.5, name="delta")
case("asymptotic_constant delta=0", C.asymptotic_constant, 100, 0, name="delta")
case("asymptotic_constant n='100'", C.asymptotic_constant, "100", 0.05, name="n")
case("asymptotic_delta n=1", C.asymptotic_delta, 1, 2.0, name="n")
case("asymptotic_delta c=nan", C.asymptotic_delta, 100, math.nan, name="c")
case("asymptotic_delta c='x'", C.asymptotic_delta, 100, "x", name="c")
case("asymptotic roundtrip", lambda: C.asymptotic_delta(100, C.asymptotic_constant(100, 0.05)), ok=True,
     check=lambda d: abs(d - 0.05) < 1e-9)
bad_levels("calibration_band", C.calibration_band, lambda v: ((50, v), {}), "delta")
for tag, n in (("0", 0), ("-5", -5), ("2.5", 2.5), ("'10'", "10"), ("True", True), ("None", None)):
    case(f"calibration_band n={tag}", C.calibration_band, n, 0.05, name="n")
case("calibration_band method='foo'", C.calibration_band, 50, 0.05, method="foo", name="method")
case("calibration_band method=3", C.calibration_band, 50, 0.05, method=3, name="method")
case("calibration_band k=0", C.calibration_band, 50, 0.05, k=0, name="k")
case("calibration_band k=51", C.calibration_band, 50, 0.05, k=51, name="k")
case("calibration_band k on dkwm", C.calibration_band, 50, 0.05, method="dkwm", k=3, name="k")
case("calibration_band dkwm_variant", C.calibration_band, 50, 0.05, method="dkwm", dkwm_variant="x", name="dkwm_variant")
case("calibration_band simes n=1", C.calibration_band, 1, 0.05, name="n")
case("calibration_band asymptotic n=2", C.calibration_band, 2, 0.05, method="asymptotic", name="n")
case("calibration_band mc n_simulations=0", C.calibration_band, 50, 0.05, method="monte_carlo", n_simulations=0,
     name="n_simulations")
case("calibration_band mc delta*R<1", C.calibration_band, 50, 0.05, method="monte_carlo", n_simulations=10,
     name="n_simulations")
case("calibration_band mc random_state=-1", C.calibration_band, 50, 0.05, method="monte_carlo", random_state=-1,
     name="random_state")
case("calibration_band mc random_state='a'", C.calibration_band, 50, 0.05, method="monte_carlo", random_state="a",
     name="random_state")
case("calibration_band mc c=-1", C.calibration_band, 50, 0.05, method="monte_carlo", c=-1, name="c")
case("calibration_band mc c and delta_hat", C.calibration_band, 50, 0.05, method="monte_carlo", c=1.0, delta_hat=0.1,
     name="delta_hat")
case("calibration_band c on simes", C.calibration_band, 50, 0.05, c=1.0, name="c")
case("calibration_band mc n_jobs=0", C.calibration_band, 50, 0.05, method="monte_carlo", n_jobs=0, name="n_jobs")
case("calibration_band mc R<100 warns", C.calibration_band, 50, 0.05, method="monte_carlo", n_simulations=100,
     random_state=0, warn="dominated by simulation noise")
case("calibration_band monotone", C.calibration_band, 200, 0.05, ok=True, check=lambda b: (np.diff(b) >= 0).all())
case("BandOptions method=None", C.BandOptions, None, name="method")
case("BandOptions n_simulations=1.5", C.BandOptions, "monte_carlo", n_simulations=1.5, name="n_simulations")
case("as_band_options 5", C.as_band_options, 5, name="method")
case("as_band_options bad field", C.as_band_options, "simes", foo=1, name="foo")
case("get_band bad option", C.get_band, 50, 0.05, foo=1, name="foo")
case("Band.band n=0", lambda: C.BandOptions().band(0, 0.05), name="n")
# ---- conformal: p-values
for fn_name in ("marginal_pvalues", "conformal_pvalues"):
    fn = getattr(C, fn_name)
    bad_arrays(fn_name, fn, lambda v, fn=fn: ((v, TEST), {}), "calibration_scores")
    bad_arrays(fn_name, fn, lambda v, fn=fn: ((CAL, v), {}), "test_scores")
    case(f"{fn_name} higher_is_ood=1", fn, CAL, TEST, higher_is_ood=1, name="higher_is_ood")
    case(f"{fn_name} 2-D calibration", fn, CAL.reshape(5, 10), TEST, name="calibration_scores")
    case(f"{fn_name} pandas", fn, pd.Series(CAL), pd.Series(TEST), ok=True,
         check=lambda p: p.shape == (30,) and ((p > 0) & (p <= 1)).all())
    case(f"{fn_name} scalar test", fn, CAL, 0.5, name="test_scores")
bad_levels("conformal_pvalues", C.conformal_pvalues, lambda v: ((CAL, TEST), {"delta": v}), "delta")
case("conformal_pvalues method='x'", C.conformal_pvalues, CAL, TEST, method="x", name="method")
case("conformal_pvalues n=1 simes", C.conformal_pvalues, [0.3], TEST, name="n")
case("marginal_pvalues n=1", C.marginal_pvalues, [0.3], TEST, ok=True, check=lambda p: (p >= 0.5).all())
case("correct_pvalues p=0", C.correct_pvalues, [0.0, 0.5], C.calibration_band(20, 0.1), name="pvalues")
case("correct_pvalues p=1.2", C.correct_pvalues, [1.2], C.calibration_band(20, 0.1), name="pvalues")
case("correct_pvalues p=nan", C.correct_pvalues, [np.nan], C.calibration_band(20, 0.1), name="pvalues")
case("correct_pvalues band scalar", C.correct_pvalues, [0.5], 0.3, name="band")
case("correct_pvalues band 'abc'", C.correct_pvalues, [0.5], "abc", name="band")
case("correct_pvalues band decreasing", C.correct_pvalues, [0.5], [0.9, 0.5, 0.1], name="band")
case("correct_pvalues band nan", C.correct_pvalues, [0.5], [0.1, np.nan, 1.0], name="band")
case("correct_pvalues band > 1", C.correct_pvalues, [0.5], [0.1, 0.5, 1.5], name="band")
case("correct_pvalues band None", C.correct_pvalues, [0.5], None, name="band")
# ---- conformal: metrics
for fn_name in ("conformal_metrics", "conformal_auroc", "conformal_fpr_at_tpr"):
    fn = getattr(C, fn_name)
    bad_arrays(fn_name, fn, lambda v, fn=fn: ((v, TEST), {}), "id_scores")
    bad_arrays(fn_name, fn, lambda v, fn=fn: ((CAL, v), {}), "ood_scores")
    case(f"{fn_name} delta=2", fn, CAL, TEST, delta=2, name="delta")
    case(f"{fn_name} method=None", fn, CAL, TEST, method=None, name="method")
    case(f"{fn_name} higher_is_ood='no'", fn, CAL, TEST, higher_is_ood="no", name="higher_is_ood")
for fn_name in ("conformal_metrics", "conformal_fpr_at_tpr"):
    fn = getattr(C, fn_name)
    bad_levels(fn_name, fn, lambda v, fn=fn: ((CAL, TEST), {"tpr_level": v}), "tpr_level", open_top=False)
case("conformal_metrics tpr_level=1 ok", C.conformal_metrics, CAL, TEST + 5, tpr_level=1.0, ok=True)
case("conformal_metrics constant scores", C.conformal_metrics, np.zeros(20), np.zeros(10), ok=True,
     check=lambda r: r.auroc == 0.5)
case("conformal_metrics .curves", lambda: C.conformal_metrics(CAL, TEST).curves(), ok=True)
case("conformal_metrics .to_dict", lambda: C.conformal_metrics(CAL, TEST).to_dict(), ok=True)
case("conformal_table methods='simes' (one band)", C.conformal_table, CAL, TEST, methods="simes", ok=True,
     check=lambda t: list(t.index) == ["simes"])
case("conformal_table methods=[]", C.conformal_table, CAL, TEST, methods=[], name="methods")
case("conformal_table methods=['x']", C.conformal_table, CAL, TEST, methods=["x"], name="method")
case("conformal_table n_simulations=-1", C.conformal_table, CAL, TEST, methods=["monte_carlo"], n_simulations=-1,
     name="n_simulations")
case("conformal_table random_state='x'", C.conformal_table, CAL, TEST, methods=["monte_carlo"], random_state="x",
     name="random_state")
case("openood_table missing group", C.openood_table, {("a", "d"): (CAL, {"o": TEST})}, {}, method="simes",
     name="groups")
case("openood_table scores not a dict", C.openood_table, [(CAL, TEST)], {"o": "near"}, method="simes", name="scores")
case("openood_table entry not a pair", C.openood_table, {("a", "d"): CAL}, {"o": "near"}, method="simes",
     name="scores")
case("openood_table oods not a dict", C.openood_table, {("a", "d"): (CAL, TEST)}, {"o": "near"}, method="simes",
     name="scores")
case("openood_table empty", C.openood_table, {}, {}, method="simes", name="scores")
case("openood_table NaN id", C.openood_table, {("a", "d"): ([0.1, np.nan], {"o": TEST})}, {"o": "near"},
     method="simes", name="id_scores")
# ---- conformal: selection and detector
bad_arrays("conformal_selection", C.conformal_selection, lambda v: ((v, TEST), {}), "calibration_scores")
bad_arrays("conformal_selection", C.conformal_selection, lambda v: ((CAL, v), {}), "test_scores")
bad_levels("conformal_selection", C.conformal_selection, lambda v: ((CAL, TEST), {"alpha": v}), "alpha")
case("conformal_selection delta=0", C.conformal_selection, CAL, TEST, delta=0, name="delta")
case("conformal_selection delta='x'", C.conformal_selection, CAL, TEST, delta="x", name="delta")
case("conformal_selection n=1", C.conformal_selection, [0.3], TEST + 10, warn="no test point can be flagged")
case("conformal_selection n=5 alpha=0.1", C.conformal_selection, CAL[:5], TEST + 10, warn="no test point can be flagged")
case("conformal_selection simes n=1", C.conformal_selection, [0.3], TEST, delta=0.1, name="n")
case("conformal_selection conditional n=10", C.conformal_selection, CAL[:10], TEST + 10, delta=0.1,
     warn="no test point can be flagged")
sel = C.conformal_selection(CAL, TEST)
case("selection.fdr wrong length", sel.fdr, [0, 1], name="y_ood")
case("selection.fdr labels 'a'", sel.fdr, ["a"] * 30, name="y_ood")
case("selection.fdr labels 2", sel.fdr, [2] * 30, name="y_ood")
case("selection.fdr NaN", sel.fdr, [np.nan] * 30, name="y_ood")
case("selection.power no OOD", sel.power, [0] * 30, ok=True, check=lambda v: math.isnan(v))
case("selection.to_dict", sel.to_dict, ok=True)
case("outlier_scores no scorer", C.outlier_scores, object(), INL, name="detector")
case("outlier_scores higher_is_normal=0", C.outlier_scores, IsolationForest().fit(INL), INL, higher_is_normal=0,
     name="higher_is_normal")
case("outlier_scores unfitted", C.outlier_scores, IsolationForest(), INL, name="detector")
case("ConformalDetector no fit", C.ConformalDetector, object(), name="detector")
case("ConformalDetector share=0", C.ConformalDetector, IsolationForest(), calibration_share=0, name="calibration_share")
case("ConformalDetector share='x'", C.ConformalDetector, IsolationForest(), calibration_share="x",
     name="calibration_share")
case("ConformalDetector higher_is_normal=None", C.ConformalDetector, IsolationForest(), higher_is_normal=None,
     name="higher_is_normal")
case("ConformalDetector random_state='x'", lambda: C.ConformalDetector(IsolationForest(), random_state="x").fit(INL),
     name="random_state")
case("ConformalDetector.fit 1 row", lambda: C.ConformalDetector(IsolationForest()).fit(INL[:1]), name="X")
case("ConformalDetector.fit 1-D", lambda: C.ConformalDetector(IsolationForest()).fit(INL[:, 0]), name="X")
case("ConformalDetector.fit strings", lambda: C.ConformalDetector(IsolationForest()).fit([["a", "b"], ["c", "d"]]),
     name="X")
case("ConformalDetector.fit NaN (IsolationForest handles it)",
     lambda: C.ConformalDetector(IsolationForest(random_state=0)).fit(np.where(INL > 2, np.nan, INL)), ok=True,
     check=lambda d: np.isfinite(d.calibration_scores_).all())
case("ConformalDetector.fit NaN, detector gives NaN scores",
     lambda: C.ConformalDetector(LocalOutlierFactor(novelty=True)).fit(np.where(INL > 2, np.nan, INL)), name="NaN")
case("ConformalDetector.pvalues before fit", lambda: C.ConformalDetector(IsolationForest()).pvalues(INL),
     name="fit")
case("ConformalDetector.select before fit", lambda: C.ConformalDetector(IsolationForest()).select(INL), name="fit")
case("ConformalDetector.score before fit", lambda: C.ConformalDetector(IsolationForest()).score(INL), name="fit")
FITTED = C.ConformalDetector(IsolationForest(random_state=0), random_state=0).fit(INL)
case("ConformalDetector.select alpha=2", FITTED.select, INL, alpha=2, name="alpha")
case("ConformalDetector.select delta=2", FITTED.select, INL, delta=2, name="delta")
case("ConformalDetector.pvalues delta=2", FITTED.pvalues, INL, delta=2, name="delta")
case("ConformalDetector.pvalues wrong width", FITTED.pvalues, INL[:, :2], name="X")
case("ConformalDetector.pvalues NaN rows (IsolationForest scores them)", FITTED.pvalues, np.full((3, 3), np.nan),
     ok=True, check=lambda p: np.isfinite(p).all())
case("ConformalDetector 2 inliers select", lambda: C.ConformalDetector(IsolationForest(random_state=0),
                                                                       random_state=0).fit(INL[:2]).select(INL + 9),
     warn="no test point can be flagged")
case("ConformalDetector repr unfitted", lambda: repr(C.ConformalDetector(IsolationForest())), ok=True)
# ---- prediction_sets
case("lac_scores list", S.lac_scores, [[0.2, 0.8]], ok=True, check=lambda s: np.allclose(s, [[0.8, 0.2]]))
case("lac_scores None", S.lac_scores, None, name="probabilities")
case("lac_scores string", S.lac_scores, "abc", name="probabilities")
case("lac_scores 1-D", S.lac_scores, [0.2, 0.8], name="probabilities")
case("lac_scores NaN", S.lac_scores, [[np.nan, 0.5]], name="probabilities")
case("aps_scores list", S.aps_scores, [[0.2, 0.5, 0.3]], ok=True, check=lambda s: np.allclose(s, [[1.0, 0.5, 0.8]]))
case("aps_scores 1-D", S.aps_scores, [0.2, 0.8], name="probabilities")
case("aps_scores None", S.aps_scores, None, name="probabilities")
case("aps_scores u wrong length", S.aps_scores, P, u=np.ones(3), name="u")
case("aps_scores u=2", S.aps_scores, P, u=np.full(40, 2.0), name="u")
case("aps_scores u scalar", S.aps_scores, P, u=0.5, name="u")
case("aps_scores lam=-1", S.aps_scores, P, lam=-1, name="lam")
case("aps_scores lam='x'", S.aps_scores, P, lam="x", name="lam")
case("aps_scores k_reg=1.5", S.aps_scores, P, k_reg=1.5, name="k_reg")
case("aps_scores k_reg=-1", S.aps_scores, P, k_reg=-1, name="k_reg")
case("aps_scores NaN", S.aps_scores, [[np.nan, 0.5]], name="probabilities")
bad_arrays("conformal_threshold", S.conformal_threshold, lambda v: ((v, 0.1), {}), "calibration_nonconformity")
bad_levels("conformal_threshold", S.conformal_threshold, lambda v: ((CAL, v), {}), "alpha")
case("conformal_threshold small n", S.conformal_threshold, CAL[:5], 0.1, warn="calibration points")
bad_arrays("conformal_sets", S.conformal_sets, lambda v: ((v, Y, PT), {}), "calibration_scores")
bad_arrays("conformal_sets", S.conformal_sets, lambda v: ((P, Y, v), {}), "test_scores")
for tag, labels in (("None", None), ("NaN", np.r_[np.nan, Y[1:]]), ("strings", ["a"] * 40), ("floats 0.5", Y + 0.5),
                    ("negative", Y - 1), ("too large", Y + 1), ("2-D", Y.reshape(20, 2)), ("short", Y[:5]),
                    ("bool", Y > 0), ("empty", [])):
    case(f"conformal_sets labels {tag}", S.conformal_sets, P, labels, PT, name="calibration_labels")
bad_levels("conformal_sets", S.conformal_sets, lambda v: ((P, Y, PT), {"alpha": v}), "alpha")
case("conformal_sets method=None", S.conformal_sets, P, Y, PT, method=None, name="method")
case("conformal_sets method='APS'", S.conformal_sets, P, Y, PT, method="APS", name="method")
case("conformal_sets rule on lac", S.conformal_sets, P, Y, PT, rule="exact", name="rule")
case("conformal_sets rule='x'", S.conformal_sets, P, Y, PT, method="aps", rule="x", name="rule")
case("conformal_sets rule=1", S.conformal_sets, P, Y, PT, method="aps", rule=1, name="rule")
case("conformal_sets rule vs randomized", S.conformal_sets, P, Y, PT, method="aps", rule="exact", randomized=True,
     name="randomized")
case("conformal_sets randomized on lac", S.conformal_sets, P, Y, PT, randomized=True, name="randomized")
case("conformal_sets randomized=1", S.conformal_sets, P, Y, PT, method="aps", randomized=1, name="randomized")
case("conformal_sets mondrian=1", S.conformal_sets, P, Y, PT, mondrian=1, name="mondrian")
case("conformal_sets mondrian few", S.conformal_sets, P[:15], Y[:15], PT, mondrian=True, warn="mondrian")
case("conformal_sets lam on aps", S.conformal_sets, P, Y, PT, method="aps", lam=0.1, name="lam")
case("conformal_sets lam=-1", S.conformal_sets, P, Y, PT, method="raps", lam=-1, name="lam")
case("conformal_sets lam=nan", S.conformal_sets, P, Y, PT, method="raps", lam=math.nan, name="lam")
case("conformal_sets k_reg=-1", S.conformal_sets, P, Y, PT, method="raps", k_reg=-1, name="k_reg")
case("conformal_sets scores='x'", S.conformal_sets, P, Y, PT, scores="x", name="scores")
case("conformal_sets aps nonconformity", S.conformal_sets, P, Y, PT, method="aps", scores="nonconformity",
     name="scores")
case("conformal_sets aps probs > 1", S.conformal_sets, P * 3, Y, PT, method="aps", name="calibration_scores")
case("conformal_sets aps test probs < 0", S.conformal_sets, P, Y, PT - 1, method="aps", name="test_scores")
case("conformal_sets width mismatch", S.conformal_sets, P, Y, PT[:, :2], name="test_scores")
case("conformal_sets 1 class", S.conformal_sets, P[:, :1], np.zeros(40, int), PT[:, :1], name="calibration_scores")
case("conformal_sets random_state=-1", S.conformal_sets, P, Y, PT, method="aps", random_state=-1,
     name="random_state")
case("conformal_sets random_state='x'", S.conformal_sets, P, Y, PT, method="aps", random_state="x",
     name="random_state")
case("conformal_sets n=1", S.conformal_sets, P[:1], Y[:1], PT, warn="calibration points")
case("conformal_sets pandas", S.conformal_sets, pd.DataFrame(P), pd.Series(Y), pd.DataFrame(PT), ok=True)
case("conformal_sets float labels", S.conformal_sets, P, Y.astype(float), PT, ok=True)
case("conformal_sets rows not summing to 1 (LAC)", S.conformal_sets, P * 0.5, Y, PT * 0.5, ok=True)
RES = S.conformal_sets(P, Y, PT)
case("PredictionSets.coverage wrong length", RES.coverage, Y, name="y")
case("PredictionSets.coverage NaN", RES.coverage, [np.nan] * 10, name="y")
case("PredictionSets.coverage strings", RES.coverage, ["a"] * 10, name="y")
case("PredictionSets.coverage label 3", RES.coverage, [3] * 10, name="y")
case("PredictionSets.class_coverage wrong length", RES.class_coverage, Y, name="y")
case("PredictionSets.class_coverage ok", RES.class_coverage, Y[:10], ok=True,
     check=lambda f: list(f.columns) == ["n_test", "coverage", "mean_size"])
case("PredictionSets.plot y wrong length", lambda: RES.plot(y=Y), name="y")
case("PredictionSets.to_dict", RES.to_dict, ok=True)
case("PredictionSets.to_frame", RES.to_frame, ok=True)
bad_arrays("softmax_scores", S.softmax_scores, lambda v: ((v,), {}), "nonconformity")
for tag, value in (("0", 0), ("-1", -1), ("NaN", math.nan), ("inf", math.inf), ("string", "1"), ("None", None),
                   ("True", True), ("list", [1.0])):
    case(f"softmax_scores temperature={tag}", S.softmax_scores, P, temperature=value, name="temperature")
case("softmax_scores tiny temperature", S.softmax_scores, P, temperature=1e-320, ok=True,
     check=lambda q: np.isfinite(q).all() and np.allclose(q.sum(1), 1))
case("softmax_scores huge scores", S.softmax_scores, [[1e308, -1e308]], ok=True,
     check=lambda q: np.isfinite(q).all())
case("softmax_scores temperature=1e300", S.softmax_scores, P, temperature=1e300, ok=True,
     check=lambda q: np.allclose(q, 1 / 3))
bad_arrays("class_conditional_scores", S.class_conditional_scores, lambda v: ((v, FY, FZ), {}), "features_train")
bad_arrays("class_conditional_scores", S.class_conditional_scores, lambda v: ((FX, FY, v), {}), "features")
for tag, labels in (("None", None), ("NaN", np.r_[np.nan, FY[1:]]), ("None entry", [None] + FY[1:].tolist()),
                    ("short", FY[:5]), ("2-D", FY.reshape(30, 2)), ("one class", np.zeros(60)),
                    ("mixed 1 and '1'", [0] * 20 + [1] * 20 + ["1"] * 20), ("string", "abc")):
    case(f"class_conditional_scores labels {tag}", S.class_conditional_scores, FX, labels, FZ, name="labels_train")
case("class_conditional_scores method='x'", S.class_conditional_scores, FX, FY, FZ, method="x", name="method")
case("class_conditional_scores method=None", S.class_conditional_scores, FX, FY, FZ, method=None, name="method")
case("class_conditional_scores n_neighbors=0", S.class_conditional_scores, FX, FY, FZ, n_neighbors=0, name="n_neighbors")
case("class_conditional_scores n_neighbors=21", S.class_conditional_scores, FX, FY, FZ, n_neighbors=21,
     name="n_neighbors")
case("class_conditional_scores n_neighbors=1.5", S.class_conditional_scores, FX, FY, FZ, n_neighbors=1.5,
     name="n_neighbors")
case("class_conditional_scores normalize=1", S.class_conditional_scores, FX, FY, FZ, normalize=1, name="normalize")
case("class_conditional_scores covariance='x'", S.class_conditional_scores, FX, FY, FZ, method="mahalanobis",
     covariance="x", name="covariance")
case("class_conditional_scores shrinkage=-1", S.class_conditional_scores, FX, FY, FZ, method="mahalanobis",
     shrinkage=-1, name="shrinkage")
case("class_conditional_scores shrinkage=nan", S.class_conditional_scores, FX, FY, FZ, method="mahalanobis",
     shrinkage=math.nan, name="shrinkage")
case("class_conditional_scores mahalanobis p > n_class", S.class_conditional_scores, rng.normal(size=(12, 20)),
     np.repeat([0, 1], 6), rng.normal(size=(3, 20)), method="mahalanobis", warn="singular")
case("class_conditional_scores mahalanobis shrinkage=0 singular", S.class_conditional_scores,
     rng.normal(size=(12, 20)), np.repeat([0, 1], 6), rng.normal(size=(3, 20)), method="mahalanobis", shrinkage=0,
     name="shrinkage")
case("class_conditional_scores constant features", S.class_conditional_scores, np.ones((60, 4)), FY, FZ,
     method="mahalanobis", name="shrinkage")
case("class_conditional_scores detector unfit-able", S.class_conditional_scores, FX, FY, FZ, method=object(),
     name="method")
case("class_conditional_scores detector", S.class_conditional_scores, FX, FY, FZ,
     method=IsolationForest(random_state=0), ok=True, check=lambda s: s.shape == (7, 3))
case("class_conditional_scores normalize zero rows", S.class_conditional_scores, np.zeros((60, 4)), FY, FZ,
     normalize=True, ok=True, check=lambda s: np.isfinite(s).all())


def run(verbose=False):
    counts = {"clear": 0, "unclear": 0, "silent": 0}
    for label, fn, args, kwargs, name, warn, ok, check in CASES:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = fn(*args, **kwargs)
                err = None
            except Exception as e:  # noqa: BLE001 - the sweep classifies every error
                err = e
        messages = " | ".join(str(w.message) for w in caught)
        if err is not None:
            named = name is not None and re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", str(err)) is not None
            outcome = "clear" if isinstance(err, (TypeError, ValueError)) and named and not ok and not warn \
                else "unclear"
            detail = f"{type(err).__name__}: {str(err)[:160]}"
        elif warn:
            outcome = "clear" if warn in messages else "silent"
            detail = f"warnings: {messages[:160]}"
        elif ok:
            good = check is None or bool(check(out))
            outcome = "clear" if good else "silent"
            detail = "ok" if good else f"check failed: {str(out)[:120]}"
        else:
            outcome, detail = "silent", f"returned {type(out).__name__}; warnings: {messages[:100]}"
        counts[outcome] += 1
        if verbose or outcome != "clear":
            print(f"{outcome:8s} {label}: {detail}")
    total = sum(counts.values())
    print(f"\n{total} cases: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ", crash 0")
    return counts


if __name__ == "__main__":
    run("-v" in sys.argv)
