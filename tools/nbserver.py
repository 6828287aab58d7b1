"""Run notebooks in processes forked from one that has imported their common modules once (a fork server).

    python tools/nbserver.py          # reads jobs on stdin, one JSON object per line; answers on stdout

A notebook's own process (`python tools/nbrun.py NB`) spends seconds of CPU importing numpy, pandas, scikit-learn,
matplotlib, numba, IPython, nbdev and the package before its first cell; the suite runs about fifty of them. This server
imports them once, then forks a child per notebook: the child starts with them imported, runs the notebook exactly as
tools/nbrun.py does (same function) and exits. Each child is a separate process, so nothing a notebook changes (a
registered metric, a patched class, the working folder, the environment) reaches another. The server itself calls no
numba kernel and starts no thread pool, so that forking it is safe.

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


def serve():
    preload()
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
    serve()
