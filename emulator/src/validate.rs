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
    /// A source the instruction reads is missing (the slot says which:
    /// src1 of LDEXP and the binary operations, src2 of FMA, FMAMK, FMAAK).
    MissingSrc1,
    /// A source the instruction does not have (src1 of FRACT, src2 of a
    /// two-source instruction, FMAC's accumulator included).
    ExtraSrc1,
    /// FMAMK's or FMAAK's K slot holds something other than a literal.
    KNotLiteral,
    /// An SDWA encoding without SDWA selectors.
    SdwaWithoutSelectors,
    /// SDWA selectors on another encoding.
    SelectorsWithoutSdwa,
    /// ABS/NEG on an integer source (LDEXP's exponent).
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
    let info = instr.opcode.info();
    if !spec.has_form(instr.opcode, enc) {
        return fail(Slot::Mnemonic, Rule::FormNotOnTarget);
    }
    for (slot, n, op) in [(Slot::Src1, 1, instr.src1), (Slot::Src2, 2, instr.src2)] {
        match (info.sources.len() > n, op) {
            (true, None) => return fail(slot, Rule::MissingSrc1),
            (false, Some(_)) => return fail(slot, Rule::ExtraSrc1),
            _ => {}
        }
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
    let slots = [Slot::Src0, Slot::Src1, Slot::Src2];
    for (n, slot) in slots.into_iter().enumerate().skip(1) {
        // ABS/NEG on an integer source, or on a source the instruction
        // does not have.
        let m = instr.src_mods(n);
        let float = info.sources.get(n).is_some_and(|t| t.is_float());
        if (m.abs || m.neg) && !float {
            return fail(slot, Rule::Src1AbsNeg);
        }
    }
    if enc != Encoding::Sdwa {
        for (n, slot) in slots.into_iter().enumerate() {
            if instr.src_mods(n).sext {
                return fail(slot, Rule::SextOutsideSdwa);
            }
        }
    }
    // e32 DPP16 carries src0 ABS/NEG, and a VOP2 word's src1 ABS/NEG, in its
    // DPP word.
    let dpp16 = matches!(instr.dpp, Some(Dpp::Dpp16(_)));
    let (m0, m1, m2) = (instr.src0_mods, instr.src1_mods, instr.src2_mods);
    let e32_mods = ((m0.abs || m0.neg) && !dpp16)
        || ((m1.abs || m1.neg) && !(dpp16 && enc == Encoding::Vop2))
        || m2.abs
        || m2.neg;
    if !enc.has_modifiers() && (e32_mods || instr.clamp || instr.omod != Omod::None) {
        return fail(Slot::Modifier, Rule::ModifiersOnE32);
    }
    if enc == Encoding::Sdwa && (m2.abs || m2.neg) {
        return fail(Slot::Modifier, Rule::ModifiersOnE32);
    }
    let width = instr.opcode.format().bits();
    let Operand::Vgpr { index, part } = instr.dst else {
        return fail(Slot::Dst, Rule::DstNotVgpr);
    };
    // GFX9/GFX10 op_sel halves: checked here, then as whole registers.
    let te = crate::asm::target_encoding(spec.target);
    let op_sel_halves = enc == Encoding::Vop3 && te.op_sel_without_halves(instr.opcode);
    let whole = |op: Operand| match op {
        Operand::Vgpr {
            index,
            part: Part::Hi,
        } if op_sel_halves => Operand::Vgpr {
            index,
            part: Part::Full,
        },
        Operand::Scalar {
            reg,
            part: Part::Hi,
        } if op_sel_halves => Operand::Scalar {
            reg,
            part: Part::Full,
        },
        other => other,
    };
    let part = if op_sel_halves && part == Part::Hi {
        part_ok_for(spec, instr, Slot::Dst, part, width)?;
        Part::Full
    } else {
        part
    };
    vgpr(spec, Slot::Dst, index, part, width, enc)?;
    source(spec, Slot::Src0, whole(instr.src0), width, enc)?;
    // The VOP2 word's vsrc1 field holds the second source that is not K.
    let vsrc1 = (1..info.sources.len()).find(|&n| info.k_slot != Some(n));
    for (n, slot) in slots.into_iter().enumerate().skip(1) {
        let (Some(op), Some(ty)) = (instr.source(n), info.sources.get(n)) else {
            continue;
        };
        if info.k_slot == Some(n) {
            if !matches!(op, Operand::Literal(_) | Operand::Literal64(_)) {
                return fail(slot, Rule::KNotLiteral);
            }
        } else if enc == Encoding::Vop2 && Some(n) == vsrc1 && !matches!(op, Operand::Vgpr { .. }) {
            return fail(slot, Rule::Vop2Src1NotVgpr);
        }
        source(spec, slot, whole(op), ty.bits(), enc)?;
    }
    Ok(())
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
    for (slot, op) in [(Slot::Src1, instr.src1), (Slot::Src2, instr.src2)] {
        match op {
            Some(Operand::Literal(_) | Operand::Literal64(_)) => return fail(slot, Rule::DppSrc1),
            Some(Operand::Vgpr { .. }) | None => {}
            // llvm-mc 22 takes an SGPR or constant src2 in e64 DPP on every
            // GFX11+ target (v_fma_f32_e64_dpp v8, v4, v255, vcc_lo on gfx1100).
            Some(_) if slot == Slot::Src2 => {}
            Some(_) if enc == Encoding::Vop3 && !spec.dpp.e64_src1_scalar.value => {
                return fail(slot, Rule::DppSrc1)
            }
            Some(_) => {}
        }
    }
    let e32 = !enc.has_modifiers();
    match dpp {
        Dpp::Dpp8 { sel, .. } => {
            let (m0, m1) = (instr.src0_mods, instr.src1_mods);
            if e32 && (m0.abs || m0.neg || m1.abs || m1.neg) {
                return fail(Slot::Src0, Rule::Dpp8SourceModifiers);
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

/// [`part_ok`] for `instr`: GFX9/GFX10 VOP3-only 16-bit instructions take
/// the high half of an operand through `op_sel` (no `.l` halves there).
fn part_ok_for(
    spec: &TargetSpec,
    instr: &Instruction,
    slot: Slot,
    part: Part,
    width: u32,
) -> Result<(), Violation> {
    let te = crate::asm::target_encoding(spec.target);
    if part == Part::Hi
        && width == 16
        && instr.encoding == Encoding::Vop3
        && te.op_sel_without_halves(instr.opcode)
    {
        return Ok(());
    }
    part_ok(spec, slot, part, width, instr.encoding)
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
