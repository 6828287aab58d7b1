"""The package must be the export of the notebooks, the notebooks must be clean, the README must be current.

Each test snapshots the files, runs the generator and compares, so it works on a clean clone (CI) and on a work
tree with uncommitted edits alike. A failing test leaves the regenerated files in place: review and commit them.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _snapshot(folder, pattern):
    return {p: p.read_bytes() for p in sorted((ROOT / folder).rglob(pattern)) if "__pycache__" not in p.parts}


def _changes(before, after):
    return sorted(str(p.relative_to(ROOT)) for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def test_export_matches_notebooks():
    before = _snapshot("ciauto", "*.py")
    subprocess.run(["nbdev_export"], cwd=ROOT, check=True)
    drift = _changes(before, _snapshot("ciauto", "*.py"))
    assert not drift, f"ciauto/ is not the export of nbs/ (edit the notebooks, then run nbdev_export): {drift}"


def test_notebooks_are_clean():
    before = _snapshot("nbs", "*.ipynb")
    subprocess.run(["nbdev_clean"], cwd=ROOT, check=True)
    drift = _changes(before, _snapshot("nbs", "*.ipynb"))
    assert not drift, f"notebooks were not nbdev_clean'ed: {drift}"


def test_readme_is_up_to_date():
    result = subprocess.run([sys.executable, "tools/make_readme.py", "--check"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr
