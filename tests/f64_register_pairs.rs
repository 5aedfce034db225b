//! An F64 operand is the pair v[n+1]:v[n] in every lane (docs/semantics.md
//! §3): `execute` joins each lane's two words into one encoding before the
//! kernel and splits the result back. These tests give every lane of a
//! wave64 its own low and high word, so a lane read from or written to the
//! wrong lane, or with its words swapped, changes a checked word. Both
//! loops are covered: every lane active, and EXEC with lanes off (whose old
//! destination words must stay).
//!
//! The operations are exact on these inputs (a doubling, or FRACT of a
//! value in [1, 2)), so every expected word is derived by hand below and
//! holds under any rounding mode.

use amdgpu_valu::{execute, Encoding, Instruction, Opcode, Operand, Target, Wave, WaveSize};

const LANES: usize = 64;
/// The old destination words, kept by the lanes EXEC leaves off.
const OLD_LO: u32 = 0xa5a5_a5a5;
const OLD_HI: u32 = 0x5a5a_5a5a;
/// Lanes on in the partial-EXEC runs: every other pair of lanes, so the
/// lanes off sit in every 64-bit vector of the loop.
const EXEC_PARTIAL: u64 = 0x3333_3333_3333_3333;

/// Source lane `i`: 1.5 + 2^-52 * (i * 2^32 + i), all lanes different
/// in both words: high word 0x3ff8_0000 | i (sign 0, exponent 0x3ff,
/// fraction bit 51 set for the 0.5 and i in bits 32..38 of the fraction),
/// low word i.
fn source(i: usize) -> (u32, u32) {
    (i as u32, 0x3ff8_0000 | i as u32)
}

/// Twice source lane `i` (the biased exponent 0x3ff + 1 = 0x400, the
/// fraction unchanged): high word 0x4008_0000 | i, low word i.
fn doubled(i: usize) -> (u32, u32) {
    (i as u32, 0x4008_0000 | i as u32)
}

/// FRACT of source lane `i`: 1.5 + f - 1 = 0.5 + f with f = 2^-52 * (i *
/// 2^32 + i), exact. 0.5 + f = 2^-1 * (1 + 2f): exponent 0x3fe, fraction
/// 2f, i.e. the fraction bits shifted left by one (i * 2^33 + 2i): high
/// word 0x3fe0_0000 | 2i, low word 2i.
fn fract(i: usize) -> (u32, u32) {
    (2 * i as u32, 0x3fe0_0000 | (2 * i as u32))
}

/// A wave64 of gfx1201, MODE 0xf0 (round to nearest even, denormals kept),
/// v[0:1] = source lane by lane, v[2:3] = the same, v4 = 1 (LDEXP's
/// exponent), v[6:7] = the old destination words, EXEC = `exec`.
fn wave(exec: u64) -> Wave {
    let mut w = Wave::for_target_with_size(Target::Gfx1201, WaveSize::Wave64).expect("wave64");
    w.set_mode(0xf0);
    for i in 0..LANES {
        let (lo, hi) = source(i);
        for (r, x) in [
            (0, lo),
            (1, hi),
            (2, lo),
            (3, hi),
            (4, 1),
            (6, OLD_LO),
            (7, OLD_HI),
        ] {
            w.set_vgpr(r, i, x).expect("in range");
        }
    }
    w.set_exec(exec);
    w
}

/// Run `instr` (writing v[6:7]) under `exec` and check every lane: the
/// expected words where EXEC is on, the old ones where it is off.
fn check(instr: &Instruction, exec: u64, expected: fn(usize) -> (u32, u32)) {
    let mut w = wave(exec);
    execute(Target::Gfx1201, &mut w, instr).expect("executes");
    for i in 0..LANES {
        let want = if exec >> i & 1 != 0 {
            expected(i)
        } else {
            (OLD_LO, OLD_HI)
        };
        let got = (w.vgpr(6, i).expect("lane"), w.vgpr(7, i).expect("lane"));
        assert_eq!(
            got, want,
            "{:?} lane {i} (exec {exec:#x}): (lo, hi) {got:#x?}, expected {want:#x?}",
            instr.opcode
        );
    }
}

fn under_both_execs(instr: &Instruction, expected: fn(usize) -> (u32, u32)) {
    check(instr, u64::MAX, expected);
    check(instr, EXEC_PARTIAL, expected);
}

#[test]
fn v_add_f64_of_a_lane_with_itself_doubles_every_lane_pair() {
    let i = Instruction::binary(
        Opcode::AddF64,
        Encoding::Vop3,
        Operand::v(6),
        Operand::v(0),
        Operand::v(2),
    );
    under_both_execs(&i, doubled);
}

#[test]
fn v_mul_f64_by_2_doubles_every_lane_pair() {
    // 2.0 as an inline constant (F64 2.0 = 0x4000_0000_0000_0000).
    let i = Instruction::binary(
        Opcode::MulF64,
        Encoding::Vop3,
        Operand::v(6),
        Operand::v(0),
        Operand::InlineFloat(amdgpu_valu::FloatConst::Two),
    );
    under_both_execs(&i, doubled);
}

#[test]
fn v_fma_f64_times_1_plus_itself_doubles_every_lane_pair() {
    // a * 1.0 + a = 2a, exact.
    let i = Instruction::ternary(
        Opcode::FmaF64,
        Encoding::Vop3,
        Operand::v(6),
        Operand::v(0),
        Operand::InlineFloat(amdgpu_valu::FloatConst::One),
        Operand::v(2),
    );
    under_both_execs(&i, doubled);
}

#[test]
fn v_ldexp_f64_by_1_doubles_every_lane_pair() {
    let i = Instruction::binary(
        Opcode::LdexpF64,
        Encoding::Vop3,
        Operand::v(6),
        Operand::v(0),
        Operand::v(4),
    );
    under_both_execs(&i, doubled);
}

#[test]
fn v_fract_f64_keeps_every_lane_pair_fraction() {
    for enc in [Encoding::Vop1, Encoding::Vop3] {
        let i = Instruction::unary(Opcode::FractF64, enc, Operand::v(6), Operand::v(0));
        under_both_execs(&i, fract);
    }
}
