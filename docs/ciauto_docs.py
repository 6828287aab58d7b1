"""Sphinx extension for the ciauto site: under each function, class and method of the API reference, a table of
its parameters (a result dataclass: its fields) from the docments comments, what nbdev's `show_doc` renders."""
import dataclasses
import importlib.util
import inspect
import re
from pathlib import Path

from fastcore.docments import docments
from sphinx.util.fileutil import copy_asset

_RST_SPECIAL = re.compile(r"([\\`*|_\[\]<>])")


def _text(s):
    "Plain text as reStructuredText: no markup character is read as markup."
    return _RST_SPECIAL.sub(r"\\\1", " ".join(str(s).split()))


def _literal(s):
    s = " ".join(str(s).split())
    return f"``{s}``" if s and "``" not in s else _text(s)


def _anno(a):
    if a is None or a is inspect.Parameter.empty:
        return ""
    if isinstance(a, str):
        return a
    return getattr(a, "__qualname__", None) or str(a).replace("typing.", "")


def _default(d):
    if d is inspect.Parameter.empty:
        return ""
    r = repr(d)
    return r if len(r) <= 40 else r[:37] + "..."


def parameter_rows(obj):
    "[(name, type, default, comment)] for `obj`'s parameters (a dataclass: its fields), and its return comment."
    try:
        docs = docments(obj, full=True)
    except Exception:  # builtins, C functions, classes without a signature
        return [], None
    ret = docs.pop("return", {}) or {}
    try:  # the annotation as written: docments guesses type(default) for an unannotated parameter
        written = {k: v.annotation for k, v in inspect.signature(obj).parameters.items()}
    except (TypeError, ValueError):
        written = {}
    rows = [(name, _anno(written.get(name, d.get("anno"))), _default(d.get("default")), d.get("docment") or "")
            for name, d in docs.items() if name not in ("self", "cls")]
    return rows, ret.get("docment")


def _table(title, rows):
    out = ["", f".. list-table:: {title}", "   :header-rows: 1", "   :class: ciauto-params", "   :widths: 18 18 14 50",
           "", "   * - name", "     - type", "     - default", "     - description"]
    for name, anno, default, comment in rows:
        out += [f"   * - {_literal(name)}", f"     - {_literal(anno) if anno else ''}",
                f"     - {_literal(default) if default else ''}", f"     - {_text(comment)}"]
    return out + [""]


def _markdown_line(line):
    "One line of a Markdown docstring as reStructuredText: `code` spans stay code, the rest is plain text."
    parts = line.strip().split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: all plain text
        return _text(line)
    out = []
    for i, p in enumerate(parts):
        if i % 2:
            out.append(_literal(p))
        elif p:
            text = _RST_SPECIAL.sub(r"\\\1", re.sub(r"\s+", " ", p))
            if i > 0 and text[0].isalnum():  # `Subgroup`s: an inline literal must end before a space or punctuation
                text = "\\ " + text
            if i < len(parts) - 1 and text[-1].isalnum():
                text += "\\ "
            out.append(text)
    return "".join(out)


def _value(obj):
    r = " ".join(repr(obj).split())
    return r if len(r) <= 120 else r[:117] + "..."


def add_parameter_table(app, what, name, obj, options, lines):
    # the docstrings are written in Markdown (the notebooks' language), not reStructuredText
    if what in ("data", "attribute"):  # a constant: its value, not the docstring of its type
        lines[:] = [_literal(_value(obj)), ""]
        return
    lines[:] = [_markdown_line(l) if l.strip() else "" for l in lines]
    if what not in ("function", "class", "method"):
        return
    target = obj
    if what == "class" and not dataclasses.is_dataclass(obj):
        target = obj.__init__
    rows, returns = parameter_rows(target)
    if rows:
        title = "Fields" if what == "class" and dataclasses.is_dataclass(obj) else "Parameters"
        lines.extend(_table(title, rows))
    if returns:
        lines.extend(["", f"**Returns:** {_text(returns)}", ""])


def _copy_mathjax(app, exc):
    "MathJax from the sphinx-mathjax-offline package into the site, so formulas render without a network."
    if exc is None:
        spec = importlib.util.find_spec("sphinx-mathjax-offline")
        copy_asset(str(Path(spec.origin).parent / "static" / "mathjax"), str(Path(app.outdir) / "_static" / "mathjax"))


def setup(app):
    # what the sphinx-mathjax-offline extension does, declared safe for Sphinx's parallel read
    app.config.mathjax_path = "mathjax/tex-chtml.js"
    app.connect("build-finished", _copy_mathjax)
    app.connect("autodoc-process-docstring", add_parameter_table)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
