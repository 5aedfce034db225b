//! Bad machine code gives a typed error with the byte offset, never a panic.

use amdgpu_valu::asm::{assemble, decode, DecodeError};
use amdgpu_valu::Target;

fn bytes(target: Target, text: &str) -> Vec<u8> {
    assemble(target, text).unwrap_or_else(|e| panic!("{target} `{text}`: {e}"))
}

#[test]
fn truncated_input_names_the_missing_dword() {
    let t = Target::Gfx1030;
    assert!(matches!(
        decode(t, &[]),
        Err(DecodeError::Truncated { offset: 0, .. })
    ));
    assert!(matches!(
        decode(t, &[0x02, 0x41]),
        Err(DecodeError::Truncated { offset: 0, .. })
    ));
    // VOP3: the second dword is missing.
    let vop3 = bytes(t, "v_fract_f32_e64 v1, v2");
    assert!(matches!(
        decode(t, &vop3[..4]),
        Err(DecodeError::Truncated {
            offset: 4,
            needed: 8,
            available: 4
        })
    ));
    // VOP1 with a literal: the literal is missing.
    let lit = bytes(t, "v_fract_f32 v1, 0x12345678");
    assert_eq!(lit.len(), 8);
    assert!(matches!(
        decode(t, &lit[..4]),
        Err(DecodeError::Truncated { offset: 4, .. })
    ));
    // gfx1250's 64-bit literal: the high dword is missing.
    let lit64 = bytes(Target::Gfx1250, "v_fract_f64 v[2:3], 0x123456789");
    assert_eq!(lit64.len(), 12);
    let e = decode(Target::Gfx1250, &lit64[..8]).unwrap_err();
    assert!(matches!(e, DecodeError::Truncated { offset: 8, .. }), "{e}");
    assert!(e.to_string().contains("byte offset 8"), "{e}");
}

#[test]
fn unknown_encodings_and_opcodes() {
    let t = Target::Gfx1201;
    // s_nop (SOPP) is not in scope.
    assert!(matches!(
        decode(t, &[0x00, 0x00, 0x80, 0xbf]),
        Err(DecodeError::UnknownEncoding { offset: 0, .. })
    ));
    // VOP1 v_mov_b32 (opcode 1) is a real instruction, but not FRACT/LDEXP.
    let e = decode(t, &[0x02, 0x03, 0x02, 0x7e]).unwrap_err();
    assert!(
        matches!(
            e,
            DecodeError::UnknownOpcode {
                offset: 0,
                encoding: "VOP1",
                op: 1
            }
        ),
        "{e}"
    );
    // The GFX9 opcode of V_FRACT_F32 means something else on GFX12.
    let gfx9 = bytes(Target::Gfx908, "v_fract_f32 v1, v2");
    assert!(matches!(
        decode(t, &gfx9),
        Err(DecodeError::UnknownOpcode { .. })
    ));
}

#[test]
fn reserved_sdwa_fields() {
    let t = Target::Gfx1030;
    let good = bytes(
        t,
        "v_fract_f16_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_0",
    );
    assert!(decode(t, &good).is_ok());
    // dst_unused = 3 (bits 12:11 of the second dword).
    let mut b = good.clone();
    b[5] |= 0x18;
    let e = decode(t, &b).unwrap_err();
    assert_eq!(
        e,
        DecodeError::Reserved {
            offset: 4,
            field: "dst_unused",
            value: 3
        }
    );
    assert!(e.to_string().contains("byte offset 4"), "{e}");
    // src0_sel = 7 (bits 18:16).
    let mut b = good.clone();
    b[6] |= 0x07;
    assert_eq!(
        decode(t, &b).unwrap_err(),
        DecodeError::Reserved {
            offset: 4,
            field: "src0_sel",
            value: 7
        }
    );
    // dst_sel = 7 (bits 10:8).
    let mut b = good;
    b[5] |= 0x07;
    assert_eq!(
        decode(t, &b).unwrap_err(),
        DecodeError::Reserved {
            offset: 4,
            field: "dst_sel",
            value: 7
        }
    );
    // No SDWA on GFX11+: the marker is just an unknown operand code there.
    let sdwa = bytes(t, "v_fract_f32_sdwa v1, v2");
    assert!(decode(Target::Gfx1100, &sdwa).is_err());
}

#[test]
fn reserved_vop3_fields() {
    let t = Target::Gfx1201;
    let good = bytes(t, "v_fract_f32_e64 v1, v2");
    // A src1 field on a one-source instruction.
    let mut b = good.clone();
    b[5] |= 0x02;
    assert!(matches!(
        decode(t, &b),
        Err(DecodeError::Reserved {
            offset: 4,
            field: "src1",
            ..
        })
    ));
    // NEG of src2.
    let mut b = good.clone();
    b[7] |= 0x80;
    assert!(matches!(
        decode(t, &b),
        Err(DecodeError::Reserved {
            offset: 4,
            field: "neg",
            ..
        })
    ));
    // ABS on LDEXP's integer exponent.
    let ldexp = bytes(t, "v_ldexp_f32 v1, v2, v3");
    let mut b = ldexp;
    b[1] |= 0x02;
    assert!(matches!(
        decode(t, &b),
        Err(DecodeError::Reserved { field: "abs", .. })
    ));
    // op_sel on a 32-bit instruction.
    let mut b = good;
    b[1] |= 0x08;
    assert!(matches!(
        decode(t, &b),
        Err(DecodeError::Reserved { offset: 0, .. })
    ));
}

#[test]
fn assembly_errors_name_the_column() {
    let e = assemble(Target::Gfx908, "v_fract_f16_e64 v1, 0x1234").unwrap_err();
    assert_eq!(e.column, 21);
    assert!(e.to_string().starts_with("column 21: "), "{e}");
    let e = assemble(Target::Gfx1201, "v_fract_f32_sdwa v1, v2").unwrap_err();
    assert_eq!(e.column, 1);
    assert!(e.reason.contains("sdwa"), "{e}");
    // At the modifier's name, as llvm-mc (the fixtures) reports it.
    let e = assemble(Target::Gfx1030, "v_fract_f32 v1, v2 mul:3").unwrap_err();
    assert_eq!(e.column, 20);
    let e = assemble(Target::Gfx1030, "v_fract_f32 v1, v256").unwrap_err();
    assert_eq!(
        (e.column, e.reason.as_str()),
        (17, "register index is out of range")
    );
}
