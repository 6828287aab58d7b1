"""Build the documentation site into `_docs/` (settings.ini's doc_path) from the notebooks, without a network.

    python tools/build_docs.py            # what `bash tools/docs.sh` runs

1. Stage the sources in `_site_build/src/`: the landing page from nbs/index.ipynb, one page per library notebook
   (group "Guide"), tutorial (nbs/tutorials/*.ipynb, "Tutorials") and course lesson (nbs/course/*.ipynb, "Course"),
   and one API page per public module ("API"). A notebook committed with outputs (tutorials, index) is shown as
   committed; one committed without (library notebooks) is shown from its executed copy in `_executed/`, which the
   test run writes (conftest.py → tools/nbrun.py); a missing or stale copy (its recorded sha256 is not the
   notebook's, and its code cells differ) is made here by running the notebook the same way, two at a time; a copy
   whose code is the notebook's is shown with the notebook's current prose.
   On the way, nbdev's directives (`#| export`, `#| hide`, …) are removed, `#| hide` cells dropped, test cells
   folded (a "Show the source (tests)" toggle; their outputs stay), course solutions folded under "Show the
   worked solution", tutorials get a box linking the API entries of the ciauto names they import, and the
   pages of SEARCH_TOPICS get the index entries that make the search rank them first for their topics. The pages
   written for the site alone (`docs/*.md`: the papers and where ciauto departs from them) are copied as they are.
   The API pages show every class and function, and the constants that have a one-line description.
2. Run Sphinx (docs/conf.py: MyST-NB, autodoc, the PyData theme, MathJax served locally) into `_docs/`, which
   holds a search index (`searchindex.js`) over every page.
"""
import ast
import copy
import dataclasses
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "docs"))
from ciauto_docs import _docstring, describe_constant  # noqa: E402
from nbrun import source_sha256  # noqa: E402

NBS = ROOT / "nbs"
EXECUTED = ROOT / "_executed"
BUILD = ROOT / "_site_build"
SRC = BUILD / "src"
OUT = ROOT / "_docs"
GROUPS = {"tutorials": "Tutorials", "course": "Course"}
TEST_CALL = re.compile(r"\btest(_eq|_fail|_close|_warns|_is|_ne|_stdout|_eq_type|_shuffled|_sig)?\(")  # fastcore.test


def _load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _save(path, nb):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _src(cell):
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _md(text, id_):
    return {"cell_type": "markdown", "id": id_, "metadata": {}, "source": text}


def notebooks():
    "{group: [notebook paths]}: library notebooks (Guide), tutorials, course lessons; `_`/`.` names skipped."
    ok = lambda p: not p.name.startswith(("_", "."))
    groups = {"Guide": sorted(p for p in NBS.glob("*.ipynb") if ok(p) and p.name != "index.ipynb")}
    for folder, title in GROUPS.items():
        groups[title] = sorted((p for p in (NBS / folder).glob("*.ipynb") if ok(p)),
                               key=lambda p: (p.stem != "index", p.name))
    return groups


def _has_outputs(nb):
    return any(c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")


def _code(nb):
    "The code cells' sources without nbdev's directives (an executed copy has them removed)."
    return [_directives(_src(c))[1].strip() for c in nb["cells"] if c["cell_type"] == "code"]


def with_outputs_of(nb, executed):
    """`nb` with the outputs of `executed`, a run of the same code: a notebook whose prose changed since its run
    is shown with its current prose, without running it again. None if the code cells differ."""
    if _code(nb) != _code(executed):
        return None
    nb = copy.deepcopy(nb)
    runs = iter(c for c in executed["cells"] if c["cell_type"] == "code")
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            run = next(runs)
            c["outputs"], c["execution_count"] = run.get("outputs", []), run.get("execution_count")
    return nb


def executed_copies(paths, workers=2, execute=True):
    """{path: notebook with outputs}: as committed, else the test run's copy (current, or of the same code with
    other prose), else executed now (and saved)."""
    result, todo = {}, []
    for p in paths:
        nb = _load(p)
        copy_ = EXECUTED / p.relative_to(NBS)
        executed = _load(copy_) if copy_.exists() else None
        if _has_outputs(nb):
            result[p] = nb
        elif executed and (grafted := with_outputs_of(nb, executed)) is not None:
            result[p] = grafted  # the run's outputs under the notebook's prose as it is now
        elif executed and executed.get("metadata", {}).get("ciauto", {}).get("source_sha256") == source_sha256(p):
            result[p] = executed
        else:
            todo.append((p, copy_))
    if todo and not execute:
        print("--no-execute: shown without outputs: " + ", ".join(str(p.relative_to(NBS)) for p, _ in todo))
        return result | {p: _load(p) for p, _ in todo}
    if todo:
        print(f"executing {len(todo)} notebook(s) without a current executed copy: "
              + ", ".join(str(p.relative_to(NBS)) for p, _ in todo), flush=True)
        env = dict(os.environ, IN_TEST="1", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))

        def run(item):
            p, dest = item
            t = time.time()
            proc = subprocess.run([sys.executable, str(ROOT / "tools" / "nbrun.py"), str(p), "--save", str(dest)],
                                  cwd=ROOT, env=env, capture_output=True, text=True)
            print(f"  {p.relative_to(NBS)}: {'ok' if proc.returncode == 0 else 'FAILED'} in {time.time() - t:.0f} s",
                  flush=True)
            if proc.returncode != 0:
                raise RuntimeError(f"{p.relative_to(NBS)} failed to execute:\n{proc.stderr[-3000:]}")

        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(run, todo))
        for p, dest in todo:
            result[p] = _load(dest)
    return result


# --- the public API -------------------------------------------------------------------------------------------

def module_notebooks():
    "{module name: notebook path} from the notebooks' `#| default_exp` cells."
    found = {}
    for p in sorted(NBS.glob("*.ipynb")):
        for c in _load(p)["cells"]:
            m = re.search(r"^#\|\s*default_exp\s+(\S+)", _src(c), re.M)
            if c["cell_type"] == "code" and m:
                found[f"ciauto.{m.group(1)}"] = p
                break
    return found


def public_modules():
    "The public modules (no leading underscore) with their `__all__`, in notebook order."
    mods = {}
    for name in module_notebooks():
        if any(part.startswith("_") for part in name.split(".")):
            continue
        mods[name] = list(getattr(importlib.import_module(name), "__all__", []))
    return mods


def api_targets(mods):
    "{(module, name): the full name of its documented entry}: a re-exported name points at its defining module."
    targets = {}
    for mod, names in mods.items():
        for name in names:
            obj = getattr(importlib.import_module(mod), name)
            home = getattr(obj, "__module__", mod)
            targets[mod, name] = f"{home}.{name}" if home in mods and name in mods[home] else f"{mod}.{name}"
    return targets


def documented(mods):
    "{module: the public names its API page shows}: every class and function, and the constants with a description."
    return {mod: [n for n in names if _kind(getattr(importlib.import_module(mod), n)) != "autodata"
                  or describe_constant(mod, n) is not None] for mod, names in mods.items()}


def _kind(obj):
    if isinstance(obj, type):
        return "autoclass"
    if dataclasses.is_dataclass(obj):  # a callable instance such as a registered `Metric` is a constant, not a function
        return "autodata"
    if callable(obj):
        return "autofunction"
    return "autodata"


def write_api(mods, targets, nb_of):
    (SRC / "api").mkdir(parents=True, exist_ok=True)
    toc = []
    mods = documented(mods)
    for mod, names in mods.items():
        m = importlib.import_module(mod)
        nb = nb_of[mod]
        lines = [mod, "=" * len(mod), ""]
        doc = (m.__doc__ or "").strip()
        if doc and not doc.startswith("Code generated"):
            lines += _docstring(doc.splitlines())
        lines += [f"The notebook that explains it: :doc:`/{nb.stem}`.", ""]
        for name in names:
            obj = getattr(m, name)
            target = targets[mod, name]
            lines += [f".. {_kind(obj)}:: {mod}.{name}"] + (["   :no-value:"] if _kind(obj) == "autodata" else [])
            if isinstance(obj, type) and dataclasses.is_dataclass(obj):  # its fields are in its table, not repeated
                lines += ["   :exclude-members: " + ", ".join(f.name for f in dataclasses.fields(obj))]
            if target != f"{mod}.{name}":  # a re-export: documented in full, indexed where it is defined
                lines += ["   :no-index:", "", f"   Re-exported from :mod:`{target.rsplit('.', 1)[0]}` "
                          f"(:py:obj:`{target}`).", ""]
            lines += [""]
        (SRC / "api" / f"{mod}.rst").write_text(f".. py:module:: {mod}\n\n" + "\n".join(lines) + "\n",
                                                 encoding="utf-8")
        toc.append(mod)
    rows = "\n".join(f"| {{doc}}`{mod} <{mod}>` | {', '.join(f'`{n}`' for n in names)} |" for mod, names in mods.items())
    (SRC / "api" / "index.md").write_text(
        "# API reference\n\nEvery public name of every public module: its signature, its docstring and a table of "
        "its parameters (a result's fields) from the comments beside them in the notebooks.\n\n"
        f"| module | public names |\n| --- | --- |\n{rows}\n\n"
        "```{toctree}\n:hidden:\n:maxdepth: 1\n\n" + "\n".join(toc) + "\n```\n", encoding="utf-8")


def names_used(nb, mods, targets):
    "The documented entries of the ciauto names a notebook imports (or uses as `module.name`), in first-use order."
    used = []
    aliases = {}
    for c in nb["cells"]:
        if c["cell_type"] != "code":
            continue
        src = "\n".join(l for l in _src(c).splitlines() if not l.lstrip().startswith(("%", "!")))
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in mods:
                used += [targets[node.module, a.name] for a in node.names if (node.module, a.name) in targets]
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in mods:
                        aliases[a.asname or a.name] = a.name
            elif isinstance(node, ast.Attribute):
                base = ast.unparse(node.value)
                mod = aliases.get(base)
                if mod and (mod, node.attr) in targets:
                    used.append(targets[mod, node.attr])
    return list(dict.fromkeys(used))


# --- notebook preprocessing ----------------------------------------------------------------------------------

def _directives(source):
    "({directive: value}, source without the directive lines)."
    direc, keep = {}, []
    for line in source.splitlines():
        m = re.match(r"^\s*#\|\s*([\w-]+):?\s*(.*)$", line)
        if m:
            direc[m.group(1)] = m.group(2).strip()
        else:
            keep.append(line)
    return direc, "\n".join(keep).strip("\n")


def prepare(nb, kind, api_link=None, used=()):
    "The notebook as a page: directives gone, hidden cells dropped, tests folded, links to the API added."
    nb = copy.deepcopy(nb)
    cells, exercises = [], 0
    for c in nb["cells"]:
        src = _src(c)
        if c["cell_type"] == "raw" and src.lstrip().startswith("---"):  # front matter: title and description
            meta = yaml.safe_load(src.strip().strip("-")) or {}
            title, desc = str(meta.get("title", "")).strip(), " ".join(str(meta.get("description", "")).split())
            cells.append(_md(f"# {title}\n\n" + (f"> {desc}\n" if desc else ""), "frontmt0"))
            continue
        if c["cell_type"] == "code":
            direc, body = _directives(src)
            if "hide" in direc or "default_exp" in direc or not body.strip():
                continue
            tags = set(c.get("metadata", {}).get("tags", []))
            if direc.get("echo", "").lower() == "false":
                tags.add("remove-input")
            if direc.get("output", "").lower() == "false":
                tags.add("remove-output")
            if "exercise" in direc:  # a course exercise (its heading names it): the student's cell, labelled
                exercises += 1
                cells.append(_md("*Your cell:* replace the `...`, then run the check below the solution.",
                                 f"exercise{exercises}"))
            if "solution" in direc:  # the worked solution: folded whole, under its own label
                tags.add("hide-cell")
                c.setdefault("metadata", {})["mystnb"] = {"code_prompt_show": "Show the worked solution",
                                                          "code_prompt_hide": "Hide the worked solution"}
            elif kind != "Tutorials" and "export" not in direc and "exports" not in direc and (
                    TEST_CALL.search(body) or "from fastcore.test import" in body):
                tags.add("hide-input")  # a test: folded, its output (if any) stays visible
            c["source"] = body
            c.setdefault("metadata", {})["tags"] = sorted(tags)
            # widget views (tqdm bars) need a live kernel: keep their plain-text fallback only
            for o in c.get("outputs", []):
                if isinstance(o.get("data"), dict):
                    o["data"].pop("application/vnd.jupyter.widget-view+json", None)
            c["outputs"] = [o for o in c.get("outputs", []) if not (isinstance(o.get("data"), dict) and not o["data"])]
        cells.append(c)
    # after the title cell: the link to the module's API page, or the tutorial's API entries
    extra = None
    if api_link:
        extra = f"API reference of this notebook's module: {{doc}}`{api_link} </api/{api_link}>`."
    elif used:
        extra = ":::{admonition} API used on this page\n:class: seealso\n\n" + " · ".join(f"{{py:obj}}`~{t}`" for t in used) + "\n:::"
    if extra:
        first = next((i for i, c in enumerate(cells) if c["cell_type"] == "markdown"), -1)
        cells.insert(first + 1, _md(extra, "apilinks"))
    nb["cells"] = cells
    nb.setdefault("metadata", {})["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb["metadata"]["language_info"] = {"name": "python"}
    nb["metadata"].pop("widgets", None)
    return nb


# What a reader searches for, and the page (and section) that answers it: each term becomes a main index entry
# there, which Sphinx's search ranks above any full-text match ("Table 2" finds the study's reproduction, not the
# 37th of 50 pages that mention a table). {page: [(heading the entry follows, or None for the title, [terms])]}
SEARCH_TOPICS = {
    "tutorials/reproducing_the_study": [(None, ["Table 2", "Table 3", "paper's tables", "reproduction",
                                                "reproduce the study", "inclusion", "tightness"])],
    "tutorials/your_own_search": [(None, ["GridSearchCV", "RandomizedSearchCV", "HalvingGridSearchCV", "Optuna",
                                          "AutoGluon", "H2O", "your own search", "hyper-parameter search"])],
    "tutorials/winners_curse": [(None, ["winner's curse", "held-out test set", "optimistic"])],
    "tutorials/conformal_anomaly_detection": [(None, ["ADBench", "anomaly detection", "conformal AUROC"])],
    "tutorials/prediction_sets": [(None, ["prediction sets", "Mahalanobis", "nonconformity score"])],
    "tutorials/subgroups_adult": [(None, ["Adult", "income", "SubROC on Adult"])],
    "tutorials/subroc_corrected_gaps": [(None, ["corrected gaps", "subgroups you can trust"])],
    "02_cvt": [("Parallel runs and Dask clusters", ["Dask", "dask cluster", "LocalCluster", "parallel"])],
}


def add_search_topics(nb, page):
    "The main index entries of SEARCH_TOPICS for `page`, as MyST index directives where they belong."
    for heading, terms in SEARCH_TOPICS.get(page, []):
        entry = _md("```{index} " + ", ".join(f"! {t}" for t in terms) + "\n```\n", f"search{len(terms)}")
        at = None
        for i, c in enumerate(nb["cells"]):
            if c["cell_type"] == "markdown" and (
                    re.match(r"#\s", _src(c)) if heading is None else
                    re.search(rf"^#+\s+{re.escape(heading)}\s*$", _src(c), re.M)):
                at = i + 1
                break
        if at is None:
            raise ValueError(f"{page}: no heading {heading!r} for the search entries {terms}")
        nb["cells"].insert(at, entry)
    return nb


def _toctree(caption, entries, hidden=True):
    opts = f":caption: {caption}\n" + (":hidden:\n" if hidden else "") + ":maxdepth: 1\n"
    return "```{toctree}\n" + opts + "\n" + "\n".join(entries) + "\n```\n"


def stage(execute=True):
    if SRC.exists():
        shutil.rmtree(SRC)
    SRC.mkdir(parents=True)
    groups = notebooks()
    nb_of = module_notebooks()
    mods = public_modules()
    targets = api_targets(mods)
    module_of = {p: m for m, p in nb_of.items() if m in mods}
    executed = executed_copies(groups["Guide"] + groups["Tutorials"] + groups["Course"], execute=execute)
    for group, paths in groups.items():
        for p in paths:
            nb = executed[p]
            used = names_used(nb, mods, targets) if group != "Guide" else ()
            page = prepare(nb, group, api_link=module_of.get(p), used=used)
            _save(SRC / p.relative_to(NBS), add_search_topics(page, p.relative_to(NBS).with_suffix("").as_posix()))
    write_api(mods, targets, nb_of)
    # the groups: a page each, listed in the navigation bar; the sidebar shows them all with their pages
    (SRC / "guide.md").write_text(
        "# Guide\n\nThe library notebooks: each explains one piece of ciauto with its formulas, holds its code "
        "and tests it (the tests are folded; click to see them).\n\n"
        + _toctree("Guide", [p.stem for p in groups["Guide"]], hidden=False), encoding="utf-8")
    (SRC / "tutorials").mkdir(exist_ok=True)
    (SRC / "tutorials" / "index.md").write_text(
        "# Tutorials\n\nWorked examples on real data, each committed with its outputs.\n\n"
        + _toctree("Tutorials", [p.stem for p in groups["Tutorials"]], hidden=False), encoding="utf-8")
    sections = ["guide", "tutorials/index"]
    if groups["Course"]:
        lessons = [p for p in groups["Course"] if p.stem != "index"]
        toc = _toctree("Course", [p.stem for p in lessons], hidden=False)
        idx = SRC / "course" / "index.ipynb"
        if idx.exists():  # the course's own index notebook is the group's page; its lessons hang below it
            nb = _load(idx)
            nb["cells"].append(_md(toc, "coursetoc"))
            _save(idx, nb)
        else:
            (SRC / "course" / "index.md").write_text("# Course\n\n" + toc, encoding="utf-8")
        sections.append("course/index")
    # pages written for the site alone (docs/*.md): the papers and where ciauto departs from them
    for page in sorted((ROOT / "docs").glob("*.md")):
        shutil.copy(page, SRC / page.name)
    sections.append("papers")
    sections.append("api/index")
    index = prepare(_load(NBS / "index.ipynb"), "index")
    index["cells"].append(_md("```{toctree}\n:hidden:\n:maxdepth: 1\n\n" + "\n".join(sections) + "\n```\n",
                              "sitetoc0"))
    _save(SRC / "index.ipynb", index)
    return groups, mods


def build(clean=False, execute=True):
    t = time.time()
    groups, mods = stage(execute)
    print(f"staged {sum(map(len, groups.values()))} notebooks and {len(mods)} API pages in {time.time() - t:.0f} s",
          flush=True)
    if clean and OUT.exists():
        shutil.rmtree(OUT)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", "2", "-c", str(ROOT / "docs"),
           "-d", str(BUILD / "doctrees"), str(SRC), str(OUT)]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(cmd, cwd=ROOT, env=env)
    if proc.returncode != 0:
        sys.exit(f"sphinx-build failed ({proc.returncode})")
    (OUT / ".nojekyll").touch()
    shutil.rmtree(ROOT / "jupyter_execute", ignore_errors=True)  # MyST-NB's scratch copy beside _docs
    print(f"site built in {time.time() - t:.0f} s: open {OUT / 'index.html'}")


if __name__ == "__main__":
    build(clean="--clean" in sys.argv, execute="--no-execute" not in sys.argv)
