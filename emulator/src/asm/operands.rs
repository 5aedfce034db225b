//! Operands: a [`Parsed`] operand as written, checked against the type of
//! its slot, to a typed [`Operand`] and its source modifiers. Immediates
//! go through [`super::literal`] (inline constant or literal).

use super::encode::{true16, OpType};
use super::lex::{fail, Atom, Parsed, Reg, Res};
use super::literal::{forced_literal, immediate};
use super::tables::TargetEncoding;
use crate::instr::{Encoding, Operand, Part, ScalarReg, SrcMods};

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
            let ok = match reg {
                ScalarReg::Null => true,
                ScalarReg::VccLo | ScalarReg::ExecLo => wide == (span == 1),
                _ => span == 0,
            };
            if !ok {
                return bad();
            }
            let _ = te;
            Ok(Operand::Scalar {
                reg,
                part: Part::Full,
            })
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
