"""Write the student version of the course: the lessons of nbs/course/ with every `#| solution` cell removed.

    python tools/student_version.py                 # -> dist/course-student/
    python tools/student_version.py --out handout/  # any folder outside nbs/

An exercise in a lesson is three code cells in this order: the student's cell (first line `#| exercise`, holding a
placeholder such as `answer = ...`), the worked solution (first line `#| solution`, assigning the same names) and a
check cell calling a function of `ciauto._course`. The student version keeps the first and the third, drops the
second, and clears every output (a solution's printed numbers would give it away). The notebook that exports the
checking functions (`#| default_exp`) is not part of the hand-out: students import the checks from the installed
package. The teacher's version is nbs/course/ itself.
"""
import argparse
import copy
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "nbs" / "course"
DEFAULT_OUT = ROOT / "dist" / "course-student"


def directives(cell) -> set:
    "The nbdev directives (`#| name ...`) at the top of a code cell, by name."
    if cell.get("cell_type") != "code":
        return set()
    found = set()
    for line in _source(cell).splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#|"):
            break
        words = stripped[2:].split()
        if words:
            found.add(words[0].rstrip(":"))
    return found


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def is_module_notebook(nb) -> bool:
    "True for the notebook that exports the checking functions (it has a `#| default_exp` cell)."
    return any("default_exp" in directives(c) for c in nb["cells"])


def exercises(nb, name="notebook", *, student=False) -> list:
    """The exercises of a lesson as (exercise, solution, check) cell-index triples (solution None in a student
    version, `student=True`); `ValueError` when an exercise or solution cell is out of place."""
    cells = nb["cells"]
    step = 1 if student else 2
    triples = []
    for i, cell in enumerate(cells):
        flags = directives(cell)
        if "exercise" in flags:
            if not student and (i + 1 >= len(cells) or "solution" not in directives(cells[i + 1])):
                raise ValueError(f"{name}: the `#| exercise` cell {i} must be followed by its `#| solution` cell")
            check = i + step
            if check >= len(cells) or cells[check]["cell_type"] != "code" or directives(cells[check]) & {
                    "exercise", "solution"}:
                raise ValueError(f"{name}: the exercise in cell {i} has no check cell after its "
                                 f"{'placeholder' if student else 'solution'}")
            triples.append((i, None if student else i + 1, check))
        elif "solution" in flags and (student or i == 0 or "exercise" not in directives(cells[i - 1])):
            raise ValueError(f"{name}: the `#| solution` cell {i} does not follow an `#| exercise` cell")
    return triples


def student_notebook(nb, name="notebook") -> dict:
    "A copy of `nb` without its `#| solution` cells and without outputs."
    exercises(nb, name)  # refuse a malformed lesson rather than hand it out
    out = copy.deepcopy(nb)
    out["cells"] = [c for c in out["cells"] if "solution" not in directives(c)]
    for cell in out["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return out


def write_student_version(src=COURSE, out=DEFAULT_OUT) -> list:
    "Write the student version of every lesson in `src` into `out`; returns the paths written."
    src, out = Path(src).resolve(), Path(out).resolve()
    if not src.is_dir():
        raise ValueError(f"--src {src}: no such folder (the teacher's course folder, holding the lessons)")
    if out == src or src in out.parents:
        raise ValueError(f"out must be outside the course folder {src}, got {out}")
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out}: is a file; give a folder (created when missing)")
    lessons = []  # every lesson read and checked before anything is written: no half-written hand-out
    for path in sorted(src.glob("*.ipynb")):
        try:
            nb = json.loads(path.read_text())
            cells = nb["cells"]
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{path.name}: not a readable notebook ({type(error).__name__}: "
                             f"{str(error).splitlines()[0][:120]})") from None
        if not isinstance(cells, list):
            raise ValueError(f"{path.name}: not a readable notebook (its 'cells' is not a list)")
        if not is_module_notebook(nb):
            lessons.append((path, student_notebook(nb, path.name)))
    if not lessons:
        raise ValueError(f"--src {src}: no lesson notebooks (*.ipynb) in it")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path, student in lessons:
        target = out / path.name
        target.write_text(json.dumps(student, indent=1, ensure_ascii=False) + "\n")
        written.append(target)
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", default=str(COURSE), help="the teacher's course folder (default: nbs/course)")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where to write the student version "
                        "(default: dist/course-student)")
    args = parser.parse_args(argv)
    try:
        written = write_student_version(args.src, args.out)
    except ValueError as e:
        print(f"student_version: {e}", file=sys.stderr)
        return 1
    n = sum(len(exercises(json.loads(p.read_text()), p.name, student=True)) for p in written)
    print(f"wrote {len(written)} notebooks with {n} exercises (solutions removed) to {Path(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
