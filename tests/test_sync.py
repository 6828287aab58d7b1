"""The exported package and the notebooks must be committed together, and notebooks must be clean."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
needs_git = pytest.mark.skipif(not (ROOT / ".git").exists() or shutil.which("git") is None,
                               reason="not a git checkout")


def _changed(path):
    out = subprocess.run(["git", "status", "--porcelain", "--", path], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return out.strip()


@needs_git
def test_export_matches_notebooks():
    subprocess.run(["nbdev_export"], cwd=ROOT, check=True)
    drift = _changed("ciauto")
    assert not drift, f"ciauto/ differs from the export of nbs/ (edit the notebooks, then nbdev_export):\n{drift}"


@needs_git
def test_notebooks_are_clean():
    subprocess.run(["nbdev_clean"], cwd=ROOT, check=True)
    drift = _changed("nbs")
    assert not drift, f"notebooks are not nbdev_clean'ed:\n{drift}"


@needs_git
def test_readme_is_up_to_date():
    before = (ROOT / "README.md").read_text()
    subprocess.run(["python", "tools/make_readme.py", "--check"], cwd=ROOT, check=True)
    assert (ROOT / "README.md").read_text() == before
