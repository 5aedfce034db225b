//! MODE fields, source modifiers, OMOD and CLAMP (docs/semantics.md §2,
//! §3 and §6), on an OMOD-gated target (gfx1100) and an always-OMOD target
//! (gfx1201). LDEXP by 0 and FRACT of values below 1 carry the value through
//! unchanged, so the modifier is what is measured.

mod common;
use amdgpu_valu::Opcode::{FractF16, FractF32, FractF64, LdexpF16, LdexpF32, LdexpF64};
use amdgpu_valu::{Omod, Opcode};
use common::{vop3, M, PLAIN};

const KEEP: u32 = 0xf0;
const IEEE: u32 = 1 << 9;
const DX10_CLAMP: u32 = 1 << 8;
const FP16_OVFL: u32 = 1 << 23;

/// LDEXP by 0 with modifiers `m`.
fn id(t: &str, mode: u32, op: Opcode, x: u64, m: M) -> u64 {
    vop3(t, mode, op, x, 0, m)
}

#[test]
fn mode_fields_are_read_per_result_format() {
    // 0x30 keeps F32 subnormals and flushes F16/F64 ones; 0xc0 the reverse.
    for t in ["gfx1100", "gfx1201"] {
        assert_eq!(id(t, 0x30, LdexpF32, 1, PLAIN), 1);
        assert_eq!(id(t, 0xc0, LdexpF32, 1, PLAIN), 0);
        assert_eq!(id(t, 0x30, LdexpF16, 1, PLAIN), 0);
        assert_eq!(id(t, 0xc0, LdexpF16, 1, PLAIN), 1);
        assert_eq!(id(t, 0x30, LdexpF64, 1, PLAIN), 0);
        assert_eq!(id(t, 0xc0, LdexpF64, 1, PLAIN), 1);
        // 0xd0: F32 input subnormals kept, outputs flushed.
        assert_eq!(vop3(t, 0xd0, LdexpF32, 1, 23, PLAIN), 0x0080_0000);
        assert_eq!(vop3(t, 0xd0, FractF32, 1, 0, PLAIN), 0);
        // 0xf3: toward zero for F32, nearest-even for F16/F64.
        assert_eq!(vop3(t, 0xf3, FractF32, 0xb7cb_b5fd, 0, PLAIN), 0x3f7f_fe68);
        assert_eq!(vop3(t, 0xf3, FractF16, 0xb58d, 0, PLAIN), 0x393a);
        assert_eq!(
            vop3(t, 0xf3, FractF64, 0xbce2_54ae_32fc_7a4f, 0, PLAIN),
            0x3fef_ffff_ffff_ffee
        );
    }
}

#[test]
fn abs_then_neg_on_the_sign_bit_only() {
    let abs = M { abs: true, ..PLAIN };
    let neg = M { neg: true, ..PLAIN };
    let both = M {
        abs: true,
        neg: true,
        ..PLAIN
    };
    for t in ["gfx1100", "gfx1201"] {
        assert_eq!(id(t, KEEP, LdexpF32, 0xbf80_0000, abs), 0x3f80_0000);
        assert_eq!(id(t, KEEP, LdexpF32, 0x3f80_0000, neg), 0xbf80_0000);
        assert_eq!(id(t, KEEP, LdexpF32, 0x3f80_0000, both), 0xbf80_0000); // -|x|
        assert_eq!(id(t, KEEP, LdexpF32, 0xbf80_0000, both), 0xbf80_0000);
        // A NaN payload is untouched; only the sign flips.
        assert_eq!(id(t, KEEP, LdexpF32, 0x7fc0_0005, neg), 0xffc0_0005);
        // F16 ABS works on the 16-bit encoding (the harness puts junk above it).
        assert_eq!(id(t, KEEP, LdexpF16, 0xbc00, abs), 0x3c00);
        assert_eq!(
            id(t, KEEP, LdexpF64, 0x3ff0_0000_0000_0000, both),
            0xbff0_0000_0000_0000
        );
        // NEG then the input flush: -subnormal -> -0.
        assert_eq!(id(t, 0x00, LdexpF32, 0x0000_0001, neg), 0x8000_0000);
        // [gfx1201 capture] FRACT(-x) of a subnormal: capped.
        assert_eq!(vop3(t, KEEP, FractF16, 0x0001, 0, neg), 0x3bff);
    }
}

#[test]
fn omod_gate_on_pre_gfx12_targets() {
    let div2 = M::omod(Omod::Div2);
    // 3.0 div:2 = 1.5 when effective, 3.0 when ignored.
    let gated = [
        (0x000, 0x3fc0_0000), // IEEE = 0, F32 outputs flushed: effective
        (0x020, 0x4040_0000), // F32 output subnormals kept: ignored
        (0x080, 0x3fc0_0000), // only F16/F64 outputs kept: F32 is still effective
        (IEEE, 0x4040_0000),  // IEEE = 1: ignored
        (0x010, 0x3fc0_0000), // F32 input bit is irrelevant
    ];
    for (mode, want) in gated {
        assert_eq!(
            id("gfx1100", mode, LdexpF32, 0x4040_0000, div2),
            want,
            "gfx1100 mode {mode:#x}"
        );
        assert_eq!(
            id("gfx1030", mode, LdexpF32, 0x4040_0000, div2),
            want,
            "gfx1030 mode {mode:#x}"
        );
        assert_eq!(
            id("gfx908", mode, LdexpF32, 0x4040_0000, div2),
            want,
            "gfx908 mode {mode:#x}"
        );
    }
    // F64 reads the F16/F64 output bit.
    assert_eq!(
        id("gfx1100", 0x080, LdexpF64, 0x4008_0000_0000_0000, div2),
        0x4008_0000_0000_0000
    );
    assert_eq!(
        id("gfx1100", 0x020, LdexpF64, 0x4008_0000_0000_0000, div2),
        0x3ff8_0000_0000_0000
    );
    // gfx1201: always effective, whatever bits 9 and 5 hold.
    for mode in [0x000, 0x020, 0x0f0, IEEE | 0xf0] {
        assert_eq!(
            id("gfx1201", mode, LdexpF32, 0x4040_0000, div2),
            0x3fc0_0000,
            "gfx1201 mode {mode:#x}"
        );
    }
}

#[test]
fn omod_table() {
    let t = "gfx1201";
    let (m2, m4, d2) = (
        M::omod(Omod::Mul2),
        M::omod(Omod::Mul4),
        M::omod(Omod::Div2),
    );
    // NaN and infinity unchanged.
    assert_eq!(id(t, KEEP, LdexpF32, 0x7fc0_0123, m2), 0x7fc0_0123);
    assert_eq!(id(t, KEEP, LdexpF32, 0xff80_0000, d2), 0xff80_0000);
    // Zeros and subnormals give +0, also when negative.
    assert_eq!(id(t, KEEP, LdexpF32, 0x8000_0000, m2), 0);
    assert_eq!(vop3(t, KEEP, FractF32, 0x0000_0010, 0, m4), 0);
    // div:2 of exponent field 1: a zero of the input's sign.
    assert_eq!(id(t, KEEP, LdexpF32, 0x8080_0000, d2), 0x8000_0000);
    assert_eq!(id(t, KEEP, LdexpF32, 0x00ff_ffff, d2), 0x0000_0000);
    assert_eq!(id(t, KEEP, LdexpF16, 0x8400, d2), 0x8000);
    // Otherwise exact exponent steps.
    assert_eq!(id(t, KEEP, LdexpF32, 0x4040_0000, d2), 0x3fc0_0000);
    assert_eq!(id(t, KEEP, LdexpF32, 0x3f80_0000, m2), 0x4000_0000);
    assert_eq!(id(t, KEEP, LdexpF32, 0x3f80_0000, m4), 0x4080_0000);
    assert_eq!(
        id(t, KEEP, LdexpF64, 0xbff0_0000_0000_0000, m4),
        0xc010_0000_0000_0000
    );
    assert_eq!(id(t, KEEP, LdexpF16, 0x7400, m2), 0x7800);
    // Overflow follows FP_ROUND [gfx1100/gfx1201 capture: toward zero keeps max].
    for (mode, want) in [
        (0xf0, 0x7f80_0000),
        (0xf1, 0x7f80_0000),
        (0xf2, 0x7f7f_ffff),
        (0xf3, 0x7f7f_ffff),
    ] {
        assert_eq!(
            id(t, mode, LdexpF32, 0x7f7f_ffff, m2),
            want,
            "mode {mode:#x}"
        );
    }
    for (mode, want) in [
        (0xf0, 0xff80_0000),
        (0xf1, 0xff7f_ffff),
        (0xf2, 0xff80_0000),
        (0xf3, 0xff7f_ffff),
    ] {
        assert_eq!(
            id(t, mode, LdexpF32, 0xff7f_ffff, m2),
            want,
            "mode {mode:#x}"
        );
    }
    assert_eq!(id("gfx1100", 0x0f, LdexpF32, 0x7f7f_ffff, m2), 0x7f7f_ffff);
    assert_eq!(id(t, KEEP, LdexpF16, 0x7400, m4), 0x7c00);
    assert_eq!(id(t, KEEP | FP16_OVFL, LdexpF16, 0x7400, m4), 0x7bff);
    assert_eq!(id(t, KEEP | FP16_OVFL, LdexpF16, 0xf400, m4), 0xfbff);
    assert_eq!(
        id(t, KEEP | FP16_OVFL, LdexpF32, 0x7f7f_ffff, m2),
        0x7f80_0000
    );
}

#[test]
fn clamp_table() {
    let c = M::clamp();
    for t in ["gfx1100", "gfx1201"] {
        assert_eq!(id(t, KEEP, LdexpF32, 0xbf00_0000, c), 0); // -0.5
        assert_eq!(id(t, KEEP, LdexpF32, 0x8000_0000, c), 0); // -0
        assert_eq!(id(t, KEEP, LdexpF32, 0xff80_0000, c), 0); // -inf
        assert_eq!(id(t, KEEP, LdexpF32, 0x4020_0000, c), 0x3f80_0000); // 2.5
        assert_eq!(id(t, KEEP, LdexpF32, 0x7f80_0000, c), 0x3f80_0000); // +inf
        assert_eq!(id(t, KEEP, LdexpF32, 0x3f40_0000, c), 0x3f40_0000); // 0.75
        assert_eq!(id(t, KEEP, LdexpF32, 0x3f80_0000, c), 0x3f80_0000); // 1.0
        assert_eq!(id(t, KEEP, LdexpF16, 0x4000, c), 0x3c00);
        assert_eq!(id(t, KEEP, LdexpF64, 0xc000_0000_0000_0000, c), 0);
        // NaN with DX10_CLAMP set is +0 everywhere.
        assert_eq!(id(t, KEEP | DX10_CLAMP, LdexpF32, 0xffc0_0001, c), 0);
    }
    // Without DX10_CLAMP: NaN survives on gfx1100, not on gfx1201.
    assert_eq!(id("gfx1100", KEEP, LdexpF32, 0xffc0_0001, c), 0xffc0_0001);
    assert_eq!(id("gfx1201", KEEP, LdexpF32, 0xffc0_0001, c), 0);
    // abs(-0.75) mul:2 clamp -> 1.0 [captured].
    let m = M {
        abs: true,
        omod: Omod::Mul2,
        clamp: true,
        neg: false,
    };
    assert_eq!(id("gfx1201", KEEP, LdexpF32, 0xbf40_0000, m), 0x3f80_0000);
    assert_eq!(id("gfx1100", 0x00, LdexpF32, 0xbf40_0000, m), 0x3f80_0000);
    // Under IEEE = 1 the mul:2 is ignored on gfx1100: 0.75 stays.
    assert_eq!(id("gfx1100", IEEE, LdexpF32, 0xbf40_0000, m), 0x3f40_0000);
}
