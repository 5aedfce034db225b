"""The type stubs (amdgpu_valu.pyi, shipped as amdgpu_valu/__init__.pyi)
against the module: every exported name is in the stubs, with the same
parameters, and the stubs name nothing the module lacks."""

import ast
import inspect
from pathlib import Path

import pytest

import amdgpu_valu as av

STUB = Path(av.__file__).with_name("__init__.pyi")
TREE = ast.parse(STUB.read_text())
TOP = {n.name: n for n in TREE.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
TOP_VARS = {t.id for n in TREE.body if isinstance(n, ast.AnnAssign) for t in [n.target]}


def exported():
    return sorted(n for n in dir(av) if not n.startswith("_") and n != "amdgpu_valu")


def stub_params(fn, skip_self=False):
    """(name, kind, default) of a stub def, as inspect reports them."""
    a = fn.args
    out = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, d in zip(positional, defaults):
        kind = "POSITIONAL_ONLY" if arg in a.posonlyargs else "POSITIONAL_OR_KEYWORD"
        out.append((arg.arg, kind, ast.literal_eval(d) if d is not None else inspect._empty))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, "KEYWORD_ONLY", ast.literal_eval(d) if d is not None else inspect._empty))
    return out[1:] if skip_self else out


def real_params(obj):
    sig = inspect.signature(obj)
    return [(p.name, p.kind.name, p.default) for p in sig.parameters.values()]


def test_every_export_is_in_the_stubs_and_back():
    names = exported()
    for name in names:
        assert name in TOP or name in TOP_VARS, f"{name} is exported but not in {STUB.name}"
    for name in TOP:
        assert name in names, f"{STUB.name} declares {name}, which the module lacks"


@pytest.mark.parametrize("name", [n for n in exported() if inspect.isbuiltin(getattr(av, n))])
def test_function_parameters_match(name):
    assert stub_params(TOP[name]) == real_params(getattr(av, name))
    assert getattr(av, name).__doc__, f"{name} has no docstring"


@pytest.mark.parametrize("name", [n for n in exported() if inspect.isclass(getattr(av, n))
                                  and not issubclass(getattr(av, n), BaseException)])
def test_class_members_match(name):
    cls = getattr(av, name)
    body = TOP[name].body
    defs = {n.name: n for n in body if isinstance(n, ast.FunctionDef)}
    attrs = {n.target.id for n in body if isinstance(n, ast.AnnAssign)}
    members = [m for m in dir(cls) if not m.startswith("_")]
    for m in members:
        assert m in defs or m in attrs, f"{name}.{m} is not in the stubs"
        member = getattr(cls, m)
        if callable(member) and m in defs:
            assert stub_params(defs[m], skip_self=True) == real_params(member)[1:], f"{name}.{m}"
    for m in list(defs) + list(attrs):
        assert m == "__init__" or m in members, f"stub {name}.{m} is not on the class"
    if "__init__" in defs:
        assert stub_params(defs["__init__"], skip_self=True) == real_params(cls)
    assert cls.__doc__
