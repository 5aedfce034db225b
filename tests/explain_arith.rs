//! `explain` of the arithmetic instructions names the rule that decided
//! the lane (docs/semantics.md §12): which NaN won, invalid operations,
//! tininess and the flush, overflow and FP16_OVFL, OMOD. Bits derived by
//! hand; the random suite (`exec_arith_random.rs`) checks that every
//! explanation ends in the reference's result.

use amdgpu_valu::explain::{explain, Explanation};
use amdgpu_valu::{execute, Encoding, Instruction, Omod, Opcode, Operand, Target, Wave};

/// Explain lane 0 of `instr` on `t` (MODE `mode`, VGPR n = `regs[n]`),
/// check its result is what `execute` writes, and return it.
fn why(t: Target, mode: u32, instr: &Instruction, regs: &[u32]) -> Explanation {
    let mut w = Wave::for_target(t);
    w.set_mode(mode);
    for (n, &r) in regs.iter().enumerate() {
        w.set_vgpr_all(n, r).expect("in range");
    }
    let ex = explain(t, &w, instr, 0).unwrap_or_else(|e| panic!("{e}"));
    execute(t, &mut w, instr).expect("executes");
    let width = instr.opcode.format().bits();
    let got = u64::from(w.vgpr(0, 0).expect("lane")) & if width == 16 { 0xffff } else { u64::MAX };
    assert_eq!(ex.result, got, "explain and execute disagree");
    ex
}

fn step<'a>(ex: &'a Explanation, stage: &str) -> &'a str {
    ex.steps
        .iter()
        .find(|s| s.stage == stage)
        .map(|s| s.text.as_str())
        .unwrap_or_else(|| panic!("no {stage} step in {ex:#?}"))
}

fn v(i: u16) -> Operand {
    Operand::v(i)
}

#[test]
fn invalid_operations() {
    // F16 FMA 0 x inf + NaN: 0 x inf wins, 0xfe00 (gfx1100, MODE 0xf0).
    let i = Instruction::ternary(
        Opcode::FmaF16,
        Encoding::Vop3,
        Operand::v_lo(0),
        Operand::v_lo(1),
        Operand::v_lo(2),
        Operand::v_lo(3),
    );
    let ex = why(Target::Gfx1100, 0xf0, &i, &[0, 0, 0x7c00, 0x7e01]);
    assert_eq!(ex.result, 0xfe00);
    assert!(step(&ex, "operation").contains("0 x inf"), "{ex:#?}");
    // +inf + -inf: 0xffc00000.
    let i = Instruction::binary(Opcode::AddF32, Encoding::Vop2, v(0), v(1), v(2));
    let ex = why(Target::Gfx1201, 0, &i, &[0, 0x7f80_0000, 0xff80_0000]);
    assert_eq!(ex.result, 0xffc0_0000);
    assert!(step(&ex, "operation").contains("inf - inf"), "{ex:#?}");
}

#[test]
fn which_nan_won() {
    let t = Target::Gfx1201; // quiets every NaN
                             // FMAMK: src0 = 1, K = 0x7f800003, the VGPR addend 0x7fc00222: K comes
                             // first in the encoding and is quieted: 0x7fc00003.
    let i = Instruction::ternary(
        Opcode::FmamkF32,
        Encoding::Vop2,
        v(0),
        v(1),
        Operand::Literal(0x7f80_0003),
        v(2),
    );
    let ex = why(t, 0, &i, &[0, 0x3f80_0000, 0x7fc0_0222]);
    assert_eq!(ex.result, 0x7fc0_0003);
    let op = step(&ex, "operation");
    assert!(
        op.contains("K is the first NaN in encoding order (src0, K, src2)"),
        "{op}"
    );
    assert!(step(&ex, "source").contains("K = 0x7f800003"), "{ex:#?}");
    // FMAC: the accumulator D alone is NaN.
    let i = Instruction::binary(Opcode::FmacF32, Encoding::Vop2, v(0), v(1), v(2));
    let ex = why(t, 0, &i, &[0x7fc0_0007, 0x3f80_0000, 0x3f80_0000]);
    assert_eq!(ex.result, 0x7fc0_0007);
    assert!(
        step(&ex, "operation").contains("D is the first NaN"),
        "{ex:#?}"
    );
}

#[test]
fn tiny_after_rounding_flushed_or_rounded() {
    // F32 MUL 0x00800000 x 0x3f7fffff = (1 - 2^-24) 2^-126: exact in 24
    // bits with an unbounded exponent and below 2^-126, so tiny. MODE 0x10
    // (F32 inputs kept, outputs flushed): +0.
    let i = Instruction::binary(Opcode::MulF32, Encoding::Vop3, v(0), v(1), v(2));
    let regs = [0xdead_beef, 0x0080_0000, 0x3f7f_ffff];
    let ex = why(Target::Gfx1100, 0x10, &i, &regs);
    assert_eq!(ex.result, 0);
    let op = step(&ex, "operation");
    assert!(
        op.contains("tiny after rounding") && op.contains("output subnormals are flushed"),
        "{op}"
    );
    // MODE 0x30 (outputs kept), nearest-even: half way between 0x007fffff
    // and 0x00800000 on the subnormal grid, to even: 0x00800000, rounded up.
    let ex = why(Target::Gfx1100, 0x30, &i, &regs);
    assert_eq!(ex.result, 0x0080_0000);
    let op = step(&ex, "operation");
    assert!(
        op.contains("tiny: rounded to a subnormal, inexact, rounded up (nearest-even)"),
        "{op}"
    );
}

#[test]
fn overflow_fp16_ovfl_and_omod() {
    // gfx1030 MUL_F16 1.5 x 65504 with FP16_OVFL, IEEE = 0 and F16 outputs
    // flushed (MODE 0x800000): saturates to 65504 (0x7bff), then div:2
    // (effective) halves it: 0x77ff.
    let i =
        Instruction::binary(Opcode::MulF16, Encoding::Vop3, v(0), v(1), v(2)).with_omod(Omod::Div2);
    let ex = why(Target::Gfx1030, 0x80_0000, &i, &[0, 0x3e00, 0x7bff]);
    assert_eq!(ex.result, 0x77ff);
    assert!(
        step(&ex, "operation").contains("overflow: FP16_OVFL=1 saturates"),
        "{ex:#?}"
    );
    assert!(step(&ex, "omod").contains("div:2: effective"), "{ex:#?}");
    // Without FP16_OVFL: +inf (0x7c00), which div:2 leaves alone.
    let ex = why(Target::Gfx1030, 0, &i, &[0, 0x3e00, 0x7bff]);
    assert_eq!(ex.result, 0x7c00);
    assert!(
        step(&ex, "operation").contains("overflow: nearest-even gives infinity"),
        "{ex:#?}"
    );
}

#[test]
fn clamp_and_input_flush() {
    // gfx1201 ADD_F32 with |src1| and clamp: 0.5 + |-0.75| = 1.25, clamped
    // to 1.0 (0x3f800000).
    let i = Instruction::binary(Opcode::AddF32, Encoding::Vop3, v(0), v(1), v(2))
        .with_src_mods(
            1,
            amdgpu_valu::SrcMods {
                abs: true,
                neg: false,
                sext: false,
            },
        )
        .with_clamp();
    let ex = why(Target::Gfx1201, 0xf0, &i, &[0, 0x3f00_0000, 0xbf40_0000]);
    assert_eq!(ex.result, 0x3f80_0000);
    assert!(
        step(&ex, "source").contains("src1 = 0xbf400000 (f32 -0.75) ABS -> 0x3f400000"),
        "{ex:#?}"
    );
    assert!(step(&ex, "clamp").contains("clamped to [0, 1]"), "{ex:#?}");
    // A subnormal src0 flushed (MODE 0: F32 inputs flushed): 1 x 0 = +0.
    let i = Instruction::binary(Opcode::MulF32, Encoding::Vop3, v(0), v(1), v(2));
    let ex = why(Target::Gfx1201, 0, &i, &[7, 0x0000_0001, 0x3f80_0000]);
    assert_eq!(ex.result, 0);
    assert!(
        step(&ex, "flush").contains("src0 is subnormal and input subnormals are flushed"),
        "{ex:#?}"
    );
}
