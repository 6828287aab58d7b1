"""How fast the `ciauto` command answers when there is no work: `--help`, `--version`, `SUB --help`.

Each case is a fresh Python process (what a person typing the command waits for), timed against the reference
`python -c "import numpy"` measured in the same run, interleaved so that machine load hits both alike. Also timed:
importing the heavy stack the subcommands use (what `--help` cost when the CLI imported it at the top), and one
small `ciauto estimate` run, to show how the cost grows once there is work.

Run from the repo root: `python bench/cli.py` (15 rounds) or `python bench/cli.py --quick` (3 rounds of the help
cases only).
Prints the median seconds of each case and its ratio to `import numpy`.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[1]
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), MPLBACKEND="Agg")
CLI = "import sys; from ciauto.cli import main; sys.exit(main(sys.argv[1:]))"
CASES = {  # name -> command (each in a fresh interpreter)
    "python -c 'import numpy' (reference)": [sys.executable, "-c", "import numpy"],
    "python -c 'pass' (interpreter start)": [sys.executable, "-c", "pass"],
    "ciauto --help": [sys.executable, "-c", CLI, "--help"],
    "ciauto --version": [sys.executable, "-c", CLI, "--version"],
    "ciauto estimate --help": [sys.executable, "-c", CLI, "estimate", "--help"],
    "ciauto subgroups --help": [sys.executable, "-c", CLI, "subgroups", "--help"],
}
HEAVY = {  # not in --quick: seconds each
    "import of the subcommands' stack": [sys.executable, "-c",
                                         "import ciauto.cvt, ciauto.bbc, ciauto.conformal, ciauto.subgroups"],
}


def _run(command) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=ENV, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 rounds, without the heavy import and the estimate run")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds of every case (default 15)")
    args = parser.parse_args(argv)
    rounds = 3 if args.quick else args.rounds
    cases = dict(CASES)
    if not args.quick:  # work: 6 configurations x 3 folds on 200 rows of credit-g, 200 bootstraps
        cases.update(HEAVY)
        cases["ciauto estimate (200 rows, 3 folds, B=200)"] = [
            sys.executable, "-c", "import sys, tempfile; from ciauto.datasets import load_dataset; "
            "from ciauto.cli import main; X, y = load_dataset('credit-g'); p = tempfile.mktemp(suffix='.csv'); "
            "X.assign(label=y).sample(200, random_state=0).to_csv(p, index=False); "
            "sys.exit(main(['estimate', '--data', p, '--folds', '3', '--bootstraps', '200', '--jobs', '1', '--quiet']))"]
    for command in cases.values():  # warm the file-system cache and numba's on-disk cache
        _run(command)
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, command in cases.items():  # interleaved: load affects every case alike
            times[name].append(_run(command))
    reference = statistics.median(times["python -c 'import numpy' (reference)"])
    print(f"{'case':<46}{'median s':>10}{'ratio to import numpy':>24}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:<46}{median:>10.3f}{median / reference:>23.2f}x")
    help_ratio = statistics.median(times["ciauto --help"]) / reference
    print(f"\nratio ciauto --help / import numpy: {help_ratio:.2f} (goal: <= about 3) over {rounds} rounds")


if __name__ == "__main__":
    main()
