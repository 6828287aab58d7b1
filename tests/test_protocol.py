"""One result protocol (issue 27): every result object of ciauto has a JSON-safe `to_dict()` and a `to_frame()`, and
every interval result has `.confidence_interval` with `.low <= .high`.

One instance of every result class is built here (small and fast: real calls where they are cheap, by hand where the
call would fit models), and a scan of the package finds every frozen dataclass whose name says it is a result, so a
new result class without an instance here fails the test until it is added (and so speaks the protocol).
"""
import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
import warnings

import numpy as np
import pandas as pd
import pytest

import ciauto

RESULT_NAME = re.compile(r"(Result|Selection|Metrics|Sets|Predictions|Bound)$")
EXTRA = {"Band", "Subgroup", "MethodOutput", "BiasCorrection"}  # results whose names do not say so, covered as well


def _instances() -> dict:
    "name -> one instance of every result class, built small."
    from ciauto.adapters import from_oof
    from ciauto.bbc import bbc
    from ciauto.compare import compare_to, paired_difference, top_k
    from ciauto.conformal import conformal_metrics, conformal_selection, get_band
    from ciauto.cvt import NestedCVResult
    from ciauto.intervals import NCVResult, delong_bound, learn_eval_selection, tibshirani_bias_correction
    from ciauto.prediction_sets import conformal_sets
    from ciauto.simulation import simulate_predictions
    from ciauto.study_methods import MethodOutput
    from ciauto.subgroups import corrected_gaps, find_subgroups

    sim = simulate_predictions(9, 6, n_samples=60, n_configurations=4, n_folds=3, random_state=0)
    P, y, folds = sim.predictions, sim.y, sim.folds
    table = pd.DataFrame(P, columns=[f"m{j}" for j in range(P.shape[1])]).assign(y=y, fold=folds)
    rng = np.random.default_rng(0)
    cal, test = rng.normal(size=50), np.r_[rng.normal(size=20), rng.normal(2, 1, 10)]
    probs = rng.dirichlet(np.ones(3), 40)
    data = pd.DataFrame({"a": rng.integers(0, 3, 200).astype(str), "label": rng.integers(0, 2, 200)})
    data["score"] = data["label"] * (data["a"] != "0") + rng.normal(0, 1, 200)
    found = find_subgroups(data, label="label", score="score", depth=1, min_support=20, top_k=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "SimulatedPredictions": sim,
            "CVTResult": from_oof(table),
            "_UnfoldedCVTResult": from_oof(table.drop(columns="fold"), fold=None),
            "NestedCVResult": NestedCVResult(np.array([0.7, np.nan]), ("a", "b"), np.array([0.8, 0.9]), 14,
                                             "roc_auc", True, np.array([40, 40]), np.array([20, 20])),
            "BBCResult": bbc(P, y, folds, n_bootstraps=50, random_state=0, progress=False),
            "LowerBound": delong_bound(y, P[:, 0]),
            "Selection": learn_eval_selection(P, y, folds, random_state=0),
            "Band": get_band(50, 0.1),
            "ConformalMetrics": conformal_metrics(cal, test[20:], delta=0.1),
            "ConformalSelection": conformal_selection(cal, test, alpha=0.1, delta=0.1),
            "PredictionSets": conformal_sets(probs[:30], rng.integers(0, 3, 30), probs[30:], mondrian=False),
            "SubgroupResult": corrected_gaps(found, data, n_bootstraps=20, random_state=0),
            "Subgroup": found.subgroups[0],
            "MethodOutput": MethodOutput(0.6, 1),
            "NCVResult": NCVResult(0.8, 0.7, 0.9, 0.95, "two-sided", 0.05, 0.002, 1.3, 0.01, 0.81, 0.8, 0.04, 5, 10,
                                   154, "roc_auc", True),
            "BiasCorrection": tibshirani_bias_correction(np.array([[0.7, 0.8], [0.9, 0.6]])),
            "ComparisonResult": compare_to(P, 1, y=y, folds=folds, n_bootstraps=50, random_state=0),
            "TopKResult": top_k(P, 3, y=y, folds=folds, n_bootstraps=50, random_state=0),
            "PairedDifferenceResult": paired_difference(y, P[:, 0], P[:, 1]),
        }


@pytest.fixture(scope="module")
def instances():
    return _instances()


def _result_classes() -> set:
    "Every frozen dataclass of the package whose name says it is a result, plus `EXTRA`."
    names = set()
    for info in pkgutil.iter_modules(ciauto.__path__):
        module = importlib.import_module(f"ciauto.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
                    and cls.__dataclass_params__.frozen and (RESULT_NAME.search(name) or name in EXTRA)):
                names.add(name)
    return names


def test_every_result_class_is_covered(instances):
    "A new result class (a frozen dataclass named ...Result, ...Bound, ...) must get an instance above."
    missing = _result_classes() - {type(r).__name__ for r in instances.values()}
    assert not missing, f"result classes without a protocol check: {sorted(missing)}"


@pytest.mark.parametrize("name", ["SimulatedPredictions", "CVTResult", "_UnfoldedCVTResult", "NestedCVResult",
                                  "BBCResult", "LowerBound", "Selection", "Band", "ConformalMetrics",
                                  "ConformalSelection", "PredictionSets", "SubgroupResult", "Subgroup",
                                  "MethodOutput", "ComparisonResult", "TopKResult", "PairedDifferenceResult"])
def test_protocol(instances, name):
    "to_dict() is strict JSON, to_frame() a DataFrame, and an interval has low <= high."
    r = instances[name]
    assert type(r).__name__ == name
    d = r.to_dict()
    json.dumps(d, allow_nan=False)  # raises on NaN, inf or a numpy value
    private = {f.name for f in dataclasses.fields(r) if f.name.startswith("_")}
    assert not private & set(d), "private fields stay out of to_dict()"
    assert isinstance(r.to_frame(), pd.DataFrame)
    ci = getattr(r, "confidence_interval", None)
    if ci is not None:
        low, high = ci  # unpacks as scipy's ConfidenceInterval
        assert (ci.low, ci.high) == (low, high) or np.array_equal(ci.low, low)
        finite = ~(np.isnan(np.asarray(low, float)) | np.isnan(np.asarray(high, float)))
        assert np.all(np.asarray(low, float)[finite] <= np.asarray(high, float)[finite])
        assert d["confidence_interval"] is not None
        level = getattr(r, "confidence_level", None)
        assert level is None or 0 < level < 1


def test_interval_results_are_intervals(instances):
    "The interval results: the two-sided/one-sided bounds and the corrected gaps all expose confidence_interval."
    for name in ("BBCResult", "LowerBound", "ConformalMetrics", "SubgroupResult", "MethodOutput", "ComparisonResult",
                 "TopKResult", "PairedDifferenceResult"):
        assert instances[name].confidence_interval is not None, name
    bound = instances["LowerBound"]
    assert (bound.confidence_interval.low, bound.confidence_interval.high) == (bound.bound, 1.0)
    bbc_result = instances["BBCResult"]
    assert tuple(bbc_result.confidence_interval) == (bbc_result.ci_low, bbc_result.ci_high)


def _same(a, b) -> bool:
    "Equal as saved data: arrays by value (NaN = NaN), tables by value (dtypes aside), dataclasses field by field."
    if isinstance(a, pd.DataFrame) or isinstance(b, pd.DataFrame):
        try:
            pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_dtype=False)
            return True
        except AssertionError:
            return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a) and dataclasses.is_dataclass(b):
        return type(a) is type(b) and all(_same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, (np.ndarray, list, tuple)) or isinstance(b, (np.ndarray, list, tuple)):
        A, B = np.asarray(a), np.asarray(b)
        if A.shape != B.shape:
            return False
        if A.dtype.kind in "fc" or B.dtype.kind in "fc":
            return bool(np.array_equal(A.astype(float), B.astype(float), equal_nan=True))
        return all(_same(x, y) for x, y in zip(A.ravel().tolist(), B.ravel().tolist()))
    if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
        return True
    return bool(a == b)


def test_saved_results_load_back(instances):
    "Every result class has `from_dict`, and `from_dict(to_dict())` (through JSON) equals the original."
    for name in sorted(_result_classes()):
        obj = instances[name]
        cls = type(obj)
        assert callable(getattr(cls, "from_dict", None)), f"{name} has no from_dict"
        back = cls.from_dict(json.loads(json.dumps(obj.to_dict(), allow_nan=False)))
        assert type(back) is cls, name
        assert _same(obj, back), f"{name}: from_dict(to_dict()) differs from the original"
