"""add(), sub(), subrev(), mul() and fma() on NumPy arrays: the arithmetic
rules' examples (docs/semantics.md) with bits derived by hand, every dtype
and layout, out and in place, and refused input.

MODE fields: FP_ROUND of F32 in bits 1:0, of F16/F64 in 3:2 (0 nearest
even, 1 toward +inf, 2 toward -inf, 3 toward zero); FP_DENORM of F32 in
5:4, of F16/F64 in 7:6 (low bit keeps input subnormals, high bit output
subnormals); DX10_CLAMP bit 8; IEEE bit 9; FP16_OVFL bit 23. Expected values
come from the encodings (sign, biased exponent, fraction), never from the
package.
"""

import numpy as np
import pytest

import amdgpu_valu as av

IEEE = 1 << 9
FP16_OVFL = 1 << 23


def one(op, dtype, *srcs, **kw):
    """One lane of op, run as 5 equal lanes; the lanes must agree."""
    arrays = [np.full(5, s, dtype=dtype) for s in srcs]
    r = getattr(av, op)(*arrays, **kw)
    assert r.dtype == np.dtype(dtype) and r.shape == (5,)
    assert len(set(r.tolist())) == 1, r
    return int(r[0])


# (op, dtype, sources, keywords, expected, how it was derived)
EXAMPLES = [
    # One rounding.
    ("add", np.uint32, (0x3FC00000, 0x40100000), dict(target="gfx1100"), 0x40700000,
     "1.5 + 2.25 = 3.75 = 1.111b x 2^1"),
    ("add", np.uint32, (0x3F800000, 0x33800000), dict(target="gfx1100"), 0x3F800000,
     "1 + 2^-24 is a tie: to the even 1.0"),
    ("add", np.uint32, (0x3F800000, 0x33800000), dict(target="gfx1100", mode=0xF1), 0x3F800001,
     "the tie toward +inf (F32 FP_ROUND 1)"),
    ("fma", np.uint16, (0x0001, 0x0001, 0x7BFF), dict(target="gfx1201", mode=0xC4), 0x7C00,
     "2^-48 + 65504 toward +inf: past the largest finite value (the product is not rounded alone)"),
    ("fma", np.uint16, (0x0001, 0x0001, 0x7BFF), dict(target="gfx1100", mode=0xC0), 0x7BFF,
     "2^-48 + 65504 to nearest: 65504"),
    # Exact zeros.
    ("add", np.uint32, (0x80000000, 0x80000000), dict(target="gfx1201", mode=0xF1), 0x80000000,
     "-0 + -0 = -0 in every mode"),
    ("add", np.uint32, (0x00000000, 0x80000000), dict(target="gfx1201"), 0x00000000, "+0 + -0 = +0"),
    ("add", np.uint32, (0x00000000, 0x80000000), dict(target="gfx1201", mode=0xF2), 0x80000000,
     "+0 + -0 = -0 toward -inf"),
    ("mul", np.uint32, (0x00000000, 0x80000000), dict(target="gfx1100"), 0x80000000, "+0 x -0 = -0"),
    ("sub", np.uint16, (0x3C00, 0x3C00), dict(target="gfx1030", mode=0xF8), 0x8000,
     "1 - 1 toward -inf of the F16 group (bits 3:2 = 2): -0"),
    ("sub", np.uint16, (0x3C00, 0x3C00), dict(target="gfx1030", mode=0xF2), 0x0000,
     "F32's toward -inf leaves F16 at nearest: +0"),
    # Tininess after rounding.
    ("mul", np.uint32, (0x00800000, 0x3F7FFFFF), dict(target="gfx1100", mode=0x30), 0x00800000,
     "(2^24 - 1) 2^-150 is 8388607.5 subnormal ulps: to the even 0x00800000"),
    ("mul", np.uint32, (0x00800000, 0x3F7FFFFF), dict(target="gfx1100", mode=0x33), 0x007FFFFF,
     "toward zero: 0x007fffff"),
    ("mul", np.uint32, (0x00800000, 0x3F7FFFFF), dict(target="gfx1201", mode=0x10), 0x00000000,
     "exact at 24 bits and below 2^-126: tiny, flushed with F32 outputs flushed"),
    ("mul", np.uint32, (0x80800000, 0x3F7FFFFF), dict(target="gfx1201", mode=0x10), 0x80000000,
     "the negative one flushes to -0"),
    ("fma", np.uint16, (0x0001, 0x3400, 0x8400), dict(target="gfx1201", mode=0x40, omod="div:2"), 0x8000,
     "-(2^-14 - 2^-26) to nearest is -min_normal, div:2 of the lowest binade gives -0"),
    ("fma", np.uint16, (0x0001, 0x3400, 0x8400), dict(target="gfx1201", mode=0x44, omod="div:2"), 0x0000,
     "toward +inf it is tiny, flushed to -0, and OMOD of a zero is +0"),
    # Overflow and FP16_OVFL.
    ("mul", np.uint16, (0x3E00, 0x7BFF), dict(target="gfx1030"), 0x7C00, "1.5 x 65504 overflows: +inf"),
    ("mul", np.uint16, (0x3E00, 0x7BFF), dict(target="gfx1100", mode=0xFC), 0x7BFF, "toward zero: +max"),
    ("mul", np.uint16, (0x3E00, 0x7BFF), dict(target="gfx1100", mode=FP16_OVFL, omod="div:2"), 0x77FF,
     "FP16_OVFL saturates to 65504, div:2 (effective: IEEE 0, F16 outputs flushed) gives 32752"),
    ("mul", np.uint16, (0x3E00, 0x7BFF), dict(target="gfx1030", mode=FP16_OVFL | IEEE, omod=3), 0x7BFF,
     "IEEE = 1: OMOD ignored"),
    ("fma", np.uint16, (0x3C00, 0x7BFF, 0x7BFF), dict(target="gfx1201", mode=FP16_OVFL, omod="div:2"), 0x77FF,
     "1 x 65504 + 65504 saturates, then halves"),
    ("add", np.uint32, (0x7F7FFFFF, 0x7F7FFFFF), dict(target="gfx1201", mode=FP16_OVFL | 0xF0), 0x7F800000,
     "F32 never saturates"),
    # NaN.
    ("add", np.uint32, (0x7F800000, 0xFF800000), dict(target="gfx908"), 0xFFC00000,
     "inf - inf: the negative canonical NaN"),
    ("mul", np.uint64, (0, 0x7FF0000000000000), dict(target="gfx90a"), 0xFFF8000000000000, "0 x inf"),
    ("fma", np.uint16, (0x0000, 0x7C00, 0x7E01), dict(target="gfx1100"), 0xFE00,
     "0 x inf wins over the NaN addend"),
    ("add", np.uint32, (0x7F801ABC, 0xFFC00222), dict(target="gfx1201"), 0x7FC01ABC,
     "the first NaN (src0, signalling) with its quiet bit"),
    ("fma", np.uint16, (0x3C00, 0xFC12, 0x7E01), dict(target="gfx1100", mode=0xF0 | IEEE), 0xFE12,
     "src1's signalling NaN, quieted under IEEE = 1"),
    ("subrev", np.uint32, (0x7FC00001, 0xFFC00002), dict(target="gfx1030"), 0x7FC00001,
     "SUBREV also prefers src0"),
    # OMOD and CLAMP.
    ("mul", np.uint16, (0x3E00, 0x7BFF), dict(target="gfx1030", mode=0x00, omod="div:2"), 0x7C00,
     "rounding before OMOD: inf / 2 = inf"),
    ("add", np.uint16, (0x8800, 0x0478), dict(target="gfx1201", mode=0x00, omod="mul:4"), 0x0000,
     "-(904/1024) 2^-14 is tiny: -0, and OMOD of a zero is +0"),
    ("add", np.uint16, (0x8400, 0x0000), dict(target="gfx1201", mode=0xFF, omod="div:2"), 0x8000,
     "-min_normal halved: -0"),
    ("mul", np.uint16, (0x3C00, 0x4000), dict(target="gfx1100", mode=IEEE, omod="div:2"), 0x4000,
     "IEEE = 1: div:2 ignored, 1 x 2 = 2"),
    ("add", np.uint32, (0x3F800000, 0x3F800000), dict(target="gfx1201", clamp=True), 0x3F800000,
     "1 + 1 = 2 clamps to 1.0"),
    # Modifiers per source.
    ("fma", np.uint32, (0x40000000, 0x40400000, 0x40E00000),
     dict(target="gfx1201", neg=(False, False, True)), 0xBF800000, "2 x 3 - 7 = -1"),
    ("fma", np.uint32, (0x40000000, 0x40400000, 0x40E00000),
     dict(target="gfx1201", abs=(False, True, False), neg=[False, True, False]), 0x3F800000,
     "2 x -|3| + 7 = 1"),
    ("sub", np.uint32, (0x40000000, 0x40400000), dict(target="gfx1201", neg=(np.bool_(True), False)), 0xC0A00000,
     "-2 - 3 = -5"),
]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e[0]}-{e[5][:40]}")
def test_examples_with_hand_derived_bits(example):
    op, dtype, srcs, kw, want, _how = example
    assert hex(one(op, dtype, *srcs, **kw)) == hex(want)


FLOAT = {np.uint16: np.float16, np.uint32: np.float32, np.uint64: np.float64}
# 1.5 + 2.25 = 3.75 and 1.5 x 2.25 = 3.375 = 1.1011b x 2^1, per format.
SUMS = {
    np.uint16: (0x3E00, 0x4080, 0x4380, 0x42C0),
    np.uint32: (0x3FC00000, 0x40100000, 0x40700000, 0x40580000),
    np.uint64: (0x3FF8000000000000, 0x4002000000000000, 0x400E000000000000, 0x400B000000000000),
}


@pytest.mark.parametrize("dtype", list(SUMS))
def test_every_format_dtype_layout_and_out(dtype):
    a, b, s, p = SUMS[dtype]
    x = np.full((4, 6), a, dtype=dtype)
    y = np.full((4, 6), b, dtype=dtype)
    assert av.add(x, y, target="gfx1100").tolist() == [[s] * 6] * 4
    assert av.mul(x.T, y.T, target="gfx1100").tolist() == [[p] * 4] * 6
    r = av.add(x.view(FLOAT[dtype]), y.view(FLOAT[dtype]), target="gfx1201")
    assert r.dtype == FLOAT[dtype] and r.view(dtype).tolist() == [[s] * 6] * 4
    # Strided and reversed sources.
    assert av.add(x[:, ::2], y[::-1, 1::2], target="gfx1030").tolist() == [[s] * 3] * 4
    # out, and in place on either source.
    out = np.empty_like(x)
    assert av.add(x, y, target="gfx1201", out=out) is out and out.tolist() == [[s] * 6] * 4
    xi = x.copy()
    assert av.mul(xi, y, target="gfx1201", out=xi) is xi and xi.tolist() == [[p] * 6] * 4
    yi = y.copy()
    assert av.mul(x, yi, target="gfx1201", out=yi) is yi and yi.tolist() == [[p] * 6] * 4
    # In place with a source that is a reversed view of out: each lane
    # must read the sources as they were, a + b = b + a in every lane.
    xr = np.array([a, b] * 3, dtype=dtype)
    assert av.add(xr[::-1], xr, target="gfx1201", out=xr).tolist() == [s] * 6
    # Empty and 0-d.
    assert av.fma(x[:0], y[:0], x[:0], target="gfx1201").shape == (0, 6)
    assert int(av.add(x[:1, :1].reshape(()), y[:1, :1].reshape(()), target="gfx1201")) == s


def test_in_place_on_any_fma_source():
    # fma(2, 3, 1) = 7 (0x40e00000) whichever source is the output.
    srcs = [np.full(70, v, dtype=np.uint32) for v in (0x40000000, 0x40400000, 0x3F800000)]
    for k in range(3):
        arrays = [s.copy() for s in srcs]
        r = av.fma(*arrays, target="gfx1201", out=arrays[k])
        assert r is arrays[k] and r.tolist() == [0x40E00000] * 70


def test_sub_and_subrev_have_no_f64():
    x = np.zeros(3, dtype=np.uint64)
    for op in (av.sub, av.subrev):
        with pytest.raises(TypeError, match="no f64 form"):
            op(x, x, target="gfx1201")
        with pytest.raises(TypeError, match="no f64 form"):
            op(x.view(np.float64), x.view(np.float64), target="gfx1201")


@pytest.mark.parametrize("call, exc, words", [
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(3, np.uint16), target="gfx1201"), TypeError, "b has dtype"),
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(3, np.float32), target="gfx1201"), TypeError, "b has dtype"),
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(4, np.uint32), target="gfx1201"), ValueError, "b has shape"),
    (lambda: av.fma(np.zeros(3, np.uint32), np.zeros(3, np.uint32), np.zeros((3, 1), np.uint32),
                    target="gfx1201"), ValueError, "c has shape"),
    (lambda: av.mul(np.zeros(3, np.int32), np.zeros(3, np.int32), target="gfx1201"), TypeError, "a has dtype"),
    (lambda: av.mul(np.zeros(3, np.uint32), [0, 0, 0], target="gfx1201"), TypeError, "b must be a numpy.ndarray"),
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(3, np.uint32), target="gfx1201", abs=True),
     TypeError, "sequence of 2 bools"),
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(3, np.uint32), target="gfx1201", neg=(True,)),
     ValueError, "1 entries"),
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(3, np.uint32), target="gfx1201", neg=(True, False, True)),
     ValueError, "3 entries"),
    (lambda: av.fma(*[np.zeros(3, np.uint32)] * 3, target="gfx1201", abs=(1, 0, 0)), TypeError, "bools"),
    (lambda: av.fma(*[np.zeros(3, np.uint32)] * 3, target="gfx1201", abs="abc"), TypeError, "bools"),
    (lambda: av.add(np.zeros(3, np.uint32), np.zeros(3, np.uint32), target="gfx9"), av.Error, "gfx9"),
    (lambda: av.sub(np.zeros(3, np.uint32), np.zeros(3, np.uint32), target="gfx1201", omod=5),
     ValueError, "omod"),
])
def test_refused_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()
