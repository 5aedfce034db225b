//! The kernels against the reference model (`tests/reference/`), bit for bit.
//!
//! - F16: every encoding under every MODE rounding and denormal setting,
//!   FP16_OVFL, OMOD, CLAMP and ABS/NEG, on an OMOD-gated target (MODE.IEEE
//!   both ways, DX10_CLAMP both ways where CLAMP reads it) and an always-OMOD
//!   target. The default run takes a deterministic strided subset; the
//!   `exhaustive` test (ignored by default; `cargo xtask verify --exhaustive`)
//!   takes all of it.
//! - F32/F64: seeded generated cases aimed at the hard places, every MODE /
//!   OMOD / CLAMP / ABS-NEG combination in turn.
//!
//! Every case runs through `Policy` + `kernels::run` on both kernel paths
//! (scalar and SIMD); a share also runs through the whole-instruction
//! `amdgpu_valu::execute` on every one of the ten targets. A mismatch is
//! reported as a replay row in the capture format (docs/captures.md) whose expected
//! column is the model's result.

mod common;
mod reference;
mod verify_support;

use verify_support::{run_f16, run_random, F16Scope, Op, RandomScope, Report};

use amdgpu_valu::__testing::kernels::{F32, F64};

/// Default suite: F16 FRACT, strided subset.
#[test]
fn f16_fract_strided() {
    let mut report = Report::new("default");
    run_f16(Op::Fract, F16Scope::Strided, 1, &mut report);
    report.finish();
}

/// Default suite: F16 LDEXP, strided subset.
#[test]
fn f16_ldexp_strided() {
    let mut report = Report::new("default");
    run_f16(Op::Ldexp, F16Scope::Strided, 1, &mut report);
    report.finish();
}

/// Default suite: 10,000 generated F32 and F64 cases per instruction.
#[test]
fn f32_f64_generated() {
    let mut report = Report::new("default");
    let scope = RandomScope {
        batches: verify_support::DEFAULT_BATCHES,
        threads: 1,
    };
    run_random::<F32>(Op::Fract, scope, &mut report);
    run_random::<F32>(Op::Ldexp, scope, &mut report);
    run_random::<F64>(Op::Fract, scope, &mut report);
    run_random::<F64>(Op::Ldexp, scope, &mut report);
    report.finish();
}

/// The whole space: `cargo xtask verify --exhaustive`, or
/// `cargo test --release --test verify -- --ignored --nocapture`.
#[test]
#[ignore = "exhaustive: minutes in release; run with `cargo xtask verify --exhaustive`"]
fn exhaustive() {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 8);
    println!("verify (exhaustive): {threads} worker threads");
    let mut report = Report::new("exhaustive");
    run_f16(Op::Fract, F16Scope::All, threads, &mut report);
    run_f16(Op::Ldexp, F16Scope::All, threads, &mut report);
    let scope = RandomScope {
        batches: verify_support::EXHAUSTIVE_BATCHES,
        threads,
    };
    run_random::<F32>(Op::Fract, scope, &mut report);
    run_random::<F32>(Op::Ldexp, scope, &mut report);
    run_random::<F64>(Op::Fract, scope, &mut report);
    run_random::<F64>(Op::Ldexp, scope, &mut report);
    report.finish();
}

/// The reference model itself reproduces the recorded examples of
/// docs/semantics.md and the public hardware rows (so agreeing with it
/// means something).
#[test]
fn reference_reproduces_captures() {
    use amdgpu_valu::__testing::kernels::F16;
    use reference::{ref_fract, ref_ldexp, RefMods, TargetKind::*};
    let none = RefMods::default();
    let omod = |omod| RefMods { omod, ..none };
    // (kind, mode, modifiers, source, expected)
    let fract16 = [
        (Always, 0xc0, none, 0x8001, 0x3bff), // capped
        (Always, 0x30, none, 0x8001, 0x0000), // input flushed
        (Always, 0xc0, none, 0x0001, 0x0001),
        (Always, 0x30, none, 0x0001, 0x0000),
        (Always, 0xf0, none, 0xb58d, 0x393a),
        (Always, 0xfc, none, 0xb58d, 0x3939),
        (Always, 0xf0, none, 0x7c00, 0xfe00),
        (Always, 0xfa, none, 0x8000, 0x0000),
        (Always, 0xfa, none, 0xbc00, 0x0000),
        (Always, 0xf0, RefMods { neg: true, ..none }, 0x0001, 0x3bff),
        (Always, 0xf0, omod(1), 0x8001, 0x3fff),
        (
            Always,
            0xf0,
            RefMods {
                abs: true,
                omod: 1,
                clamp: true,
                ..none
            },
            0xba00,
            0x3c00,
        ),
    ];
    for (kind, mode, m, src, want) in fract16 {
        assert_eq!(
            ref_fract::<F16>(src, mode, kind, m),
            want,
            "fract_f16 {src:#06x} mode {mode:#x} {m:?}"
        );
    }
    let fract32 = [
        (Always, 0x30, none, 0x8000_0001, 0x3f7f_ffff),
        (Always, 0xfc, none, 0xb7cb_b5fd, 0x3f7f_fe69),
        (Always, 0xf3, none, 0xb7cb_b5fd, 0x3f7f_fe68),
        (Always, 0xf0, none, 0x7f80_0000, 0xffc0_0000),
        (
            Always,
            0xf0,
            RefMods {
                clamp: true,
                ..none
            },
            0x7f80_0001,
            0x0000_0000,
        ),
        (Always, 0xf0, omod(1), 0x8000_0001, 0x3fff_ffff),
    ];
    for (kind, mode, m, src, want) in fract32 {
        assert_eq!(
            ref_fract::<F32>(src, mode, kind, m),
            want,
            "fract_f32 {src:#010x} mode {mode:#x} {m:?}"
        );
    }
    let fract64 = [
        (
            Always,
            0x30,
            none,
            0x8000_0000_0000_0001,
            0x0000_0000_0000_0000,
        ),
        (
            Always,
            0xc0,
            none,
            0x0000_0000_0000_0001,
            0x0000_0000_0000_0001,
        ),
        (
            Always,
            0xfc,
            none,
            0xbce2_54ae_32fc_7a4f,
            0x3fef_ffff_ffff_ffed,
        ),
        (
            Always,
            0xf0,
            none,
            0x7ff0_0000_0000_0000,
            0xfff8_0000_0000_0000,
        ),
        (
            Always,
            0xf0,
            omod(1),
            0x8000_0000_0000_0001,
            0x3fff_ffff_ffff_ffff,
        ),
        (
            Always,
            0xf0,
            RefMods {
                clamp: true,
                ..none
            },
            0x7ff0_0000_0000_0001,
            0x0000_0000_0000_0000,
        ),
    ];
    for (kind, mode, m, src, want) in fract64 {
        assert_eq!(
            ref_fract::<F64>(src, mode, kind, m),
            want,
            "fract_f64 {src:#018x} mode {mode:#x} {m:?}"
        );
    }
    // (kind, mode, modifiers, source, exponent operand, expected)
    let ldexp16 = [
        (Always, 0xf0, none, 0x0401, 0x5a5a_ffff, 0x0200),
        (Always, 0xf4, none, 0x0401, 0xffff, 0x0201),
        (Always, 0xf8, none, 0x0401, 0xffff, 0x0200),
        (Always, 0xf0, none, 0x8401, 0xffff, 0x8200),
        (Always, 0xf8, none, 0x8401, 0xffff, 0x8201),
        (Always, 0xfc, none, 0x8401, 0xffff, 0x8200),
        (Always, 0xf0, none, 0x3c00, 0x7fff, 0x7c00),
        (Always, 0xf8, none, 0x3c00, 0x7fff, 0x7bff),
        (Always, 0xfc, none, 0x3c00, 0x7fff, 0x7bff),
        (Always, 0xf0, none, 0x3c00, 0x8000, 0x0000),
        (Always, 0xf4, none, 0x3c00, 0x8000, 0x0001),
        (Always, 0xf8, none, 0x3c00, 0x8000, 0x0000),
        (Always, 0x40, none, 0x0001, 0x000a, 0x0400),
        (Always, 0x00, none, 0x0001, 0x000a, 0x0000),
        (Always, 0xf0, none, 0x0400, 0xffff, 0x0200),
        (Always, 0x00, none, 0x0400, 0xffff, 0x0000),
        (Always, 0x00, none, 0x8400, 0xffff, 0x8000),
        (Always, 0x40, none, 0x8400, 0xffff, 0x8000),
        (Always, 0xc0, none, 0x8400, 0xffff, 0x8200),
        (Always, 0xf0, omod(1), 0x3bff, 0xfff2, 0x0000), // tiny, flushed as OMOD is effective
        (Always, 0x00, omod(2), 0x0400, 0xffff, 0x0000),
        (Always, 0x00, omod(3), 0x8400, 0x0000, 0x8000),
        (Gated, 0x00, omod(3), 0x8400, 0x0000, 0x8000),
        (Always, 0xf0, omod(3), 0x7bff, 0x0001, 0x7c00), // rounds before OMOD
    ];
    for (kind, mode, m, src, exp, want) in ldexp16 {
        assert_eq!(
            ref_ldexp::<F16>(src, exp, mode, kind, m),
            want,
            "ldexp_f16 {src:#06x} {exp:#x} mode {mode:#x} {m:?}"
        );
    }
    let ldexp32 = [
        (Always, 0xd0, none, 0x3f7f_ffff, 0xffff_ff82, 0x0000_0000), // tiny at full precision
        (Always, 0xfa, none, 0x8080_0000, 0xffff_ffe8, 0x8000_0001),
        (Always, 0xfa, none, 0x7f7f_ffff, 0x0000_0001, 0x7f7f_ffff),
        (Always, 0xff, none, 0x7f7f_ffff, 0x0000_0001, 0x7f7f_ffff),
        (Always, 0x0f, omod(1), 0x7f7f_ffff, 0x0000_0000, 0x7f7f_ffff),
        (Always, 0x00, none, 0x0000_0001, 0x0000_0017, 0x0000_0000),
        (Always, 0xf0, none, 0x0000_0001, 0x0000_0017, 0x0080_0000),
        (Gated, 0xf0, none, 0x0080_0000, 0xffff_ffe8, 0x0000_0000),
        (Gated, 0xf5, none, 0x7f7f_ffff, 0x0000_0001, 0x7f80_0000),
        (Gated, 0xfa, none, 0x0080_0000, 0xffff_ffe8, 0x0000_0000),
        (Gated, 0xfa, none, 0x8080_0000, 0xffff_ffe8, 0x8000_0001),
        (Gated, 0xfa, none, 0x7f7f_ffff, 0x0000_0001, 0x7f7f_ffff),
        (Gated, 0xff, none, 0x0080_0000, 0xffff_ffe8, 0x0000_0000),
        (Gated, 0xff, none, 0x7f7f_ffff, 0x0000_0001, 0x7f7f_ffff),
        (Gated, 0x0f, omod(1), 0x7f7f_ffff, 0x0000_0000, 0x7f7f_ffff),
        (Gated, 0x00, none, 0x0000_0001, 0x0000_0017, 0x0000_0000),
        (Gated, 0xf0, none, 0x0000_0001, 0x0000_0017, 0x0080_0000),
    ];
    for (kind, mode, m, src, exp, want) in ldexp32 {
        assert_eq!(
            ref_ldexp::<F32>(src, exp, mode, kind, m),
            want,
            "ldexp_f32 {src:#010x} {exp:#x} mode {mode:#x} {m:?}"
        );
    }
    let ldexp64 = [
        (
            Always,
            0xff,
            none,
            0x8010_0000_0000_0000,
            0xffff_ffcb,
            0x8000_0000_0000_0000,
        ),
        (
            Always,
            0x00,
            none,
            0x0000_0000_0000_0001,
            0x0000_0034,
            0x0000_0000_0000_0000,
        ),
        (
            Always,
            0xf0,
            none,
            0x0000_0000_0000_0001,
            0x0000_0034,
            0x0010_0000_0000_0000,
        ),
        (
            Gated,
            0xf0,
            none,
            0x0010_0000_0000_0000,
            0xffff_ffcb,
            0x0000_0000_0000_0000,
        ),
        (
            Gated,
            0xf5,
            none,
            0x8010_0000_0000_0000,
            0xffff_ffcb,
            0x8000_0000_0000_0000,
        ),
        (
            Gated,
            0xfa,
            none,
            0x7fef_ffff_ffff_ffff,
            0x0000_0001,
            0x7fef_ffff_ffff_ffff,
        ),
    ];
    for (kind, mode, m, src, exp, want) in ldexp64 {
        assert_eq!(
            ref_ldexp::<F64>(src, exp, mode, kind, m),
            want,
            "ldexp_f64 {src:#018x} {exp:#x} mode {mode:#x} {m:?}"
        );
    }
}
