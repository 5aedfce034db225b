//! Literal choice: a number as written to the operand LLVM picks for it,
//! an inline constant when the value has one and a (32- or 64-bit) literal
//! otherwise, with float conversions done by APFloat so the host's
//! floating-point environment never matters.

use super::encode::{inline_value, OpType};
use super::lex::{fail, Num, Parsed, Res};
use super::tables::TargetEncoding;
use crate::instr::{Encoding, Operand};
use rustc_apfloat::ieee::{Double, Half, Single};
use rustc_apfloat::{Float, FloatConvert, Round, Status, StatusAnd};

pub(super) fn sign_mask(bits: u32) -> u64 {
    1u64 << (bits - 1)
}

pub(super) fn apply_fp_mods(v: u64, bits: u32, p: &Parsed) -> u64 {
    let mask = sign_mask(bits);
    let mut v = v;
    if p.abs {
        v &= !mask;
    }
    if p.neg {
        v ^= mask;
    }
    v
}

/// Whether the integer fits `bits` bits signed or unsigned.
pub(super) fn safe_trunc(v: i128, bits: u32) -> bool {
    let max_u = (1i128 << bits) - 1;
    let min_s = -(1i128 << (bits - 1));
    (min_s..=max_u).contains(&v)
}

/// The width an integer token must fit in a slot of type `ty`.
pub(super) fn int_width(te: &TargetEncoding, ty: OpType) -> u32 {
    // True16 targets type V_LDEXP_F16's exponent as a 32-bit operand and
    // keep its low 16 bits.
    if ty == OpType::I16 && te.family.true16_e32_halves {
        32
    } else {
        ty.bits()
    }
}

/// Convert F64 bits to F16/F32 bits with round-to-nearest-even, as LLVM's
/// assembler does (APFloat `convert`), and whether the conversion overflowed
/// or underflowed (LLVM allows precision loss but not those).
pub(super) fn convert(bits: u64, width: u32) -> (u64, bool) {
    let d = Double::from_bits(u128::from(bits));
    let mut lost = false;
    let (status, out) = if width == 32 {
        let r: StatusAnd<Single> = d.convert_r(Round::NearestTiesToEven, &mut lost);
        (r.status, r.value.to_bits())
    } else {
        let r: StatusAnd<Half> = d.convert_r(Round::NearestTiesToEven, &mut lost);
        (r.status, r.value.to_bits())
    };
    let safe = !(lost && status.intersects(Status::OVERFLOW | Status::UNDERFLOW));
    // F16/F32 encodings fit in 32 bits.
    (out as u64, safe)
}

/// [`convert`], refusing an overflow or underflow.
pub(super) fn to_format(bits: u64, width: u32) -> Option<u64> {
    match convert(bits, width) {
        (v, true) => Some(v),
        (_, false) => None,
    }
}

pub(super) fn immediate(
    te: &TargetEncoding,
    p: &Parsed,
    num: Num,
    ty: OpType,
    enc: Encoding,
    fold: bool,
) -> Res<Operand> {
    let bad = || fail(p.col, "invalid operand for instruction");
    // gfx1250's e32 F64 sources (VOP1, VOP2) take a 64-bit literal.
    let vop1_lit64 = te.literal64 && matches!(enc, Encoding::Vop1 | Encoding::Vop2);
    match num {
        Num::Float(f) => {
            let mut bits = f;
            if fold {
                bits = apply_fp_mods(bits, 64, p);
            }
            if ty == OpType::F64 {
                if let Some(op) = inline_value(bits, ty) {
                    return Ok(op);
                }
                if bits as u32 != 0 && vop1_lit64 {
                    return Ok(Operand::Literal64(bits));
                }
                // LLVM warns and drops the low dword.
                return Ok(Operand::Literal((bits >> 32) as u32));
            }
            // The range check uses the operand's declared width (32 bits for
            // true16 V_LDEXP_F16's exponent), the value its real width.
            if to_format(bits, int_width(te, ty)).is_none() {
                return bad();
            }
            let (v, _) = convert(bits, ty.bits());
            Ok(inline_value(v, ty).unwrap_or(Operand::Literal(v as u32)))
        }
        Num::Int(i) => {
            if ty == OpType::F64 {
                let inl = (i64::MIN as i128..=i64::MAX as i128).contains(&i)
                    || (0..=u64::MAX as i128).contains(&i);
                let raw = i as u64;
                if p.has_fp_mods() {
                    // LLVM refuses FP modifiers on non-inline 64-bit integer
                    // literals, and does not fold them into e32.
                    if fold {
                        return bad();
                    }
                    return match inline_value(raw, ty) {
                        Some(op) if inl => Ok(op),
                        _ => bad(),
                    };
                }
                if inl {
                    if let Some(op) = inline_value(raw, ty) {
                        return Ok(op);
                    }
                }
                if !safe_trunc(i, 32) {
                    // Targets with 64-bit literals take a value whose low
                    // dword is zero as a 32-bit (high dword) literal.
                    if te.literal64 && inl && raw as u32 == 0 {
                        return Ok(Operand::Literal((raw >> 32) as u32));
                    }
                    if vop1_lit64 && inl {
                        return Ok(Operand::Literal64(raw));
                    }
                    return bad();
                }
                let hi = raw << 32;
                return Ok(inline_value(hi, ty).unwrap_or(Operand::Literal(raw as u32)));
            }
            let width = int_width(te, ty);
            if !safe_trunc(i, width) {
                return bad();
            }
            let mut v = (i as u64) & if width == 32 { 0xffff_ffff } else { 0xffff };
            if fold {
                v = apply_fp_mods(v, ty.bits(), p);
            }
            if ty.bits() == 16 {
                v &= 0xffff;
            }
            Ok(inline_value(v, ty).unwrap_or(Operand::Literal(v as u32)))
        }
    }
}

pub(super) fn forced_literal(
    te: &TargetEncoding,
    p: &Parsed,
    num: Num,
    ty: OpType,
    enc: Encoding,
    wide: bool,
) -> Res<Operand> {
    pub(super) fn bad<T>(p: &Parsed) -> Res<T> {
        fail(p.col, "invalid operand for instruction")
    }
    // LLVM takes lit64() on an integer operand of any target, as lit().
    if wide && te.family.codes.literal64.is_none() && ty.is_float() {
        return fail(p.col, "lit64 is not supported on this GPU");
    }
    let value: u64 = match (num, ty) {
        (Num::Float(f), OpType::F64) => {
            if wide {
                f
            } else {
                f >> 32
            }
        }
        (Num::Float(f), _) => to_format(f, ty.bits()).map_or_else(|| bad(p), Ok)?,
        (Num::Int(i), _) => {
            let width = if ty == OpType::F64 {
                64
            } else {
                int_width(te, ty)
            };
            if !safe_trunc(i, width) {
                return bad(p);
            }
            let v = i as u64;
            match ty.bits() {
                16 => v & 0xffff,
                32 => v & 0xffff_ffff,
                _ => v,
            }
        }
    };
    if ty == OpType::F64 {
        if let (Num::Int(i), false) = (num, wide) {
            // `lit(n)` on an F64 operand is a 32-bit literal: LLVM keeps the
            // low 32 bits on targets with 64-bit literals (which then hold
            // them in their low dword), and elsewhere takes n only when it
            // fits 32 bits, signed or unsigned (`lit(-1)` is 0xffffffff).
            if te.literal64 {
                return Ok(Operand::Literal64(u64::from(i as u32)));
            }
            if !safe_trunc(i, 32) {
                return bad(p);
            }
            return Ok(Operand::Literal(i as u32));
        }
        // A VOP3 64-bit literal must be one a 32-bit literal could give:
        // LLVM refuses v_fract_f64_e64 v[2:3], lit64(0x3ff0000000000001).
        let vop3_ok = safe_trunc(i128::from(value as i64), 32) || value as u32 == 0;
        if wide && enc == Encoding::Vop3 && !vop3_ok {
            return bad(p);
        }
        // gfx1250 VOP1 writes F64 literals as 64-bit ones (LLVM puts the
        // value of `lit(x)` in the low dword there).
        if te.literal64 {
            return Ok(Operand::Literal64(value));
        }
        return u32::try_from(value)
            .map(Operand::Literal)
            .or_else(|_| bad(p));
    }
    Ok(Operand::Literal(value as u32))
}
