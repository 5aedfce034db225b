//! The one instruction check: every rule about which operands, modifiers and
//! forms an instruction may have on a target, written once and shared by the
//! executor ([`crate::exec`]), the encoder and, through the encoder, the
//! decoder ([`crate::asm`]).
//!
//! [`check`] reports the first broken rule as a [`Violation`]: the offending
//! operand [`Slot`] and the [`Rule`]. Each caller words it in its own
//! vocabulary (an [`crate::ExecError`] or an [`crate::asm::EncodeError`]);
//! the rule itself is decided here only. What is left in the encoder is
//! about the bit layout alone (operand code space, constant bus, literal
//! slots), which the executor has no use for.

use crate::asm::Slot;
use crate::dpp::{Dpp, DppControl};
use crate::instr::{Encoding, Instruction, Operand, Part, ScalarReg, Special};
use crate::kernels::Omod;
use crate::target::TargetSpec;
use crate::wave::{NUM_SGPRS, NUM_TTMPS, NUM_VGPRS};

/// True16 e32 forms address v0..v127: bit 7 of the register field chooses
/// the half.
pub const E32_HALF_VGPRS: usize = 128;

/// Which rule an instruction breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The target has no such (opcode, encoding) form.
    FormNotOnTarget,
    /// LDEXP without its exponent operand.
    MissingSrc1,
    /// FRACT with a second source.
    ExtraSrc1,
    /// An SDWA encoding without SDWA selectors.
    SdwaWithoutSelectors,
    /// SDWA selectors on another encoding.
    SelectorsWithoutSdwa,
    /// ABS/NEG on the (integer) exponent.
    Src1AbsNeg,
    /// `sext` outside SDWA.
    SextOutsideSdwa,
    /// ABS, NEG, CLAMP or OMOD on an e32 encoding.
    ModifiersOnE32,
    /// The destination is not a VGPR.
    DstNotVgpr,
    /// A register half on an operand wider than 16 bits.
    HalfNeeds16Bit,
    /// A register half where the target (or SDWA) has none.
    NoHalves,
    /// A VGPR (or the last of a pair) past v255.
    VgprOutOfRange {
        /// The first register.
        index: usize,
    },
    /// An odd VGPR pair where the target needs even ones.
    MisalignedVgprPair {
        /// The first register.
        index: usize,
    },
    /// A true16 e32 16-bit operand past v127.
    E32HalfOutOfRange {
        /// The register.
        index: usize,
    },
    /// An SGPR (or the last of a pair) past the register file.
    SgprOutOfRange {
        /// The first register.
        index: usize,
        /// Whether the operand is a 64-bit pair.
        pair: bool,
    },
    /// An odd SGPR pair.
    MisalignedSgprPair {
        /// The first register.
        index: usize,
    },
    /// vcc_hi, exec_hi or m0 as the start of a 64-bit pair.
    ScalarPairStart,
    /// An inline integer outside -16..=64.
    InlineIntRange {
        /// The value.
        value: i8,
    },
    /// A 64-bit literal in an operand narrower than 64 bits.
    Literal64Width,
    /// A VOP2 src1 that is not a VGPR.
    Vop2Src1NotVgpr,
    /// A literal in an SDWA instruction.
    SdwaLiteral,
    /// The target has no such DPP form (opcode, base encoding, DPP16 or
    /// DPP8): see [`TargetSpec::has_dpp_form`].
    DppFormNotOnTarget,
    /// A DPP src0 that is not a VGPR (the DPP word names a VGPR only).
    DppSrc0NotVgpr,
    /// A DPP src1 the form cannot take: a literal (the DPP word takes the
    /// literal's slot), or an SGPR or inline constant in an e64 DPP form
    /// where the target's `dpp.e64_src1_scalar` is false.
    DppSrc1,
    /// ABS or NEG on an e32 DPP8 instruction (its word has no such bits).
    Dpp8SourceModifiers,
    /// A DPP field its machine word cannot hold as given: a control that
    /// does not round-trip through its 9-bit code, a mask wider than 4
    /// bits, a DPP8 selector past 7, FI where the target has no FI bit, or
    /// DPP16 src1 bits on anything but an e32 VOP2 word, or reserved bits
    /// the word does not reserve.
    DppField,
    /// SDWA reserved bits outside the word's must-be-zero bits.
    SdwaField,
    /// A trap temporary (or the last of a pair) past ttmp15.
    TtmpOutOfRange {
        /// The first register.
        index: usize,
        /// Whether the operand is a 64-bit pair.
        pair: bool,
    },
    /// An odd trap-temporary pair.
    MisalignedTtmpPair {
        /// The first register.
        index: usize,
    },
    /// `src_lds_direct` other than as src0.
    LdsDirectNotSrc0,
    /// `src_lds_direct` in an SDWA instruction.
    LdsDirectInSdwa,
    /// `src_lds_direct` as a 64-bit operand.
    LdsDirectWide,
}

/// The first rule an instruction breaks and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The offending operand (or the mnemonic, or the modifiers).
    pub slot: Slot,
    /// The rule broken.
    pub rule: Rule,
}

fn fail(slot: Slot, rule: Rule) -> Result<(), Violation> {
    Err(Violation { slot, rule })
}

/// Check `instr` against `spec`: Ok when the target has the form and every
/// operand and modifier is one the form can carry; otherwise the first
/// broken rule, in a fixed order (form, operand count, SDWA selectors,
/// modifiers, dst, src0, src1).
pub fn check(spec: &TargetSpec, instr: &Instruction) -> Result<(), Violation> {
    let enc = instr.encoding;
    if !spec.has_form(instr.opcode, enc) {
        return fail(Slot::Mnemonic, Rule::FormNotOnTarget);
    }
    match (instr.opcode.info().src1().is_some(), instr.src1) {
        (true, None) => return fail(Slot::Src1, Rule::MissingSrc1),
        (false, Some(_)) => return fail(Slot::Src1, Rule::ExtraSrc1),
        _ => {}
    }
    match (enc == Encoding::Sdwa, instr.sdwa) {
        (true, None) => return fail(Slot::Modifier, Rule::SdwaWithoutSelectors),
        (false, Some(_)) => return fail(Slot::Modifier, Rule::SelectorsWithoutSdwa),
        (true, Some(s)) => {
            let te = crate::asm::target_encoding(spec.target);
            if s.reserved & !te.family.sdwa.map_or(0, |l| l.reserved) != 0 {
                return fail(Slot::Modifier, Rule::SdwaField);
            }
        }
        _ => {}
    }
    if let Some(dpp) = instr.dpp {
        self::dpp(spec, instr, dpp)?;
    }
    let info = instr.opcode.info();
    let (m0, m1) = (instr.src0_mods, instr.src1_mods);
    let float_src1 = info.src1().is_some_and(|t| t.is_float());
    if (m1.abs || m1.neg) && !float_src1 {
        return fail(Slot::Src1, Rule::Src1AbsNeg);
    }
    if enc != Encoding::Sdwa {
        if m0.sext {
            return fail(Slot::Src0, Rule::SextOutsideSdwa);
        }
        if m1.sext {
            return fail(Slot::Src1, Rule::SextOutsideSdwa);
        }
    }
    // e32 DPP16 carries src0 ABS/NEG in its DPP word.
    let e32_src_mods = matches!(instr.dpp, Some(Dpp::Dpp16(_)));
    let src_mods = m0.abs || m0.neg || m1.abs || m1.neg;
    let m2 = instr.src2_mods;
    if !enc.has_modifiers()
        && ((src_mods && !e32_src_mods)
            || m2.abs
            || m2.neg
            || instr.clamp
            || instr.omod != Omod::None)
    {
        return fail(Slot::Modifier, Rule::ModifiersOnE32);
    }
    let width = instr.opcode.format().bits();
    let Operand::Vgpr { index, part } = instr.dst else {
        return fail(Slot::Dst, Rule::DstNotVgpr);
    };
    vgpr(spec, Slot::Dst, index, part, width, enc)?;
    source(spec, Slot::Src0, instr.src0, width, enc)?;
    if let (Some(src1), Some(ty)) = (instr.src1, info.src1()) {
        // VOP2's second field is a VGPR; FMAMK's K is the literal.
        let k = info.k_slot() == Some(1);
        if enc == Encoding::Vop2 && !k && !matches!(src1, Operand::Vgpr { .. }) {
            return fail(Slot::Src1, Rule::Vop2Src1NotVgpr);
        }
        source(spec, Slot::Src1, src1, ty.bits(), enc)?;
    }
    Ok(())
}

/// Why src2 breaks the rules ([`check_src2`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src2Violation {
    /// V_FMA or FMAMK/FMAAK without its third source.
    Missing,
    /// A third source on an instruction that has none (FMAC's addend is
    /// its destination).
    Extra,
    /// The operand breaks `rule`, as [`check`] words it for the others.
    Operand(Rule),
}

/// The rules of src2 (V_FMA's addend, FMAMK's VGPR addend, FMAAK's
/// literal K), which [`check`] leaves out: present exactly when the
/// opcode has a third source; in VOP2 a VGPR unless it is K; ranges,
/// halves and pairs as the other sources.
pub fn check_src2(spec: &TargetSpec, instr: &Instruction) -> Result<(), Src2Violation> {
    let info = instr.opcode.info();
    let (ty, src2) = match (info.src2(), instr.src2) {
        (None, None) => return Ok(()),
        (Some(_), None) => return Err(Src2Violation::Missing),
        (None, Some(_)) => return Err(Src2Violation::Extra),
        (Some(ty), Some(src2)) => (ty, src2),
    };
    let enc = instr.encoding;
    let k = info.k_slot() == Some(2);
    if enc == Encoding::Vop2 && !k && !matches!(src2, Operand::Vgpr { .. }) {
        return Err(Src2Violation::Operand(Rule::Vop2Src1NotVgpr));
    }
    source(spec, Slot::Src1, src2, ty.bits(), enc).map_err(|v| Src2Violation::Operand(v.rule))
}

/// The DPP rules (docs/semantics.md §11): the form, src0 a VGPR, src1
/// what the form takes, the fields each word can hold. Controls the
/// target lacks (reserved codes, another family's) are not refused here:
/// they decode, as LLVM decodes them, and the executor decides.
fn dpp(spec: &TargetSpec, instr: &Instruction, dpp: Dpp) -> Result<(), Violation> {
    let enc = instr.encoding;
    let dpp8 = matches!(dpp, Dpp::Dpp8 { .. });
    if !spec.has_dpp_form(instr.opcode, enc, dpp8) {
        return fail(Slot::Mnemonic, Rule::DppFormNotOnTarget);
    }
    if !matches!(instr.src0, Operand::Vgpr { .. }) {
        return fail(Slot::Src0, Rule::DppSrc0NotVgpr);
    }
    match instr.src1 {
        Some(Operand::Literal(_) | Operand::Literal64(_)) => {
            return fail(Slot::Src1, Rule::DppSrc1)
        }
        Some(Operand::Vgpr { .. }) | None => {}
        Some(_) if enc == Encoding::Vop3 && !spec.dpp.e64_src1_scalar.value => {
            return fail(Slot::Src1, Rule::DppSrc1)
        }
        Some(_) => {}
    }
    let e32 = !enc.has_modifiers();
    match dpp {
        Dpp::Dpp8 { sel, .. } => {
            if e32 && (instr.src0_mods.abs || instr.src0_mods.neg) {
                return fail(Slot::Src0, Rule::Dpp8SourceModifiers);
            }
            if e32 && (instr.src1_mods.abs || instr.src1_mods.neg) {
                return fail(Slot::Src1, Rule::Dpp8SourceModifiers);
            }
            if sel.iter().any(|&s| s > 7) {
                return fail(Slot::Modifier, Rule::DppField);
            }
        }
        Dpp::Dpp16(d) => {
            let bad = DppControl::from_code(d.ctrl.code()) != d.ctrl
                || d.row_mask > 15
                || d.bank_mask > 15
                || (d.fi && !spec.dpp.fi.value)
                || d.src1_bits > 3
                || (d.src1_bits != 0 && enc != Encoding::Vop2)
                || d.reserved & !crate::asm::dpp_reserved_bits(spec.target, enc) != 0;
            if bad {
                return fail(Slot::Modifier, Rule::DppField);
            }
        }
    }
    Ok(())
}

/// A register half needs a 16-bit operand on a true16 target outside SDWA.
fn part_ok(
    spec: &TargetSpec,
    slot: Slot,
    part: Part,
    width: u32,
    enc: Encoding,
) -> Result<(), Violation> {
    if part == Part::Full {
        return Ok(());
    }
    if width != 16 {
        return fail(slot, Rule::HalfNeeds16Bit);
    }
    if !spec.true16.value || enc == Encoding::Sdwa {
        return fail(slot, Rule::NoHalves);
    }
    Ok(())
}

fn vgpr(
    spec: &TargetSpec,
    slot: Slot,
    index: u16,
    part: Part,
    width: u32,
    enc: Encoding,
) -> Result<(), Violation> {
    part_ok(spec, slot, part, width, enc)?;
    let index = usize::from(index);
    let regs = if width == 64 { 2 } else { 1 };
    if index + regs > NUM_VGPRS {
        return fail(slot, Rule::VgprOutOfRange { index });
    }
    if width == 64 && spec.aligned_vgpr_pairs.value && index % 2 != 0 {
        return fail(slot, Rule::MisalignedVgprPair { index });
    }
    if width == 16 && spec.true16.value && !enc.has_modifiers() && index >= E32_HALF_VGPRS {
        return fail(slot, Rule::E32HalfOutOfRange { index });
    }
    Ok(())
}

fn source(
    spec: &TargetSpec,
    slot: Slot,
    op: Operand,
    width: u32,
    enc: Encoding,
) -> Result<(), Violation> {
    match op {
        Operand::Vgpr { index, part } => vgpr(spec, slot, index, part, width, enc),
        Operand::Scalar { reg, part } => {
            part_ok(spec, slot, part, width, enc)?;
            let pair = width == 64;
            if let ScalarReg::Sgpr(n) = reg {
                let index = usize::from(n);
                if index + usize::from(pair) + 1 > NUM_SGPRS {
                    return fail(slot, Rule::SgprOutOfRange { index, pair });
                }
                if pair && index % 2 != 0 {
                    return fail(slot, Rule::MisalignedSgprPair { index });
                }
            }
            if let ScalarReg::Ttmp(n) = reg {
                let index = usize::from(n);
                if index + usize::from(pair) + 1 > NUM_TTMPS {
                    return fail(slot, Rule::TtmpOutOfRange { index, pair });
                }
                if pair && index % 2 != 0 {
                    return fail(slot, Rule::MisalignedTtmpPair { index });
                }
            }
            if pair
                && matches!(
                    reg,
                    ScalarReg::VccHi
                        | ScalarReg::ExecHi
                        | ScalarReg::M0
                        | ScalarReg::FlatScratchHi
                        | ScalarReg::XnackMaskHi
                )
            {
                return fail(slot, Rule::ScalarPairStart);
            }
            Ok(())
        }
        Operand::Special(Special::LdsDirect) => {
            if slot != Slot::Src0 {
                fail(slot, Rule::LdsDirectNotSrc0)
            } else if enc == Encoding::Sdwa {
                fail(slot, Rule::LdsDirectInSdwa)
            } else if width == 64 {
                fail(slot, Rule::LdsDirectWide)
            } else {
                Ok(())
            }
        }
        Operand::Special(_) => Ok(()),
        Operand::InlineInt(value) if !(-16..=64).contains(&value) => {
            fail(slot, Rule::InlineIntRange { value })
        }
        Operand::InlineInt(_) | Operand::InlineFloat(_) => Ok(()),
        Operand::Literal(_) | Operand::Literal64(_) if enc == Encoding::Sdwa => {
            fail(slot, Rule::SdwaLiteral)
        }
        Operand::Literal64(_) if width != 64 => fail(slot, Rule::Literal64Width),
        Operand::Literal(_) | Operand::Literal64(_) => Ok(()),
    }
}
