"""Instructions, waves, execute() and replay(): LLVM's bytes and text from
tests/fixtures/encodings, hardware rows from tests/captures/hw-public.tsv."""

import numpy as np
import pytest

import amdgpu_valu as av

from conftest import HW_PUBLIC, hw_rows

# llvm-mc 22 bytes (tests/fixtures/encodings/gfx1201.txt, docs/captures.md).
LDEXP_MUL2 = "v_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2"
LDEXP_MUL2_BYTES = bytes([0x00, 0x00, 0x3B, 0xD5, 0x01, 0x05, 0x02, 0x08])
FRACT_BYTES = bytes([0x02, 0x41, 0x02, 0x7E])  # v_fract_f32 v1, v2


def test_assemble_decode_disassemble_match_llvm():
    assert av.assemble(LDEXP_MUL2, target="gfx1201") == LDEXP_MUL2_BYTES
    assert av.assemble("v_fract_f32 v1, v2", target="gfx1201") == FRACT_BYTES
    i = av.decode(FRACT_BYTES + b"\xff\xff", target="gfx1201")
    assert (i.text, i.bytes, i.opcode, i.target) == ("v_fract_f32_e32 v1, v2", FRACT_BYTES, "v_fract_f32", "gfx1201")
    assert av.disassemble(LDEXP_MUL2_BYTES, target="gfx1201") == LDEXP_MUL2
    parsed = av.Instruction(LDEXP_MUL2, target="gfx1201")
    assert parsed.bytes == LDEXP_MUL2_BYTES
    assert parsed == av.decode(LDEXP_MUL2_BYTES, target="gfx1201")
    assert repr(parsed) == f"Instruction('{LDEXP_MUL2}', target='gfx1201')"
    assert av.targets()[0] == "gfx908" and len(av.targets()) == 10


def test_machine_code_errors_name_where():
    with pytest.raises(av.AssemblyError, match=r"column \d+: invalid mul"):
        av.assemble("v_fract_f32 v0, v1 mul:3", target="gfx1201")
    with pytest.raises(av.AssemblyError, match="column"):
        av.Instruction("", target="gfx1201")
    with pytest.raises(av.DecodeError, match="byte offset 4"):
        av.decode(LDEXP_MUL2_BYTES[:5], target="gfx1201")
    with pytest.raises(av.DecodeError, match="truncated"):
        av.decode(b"", target="gfx1201")
    with pytest.raises(av.Error, match="unknown target"):
        av.decode(FRACT_BYTES, target="gfx12")
    with pytest.raises(TypeError):
        av.decode("not bytes", target="gfx1201")
    assert issubclass(av.AssemblyError, av.Error) and issubclass(av.Error, ValueError)
    assert issubclass(av.DecodeError, av.Error) and issubclass(av.ExecError, av.Error)
    # Random words never crash the decoder: they decode or raise DecodeError.
    rng = np.random.default_rng(7)
    for word in rng.integers(0, 2**63, size=2000, dtype=np.uint64):
        try:
            av.decode(int(word).to_bytes(8, "little"), target="gfx1100")
        except av.DecodeError:
            pass


def run_row_on_wave(row):
    """Run one capture row with Wave and execute(); return the mismatches."""
    line, target, mode, instr, inputs, expected = row
    w = av.Wave(target, lanes=inputs.get("wave"), mode=mode)
    if "exec" in inputs:
        w.exec = inputs["exec"]
    for key, value in inputs.items():
        if key in ("wave", "exec"):
            continue
        kind, n, *lane = key
        if kind == "s":
            w.s[n] = value
        elif kind == "v":
            w.v[n, lane[0] if lane else slice(None)] = value
        else:
            w.set_v64(n, value)
    before = w.v.copy()
    av.execute(w, instr)
    want = before.copy()
    active = [(w.exec >> lane) & 1 == 1 for lane in range(w.lanes)]
    for (kind, n, *lane), value in expected.items():
        lanes = lane or [l for l in range(w.lanes) if active[l]]
        for l in lanes:
            if kind == "v":
                want[n, l] = value
            else:
                want[n, l], want[n + 1, l] = value & 0xFFFFFFFF, value >> 32
    return np.argwhere(w.v != want)


@pytest.mark.parametrize("row", hw_rows(), ids=lambda r: f"line{r[0]}")
def test_public_hardware_rows_on_a_wave(row):
    wrong = run_row_on_wave(row)
    assert len(wrong) == 0, f"{row[3]}: registers/lanes {wrong.tolist()[:4]} differ"


def test_replay_of_the_public_rows_and_its_failures():
    text = HW_PUBLIC.read_text()
    r = av.replay(text)
    assert (r.passed, r.failed, r.failures, r.ok) == (64, 0, [], True)
    assert repr(r) == "ReplayResult(passed=64, failed=0)"
    # One expectation changed: that row fails, naming the register.
    broken = text.replace("v0=0x3f7fffff", "v0=0x3f800000", 1)
    r = av.replay(broken)
    assert (r.passed, r.failed, r.ok) == (63, 1, False)
    assert "FAIL gfx1201" in r.failures[0]
    assert "v0: expected 0x3f800000, actual 0x3f7fffff" in r.failures[0]
    r = av.replay("gfx9\t0x0\tv_fract_f32 v0, v1\tv1=0x0\tv0=0x0\n\x00\xff junk\n")
    assert r.failed == 2 and r.failures[0].startswith("1:1: malformed row: unknown target")


def test_wave_registers_are_views():
    w = av.Wave("gfx1201")
    assert (w.target, w.lanes, w.mode, w.exec) == ("gfx1201", 32, 0, 0xFFFFFFFF)
    assert w.v.shape == (256, 32) and w.v.dtype == np.uint32
    assert w.s.shape == (106,) and w.s.dtype == np.uint32
    assert w.v is not None and np.shares_memory(w.v, w.v)
    w.v[3, 7] = 0x12345678
    assert w.v[3, 7] == 0x12345678
    w.set_v64(4, 0x3FF0000000000001)
    assert w.v64(4).tolist() == [0x3FF0000000000001] * 32
    assert (w.v[4, 0], w.v[5, 0]) == (1, 0x3FF00000)
    w.exec = (1 << 64) - 1
    assert w.exec == 0xFFFFFFFF
    # v_fract_f64 on a pair: 1.5 -> 0.5 [docs/semantics.md §4], in every lane
    # but the inactive lane 3, which keeps its bits.
    w.set_v64(2, 0x3FF8000000000000)
    w.v[0] = 0xDEADBEEF
    w.v[1] = 0xDEADBEEF
    w.exec = 0xFFFFFFF7
    w.mode = 0xF0
    av.execute(w, av.Instruction("v_fract_f64 v[0:1], v[2:3]", target="gfx1201"))
    got = w.v64(0)
    assert got[3] == 0xDEADBEEFDEADBEEF
    assert set(np.delete(got, 3).tolist()) == {0x3FE0000000000000}
    assert repr(av.Wave("gfx908")) == "Wave('gfx908', lanes=64, mode=0x0, exec=0xffffffffffffffff)"


def test_wave_errors():
    with pytest.raises(ValueError, match="32 or 64"):
        av.Wave("gfx1201", lanes=16)
    with pytest.raises(av.ExecError, match="wave32"):
        av.Wave("gfx908", lanes=32)
    w = av.Wave("gfx1201")
    with pytest.raises(av.ExecError, match="for gfx1100"):
        av.execute(w, av.Instruction("v_fract_f32 v0, v1", target="gfx1100"))
    with pytest.raises(av.AssemblyError):
        av.execute(w, "v_fract_f32 v0")
    with pytest.raises(TypeError, match="Instruction"):
        av.execute(w, 42)
    with pytest.raises(av.ExecError, match="out of range"):
        w.v64(255)
    with pytest.raises(ValueError, match="32 lanes"):
        w.set_v64(0, np.zeros(31, dtype=np.uint64))
    with pytest.raises(TypeError):
        w.set_v64(0, np.zeros(32, dtype=np.int8))
    # w.v is a new view at each read: reshaping it leaves the registers be.
    view = w.v
    view.shape = (32, 256)
    assert w.v.shape == (256, 32)
    av.execute(w, "v_fract_f32 v0, v1")
    # The array behind the views, reshaped in place, is refused, not read
    # out of bounds (test_hostile.py tries every such change).
    w.v.base.shape = (32, 256)
    with pytest.raises(ValueError, match=r"wave.v has shape \(32, 256\), expected \(256, 32\)"):
        av.execute(w, "v_fract_f32 v0, v1")
