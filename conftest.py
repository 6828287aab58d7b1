"""Collect every notebook under nbs/ as one pytest item, run in its own process the way nbdev_test runs it.

One process per notebook keeps notebooks isolated (numba caches, joblib/loky pools, dask clusters) and lets
pytest print its usual closing line, which CI reads. `--nb-flags slow` also runs the cells flagged `#| slow` and
sets `CIAUTO_SLOW=1` in the notebook's environment (tutorials gate their slow cells on it, so that
`jupyter nbconvert --execute` skips them by default).

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


class NotebookItem(pytest.Item):
    def runtest(self):
        flags = self.config.getoption("--nb-flags").split()
        # tools/nbrun.py runs it as nbdev_test does and saves the executed copy, which the documentation build
        # (tests/test_docs.py, tools/docs.sh) shows on the notebook's page instead of executing it a second time
        saved = ROOT / EXECUTED / self.path.relative_to(ROOT / "nbs")
        cmd = [sys.executable, str(ROOT / "tools" / "nbrun.py"), str(self.path), "--flags", " ".join(flags),
               "--save", str(saved)]
        env = dict(os.environ, IN_TEST="1", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        if "slow" in flags:  # tutorials gate their paper-scale cells on this too (`RUN_SLOW`)
            env["CIAUTO_SLOW"] = "1"
        try:
            proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=NOTEBOOK_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise NotebookFailure(f"notebook did not finish within {NOTEBOOK_TIMEOUT} s") from e
        if proc.returncode != 0:
            raise NotebookFailure((proc.stdout[-4000:] + "\n" + proc.stderr[-8000:]).strip())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, NotebookFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"notebook {self.path.relative_to(ROOT)}"


class NotebookFailure(Exception):
    pass
