"""Collect every notebook under nbs/ as one pytest item, run in its own process the way nbdev_test runs it.

One process per notebook keeps notebooks isolated (numba caches, joblib/loky pools, dask clusters) and lets
pytest print its usual closing line, which CI reads. `--nb-flags slow` also runs the cells flagged `#| slow` and
sets `CIAUTO_SLOW=1` in the notebook's environment (tutorials gate their slow cells on it, so that
`jupyter nbconvert --execute` skips them by default).

The notebooks' processes start as soon as collection ends, two at a time on a machine with two cores or more
(`CIAUTO_NB_WORKERS` sets another number; 1 runs them one after another), and pytest reports them in order as each
finishes: the suite's wall time is about halved on the CI machine, and the tests under tests/, which read the notebooks'
executed copies, still start after the last notebook has finished.

`--cpu-durations` lists each test's wall and CPU seconds at the end (before pytest's closing line). On a machine shared
with other work the wall seconds grow with the load, the CPU seconds much less (multi-threaded BLAS and OpenMP still
spin longer), so they are the profile to compare there; a test that keeps both cores busy uses up to twice as many CPU
seconds as wall seconds.
"""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent
EXECUTED = "_executed"  # git-ignored: the executed copies of the notebooks, for the documentation site
NOTEBOOK_TIMEOUT = int(os.environ.get("CIAUTO_NB_TIMEOUT", "1500"))


def pytest_addoption(parser):
    parser.addoption("--nb-flags", default="", help="space-separated nbdev test flags to run (e.g. 'slow')")
    parser.addoption("--cpu-durations", action="store_true",
                     help="list every test's CPU seconds (its processes' and pytest's own) beside its wall seconds")


def _cpu_seconds():
    "CPU seconds used so far by this process and by its finished child processes (user + system)."
    import resource  # Unix only: imported here so that the suite runs without it when the option is not given
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


_CPU = {}  # {test id: (wall seconds, CPU seconds)}, with --cpu-durations


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    "Time each test by the clock and by CPU use (with --cpu-durations)."
    timed = item.config.getoption("--cpu-durations")
    wall, cpu = (time.perf_counter(), _cpu_seconds()) if timed else (None, None)
    yield
    if timed:
        _CPU[item.nodeid] = (time.perf_counter() - wall, _cpu_seconds() - cpu)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _CPU:
        return
    tr = terminalreporter
    tr.write_sep("=", "wall and CPU seconds per test (setup + call + teardown)")
    for nodeid, (wall, cpu) in sorted(_CPU.items(), key=lambda kv: -kv[1][1]):
        tr.write_line(f"{wall:8.1f} s wall {cpu:8.1f} s CPU  {nodeid}")
    tr.write_line(f"{sum(w for w, _ in _CPU.values()):8.1f} s wall {sum(c for _, c in _CPU.values()):8.1f} s CPU  "
                  f"in all ({len(_CPU)} tests)")


def _skipped(path):
    parts = path.relative_to(ROOT).parts
    if any(p.startswith(("_", ".")) for p in parts):
        return True
    return any((parent / ".notest").exists() for parent in path.parents)


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".ipynb" and file_path.is_relative_to(ROOT / "nbs") and not _skipped(file_path):
        return NotebookFile.from_parent(parent, path=file_path)


class NotebookFile(pytest.File):
    def collect(self):
        yield NotebookItem.from_parent(self, name=self.path.stem)


def _notebook_workers(config):
    """How many notebooks run at once: CIAUTO_NB_WORKERS, or one per core up to two (the CI machine has two); one with
    --cpu-durations, whose per-test CPU seconds need the tests to run one after another."""
    if config.getoption("--cpu-durations"):
        return 1
    return max(1, int(os.environ.get("CIAUTO_NB_WORKERS", min(2, os.cpu_count() or 1))))


class _NotebookRunner:
    """Runs the selected notebooks' processes ahead of pytest, a few at a time, so both cores work while pytest reports
    the items in order: each item waits for its own process. Once the last notebook item is reported every notebook has
    finished, so tests/ (the site build shows the executed copies) still run after all of them."""

    def __init__(self, workers):
        from concurrent.futures import ThreadPoolExecutor
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="notebook")
        self.futures, self.procs, self.closed = {}, set(), False

    def submit(self, item):
        self.futures[item.nodeid] = self.pool.submit(self._run, item.command())

    def result(self, item):
        future = self.futures.get(item.nodeid)
        return future.result() if future is not None else self._run(item.command())

    def _run(self, command):
        cmd, env = command
        if self.closed:
            return None, "the test session ended before this notebook ran"
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.add(proc)
        try:
            out, err = proc.communicate(timeout=NOTEBOOK_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return None, f"notebook did not finish within {NOTEBOOK_TIMEOUT} s"
        finally:
            self.procs.discard(proc)
        return proc.returncode, (out[-4000:] + "\n" + err[-8000:]).strip()

    def close(self):
        "Stop what is still queued or running (after -x, or an interrupt)."
        self.closed = True
        for proc in list(self.procs):
            proc.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


def pytest_collection_finish(session):
    notebooks = [item for item in session.items if isinstance(item, NotebookItem)]
    if notebooks and not session.config.option.collectonly:
        session.config._notebook_runner = runner = _NotebookRunner(_notebook_workers(session.config))
        for item in notebooks:
            runner.submit(item)


def pytest_sessionfinish(session, exitstatus):
    runner = getattr(session.config, "_notebook_runner", None)
    if runner is not None:
        runner.close()


class NotebookItem(pytest.Item):
    def command(self):
        "The notebook's process: tools/nbrun.py runs it as nbdev_test does and saves the executed copy."
        flags = self.config.getoption("--nb-flags").split()
        # the documentation build (tests/test_docs.py, tools/docs.sh) shows the saved copy on the notebook's page
        # instead of executing it a second time
        saved = ROOT / EXECUTED / self.path.relative_to(ROOT / "nbs")
        cmd = [sys.executable, str(ROOT / "tools" / "nbrun.py"), str(self.path), "--flags", " ".join(flags),
               "--save", str(saved)]
        env = dict(os.environ, IN_TEST="1", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        if "slow" in flags:  # tutorials gate their paper-scale cells on this too (`RUN_SLOW`)
            env["CIAUTO_SLOW"] = "1"
        return cmd, env

    def runtest(self):
        runner = getattr(self.config, "_notebook_runner", None)
        if runner is None:  # collected without the session's start (e.g. run by a plugin): one at a time
            runner = self.config._notebook_runner = _NotebookRunner(1)
        returncode, output = runner.result(self)
        if returncode != 0:
            raise NotebookFailure(output)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, NotebookFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"notebook {self.path.relative_to(ROOT)}"


class NotebookFailure(Exception):
    pass
