//! Every policy of `isa-spec/` changes behaviour: each test runs one
//! instruction under a target's generated spec and under a copy with that
//! one policy flipped, and checks both results bit for bit. The expected
//! bits are derived from docs/semantics.md (the derivation is in each
//! test). `fract_rules` records evidence only and has no alternative.

use amdgpu_valu::__testing::kernels::arith::{ArithInstr, ArithOp};
use amdgpu_valu::__testing::kernels::{SubNan, Tininess};
use amdgpu_valu::__testing::{arith_lane, execute_with_spec, float_rules};
use amdgpu_valu::{
    asm, execute, DstUnused, Encoding, Evidence, Instruction, Opcode, Operand, Sdwa, SdwaSel,
    Target, TargetSpec, Wave,
};
use amdgpu_valu::{ClampNan, OmodGate, SnanPolicy};
use amdgpu_valu::{
    F16DstHigh, SdwaConstantSel, SdwaF16DwordDst, SdwaF16Output, SdwaReservedBits, Sourced,
};
use amdgpu_valu::{FormatKind, Mode};

/// A flipped value's evidence: only tests make these.
fn flipped<T>(value: T) -> Sourced<T> {
    Sourced {
        value,
        evidence: Evidence::Open("flipped by tests/policy_flips.rs"),
    }
}

/// A wave of `target` with MODE `mode`, every lane active, VGPR n set to
/// `regs[n]` in every lane.
fn wave_with(target: Target, mode: u32, regs: &[u32]) -> Wave {
    let mut wave = Wave::for_target(target);
    for (n, &v) in regs.iter().enumerate() {
        wave.set_vgpr_all(n, v).expect("in range");
    }
    wave.set_mode(mode);
    wave
}

/// Run `instr` under `spec` on [`wave_with`] of `mode` and `regs`; v0 of
/// lane 0 (and of the last lane, which must agree), or the error.
fn run(spec: &TargetSpec, mode: u32, instr: &Instruction, regs: &[u32]) -> Result<u32, String> {
    let mut wave = wave_with(spec.target, mode, regs);
    execute_with_spec(spec, &mut wave, instr).map_err(|e| e.to_string())?;
    let first = wave.vgpr(0, 0).map_err(|e| e.to_string())?;
    let last = wave.vgpr(0, wave.lanes() - 1).map_err(|e| e.to_string())?;
    assert_eq!(first, last, "lanes disagree");
    Ok(first)
}

/// `run` of assembly text, checking first that the unflipped spec is the
/// generated one (`execute_with_spec` of it equals `execute`).
fn both(
    target: Target,
    flip: impl Fn(&mut TargetSpec),
    mode: u32,
    text: &str,
    regs: &[u32],
) -> (u32, u32) {
    let instr = asm::parse(target, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    both_instr(target, flip, mode, &instr, regs)
}

fn both_instr(
    target: Target,
    flip: impl Fn(&mut TargetSpec),
    mode: u32,
    instr: &Instruction,
    regs: &[u32],
) -> (u32, u32) {
    let spec = *target.spec();
    let before = run(&spec, mode, instr, regs).unwrap_or_else(|e| panic!("{e}"));
    let mut wave = wave_with(target, mode, regs);
    execute(target, &mut wave, instr).expect("executes");
    assert_eq!(
        wave.vgpr(0, 0).expect("in range"),
        before,
        "execute_with_spec of the generated spec"
    );
    let mut flipped = spec;
    flip(&mut flipped);
    let after = run(&flipped, mode, instr, regs).unwrap_or_else(|e| panic!("{e}"));
    (before, after)
}

#[test]
fn sdwa_f16_output_stays_live_for_mul_f16() {
    let flip = |s: &mut TargetSpec| {
        s.sdwa_f16_output = Some(flipped(SdwaF16Output::ScaledBeforeRounding));
    };
    // The SDWA MUL_F16 row of docs/semantics.md §12.6 on gfx1030: MODE 0
    // (IEEE = 0, F16 output denormals off: OMOD effective, nearest-even).
    // 0x3e00 x 0x7bff = 1.5 x 65504 = 98256. Rounded first (the measured
    // order): 98256 > 65504 + 16 overflows to +inf 0x7c00, and div:2 leaves
    // infinity alone: 0x7c00. Scaled first: 98256 / 2 = 49128 lies in
    // [32768, 65536), ulp 32: 49128 / 32 = 1535.25 rounds to 1535, 1535 x
    // 32 = 49120 = 2^15 x (1 + 511/1024): 0x79ff.
    let sel = Sdwa {
        dst_sel: SdwaSel::Word0,
        dst_unused: DstUnused::Preserve,
        src0_sel: SdwaSel::Word0,
        src1_sel: SdwaSel::Word0,
        reserved: 0,
    };
    let instr = Instruction::binary(
        Opcode::MulF16,
        Encoding::Sdwa,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    )
    .with_sdwa(sel)
    .with_omod(amdgpu_valu::Omod::Div2);
    let regs = [0xa5a5_a5a5, 0x3e00, 0x7bff];
    let (rounded, scaled) = both_instr(Target::Gfx1030, flip, 0, &instr, &regs);
    assert_eq!(rounded, 0xa5a5_7c00);
    assert_eq!(scaled, 0xa5a5_79ff);
    // ADD, SUB and SUBREV too: 65504 + 32752 = 98256 (0x7bff + 0x77ff),
    // the same exact value: 0x7c00 rounded first, 0x79ff scaled first.
    // SUB: 65504 - (-32752); SUBREV: src1 - src0 = 65504 - (-32752).
    for (op, b) in [(Opcode::AddF16, 0x77ff), (Opcode::SubF16, 0xf7ff)] {
        let i = Instruction {
            opcode: op,
            ..instr
        };
        let (rounded, scaled) = both_instr(Target::Gfx1030, flip, 0, &i, &[regs[0], 0x7bff, b]);
        assert_eq!((rounded, scaled), (0xa5a5_7c00, 0xa5a5_79ff), "{op:?}");
    }
    let i = Instruction {
        opcode: Opcode::SubrevF16,
        ..instr
    };
    let (rounded, scaled) = both_instr(Target::Gfx1030, flip, 0, &i, &[regs[0], 0xf7ff, 0x7bff]);
    assert_eq!((rounded, scaled), (0xa5a5_7c00, 0xa5a5_79ff));
    // VOP3 is not SDWA: 0x7c00 under either value (bits 31:16 kept, GFX10).
    let vop3 = Instruction {
        encoding: Encoding::Vop3,
        sdwa: None,
        ..instr
    };
    let (a, b) = both_instr(Target::Gfx1030, flip, 0, &vop3, &regs);
    assert_eq!((a, b), (0xa5a5_7c00, 0xa5a5_7c00));
}

#[test]
fn sdwa_f16_output_rounded_or_scaled_before_rounding() {
    let flip = |s: &mut TargetSpec| {
        s.sdwa_f16_output = Some(flipped(SdwaF16Output::ScaledBeforeRounding));
    };
    // gfx1030, MODE 0: nearest-even, F16 denormals flushed, IEEE = 0, so
    // OMOD is effective (§6). ldexp(0x7bff = 65504, 1) = 131008.
    // Rounded (§7, measured): 131008 overflows to +inf 0x7c00, and div:2
    // leaves infinity alone: 0x7c00. Scaled before rounding: 131008 / 2 =
    // 65504 is exact: 0x7bff.
    let text = "v_ldexp_f16_sdwa v0, v1, v2 div:2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0";
    let (rounded, scaled) = both(Target::Gfx1030, flip, 0, text, &[0xa5a5_a5a5, 0x7bff, 1]);
    assert_eq!(rounded, 0xa5a5_7c00);
    assert_eq!(scaled, 0xa5a5_7bff);
    // FRACT, MODE 0x40: F16 input subnormals kept, outputs flushed (OMOD
    // still effective). fract(0x0200 = 2^-15) = 2^-15, a subnormal.
    // Rounded: the output flush makes it +0, mul:4 of +0 is +0: 0x0000.
    // Scaled: 2^-15 * 4 = 2^-13 is normal (exponent field 2): 0x0800.
    let text =
        "v_fract_f16_sdwa v0, v1 mul:4 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0";
    let (rounded, scaled) = both(Target::Gfx1030, flip, 0x40, text, &[0xa5a5_a5a5, 0x0200]);
    assert_eq!(rounded, 0xa5a5_0000);
    assert_eq!(scaled, 0xa5a5_0800);
    // With OMOD gated off (IEEE = 1) the orders agree: ldexp gives +inf.
    let text = "v_ldexp_f16_sdwa v0, v1, v2 div:2 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0";
    let (rounded, scaled) = both(
        Target::Gfx1030,
        flip,
        0x200,
        text,
        &[0xa5a5_a5a5, 0x7bff, 1],
    );
    assert_eq!((rounded, scaled), (0xa5a5_7c00, 0xa5a5_7c00));
}

#[test]
fn f16_dst_high_preserve_or_zero() {
    // fract(1.5 = 0x3e00) = 0.5 = 0x3800 in bits 15:0 of a VOP1 result.
    // gfx1030 keeps bits 31:16 (preserve); zero clears them.
    let text = "v_fract_f16_e32 v0, v1";
    let regs = [0xa5a5_a5a5, 0x0000_3e00];
    let (preserve, zero) = both(
        Target::Gfx1030,
        |s| s.f16_dst_high = flipped(F16DstHigh::Zero),
        0,
        text,
        &regs,
    );
    assert_eq!((preserve, zero), (0xa5a5_3800, 0x0000_3800));
    // gfx908 zeroes them (zero); preserve keeps them.
    let (zero, preserve) = both(
        Target::Gfx908,
        |s| s.f16_dst_high = flipped(F16DstHigh::Preserve),
        0,
        text,
        &regs,
    );
    assert_eq!((zero, preserve), (0x0000_3800, 0xa5a5_3800));
}

#[test]
fn sdwa_f16_dword_dst_zero_extend_or_preserve_high() {
    // An F16 result (0x3800, as above) with dst_sel:DWORD: zero-extended
    // (the default, open) or bits 31:16 of v0 kept.
    let text = "v_fract_f16_sdwa v0, v1 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_0";
    let (zero_extend, preserve_high) = both(
        Target::Gfx1030,
        |s| s.sdwa_f16_dword_dst = Some(flipped(SdwaF16DwordDst::PreserveHigh)),
        0,
        text,
        &[0xa5a5_a5a5, 0x0000_3e00],
    );
    assert_eq!((zero_extend, preserve_high), (0x0000_3800, 0xa5a5_3800));
}

#[test]
fn sdwa_constant_sel_ignored_or_applied() {
    // ldexp(1.5 = 0x3e00, 1) with src1 the inline constant 1 and
    // src1_sel:BYTE_1. Ignored (the default, open): 1.5 * 2 = 3.0 = 0x4200.
    // Applied: byte 1 of the constant's encoding 0x0001 is 0, so
    // 1.5 * 2^0 = 0x3e00.
    let instr = Instruction::binary(
        Opcode::LdexpF16,
        Encoding::Sdwa,
        Operand::v(0),
        Operand::v(1),
        Operand::InlineInt(1),
    )
    .with_sdwa(Sdwa {
        dst_sel: SdwaSel::Word0,
        dst_unused: DstUnused::Preserve,
        src0_sel: SdwaSel::Word0,
        src1_sel: SdwaSel::Byte1,
        reserved: 0,
    });
    let (ignored, applied) = both_instr(
        Target::Gfx1030,
        |s| s.sdwa_constant_sel = Some(flipped(SdwaConstantSel::Applied)),
        0,
        &instr,
        &[0xa5a5_a5a5, 0x0000_3e00],
    );
    assert_eq!((ignored, applied), (0xa5a5_4200, 0xa5a5_3e00));
}

#[test]
fn snan_kept_with_ieee_off_or_quiet() {
    // FRACT of the F32 sNaN 0x7f800001 on gfx1030, whose default is now
    // keep_when_ieee_off (§10.1): with MODE.IEEE = 0 it comes out as it
    // went in; flipped to `quiet` it gets its quiet bit, 0x7fc00001 (§4).
    let flip = |s: &mut TargetSpec| s.snan = flipped(SnanPolicy::Quiet);
    let text = "v_fract_f32_e32 v0, v1";
    let (kept, quiet) = both(Target::Gfx1030, flip, 0, text, &[0, 0x7f80_0001]);
    assert_eq!((kept, quiet), (0x7f80_0001, 0x7fc0_0001));
    // IEEE = 1: quieted either way.
    let (kept, quiet) = both(Target::Gfx1030, flip, 0x200, text, &[0, 0x7f80_0001]);
    assert_eq!((kept, quiet), (0x7fc0_0001, 0x7fc0_0001));
    // The same on GFX9 and GFX11 (gfx908, gfx1100): LDEXP_F16 of the sNaN
    // 0x7c01 by 1 keeps it with IEEE = 0.
    for target in [Target::Gfx908, Target::Gfx1100] {
        let text = "v_ldexp_f16_e64 v0, v1, v2";
        let regs = [0, 0x7c01, 1];
        let (kept, quiet) = both(target, flip, 0, text, &regs);
        assert_eq!(
            (kept & 0xffff, quiet & 0xffff),
            (0x7c01, 0x7e01),
            "{target:?}"
        );
    }
}

#[test]
fn a_spec_changed_in_place_is_not_served_by_the_waves_note() {
    // Only the generated specs are noted (by their address): a copy changed
    // in place between two runs of one instruction on one wave must give
    // each run its own policy. On gfx1030 with MODE.IEEE = 0 an sNaN
    // 0x7f800001 comes out as it went in under keep_when_ieee_off, and
    // with its quiet bit, 0x7fc00001, once flipped to `quiet` (§10.1, §4):
    // for FRACT (its one source) and for ADD (src0 the NaN, src1 +0).
    for text in ["v_fract_f32_e32 v0, v1", "v_add_f32_e32 v0, v1, v2"] {
        let instr = asm::parse(Target::Gfx1030, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let mut spec = *Target::Gfx1030.spec();
        let mut wave = wave_with(Target::Gfx1030, 0, &[0, 0x7f80_0001, 0]);
        execute_with_spec(&spec, &mut wave, &instr).expect("executes");
        assert_eq!(wave.vgpr(0, 0).expect("in range"), 0x7f80_0001, "{text}");
        spec.snan = flipped(SnanPolicy::Quiet);
        execute_with_spec(&spec, &mut wave, &instr).expect("executes");
        assert_eq!(wave.vgpr(0, 0).expect("in range"), 0x7fc0_0001, "{text}");
    }
}

/// One lane of the arithmetic kernel of `op` in `format` under `spec`'s
/// float rules.
fn arith(spec: &TargetSpec, op: ArithOp, format: FormatKind, mode: u32, srcs: [u64; 3]) -> u64 {
    let rules = float_rules(spec);
    arith_lane(ArithInstr::new(op), format, &rules, Mode(mode), srcs).expect("valid lane")
}

#[test]
fn sub_nan_ieee_or_negate_subtrahend() {
    // gfx1201, MODE 0. 1.0 (0x3f800000) - the quiet NaN 0x7fc00001: an IEEE
    // subtraction returns the NaN source as it is (§10.9), 0x7fc00001;
    // `negate_subtrahend` adds the negated subtrahend, so the NaN comes out
    // with its sign flipped, 0xffc00001. SUBREV's subtrahend is src0; ADD
    // negates nothing under either value.
    let spec = *Target::Gfx1201.spec();
    let mut flip = spec;
    flip.sub_nan = flipped(SubNan::NegateSubtrahend);
    let one = 0x3f80_0000;
    let nan = 0x7fc0_0001;
    let f32 = FormatKind::F32;
    let cases = [
        (ArithOp::Sub, [one, nan, 0], 0xffc0_0001),
        (ArithOp::Subrev, [nan, one, 0], 0xffc0_0001),
        (ArithOp::Add, [one, nan, 0], 0x7fc0_0001),
    ];
    for (op, srcs, negated) in cases {
        assert_eq!(arith(&spec, op, f32, 0, srcs), 0x7fc0_0001, "{op:?} ieee");
        assert_eq!(
            arith(&flip, op, f32, 0, srcs),
            negated,
            "{op:?} negate_subtrahend"
        );
    }
    // A number subtrahend is negated under both: 1.0 - 1.0 = +0.
    assert_eq!(arith(&flip, ArithOp::Sub, f32, 0, [one, one, 0]), 0);
}

#[test]
fn tininess_after_or_before_rounding() {
    // gfx1201, MODE 0x10: F32 nearest, input subnormals kept, output
    // subnormals flushed. MUL 0x007fffff (2^-126 (1 - 2^-23)) x 0x3f800001
    // (1 + 2^-23) = 2^-126 (1 - 2^-46) exactly. Rounded to 24 bits with an
    // unbounded exponent it is 2^-126 (the discarded part, below half an
    // ulp of 2^-150, rounds up), so after rounding it is not tiny: the
    // result is the smallest normal 0x00800000. Judged before rounding, the
    // exact value is below 2^-126: tiny, flushed to +0.
    let spec = *Target::Gfx1201.spec();
    let mut flip = spec;
    flip.tininess = flipped(Tininess::BeforeRounding);
    let srcs = [0x007f_ffff, 0x3f80_0001, 0];
    let f32 = FormatKind::F32;
    assert_eq!(arith(&spec, ArithOp::Mul, f32, 0x10, srcs), 0x0080_0000);
    assert_eq!(arith(&flip, ArithOp::Mul, f32, 0x10, srcs), 0);
    // With output subnormals kept (MODE 0x30) tininess does not matter:
    // 0x00800000 both ways.
    assert_eq!(arith(&flip, ArithOp::Mul, f32, 0x30, srcs), 0x0080_0000);
}

#[test]
fn fract_ldexp_ignore_tininess() {
    // FRACT's and LDEXP's exact results fit the precision, where both
    // tininess rules agree (§10.10). Hand-derived, gfx1030 MODE 0x10 (F32
    // outputs flushed): LDEXP 0x3fffffff (2 - 2^-23) by -127 is
    // 2^-126 (1 - 2^-24), tiny either way: +0. LDEXP 0x3f800000 by -126 is
    // 2^-126, not tiny either way: 0x00800000. FRACT of -2^-30 (0xb0800000)
    // is 1 - 2^-30, rounded to 1 and capped at 0x3f7fffff (§4).
    let flip = |s: &mut TargetSpec| s.tininess = flipped(Tininess::BeforeRounding);
    let ldexp = "v_ldexp_f32 v0, v1, v2";
    let cases: [(&str, [u32; 3], u32); 3] = [
        (ldexp, [0, 0x3fff_ffff, (-127i32) as u32], 0),
        (ldexp, [0, 0x3f80_0000, (-126i32) as u32], 0x0080_0000),
        ("v_fract_f32_e32 v0, v1", [0, 0xb080_0000, 0], 0x3f7f_ffff),
    ];
    for (text, regs, want) in cases {
        let (after, before) = both(Target::Gfx1030, flip, 0x10, text, &regs);
        assert_eq!((after, before), (want, want), "{text} {regs:x?}");
    }
    // And on a spread of sources, flushed and kept, every rounding mode.
    for mode in [0x10, 0x30, 0x11, 0x13, 0x1a] {
        for i in 0..512u32 {
            let x = i.wrapping_mul(0x9e37_79b9) ^ 0x0080_0000;
            for text in [ldexp, "v_fract_f32_e32 v0, v1"] {
                let regs = [0, x, (i % 300) ^ 0xffff_ff00];
                let (after, before) = both(Target::Gfx1030, flip, mode, text, &regs);
                assert_eq!(after, before, "{text} {regs:x?} MODE {mode:#x}");
            }
        }
    }
}

#[test]
fn omod_gate_gated_or_always() {
    // fract(1.5) = 0.5 = 0x3f000000, mul:2 -> 1.0 = 0x3f800000 when OMOD
    // is effective. MODE 0x200 (IEEE = 1): gfx1030's gate ignores OMOD;
    // `always` applies it.
    let (gated, always) = both(
        Target::Gfx1030,
        |s| s.omod_gate = flipped(OmodGate::Always),
        0x200,
        "v_fract_f32_e64 v0, v1 mul:2",
        &[0, 0x3fc0_0000],
    );
    assert_eq!((gated, always), (0x3f00_0000, 0x3f80_0000));
}

#[test]
fn clamp_nan_dx10_clamp_or_always_zero() {
    // fract(qNaN 0x7fc00000) = 0x7fc00000; CLAMP with DX10_CLAMP = 0 keeps
    // it on gfx1030, `always_zero` gives +0.
    let (dx10, zero) = both(
        Target::Gfx1030,
        |s| s.clamp_nan = flipped(ClampNan::AlwaysZero),
        0,
        "v_fract_f32_e64 v0, v1 clamp",
        &[0, 0x7fc0_0000],
    );
    assert_eq!((dx10, zero), (0x7fc0_0000, 0));
}

#[test]
fn ieee_dx10_bits_present_or_absent() {
    // Without the bits, MODE bit 9 is not IEEE: on gfx1030 the gate then
    // sees IEEE = 0 and OMOD applies (0.5 mul:2 = 1.0, as above).
    // (`codegen` refuses this combination in isa-spec/; the flip shows the
    // executor reads the bit only through this fact.)
    let (present, absent) = both(
        Target::Gfx1030,
        |s| s.ieee_dx10_bits = flipped(false),
        0x200,
        "v_fract_f32_e64 v0, v1 mul:2",
        &[0, 0x3fc0_0000],
    );
    assert_eq!((present, absent), (0x3f00_0000, 0x3f80_0000));
}

#[test]
fn aligned_vgpr_pairs_required_or_not() {
    // gfx90a needs even pairs: v[1:2] is refused. Flipped, fract(1.5) =
    // 0.5 = 0x3fe0000000000000: v1 = 0, v2 = 0x3fe00000.
    let instr = Instruction::unary(
        Opcode::FractF64,
        Encoding::Vop1,
        Operand::v(1),
        Operand::v(4),
    );
    let regs = [0, 0, 0, 0, 0, 0x3ff8_0000];
    let spec = *Target::Gfx90a.spec();
    let err = run(&spec, 0, &instr, &regs).expect_err("misaligned pair");
    assert!(err.contains("even") || err.contains("align"), "{err}");
    let mut flipped_spec = spec;
    flipped_spec.aligned_vgpr_pairs = flipped(false);
    let mut wave = wave_with(Target::Gfx90a, 0, &regs);
    execute_with_spec(&flipped_spec, &mut wave, &instr).expect("unaligned pairs allowed");
    assert_eq!(wave.vgpr64(1, 0).expect("in range"), 0x3fe0_0000_0000_0000);
}

/// `sdwa_reserved_bits`: an SDWA instruction holding reserved bit 22 runs
/// as without it, or is refused under `error` (its decoding flips too:
/// tests/reserved_bits.rs).
#[test]
fn sdwa_reserved_bits_ignored_or_error() {
    // gfx1030, MODE 0: fract(v1 = 1.5 = 0x3fc00000) = 0.5 = 0x3f000000,
    // dst_sel DWORD.
    let plain = Instruction::unary(
        Opcode::FractF32,
        Encoding::Sdwa,
        Operand::v(0),
        Operand::v(1),
    )
    .with_sdwa(Sdwa {
        dst_unused: DstUnused::Pad,
        ..Sdwa::default()
    });
    let with_bit = plain.with_sdwa(Sdwa {
        reserved: 1 << 22,
        ..plain.sdwa.unwrap_or_default()
    });
    let t = Target::Gfx1030;
    let regs = [0xa5a5_a5a5, 0x3fc0_0000];
    assert_eq!(run(t.spec(), 0, &plain, &regs), Ok(0x3f00_0000));
    assert_eq!(run(t.spec(), 0, &with_bit, &regs), Ok(0x3f00_0000));
    let mut strict = *t.spec();
    strict.sdwa_reserved_bits = Some(flipped(SdwaReservedBits::Error));
    assert_eq!(run(&strict, 0, &plain, &regs), Ok(0x3f00_0000));
    let e = run(&strict, 0, &with_bit, &regs).expect_err("error refuses");
    assert!(
        e.to_string().contains("reserved bit 22 of the SDWA word"),
        "{e}"
    );
}
