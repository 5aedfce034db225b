"""fract() and ldexp() on NumPy arrays: hardware rows, every dtype and
length, non-contiguous and in-place arrays, and refused input.

Expected bits come from tests/captures/hw-public.tsv and from rules of
docs/semantics.md (FRACT of an integer is +0, of 1.5 is 0.5; +inf gives the
default NaN), never from the package itself.
"""

import re

import numpy as np
import pytest

import amdgpu_valu as av

from conftest import hw_rows

UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
FLOAT = {16: np.float16, 32: np.float32, 64: np.float64}


def lane_form(row):
    """A row of an e32/e64 instruction as one lane call: (op, width, kwargs,
    src, exp, want), or None for forms the lane API does not model (SDWA)."""
    line, target, mode, instr, inputs, expected = row
    m = re.fullmatch(r"v_(fract|ldexp)_f(16|32|64)(_e32|_e64)? (.*)", instr)
    if not m:
        return None
    op, width = m[1], int(m[2])
    words = m[4].split()
    flags = {w for w in words if not w.startswith(("v", "-", "|"))}
    operands = [w.rstrip(",") for w in words if w not in flags]
    kwargs = dict(target=target, mode=mode, clamp="clamp" in flags)
    for f in flags - {"clamp"}:
        kwargs["omod"] = f
    src = operands[1]
    kwargs["neg"] = src.startswith("-")
    kwargs["abs"] = "|" in src

    def read(reg, table):
        reg = reg.strip("-|")
        if p := re.fullmatch(r"v\[(\d+):\d+\]", reg):
            return table[("pair", int(p[1]))]
        n = int(re.match(r"v(\d+)", reg)[1])
        word = table[("v", n)]
        if width == 16 or reg.endswith((".l", ".h")):
            return word >> 16 if reg.endswith(".h") else word
        return word

    value = read(src, inputs)
    if width == 16:
        value &= 0xFFFF
    exp = read(operands[2], inputs) if op == "ldexp" else None
    want = read(operands[0], expected)
    if width == 16:
        want &= 0xFFFF
    return op, width, kwargs, value, exp, want


LANE_ROWS = [r for r in hw_rows() if lane_form(r)]


def call(op, x, exp, **kwargs):
    if op == "fract":
        return av.fract(x, **kwargs)
    return av.ldexp(x, exp, **kwargs)


@pytest.mark.parametrize("row", LANE_ROWS, ids=lambda r: f"line{r[0]}")
@pytest.mark.parametrize("n", [1, 3, 64, 65])
def test_public_hardware_rows_through_arrays(row, n):
    op, width, kwargs, value, exp, want = lane_form(row)
    x = np.full(n, value, dtype=UINT[width])
    e = None if exp is None else np.full(n, exp, dtype=np.uint32)
    got = call(op, x, e, **kwargs)
    assert got.dtype == UINT[width] and got.shape == (n,)
    assert [hex(v) for v in got] == [hex(want)] * n
    # The same bits through the float dtype of the format.
    got = call(op, x.view(FLOAT[width]), e, **kwargs)
    assert got.dtype == FLOAT[width]
    assert [hex(v) for v in got.view(UINT[width])] == [hex(want)] * n


def test_the_lane_rows_cover_every_op_and_format():
    forms = {(lane_form(r)[0], lane_form(r)[1]) for r in LANE_ROWS}
    assert forms == {(o, w) for o in ("fract", "ldexp") for w in (16, 32, 64)}
    assert len(LANE_ROWS) >= 60


# FRACT under MODE 0xf0 on gfx1201: +inf gives the default NaN [hw rows],
# 1.5 gives 0.5 and -2.0 gives +0 (docs/semantics.md §4).
KNOWN = {
    16: [(0x7C00, 0xFE00), (0x3E00, 0x3800), (0xC000, 0x0000)],
    32: [(0x7F800000, 0xFFC00000), (0x3FC00000, 0x3F000000), (0xC0000000, 0x0)],
    64: [(0x7FF0000000000000, 0xFFF8000000000000), (0x3FF8000000000000, 0x3FE0000000000000),
         (0xC000000000000000, 0x0)],
}


def tiled(width, n):
    pairs = KNOWN[width]
    src = np.array([pairs[i % 3][0] for i in range(n)], dtype=UINT[width])
    want = np.array([pairs[i % 3][1] for i in range(n)], dtype=UINT[width])
    return src, want


@pytest.mark.parametrize("width", [16, 32, 64])
@pytest.mark.parametrize("n", [0, 1, 2, 31, 63, 64, 65, 127, 128, 129, 1000])
@pytest.mark.parametrize("as_float", [False, True])
def test_every_dtype_and_length(width, n, as_float):
    src, want = tiled(width, n)
    x = src.view(FLOAT[width]) if as_float else src
    got = av.fract(x, target="gfx1201")
    assert got.dtype == x.dtype and got.shape == (n,)
    np.testing.assert_array_equal(got.view(UINT[width]), want)


@pytest.mark.parametrize("width", [16, 32, 64])
def test_non_contiguous_and_multidimensional_arrays(width):
    src, want = tiled(width, 300)
    big = np.zeros(600, dtype=UINT[width])
    big[::2] = src
    np.testing.assert_array_equal(av.fract(big[::2], target="gfx1201"), want)
    np.testing.assert_array_equal(av.fract(src[::-1], target="gfx1201"), want[::-1])
    grid = src.reshape(20, 15)
    np.testing.assert_array_equal(av.fract(grid, target="gfx1201"), want.reshape(20, 15))
    np.testing.assert_array_equal(av.fract(grid.T, target="gfx1201"), want.reshape(20, 15).T)
    np.testing.assert_array_equal(av.fract(np.asfortranarray(grid), target="gfx1201"), want.reshape(20, 15))
    zero_d = np.array(src[1])
    assert av.fract(zero_d, target="gfx1201").shape == ()
    assert int(av.fract(zero_d, target="gfx1201")) == int(want[1])


def test_ldexp_exponents_as_arrays_and_ints():
    # gfx1201 MODE 0xf0: 0x0401 x 2^-1 = 0x0200, 1.0 x 2^0x7fff = +inf [hw rows];
    # F16 reads bits 15:0 of the exponent register as i16.
    h = np.array([0x0401, 0x3C00], dtype=np.uint16)
    for e in (np.array([0x5A5AFFFF, 0x5A5A7FFF], dtype=np.uint32),
              np.array([-1, 0x7FFF], dtype=np.int32),
              np.array([-1, 0x7FFF], dtype=np.int64),
              np.array([-1, 0x7FFF], dtype=np.int16)):
        assert [hex(v) for v in av.ldexp(h, e, target="gfx1201")] == ["0x200", "0x7c00"]
    # An int applies to every lane: F32 0x80800000 x 2^-24 toward -inf is
    # -min subnormal on gfx1100 (MODE 0xfa) [hw row].
    x = np.full(70, 0x80800000, dtype=np.uint32)
    assert set(av.ldexp(x, -24, target="gfx1100", mode=0xFA).tolist()) == {0x80000001}
    assert set(av.ldexp(x, 0xFFFFFFE8, target="gfx1100", mode=0xFA).tolist()) == {0x80000001}


def test_out_and_in_place():
    src, want = tiled(32, 100)
    out = np.empty_like(src)
    r = av.fract(src, target="gfx1201", out=out)
    assert r is out
    np.testing.assert_array_equal(out, want)
    x = src.copy()
    av.fract(x, target="gfx1201", out=x)
    np.testing.assert_array_equal(x, want)
    f = src.view(np.float32).copy()
    av.fract(f, target="gfx1201", out=f)
    np.testing.assert_array_equal(f.view(np.uint32), want)
    # ldexp in place, exponent 0: unchanged finite values, +inf kept [§5.1].
    x = np.array([0x3FC00000, 0x7F800000], dtype=np.uint32)
    av.ldexp(x, 0, target="gfx1201", out=x)
    assert x.tolist() == [0x3FC00000, 0x7F800000]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
                                   np.complex64, np.longdouble, object, ">u4", "<U3"])
def test_wrong_dtypes_are_refused(dtype):
    x = np.zeros(4, dtype=dtype)
    with pytest.raises(TypeError, match="dtype"):
        av.fract(x, target="gfx1201")
    with pytest.raises(TypeError, match="dtype"):
        av.ldexp(x, 0, target="gfx1201")


def test_wrong_types_shapes_and_values_are_refused():
    x = np.zeros(4, dtype=np.uint32)
    with pytest.raises(TypeError, match="numpy.ndarray"):
        av.fract([1, 2, 3], target="gfx1201")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        av.fract(None, target="gfx1201")
    with pytest.raises(ValueError, match="shape"):
        av.ldexp(x, np.zeros(5, dtype=np.int32), target="gfx1201")
    with pytest.raises(ValueError, match="shape"):
        av.ldexp(x, np.zeros((4, 1), dtype=np.int32), target="gfx1201")
    with pytest.raises(TypeError, match="integer"):
        av.ldexp(x, np.zeros(4, dtype=np.float32), target="gfx1201")
    with pytest.raises(TypeError):
        av.ldexp(x, 1.5, target="gfx1201")
    with pytest.raises(TypeError):
        av.ldexp(x, True, target="gfx1201")
    with pytest.raises(ValueError, match="32-bit"):
        av.ldexp(x, 1 << 32, target="gfx1201")
    with pytest.raises(ValueError, match="32-bit"):
        av.ldexp(x, np.array([0, 0, 0, 1 << 40], dtype=np.int64), target="gfx1201")
    with pytest.raises(ValueError, match="32-bit"):
        av.ldexp(x, np.array([0, 0, 0, 1 << 63], dtype=np.uint64), target="gfx1201")
    with pytest.raises(TypeError, match="dtype"):
        av.fract(x, target="gfx1201", out=np.zeros(4, dtype=np.uint16))
    with pytest.raises(ValueError, match="shape"):
        av.fract(x, target="gfx1201", out=np.zeros(5, dtype=np.uint32))
    with pytest.raises(ValueError, match="contiguous"):
        av.fract(x, target="gfx1201", out=np.zeros(8, dtype=np.uint32)[::2])
    ro = np.zeros(4, dtype=np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        av.fract(x, target="gfx1201", out=ro)
    for omod in (4, -1, "mul:3"):
        with pytest.raises(ValueError, match="omod"):
            av.fract(x, target="gfx1201", omod=omod)
    with pytest.raises(TypeError, match="omod"):
        av.fract(x, target="gfx1201", omod=2.0)
    with pytest.raises(av.Error, match="unknown target `gfx9`"):
        av.fract(x, target="gfx9")
    with pytest.raises(OverflowError):
        av.fract(x, target="gfx1201", mode=-1)
    with pytest.raises(TypeError):
        av.fract(x)  # target is required


def test_a_large_array():
    src, want = tiled(32, 1 << 20)
    np.testing.assert_array_equal(av.fract(src, target="gfx1201"), want)
