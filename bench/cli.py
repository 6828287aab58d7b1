"""How fast the `ciauto` command answers: without work (`--help`, `--version`, `SUB --help`, a missing file) and
with the work of issue 26, `ciauto bbc --predictions` on a 500 × 50 table of out-of-fold predictions.

Each case is a fresh Python process (what a person typing the command waits for), timed against the reference
`python -c "import numpy"` measured in the same run, interleaved round by round so that machine load hits every case
alike. Beside the full `ciauto bbc` call: the floor of any path that reads a table and bootstraps with numba (python,
numpy, pandas, numba and `ciauto.bbc`, with `bbc` called on the arrays, no adapters), so the distance to the floor is
visible. `--before REF` also times the same `ciauto bbc` call on another git revision of the package (extracted with
`git archive` into a temporary folder): before and after in one run. `--imports` prints, from one
`python -X importtime` run of the bbc path, which ciauto module line pulls in scikit-learn, scipy, pandas and numba,
with the milliseconds each costs.

Run from the repo root: `python bench/cli.py --before main --imports` (15 rounds), or `--quick` (one round of the
help cases and one small bbc call, unwarmed; what the test suite runs). Prints the median seconds of each case and
its ratio to `import numpy`.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import timed

ROOT = Path(__file__).parents[1]
CLI = "import sys; from ciauto.cli import main; sys.exit(main(sys.argv[1:]))"
REFERENCE = "python -c 'import numpy' (reference)"
HELP_CASES = {  # name -> arguments of `python` (each in a fresh interpreter)
    REFERENCE: ["-c", "import numpy"],
    "python -c 'pass' (interpreter start)": ["-c", "pass"],
    "ciauto --help": ["-c", CLI, "--help"],
    "ciauto --version": ["-c", CLI, "--version"],
    "ciauto estimate --help": ["-c", CLI, "estimate", "--help"],
    "ciauto subgroups --help": ["-c", CLI, "subgroups", "--help"],
}
FLOOR = """import sys
import numpy as np, pandas as pd
from ciauto.bbc import bbc
frame = pd.read_csv(sys.argv[1])
P = frame.drop(columns=["y", "fold"]).to_numpy(np.float64)
for method in ("pooled", "folds"):
    bbc(P, frame["y"].to_numpy(), frame["fold"].to_numpy(), method=method, n_bootstraps=int(sys.argv[2]), random_state=0)
"""


def write_table(path: Path, n: int = 500, c: int = 50, seed: int = 0) -> Path:
    "A wide out-of-fold table: label y (0/1), 5 folds, c configurations of varying skill."
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    P = y[:, None] * rng.uniform(0.2, 1.0, c) + rng.normal(size=(n, c))
    frame = pd.DataFrame(P.round(6), columns=[f"model_{j}" for j in range(c)])
    frame.insert(0, "fold", np.arange(n) % 5)
    frame.insert(0, "y", y)
    frame.to_csv(path, index=False)
    return path


def extract(ref: str, into: Path) -> Path:
    "The `ciauto` package of git revision `ref`, extracted into `into` (a folder to put on PYTHONPATH)."
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", ref, "ciauto"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def environment(root: Path) -> dict:
    return dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""), MPLBACKEND="Agg")


def _run(arguments, env) -> float:
    # -P: `python -c` would otherwise put the working directory (the checkout) before PYTHONPATH, and the
    # "before" case would time this checkout's package instead of the extracted revision.
    return timed(subprocess.run, [sys.executable, "-P", *arguments], env=env, cwd=ROOT, check=False,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)[1].wall


def import_chains(table: Path, env: dict, targets=("sklearn", "scipy", "pandas", "numba")) -> list:
    """From one `python -X importtime` run of `ciauto bbc`: for each target package, the chain of modules from the
    ciauto module that first imports it down to it, with the cumulative milliseconds of each link."""
    done = subprocess.run([sys.executable, "-P", "-X", "importtime", "-c", CLI, "bbc", "--predictions", str(table),
                           "--bootstraps", "100", "--quiet"], env=env, cwd=ROOT, capture_output=True, text=True)
    rows = []  # (depth, name, cumulative µs) in importtime's order: children before their parent
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        rows.append(((len(name) - len(name.lstrip())) // 2, name.strip(), int(cumulative)))
    lines = []
    for target in targets:
        first = next((i for i, (_, name, _) in enumerate(rows) if name == target), None)
        if first is None:
            lines.append(f"{target}: not imported")
            continue
        chain, depth = [rows[first]], rows[first][0]
        for d, name, cumulative in rows[first + 1:]:  # the parent: the next row one level up
            if d == depth - 1:
                chain.append((d, name, cumulative))
                depth = d
        chain.reverse()
        lines.append(" -> ".join(f"{name} ({cumulative / 1000:.0f} ms)" for _, name, cumulative in chain))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one round of the help cases and a small bbc call")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds of every case (default 15)")
    parser.add_argument("--before", metavar="REF", help="also time `ciauto bbc` on this git revision (e.g. main)")
    parser.add_argument("--imports", action="store_true", help="print which imports the bbc path pays for")
    parser.add_argument("--bootstraps", type=int, default=1000, help="B of the bbc cases (default 1000)")
    args = parser.parse_args(argv)
    rounds = 1 if args.quick else args.rounds
    work = Path(tempfile.mkdtemp(prefix="ciauto-bench-cli-"))
    table = write_table(work / "oof.csv", *((100, 10) if args.quick else (500, 50)))
    shape = "100 x 10" if args.quick else "500 x 50"
    boots = "100" if args.quick else str(args.bootstraps)
    bbc_call = ["-c", CLI, "bbc", "--predictions", str(table), "--bootstraps", boots, "--quiet"]
    after = environment(ROOT)
    cases = {name: (arguments, after) for name, arguments in HELP_CASES.items()}
    cases[f"ciauto bbc, {shape}, B={boots}"] = (bbc_call, after)
    if not args.quick:
        cases["ciauto bbc --predictions missing.csv"] = (["-c", CLI, "bbc", "--predictions", str(work / "none.csv")],
                                                         after)
        cases["floor: import numpy, pandas, numba"] = (["-c", "import numpy, pandas, numba"], after)
        cases["import ciauto.cvt (scikit-learn, joblib, ...)"] = (["-c", "import ciauto.cvt"], after)
        cases[f"floor: read + ciauto.bbc on arrays, B={boots}"] = (["-c", FLOOR, str(table), boots], after)
    if args.before:
        old = extract(args.before, work / "before")
        cases[f"before ({args.before}): ciauto bbc, {shape}, B={boots}"] = (bbc_call, environment(old))
    for arguments, env in ([] if args.quick else cases.values()):  # warm the file-system cache and numba's disk cache
        _run(arguments, env)
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, (arguments, env) in cases.items():  # interleaved: load affects every case alike
            times[name].append(_run(arguments, env))
    reference = statistics.median(times[REFERENCE])
    print(f"{'case':<58}{'median s':>10}{'ratio to import numpy':>24}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<58}{median:>10.3f}{median / reference:>23.2f}x")
    help_ratio = statistics.median(times["ciauto --help"]) / reference
    print(f"\nratio ciauto --help / import numpy: {help_ratio:.2f} (goal: <= about 3) over {rounds} rounds")
    if args.before:
        now = statistics.median(times[f"ciauto bbc, {shape}, B={boots}"])
        then = statistics.median(times[f"before ({args.before}): ciauto bbc, {shape}, B={boots}"])
        print(f"ratio ciauto bbc after / before ({args.before}): {now / then:.2f} ({now:.3f} s vs {then:.3f} s)")
    if args.imports:
        print("\nwho imports what on the bbc path (cumulative ms, one -X importtime run):")
        for line in import_chains(table, after):
            print("  " + line)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nload average at the end: {load:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
