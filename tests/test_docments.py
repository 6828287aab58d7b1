"""Every public name documents itself: a docstring, and a docments comment after each parameter.

nbdev's `show_doc` renders the comments as the parameter table and `help()` shows them, so a parameter without one
is a gap in the documentation. Checked for every name in `__all__` of every public module (plus the `_checks`
layer): functions, classes (their `__init__` or dataclass fields) and the public methods of classes.
"""
import dataclasses
import importlib
import inspect
import pkgutil

import pytest
from fastcore.docments import docments

import ciauto

def _modules():
    names = [m.name for m in pkgutil.iter_modules(ciauto.__path__) if not m.name.startswith("_")] + ["_checks"]
    return sorted(f"ciauto.{n}" for n in names)


def _own(obj, module):
    "Defined in `module` itself (re-exports are checked where they are defined)."
    return getattr(obj, "__module__", None) == module.__name__


def _parameters(f):
    "Names of the documentable parameters of `f` (not self/cls/*args/**kwargs)."
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _undocumented(f):
    "Parameters of `f` that have no docments comment."
    names = _parameters(f)
    if not names:
        return []
    docs = docments(f, full=True)
    return [n for n in names if not (n in docs and docs[n].get("docment"))]


def _public_methods(cls):
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if inspect.isfunction(member):
            yield name, member


def _class_gaps(cls):
    gaps = []
    if dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls) if f.init]
        docs = docments(cls, full=True)
        gaps += [f"{cls.__name__}.{n}" for n in fields if not (n in docs and docs[n].get("docment"))]
    elif "__init__" in vars(cls) and inspect.isfunction(vars(cls)["__init__"]):
        gaps += [f"{cls.__name__}({n})" for n in _undocumented(vars(cls)["__init__"])]
    for name, method in _public_methods(cls):
        if not inspect.getdoc(method):
            gaps.append(f"{cls.__name__}.{name}: no docstring")
        gaps += [f"{cls.__name__}.{name}({n})" for n in _undocumented(method)]
    return gaps


def gaps_of(module_name):
    "Every documentation gap of a module's `__all__`, as readable strings."
    module = importlib.import_module(module_name)
    gaps = []
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name, None)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)) or not _own(obj, module):
            continue
        if not inspect.getdoc(obj):
            gaps.append(f"{name}: no docstring")
        if inspect.isclass(obj):
            gaps += _class_gaps(obj)
        else:
            gaps += [f"{name}({n})" for n in _undocumented(obj)]
    return gaps


@pytest.mark.parametrize("module_name", _modules())
def test_public_names_are_documented(module_name):
    gaps = gaps_of(module_name)
    assert not gaps, f"{module_name}: {len(gaps)} undocumented: " + "; ".join(gaps)


def _documented(a,  # the first
                b=1,  # the second
                *args, **kwargs):
    "Every parameter has its comment."


def _bare(a, b=1):
    "No parameter has a comment."


class _Holder:
    "A class whose public method lacks comments."

    def __init__(self,
                 size,  # how many
                 ):
        self.size = size

    def grow(self, by):
        "Grow by `by`."


def test_the_check_sees_gaps():
    assert _undocumented(_documented) == []
    assert _undocumented(_bare) == ["a", "b"]
    assert _class_gaps(_Holder) == ["_Holder.grow(by)"]


@pytest.mark.parametrize("module_name", _modules())
def test_module_docstring_is_whole(module_name):
    "nbdev takes only the first `>` line of a notebook's summary as the docstring: a wrapped one is cut mid-sentence."
    doc = (importlib.import_module(module_name).__doc__ or "").strip()
    assert doc and doc[-1] in ".?!", f"{module_name}'s docstring is cut: ...{doc[-60:]!r}"
