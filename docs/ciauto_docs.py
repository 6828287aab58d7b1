"""Sphinx extension for the ciauto site: under each function, class and method of the API reference, a table of
its parameters (a result dataclass: its fields) from the docments comments, what nbdev's `show_doc` renders."""
import dataclasses
import functools
import importlib.util
import inspect
import io
import re
import sys
import tokenize
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
    if re.search(r" at 0x[0-9a-f]+", r):  # a function or object: its name, not its memory address
        r = getattr(d, "__qualname__", None) or type(d).__name__
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
                f"     - {_literal(default) if default else ''}", f"     - {_markdown(comment)}"]
    return out + [""]


_MD_TOKEN = re.compile(r"(?P<code>`+)(?P<code_text>.+?)(?P=code)"          # `code`
                       r"|\*\*(?P<strong>\S(?:.*?\S)?)\*\*"               # **strong**
                       r"|(?<![\w*])\*(?P<em>[^*\s](?:[^*]*?[^*\s])?)\*(?![\w*])"  # *emphasis*
                       r"|\[(?P<link>[^\]]+)\]\((?P<url>[^)\s]+)\)", re.S)   # [text](url)
_BEFORE = set(" \n\t-:/'\"<([{")       # what may precede an inline markup start in reStructuredText
_AFTER = set(" \n\t-.,:;!?\\/'\")]}>")  # ... and follow its end


def _markdown(text, collapse=True):
    """Inline Markdown (the docstrings' and docments comments' language) as reStructuredText: `code`, **strong**,
    *emphasis* and [links](url) become markup; every other character is plain text (escaped)."""
    text = " ".join(str(text).split()) if collapse else str(text)
    out, pos = [], 0
    for m in _MD_TOKEN.finditer(text):
        if "\n\n" in m.group(0):  # Markdown spans do not cross paragraphs
            continue
        out.append(_RST_SPECIAL.sub(r"\\\1", text[pos:m.start()]))
        if m.group("code"):
            code = " ".join(m.group("code_text").split())
            piece = f"``{code}``" if "``" not in code and code.strip() else _text(code)
        elif m.group("strong"):
            piece = "**" + _RST_SPECIAL.sub(r"\\\1", " ".join(m.group("strong").replace("`", "").split())) + "**"
        elif m.group("em"):
            piece = "*" + _RST_SPECIAL.sub(r"\\\1", " ".join(m.group("em").replace("`", "").split())) + "*"
        else:
            piece = "`" + _RST_SPECIAL.sub(r"\\\1", m.group("link")) + f" <{m.group('url')}>`__"
        before = "".join(out)[-1:]
        if before and before not in _BEFORE:
            piece = "\\ " + piece
        after = text[m.end():m.end() + 1]
        if after and after not in _AFTER:
            piece += "\\ "
        out.append(piece)
        pos = m.end()
    out.append(_RST_SPECIAL.sub(r"\\\1", text[pos:]))
    return "".join(out)


def _docstring(lines):
    "A Markdown docstring (autodoc's lines) as reStructuredText lines: paragraphs kept, inline markup converted."
    paragraphs, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    out = []
    for para in paragraphs:
        out += [_markdown(para), ""]
    return out


def _value(obj):
    "A constant's value on one line, or None when it would not fit one or shows a memory address."
    r = " ".join(repr(obj).split())
    return None if len(r) > 80 or re.search(r" at 0x[0-9a-f]+", r) else r


@functools.cache  # tokenize a module once: each of its constants asks (83 asks over 23 modules per build)
def _comments(module):
    "{line number: comment text} of a module's source (tokenized, so a '#' inside a string is not a comment)."
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return {}, []
    found = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                found[tok.start[0]] = (tok.start[1], tok.string)
    except (tokenize.TokenError, IndentationError):
        pass
    return found, source.splitlines()


def constant_description(module, name):
    """The one-line description of constant `name` of `module` (a module object): the comment that ends its
    assignment's first line (`NAME = ...  # description`), or a `#:` comment line right above it (Sphinx's
    convention); None when it has neither. The API pages list only the constants that have one."""
    comments, src = _comments(module)
    for i, line in enumerate(src, start=1):
        if not re.match(rf"{re.escape(name)}\s*(:[^=]*)?=(?!=)", line):
            continue
        if i in comments and comments[i][0] > 0:
            text = comments[i][1].lstrip("#").strip()
            if text and not text.startswith("%%"):
                return text
        above = []
        for j in range(i - 1, 0, -1):
            if not src[j - 1].startswith("#:"):
                break
            above.insert(0, src[j - 1][2:].strip())
        return " ".join(above) or None
    return None


def describe_constant(module_name, name):
    """`constant_description` where the constant is assigned: in the module, else in the module of the same
    package it is re-exported from (`ciauto.study` re-exports `ciauto.study_run`'s names)."""
    module = importlib.import_module(module_name)
    found = constant_description(module, name)
    if found is None:
        package = module_name.rpartition(".")[0]
        for other in sorted(m for m in list(sys.modules) if m.startswith(module_name + "_")):
            if other.rpartition(".")[0] == package and name in getattr(sys.modules[other], "__all__", []):
                found = constant_description(sys.modules[other], name)
                break
    return found


def add_parameter_table(app, what, name, obj, options, lines):
    # the docstrings are written in Markdown (the notebooks' language), not reStructuredText
    if what in ("data", "attribute"):  # a constant: its description and, if it fits a line, its value
        module, _, attr = name.rpartition(".")
        described = describe_constant(module, attr)
        value = _value(obj)
        lines[:] = ([_markdown(described), ""] if described else []) + \
            ([f"Value: {_literal(value)}", ""] if value is not None else [])
        return
    lines[:] = _docstring(lines)
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
        lines.extend(["", f"**Returns:** {_markdown(returns)}", ""])


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
