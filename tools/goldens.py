"""Golden outputs: a refactoring keeps every number (issue #27). From the root of a checkout, with PYTHONPATH=$PWD:
    python tools/goldens.py save NAME      # runs every case on this checkout, writes _goldens/NAME.pkl
    python tools/goldens.py compare [NAME] # runs them again and compares with NAME (default: main)
Save at the commit before a change (e.g. in a `git worktree` of it, pointing CIAUTO_GOLDENS at one folder), then
compare after it. Round three's redesign: 155 cases, 2 793 values, all equal between 9586081 and the merged result.
Each case returns a result; it is flattened to {path: value} over dataclass fields, dicts, lists, DataFrames and
arrays. Paths with timing words are skipped. compare: every saved path must exist and be exactly equal (NaN = NaN);
new paths are allowed (new fields)."""
import dataclasses, os, pickle, sys, warnings
import numpy as np, pandas as pd
warnings.filterwarnings("ignore")
os.environ.setdefault("TQDM_DISABLE", "1")
SKIP = ("second", "elapsed", "duration", "wall", "cpu_time")

def flatten(obj, path="", out=None, depth=0):
    out = {} if out is None else out
    if depth > 6: return out
    if any(w in path.lower() for w in SKIP): return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            try: v = getattr(obj, f.name)
            except Exception as e: v = f"<{type(e).__name__}>"
            flatten(v, f"{path}.{f.name}", out, depth + 1)
    elif isinstance(obj, pd.DataFrame):
        keep = [c for c in obj.columns if not any(w in str(c).lower() for w in SKIP)]
        out[path] = obj[keep].reset_index(drop=False)
    elif isinstance(obj, pd.Series): out[path] = obj
    elif isinstance(obj, dict):
        for k, v in obj.items(): flatten(v, f"{path}[{k!r}]", out, depth + 1)
    elif isinstance(obj, (list, tuple)) and len(obj) < 200 and any(dataclasses.is_dataclass(v) or isinstance(v, (dict, pd.DataFrame)) for v in obj):
        for i, v in enumerate(obj): flatten(v, f"{path}[{i}]", out, depth + 1)
    elif isinstance(obj, (np.ndarray, list, tuple, int, float, str, bool, np.generic, type(None))):
        out[path] = np.asarray(obj, dtype=object) if isinstance(obj, (list, tuple)) else obj
    else:
        out[path] = repr(type(obj))  # estimators, figures: compare the type only
    return out

def equal(a, b):
    try:
        if isinstance(a, pd.DataFrame) or isinstance(b, pd.DataFrame):
            pd.testing.assert_frame_equal(a, b, check_exact=True, check_dtype=False); return True
        if isinstance(a, pd.Series) or isinstance(b, pd.Series):
            pd.testing.assert_series_equal(a, b, check_exact=True, check_dtype=False); return True
        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            a, b = np.asarray(a), np.asarray(b)
            if a.shape != b.shape: return False
            if a.dtype.kind in "fc" and b.dtype.kind in "fc": return bool(np.array_equal(a, b, equal_nan=True))
            return all(equal(x, y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
        if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b): return True
        return bool(a == b)
    except AssertionError:
        return False

def cases():
    from ciauto.simulation import simulate_predictions
    from ciauto.bbc import bbc
    from ciauto.cvt import cross_validate_configurations, default_configurations, nested_cross_validation
    from ciauto.datasets import load_dataset
    from ciauto import intervals as iv
    from ciauto.conformal import BandOptions, conformal_selection, conformal_metrics
    from ciauto.prediction_sets import conformal_sets
    from ciauto.subgroups import find_subgroups, corrected_gaps
    from ciauto.adapters import from_oof
    from ciauto.study import run_simulation_study, reference_options, summarize
    sim = simulate_predictions(9, 6, n_samples=200, n_configurations=20, n_folds=5, random_state=3)
    yield "simulate", sim
    P, y, f = sim.predictions, sim.y, sim.folds
    for m in ("pooled", "folds"):
        for metric in ("roc_auc", "pr_auc", "accuracy", "brier_score", "balanced_accuracy"):
            Q = P if metric in ("roc_auc", "pr_auc") else 1 / (1 + np.exp(-(P - np.median(P))))
            yield f"bbc/{m}/{metric}", bbc(Q, y, f, metric=metric, method=m, n_bootstraps=300, random_state=1, progress=False)
    yield "bbc/one-sided", bbc(P, y, f, alternative="greater", n_bootstraps=200, random_state=2, progress=False)
    X, yy = load_dataset("credit-g")
    X, yy = X.iloc[:300], np.asarray(yy)[:300]
    cfg = default_configurations("small")
    yield "cvt", cross_validate_configurations(X, yy, cfg, n_folds=4, random_state=0, progress=False, refit=False)
    yield "cvt/drop", cross_validate_configurations(X, yy, cfg, n_folds=4, random_state=0, progress=False, refit=False, drop="bbcd")
    yield "nested", nested_cross_validation(X, yy, cfg[:3], outer=3, inner=3, random_state=0, progress=False)
    rng = np.random.default_rng(0); ye = rng.integers(0, 2, 60); ye[:2] = [0, 1]; se = ye + rng.normal(0, 1, (60, 6)).T
    se = se.T
    yield "delong", iv.delong_bound(ye, se[:, 0])
    yield "tilting", iv.tilting_bound(ye, se[:, 0], n_bootstraps=300, random_state=0)
    yield "mabt", iv.mabt_bound(ye, se, 0, n_bootstraps=300, random_state=0)
    yield "mabt/fallback", iv.mabt_bound(ye[:8], np.c_[ye[:8], ye[:8]].astype(float), 0, n_bootstraps=300, random_state=0, fallback="delong")
    yield "hm", iv.hanley_mcneil_bound(ye, se[:, 0])
    yield "nb", iv.naive_bootstrap_bound(rng.uniform(0.6, 0.9, (5, 6)), n_bootstraps=300, random_state=0)
    from ciauto.simulation import paper_settings
    st = paper_settings().iloc[[2, 9]]
    for mode, opts in (("default", {}), ("reference", reference_options())):
        r = run_simulation_study(st, n_runs=2, random_state=0, progress=False, **opts)
        yield f"study/{mode}", r
        yield f"study/{mode}/summary", summarize(r)
    cal = rng.normal(0, 1, 300); test = np.r_[rng.normal(0, 1, 80), rng.normal(2, 1, 20)]
    for method in ("simes", "dkwm", "asymptotic"):  # monte_carlo unseeded varies by design; seeded cases below
        band = BandOptions("monte_carlo", random_state=0) if method == "monte_carlo" else method  # protocol: seeded (None was fresh entropy: the case was flaky)
        try: yield f"conformal/{method}", conformal_selection(cal, test, alpha=0.1, delta=0.1, method=band)
        except Exception as e: yield f"conformal/{method}", f"<{type(e).__name__}: {e}>"
    yield "conformal/marginal", conformal_selection(cal, test, alpha=0.1)
    for method in ("simes", "dkwm", "asymptotic"):
        yield f"conformal/metrics/{method}", conformal_metrics(cal, test[80:], delta=0.1, method=method)
    K = 5; pc = rng.dirichlet(np.ones(K), 200); lc = np.array([rng.choice(K, p=p) for p in pc]); pt = rng.dirichlet(np.ones(K), 50)
    for method in ("lac", "aps", "raps"):
        for rand in ((False,) if method == "lac" else (False, True)):
            yield f"sets/{method}/{rand}", conformal_sets(pc, lc, pt, method=method, randomized=rand, random_state=0)
    # tower (issue 27): the score registry's other paths, and a multiclass study row (BBC without its bar)
    yield "sets/raps/options", conformal_sets(pc, lc, pt, method="raps", lam=0.05, k_reg=2, random_state=0)
    for method in ("lac", "aps", "raps"):
        yield f"sets/{method}/mondrian", conformal_sets(pc, lc, pt, method=method, mondrian=True, random_state=0)
    for method in ("aps", "raps"):
        yield f"sets/{method}/exact", conformal_sets(pc, lc, pt, method=method, rule="exact")
    yield "sets/lac/nonconformity", conformal_sets(1 - pc, lc, 1 - pt, scores="nonconformity")
    yield "study/multiclass", run_simulation_study(dict(beta_a=9, beta_b=6, n_samples=60, n_configurations=5, n_classes=3), n_runs=2, methods=["BBC", "BBC-F", "NB"], random_state=0, progress=False, method_options={"BBC": {"n_bootstraps": 200}, "BBC-F": {"n_bootstraps": 200}})
    data = pd.DataFrame({"a": rng.integers(0, 4, 400), "b": rng.normal(0, 1, 400), "c": rng.choice(list("xyz"), 400)})
    data["label"] = rng.integers(0, 2, 400); data["score"] = data.label * (data.a != 2) + rng.normal(0, 0.7, 400)
    for q in ("roc_auc", "pr_auc"):
        res = find_subgroups(data, label="label", score="score", quality=q, depth=2, min_support=20, top_k=5)
        yield f"subgroups/{q}", res
        yield f"subgroups/{q}/table", res.to_frame() if hasattr(res, "to_frame") else res
    yield "subgroups/gaps", corrected_gaps(find_subgroups(data, label="label", score="score", depth=1, top_k=3), data, n_bootstraps=50, random_state=0)
    table = pd.DataFrame(P, columns=[f"m{i}" for i in range(P.shape[1])]); table["y"] = y; table["fold"] = f
    yield "from_oof", from_oof(table)
    # --- rooms (issue 27, shared ideas): seeds, groups, metric rule, score matrix, order statistics ---
    yield from _rooms_cases(sim, X, yy, cfg, data, rng)

def _rooms_cases(sim, X, yy, cfg, data, rng0):
    "Cases for the paths issue 27's 'one room each' touches that the cases above do not reach (all seeded)."
    from ciauto.bbc import bbc
    from ciauto.cvt import (FdrSelector, bbcd_worse_fraction, cross_validate_configurations, default_configurations,
                            nested_cross_validation)
    from ciauto.conformal import BandOptions, conformal_selection
    from ciauto import intervals as iv
    from ciauto.simulation import replay_reference_inputs, reference_loop_order
    from ciauto.subgroups import find_subgroups, corrected_gaps, significance_filter
    from ciauto.study_run import fold_performance
    P, y, f = sim.predictions, sim.y, sim.folds
    rng = np.random.default_rng(27)
    groups = np.repeat(np.arange(40), 5)
    yield "rooms/bbc/groups/pooled", bbc(P, y, f, groups=groups, n_bootstraps=200, random_state=3, progress=False)
    yield "rooms/bbc/groups/folds", bbc(P, y, groups % 5, groups=groups, method="folds", n_bootstraps=200, random_state=3, progress=False)
    yield "rooms/bbc/gen", bbc(P, y, f, n_bootstraps=200, random_state=np.random.default_rng(5), progress=False)
    patients = np.array([f"p{k:03d}" for k in rng.permutation(np.repeat(np.arange(60), 5))])
    yield "rooms/cvt/groups", cross_validate_configurations(X, yy, cfg[:3], n_folds=3, groups=patients, random_state=1, progress=False, refit=False)
    yield "rooms/nested/groups", nested_cross_validation(X, yy, cfg[:2], outer=3, inner=3, groups=patients, random_state=2, progress=False)
    full = default_configurations()
    fdr = [c for c in full if c.feature_selection == "fdr"][:2]
    yield "rooms/cvt/fdr", cross_validate_configurations(X, yy, fdr, n_folds=3, random_state=0, progress=False, refit=False)
    Xn = rng.normal(size=(200, 30)); yn = (Xn[:, 0] + Xn[:, 1] + rng.normal(size=200) > 0).astype(int)
    for a in (0.01, 0.05, 0.2, 0.9):
        yield f"rooms/fdr/{a}", FdrSelector(alpha=a, max_features=100).fit(Xn, yn).support_
    yr = X.select_dtypes("number").iloc[:, 0].to_numpy(float)
    yield "rooms/cvt/regression", cross_validate_configurations(X.drop(columns=X.select_dtypes("number").columns[0]), yr, default_configurations("small", task="regression")[:3], n_folds=3, random_state=0, progress=False, refit=False)
    yield "rooms/worse/gen", bbcd_worse_fraction(P[:, :5], y, n_bootstraps=200, random_state=np.random.default_rng(4))
    yield "rooms/worse/int", bbcd_worse_fraction(P[:, :5], y, n_bootstraps=200, random_state=4)
    yield "rooms/fold_aucs/auto", iv.fold_aucs(P, y, f, direction="auto")
    yield "rooms/fold_performance/brier", fold_performance(1 / (1 + np.exp(-P)), y, f, "brier_score")
    yield "rooms/nb/reference", iv.naive_bootstrap_bound(iv.fold_aucs(P, y, f), n_bootstraps=300, quantile="reference", random_state=0)
    cal = rng0.normal(0, 1, 300); test = np.r_[rng0.normal(0, 1, 80), rng0.normal(2, 1, 20)]
    for name, rs in (("int", 0), ("gen", np.random.default_rng(0))):
        yield f"rooms/conformal/mc/{name}", conformal_selection(cal, test, alpha=0.1, delta=0.1, method=BandOptions("monte_carlo", random_state=rs, n_simulations=2000))
    first = reference_loop_order()[0]
    yield "rooms/replay", [s for _, _, s in replay_reference_inputs([first], n_runs=2)]
    res = find_subgroups(data, label="label", score="score", depth=1, top_k=4, min_support=20)
    for name, rs in (("int", 1), ("gen", np.random.default_rng(1))):
        try: yield f"rooms/significance/{name}", significance_filter(res, data, n_permutations=200, random_state=rs)
        except Exception as e: yield f"rooms/significance/{name}", f"<{type(e).__name__}: {e}>"
    yield "rooms/gaps/gen", corrected_gaps(res, data, n_bootstraps=30, random_state=np.random.default_rng(2))
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from ciauto.adapters import from_search
    Xs = rng.normal(size=(120, 4)); ys = (Xs[:, 0] + rng.normal(size=120) > 0).astype(int)
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=StratifiedKFold(3, shuffle=True, random_state=0))
    for metric in (None, "roc_auc"):
        try: yield f"rooms/from_search/{metric}", from_search(search, Xs, ys, metric=metric)
        except Exception as e: yield f"rooms/from_search/{metric}", f"<{type(e).__name__}: {e}>"
    from ciauto.study_methods import apply_methods
    from ciauto.study_run import StudyRun
    run = StudyRun(P, y, f, truth=np.linspace(0.5, 0.9, P.shape[1]), selection_seed=7)
    yield "rooms/methods/gen", apply_methods(run, ["NB", "BT", "MABT", "DL"], seed=3)

def _plain(v):
    "protocol (issue 27): a to_dict() output with NaN/inf as None and numpy values plain, so that main's dicts (not all JSON-safe) compare with the JSON-safe ones"
    import math
    if isinstance(v, dict): return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)): return [_plain(x) for x in v]
    if isinstance(v, np.ndarray): return _plain(v.tolist())
    if isinstance(v, np.generic): return _plain(v.item())
    if isinstance(v, float) and not math.isfinite(v): return None
    return v

def run():
    out = {}
    for name, res in cases():
        out[name] = flatten(res, name)
        if dataclasses.is_dataclass(res) and hasattr(res, "to_dict"):  # protocol (issue 27): existing to_dict keys keep their values
            out[name + "/to_dict"] = flatten(_plain(res.to_dict()), name + "/to_dict")
        if dataclasses.is_dataclass(res) and hasattr(res, "to_frame"):
            out[name + "/to_frame"] = flatten(res.to_frame(), name + "/to_frame")
        print(f"{name}: {len(out[name])} values", file=sys.stderr, flush=True)
    return out

if __name__ == "__main__":
    cmd = sys.argv[1]; name = sys.argv[2] if len(sys.argv) > 2 else "main"
    folder = os.environ.get("CIAUTO_GOLDENS", "_goldens")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{name}.pkl")
    now = run()
    if cmd == "save":
        pickle.dump(now, open(path, "wb")); print("saved", path)
    else:
        old = pickle.load(open(path, "rb")); bad = 0
        for case, vals in old.items():
            if case not in now: print("MISSING CASE", case); bad += 1; continue
            for k, v in vals.items():
                if k not in now[case]: print("MISSING", k); bad += 1
                elif not equal(v, now[case][k]): print("DIFFERENT", k); bad += 1
        n = sum(len(v) for v in old.values())
        print(f"{n - bad} of {n} golden values equal, {bad} missing or different"); sys.exit(1 if bad else 0)
