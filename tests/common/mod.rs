//! Shared harness for behaviour tests: run one instruction on a poisoned
//! wave and check every bit the way a capture row is checked.

#![allow(dead_code)]

use amdgpu_valu::{execute, Instruction, Target, Wave};

/// A register assignment: `V(n, value)` a 32-bit VGPR in every lane,
/// `Pair(n, value)` a 64-bit VGPR pair (low dword in vN).
#[derive(Clone, Copy, Debug)]
pub enum Reg {
    V(usize, u32),
    Pair(usize, u64),
}

/// The lane left inactive in every check.
pub const INACTIVE_LANE: usize = 5;

/// Poison for registers not named in the inputs: distinct per register so a
/// stray write is visible.
pub fn poison(reg: usize) -> u32 {
    0x5eed_0000 ^ (reg as u32).wrapping_mul(0x9e37_79b9)
}

fn set(wave: &mut Wave, regs: &[Reg]) {
    for r in regs {
        match *r {
            Reg::V(n, v) => wave.set_vgpr_all(n, v).expect("input register in range"),
            Reg::Pair(n, v) => wave.set_vgpr64_all(n, v).expect("input pair in range"),
        }
    }
}

/// Run `instr` on `target` with `mode`, every lane but [`INACTIVE_LANE`]
/// active, and check that active lanes hold `expected`, and that the
/// inactive lane and every other register (VGPRs 0..16) are unchanged.
pub fn check(target: &str, mode: u32, instr: Instruction, inputs: &[Reg], expected: &[Reg]) {
    let target: Target = target.parse().expect("known target");
    let mut wave = Wave::for_target(target);
    for r in 0..16 {
        wave.set_vgpr_all(r, poison(r)).expect("in range");
    }
    set(&mut wave, inputs);
    wave.set_mode(mode);
    wave.set_exec(wave.size().exec_mask() & !(1 << INACTIVE_LANE));
    let before = wave.clone();
    execute(target, &mut wave, &instr).unwrap_or_else(|e| panic!("{target} {instr:?}: {e}"));

    let mut want = before.clone();
    for lane in 0..wave.lanes() {
        if lane == INACTIVE_LANE {
            continue;
        }
        for r in expected {
            match *r {
                Reg::V(n, v) => want.set_vgpr(n, lane, v).expect("in range"),
                Reg::Pair(n, v) => want.set_vgpr64(n, lane, v).expect("in range"),
            }
        }
    }
    for r in 0..16 {
        for lane in 0..wave.lanes() {
            let (got, exp) = (
                wave.vgpr(r, lane).expect("in range"),
                want.vgpr(r, lane).expect("in range"),
            );
            assert_eq!(
                got, exp,
                "{target} mode {mode:#010x} {instr:?}: v{r} lane {lane}: expected {exp:#010x}, got {got:#010x}"
            );
        }
    }
}

use amdgpu_valu::{Encoding, FloatConst, Omod, Opcode, Operand};

/// VOP3 modifiers for [`vop3`].
#[derive(Clone, Copy, Debug, Default)]
pub struct M {
    pub abs: bool,
    pub neg: bool,
    pub omod: Omod,
    pub clamp: bool,
}

/// No modifiers.
pub const PLAIN: M = M {
    abs: false,
    neg: false,
    omod: Omod::None,
    clamp: false,
};

impl M {
    pub fn omod(o: Omod) -> M {
        M { omod: o, ..PLAIN }
    }
    pub fn clamp() -> M {
        M {
            clamp: true,
            ..PLAIN
        }
    }
}

fn is_true16(target: Target) -> bool {
    target.spec().true16.value
}

/// Run `opcode` in its VOP3 form on `target` under `mode` with src0 = `src0`
/// (raw bits of the format, in v2 or v[2:3]) and src1 = `src1` (v4, LDEXP
/// only), and return the raw result bits of lane 0. Every lane but
/// [`INACTIVE_LANE`] is active; the inactive lane, and the high half of an
/// F16 destination on targets that preserve it, are checked unchanged.
pub fn vop3(target: &str, mode: u32, opcode: Opcode, src0: u64, src1: u32, m: M) -> u64 {
    run_form(target, mode, opcode, Encoding::Vop3, src0, src1, m)
}

/// As [`vop3`] for any encoding (e32 forms take no modifiers).
pub fn run_form(
    target: &str,
    mode: u32,
    opcode: Opcode,
    encoding: Encoding,
    src0: u64,
    src1: u32,
    m: M,
) -> u64 {
    let t: Target = target.parse().expect("known target");
    let bits = opcode.format().bits();
    let half = |n: u16| {
        if bits == 16 && is_true16(t) {
            Operand::v_lo(n)
        } else {
            Operand::v(n)
        }
    };
    let mut instr = if opcode.is_ldexp() {
        Instruction::binary(opcode, encoding, half(0), half(2), half(4))
    } else {
        Instruction::unary(opcode, encoding, half(0), half(2))
    };
    instr.src0_mods.abs = m.abs;
    instr.src0_mods.neg = m.neg;
    instr.omod = m.omod;
    instr.clamp = m.clamp;
    let mut wave = Wave::for_target(t);
    let dst_poison: u64 = 0xa5a5_a5a5_a5a5_a5a5;
    wave.set_vgpr64_all(0, dst_poison).expect("in range");
    match bits {
        64 => wave.set_vgpr64_all(2, src0).expect("in range"),
        32 => wave.set_vgpr_all(2, src0 as u32).expect("in range"),
        // Junk in the unused high half must be ignored.
        _ => wave
            .set_vgpr_all(2, 0x5a5a_0000 | (src0 as u32 & 0xffff))
            .expect("in range"),
    }
    wave.set_vgpr_all(4, src1).expect("in range");
    wave.set_mode(mode);
    wave.set_exec(wave.size().exec_mask() & !(1 << INACTIVE_LANE));
    execute(t, &mut wave, &instr).unwrap_or_else(|e| panic!("{target} {instr:?}: {e}"));
    assert_eq!(
        wave.vgpr64(0, INACTIVE_LANE).expect("in range"),
        dst_poison,
        "inactive lane written"
    );
    let out = wave.vgpr64(0, 0).expect("in range");
    match bits {
        64 => out,
        32 => {
            assert_eq!(out >> 32, dst_poison >> 32, "v1 written by an F32 result");
            out & 0xffff_ffff
        }
        _ => {
            let high = (out >> 16) & 0xffff;
            if t.spec().f16_dst_high.value == amdgpu_valu::F16DstHigh::Zero && !is_true16(t) {
                assert_eq!(high, 0, "GFX9 zeroes the high half of an F16 result");
            } else {
                assert_eq!(high, 0xa5a5, "high half of an F16 result not preserved");
            }
            out & 0xffff
        }
    }
}

/// The F16/F32/F64 encoding of an inline float constant, for readability.
pub fn konst(c: FloatConst, opcode: Opcode) -> u64 {
    c.bits(opcode.format())
}

/// The crate's seeded generator (SplitMix64): every run sees the same
/// cases and failures reproduce.
#[allow(unused_imports)] // not every test that includes this module draws
pub use amdgpu_valu::__testing::Rng;
