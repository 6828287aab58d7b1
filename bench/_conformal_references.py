"""Dev-only reference check of ciauto.prediction_sets against puncc and MAPIE (not run by the test suite).

    python -m venv /tmp/mapie-venv && /tmp/mapie-venv/bin/pip install mapie puncc   # ~55 s
    /tmp/mapie-venv/bin/python bench/_conformal_references.py dump /tmp/refs.npz      # their sets
    PYTHONPATH=. python bench/_conformal_references.py compare /tmp/refs.npz          # ours against them

Results (MAPIE 1.6.0, puncc 0.9.3) are in bench/conformal.md.
"""
import sys
import warnings

import numpy as np


def dump(path):
    from deel.puncc.api import nonconformity_scores as ncs, prediction_sets as ps
    from deel.puncc.api.utils import quantile
    from mapie.classification import SplitConformalClassifier
    from sklearn.base import BaseEstimator, ClassifierMixin

    rng = np.random.default_rng(0)
    K, n, m, alpha = 10, 500, 2000, 0.1
    logits = rng.normal(0, 2, (n + m, K))
    P = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    y = (rng.random((n + m, 1)) > P.cumsum(1)).sum(1)
    cal, test, yc = P[:n], P[n:], y[:n]
    out = {"P": P, "y": y, "alpha": alpha, "n": n}
    
    def puncc_sets(score_fn, set_fn):
        q = quantile(np.concatenate([score_fn(cal, yc), [np.inf]]), 1 - alpha)
        sets = set_fn(test, q)[0]
        mask = np.zeros((m, K), bool)
        for i, s in enumerate(sets): mask[i, s] = True
        return mask, q
    
    out["puncc_lac"], out["puncc_lac_q"] = puncc_sets(ncs.lac_score, ps.lac_set)
    for name, lam, kreg in (("aps", 0.0, 1), ("raps", 0.05, 2)):
        out[f"puncc_{name}_det"], out[f"puncc_{name}_det_q"] = puncc_sets(
            lambda a, b: ncs.raps_score(a, b, lam, kreg, rand=False), lambda a, q: ps.raps_set(a, q, lam, kreg, rand=False))
        np.random.seed(1)  # puncc draws u from numpy's global state: n for calibration, then m for the test points
        out[f"u_{name}"] = np.random.RandomState(1).uniform(size=n + m)
        out[f"puncc_{name}_rand"], out[f"puncc_{name}_rand_q"] = puncc_sets(
            lambda a, b: ncs.raps_score(a, b, lam, kreg, rand=True), lambda a, q: ps.raps_set(a, q, lam, kreg, rand=True))
    
    class Fixed(ClassifierMixin, BaseEstimator):
        "predict_proba(X) = P[X[:, 0]]: lets MAPIE see exactly our probability matrix."
        def fit(self, X, y):
            self.classes_ = np.arange(K); return self
        def predict_proba(self, X):
            return P[np.asarray(X)[:, 0].astype(int)]
        def predict(self, X):
            return self.predict_proba(X).argmax(1)
    
    idx = np.arange(n + m)[:, None]
    est = Fixed().fit(idx, y)
    for score, params, key in (("lac", None, "mapie_lac"), ("aps", {"include_last_label": False}, "mapie_aps_det"),
                               ("aps", {"include_last_label": True}, "mapie_aps_last")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scc = SplitConformalClassifier(est, confidence_level=1 - alpha, conformity_score=score, prefit=True)
            scc.conformalize(idx[:n], yc)
            _, sets = scc.predict_set(idx[n:], conformity_score_params=params)
        out[key] = sets[:, :, 0]
    np.savez(path, **out)
    print("saved", sorted(out))


def compare(path):
    from ciauto.prediction_sets import aps_scores, conformal_sets, conformal_threshold

    r = np.load(path)
    P, y, alpha, n = r["P"], r["y"], float(r["alpha"]), int(r["n"])
    cal, test, yc = P[:n], P[n:], y[:n]
    def agree(a, b): return f"{(a == b).all(axis=1).mean():.4f} of rows identical, {int((a != b).sum())} cells differ"
    lac = conformal_sets(cal, yc, test, alpha=alpha).sets
    print("LAC vs puncc:", agree(lac, r["puncc_lac"]), "| vs MAPIE:", agree(lac, r["mapie_lac"]))
    for name, lam, kreg in (("aps", 0.0, 1), ("raps", 0.05, 2)):
        opts = {"lam": lam, "k_reg": kreg} if name == "raps" else {}
        det = conformal_sets(cal, yc, test, method=name, alpha=alpha, **opts)
        # puncc (and MAPIE's include_last_label=True) add the class that crosses the threshold: remove it to compare
        e = aps_scores(test, None, lam, kreg if name == "raps" else 0)
        ranks = np.argsort(np.argsort(-test, axis=1, kind="stable"), axis=1)
        size = det.sets.sum(1)
        plus_last = det.sets | ((ranks == size[:, None]) & (e > det.threshold))
        print(f"{name} deterministic vs puncc: as is {agree(det.sets, r[f'puncc_{name}_det'])}; with the crossing class "
              f"added {agree(plus_last, r[f'puncc_{name}_det'])}; thresholds {det.threshold:.12g} vs {float(r[f'puncc_{name}_det_q']):.12g}")
        if name == "aps":
            print("  aps deterministic vs MAPIE include_last_label=False:", agree(det.sets, r["mapie_aps_det"]),
                  "| include_last_label=True vs ours+crossing:", agree(plus_last, r["mapie_aps_last"]))
        u = r[f"u_{name}"]  # puncc uses E - u p (our u is 1 - its u) and drops the last class when u <= v
        ours_cal = aps_scores(cal, 1 - u[:n], lam, kreg if name == "raps" else 0)[np.arange(n), yc]
        q, _ = conformal_threshold(ours_cal, alpha)
        sets = aps_scores(test, 1 - u[n:], lam, kreg if name == "raps" else 0) <= q
        print(f"{name} randomised (same uniforms) vs puncc: {agree(sets, r[f'puncc_{name}_rand'])}; "
              f"thresholds {q:.12g} vs {float(r[f'puncc_{name}_rand_q']):.12g}")
    # puncc's randomised RAPS set divides the excess by p_L + lam * 1[L > k_reg]; with that divisor the sets coincide
    lam, kreg, u = 0.05, 2, r["u_raps"]
    q, _ = conformal_threshold(aps_scores(cal, 1 - u[:n], lam, kreg)[np.arange(n), yc], alpha)
    order = np.argsort(-test, axis=1, kind="stable"); ps_ = np.take_along_axis(test, order, 1); cum = ps_.cumsum(1)
    rank = np.arange(1, 11); pen = lam * np.maximum(rank - kreg, 0)
    L = np.minimum((cum + pen < q).sum(1) + 1, 10)
    i = np.arange(len(test)); excess = cum[i, L - 1] + lam * np.maximum(L - kreg, 0) - q
    v = excess / (ps_[i, L - 1] + lam * (L > kreg)); L = L - (u[n:] <= v)
    mimic = np.zeros_like(test, bool)
    for a in range(len(test)): mimic[a, order[a, :L[a]]] = True
    print("puncc's randomised RAPS rule re-implemented:", agree(mimic, r["puncc_raps_rand"]))


if __name__ == "__main__":
    {"dump": dump, "compare": compare}[sys.argv[1]](sys.argv[2])
