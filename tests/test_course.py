"""The course in nbs/course/: its shape, and the student version's checks catching the placeholders.

The lessons themselves run (with their solutions) in the notebook test run, which proves the solutions right. Here
the student version is built with tools/student_version.py and every exercise is tried as a student who has not
answered yet would: the `#| exercise` cell runs, then its check cell, and the check must raise
`ciauto._course.ExerciseError` naming the placeholder. The lessons are not executed a second time: the check cell
runs in a namespace where the lesson's own names (its data, its model) are stand-ins, and a static pass proves that
every name a check cell reads is defined somewhere in the student version, so no check can fail with a NameError
once a solution is gone. One lesson (the first) is also worked through for real, top to bottom, as a student would.
"""
import ast
import builtins
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ciauto import _course

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "nbs" / "course"

spec = importlib.util.spec_from_file_location("student_version", ROOT / "tools" / "student_version.py")
sv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sv)


def _load(path):
    return json.loads(Path(path).read_text())


def _source(cell):
    return sv._source(cell)


def _lessons():
    return [p for p in sorted(COURSE.glob("*.ipynb")) if not sv.is_module_notebook(_load(p)) and p.stem != "index"]


LESSONS = _lessons()


def test_course_shape():
    assert len(LESSONS) >= 6, [p.name for p in LESSONS]
    assert (COURSE / "index.ipynb").exists()
    index = "".join(_source(c) for c in _load(COURSE / "index.ipynb")["cells"])
    for path in LESSONS:
        nb = _load(path)
        first = _source(nb["cells"][0])
        assert nb["cells"][0]["cell_type"] == "markdown" and first.startswith("# "), f"{path.name}: no `# Title` cell"
        assert len(sv.exercises(nb, path.name)) >= 2, f"{path.name}: fewer than two exercises"
        text = "".join(_source(c) for c in nb["cells"] if c["cell_type"] == "markdown").lower()
        assert "learning goals" in text and "## summary" in text, f"{path.name}: goals or summary missing"
        assert path.stem in index, f"the index does not link {path.name}"


def _bound_names(tree):
    "Every name a piece of code binds at its top level or anywhere (assignments, defs, imports, loop targets)."
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _loaded_names(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _parse(cell):
    lines = [l for l in _source(cell).splitlines() if not l.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("course-student")
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "student_version.py"), "--out", str(out)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return out


def test_student_version_has_no_solutions(student):
    written = sorted(p.name for p in student.glob("*.ipynb"))
    assert written == sorted([p.name for p in LESSONS] + ["index.ipynb"])
    for path in LESSONS:
        teacher, handout = _load(path), _load(student / path.name)
        assert not any("solution" in sv.directives(c) for c in handout["cells"])
        assert not any(c.get("outputs") for c in handout["cells"] if c["cell_type"] == "code")
        assert len(sv.exercises(handout, path.name, student=True)) == len(sv.exercises(teacher, path.name))
        # the solution cells were the only cells removed
        kept = [_source(c) for c in teacher["cells"] if "solution" not in sv.directives(c)]
        assert kept == [_source(c) for c in handout["cells"]]


def test_solutions_assign_what_the_exercise_names():
    "A solution binds every name its exercise cell holds a placeholder for (its helpers are checked below)."
    for path in LESSONS:
        nb = _load(path)
        for ex, sol, check in sv.exercises(nb, path.name):
            placeholder = _top_level(nb["cells"][ex])
            solution = _top_level(nb["cells"][sol])
            assert placeholder and placeholder <= solution, \
                f"{path.name} cell {sol}: the solution does not define {placeholder - solution}"


def _top_level(cell):
    tree = _parse(cell)
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def test_no_cell_reads_a_name_only_a_solution_defines(student):
    """No cell of the student version can hit a NameError: every name a cell reads is bound by some cell of the
    student version (a solution's helper variables are never needed later)."""
    for path in LESSONS:
        handout = _load(student / path.name)
        defined = set(dir(builtins)) | {"display", "get_ipython"}
        for cell in handout["cells"]:
            if cell["cell_type"] == "code":
                defined |= _bound_names(_parse(cell))
        for i, cell in enumerate(handout["cells"]):
            if cell["cell_type"] == "code":
                missing = _loaded_names(_parse(cell)) - defined
                assert not missing, f"{path.name} cell {i} reads {missing}, which only a solution defines"


class _StandIn:
    "A lesson name the check receives but must not touch before it has refused the placeholder."

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"<lesson's {self._name}>"


class _Namespace(dict):
    "Exec locals: the checking module's names, builtins, and a stand-in for every name the lesson's setup defines."

    def __missing__(self, key):
        if hasattr(builtins, key):
            raise KeyError(key)
        if hasattr(_course, key):
            return getattr(_course, key)
        return _StandIn(key)


def _exercise_cases():
    cases = []
    for path in LESSONS:
        nb = _load(path)
        for ex, _, check in sv.exercises(nb, path.name):
            cases.append(pytest.param(path.name, ex, check, id=f"{path.stem}-cell{ex}"))
    return cases


@pytest.mark.parametrize("lesson,ex,check", _exercise_cases())
def test_every_check_catches_the_placeholder(student, lesson, ex, check):
    handout = _load(student / lesson)
    pairs = {e: c for e, _, c in sv.exercises(handout, lesson, student=True)}
    teacher = _load(COURSE / lesson)
    # the same exercise in the student version: find it by its source
    ex_src = _source(teacher["cells"][ex])
    i = next(i for i, c in enumerate(handout["cells"]) if _source(c) == ex_src)
    namespace = _Namespace()
    globals_ = {"__builtins__": builtins, "__name__": "__main__"}
    exec(compile(_source(handout["cells"][i]), f"{lesson}:exercise", "exec"), globals_, namespace)
    with pytest.raises(_course.ExerciseError, match="placeholder") as info:
        exec(compile(_source(handout["cells"][pairs[i]]), f"{lesson}:check", "exec"), globals_, namespace)
    assert len(str(info.value)) > 40  # a sentence that says what to write, not a bare flag


WALK = r'''
import json, sys
import matplotlib
matplotlib.use("Agg")
from IPython.core.interactiveshell import InteractiveShell
from ciauto._course import ExerciseError

student, teacher = (json.load(open(p)) for p in sys.argv[1:3])
code = lambda nb: ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
teacher_cells = code(teacher)
shell = InteractiveShell.instance()
caught = passed = 0
cells = code(student)
for i, src in enumerate(cells):
    result = shell.run_cell(src, silent=True)
    error = result.error_in_exec
    if i and cells[i - 1].lstrip().startswith("#| exercise"):
        # a check cell: with the placeholder it must raise its ExerciseError ...
        assert isinstance(error, ExerciseError) and "placeholder" in str(error), (src, error)
        caught += 1
        # ... and pass once the teacher's solution (the cell after the same exercise) has run
        solution = teacher_cells[teacher_cells.index(cells[i - 1]) + 1]
        assert solution.lstrip().startswith("#| solution")
        shell.run_cell(solution, silent=True)
        again = shell.run_cell(src, silent=True)
        assert again.error_in_exec is None, (src, again.error_in_exec)
        passed += 1
    else:
        assert error is None, (src[:200], error)
print(caught, passed)
'''


def test_a_student_works_through_lesson_one(student, tmp_path):
    """The student version of Lesson 1, run top to bottom as a student would: every check stops on the untouched
    placeholder with its message, and passes once the answer (the teacher's solution) is filled in."""
    lesson = LESSONS[0]
    script = tmp_path / "walk.py"
    script.write_text(WALK)
    result = subprocess.run([sys.executable, str(script), str(student / lesson.name), str(lesson)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    n = len(sv.exercises(_load(lesson), lesson.name))
    assert result.stdout.split()[-2:] == [str(n), str(n)]


def test_student_version_refuses_what_it_cannot_hand_out(tmp_path):
    "A missing course folder, a broken notebook, or a file as --out: exit 1 with one line; nothing half-written."
    def run(*argv):
        result = subprocess.run([sys.executable, str(ROOT / "tools" / "student_version.py"), *argv],
                                capture_output=True, text=True, cwd=ROOT)
        return result.returncode, result.stderr

    code, err = run("--src", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out"))
    assert code == 1 and "no such folder" in err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "01_lesson.ipynb").write_text('{"cells": [')
    code, err = run("--src", str(broken), "--out", str(tmp_path / "out"))
    assert code == 1 and "01_lesson.ipynb: not a readable notebook" in err
    assert not (tmp_path / "out").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    code, err = run("--src", str(empty), "--out", str(tmp_path / "out"))
    assert code == 1 and "no lesson notebooks" in err
    a_file = tmp_path / "handout.txt"
    a_file.write_text("x")
    code, err = run("--out", str(a_file))
    assert code == 1 and "is a file" in err
