"""A metric added with one `register_metric` call works by name at every door: cross-validation, nested CV, bbc,
from_oof and the command line (`ciauto.cli.main` in the same process)."""
import io
import json
import warnings
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pandas as pd
import pytest

from ciauto.metrics import METRICS, Metric, register_metric

NAME = "neg_mean_cubed_error_test"


def _cubed(y_true, y_pred, sample_weight=None):
    "Minus the mean |p − y|³ of probabilities of class 1 (a made-up loss, scored higher-is-better)."
    y, p = np.asarray(y_true, float), np.asarray(y_pred, float)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    return -float(np.sum(w * np.abs(p - y) ** 3) / np.sum(w))


@pytest.fixture(scope="module")
def metric():
    m = register_metric(Metric(NAME, _cubed, True, -1.0, 0.0, "binary",
                               row_loss=lambda y, P: np.abs(P - np.asarray(y, float)[:, None]) ** 3))
    yield m
    METRICS.pop(NAME, None)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(120, 4)), columns=list("abcd"))
    y = (X["a"] + rng.normal(size=120) > 0).astype(int).to_numpy()
    return X, y


def test_every_door(metric, data, tmp_path):
    from sklearn.linear_model import LogisticRegression
    from ciauto.adapters import from_oof
    from ciauto.bbc import bbc
    from ciauto.cli import main
    from ciauto.cvt import cross_validate_configurations, nested_cross_validation
    X, y = data
    configs = [(f"C={c}", LogisticRegression(C=c)) for c in (0.01, 1.0)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = cross_validate_configurations(X, y, configs, n_folds=3, metric=NAME, random_state=0, progress=False,
                                          refit=False)
        assert r.metric == NAME
        b = bbc(r, n_bootstraps=50, random_state=0, progress=False)  # by the result's name
        assert b.metric == NAME and b.selection_metric == NAME
        manual = bbc(r.predictions, r.y, r.folds, metric=NAME, n_bootstraps=50, random_state=0, progress=False)
        assert np.array_equal(b.distribution, manual.distribution)
        table = pd.DataFrame(r.predictions, columns=["m0", "m1"]).assign(y=r.y, fold=r.folds)
        oof = from_oof(table, metric=NAME)
        assert oof.metric == NAME
        nested = nested_cross_validation(X, y, configs, outer=3, inner=3, metric=NAME, random_state=0, progress=False)
        assert nested.metric_name == NAME
        path = tmp_path / "oof.csv"
        table.to_csv(path, index=False)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["bbc", "--predictions", str(path), "--metric", NAME, "--method", "bbc", "--bootstraps", "50",
                         "--output", str(tmp_path / "bbc.json"), "--quiet"])
        assert code == 0, err.getvalue()
        assert json.loads((tmp_path / "bbc.json").read_text())["metric"] == NAME
        data_path = tmp_path / "data.csv"
        X.assign(y=y).to_csv(data_path, index=False)
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["estimate", "--data", str(data_path), "--target", "y", "--grid", "small", "--folds", "3",
                         "--metric", NAME, "--method", "bbc", "--bootstraps", "50", "--jobs", "1",
                         "--output", str(tmp_path / "estimate.json"), "--quiet"])
        assert code == 0, err.getvalue()
        assert json.loads((tmp_path / "estimate.json").read_text())["metric"] == NAME
