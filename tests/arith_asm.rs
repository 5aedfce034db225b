//! The arithmetic core's machine code, rule by rule. Every expected byte
//! string, text, message and column below is what `llvm-mc-22
//! -show-encoding` (or `--disassemble`) printed for the same line
//! (`-mattr=+real-true16` on gfx11/gfx12); the random-line fixtures
//! (`tests/asm_fixtures.rs`) cover the rest.

use amdgpu_valu::asm::{assemble, decode, disassemble, encode, parse};
use amdgpu_valu::{Encoding, Instruction, Opcode, Operand, Part, SrcMods, Target};

fn bytes(t: Target, line: &str) -> Vec<u8> {
    assemble(t, line).unwrap_or_else(|e| panic!("{t} `{line}`: {e}"))
}

fn error(t: Target, line: &str) -> (usize, String) {
    let e = parse(t, line).unwrap_err();
    (e.column, e.reason)
}

/// Decoding `b` prints `text`.
fn prints(t: Target, b: &[u8], text: &str) {
    let (i, len) = decode(t, b).unwrap_or_else(|e| panic!("{t} {b:02x?}: {e}"));
    assert_eq!(len, b.len());
    assert_eq!(disassemble(t, &i), text);
}

#[test]
fn opcodes_differ_between_gfx9_and_later_families() {
    // v_add_f32_e32 v1, v2, v3: VOP2 opcode 0x01 on GFX9, 0x03 from GFX10.
    assert_eq!(
        bytes(Target::Gfx908, "v_add_f32_e32 v1, v2, v3"),
        [0x02, 0x07, 0x02, 0x02]
    );
    assert_eq!(
        bytes(Target::Gfx1100, "v_add_f32_e32 v1, v2, v3"),
        [0x02, 0x07, 0x02, 0x06]
    );
    // V_ADD_F64 is VOP3 0x280 on GFX9, VOP2 0x02 on gfx1201.
    assert_eq!(
        bytes(Target::Gfx90a, "v_add_f64 v[2:3], v[4:5], v[6:7]"),
        [0x02, 0x00, 0x80, 0xd2, 0x04, 0x0d, 0x02, 0x00]
    );
    assert_eq!(
        bytes(Target::Gfx1201, "v_add_f64 v[2:3], v[4:5], v[6:7]"),
        [0x04, 0x0d, 0x04, 0x04]
    );
    // V_FMA_F32 (VOP3 only): 0x1cb, 0x14b, 0x213.
    for (t, op) in [
        (Target::Gfx908, [0xcb, 0xd1]),
        (Target::Gfx1030, [0x4b, 0xd5]),
        (Target::Gfx1250, [0x13, 0xd6]),
    ] {
        let b = bytes(t, "v_fma_f32 v1, v2, v3, v4");
        assert_eq!(b[2..4], op, "{t}");
        assert_eq!(b[4..], [0x02, 0x07, 0x12, 0x04], "{t}");
    }
}

#[test]
fn fmamk_and_fmaak_take_one_literal_k() {
    let t = Target::Gfx1100;
    // K is always a literal, 1.0 included (no inline constant).
    assert_eq!(
        bytes(t, "v_fmamk_f32 v1, v2, 1.0, v3"),
        [0x02, 0x07, 0x02, 0x58, 0x00, 0x00, 0x80, 0x3f]
    );
    // A literal src0 of K's value shares K's dword; another value is refused at K.
    assert_eq!(
        bytes(t, "v_fmamk_f32 v1, 0x1234, 0x1234, v3"),
        [0xff, 0x06, 0x02, 0x58, 0x34, 0x12, 0x00, 0x00]
    );
    assert_eq!(
        error(t, "v_fmamk_f32 v1, 0x1234, 0x1235, v3"),
        (25, "only one unique literal operand is allowed".into())
    );
    assert_eq!(
        error(t, "v_fmaak_f32 v1, 0x1234, v3, 0x1235"),
        (29, "only one unique literal operand is allowed".into())
    );
    // No modifiers and no VOP3 form.
    assert_eq!(
        error(t, "v_fmamk_f32 v1, |v2|, 0x11, v3"),
        (17, "not a valid operand.".into())
    );
    assert_eq!(error(t, "v_fmamk_f32 v1, v2, 0x11, v3 clamp").0, 30);
    // The instruction has one encoding: no suffix printed.
    prints(
        t,
        &[0x02, 0x07, 0x02, 0x58, 0x11, 0x00, 0x00, 0x00],
        "v_fmamk_f32 v1, v2, 0x11, v3",
    );
    // K is src1 of FMAMK and src2 of FMAAK, in syntax order.
    let i = parse(t, "v_fmaak_f32 v1, v2, v3, 0x11").unwrap();
    assert_eq!(
        (i.src1, i.src2),
        (Some(Operand::v(3)), Some(Operand::Literal(0x11)))
    );
}

#[test]
fn gfx1250_f64_k_is_a_64_bit_literal() {
    let t = Target::Gfx1250;
    // 12 bytes: the VOP2 word and the 64-bit K.
    assert_eq!(
        bytes(t, "v_fmamk_f64 v[2:3], v[4:5], 0x3ff0000000000001, v[6:7]"),
        [0x04, 0x0d, 0x04, 0x46, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f]
    );
    // 1.0 is the F64 1.0 (high dword 0x3ff00000), printed as that dword.
    let b = bytes(t, "v_fmamk_f64 v[2:3], v[4:5], 1.0, v[6:7]");
    assert_eq!(
        b,
        [0x04, 0x0d, 0x04, 0x46, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f]
    );
    prints(t, &b, "v_fmamk_f64 v[2:3], v[4:5], 0x3ff00000, v[6:7]");
    // A 64-bit literal src0 of VOP2 F64: code 254.
    assert_eq!(
        bytes(t, "v_add_f64 v[2:3], 0x3ff0000000000001, v[6:7]"),
        [0xfe, 0x0c, 0x04, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x3f]
    );
}

#[test]
fn fmac_has_an_implicit_accumulator() {
    let t = Target::Gfx1100;
    let i = parse(t, "v_fmac_f32_e64 v1, v2, v3").unwrap();
    assert_eq!(i.src2, None);
    assert!(i.opcode.info().accumulator());
    // The VOP3 src2 field is 0; LLVM ignores other values, this decoder
    // refuses them (0x0a in the last byte pair: src2 = v2).
    assert_eq!(
        bytes(t, "v_fmac_f32_e64 v1, v2, v3"),
        [0x01, 0x00, 0x2b, 0xd5, 0x02, 0x07, 0x02, 0x00]
    );
    assert!(decode(t, &[0x01, 0x00, 0x2b, 0xd5, 0x02, 0x07, 0x0a, 0x04]).is_err());
    // LLVM's quirk: `.h` on the destination sets op_sel bit 3 only; the
    // disassembler prints four op_sel entries, the accumulator's as 0.
    let b = bytes(t, "v_fmac_f16_e64 v1.h, v2.l, v3.l");
    assert_eq!(b, [0x01, 0x40, 0x36, 0xd5, 0x02, 0x07, 0x02, 0x00]);
    prints(t, &b, "v_fmac_f16_e64 v1.h, v2.l, v3.l op_sel:[0,0,0,1]");
    prints(
        t,
        &[0x01, 0x48, 0x36, 0xd5, 0x02, 0x07, 0x02, 0x00],
        "v_fmac_f16_e64 v1.h, v2.h, v3.l op_sel:[1,0,0,1]",
    );
    // NEG of the accumulator (bit 2) is an invalid encoding for LLVM too.
    assert!(decode(t, &[0x01, 0x00, 0x36, 0xd5, 0x02, 0x07, 0x02, 0x80]).is_err());
}

#[test]
fn vop3_modifiers_are_per_source() {
    let t = Target::Gfx1100;
    // -v2, |v3|: NEG bit 0, ABS bit 1; clamp, div:2.
    assert_eq!(
        bytes(t, "v_fmac_f16_e64 v1.l, -v2.l, |v3.l| clamp div:2"),
        [0x01, 0x82, 0x36, 0xd5, 0x02, 0x07, 0x02, 0x38]
    );
    // Three sources, the third with a high half: op_sel bit 2.
    assert_eq!(
        bytes(t, "v_fma_f16 v1.l, v2.l, v3.l, v4.h"),
        [0x01, 0x20, 0x48, 0xd6, 0x02, 0x07, 0x12, 0x04]
    );
    // The constant bus: two scalars on GFX11, refused at the third.
    assert_eq!(
        error(t, "v_fma_f32 v1, s2, s3, s4"),
        (
            23,
            "invalid operand (violates constant bus restrictions)".into()
        )
    );
    // One literal, shared when the values agree.
    assert_eq!(
        bytes(t, "v_fma_f32 v1, 0x1234, s3, 0x1234"),
        [0x01, 0x00, 0x13, 0xd6, 0xff, 0x06, 0xfc, 0x03, 0x34, 0x12, 0x00, 0x00]
    );
    assert_eq!(
        error(t, "v_fma_f32 v1, 0x1234, s3, 0x1235"),
        (27, "only one unique literal operand is allowed".into())
    );
    // The same instruction built as a value.
    let built = Instruction::ternary(
        Opcode::FmaF16,
        Encoding::Vop3,
        Operand::v_lo(1),
        Operand::v_lo(2),
        Operand::v_lo(3),
        Operand::v_hi(4),
    )
    .with_src_mods(
        2,
        SrcMods {
            abs: true,
            neg: true,
            sext: false,
        },
    );
    assert_eq!(
        encode(t, &built).unwrap(),
        [0x01, 0x24, 0x48, 0xd6, 0x02, 0x07, 0x12, 0x84]
    );
}

#[test]
fn gfx9_and_gfx10_fma_f16_takes_op_sel() {
    // v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,0,1]: src0 and dst high halves.
    for (t, op) in [
        (Target::Gfx908, [0x06, 0xd2]),
        (Target::Gfx1030, [0x4b, 0xd7]),
    ] {
        let line = "v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,0,1]";
        let b = bytes(t, line);
        assert_eq!(b, [0x01, 0x48, op[0], op[1], 0x02, 0x07, 0x12, 0x04], "{t}");
        prints(t, &b, line);
        let i = parse(t, line).unwrap();
        assert_eq!(
            i.dst,
            Operand::Vgpr {
                index: 1,
                part: Part::Hi
            }
        );
        // Instructions with an e32 form take no op_sel there.
        assert_eq!(
            error(t, "v_add_f16_e64 v1, v2, v3 op_sel:[0,0,1]"),
            (26, "not a valid operand.".into())
        );
    }
}

#[test]
fn sdwa_and_dpp_carry_src1_modifiers() {
    // SDWA: src1 ABS and its selector.
    assert_eq!(
        bytes(
            Target::Gfx1030,
            "v_add_f16_sdwa v1, -v2, |v3| src1_sel:WORD_1"
        ),
        [0xf9, 0x06, 0x02, 0x64, 0x02, 0x16, 0x16, 0x25]
    );
    // A float source takes no sext.
    assert_eq!(
        error(Target::Gfx1030, "v_add_f32_sdwa v1, v2, sext(v3)").0,
        24
    );
    // e32 DPP16: src0 NEG bit 20, src1 ABS bit 23.
    assert_eq!(
        bytes(Target::Gfx908, "v_fmac_f32_dpp v1, -v2, |v3| row_shl:1"),
        [0xfa, 0x06, 0x02, 0x76, 0x02, 0x01, 0x91, 0xff]
    );
}

#[test]
fn fmac_f64_dpp_takes_row_newbcast_only() {
    let t = Target::Gfx90a;
    assert_eq!(
        error(t, "v_fmac_f64_dpp v[0:1], v[2:3], v[4:5] row_shl:1"),
        (39, "DP ALU dpp only supports row_newbcast".into())
    );
    assert!(assemble(t, "v_fmac_f64_dpp v[0:1], v[2:3], v[4:5] row_newbcast:1").is_ok());
    assert_eq!(
        error(Target::Gfx908, "v_fmac_f64 v[0:1], v[2:3], v[4:5]").0,
        1
    );
}
