"""Every benchmark script runs in its quick smoke mode, so a renamed import or a broken benchmark fails the test run.

The numbers themselves are not checked here (speed goals live in the benchmarks, never in timed tests); only that
each script runs to the end on what ships with the package and prints a ratio against its reference.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
TIMEOUT = int(os.environ.get("CIAUTO_BENCH_TIMEOUT", "600"))
CHECKED_APART = ("nested.py", "limits.py")  # each runs once, in its own test below, which also reads its tables
SCRIPTS = sorted(p for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_") and p.name not in CHECKED_APART)


def quick(script):
    """`bench/<script> --quick` as a background process (conftest.py): it runs beside the notebooks, not after them."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), MPLBACKEND="Agg")
    return pytest.mark.background([sys.executable, str(script), "--quick"], env, timeout=TIMEOUT)


def check_quick(script, result):
    "The quick run `result` (returncode, stdout, stderr) must end well and print a ratio. Returns its standard output."
    returncode, stdout, stderr = result
    assert returncode == 0, f"{script.name} --quick failed:\n{stdout[-3000:]}\n{stderr[-5000:]}"
    assert "ratio" in stdout.lower() or "×" in stdout, f"{script.name} printed no ratio:\n{stdout[-2000:]}"
    return stdout


@pytest.mark.parametrize("script", [pytest.param(p, id=p.stem, marks=quick(p)) for p in SCRIPTS])
def test_bench_quick(script, background):
    check_quick(script, background)


@quick(ROOT / "bench" / "nested.py")
def test_nested_quick_reports_costs_and_bias(background):
    "bench/nested.py --quick: CVT + BBC against nested CV on two datasets, with the bias table and the cost ratios."
    stdout = check_quick(ROOT / "bench" / "nested.py", background)
    for text in ("credit-g:", "breast-w:", "| CVT + BBC ", "| nested CV ", "spread (s.d. of error)",
                 "ratio nested CV / (CVT + BBC): fits 3.00×"):  # 3 outer folds × (3 × 3 + 1) vs 3 × 3 + 1 fits
        assert text in stdout, f"{text!r} missing from:\n{stdout[-3000:]}"


def test_bench_is_a_client_of_the_package():
    """The scripts import only public names of ciauto, edit no sys.path and time through bench/_timing.py alone."""
    import ast
    import importlib

    for path in sorted((ROOT / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) != ("sys", "path"), f"{path.name} edits sys.path"
                if path.name != "_timing.py":
                    assert node.attr not in ("perf_counter", "process_time", "monotonic"), \
                        f"{path.name} reads the clock {node.attr} itself instead of through bench/_timing.py"
                if node.attr.startswith("_") and not node.attr.startswith("__"):
                    module = getattr(importlib.import_module("ciauto"), node.value.id, None)
                    assert node.value.id not in ("C", "S", "ciauto") and module is None, \
                        f"{path.name} reads the private {node.value.id}.{node.attr}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert "timeit" not in names, f"{path.name} times with timeit instead of bench/_timing.py"
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ciauto"):
                assert not any(part.startswith("_") for part in node.module.split(".")), \
                    f"{path.name} imports the private module {node.module}"
                module = importlib.import_module(node.module)
                for alias in node.names:
                    public = alias.name in getattr(module, "__all__", ()) or hasattr(module, "__path__")
                    assert public, f"{path.name} imports {alias.name}, not in {node.module}.__all__"


@quick(ROOT / "bench" / "limits.py")
def test_limits_quick_reproduces_ciauto(background):
    "bench/limits.py --quick: every reference kernel reproduces ciauto's numbers before it is timed against it."
    stdout = check_quick(ROOT / "bench" / "limits.py", background)
    for text in ("| roc_auc | 300 | 4 |", "| pr_auc |", "| average_precision |", "| balanced_accuracy |", "| r2 |",
                 "identical sets", "same float", "peak extra memory"):
        assert text in stdout, f"{text!r} missing from:\n{stdout[-3000:]}"
    assert stdout.count("| bitwise |") == 5 and stdout.count("| ≤ 1e-12 |") == 2, stdout[-3000:]
