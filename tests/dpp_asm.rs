//! DPP in machine code: hand-decoded examples (each field checked by hand
//! against llvm-mc-22's bytes), the bound_ctrl spelling per target, LLVM's quirks,
//! and the round trip decode(encode(i)) == i over every DPP control code.

use amdgpu_valu::asm::{assemble, decode, disassemble, encode};
use amdgpu_valu::{
    Dpp, Dpp16, DppControl, Encoding, Instruction, Opcode, Operand, OperationKind, Part, Target,
};

fn bytes(t: Target, line: &str) -> Vec<u8> {
    assemble(t, line).unwrap_or_else(|e| panic!("{t} `{line}`: {e}"))
}

/// Lines whose fields were decoded by hand.
#[test]
fn hand_decoded_examples() {
    let cases: &[(Target, &str, &[u8])] = &[
        (
            Target::Gfx908,
            "v_fract_f32_dpp v5, -|v7| row_shr:3 row_mask:0x5 bank_mask:0xa bound_ctrl:0",
            &[0xfa, 0x36, 0x0a, 0x7e, 0x07, 0x13, 0x39, 0x5a],
        ),
        (
            Target::Gfx90a,
            "v_fract_f64_dpp v[4:5], v[2:3] row_newbcast:7 row_mask:0x3 bank_mask:0xc bound_ctrl:1",
            &[0xfa, 0x64, 0x08, 0x7e, 0x02, 0x57, 0x09, 0x3c],
        ),
        (
            Target::Gfx950,
            "v_ldexp_f16_dpp v3, -v4, v6 row_bcast:15 row_mask:0xa bank_mask:0xf",
            &[0xfa, 0x0c, 0x06, 0x66, 0x04, 0x42, 0x11, 0xaf],
        ),
        (
            Target::Gfx942,
            "v_fract_f16_dpp v1, |v2| wave_ror:1 row_mask:0xf bank_mask:0x1",
            &[0xfa, 0x90, 0x02, 0x7e, 0x02, 0x3c, 0x21, 0xf1],
        ),
        (
            Target::Gfx1030,
            "v_fract_f16_dpp v1, v2 row_xmask:9 row_mask:0xf bank_mask:0xf fi:1",
            &[0xfa, 0xbe, 0x02, 0x7e, 0x02, 0x69, 0x05, 0xff],
        ),
        (
            Target::Gfx1010,
            "v_ldexp_f16 v1, v2, v3 dpp8:[7,0,6,1,5,2,4,3] fi:1",
            &[0xea, 0x06, 0x02, 0x76, 0x02, 0x87, 0x53, 0x71],
        ),
        (
            Target::Gfx1100,
            "v_ldexp_f16_dpp v1.h, v2.l, v3.h row_share:11 row_mask:0x2 bank_mask:0x4 bound_ctrl:1",
            &[0xfa, 0x06, 0x03, 0x77, 0x02, 0x5b, 0x09, 0x24],
        ),
        (
            Target::Gfx1201,
            "v_fract_f32 v9, v10 dpp8:[1,1,1,1,1,1,1,1]",
            &[0xe9, 0x40, 0x12, 0x7e, 0x0a, 0x49, 0x92, 0x24],
        ),
        (
            Target::Gfx1250,
            "v_ldexp_f32_e64_dpp v1, -|v2|, v3 clamp mul:2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
            &[0x01, 0x81, 0x1c, 0xd7, 0xfa, 0x06, 0x02, 0x28, 0x02, 0xb1, 0x00, 0xff],
        ),
        (
            Target::Gfx1150,
            "v_ldexp_f16_e64_dpp v1.h, v2.h, s3 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
            &[0x01, 0x48, 0x3b, 0xd5, 0xfa, 0x06, 0x00, 0x00, 0x02, 0xe4, 0x00, 0xff],
        ),
        (
            Target::Gfx1201,
            "v_fract_f16_e64_dpp v1.l, v2.h dpp8:[3,2,1,0,7,6,5,4] fi:1",
            &[0x01, 0x08, 0xdf, 0xd5, 0xea, 0x00, 0x00, 0x00, 0x02, 0x53, 0x70, 0x97],
        ),
    ];
    for &(t, line, want) in cases {
        assert_eq!(bytes(t, line), want, "{t} `{line}`");
        let (instr, len) = decode(t, want).unwrap_or_else(|e| panic!("{t} `{line}`: {e}"));
        assert_eq!(len, want.len());
        assert!(instr.dpp.is_some());
        assert_eq!(encode(t, &instr).as_deref(), Ok(want), "{t} `{line}`");
    }
}

/// The fields of the first example, one by one: SRC0 = 7,
/// CTRL = 0x113 (row_shr:3), BC = 1 (bound_ctrl:0 on GFX9), NEG = 1,
/// ABS = 1, BANK = 0xA, ROW = 5.
#[test]
fn dpp16_fields_by_hand() {
    let b = bytes(
        Target::Gfx908,
        "v_fract_f32_dpp v5, -|v7| row_shr:3 row_mask:0x5 bank_mask:0xa bound_ctrl:0",
    );
    let w = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    assert_eq!(w & 0xff, 7);
    assert_eq!(w >> 8 & 0x1ff, 0x113);
    assert_eq!(w >> 19 & 1, 1);
    assert_eq!(w >> 20 & 3, 3);
    assert_eq!(w >> 24 & 0xf, 0xa);
    assert_eq!(w >> 28, 5);
    let (i, _) = decode(Target::Gfx908, &b).expect("decodes");
    assert_eq!(
        i.dpp,
        Some(Dpp::Dpp16(Dpp16 {
            bound_ctrl: true,
            row_mask: 5,
            bank_mask: 0xa,
            ..Dpp16::new(DppControl::RowShr(3))
        }))
    );
    assert!(i.src0_mods.abs && i.src0_mods.neg);
}

/// `bound_ctrl:0` sets BC before GFX11 and clears it from
/// GFX11; `bound_ctrl:1` sets it everywhere; the printer shows
/// `bound_ctrl:1` for BC = 1 only.
#[test]
fn bound_ctrl_spelling_per_target() {
    for t in Target::ALL {
        let zero = bytes(t, "v_fract_f32_dpp v0, v1 quad_perm:[0,1,2,3] bound_ctrl:0");
        let one = bytes(t, "v_fract_f32_dpp v0, v1 quad_perm:[0,1,2,3] bound_ctrl:1");
        let sets = t.spec().dpp.bound_ctrl_zero.value == amdgpu_valu::BoundCtrlZero::SetsBc;
        assert_eq!(zero[6], if sets { 0x08 } else { 0x00 }, "{t}");
        assert_eq!(one[6], 0x08, "{t}");
        let (i, _) = decode(t, &one).expect("decodes");
        assert!(disassemble(t, &i).ends_with(" bound_ctrl:1"), "{t}");
    }
}

/// LLVM's quirks: masks keep their low 4 bits, DPP16 `fi:N` is N & 1,
/// DPP8 `fi:N` is the FI marker for any nonzero N.
#[test]
fn llvm_quirks() {
    let t = Target::Gfx1100;
    let q = "v_fract_f32_dpp v0, v1 quad_perm:[0,1,2,3]";
    assert_eq!(bytes(t, &format!("{q} row_mask:0x10"))[7], 0x0f);
    assert_eq!(bytes(t, &format!("{q} bank_mask:0x10"))[7], 0xf0);
    assert_eq!(bytes(t, &format!("{q} row_mask:-1"))[7], 0xff);
    assert_eq!(bytes(t, &format!("{q} fi:2"))[6], 0x00);
    assert_eq!(bytes(t, &format!("{q} fi:3"))[6], 0x04);
    assert_eq!(bytes(t, "v_fract_f32_dpp v0, v1 row_shl:1+2")[5], 0x03);
    assert_eq!(
        bytes(t, "v_fract_f32 v0, v1 dpp8:[1,0,3,2,5,4,7,6] fi:-2")[0],
        0xea
    );
    // sext on LDEXP_F16's exponent is taken and dropped.
    assert_eq!(
        bytes(t, "v_ldexp_f16_dpp v0, v1, sext(v2) quad_perm:[0,1,2,3]"),
        [0xfa, 0x04, 0x00, 0x76, 0x01, 0xe4, 0x00, 0xff]
    );
}

/// Every DPP16 control code on every DPP form of every target: the
/// instruction encodes, and decoding gives it back (reserved and other
/// families' codes included: they decode, as LLVM decodes them).
#[test]
fn every_control_code_round_trips() {
    let mut checked = 0;
    for t in Target::ALL {
        let spec = t.spec();
        // FRACT and LDEXP; the arithmetic forms round-trip in their own tests.
        for f in spec.dpp_forms.iter().filter(|f| {
            matches!(
                f.opcode.info().operation,
                OperationKind::Fract | OperationKind::Ldexp
            )
        }) {
            let wide = f.opcode.format().bits() == 64;
            let (dst, src0) = if wide {
                (Operand::v(2), Operand::v(4))
            } else if spec.true16.value && f.opcode.format().bits() == 16 {
                let h = |index, part| Operand::Vgpr { index, part };
                (h(1, Part::Hi), h(2, Part::Lo))
            } else {
                (Operand::v(1), Operand::v(2))
            };
            let src1 = f.opcode.is_ldexp().then(|| match dst {
                Operand::Vgpr { part, .. } if part != Part::Full => Operand::Vgpr {
                    index: 3,
                    part: Part::Hi,
                },
                _ => Operand::v(3),
            });
            let base = Instruction {
                src1,
                ..Instruction::unary(f.opcode, f.encoding, dst, src0)
            };
            let dpps: Vec<Dpp> = if f.dpp8 {
                vec![
                    Dpp::Dpp8 {
                        sel: [7, 6, 5, 4, 3, 2, 1, 0],
                        fi: false,
                    },
                    Dpp::Dpp8 {
                        sel: [0, 0, 1, 1, 2, 2, 3, 7],
                        fi: true,
                    },
                ]
            } else {
                (0..0x200u16)
                    .map(|code| {
                        Dpp::Dpp16(Dpp16 {
                            bound_ctrl: code % 3 == 0,
                            fi: spec.dpp.fi.value && code % 5 == 0,
                            row_mask: (code % 16) as u8,
                            ..Dpp16::new(DppControl::from_code(code))
                        })
                    })
                    .collect()
            };
            for dpp in dpps {
                let i = base.with_dpp(dpp);
                let b = encode(t, &i).unwrap_or_else(|e| panic!("{t} {i:?}: {e}"));
                let len = if f.encoding == Encoding::Vop3 { 12 } else { 8 };
                assert_eq!(b.len(), len);
                assert_eq!(decode(t, &b), Ok((i, len)), "{t} {i:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// What the one instruction check (validate.rs, run by the encoder)
/// refuses in DPP form: a
/// non-VGPR src0, a literal, a form the target lacks, e32 clamp, e32 DPP8
/// with ABS, FI without an FI bit.
#[test]
fn the_instruction_check_refuses() {
    let v = Operand::v;
    let q = Dpp::Dpp16(Dpp16::new(DppControl::QuadPerm([0, 1, 2, 3])));
    let fract = |enc| Instruction::unary(Opcode::FractF32, enc, v(0), v(1));
    let bad: &[(Target, Instruction)] = &[
        (
            Target::Gfx1100,
            Instruction::unary(
                Opcode::FractF32,
                Encoding::Vop1,
                v(0),
                Operand::InlineInt(1),
            )
            .with_dpp(q),
        ),
        (Target::Gfx1030, fract(Encoding::Vop3).with_dpp(q)),
        (
            Target::Gfx1100,
            Instruction {
                clamp: true,
                ..fract(Encoding::Vop1)
            }
            .with_dpp(q),
        ),
        (
            Target::Gfx1201,
            Instruction {
                src0_mods: amdgpu_valu::SrcMods {
                    abs: true,
                    ..Default::default()
                },
                ..fract(Encoding::Vop1)
            }
            .with_dpp(Dpp::Dpp8 {
                sel: [0; 8],
                fi: false,
            }),
        ),
        (
            Target::Gfx908,
            fract(Encoding::Vop1).with_dpp(Dpp::Dpp16(Dpp16 {
                fi: true,
                ..Dpp16::new(DppControl::RowMirror)
            })),
        ),
        (
            Target::Gfx908,
            fract(Encoding::Vop1).with_dpp(Dpp::Dpp8 {
                sel: [0; 8],
                fi: false,
            }),
        ),
        (
            Target::Gfx1100,
            Instruction {
                src1: Some(Operand::Literal(0x1234)),
                ..Instruction::unary(Opcode::LdexpF32, Encoding::Vop3, v(0), v(1))
            }
            .with_dpp(q),
        ),
    ];
    for (t, i) in bad {
        assert!(encode(*t, i).is_err(), "{t} {i:?}");
    }
}
