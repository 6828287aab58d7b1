"""Run one notebook the way `nbdev_test` runs it and, if it passes, save the executed copy (with its outputs).

    python tools/nbrun.py nbs/03_bbc.ipynb [--flags "slow"] [--save _executed/03_bbc.ipynb]

The test run (conftest.py) calls this once per notebook and saves each executed copy under `_executed/`; the
documentation build (tools/build_docs.py) shows those outputs on the library notebooks' pages, which are committed
without outputs, and runs this itself for a notebook whose copy is missing or older than its source. A copy
records the sha256 of the notebook it was made from (`metadata.ciauto.source_sha256`), so a stale copy is never
shown. Exits 1 (traceback on stderr) when a cell fails; nothing is saved then.
"""
import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def source_sha256(path):
    "The sha256 of the notebook file `path`: what an executed copy records to show it is current."
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def run(path, flags=(), save=None):
    "Execute notebook `path` as nbdev_test does (skipping cells flagged with settings.ini's tst_flags but `flags`)."
    from execnb.nbio import write_nb
    from execnb.shell import CaptureShell
    from fastcore.basics import str2bool
    from nbdev.config import get_config
    from nbdev.process import NBProcessor, nb_lang
    from nbdev.processors import FrontmatterProc

    path = Path(path).resolve()
    sha = source_sha256(path)  # of the notebook as read now: an edit made while it runs makes the copy stale
    cfg = get_config(path=ROOT)
    sys.path.insert(0, str(cfg.config_path))
    os.environ["IN_TEST"] = "1"
    skip = set(cfg.tst_flags.split()) - set(flags)
    nb = NBProcessor(path, procs=FrontmatterProc, process=True).nb
    fm = getattr(nb, "frontmatter_", {})
    if str2bool(fm.get("skip_exec", False)) or nb_lang(nb) != "python":
        return True

    def _no_eval(cell):  # nbdev.test.test_nb's rule
        if cell.cell_type != "code":
            return True
        if "nbdev_export" + "(" in cell.source:
            return True
        direc = getattr(cell, "directives_", {}) or {}
        if direc.get("eval:", [""])[0].lower() == "false":
            return True
        return skip & direc.keys()

    save = Path(save).resolve() if save else None
    shell = CaptureShell(path)
    os.chdir(path.parent)
    try:
        shell.run_all(nb, exc_stop=True, preproc=_no_eval)
    except Exception:
        sys.stderr.write(shell.prettytb(fname=path) + "\n")
        return False
    if save:
        save.parent.mkdir(parents=True, exist_ok=True)
        nb.metadata["ciauto"] = {"source_sha256": sha, "executed": time.strftime("%Y-%m-%dT%H:%M:%S")}
        tmp = save.with_suffix(".tmp")
        write_nb(nb, tmp)
        tmp.replace(save)
    return True


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook")
    parser.add_argument("--flags", default="", help="space-separated nbdev test flags to run too (e.g. 'slow')")
    parser.add_argument("--save", default=None, help="where to write the executed copy")
    args = parser.parse_args()
    sys.exit(0 if run(args.notebook, args.flags.split(), args.save) else 1)
