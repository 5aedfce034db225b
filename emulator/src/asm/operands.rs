//! Operands: a [`Parsed`] operand as written, checked against the type of
//! its slot, to a typed [`Operand`] and its source modifiers. Immediates
//! go through [`super::literal`] (inline constant or literal).

use super::encode::{true16, OpType};
use super::lex::{fail, Atom, Parsed, Reg, Res};
use super::literal::{forced_literal, immediate};
use super::tables::TargetEncoding;
use crate::instr::{Encoding, Operand, Part, ScalarReg, Special, SrcMods};

/// LLVM's assembler takes `name` (a register or special source, `canonical`
/// being its name in `isa-spec/`'s `assembler_refuses`) on this target:
/// the target has its code and LLVM does not refuse it.
fn available(
    te: &TargetEncoding,
    col: usize,
    canonical: &str,
    name: &str,
    has_code: bool,
) -> Res<()> {
    if has_code && !te.family.special.assembler_refuses.contains(&canonical) {
        return Ok(());
    }
    match canonical {
        "null" => fail(col, "'null' operand is not supported on this GPU"),
        "src_lds_direct" => fail(col, "lds_direct is not supported on this GPU"),
        _ => fail(col, format!("{name} register not available on this GPU")),
    }
}

/// Whether the target has an operand code for the special source `src`.
fn special_code(te: &TargetEncoding, src: Special) -> bool {
    let c = &te.family.special;
    match src {
        Special::Scc | Special::Vccz | Special::Execz => c.src_vccz.is_some(),
        Special::SharedBase
        | Special::SharedLimit
        | Special::PrivateBase
        | Special::PrivateLimit
        | Special::PopsExitingWaveId => c.src_shared_base.is_some(),
        Special::FlatScratchBaseLo | Special::FlatScratchBaseHi => {
            c.src_flat_scratch_base_lo.is_some()
        }
        Special::LdsDirect => c.src_lds_direct.is_some(),
    }
}

/// A register operand of type `ty`.
pub(super) fn reg_operand(
    te: &TargetEncoding,
    p: &Parsed,
    ty: OpType,
    is_dst: bool,
) -> Res<Operand> {
    let Atom::Reg(r) = p.atom else {
        return fail(p.col, "invalid operand for instruction");
    };
    // Registers the operand takes, less one: the span `last - index` it
    // must have (indices are checked, never summed: they can be any u32).
    let span = if ty.bits() == 64 { 1 } else { 0 };
    let bad = || fail(p.col, "invalid operand for instruction");
    match r {
        Reg::V { index, last, part } => {
            if last > 255 {
                return fail(p.col, "register index is out of range");
            }
            if last - index != span {
                return bad();
            }
            if part != Part::Full && !true16(te, ty) {
                return bad();
            }
            Ok(Operand::Vgpr {
                index: index as u16,
                part,
            })
        }
        _ if is_dst => bad(),
        Reg::S { index, last } => {
            if last - index != span {
                return bad();
            }
            if last > 105 {
                return fail(p.col, "register index is out of range");
            }
            Ok(Operand::Scalar {
                reg: ScalarReg::Sgpr(index as u8),
                part: Part::Full,
            })
        }
        Reg::Named { reg, wide } => {
            let c = &te.family.special;
            let (canonical, name, has_code) = match reg {
                ScalarReg::Null => ("null", "null", te.family.codes.null.is_some()),
                ScalarReg::FlatScratchLo if wide => (
                    "flat_scratch_lo",
                    "flat_scratch",
                    c.flat_scratch_lo.is_some(),
                ),
                ScalarReg::FlatScratchLo => (
                    "flat_scratch_lo",
                    "flat_scratch_lo",
                    c.flat_scratch_lo.is_some(),
                ),
                ScalarReg::FlatScratchHi => (
                    "flat_scratch_hi",
                    "flat_scratch_hi",
                    c.flat_scratch_lo.is_some(),
                ),
                ScalarReg::XnackMaskLo if wide => {
                    ("xnack_mask_lo", "xnack_mask", c.xnack_mask_lo.is_some())
                }
                ScalarReg::XnackMaskLo => {
                    ("xnack_mask_lo", "xnack_mask_lo", c.xnack_mask_lo.is_some())
                }
                ScalarReg::XnackMaskHi => {
                    ("xnack_mask_hi", "xnack_mask_hi", c.xnack_mask_lo.is_some())
                }
                _ => ("", "", true),
            };
            if !canonical.is_empty() {
                available(te, p.col, canonical, name, has_code)?;
            }
            let ok = match reg {
                ScalarReg::Null => true,
                ScalarReg::VccLo
                | ScalarReg::ExecLo
                | ScalarReg::FlatScratchLo
                | ScalarReg::XnackMaskLo => wide == (span == 1),
                _ => span == 0,
            };
            if !ok {
                return bad();
            }
            Ok(Operand::Scalar {
                reg,
                part: Part::Full,
            })
        }
        Reg::Ttmp { index, last } => {
            if last > 15 {
                return fail(p.col, "register index is out of range");
            }
            if last - index != span {
                return bad();
            }
            let canonical = format!("ttmp{index}");
            available(
                te,
                p.col,
                &canonical,
                &canonical,
                te.family.special.ttmp0.is_some(),
            )?;
            Ok(Operand::Scalar {
                reg: ScalarReg::Ttmp(index as u8),
                part: Part::Full,
            })
        }
        Reg::Special { src, name } => {
            available(te, p.col, src.syntax(), name, special_code(te, src))?;
            Ok(Operand::Special(src))
        }
    }
}

/// A source operand of type `ty` in encoding `enc`, with its modifiers.
pub(super) fn source(
    te: &TargetEncoding,
    p: &Parsed,
    ty: OpType,
    enc: Encoding,
) -> Res<(Operand, SrcMods)> {
    let e32 = matches!(enc, Encoding::Vop1 | Encoding::Vop2);
    let mut mods = SrcMods {
        abs: p.abs,
        neg: p.neg,
        sext: p.sext,
    };
    if p.sext && (enc != Encoding::Sdwa || ty.is_float()) {
        return fail(p.col, "not a valid operand.");
    }
    if (p.neg || p.abs) && !ty.is_float() {
        return fail(p.col, "not a valid operand.");
    }
    let op = match p.atom {
        Atom::Reg(_) => {
            if e32 && p.has_fp_mods() {
                return fail(p.col, "invalid operand for instruction");
            }
            reg_operand(te, p, ty, false)?
        }
        Atom::Num(num) => {
            // e32 has no modifier bits: LLVM folds ABS/NEG into the value.
            let fold = e32 && p.has_fp_mods();
            if fold {
                mods.abs = false;
                mods.neg = false;
            }
            immediate(te, p, num, ty, enc, fold)?
        }
        Atom::Lit { num, wide } => {
            if e32 && p.has_fp_mods() {
                return fail(p.col, "invalid operand for instruction");
            }
            forced_literal(te, p, num, ty, enc, wide)?
        }
    };
    Ok((op, mods))
}

/// FMAMK's or FMAAK's K, of type `ty`: a number or `lit()`, always a
/// literal (LLVM writes `1.0` as the literal 0x3f800000 here), never a
/// register or a modified value.
pub(super) fn k_operand(
    te: &TargetEncoding,
    p: &Parsed,
    ty: OpType,
    enc: Encoding,
) -> Res<Operand> {
    if p.has_fp_mods() || p.sext {
        return fail(p.col, "not a valid operand.");
    }
    let op = match p.atom {
        Atom::Reg(_) => return fail(p.col, "invalid operand for instruction"),
        Atom::Num(num) => immediate(te, p, num, ty, enc, false)?,
        // An integer lit() K of F64 is its high dword (the K is the
        // 64-bit literal of gfx1250), as a written integer is.
        Atom::Lit {
            num: super::lex::Num::Int(i),
            wide: false,
        } if ty == OpType::F64 => {
            if !super::literal::safe_trunc(i, 32) {
                return fail(p.col, "invalid operand for instruction");
            }
            Operand::Literal(i as u32)
        }
        // LLVM takes lit64() as lit() where there are no 64-bit literals.
        Atom::Lit { num, wide } => {
            let wide = wide && te.family.codes.literal64.is_some();
            forced_literal(te, p, num, ty, enc, wide)?
        }
    };
    let mask = if ty.bits() == 16 { 0xffff } else { 0xffff_ffff };
    Ok(match op {
        // An inline value is written as its literal: the integer, or the
        // float constant's encoding (an F64 one as its high dword).
        Operand::InlineInt(i) => Operand::Literal(i as u32 & mask),
        Operand::InlineFloat(c) => {
            let bits = c.bits(ty.const_format());
            let v = if ty == OpType::F64 { bits >> 32 } else { bits };
            Operand::Literal(v as u32)
        }
        other => other,
    })
}
