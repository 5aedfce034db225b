//! Reserved bits of DPP and SDWA words, one test per bit group: under the
//! default switches (`dpp.reserved_bits`, `sdwa_reserved_bits`: ignored)
//! the word decodes to LLVM's text, keeps the bits so it encodes back to
//! the same bytes, and executes as without them; flipped to `error`, the
//! decoder refuses the word naming the bit and the executor refuses the
//! instruction.
//!
//! The words are built by hand from the instruction llvm-mc-22 encodes
//! (`-show-encoding`), with one group of reserved bits set. Every expected
//! text is what `llvm-mc-22 -triple=amdgcn -mcpu=<target> --disassemble
//! -show-encoding` printed for that word (with `-mattr=+real-true16` on
//! GFX11 and GFX12, as the crate follows), run on 2026-12-04; LLVM's
//! re-encoding of each is the word with the bits cleared, except LDEXP's
//! e32 DPP src1 bits 23:22, which it keeps.

use amdgpu_valu::__testing::{decode_with_spec, execute_with_spec};
use amdgpu_valu::asm::{decode, disassemble, encode, DecodeError};
use amdgpu_valu::{
    Dpp, Dpp16, DppControl, DppReservedBits, Encoding, Evidence, Instruction, Opcode, Operand,
    Sdwa, SdwaReservedBits, Sourced, Target, TargetSpec, Wave,
};

fn flipped<T>(value: T) -> Sourced<T> {
    Sourced {
        value,
        evidence: Evidence::Open("flipped by tests/reserved_bits.rs"),
    }
}

/// `target`'s spec with both reserved-bits switches set to error.
fn strict(target: Target) -> TargetSpec {
    let mut s = *target.spec();
    s.dpp.reserved_bits = flipped(DppReservedBits::Error);
    if s.sdwa_reserved_bits.is_some() {
        s.sdwa_reserved_bits = Some(flipped(SdwaReservedBits::Error));
    }
    s
}

/// `base` with `bits` ORed into byte `at`.
fn with(base: &[u8], at: usize, bits: u8) -> Vec<u8> {
    let mut b = base.to_vec();
    b[at] |= bits;
    b
}

/// The reserved bits a decoded instruction kept (DPP word, SDWA word).
fn kept(i: &Instruction) -> (u32, u32) {
    let dpp = match i.dpp {
        Some(Dpp::Dpp16(d)) => d.reserved,
        _ => 0,
    };
    (dpp, i.sdwa.map_or(0, |s| s.reserved))
}

/// Under the default switches `bytes` decodes to LLVM's `text`, keeps
/// `reserved` (DPP, SDWA), and encodes back to `bytes`; under `error` the
/// decoder refuses it naming `bit` of `word`.
fn check(target: Target, bytes: &[u8], text: &str, reserved: (u32, u32), word: &str, bit: u32) {
    let (instr, len) = decode(target, bytes).unwrap_or_else(|e| panic!("{target}: {e}"));
    assert_eq!(len, bytes.len(), "{target}: {text}");
    assert_eq!(disassemble(target, &instr), text, "{target}");
    assert_eq!(kept(&instr), reserved, "{target}: {text}");
    assert_eq!(
        encode(target, &instr).as_deref(),
        Ok(bytes),
        "{target}: {text}"
    );
    let e = decode_with_spec(&strict(target), bytes).expect_err("error refuses the word");
    let (switch, offset) = match word {
        "DPP" => ("dpp.reserved_bits", bytes.len() - 4),
        _ => ("sdwa_reserved_bits", 4),
    };
    assert_eq!(
        e,
        DecodeError::ReservedBit {
            offset,
            word: if word == "DPP" { "DPP" } else { "SDWA" },
            bit,
            switch,
        },
        "{target}: {text}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("reserved bit {bit} of the {word} word is set")),
        "{msg}"
    );
}

/// Execute `instr` on `spec`'s target with v2 = 1.5 and v3 = 1 in every
/// lane: v1 of lane 0, or the error.
fn run(spec: &TargetSpec, instr: &Instruction) -> Result<u32, amdgpu_valu::ExecError> {
    let mut w = Wave::for_target(spec.target);
    w.set_vgpr_all(2, 0x3fc0_0000).expect("v2");
    w.set_vgpr_all(3, 1).expect("v3");
    execute_with_spec(spec, &mut w, instr)?;
    Ok(w.vgpr(1, 0).expect("lane 0"))
}

// v_fract_f32_dpp v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf:
// llvm-mc-22 encodes fa,36,02,7e,02,e4,00,ff on GFX9 and fa,40,02,7e,...
// from GFX10 on (DPP word 0xff00e402).
const FRACT_DPP_GFX9: [u8; 8] = [0xfa, 0x36, 0x02, 0x7e, 0x02, 0xe4, 0x00, 0xff];
const FRACT_DPP_GFX10: [u8; 8] = [0xfa, 0x40, 0x02, 0x7e, 0x02, 0xe4, 0x00, 0xff];
const FRACT_DPP_TEXT: &str =
    "v_fract_f32_dpp v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";

/// DPP bit 17 (between DPP_CTRL and FI) on every family's e32 word.
#[test]
fn dpp_bit_17() {
    for (t, base) in [
        (Target::Gfx908, FRACT_DPP_GFX9),
        (Target::Gfx90a, FRACT_DPP_GFX9),
        (Target::Gfx942, FRACT_DPP_GFX9),
        (Target::Gfx1010, FRACT_DPP_GFX10),
        (Target::Gfx1030, FRACT_DPP_GFX10),
        (Target::Gfx1100, FRACT_DPP_GFX10),
        (Target::Gfx1150, FRACT_DPP_GFX10),
        (Target::Gfx1201, FRACT_DPP_GFX10),
        (Target::Gfx1250, FRACT_DPP_GFX10),
    ] {
        // Byte 6 of the input is bits 23:16 of the DPP word: 0x02 is bit 17.
        check(
            t,
            &with(&base, 6, 0x02),
            FRACT_DPP_TEXT,
            (1 << 17, 0),
            "DPP",
            17,
        );
    }
}

/// DPP bit 18 where the target has no FI bit (GFX9); from GFX10 on it is FI.
#[test]
fn dpp_bit_18_without_fi() {
    for t in [Target::Gfx908, Target::Gfx90a, Target::Gfx942] {
        check(
            t,
            &with(&FRACT_DPP_GFX9, 6, 0x04),
            FRACT_DPP_TEXT,
            (1 << 18, 0),
            "DPP",
            18,
        );
    }
    // gfx1030: the same bit is fi:1 (llvm-mc-22 prints it), no reserved bit.
    let fi = with(&FRACT_DPP_GFX10, 6, 0x04);
    let (i, _) = decode_with_spec(&strict(Target::Gfx1030), &fi).expect("FI decodes");
    assert_eq!(
        disassemble(Target::Gfx1030, &i),
        format!("{FRACT_DPP_TEXT} fi:1")
    );
}

/// DPP bits 23:22 (src1 NEG/ABS) of LDEXP_F16's e32 word: LLVM prints
/// nothing for them and re-encodes them unchanged; we keep them in
/// `src1_bits`. On a VOP1 word LLVM refuses them, and so do we.
#[test]
fn dpp_ldexp_src1_bits_22_23() {
    // v_ldexp_f16_dpp v1, v2, v3 quad_perm:[0,1,2,3] row_mask:0xf
    // bank_mask:0xf: fa,06,02,66,... on GFX9, fa,06,02,76,... from GFX10.
    let gfx9 = [0xfa, 0x06, 0x02, 0x66, 0x02, 0xe4, 0x00, 0xff];
    let gfx10 = [0xfa, 0x06, 0x02, 0x76, 0x02, 0xe4, 0x00, 0xff];
    let text = "v_ldexp_f16_dpp v1, v2, v3 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";
    let text16 = "v_ldexp_f16_dpp v1.l, v2.l, v3.l quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";
    for (t, base, text) in [
        (Target::Gfx90a, gfx9, text),
        (Target::Gfx1030, gfx10, text),
        (Target::Gfx1100, gfx10, text16),
        (Target::Gfx1201, gfx10, text16),
    ] {
        for (bits, bit, src1_bits) in [(0x40, 22, 1), (0x80, 23, 2), (0xc0, 22, 3)] {
            let b = with(&base, 6, bits);
            check(t, &b, text, (0, 0), "DPP", bit);
            let (i, _) = decode(t, &b).expect("decodes");
            assert!(
                matches!(i.dpp, Some(Dpp::Dpp16(d)) if d.src1_bits == src1_bits),
                "{t}: {i:?}"
            );
        }
    }
    // VOP1 with bits 23:22: llvm-mc-22 says "invalid instruction encoding".
    let b = with(&FRACT_DPP_GFX10, 6, 0xc0);
    assert!(decode(Target::Gfx1030, &b).is_err());
}

/// Bits 23:20 of an e64 DPP word (the VOP3 word carries ABS/NEG), and
/// bit 17 there too.
#[test]
fn dpp_e64_bits_20_to_23() {
    // v_fract_f32_e64_dpp v1, v2 quad_perm:[0,1,2,3] row_mask:0xf
    // bank_mask:0xf and v_ldexp_f32_e64_dpp v1, v2, v3 (same controls).
    let fract = [
        0x01, 0x00, 0xa0, 0xd5, 0xfa, 0x00, 0x00, 0x00, 0x02, 0xe4, 0x00, 0xff,
    ];
    let ldexp = [
        0x01, 0x00, 0x1c, 0xd7, 0xfa, 0x06, 0x02, 0x00, 0x02, 0xe4, 0x00, 0xff,
    ];
    let fract_text = "v_fract_f32_e64_dpp v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";
    let ldexp_text =
        "v_ldexp_f32_e64_dpp v1, v2, v3 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf";
    for t in [
        Target::Gfx1100,
        Target::Gfx1150,
        Target::Gfx1201,
        Target::Gfx1250,
    ] {
        // Byte 10 is bits 23:16 of the DPP word.
        for bit in 20..24 {
            let b = with(&fract, 10, 1 << (bit - 16));
            check(t, &b, fract_text, (1 << bit, 0), "DPP", bit);
        }
        check(
            t,
            &with(&fract, 10, 0x02),
            fract_text,
            (1 << 17, 0),
            "DPP",
            17,
        );
        check(
            t,
            &with(&ldexp, 10, 0xf0),
            ldexp_text,
            (0xf0_0000, 0),
            "DPP",
            20,
        );
    }
}

// v_fract_f32_sdwa v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD
// src0_sel:DWORD and v_ldexp_f16_sdwa v1, v2, v3 ... src1_sel:DWORD:
// llvm-mc-22's encodings (word 1: 0x00060602 and 0x06060602).
const FRACT_SDWA_GFX9: [u8; 8] = [0xf9, 0x36, 0x02, 0x7e, 0x02, 0x06, 0x06, 0x00];
const FRACT_SDWA_GFX10: [u8; 8] = [0xf9, 0x40, 0x02, 0x7e, 0x02, 0x06, 0x06, 0x00];
const LDEXP_SDWA_GFX9: [u8; 8] = [0xf9, 0x06, 0x02, 0x66, 0x02, 0x06, 0x06, 0x06];
const LDEXP_SDWA_GFX10: [u8; 8] = [0xf9, 0x06, 0x02, 0x76, 0x02, 0x06, 0x06, 0x06];
const FRACT_SDWA_TEXT: &str =
    "v_fract_f32_sdwa v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD";
const LDEXP_SDWA_TEXT: &str =
    "v_ldexp_f16_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD";

fn sdwa_targets() -> [(Target, [u8; 8], [u8; 8]); 5] {
    [
        (Target::Gfx908, FRACT_SDWA_GFX9, LDEXP_SDWA_GFX9),
        (Target::Gfx90a, FRACT_SDWA_GFX9, LDEXP_SDWA_GFX9),
        (Target::Gfx942, FRACT_SDWA_GFX9, LDEXP_SDWA_GFX9),
        (Target::Gfx1010, FRACT_SDWA_GFX10, LDEXP_SDWA_GFX10),
        (Target::Gfx1030, FRACT_SDWA_GFX10, LDEXP_SDWA_GFX10),
    ]
}

/// SDWA bit 22 (between src0_abs and src0_sgpr).
#[test]
fn sdwa_bit_22() {
    for (t, fract, ldexp) in sdwa_targets() {
        // Byte 6 is bits 23:16 of word 1: 0x40 is bit 22.
        check(
            t,
            &with(&fract, 6, 0x40),
            FRACT_SDWA_TEXT,
            (0, 1 << 22),
            "SDWA",
            22,
        );
        check(
            t,
            &with(&ldexp, 6, 0x40),
            LDEXP_SDWA_TEXT,
            (0, 1 << 22),
            "SDWA",
            22,
        );
    }
}

/// SDWA bit 30 (between src1_abs and src1_sgpr), on VOP1 (no src1) too.
#[test]
fn sdwa_bit_30() {
    for (t, fract, ldexp) in sdwa_targets() {
        // Byte 7 is bits 31:24 of word 1: 0x40 is bit 30.
        check(
            t,
            &with(&fract, 7, 0x40),
            FRACT_SDWA_TEXT,
            (0, 1 << 30),
            "SDWA",
            30,
        );
        check(
            t,
            &with(&ldexp, 7, 0x40),
            LDEXP_SDWA_TEXT,
            (0, 1 << 30),
            "SDWA",
            30,
        );
        // Both: the lowest is named.
        let both = with(&with(&ldexp, 7, 0x40), 6, 0x40);
        check(
            t,
            &both,
            LDEXP_SDWA_TEXT,
            (0, 1 << 30 | 1 << 22),
            "SDWA",
            22,
        );
    }
    // src1 fields on a VOP1 SDWA word are no reserved bits: llvm-mc-22
    // refuses the word (src1_sel = 6 here), whatever the switch says.
    let b = with(&FRACT_SDWA_GFX9, 7, 0x06);
    assert!(decode(Target::Gfx90a, &b).is_err());
}

/// Execution: by default the reserved bits change nothing (FRACT(1.5) =
/// 0.5 = 0x3f000000 as without them; LDEXP_F16(v2 = 0x3fc00000, whose
/// low half 0x0000 is +0, by 1) = +0); under error the executor refuses
/// the instruction, naming the bit.
#[test]
fn execution_follows_the_switches() {
    let t = Target::Gfx1030;
    let (dpp, _) = decode(t, &with(&FRACT_DPP_GFX10, 6, 0x02)).expect("bit 17");
    assert_eq!(run(t.spec(), &dpp), Ok(0x3f00_0000));
    let e = run(&strict(t), &dpp).expect_err("error refuses");
    assert!(
        e.to_string().contains("reserved bit 17 of the DPP word"),
        "{e}"
    );
    let (e64, _) = decode(
        Target::Gfx1201,
        &[
            0x01, 0x00, 0xa0, 0xd5, 0xfa, 0x00, 0x00, 0x00, 0x02, 0xe4, 0x20, 0xff,
        ],
    )
    .expect("bit 21");
    assert_eq!(run(Target::Gfx1201.spec(), &e64), Ok(0x3f00_0000));
    let e = run(&strict(Target::Gfx1201), &e64).expect_err("error refuses");
    assert!(
        e.to_string().contains("reserved bit 21 of the DPP word"),
        "{e}"
    );

    let (sdwa, _) = decode(t, &with(&FRACT_SDWA_GFX10, 7, 0x40)).expect("bit 30");
    assert_eq!(run(t.spec(), &sdwa), Ok(0x3f00_0000));
    let e = run(&strict(t), &sdwa).expect_err("error refuses");
    assert!(
        e.to_string().contains("reserved bit 30 of the SDWA word"),
        "{e}"
    );
    let (ldexp, _) = decode(t, &with(&LDEXP_SDWA_GFX10, 6, 0x40)).expect("bit 22");
    // SDWA F16 with dst_sel DWORD: +0 zero-extended.
    assert_eq!(run(t.spec(), &ldexp), Ok(0));
    assert!(run(&strict(t), &ldexp).is_err());
}

/// Reserved bits outside the word's reserved bits (a field's bit) are no
/// instruction: encoding refuses them, and so does SDWA execution (DPP
/// execution ignores them, as it ignores a mask's bits past 4, unless
/// `dpp.reserved_bits` says error).
#[test]
fn reserved_bits_must_be_reserved() {
    let t = Target::Gfx1030;
    let fract = Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop1,
        Operand::v(1),
        Operand::v(2),
    );
    let dpp = fract.with_dpp(Dpp::Dpp16(Dpp16 {
        reserved: 1 << 8, // DPP_CTRL's low bit
        ..Dpp16::new(DppControl::QuadPerm([0, 1, 2, 3]))
    }));
    assert!(encode(t, &dpp).is_err());
    assert!(run(&strict(t), &dpp).is_err());
    let sdwa = Instruction {
        encoding: Encoding::Sdwa,
        sdwa: Some(Sdwa {
            reserved: 1 << 21, // src0_abs
            ..Sdwa::default()
        }),
        ..fract
    };
    assert!(encode(t, &sdwa).is_err());
    assert!(run(t.spec(), &sdwa).is_err());
    // The same with a reserved bit encodes it.
    let ok = Instruction {
        sdwa: Some(Sdwa {
            reserved: 1 << 22,
            ..Sdwa::default()
        }),
        ..sdwa
    };
    let b = encode(t, &ok).expect("bit 22 is reserved");
    assert_eq!(b.get(6).map(|x| x & 0x40), Some(0x40));
}
