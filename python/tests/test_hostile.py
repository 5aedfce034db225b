"""Hostile input through every public name of the package: reshaped,
transposed, sliced, misaligned, byte-swapped, read-only, broadcast and
wrong-dtype arrays; views of the wave's registers reshaped, retyped,
restrided, frozen and replaced (and the array behind them, reached through
`.base`); wrong types and out-of-range numbers for every other argument.

Every call must either work, with the right bits, or raise ValueError,
TypeError or OverflowError (the package's Error classes are ValueErrors);
assigning a read-only attribute raises AttributeError and an array larger
than the address space MemoryError. Never pyo3's PanicException, and never
a refusal where the call should work.

The arithmetic (add, sub, subrev, mul, fma) runs on sources whose results
are worked out beside ARITH_SRC below; a misjudged layout, alias or
modifier shows as wrong bits.

The public names are enumerated from the module, so a new function, class
or member without cases here fails test_every_public_name_has_cases.

Expected bits, derived by hand:
- FRACT under MODE 0xf0 on gfx1201: 1.5 gives 0.5, -2.0 gives +0
  (docs/semantics.md §4: x - floor(x)), +inf gives the default NaN
  (hardware rows of tests/captures/hw-public.tsv).
- LDEXP: 1.5 x 2**-1 = 0.75 and 1.5 x 2**1 = 3.0, exact (only the exponent
  field changes); F16 reads the exponent word's bits 15:0 as an i16, so
  0xffffffff is -1.
- Encodings of 1.5, 0.75, 3.0, 0.5: sign 0, exponent bias + e, the
  mantissa's leading bits (1.5 = 1.1b, 0.75 = 1.1b x 2**-1, 3.0 = 1.1b x 2).
"""

import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional

import numpy as np
import pytest

import amdgpu_valu as av

from conftest import HW_PUBLIC

UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
FLOAT = {16: np.float16, 32: np.float32, 64: np.float64}
T = "gfx1201"

# FRACT: (source, result) encodings per width.
FRACT = {
    16: [(0x3E00, 0x3800), (0xC000, 0x0000), (0x7C00, 0xFE00)],
    32: [(0x3FC00000, 0x3F000000), (0xC0000000, 0x0), (0x7F800000, 0xFFC00000)],
    64: [(0x3FF8000000000000, 0x3FE0000000000000), (0xC000000000000000, 0x0),
         (0x7FF0000000000000, 0xFFF8000000000000)],
}
ONE_AND_HALF = {16: 0x3E00, 32: 0x3FC00000, 64: 0x3FF8000000000000}
# LDEXP(1.5, e) per exponent.
LDEXP = {
    16: {-1: 0x3A00, 1: 0x4200},
    32: {-1: 0x3F400000, 1: 0x40400000},
    64: {-1: 0x3FE8000000000000, 1: 0x4008000000000000},
}
FRACT_F32_V1_V2 = bytes([0x02, 0x41, 0x02, 0x7E])  # llvm-mc 22: v_fract_f32 v1, v2
PAIR = 0x0123456789ABCDEF
N = 12  # elements of every source pattern

ALLOWED = (ValueError, TypeError, OverflowError)
HUGE = 2**50  # elements: 4 PiB of uint32, beyond any address space


@dataclass
class Case:
    name: str  # the public name exercised
    what: str
    call: Callable
    # Exactly one of: check (the call must work and check(result) hold),
    # refuse (the call must raise one of these), either (may do both).
    check: Optional[Callable] = None
    refuse: Optional[tuple] = None
    either: bool = False


def works(name, what, call, check=lambda r: True):
    return Case(name, what, call, check=check)


def refused(name, what, call, *excs):
    return Case(name, what, call, refuse=excs or ALLOWED)


def run(case):
    """None when the case behaved, else what went wrong."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            result = case.call()
    except BaseException as e:  # PanicException derives from BaseException
        kind = type(e).__name__
        if kind == "PanicException":
            return f"PanicException: {e}"
        if case.check is not None:
            return f"should work, raised {kind}: {e}"
        allowed = ALLOWED if case.either else case.refuse
        if not isinstance(e, allowed):
            return f"raised {kind} (not one of {[c.__name__ for c in allowed]}): {e}"
        return None
    if case.refuse is not None:
        return f"should be refused, returned {result!r:.80}"
    if case.check is not None and not case.check(result):
        return f"wrong result {result!r:.200}"
    return None


# ---- arrays: layouts applied alike to a source and its expected result ----


def misaligned(a):
    """A writeable copy of `a` at an odd byte offset (NumPy: not aligned)."""
    buf = bytearray(1 + a.nbytes)
    m = np.frombuffer(buf, dtype=a.dtype, offset=1)
    m[:] = a.ravel()
    return m.reshape(a.shape)


def read_only(a):
    a = a.copy()
    a.flags.writeable = False
    return a


class Lying(np.ndarray):
    """A subclass whose view() and astype() return unrelated arrays."""

    def view(self, *args, **kwargs):
        return np.zeros(3, dtype=np.uint8)

    def astype(self, *args, **kwargs):
        return np.zeros(1, dtype=np.float64)


LAYOUTS = {
    "contiguous": lambda a: a,
    "0-d": lambda a: a[:1].reshape(()),
    "empty": lambda a: a[:0],
    "2-d": lambda a: a.reshape(3, 4),
    "4-d": lambda a: a.reshape(1, 2, 3, 2),
    "transposed": lambda a: a.reshape(3, 4).T,
    "fortran": lambda a: np.asfortranarray(a.reshape(3, 4)),
    "step 2": lambda a: a[::2],
    "reversed": lambda a: a[::-1],
    "step -5": lambda a: a[::-5],
    "column": lambda a: a.reshape(3, 4)[:, 1],
    "misaligned": misaligned,
    "read-only": read_only,
    "broadcast": lambda a: np.broadcast_to(a[:1], (5,)),
    "broadcast 2-d": lambda a: np.broadcast_to(a[:4], (3, 4)),
    "subclass": lambda a: a.copy().view(Lying),
}


def pattern(width):
    src = np.array([FRACT[width][i % 3][0] for i in range(N)], dtype=UINT[width])
    want = np.array([FRACT[width][i % 3][1] for i in range(N)], dtype=UINT[width])
    return src, want


def bits_equal(got, want, width):
    """`got` (any of the format's dtypes) holds exactly want's encodings."""
    got = np.asarray(got)
    return (got.shape == want.shape and got.dtype.itemsize == width // 8
            and np.array_equal(got.view(UINT[width]), np.asarray(want)))


WRONG_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_, np.complex64,
                np.longdouble, object, ">u4", ">f8", "<U3", "M8[s]", "V4",
                [("a", "<u4")]]


def fract_cases():
    cases = []
    for width in (16, 32, 64):
        for as_float in (False, True):
            src, want = pattern(width)
            if as_float:
                src = src.view(FLOAT[width])
            tag = f"{src.dtype}"
            for layout, f in LAYOUTS.items():
                x, w = f(src), np.asarray(f(want))
                cases.append(works("fract", f"{tag} {layout}", lambda x=x: av.fract(x, target=T),
                                   lambda r, w=w, width=width: bits_equal(r, w, width)))
            x = src.astype(src.dtype.newbyteorder(">"))
            cases.append(refused("fract", f"{tag} byte-swapped", lambda x=x: av.fract(x, target=T),
                                 TypeError))
            # out: the right array, in place, and every wrong one.
            out = np.empty_like(src)
            cases.append(works("fract", f"{tag} out", lambda x=src, o=out: av.fract(x, target=T, out=o),
                               lambda r, o=out, w=want, width=width: r is o and bits_equal(r, w, width)))
            x = src.copy()
            cases.append(works("fract", f"{tag} in place", lambda x=x: av.fract(x, target=T, out=x),
                               lambda r, w=want, width=width: bits_equal(r, w, width)))
            x = src.copy().reshape(3, 4)
            cases.append(works("fract", f"{tag} in place reversed source",
                               lambda x=x: av.fract(x[::-1], target=T, out=x),
                               lambda r, w=want.reshape(3, 4)[::-1], width=width: bits_equal(r, w, width)))
            x = src.copy().view(Lying)
            cases.append(works("fract", f"{tag} out subclass", lambda x=x: av.fract(x, target=T, out=x),
                               lambda r, x=x, w=want, width=width: r is x and bits_equal(r, w, width)))
            for what, o in [
                ("out wrong dtype", np.empty(N, dtype=np.int8)),
                ("out other width", np.empty(N, dtype=UINT[16 if width != 16 else 32])),
                ("out byte-swapped", np.empty(N, dtype=src.dtype.newbyteorder(">"))),
                ("out list", [0] * N),
                ("out scalar", src.dtype.type(0)),
            ]:
                cases.append(refused("fract", f"{tag} {what}",
                                     lambda x=src, o=o: av.fract(x, target=T, out=o), TypeError))
            for what, o in [
                ("out wrong shape", np.empty(N + 1, dtype=src.dtype)),
                ("out 2-d", np.empty((3, 4), dtype=src.dtype)),
                ("out 0-d", np.empty((), dtype=src.dtype)),
                ("out strided", np.empty(2 * N, dtype=src.dtype)[::2]),
                ("out reversed", np.empty(N, dtype=src.dtype)[::-1]),
                ("out read-only", read_only(np.empty(N, dtype=src.dtype))),
                ("out misaligned", misaligned(np.empty(N, dtype=src.dtype))),
                ("out broadcast", np.broadcast_to(np.empty(1, dtype=src.dtype), (N,))),
            ]:
                cases.append(refused("fract", f"{tag} {what}",
                                     lambda x=src, o=o: av.fract(x, target=T, out=o), ValueError))
            huge = np.broadcast_to(src[:1], (HUGE,))
            cases.append(refused("fract", f"{tag} huge broadcast", lambda x=huge: av.fract(x, target=T),
                                 MemoryError, ValueError))
    for dtype in WRONG_DTYPES:
        x = np.zeros(4, dtype=dtype)
        cases.append(refused("fract", f"dtype {dtype}", lambda x=x: av.fract(x, target=T), TypeError))
    for what, x in [("None", None), ("list", [1, 2]), ("int", 5), ("scalar", np.uint32(5)),
                    ("bytes", b"\0\0\0\0"), ("memoryview", memoryview(b"\0\0\0\0"))]:
        cases.append(refused("fract", f"x {what}", lambda x=x: av.fract(x, target=T), TypeError))
    cases += keyword_cases("fract", lambda **kw: av.fract(pattern(32)[0], **kw))
    return cases


def keyword_cases(name, call):
    """The keywords fract and ldexp share, each hostile; `call(**kw)` runs
    on the F32 pattern (fract) or 1.5 with exponent -1 (ldexp)."""
    want = pattern(32)[1] if name == "fract" else np.full(N, LDEXP[32][-1], dtype=np.uint32)

    def right(r):
        return bits_equal(r, want, 32)

    cases = []
    for what, kw in [("abs numpy bool", dict(abs=np.bool_(True))), ("neg", dict(neg=True)),
                     ("mode numpy", dict(mode=np.uint32(0xF0))), ("omod none", dict(omod="none")),
                     ("omod 0", dict(omod=0))]:
        # |x| and -x leave these results be: FRACT(-1.5) = 0.5, FRACT(2) = +0,
        # FRACT(-inf) = NaN; LDEXP(-1.5) negates the result, so not for ldexp.
        if name == "ldexp" and what == "neg":
            continue
        cases.append(works(name, what, lambda kw=kw: call(target=T, **kw), right))
    for what, kw, excs in [
        ("no target", {}, (TypeError,)),
        ("target None", dict(target=None), (TypeError,)),
        ("target int", dict(target=5), (TypeError,)),
        ("target bytes", dict(target=b"gfx1201"), (TypeError,)),
        ("target unknown", dict(target="gfx9"), (av.Error,)),
        ("target empty", dict(target=""), (av.Error,)),
        ("target NUL", dict(target="gfx1201\0"), (av.Error,)),
        ("target surrogate", dict(target="\ud800"), (ValueError,)),
        ("target huge", dict(target="gfx" * 100000), (av.Error,)),
        ("mode -1", dict(target=T, mode=-1), (OverflowError,)),
        ("mode 2**32", dict(target=T, mode=2**32), (OverflowError,)),
        ("mode float", dict(target=T, mode=1.5), (TypeError,)),
        ("mode None", dict(target=T, mode=None), (TypeError,)),
        ("abs str", dict(target=T, abs="yes"), (TypeError,)),
        ("neg int", dict(target=T, neg=2), (TypeError,)),
        ("clamp None", dict(target=T, clamp=None), (TypeError,)),
        ("omod 4", dict(target=T, omod=4), (ValueError,)),
        ("omod -1", dict(target=T, omod=-1), (ValueError,)),
        ("omod 2**70", dict(target=T, omod=2**70), (ValueError,)),
        ("omod mul:3", dict(target=T, omod="mul:3"), (ValueError,)),
        ("omod float", dict(target=T, omod=2.0), (TypeError,)),
        ("omod bytes", dict(target=T, omod=b"mul:2"), (TypeError,)),
        ("unknown keyword", dict(target=T, lanes=32), (TypeError,)),
    ]:
        cases.append(refused(name, what, lambda kw=kw: call(**kw), *excs))
    return cases


EXPONENT_DTYPES = [np.int8, np.int16, np.int32, np.int64, ">i2", ">i4", ">i8"]
UNSIGNED_EXPONENT_DTYPES = [np.uint8, np.uint16, np.uint32, np.uint64, ">u4", ">u8"]


def ldexp_cases():
    cases = []
    exps = np.array([(-1, 1)[i % 2] for i in range(N)], dtype=np.int32)
    for width in (16, 32, 64):
        for as_float in (False, True):
            src = np.full(N, ONE_AND_HALF[width], dtype=UINT[width])
            if as_float:
                src = src.view(FLOAT[width])
            want = np.array([LDEXP[width][e] for e in exps], dtype=UINT[width])
            tag = f"{src.dtype}"
            # Source and exponents in the same layout.
            for layout, f in LAYOUTS.items():
                x, e, w = f(src), f(exps), np.asarray(f(want))
                cases.append(works("ldexp", f"{tag} {layout}", lambda x=x, e=e: av.ldexp(x, e, target=T),
                                   lambda r, w=w, width=width: bits_equal(r, w, width)))
            # Every exponent dtype, byte order and layout on a plain source.
            for dtype in EXPONENT_DTYPES + UNSIGNED_EXPONENT_DTYPES:
                signed = np.dtype(dtype).kind == "i"
                e_base = (exps if signed else np.ones(N, dtype=np.int32)).astype(dtype)
                w_base = want if signed else np.full(N, LDEXP[width][1], dtype=UINT[width])
                for layout in ("contiguous", "transposed", "reversed", "misaligned", "broadcast"):
                    f = LAYOUTS[layout]
                    cases.append(works("ldexp", f"{tag} e {np.dtype(dtype).str} {layout}",
                                       lambda x=f(src), e=f(e_base): av.ldexp(x, e, target=T),
                                       lambda r, w=np.asarray(f(w_base)), width=width: bits_equal(r, w, width)))
            for e in (-1, 1, np.int32(-1), np.uint64(1), 0xFFFFFFFF if width == 16 else -1):
                w = LDEXP[width][1 if int(e) == 1 else -1]
                cases.append(works("ldexp", f"{tag} e={e!r}", lambda x=src, e=e: av.ldexp(x, e, target=T),
                                   lambda r, w=w, width=width: bits_equal(r, np.full(N, w, UINT[width]), width)))
    x = np.full(N, ONE_AND_HALF[32], dtype=np.uint32)
    for what, e, excs in [
        ("e 2**32", 2**32, (ValueError,)),
        ("e -2**31-1", -(2**31) - 1, (ValueError,)),
        ("e 2**70", 2**70, (ValueError,)),
        ("e float", 1.5, (TypeError,)),
        ("e bool", True, (TypeError,)),
        ("e None", None, (TypeError,)),
        ("e str", "1", (TypeError,)),
        ("e list", [1] * N, (TypeError,)),
        ("e int64 too big", np.full(N, 2**40, dtype=np.int64), (ValueError,)),
        ("e uint64 above 2**63", np.full(N, 2**63 + 1, dtype=np.uint64), (ValueError,)),
        ("e >u8 above 2**63", np.full(N, 2**63 + 1, dtype=">u8"), (ValueError,)),
        ("e wrong shape", np.zeros(N + 1, dtype=np.int32), (ValueError,)),
        ("e 2-d", np.zeros((3, 4), dtype=np.int32), (ValueError,)),
        ("e 0-d", np.zeros((), dtype=np.int32), (ValueError,)),
        ("e float32", np.zeros(N, dtype=np.float32), (TypeError,)),
        ("e bool array", np.zeros(N, dtype=np.bool_), (TypeError,)),
        ("e complex", np.zeros(N, dtype=np.complex64), (TypeError,)),
        ("e object", np.zeros(N, dtype=object), (TypeError,)),
        ("e str array", np.zeros(N, dtype="<U3"), (TypeError,)),
        ("e subclass", np.zeros(N, dtype=np.int32).view(Lying), ()),
        ("e huge broadcast", np.broadcast_to(np.int32(1), (HUGE,)), (ValueError,)),
    ]:
        if excs:
            cases.append(refused("ldexp", what, lambda e=e: av.ldexp(x, e, target=T), *excs))
        else:
            # A subclass is read through a plain view: exponent 0 keeps 1.5.
            cases.append(works("ldexp", what, lambda e=e: av.ldexp(x, e, target=T),
                               lambda r: bits_equal(r, x, 32)))
    huge = np.broadcast_to(x[:1], (HUGE,))
    cases.append(refused("ldexp", "x and e huge broadcast",
                         lambda: av.ldexp(huge, np.broadcast_to(np.int32(1), (HUGE,)), target=T),
                         MemoryError, ValueError))
    for dtype in WRONG_DTYPES:
        bad = np.zeros(4, dtype=dtype)
        cases.append(refused("ldexp", f"dtype {dtype}", lambda b=bad: av.ldexp(b, 0, target=T), TypeError))
    cases.append(refused("ldexp", "x None", lambda: av.ldexp(None, 0, target=T), TypeError))
    cases.append(refused("ldexp", "out read-only",
                         lambda: av.ldexp(x, 0, target=T, out=read_only(x)), ValueError))
    cases.append(refused("ldexp", "out transposed",
                         lambda: av.ldexp(x.reshape(3, 4), 0, target=T, out=np.empty((4, 3), np.uint32).T),
                         ValueError))
    cases += keyword_cases("ldexp", lambda **kw: av.ldexp(x, -1, **kw))
    return cases


# ---- arithmetic: add, sub, subrev, mul, fma ----

# Sources per lane index mod 3: a = (1.5, 2.25, 1.0), b = (2.25, 1.5, 1.0),
# c = a (fma). Results by hand: add 3.75, 3.75, 2; sub -0.75, 0.75, +0;
# subrev 0.75, -0.75, +0; mul 3.375 (1.1011b x 2), 3.375, 1; fma a x b + a
# 4.875 (1.00111b x 4), 5.625 (1.01101b x 4), 2.
ARITH_SRC = {
    16: ((0x3E00, 0x4080, 0x3C00), (0x4080, 0x3E00, 0x3C00)),
    32: ((0x3FC00000, 0x40100000, 0x3F800000), (0x40100000, 0x3FC00000, 0x3F800000)),
    64: ((0x3FF8000000000000, 0x4002000000000000, 0x3FF0000000000000),
         (0x4002000000000000, 0x3FF8000000000000, 0x3FF0000000000000)),
}
ARITH_WANT = {
    "add": {16: (0x4380, 0x4380, 0x4000), 32: (0x40700000, 0x40700000, 0x40000000),
            64: (0x400E000000000000, 0x400E000000000000, 0x4000000000000000)},
    "sub": {16: (0xBA00, 0x3A00, 0x0000), 32: (0xBF400000, 0x3F400000, 0x0)},
    "subrev": {16: (0x3A00, 0xBA00, 0x0000), 32: (0x3F400000, 0xBF400000, 0x0)},
    "mul": {16: (0x42C0, 0x42C0, 0x3C00), 32: (0x40580000, 0x40580000, 0x3F800000),
            64: (0x400B000000000000, 0x400B000000000000, 0x3FF0000000000000)},
    "fma": {16: (0x44E0, 0x45A0, 0x4000), 32: (0x409C0000, 0x40B40000, 0x40000000),
            64: (0x4013800000000000, 0x4016800000000000, 0x4000000000000000)},
}


def arith_pattern(op, width):
    """The sources (2 or 3 arrays of N lanes) and the expected result."""
    a, b = (np.array([v[i % 3] for i in range(N)], dtype=UINT[width]) for v in ARITH_SRC[width])
    srcs = [a, b, a.copy()] if op == "fma" else [a, b]
    want = np.array([ARITH_WANT[op][width][i % 3] for i in range(N)], dtype=UINT[width])
    return srcs, want


def arith_cases_of(op):
    f = getattr(av, op)
    n_src = 3 if op == "fma" else 2
    cases = []
    for width in (16, 32, 64):
        if width not in ARITH_WANT[op]:
            srcs, _ = arith_pattern("add", width)
            srcs = srcs[:1] * n_src
            for as_float in (False, True):
                xs = [x.view(FLOAT[width]) if as_float else x for x in srcs]
                cases.append(refused(op, f"{xs[0].dtype} has no F64 form", lambda xs=xs: f(*xs, target=T),
                                     TypeError))
            continue
        srcs, want = arith_pattern(op, width)
        for layout, lay in LAYOUTS.items():
            xs = [lay(x) for x in srcs]
            cases.append(works(op, f"{srcs[0].dtype} {layout}", lambda xs=xs: f(*xs, target=T),
                               lambda r, w=np.asarray(lay(want)), width=width: bits_equal(r, w, width)))
        for layout in ("contiguous", "transposed", "misaligned"):
            lay = LAYOUTS[layout]
            xs = [lay(x.view(FLOAT[width])) for x in srcs]
            cases.append(works(op, f"{xs[0].dtype} {layout}", lambda xs=xs: f(*xs, target=T),
                               lambda r, w=np.asarray(lay(want)), width=width:
                               bits_equal(r, w, width) and r.dtype == FLOAT[width]))
        # Sources in different layouts of the same logical array.
        mixed = [srcs[0], misaligned(srcs[1])] + [read_only(x) for x in srcs[2:]]
        cases.append(works(op, f"{srcs[0].dtype} mixed layouts", lambda xs=mixed: f(*xs, target=T),
                           lambda r, w=want, width=width: bits_equal(r, w, width)))
        rev = [x.reshape(3, 4)[::-1].T for x in srcs]
        cases.append(works(op, f"{srcs[0].dtype} transposed reversed", lambda xs=rev: f(*xs, target=T),
                           lambda r, w=want.reshape(3, 4)[::-1].T, width=width: bits_equal(r, w, width)))
        # out: a new array, each source in place, and every wrong one.
        out = np.empty_like(srcs[0])
        cases.append(works(op, f"{srcs[0].dtype} out", lambda xs=srcs, o=out: f(*xs, target=T, out=o),
                           lambda r, o=out, w=want, width=width: r is o and bits_equal(r, w, width)))
        for k in range(n_src):
            def in_place(k=k, srcs=srcs):
                xs = [x.copy() for x in srcs]
                return f(*xs, target=T, out=xs[k])
            cases.append(works(op, f"{srcs[0].dtype} in place on source {k}", in_place,
                               lambda r, w=want, width=width: bits_equal(r, w, width)))
        for what, o, exc in [
            ("out wrong dtype", np.empty(N, dtype=np.int8), TypeError),
            ("out float dtype", np.empty(N, dtype=FLOAT[width]), TypeError),
            ("out list", [0] * N, TypeError),
            ("out wrong shape", np.empty(N + 1, dtype=srcs[0].dtype), ValueError),
            ("out strided", np.empty(2 * N, dtype=srcs[0].dtype)[::2], ValueError),
            ("out read-only", read_only(np.empty(N, dtype=srcs[0].dtype)), ValueError),
            ("out misaligned", misaligned(np.empty(N, dtype=srcs[0].dtype)), ValueError),
            ("out broadcast", np.broadcast_to(np.empty(1, dtype=srcs[0].dtype), (N,)), ValueError),
        ]:
            cases.append(refused(op, f"{srcs[0].dtype} {what}",
                                 lambda xs=srcs, o=o: f(*xs, target=T, out=o), exc))
    # Every source position with every wrong array.
    srcs, _ = arith_pattern(op, 32)
    for k in range(n_src):
        name = "abc"[k]
        for what, bad, exc in [
            ("None", None, TypeError), ("list", [0] * N, TypeError), ("int", 5, TypeError),
            ("scalar", np.uint32(5), TypeError), ("bytes", b"\0" * 4 * N, TypeError),
            ("other width", np.zeros(N, np.uint16), TypeError),
            ("float of the width", np.zeros(N, np.float32), TypeError),
            ("byte-swapped", np.zeros(N, ">u4"), TypeError), ("int32", np.zeros(N, np.int32), TypeError),
            ("object", np.zeros(N, object), TypeError),
            ("wrong shape", np.zeros(N + 1, np.uint32), ValueError),
            ("2-d", np.zeros((3, 4), np.uint32), ValueError), ("0-d", np.zeros((), np.uint32), ValueError),
            ("huge broadcast", np.broadcast_to(np.uint32(0), (HUGE,)), ValueError),
        ]:
            xs = list(srcs)
            xs[k] = bad
            cases.append(refused(op, f"{name} {what}", lambda xs=xs: f(*xs, target=T), exc))
    huge = [np.broadcast_to(x[:1], (HUGE,)) for x in srcs]
    cases.append(refused(op, "every source huge broadcast", lambda: f(*huge, target=T), MemoryError, ValueError))
    # Keywords.
    right = lambda r, w=arith_pattern(op, 32)[1]: bits_equal(r, w, 32)  # noqa: E731
    for what, kw in [("abs tuple", dict(abs=(False,) * n_src)), ("neg list", dict(neg=[False] * n_src)),
                     ("abs numpy bools", dict(abs=np.zeros(n_src, dtype=np.bool_))),
                     ("mode numpy", dict(mode=np.uint32(0xF0))), ("omod none", dict(omod="none")),
                     ("omod 0", dict(omod=0)), ("abs None", dict(abs=None))]:
        cases.append(works(op, what, lambda kw=kw: f(*srcs, target=T, **kw), right))
    for what, kw, excs in [
        ("no target", {}, (TypeError,)), ("target None", dict(target=None), (TypeError,)),
        ("target int", dict(target=5), (TypeError,)), ("target unknown", dict(target="gfx9"), (av.Error,)),
        ("target surrogate", dict(target="\ud800"), (ValueError,)),
        ("mode -1", dict(target=T, mode=-1), (OverflowError,)),
        ("mode 2**32", dict(target=T, mode=2**32), (OverflowError,)),
        ("mode float", dict(target=T, mode=1.5), (TypeError,)),
        ("abs True", dict(target=T, abs=True), (TypeError,)),
        ("neg False", dict(target=T, neg=False), (TypeError,)),
        ("abs str", dict(target=T, abs="ab"[:n_src] if n_src == 2 else "abc"), (TypeError,)),
        ("abs int", dict(target=T, abs=3), (TypeError,)),
        ("abs too short", dict(target=T, abs=(False,) * (n_src - 1)), (ValueError,)),
        ("neg too long", dict(target=T, neg=(False,) * (n_src + 1)), (ValueError,)),
        ("neg ints", dict(target=T, neg=(1,) * n_src), (TypeError,)),
        ("neg Nones", dict(target=T, neg=(None,) * n_src), (TypeError,)),
        ("neg generator raising", dict(target=T, neg=(1 // 0 for _ in range(1))), (TypeError,)),
        ("omod 4", dict(target=T, omod=4), (ValueError,)), ("omod mul:3", dict(target=T, omod="mul:3"), (ValueError,)),
        ("clamp None", dict(target=T, clamp=None), (TypeError,)),
        ("unknown keyword", dict(target=T, lanes=32), (TypeError,)),
    ]:
        cases.append(refused(op, what, lambda kw=kw: f(*srcs, **kw), *excs))
    if n_src == 2:
        cases.append(refused(op, "three sources", lambda: f(*srcs, srcs[0], target=T), TypeError))
        cases.append(refused(op, "abs on a third source", lambda: f(*srcs, target=T, abs=(False, False, True)),
                             ValueError))
    else:
        cases.append(refused(op, "two sources", lambda: f(*srcs[:2], target=T), TypeError))
    return cases


def arith_cases():
    return [c for op in ("add", "sub", "subrev", "mul", "fma") for c in arith_cases_of(op)]


# ---- text and machine code ----

TEXTS = [
    ("NUL", "\0"), ("empty", ""), ("trailing NUL", "v_fract_f32 v1, v2\0"),
    ("surrogate", "\ud800"), ("long register", "v_fract_f32 v" + "9" * 1000 + ", v1"),
    ("many minus", "v_fract_f32 v0, " + "-" * 100000 + "v1"),
    ("long literal", "v_ldexp_f32 v0, v1, 0x" + "f" * 100), ("repeated", "v_fract_f32 v1, v2 " * 10000),
    ("non-ASCII", "é" * 1000), ("pair past the file", "v_fract_f64 v[255:256], v[0:1]"),
    ("negative register", "v_fract_f32 v-1, v2"), ("huge", "v" * (4 << 20)),
]
NOT_TEXT = [("None", None), ("int", 5), ("bytes", b"v_fract_f32 v1, v2"), ("list", ["v_fract_f32 v1, v2"])]


def assemble_cases():
    cases = [works("assemble", "valid", lambda: av.assemble("v_fract_f32 v1, v2", target=T),
                   lambda r: r == FRACT_F32_V1_V2)]
    for what, text in TEXTS:
        cases.append(refused("assemble", what, lambda t=text: av.assemble(t, target=T), ValueError))
    for what, text in NOT_TEXT:
        cases.append(refused("assemble", what, lambda t=text: av.assemble(t, target=T), TypeError))
    cases.append(refused("assemble", "target None", lambda: av.assemble("v_fract_f32 v1, v2", target=None),
                         TypeError))
    return cases


def instruction_cases():
    cases = [works("Instruction", "valid", lambda: av.Instruction("v_fract_f32 v1, v2", target=T),
                   lambda r: r.bytes == FRACT_F32_V1_V2)]
    for what, text in TEXTS:
        cases.append(refused("Instruction", what, lambda t=text: av.Instruction(t, target=T), ValueError))
    for what, text in NOT_TEXT:
        cases.append(refused("Instruction", what, lambda t=text: av.Instruction(t, target=T), TypeError))
    cases.append(refused("Instruction", "target unknown",
                         lambda: av.Instruction("v_fract_f32 v1, v2", target="gfx1"), av.Error))
    cases.append(refused("Instruction", "positional target",
                         lambda: av.Instruction("v_fract_f32 v1, v2", T), TypeError))
    i = av.Instruction("v_fract_f32 v1, v2", target=T)
    for other in (None, 5, "v_fract_f32 v1, v2", FRACT_F32_V1_V2):
        cases.append(works("Instruction", f"== {other!r}", lambda o=other: i == o, lambda r: r is False))
    cases.append(refused("Instruction", "hash", lambda: hash(i), TypeError))
    cases.append(refused("Instruction", "< int", lambda: i < 5, TypeError))
    for member, want in [("target", T), ("opcode", "v_fract_f32"), ("text", "v_fract_f32_e32 v1, v2"),
                         ("bytes", FRACT_F32_V1_V2)]:
        cases.append(works(f"Instruction.{member}", "read", lambda m=member: getattr(i, m),
                           lambda r, w=want: r == w))
        cases.append(refused(f"Instruction.{member}", "assign", lambda m=member: setattr(i, m, "x"),
                             AttributeError))
    return cases


def byte_inputs():
    rng = np.random.default_rng(20)
    words = [bytes(rng.integers(0, 256, size=n, dtype=np.uint8)) for n in (4, 8, 12) for _ in range(40)]
    return [("empty", b""), ("one byte", b"\xff"), ("three bytes", b"\x02\x41\x02"),
            ("a megabyte of zeros", bytes(1 << 20)), ("all ones", b"\xff" * 64)] + \
        [(f"random {w.hex()}", w) for w in words]


def decode_like_cases(name, call, check):
    cases = [works(name, "valid", lambda: call(FRACT_F32_V1_V2), check),
             works(name, "valid then junk", lambda: call(FRACT_F32_V1_V2 + b"\xff" * 100), check)]
    for what, data in byte_inputs():
        # Random words may decode: either is right, never a panic.
        cases.append(Case(name, what, lambda d=data: call(d), either=True))
    for what, data in [("str", "0241027e"), ("None", None), ("bytearray", bytearray(FRACT_F32_V1_V2)),
                       ("memoryview", memoryview(FRACT_F32_V1_V2)), ("list", [2, 0x41, 2, 0x7E]),
                       ("array", np.frombuffer(FRACT_F32_V1_V2, dtype=np.uint8))]:
        cases.append(refused(name, what, lambda d=data: call(d), TypeError))
    cases.append(refused(name, "target unknown", lambda: call(FRACT_F32_V1_V2, target="gfx0"), av.Error))
    return cases


def decode_cases():
    return decode_like_cases("decode", lambda d, target=T: av.decode(d, target=target),
                             lambda r: r.bytes == FRACT_F32_V1_V2)


def disassemble_cases():
    return decode_like_cases("disassemble", lambda d, target=T: av.disassemble(d, target=target),
                             lambda r: r == "v_fract_f32_e32 v1, v2")


def replay_cases():
    public = HW_PUBLIC.read_text()
    cases = [
        works("replay", "the public rows", lambda: av.replay(public),
              lambda r: (r.passed, r.failed, r.ok) == (64, 0, True)),
        works("replay", "empty", lambda: av.replay(""), lambda r: (r.passed, r.failed) == (0, 0)),
        works("replay", "blank lines", lambda: av.replay("\n" * 100000), lambda r: (r.passed, r.failed) == (0, 0)),
        works("replay", "a line of tabs", lambda: av.replay("\t" * 10000), lambda r: (r.passed, r.failed) == (0, 0)),
    ]
    for what, text in [("NULs", "\0" * 10000), ("one long line", "gfx1201\t" + "0" * (1 << 20)),
                       ("tabs between words", "a\t" * 10000), ("binary", bytes(range(256)).decode("latin-1") * 100),
                       ("a row of huge numbers", "gfx1201\t0x" + "f" * 1000 + "\tv_fract_f32 v0, v1\tv1=0x1\tv0=0x0")]:
        cases.append(works("replay", what, lambda t=text: av.replay(t),
                           lambda r: r.passed == 0 and r.failed >= 1 and len(r.failures) == r.failed))
    cases.append(refused("replay", "surrogate", lambda: av.replay("\ud800"), ValueError))
    for what, text in NOT_TEXT:
        cases.append(refused("replay", what, lambda t=text: av.replay(t), TypeError))
    r = av.replay(public)
    for member, want in [("passed", 64), ("failed", 0), ("failures", []), ("ok", True)]:
        cases.append(works(f"ReplayResult.{member}", "read", lambda m=member: getattr(r, m),
                           lambda got, w=want: got == w))
        cases.append(refused(f"ReplayResult.{member}", "assign", lambda m=member: setattr(r, m, 1),
                             AttributeError))
    cases.append(refused("ReplayResult", "construct", lambda: av.ReplayResult(), TypeError))
    cases.append(works("ReplayResult", "repr", lambda: repr(r), lambda t: t == "ReplayResult(passed=64, failed=0)"))
    return cases


def targets_cases():
    return [works("targets", "no arguments", lambda: av.targets(),
                  lambda r: len(r) == 10 and "gfx1201" in r),
            refused("targets", "an argument", lambda: av.targets(T), TypeError)]


def error_cases():
    cases = []
    for name in ("Error", "AssemblyError", "DecodeError", "ExecError"):
        cls = getattr(av, name)
        cases.append(works(name, "construct", lambda c=cls: c("message"),
                           lambda r: isinstance(r, ValueError) and str(r) == "message"))
        cases.append(works(name, "is a ValueError", lambda c=cls: issubclass(c, av.Error) and
                           issubclass(c, ValueError), lambda r: r is True))
    return cases


# ---- waves: every view and the array behind it, changed every way ----


def fresh(target="gfx1201"):
    """A wave with v1 = 1.5 (F32), s3 = -1 and v[4:5] = PAIR in every lane."""
    w = av.Wave(target, mode=0xF0)
    w.v[1] = ONE_AND_HALF[32]
    w.s[3] = 0xFFFFFFFF
    w.set_v64(4, PAIR)
    return w


def lanes_of(w, reg):
    return np.asarray(w.v)[reg].tolist()


def wave_operations(w):
    """(member, what, call, check) of everything that reads or writes the
    registers, with the result an untouched wave gives."""
    n = w.lanes

    def fract():
        av.execute(w, "v_fract_f32 v0, v1")
        return lanes_of(w, 0)

    def ldexp_sgpr():
        av.execute(w, "v_ldexp_f32 v2, v1, s3")
        return lanes_of(w, 2)

    def set_pair():
        w.set_v64(6, np.arange(n, dtype=np.uint64) << np.uint64(32))
        return lanes_of(w, 6) + lanes_of(w, 7)

    return [
        ("execute", "v_fract_f32 v0, v1", fract, lambda r: r == [0x3F000000] * n),
        ("execute", "v_ldexp_f32 v2, v1, s3", ldexp_sgpr, lambda r: r == [LDEXP[32][-1]] * n),
        ("Wave.v64", "v64(4)", lambda: w.v64(4).tolist(), lambda r: r == [PAIR] * n),
        ("Wave.set_v64", "set_v64(6, lanes << 32)", set_pair, lambda r: r == [0] * n + list(range(n))),
    ]


def view_changes(lanes):
    """Changes to a view w.v or w.s: none reaches the registers."""
    return {
        "v reshaped 1-d": lambda w: setattr(w.v, "shape", (256 * lanes,)),
        "v reshaped transposed": lambda w: setattr(w.v, "shape", (lanes, 256)),
        "v reshaped 3-d": lambda w: setattr(w.v, "shape", (2, 128, lanes)),
        "v retyped float32": lambda w: setattr(w.v, "dtype", np.float32),
        "v retyped uint8": lambda w: setattr(w.v, "dtype", np.uint8),
        "v retyped uint64": lambda w: setattr(w.v, "dtype", np.uint64),
        "v byte-swapped": lambda w: setattr(w.v, "dtype", ">u4"),
        "v restrided": lambda w: setattr(w.v, "strides", (4, 1024)),
        "v read-only": lambda w: setattr(w.v.flags, "writeable", False),
        "s reshaped": lambda w: setattr(w.s, "shape", (2, 53)),
        "s retyped int8": lambda w: setattr(w.s, "dtype", np.int8),
        "s read-only": lambda w: setattr(w.s.flags, "writeable", False),
    }


def base_changes(lanes):
    """Changes to the array behind the views (w.v.base): (change, file,
    whether the wave can still read that file)."""

    def resize(w, shape):
        w.v.base.resize(shape, refcheck=False)
        w.v[1] = ONE_AND_HALF[32]
        w.set_v64(4, PAIR)

    return {
        "v base 1-d": (lambda w: setattr(w.v.base, "shape", (256 * lanes,)), "v", False),
        "v base transposed shape": (lambda w: setattr(w.v.base, "shape", (lanes, 256)), "v", False),
        "v base 3-d": (lambda w: setattr(w.v.base, "shape", (1, 256, lanes)), "v", False),
        "v base float32": (lambda w: setattr(w.v.base, "dtype", np.float32), "v", False),
        "v base int32": (lambda w: setattr(w.v.base, "dtype", np.int32), "v", False),
        "v base uint16": (lambda w: setattr(w.v.base, "dtype", np.uint16), "v", False),
        "v base byte-swapped": (lambda w: setattr(w.v.base, "dtype", ">u4"), "v", False),
        "v base restrided": (lambda w: setattr(w.v.base, "strides", (4, 1024)), "v", False),
        "v base read-only": (lambda w: setattr(w.v.base.flags, "writeable", False), "v", True),
        "v base resized smaller": (lambda w: w.v.base.resize((16,), refcheck=False), "v", False),
        # The same shape in new memory: the registers are what it holds.
        "v base resized same shape": (lambda w: resize(w, (256, lanes)), None, True),
        "s base 2-d": (lambda w: setattr(w.s.base, "shape", (106, 1)), "s", False),
        "s base uint16": (lambda w: setattr(w.s.base, "dtype", np.uint16), "s", False),
        "s base resized smaller": (lambda w: w.s.base.resize((50,), refcheck=False), "s", False),
        "s base read-only": (lambda w: setattr(w.s.base.flags, "writeable", False), "s", True),
    }


def wave_cases():
    cases = []
    for target in ("gfx1201", "gfx908"):
        lanes = av.Wave(target).lanes
        probe = fresh(target)
        # Untouched, then after each change of a view: everything works.
        for change, f in {"untouched": lambda w: None, **view_changes(lanes)}.items():
            for i in range(len(wave_operations(probe))):
                w = fresh(target)

                def call(w=w, f=f, i=i):
                    f(w)
                    return wave_operations(w)[i][2]()
                member, what, _, check = wave_operations(w)[i]
                cases.append(works(member, f"{target} {change}: {what}", call, check))
        # After each change of the array behind them: refused where the
        # changed file is read (or written), else the right bits.
        for change, (f, file, readable) in base_changes(lanes).items():
            for i in range(len(wave_operations(probe))):
                w = fresh(target)

                def call(w=w, f=f, i=i):
                    f(w)
                    return wave_operations(w)[i][2]()
                member, what, _, check = wave_operations(w)[i]
                reads = {"execute": {"v", "s"}, "Wave.v64": {"v"}, "Wave.set_v64": {"v"}}[member]
                writes = {"execute": {"v"}, "Wave.v64": set(), "Wave.set_v64": {"v"}}[member]
                broken = file in reads and (not readable or file in writes)
                if broken:
                    cases.append(refused(member, f"{target} {change}: {what}", call, ValueError))
                else:
                    cases.append(works(member, f"{target} {change}: {what}", call, check))
            for member in ("Wave.v", "Wave.s"):
                w = fresh(target)
                cases.append(works(member, f"{target} {change}: read", lambda w=w, f=f, m=member:
                                   (f(w), getattr(w, m.split(".")[1]))[1],
                                   lambda r: isinstance(r, np.ndarray)))
    cases += wave_argument_cases()
    return cases


def wave_argument_cases():
    cases = []
    for what, call, excs in [
        ("lanes 16", lambda: av.Wave(T, lanes=16), (ValueError,)),
        ("lanes -1", lambda: av.Wave(T, lanes=-1), (OverflowError,)),
        ("lanes 2**40", lambda: av.Wave(T, lanes=2**40), (OverflowError,)),
        ("lanes float", lambda: av.Wave(T, lanes=32.0), (TypeError,)),
        ("wave32 on gfx908", lambda: av.Wave("gfx908", lanes=32), (av.ExecError,)),
        ("mode -1", lambda: av.Wave(T, mode=-1), (OverflowError,)),
        ("mode 2**32", lambda: av.Wave(T, mode=2**32), (OverflowError,)),
        ("target None", lambda: av.Wave(None), (TypeError,)),
        ("target unknown", lambda: av.Wave("gfx9000"), (av.Error,)),
        ("target surrogate", lambda: av.Wave("\ud800"), (ValueError,)),
    ]:
        cases.append(refused("Wave", what, call, *excs))
    cases.append(works("Wave", "wave64 on gfx1201", lambda: av.Wave(T, lanes=64),
                       lambda w: w.v.shape == (256, 64) and w.exec == 2**64 - 1))
    cases.append(works("Wave", "repr", lambda: repr(av.Wave(T)),
                       lambda r: r == "Wave('gfx1201', lanes=32, mode=0x0, exec=0xffffffff)"))
    # execute: every wrong wave and instruction.
    w = fresh()
    for what, call, excs in [
        ("wave None", lambda: av.execute(None, "v_fract_f32 v0, v1"), (TypeError,)),
        ("wave an array", lambda: av.execute(np.zeros((256, 32), np.uint32), "v_fract_f32 v0, v1"),
         (TypeError,)),
        ("instruction None", lambda: av.execute(w, None), (TypeError,)),
        ("instruction bytes", lambda: av.execute(w, FRACT_F32_V1_V2), (TypeError,)),
        ("instruction of another target",
         lambda: av.execute(w, av.Instruction("v_fract_f32 v0, v1", target="gfx1100")), (av.ExecError,)),
        ("instruction text surrogate", lambda: av.execute(w, "\ud800"), (ValueError,)),
        ("pair past the file", lambda: av.execute(w, "v_fract_f64 v[255:256], v[0:1]"), (av.Error,)),
        ("misaligned pair on gfx90a", lambda: av.execute(av.Wave("gfx90a"), "v_fract_f64 v[1:2], v[4:5]"),
         (av.Error,)),
    ]:
        cases.append(refused("execute", what, call, *excs))
    cases.append(works("execute", "the last pair", lambda: (
        av.execute(w, "v_fract_f64 v[254:255], v[254:255]"), w.v64(254).tolist())[1],
        lambda r: r == [0] * 32))  # FRACT(+0) = +0
    # v64 and set_v64: every wrong register and value.
    for reg, excs in [(-1, (OverflowError,)), (255, (av.ExecError,)), (256, (av.ExecError,)),
                      (2**64, (OverflowError,)), (1.5, (TypeError,)), (None, (TypeError,)),
                      ("4", (TypeError,))]:
        cases.append(refused("Wave.v64", f"reg {reg!r}", lambda r=reg: fresh().v64(r), *excs))
        cases.append(refused("Wave.set_v64", f"reg {reg!r}", lambda r=reg: fresh().set_v64(r, 0), *excs))
    for reg in (np.int64(4), np.uint8(4)):
        cases.append(works("Wave.v64", f"reg {reg!r}", lambda r=reg: fresh().v64(r).tolist(),
                           lambda r: r == [PAIR] * 32))
    values = np.arange(32, dtype=np.uint64) * np.uint64(0x100000001)
    for what, v in [("int", PAIR), ("max", 2**64 - 1), ("numpy uint64", np.uint64(PAIR)),
                    ("array", values), ("byte-swapped", values.astype(">u8")),
                    ("uint8", values.astype(np.uint8)), ("uint32", values.astype(np.uint32))] + \
            [(f"array {layout}", LAYOUTS[layout](values)) for layout in
             ("reversed", "misaligned", "read-only", "subclass")] + \
            [("strided", np.repeat(values, 2)[::2]), ("broadcast", np.broadcast_to(values[:1], (32,)))]:
        want = (np.broadcast_to(np.asarray(v, dtype=np.uint64), (32,)) if not isinstance(v, int)
                else np.full(32, v, dtype=np.uint64))

        def call(v=v):
            w = fresh()
            w.set_v64(8, v)
            return w.v64(8)
        cases.append(works("Wave.set_v64", what, call,
                           lambda r, want=want: r.tolist() == [int(x) for x in want]))
    for what, v, excs in [
        ("negative", -1, (OverflowError,)), ("2**64", 2**64, (OverflowError,)),
        ("numpy int64 -1", np.int64(-1), (OverflowError,)), ("float", 1.5, (TypeError,)),
        ("None", None, (TypeError,)), ("str", "1", (TypeError,)), ("list", [0] * 32, (TypeError,)),
        ("int64 array", np.zeros(32, np.int64), (TypeError,)),
        ("float array", np.zeros(32, np.float64), (TypeError,)),
        ("object array", np.zeros(32, object), (TypeError,)),
        ("31 lanes", np.zeros(31, np.uint64), (ValueError,)),
        ("0-d", np.zeros((), np.uint64), (ValueError,)),
        ("2-d", np.zeros((32, 1), np.uint64), (ValueError,)),
        ("transposed 2-d", np.zeros((1, 32), np.uint64).T, (ValueError,)),
        ("huge broadcast", np.broadcast_to(np.uint64(0), (HUGE,)), (ValueError,)),
    ]:
        cases.append(refused("Wave.set_v64", f"values {what}", lambda v=v: fresh().set_v64(0, v), *excs))
    # Attributes: set with every wrong value; read-only ones refuse.
    for attr, width in (("mode", 32), ("exec", 64), ("vcc", 64), ("m0", 32)):
        for value, excs in [(-1, (OverflowError,)), (2**width, (OverflowError,)), (1.5, (TypeError,)),
                            (None, (TypeError,)), ("1", (TypeError,))]:
            cases.append(refused(f"Wave.{attr}", f"= {value!r}", lambda a=attr, v=value: setattr(fresh(), a, v),
                                 *excs))
        cases.append(refused(f"Wave.{attr}", "delete", lambda a=attr: delattr(fresh(), a), AttributeError))

        def set_get(a=attr, width=width):
            w = fresh()
            setattr(w, a, np.uint64(2**64 - 1) if width == 64 else np.uint32(2**32 - 1))
            return getattr(w, a)
        # EXEC keeps only the wave's 32 lanes.
        want = 2**32 - 1 if attr == "exec" else 2**width - 1
        cases.append(works(f"Wave.{attr}", "= numpy max", set_get, lambda r, want=want: r == want))
    for attr, want in [("target", T), ("lanes", 32)]:
        cases.append(works(f"Wave.{attr}", "read", lambda a=attr: getattr(fresh(), a), lambda r, w=want: r == w))
    for attr in ("target", "lanes", "v", "s"):
        for what, value in [("an array", np.zeros((256, 32), np.uint32)), ("None", None), ("int", 0)]:
            cases.append(refused(f"Wave.{attr}", f"replaced by {what}",
                                 lambda a=attr, v=value: setattr(fresh(), a, v), AttributeError))
    return cases


# ---- Prepared: the same arrays through one instruction checked once ----


def prepared_cases():
    cases = []
    name = "Prepared.run"
    for width in (16, 32, 64):
        fmt = f"f{width}"
        p = av.Prepared(T, "fract", fmt)
        for as_float in (False, True):
            src, want = pattern(width)
            if as_float:
                src = src.view(FLOAT[width])
            tag = f"{src.dtype}"
            for layout, f in LAYOUTS.items():
                x, w = f(src), np.asarray(f(want))
                cases.append(works(name, f"fract {tag} {layout}", lambda p=p, x=x: p(x),
                                   lambda r, w=w, width=width: bits_equal(r, w, width)))
            x = src.copy()
            cases.append(works(name, f"fract {tag} in place", lambda p=p, x=x: p.run(x, out=x),
                               lambda r, x=x, w=want, width=width: r is x and bits_equal(r, w, width)))
            x = src.astype(src.dtype.newbyteorder(">"))
            cases.append(refused(name, f"fract {tag} byte-swapped", lambda p=p, x=x: p(x), TypeError))
        other = np.zeros(N, dtype=UINT[16 if width != 16 else 32])
        cases.append(refused(name, f"fract {fmt} given another width", lambda p=p, x=other: p(x), TypeError))
        # LDEXP: 1.5 x 2**-1 and 2**1, exponents in every layout.
        q = av.Prepared(T, "ldexp", fmt)
        exps = np.array([(-1, 1)[i % 2] for i in range(N)], dtype=np.int32)
        src = np.full(N, ONE_AND_HALF[width], dtype=UINT[width])
        want = np.array([LDEXP[width][e] for e in exps], dtype=UINT[width])
        for layout, f in LAYOUTS.items():
            cases.append(works(name, f"ldexp {fmt} {layout}", lambda q=q, x=f(src), e=f(exps): q(x, e),
                               lambda r, w=np.asarray(f(want)), width=width: bits_equal(r, w, width)))
        e = exps.copy()
        cases.append(works(name, f"ldexp {fmt} exponents overwritten by out",
                           lambda q=q, x=src, e=e: q(x, e, out=e.view(UINT[32])[:N] if width == 32 else None),
                           lambda r, w=want, width=width: bits_equal(r, w, width)))
        # The arithmetic, every source in place.
        for op in ("add", "mul", "fma"):
            srcs, want = arith_pattern(op, width)
            r = av.Prepared(T, op, fmt)
            for layout in ("contiguous", "transposed", "misaligned", "read-only"):
                lay = LAYOUTS[layout]
                cases.append(works(name, f"{op} {fmt} {layout}", lambda r=r, xs=[lay(x) for x in srcs]: r(*xs),
                                   lambda res, w=np.asarray(LAYOUTS[layout](want)), width=width:
                                   bits_equal(res, w, width)))
            for k in range(len(srcs)):
                def in_place(r=r, k=k, srcs=srcs):
                    xs = [x.copy() for x in srcs]
                    return r(*xs, out=xs[k])
                cases.append(works(name, f"{op} {fmt} in place on source {k}", in_place,
                                   lambda res, w=want, width=width: bits_equal(res, w, width)))
    p = av.Prepared(T, "fract", "f32")
    x, want = pattern(32)
    # EXEC: bit i of word 0 per element; elements 1 and 3 inactive keep out.
    mask = np.array([0xFFF5], dtype=np.uint64)
    masked = want.copy()
    masked[[1, 3]] = x[[1, 3]]
    for what, e in [("uint64", mask), ("read-only", read_only(mask)), ("misaligned", misaligned(mask)),
                    ("2-d", mask.reshape(1, 1)), ("longer", np.concatenate([mask, mask]))]:
        cases.append(works(name, f"exec {what}", lambda p=p, e=e: p(x, exec=e),
                           lambda r: bits_equal(r, masked, 32)))
    for what, e, exc in [("list", [0xFFF5], TypeError), ("int", 0xFFF5, TypeError),
                         ("int64", mask.astype(np.int64), TypeError), ("byte-swapped", mask.astype(">u8"), TypeError),
                         ("empty", np.zeros(0, np.uint64), ValueError),
                         ("strided", np.zeros(4, np.uint64)[::2][:0], ValueError)]:
        cases.append(refused(name, f"exec {what}", lambda p=p, e=e: p(x, exec=e), exc))
    for what, call, exc in [
        ("fract given e", lambda: p(x, x), TypeError),
        ("no source", lambda: p(None), TypeError),
        ("list source", lambda: p([1, 2]), TypeError),
        ("out wrong dtype", lambda: p(x, out=np.empty(N, np.int8)), TypeError),
        ("out read-only", lambda: p(x, out=read_only(x)), ValueError),
        ("out wrong shape", lambda: p(x, out=np.empty(N + 1, np.uint32)), ValueError),
        ("add given a only", lambda: av.Prepared(T, "add", "f32")(x), TypeError),
        ("fma given a and c", lambda: av.Prepared(T, "fma", "f32")(x, None, x), TypeError),
        ("ldexp e float", lambda: av.Prepared(T, "ldexp", "f32")(x, 1.5), TypeError),
        ("ldexp e 2**32", lambda: av.Prepared(T, "ldexp", "f32")(x, 2**32), ValueError),
        ("huge broadcast", lambda: p(np.broadcast_to(x[:1], (HUGE,))), (MemoryError, ValueError)),
    ]:
        excs = exc if isinstance(exc, tuple) else (exc,)
        cases.append(refused(name, what, call, *excs))
    # The constructor.
    cases.append(works("Prepared", "fma f16 with modifiers",
                       lambda: av.Prepared(T, "fma", "f16", mode=np.uint32(0), abs=(True, False, True),
                                           neg=[False, True, False], omod="div:2", clamp=True),
                       lambda r: r.op == "fma"))
    cases.append(works("Prepared", "fract abs as a bool", lambda: av.Prepared(T, "fract", "f64", abs=True),
                       lambda r: r.format == "f64"))
    for what, args, kw, excs in [
        ("no arguments", (), {}, (TypeError,)),
        ("target unknown", ("gfx9", "add", "f32"), {}, (av.Error,)),
        ("target int", (5, "add", "f32"), {}, (TypeError,)),
        ("op unknown", (T, "div", "f32"), {}, (ValueError,)),
        ("op None", (T, None, "f32"), {}, (TypeError,)),
        ("format f8", (T, "add", "f8"), {}, (ValueError,)),
        ("format int", (T, "add", 32), {}, (TypeError,)),
        ("sub f64", (T, "sub", "f64"), {}, (av.ExecError,)),
        ("mode -1", (T, "add", "f32"), dict(mode=-1), (OverflowError,)),
        ("mode float", (T, "add", "f32"), dict(mode=1.5), (TypeError,)),
        ("abs bool for add", (T, "add", "f32"), dict(abs=True), (TypeError,)),
        ("abs 3 for add", (T, "add", "f32"), dict(abs=(True, False, False)), (ValueError,)),
        ("neg str", (T, "fract", "f32"), dict(neg="yes"), (TypeError,)),
        ("omod 4", (T, "add", "f32"), dict(omod=4), (ValueError,)),
        ("omod mul:3", (T, "add", "f32"), dict(omod="mul:3"), (ValueError,)),
        ("clamp None", (T, "add", "f32"), dict(clamp=None), (TypeError,)),
        ("unknown keyword", (T, "add", "f32"), dict(lanes=32), (TypeError,)),
    ]:
        cases.append(refused("Prepared", what, lambda a=args, k=kw: av.Prepared(*a, **k), *excs))
    held = av.Prepared(T, "ldexp", "f16", mode=0x1F0)
    for attr, want in [("target", T), ("op", "ldexp"), ("format", "f16"), ("mode", 0x1F0)]:
        cases.append(works(f"Prepared.{attr}", "read", lambda a=attr: getattr(held, a), lambda r, w=want: r == w))
        cases.append(refused(f"Prepared.{attr}", "assigned", lambda a=attr: setattr(held, a, 0),
                             AttributeError))
    return cases


CASES = {
    "fract": fract_cases, "ldexp": ldexp_cases, "arith": arith_cases, "assemble": assemble_cases,
    "Instruction": instruction_cases, "decode": decode_cases, "disassemble": disassemble_cases,
    "replay": replay_cases, "targets": targets_cases, "errors": error_cases, "Wave": wave_cases,
    "Prepared": prepared_cases,
}


def public_names():
    """Every public function, class and class member of the module."""
    names = []
    for name in dir(av):
        if name.startswith("_") or name == "amdgpu_valu":
            continue
        names.append(name)
        obj = getattr(av, name)
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            names += [f"{name}.{m}" for m in vars(obj) if not m.startswith("_")]
    return sorted(names)


@lru_cache(maxsize=None)
def results():
    """{group: [(case, problem or None)]}, each case run once."""
    return {group: [(c, run(c)) for c in make()] for group, make in CASES.items()}


@pytest.mark.parametrize("group", CASES)
def test_no_hostile_input_panics_or_is_misjudged(group):
    problems = [f"{c.name} [{c.what}]: {p}" for c, p in results()[group] if p]
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_every_public_name_has_cases():
    covered = {c.name for group in results().values() for c, _ in group}
    names = set(public_names())
    assert names - covered == set(), "public names without hostile cases"
    assert covered - names == set(), "cases for names the module lacks"
    # 13 functions, 4 classes, 4 exceptions; Wave has 10 members,
    # Instruction 4, ReplayResult 4 and Prepared 5.
    assert len(names) == 44


def test_the_number_of_hostile_calls():
    all_cases = [c for group in results().values() for c, _ in group]
    per_name = {}
    for c in all_cases:
        per_name[c.name] = per_name.get(c.name, 0) + 1
    worked = sum(1 for c in all_cases if c.check is not None)
    refusals = sum(1 for c in all_cases if c.refuse is not None)
    either = sum(1 for c in all_cases if c.either)
    # Calls that must work (with their bits checked), must be refused, and
    # may do either (random machine code for decode and disassemble).
    assert (len(all_cases), worked, refusals, either) == (2585, 1472, 863, 250), per_name
    assert min(per_name.values()) >= 2, per_name
    # The wave: 2 waves x 28 view and register-file changes x 4 operations, and more.
    assert sum(1 for c in all_cases if c.name in ("Wave.v64", "Wave.set_v64", "execute")) == 277
