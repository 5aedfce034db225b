//! SDWA `sext` on LDEXP_F16's exponent (docs/semantics.md §7.6), the only
//! integer-typed source an SDWA form of V_FRACT or V_LDEXP has: llvm-mc 22
//! has no `v_ldexp_f32_sdwa` or `v_ldexp_f64_sdwa`, and refuses `sext()` on
//! a float source. Every source selector, a VGPR and an SGPR exponent, with
//! and without `sext`, on every SDWA target (GFX9: gfx908, gfx90a, gfx942,
//! gfx950; GFX10: gfx1010, gfx1030).
//!
//! Each value puts a field whose sign differs from that of the same-width
//! field at bit 0 of the register (the "unshifted word"), so a selector that
//! took the sign from there would read another exponent.
//!
//! Results by hand: src0 is 1.0 (F16 0x3c00), so the result is 2^e with e
//! the exponent the selector reads; LDEXP_F16 reads it as an i16 (bits
//! 15:0 of the selected, extended value). F16 2^e for -14 <= e <= 15 is
//! (e + 15) << 10: 2^-6 = 0x2400, 2^-5 = 0x2800, 2^-4 = 0x2c00, 2^-3 =
//! 0x3000, 2^-2 = 0x3400, 2^-1 = 0x3800, 2^2 = 0x4400, 2^3 = 0x4800, 2^4 =
//! 0x4c00, 2^5 = 0x5000, 2^7 = 0x5800. Any e >= 16 overflows to +inf
//! (0x7c00) and any e <= -26 rounds to +0 (below half the smallest
//! denormal 2^-24) under MODE 0xf0 (round to nearest even).

use amdgpu_valu::asm;
use amdgpu_valu::capture::{parse_line, run_row, Outcome};
use amdgpu_valu::SdwaSel;

/// The SDWA targets, with byte 3 of the encoding llvm-mc 22 prints (the
/// VOP2 opcode's top bits: LDEXP_F16 is VOP2 0x33 on GFX9, 0x3b on GFX10).
const TARGETS: [(&str, u8); 6] = [
    ("gfx908", 0x66),
    ("gfx90a", 0x66),
    ("gfx942", 0x66),
    ("gfx950", 0x66),
    ("gfx1010", 0x76),
    ("gfx1030", 0x76),
];

/// One selector and exponent register value, and the F16 result bits with
/// and without `sext`.
struct Case {
    sel: &'static str,
    /// The last byte llvm-mc 22 prints for `src1_sel:{sel}`: [sext(v2), v2,
    /// sext(s2), s2] (src1_sgpr is bit 7, src1_sext bit 3, src1_sel 2:0).
    byte7: [u8; 4],
    exponent: u32,
    with_sext: u16,
    without_sext: u16,
}

const CASES: [Case; 13] = [
    // BYTE_0 0xfe: sext -2 -> 2^-2; zero-extended 254 -> +inf.
    Case {
        sel: "BYTE_0",
        byte7: [0x08, 0x00, 0x88, 0x80],
        exponent: 0x0102_03fe,
        with_sext: 0x3400,
        without_sext: 0x7c00,
    },
    // BYTE_0 0x05: +5 either way (the bytes above are negative).
    Case {
        sel: "BYTE_0",
        byte7: [0x08, 0x00, 0x88, 0x80],
        exponent: 0xfffe_ff05,
        with_sext: 0x5000,
        without_sext: 0x5000,
    },
    // The example: BYTE_1 0xff is -1 -> 2^-1, not +255 -> +inf.
    Case {
        sel: "BYTE_1",
        byte7: [0x09, 0x01, 0x89, 0x81],
        exponent: 0x0000_ff00,
        with_sext: 0x3800,
        without_sext: 0x7c00,
    },
    // BYTE_1 0xff -> -1, while byte 0 (0x04) is positive.
    Case {
        sel: "BYTE_1",
        byte7: [0x09, 0x01, 0x89, 0x81],
        exponent: 0x0302_ff04,
        with_sext: 0x3800,
        without_sext: 0x7c00,
    },
    // BYTE_1 0x07 -> +7, while byte 0 (0x80) is negative: a sign taken
    // from byte 0 would read 0xffffff07, i16 -249 -> +0.
    Case {
        sel: "BYTE_1",
        byte7: [0x09, 0x01, 0x89, 0x81],
        exponent: 0xfefd_0780,
        with_sext: 0x5800,
        without_sext: 0x5800,
    },
    // BYTE_2 0xfd -> -3; zero-extended 253 -> +inf.
    Case {
        sel: "BYTE_2",
        byte7: [0x0a, 0x02, 0x8a, 0x82],
        exponent: 0x01fd_0203,
        with_sext: 0x3000,
        without_sext: 0x7c00,
    },
    // BYTE_2 0x03 -> +3, byte 0 0xff negative.
    Case {
        sel: "BYTE_2",
        byte7: [0x0a, 0x02, 0x8a, 0x82],
        exponent: 0xfe03_80ff,
        with_sext: 0x4800,
        without_sext: 0x4800,
    },
    // BYTE_3 0xfc -> -4; zero-extended 252 -> +inf.
    Case {
        sel: "BYTE_3",
        byte7: [0x0b, 0x03, 0x8b, 0x83],
        exponent: 0xfc01_0203,
        with_sext: 0x2c00,
        without_sext: 0x7c00,
    },
    // BYTE_3 0x04 -> +4, byte 0 0xff negative.
    Case {
        sel: "BYTE_3",
        byte7: [0x0b, 0x03, 0x8b, 0x83],
        exponent: 0x04ff_80ff,
        with_sext: 0x4c00,
        without_sext: 0x4c00,
    },
    // WORD_0 0xfffb: i16 -5 whether or not bits 31:16 copy its sign (the
    // F16 exponent is bits 15:0), so sext changes nothing for WORDs here.
    Case {
        sel: "WORD_0",
        byte7: [0x0c, 0x04, 0x8c, 0x84],
        exponent: 0x0001_fffb,
        with_sext: 0x2800,
        without_sext: 0x2800,
    },
    // WORD_0 0x0007 -> +7 (bit 31 set).
    Case {
        sel: "WORD_0",
        byte7: [0x0c, 0x04, 0x8c, 0x84],
        exponent: 0x8000_0007,
        with_sext: 0x5800,
        without_sext: 0x5800,
    },
    // WORD_1 0xfffa -> -6 (word 0 positive).
    Case {
        sel: "WORD_1",
        byte7: [0x0d, 0x05, 0x8d, 0x85],
        exponent: 0xfffa_0001,
        with_sext: 0x2400,
        without_sext: 0x2400,
    },
    // WORD_1 0x0002 -> +2 (word 0 negative).
    Case {
        sel: "WORD_1",
        byte7: [0x0d, 0x05, 0x8d, 0x85],
        exponent: 0x0002_ffff,
        with_sext: 0x4400,
        without_sext: 0x4400,
    },
];

/// The capture row (docs/captures.md) for one case: v0 starts 0xa5a5a5a5
/// and keeps its high half (dst_sel:WORD_0, UNUSED_PRESERVE); src0 is
/// WORD_0 of v1 = 1.0 with 0x5a5a above it; the encoding column holds the
/// bytes llvm-mc 22 prints, which the assembler must reproduce.
fn row(target: &str, byte3: u8, case: &Case, sgpr: bool, sext: bool) -> String {
    let reg = if sgpr { "s2" } else { "v2" };
    let operand = if sext {
        format!("sext({reg})")
    } else {
        reg.to_string()
    };
    let byte7 = case.byte7[usize::from(sgpr) * 2 + usize::from(!sext)];
    let result = if sext {
        case.with_sext
    } else {
        case.without_sext
    };
    format!(
        "{target}\t0xf0\tv_ldexp_f16_sdwa v0, v1, {operand} dst_sel:WORD_0 \
         dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:{}\t\
         v0=0xa5a5a5a5 v1=0x5a5a3c00 {reg}={:#010x}\tv0=0xa5a5{result:04x}\t\
         [0xf9,0x04,0x00,{byte3:#04x},0x01,0x14,0x04,{byte7:#04x}]",
        case.sel, case.exponent
    )
}

#[test]
fn sext_reads_the_selected_field_as_signed_for_every_selector_source_and_target() {
    let mut rows = 0;
    for (target, byte3) in TARGETS {
        for case in &CASES {
            for sgpr in [false, true] {
                for sext in [true, false] {
                    let text = row(target, byte3, case, sgpr, sext);
                    let parsed = parse_line(1, &text)
                        .unwrap_or_else(|e| panic!("{text}: {e}"))
                        .expect("a row");
                    assert_eq!(run_row(&parsed), Outcome::Pass, "{text}");
                    // The decoded bytes are the same instruction as the text.
                    let t = parsed.target;
                    let bytes = parsed.encoding.as_deref().expect("an encoding column");
                    let decoded = asm::decode(t, bytes).map(|(i, _)| i);
                    assert_eq!(
                        decoded.ok(),
                        asm::parse(t, &parsed.instruction).ok(),
                        "{text}"
                    );
                    rows += 1;
                }
            }
        }
    }
    assert_eq!(rows, 6 * 13 * 4);
}

#[test]
fn sext_of_each_selector_extends_the_fields_top_bit_to_32_bits() {
    // The selected field and its 32-bit value, worked by hand: the field
    // at (shift, width), then its top bit copied into bits 31:width.
    for (sel, value, field, extended) in [
        (SdwaSel::Byte0, 0x0102_0380, 0x80, 0xffff_ff80),
        (SdwaSel::Byte0, 0xffff_ff7f, 0x7f, 0x0000_007f),
        (SdwaSel::Byte1, 0x0000_ff00, 0xff, 0xffff_ffff),
        (SdwaSel::Byte1, 0xffff_7fff, 0x7f, 0x0000_007f),
        (SdwaSel::Byte2, 0x0081_0000, 0x81, 0xffff_ff81),
        (SdwaSel::Byte2, 0xff01_ffff, 0x01, 0x0000_0001),
        (SdwaSel::Byte3, 0x9000_0000, 0x90, 0xffff_ff90),
        (SdwaSel::Byte3, 0x10ff_ffff, 0x10, 0x0000_0010),
        (SdwaSel::Word0, 0x0000_8001, 0x8001, 0xffff_8001),
        (SdwaSel::Word0, 0xffff_7ffe, 0x7ffe, 0x0000_7ffe),
        (SdwaSel::Word1, 0xc000_0000, 0xc000, 0xffff_c000),
        (SdwaSel::Word1, 0x4000_ffff, 0x4000, 0x0000_4000),
        (SdwaSel::Dword, 0x8000_0000, 0x8000_0000, 0x8000_0000),
    ] {
        assert_eq!(sel.extract(value, false), field, "{sel:?} {value:#010x}");
        assert_eq!(
            sel.extract(value, true),
            extended,
            "{sel:?} sext {value:#010x}"
        );
    }
}

#[test]
fn sext_on_a_float_source_is_refused_as_llvm_mc_refuses_it() {
    // llvm-mc 22: "not a valid operand" for the text; for the bytes of
    // `v_fract_f32_sdwa v1, v2 src0_sel:BYTE_1` with src0_sext (bit 19)
    // set, "invalid instruction encoding".
    for (target, bytes) in [
        ("gfx908", [0xf9, 0x36, 0x02, 0x7e, 0x02, 0x16, 0x09, 0x00]),
        ("gfx1030", [0xf9, 0x40, 0x02, 0x7e, 0x02, 0x16, 0x09, 0x00]),
    ] {
        let t = target.parse().expect("target");
        for text in [
            "v_fract_f32_sdwa v1, sext(v2) src0_sel:BYTE_1",
            "v_fract_f16_sdwa v1, sext(v2) src0_sel:BYTE_1",
            "v_ldexp_f16_sdwa v1, sext(v2), v3 src0_sel:BYTE_1",
        ] {
            assert!(asm::parse(t, text).is_err(), "{target} `{text}`");
        }
        assert!(asm::decode(t, &bytes).is_err(), "{target} {bytes:02x?}");
        // Without the bit the same bytes decode.
        let mut plain = bytes;
        plain[6] = 0x01;
        assert!(asm::decode(t, &plain).is_ok(), "{target} {plain:02x?}");
    }
}
