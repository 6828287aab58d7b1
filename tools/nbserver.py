"""Run notebooks in processes forked from one that has imported their common modules once (a fork server).

    python tools/nbserver.py          # reads jobs on stdin, one JSON object per line; answers on stdout

A notebook's own process (`python tools/nbrun.py NB`) spends seconds of CPU importing numpy, pandas, scikit-learn,
matplotlib, numba, IPython, nbdev and the package before its first cell; the suite runs about fifty of them. This server
imports them once, then forks a child per notebook: the child starts with them imported, runs the notebook exactly as
tools/nbrun.py does (same function) and exits. Each child is a separate process, so nothing a notebook changes (a
registered metric, a patched class, the working folder, the environment) reaches another.

Before it serves, the server calls the package's most used numba kernels once on tiny inputs (`warm_up`): each is
compiled into numba's cache, or loaded from it, here, and every child starts with it in memory. From a clean clone the
notebooks that start together would otherwise each compile the same kernels (up to four times each, about 65 CPU
seconds in all), and every notebook loads them from the cache again (300 loads, about 40 CPU seconds). The warm-up
starts no thread pool (no joblib workers, no OpenMP estimator), so that forking the server stays safe.

    python tools/nbserver.py --warm-up   # only the warm-up, into numba's cache (conftest.py, when forking is off)

A job: {"id": ..., "notebook": path, "flags": [..], "save": path or null, "env": {..}, "stdout": path, "stderr": path},
or, for a script run as `python script args..` (the benchmarks' quick runs), "script": path and "args": [..] instead of
the notebook's keys.
The server answers {"id": ..., "pid": N} once the child runs (it leads its own process group, so that a timeout can
stop it with every process it started), then {"id": ..., "rc": exit code, "cpu": the child's CPU seconds}. It exits
when its stdin closes, stopping the children still running. conftest.py is its one client.
"""
import importlib
import json
import os
import select
import signal
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
# The notebooks' common imports (most of a notebook process's start-up CPU). One that fails to import here is left
# to fail in the notebook that needs it, which reports it.
PRELOAD = ("numpy", "scipy", "scipy.stats", "scipy.special", "scipy.optimize", "pandas", "numba", "joblib",
           "threadpoolctl", "tqdm", "matplotlib", "matplotlib.pyplot", "sklearn", "sklearn.base", "sklearn.metrics",
           "sklearn.model_selection", "sklearn.linear_model", "sklearn.neighbors", "sklearn.datasets",
           "sklearn.preprocessing", "sklearn.pipeline", "sklearn.ensemble", "sklearn.tree", "sklearn.svm",
           "sklearn.impute", "sklearn.compose", "sklearn.feature_selection", "IPython", "fastcore.test",
           "fastcore.all", "execnb.shell", "execnb.nbio", "nbdev.config", "nbdev.process", "nbdev.processors",
           "nbrun")


def preload():
    "Import PRELOAD and every module of the package (which loads its eagerly compiled kernels once, for every child)."
    import contextlib
    import pkgutil
    # stdout is the answers' channel: what a module prints while it is imported goes to stderr
    with warnings.catch_warnings(), contextlib.redirect_stdout(sys.stderr):
        warnings.simplefilter("ignore")
        for name in PRELOAD:
            try:
                importlib.import_module(name)
            except Exception:
                pass
        try:
            package = importlib.import_module("ciauto")
            for info in pkgutil.iter_modules(package.__path__, "ciauto."):
                try:
                    importlib.import_module(info.name)
                except Exception:
                    pass
        except Exception:
            pass


def warm_up():
    """Call the kernels most notebooks use, on tiny inputs, so that they are compiled (or loaded from numba's cache) in
    this process. Each call is on its own: one that fails leaves its kernels to the notebooks, whose tests report it."""
    import contextlib
    import numpy as np
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(20, np.int64), np.ones(20, np.int64)]
    scores = rng.random((40, 4))
    folds = np.arange(40) % 4
    probabilities = rng.dirichlet(np.ones(3), 60)
    labels, class_folds = np.arange(60) % 3, np.arange(60) // 3 % 4  # every class in every fold

    def metrics():
        from ciauto.metrics import c_index, fold_score_matrix, get_metric
        for metric in ("roc_auc", "pr_auc"):
            fold_score_matrix(metric, scores, y, folds, 4)
            get_metric(metric)(y, scores[:, 0])
        get_metric("roc_auc_ovo")(labels, probabilities)
        c_index(np.c_[rng.random(60), labels > 0], rng.random(60))

    def pooled_auc():
        from ciauto.bbc import bbc
        bbc(scores, y, n_bootstraps=20, random_state=0, progress=False)  # no folds: needs no fold-wise matrix

    def other_bootstraps():
        from ciauto.bbc import bbc
        bbc(scores, y, folds, metric="pr_auc", n_bootstraps=20, random_state=0, progress=False)
        bbc(np.stack([probabilities] * 2, axis=1), labels, class_folds, metric="roc_auc_ovo", n_bootstraps=20,
            random_state=0, progress=False)

    def dropping():
        from ciauto.cvt import bbcd_worse_fraction
        bbcd_worse_fraction(scores, y, n_bootstraps=10, random_state=0)

    def fold_bootstraps():
        from ciauto.bbc import bbc
        for method in ("pooled", "folds"):
            bbc(scores, y, folds, method=method, n_bootstraps=20, random_state=0, progress=False)

    def study():
        from ciauto.study import run_simulation_study
        run_simulation_study(dict(beta_a=24, beta_b=6, n_samples=500, n_configurations=20), n_runs=1, random_state=0,
                             progress=False, n_jobs=1)

    def prediction_sets():
        from ciauto.prediction_sets import conformal_sets
        for method in ("aps", "lac"):
            conformal_sets(probabilities[:30], labels[:30], probabilities[30:], method=method)

    def run(steps):
        with warnings.catch_warnings(), contextlib.redirect_stdout(sys.stderr):
            warnings.simplefilter("ignore")
            for step in steps:
                try:
                    step()
                except Exception as error:  # noqa: BLE001 - the notebooks that use the kernel report what is broken
                    print(f"nbserver warm-up: {step.__name__} failed: {error!r}", file=sys.stderr)

    # From an empty cache the steps compile for about 55 CPU seconds (35 s on two cores), so two halves compile at
    # once: the metrics' and then bbc's for PR AUC and multiclass AUC in a forked child that only fills the cache; the
    # prediction sets', bbc's pooled AUC and the BBCD drop rule's here (no kernel in both). Then this process loads the
    # child's kernels from the cache (a second at most) and compiles the rest (bbc over folds, the study's methods).
    # Not the subgroup search's: its notebook (08c) redefines the search's named tuples, and with the package's copies
    # compiled first numba's argument typing took the slow path on every call there (36 -> 78 s for that notebook).
    pid = os.fork() if hasattr(os, "fork") else None  # without fork (Windows): one half after the other
    if pid == 0:
        try:
            run([metrics, other_bootstraps])
        finally:
            os._exit(0)
    run([prediction_sets, pooled_auc, dropping])
    if pid is not None:
        os.waitpid(pid, 0)
    run([metrics, other_bootstraps, dropping, fold_bootstraps, study])


def child(job):
    "In the forked child: the job's output files and environment, the notebook run as tools/nbrun.py runs it; exits."
    code = 1
    try:
        os.setpgid(0, 0)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, path in ((1, job["stdout"]), (2, job["stderr"])):
            out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, fd)
            os.close(out)
        os.environ.clear()
        os.environ.update(job["env"])
        if "script" in job:
            code = run_script(job["script"], job.get("args", []))
        else:
            sys.argv = [str(ROOT / "tools" / "nbrun.py"), job["notebook"]]
            import nbrun
            code = 0 if nbrun.run(job["notebook"], job.get("flags", ()), job.get("save")) else 1
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        try:
            # what the interpreter's own exit runs, in its order: first the hooks registered with threading (loky and
            # concurrent.futures stop their workers there; without it a reusable loky pool's idle workers keep this
            # process waiting until their 300 s timeout), then atexit's (files flushed, processes joined)
            import atexit
            import threading
            threading._shutdown()
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def run_script(path, args):
    "`python path *args` as the interpreter runs a script (its folder first on sys.path, as `__main__`); its exit code."
    import types
    path = str(Path(path).resolve())
    sys.argv = [path, *args]
    sys.path.insert(0, str(Path(path).parent))
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    try:
        exec(compile(Path(path).read_bytes(), path, "exec"), main.__dict__)
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        print(stop.code, file=sys.stderr)
        return 1
    return 0


def answer(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def reap(running, block):
    "Report the children that have ended (wait for one when `block`)."
    while running:
        pid, status, usage = os.wait4(-1, 0 if block else os.WNOHANG)
        if pid == 0:
            return
        job_id = running.pop(pid, None)
        if job_id is not None:
            answer({"id": job_id, "rc": os.waitstatus_to_exitcode(status), "cpu": usage.ru_utime + usage.ru_stime})
        block = False


def serve(warm=True):
    preload()
    if warm:
        warm_up()
    answer({"ready": True})
    running, pending, closed = {}, b"", False
    while not closed:
        readable, _, _ = select.select([0], [], [], 0.05)
        if readable:
            chunk = os.read(0, 1 << 16)
            closed = not chunk
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                job = json.loads(line)
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    child(job)
                running[pid] = job["id"]
                answer({"id": job["id"], "pid": pid})
        reap(running, block=False)
    for pid in list(running):  # the client has gone: stop what it no longer waits for
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    while running:
        reap(running, block=True)


if __name__ == "__main__":
    if "--warm-up" in sys.argv[1:]:
        preload()
        warm_up()
    else:
        serve(warm="--no-warm-up" not in sys.argv[1:])
