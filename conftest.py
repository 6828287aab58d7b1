"""Collect every notebook under nbs/ as one pytest item, run in its own process the way nbdev_test runs it.

One process per notebook keeps notebooks isolated (numba caches, joblib/loky pools, dask clusters) and lets
pytest print its usual closing line, which CI reads. `--nb-flags slow` also runs the cells flagged `#| slow` and
sets `CIAUTO_SLOW=1` in the notebook's environment (tutorials gate their slow cells on it, so that
`jupyter nbconvert --execute` skips them by default).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent
EXECUTED = "_executed"  # git-ignored: the executed copies of the notebooks, for the documentation site
NOTEBOOK_TIMEOUT = int(os.environ.get("CIAUTO_NB_TIMEOUT", "1500"))


def pytest_addoption(parser):
    parser.addoption("--nb-flags", default="", help="space-separated nbdev test flags to run (e.g. 'slow')")


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
