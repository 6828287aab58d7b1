"""Dev-only: every APS/RAPS variant on the digits example of issue 23, beside MAPIE's (not run by the test suite).

    pip install mapie                                   # dev-only reference, never a ciauto dependency
    PYTHONPATH=. python bench/_aps_digits.py [n_splits]

Digits (scikit-learn's copy), a logistic regression fitted on 300 rows, 700 calibration rows, the remaining 797
test rows, alpha = 0.1; one random permutation per split (seed = split index). Prints coverage, mean set size and
the share of empty sets of each variant, averaged over the splits (results in bench/conformal.md).
"""
import sys
import warnings

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression

from ciauto.prediction_sets import conformal_sets

ALPHA = 0.1


def split(seed, X, y):
    perm = np.random.default_rng(seed).permutation(len(y))
    tr, ca, te = perm[:300], perm[300:1000], perm[1000:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LogisticRegression(max_iter=1000).fit(X[tr], y[tr])
    return model, X[ca], y[ca], X[te], y[te]


def ours(model, Xc, yc, Xt, seed):
    pc, pt = model.predict_proba(Xc), model.predict_proba(Xt)
    out = {}
    for method in ("aps", "raps"):
        for rule in ("exact", "include_last", "randomized"):
            out[f"ciauto {method} {rule}"] = conformal_sets(pc, yc, pt, method=method, rule=rule, alpha=ALPHA,
                                                            random_state=seed).sets
        out[f"ciauto {method} include_last mondrian"] = conformal_sets(pc, yc, pt, method=method, alpha=ALPHA,
                                                                       mondrian=True, random_state=seed).sets
    out["ciauto lac"] = conformal_sets(pc, yc, pt, alpha=ALPHA).sets
    return out


def mapie(model, Xc, yc, Xt, seed):
    from mapie.classification import SplitConformalClassifier
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for score in ("aps", "raps"):
            for last in (True, False, "randomized"):
                scc = SplitConformalClassifier(model, confidence_level=1 - ALPHA, conformity_score=score,
                                               prefit=True, random_state=seed)
                scc.conformalize(Xc, yc)
                _, sets = scc.predict_set(Xt, conformity_score_params={"include_last_label": last})
                out[f"MAPIE {score} include_last_label={last}"] = sets[:, :, 0]
    return out


def same_uniforms(model, Xc, yc, Xt, seed, mapie_sets):
    "Cells where MAPIE's default APS differs from ciauto's include_last rule fed MAPIE's own uniforms (u = 1 - u_MAPIE)."
    from ciauto.prediction_sets import aps_scores, conformal_threshold
    pc, pt = model.predict_proba(Xc), model.predict_proba(Xt)
    u = 1 - np.random.RandomState(seed).uniform(size=len(yc))  # MAPIE scores cumsum - u p; ours E(x, y, u) = before + u p
    q, _ = conformal_threshold(aps_scores(pc, u)[np.arange(len(yc)), yc], ALPHA)
    return int((aps_scores(pt, np.zeros(len(pt))) <= q).__ne__(mapie_sets).sum())


def main(n_splits=10):
    X, y = load_digits(return_X_y=True)
    rows, differ = {}, []
    for seed in range(n_splits):
        model, Xc, yc, Xt, yt = split(seed, X, y)
        results = ours(model, Xc, yc, Xt, seed)
        try:
            results.update(mapie(model, Xc, yc, Xt, seed))
            differ.append(same_uniforms(model, Xc, yc, Xt, seed, results["MAPIE aps include_last_label=True"]))
        except ImportError:
            pass
        for name, sets in results.items():
            rows.setdefault(name, []).append((sets[np.arange(yt.size), yt].mean(), sets.sum(1).mean(),
                                              (sets.sum(1) == 0).mean()))
    print(f"| variant ({n_splits} splits) | coverage | mean size (min–max over splits) | empty sets |")
    print("| --- | --- | --- | --- |")
    for name, values in rows.items():
        a = np.array(values)
        print(f"| {name} | {a[:, 0].mean():.3f} | {a[:, 1].mean():.2f} ({a[:, 1].min():.2f}–{a[:, 1].max():.2f}) "
              f"| {a[:, 2].mean():.1%} |")
    if differ:
        print(f"\nMAPIE's default APS vs ciauto's include_last rule with MAPIE's uniforms: {sum(differ)} of "
              f"{n_splits * (len(y) - 1000) * 10} cells differ ({n_splits} splits)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
