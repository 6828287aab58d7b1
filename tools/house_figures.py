"""How readable the rooms are: the size of the exported cells and the complexity of the functions.

    python tools/house_figures.py            # the figures, and the largest cells and most complex functions
    python tools/house_figures.py --check    # exit 1 when a figure is above its goal
    python tools/house_figures.py --modules metrics _checks   # the figures of some modules, one line each

A cell is what stands between two `# %%` markers of a generated module `ciauto/*.py` (one exported notebook
cell), counted in lines with its trailing blank lines dropped (the marker line itself not counted). Complexity is
radon's cyclomatic complexity of every function and method (`pip install radon`; the figure is left out without
it). The goals are those of the fastcore/nbdev notebooks we model the rooms on.
"""
import argparse
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOALS = {"median": 12, "p90": 30, "max": 70, "complexity": 20}
GENERATED = ("_modidx.py",)  # nbdev's index, not a notebook's cells


def cells(path: Path):
    "(first line number, number of lines) of each exported cell of a generated module."
    out, start, body = [], None, []

    def close():
        while body and not body[-1].strip():
            body.pop()
        if start is not None and body:
            out.append((start, len(body)))

    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("# %%"):
            close()
            start, body = number, []
        elif start is not None:
            body.append(line)
    close()
    return out


def percentile(values, q):
    "The q-quantile by the inverted-cdf rule (an observed value)."
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * q) - 1)] if ordered else 0


def complexities(paths):
    "(complexity, 'module:function') for every function and method, or [] without radon."
    try:
        from radon.complexity import cc_visit
    except ImportError:
        return []
    found = []
    for path in paths:
        for block in cc_visit(path.read_text()):
            name = f"{block.classname}.{block.name}" if getattr(block, "classname", None) else block.name
            found.append((block.complexity, f"{path.stem}:{name}"))
            found.extend((m.complexity, f"{path.stem}:{block.name}.{m.name}") for m in getattr(block, "methods", []))
    return found


def figures(root: Path = ROOT, modules=None):
    "The figures over every generated module, or over `modules` (names such as 'metrics', '_checks')."
    paths = sorted(p for p in (root / "ciauto").glob("*.py") if p.name not in GENERATED
                   and (modules is None or p.stem in modules))
    sizes = [(n, f"{p.stem}:{line}") for p in paths for line, n in cells(p)]
    lengths = [n for n, _ in sizes]
    cc = complexities(paths)
    result = {"cells": len(lengths), "median": statistics.median(lengths), "p90": percentile(lengths, 0.9),
              "max": max(lengths), "largest": sorted(sizes, reverse=True)[:10]}
    if cc:
        result.update(complexity=max(c for c, _ in cc), most_complex=sorted(cc, reverse=True)[:10])
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a figure is above its goal")
    parser.add_argument("--modules", nargs="+", metavar="MODULE", help="one line of figures per module named")
    args = parser.parse_args(argv)
    if args.modules:
        for module in args.modules:
            f = figures(modules={module})
            worst = f"complexity {f['complexity']} ({f['most_complex'][0][1]})" if "complexity" in f else ""
            print(f"{module}: {f['cells']} cells, median {f['median']}, p90 {f['p90']}, max {f['max']} "
                  f"({f['largest'][0][1]}); {worst}")
        return 0
    f = figures()
    print(f"exported cells: {f['cells']}, lines per cell: median {f['median']}, p90 {f['p90']}, max {f['max']} "
          f"(goals {GOALS['median']} / {GOALS['p90']} / {GOALS['max']})")
    print("largest cells:", ", ".join(f"{where} ({n})" for n, where in f["largest"]))
    if "complexity" in f:
        print(f"highest complexity: {f['complexity']} (goal <= {GOALS['complexity']}):",
              ", ".join(f"{where} ({c})" for c, where in f["most_complex"]))
    else:
        print("complexity: not measured (pip install radon)")
    over = [k for k in GOALS if k in f and f[k] > GOALS[k]]
    if args.check and over:
        print("above the goal:", ", ".join(over))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
