"""Prepared: one instruction checked once, then run on arrays. The same
bits as the one-shot functions (fract(), ldexp(), add()...; those are
checked against hardware rows and hand-derived bits in test_arrays.py and
test_arith.py) on random lanes with every modifier, every format, odd
lengths, with and without EXEC; hardware rows; hand-derived values;
refused input.
"""

import numpy as np
import pytest

import amdgpu_valu as av

from test_arrays import LANE_ROWS, lane_form

UINT = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}
WIDTH = {"f16": 16, "f32": 32, "f64": 64}
OPS = ["fract", "ldexp", "add", "sub", "subrev", "mul", "fma"]
SOURCES = {"fract": 1, "ldexp": 1, "add": 2, "sub": 2, "subrev": 2, "mul": 2, "fma": 3}
TARGETS = av.targets()


def sources(rng, fmt, n):
    """Encodings from the interesting exponents, or any bits."""
    w = WIDTH[fmt]
    man = {16: 10, 32: 23, 64: 52}[w]
    top = (1 << (w - 1 - man)) - 1
    bias = top >> 1
    fields = np.array([0, 1, bias - 1, bias, bias + 1, bias + man, top - 1, top], dtype=np.uint64)
    r = rng.integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, size=n, dtype=np.uint64)
    mask = np.uint64((1 << (w - 1)) | ((1 << man) - 1))
    shaped = (r & mask) | (fields[rng.integers(0, len(fields), size=n)] << np.uint64(man))
    any_bits = r & np.uint64((1 << w) - 1 if w < 64 else 2**64 - 1)
    pick = rng.integers(0, 4, size=n) == 0
    return np.where(pick, any_bits, shaped).astype(UINT[fmt])


def one_shot(op, srcs, e, kw):
    if op == "fract":
        return av.fract(srcs[0], **kw)
    if op == "ldexp":
        return av.ldexp(srcs[0], e, **kw)
    return getattr(av, op)(*srcs, **kw)


def merged(full, old, exec_words, n):
    """full where EXEC has the lane's bit, else old."""
    bits = np.unpackbits(exec_words.view(np.uint8), bitorder="little")[:n].astype(bool)
    return np.where(bits, full, old)


@pytest.mark.parametrize("fmt", ["f16", "f32", "f64"])
@pytest.mark.parametrize("op", OPS)
def test_prepared_gives_the_one_shot_bits(fmt, op):
    rng = np.random.default_rng(WIDTH[fmt] * 100 + OPS.index(op))
    if op in ("sub", "subrev") and fmt == "f64":
        with pytest.raises(av.ExecError):
            av.Prepared("gfx1201", op, fmt)
        return
    k = SOURCES[op]
    for n in [0, 1, 63, 64, 65, 1000]:
        for trial in range(6):
            target = TARGETS[int(rng.integers(0, len(TARGETS)))]
            mode = int(rng.integers(0, 2**32)) & 0x8003FF
            flags = lambda: tuple(bool(b) for b in rng.integers(0, 2, size=k))
            abs_, neg = flags(), flags()
            omod = int(rng.integers(0, 4))
            clamp = bool(rng.integers(0, 2))
            if k == 1:
                kw = dict(target=target, mode=mode, abs=abs_[0], neg=neg[0], omod=omod, clamp=clamp)
            else:
                kw = dict(target=target, mode=mode, abs=abs_, neg=neg, omod=omod, clamp=clamp)
            p = av.Prepared(target, op, fmt, mode=mode, abs=kw["abs"], neg=kw["neg"], omod=omod, clamp=clamp)
            srcs = [sources(rng, fmt, n) for _ in range(k)]
            e = rng.integers(-(2**31), 2**31, size=n, dtype=np.int64).astype(np.int32) >> rng.integers(0, 32)
            want = one_shot(op, srcs, e, kw)
            args = srcs + ([e] if op == "ldexp" else [])
            got = p(*args)
            assert got.dtype == UINT[fmt] and got.shape == (n,)
            np.testing.assert_array_equal(got, want, err_msg=f"{op} {fmt} {kw} n={n}")
            # Under EXEC, into out= (inactive lanes keep out's values).
            exec_words = rng.integers(0, 2**64, size=(n + 63) // 64, dtype=np.uint64)
            if trial % 3 == 0:
                exec_words[:] = 0
            old = sources(rng, fmt, n)
            out = old.copy()
            r = p.run(*args, out=out, exec=exec_words)
            assert r is out
            np.testing.assert_array_equal(out, merged(want, old, exec_words, n))
            # A new array under EXEC starts as a copy of the first source.
            np.testing.assert_array_equal(p(*args, exec=exec_words), merged(want, srcs[0], exec_words, n))


@pytest.mark.parametrize("row", LANE_ROWS, ids=lambda r: f"line{r[0]}")
def test_public_hardware_rows_through_prepared(row):
    op, width, kwargs, value, exp, want = lane_form(row)
    fmt = f"f{width}"
    p = av.Prepared(kwargs.pop("target"), op, fmt, **kwargs)
    x = np.full(3, value, dtype=UINT[fmt])
    got = p(x) if exp is None else p(x, np.full(3, exp, dtype=np.uint32))
    assert [hex(v) for v in got] == [hex(want)] * 3


def test_hand_derived_lanes():
    # FRACT F32 on gfx1201: 1.5 - 1 = 0.5 (0x3f000000); -1.25 - (-2) =
    # 0.75 (0x3f400000); as float32 in, float32 out.
    p = av.Prepared("gfx1201", "fract", "f32")
    x = np.array([0x3FC00000, 0xBFA00000], dtype=np.uint32)
    assert p(x).tolist() == [0x3F000000, 0x3F400000]
    y = p(x.view(np.float32))
    assert y.dtype == np.float32 and y.tolist() == [0.5, 0.75]
    # LDEXP F16: 1.0 (0x3c00) x 2^3 = 8.0 (exponent 15 + 3: 0x4800); the
    # word 0x5a5affff reads as -1: 0.5 (0x3800). The int32 exponent array is
    # read in place, read-only or not.
    q = av.Prepared("gfx1100", "ldexp", "f16")
    e = np.array([3, 0x5A5AFFFF], dtype=np.uint32).view(np.int32)
    e.flags.writeable = False
    assert q(np.array([0x3C00, 0x3C00], dtype=np.uint16), e).tolist() == [0x4800, 0x3800]
    # FMA F64 on gfx942, NEG on c: 2 x 3 - 1 = 5 (0x4014000000000000), in
    # place into a.
    f = av.Prepared("gfx942", "fma", "f64", neg=(False, False, True))
    a = np.array([0x4000000000000000], dtype=np.uint64)
    r = f(a, np.array([0x4008000000000000], dtype=np.uint64), np.array([0x3FF0000000000000], dtype=np.uint64), out=a)
    assert r is a and a.tolist() == [0x4014000000000000]
    assert (p.target, p.op, p.format, p.mode) == ("gfx1201", "fract", "f32", 0xF0)
    assert repr(f) == "Prepared('gfx942', 'fma', 'f64', mode=0xf0)"


def test_refused_input():
    p = av.Prepared("gfx1201", "add", "f32")
    x = np.zeros(4, dtype=np.uint32)
    with pytest.raises(TypeError, match="takes 2 operand"):
        p(x)
    with pytest.raises(TypeError, match="takes 2 operand"):
        p(x, x, x)
    with pytest.raises(TypeError, match="F32"):
        p(np.zeros(4, dtype=np.uint16), np.zeros(4, dtype=np.uint16))
    with pytest.raises(TypeError, match="uint64"):
        p(x, x, exec=np.zeros(1, dtype=np.int64))
    with pytest.raises(av.ExecError, match="EXEC words"):
        p(np.zeros(65, dtype=np.uint32), np.zeros(65, dtype=np.uint32), exec=np.zeros(1, dtype=np.uint64))
    with pytest.raises(ValueError, match="not one of"):
        av.Prepared("gfx1201", "frac", "f32")
    with pytest.raises(ValueError, match="format"):
        av.Prepared("gfx1201", "add", "f8")
    with pytest.raises(av.Error):
        av.Prepared("gfx1200", "add", "f32")
    with pytest.raises(ValueError):
        av.Prepared("gfx1201", "add", "f32", abs=(True,))
    with pytest.raises(TypeError):
        av.Prepared("gfx1201", "add", "f32", abs=True)
    with pytest.raises(av.ExecError):
        av.Prepared("gfx1201", "sub", "f64")
    with pytest.raises(ValueError):
        av.Prepared("gfx1201", "fract", "f32", omod=4)
