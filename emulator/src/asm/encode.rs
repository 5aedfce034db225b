//! Instruction -> machine code, with every check LLVM's assembler makes on
//! these forms (register ranges and alignment, constant bus, literals,
//! modifiers each encoding can carry).

use super::tables::{FamilyEncoding, TargetEncoding};
use super::target_encoding;
use super::{EncodeError, Slot};
use crate::instr::{Encoding, FloatConst, Instruction, Operand, Part, ScalarReg, Special};
use crate::target::Target;
use crate::validate::{Rule, Violation};

/// The type of an operand slot (see [`SourceType`]).
pub(crate) use crate::instr::SourceType as OpType;

/// Whether the raw value `v` (a 16/32-bit value, or for F64 the full 64 bits)
/// is an inline constant in a slot of type `ty`.
pub(crate) fn inline_value(v: u64, ty: OpType) -> Option<Operand> {
    let int = match ty {
        OpType::F16 | OpType::I16 => i64::from(v as u16 as i16),
        OpType::F32 | OpType::I32 => i64::from(v as u32 as i32),
        OpType::F64 => v as i64,
    };
    if (-16..=64).contains(&int) {
        return Some(Operand::InlineInt(int as i8));
    }
    let f = ty.const_format();
    FloatConst::ALL
        .into_iter()
        .find(|c| c.bits(f) == v)
        .map(Operand::InlineFloat)
}

/// Whether a 32-bit literal in a slot of type `ty` has an inline-constant
/// value (an F64 literal is the high dword).
pub(crate) fn literal_is_inline(v: u32, ty: OpType) -> bool {
    let full = if ty == OpType::F64 {
        u64::from(v) << 32
    } else {
        u64::from(v)
    };
    inline_value(full, ty).is_some()
}

fn err(slot: Slot, reason: impl Into<String>) -> EncodeError {
    EncodeError {
        slot,
        reason: reason.into(),
    }
}

/// A source's code and the literal it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lit {
    /// One literal dword.
    L32(u32),
    /// Two literal dwords (gfx1250).
    L64(u64),
}

/// Whether 16-bit VGPR operands of this instruction name halves (true16).
pub(crate) fn true16(te: &TargetEncoding, ty: OpType) -> bool {
    te.family.true16_e32_halves && ty.bits() == 16
}

fn scalar_code(
    fam: &FamilyEncoding,
    reg: ScalarReg,
    ty: OpType,
    slot: Slot,
) -> Result<u32, EncodeError> {
    let c = &fam.codes;
    let wide = ty.bits() == 64;
    Ok(match reg {
        ScalarReg::Sgpr(n) => {
            let last = if wide { u32::from(n) + 1 } else { u32::from(n) };
            if last > u32::from(c.max_sgpr) {
                return Err(err(
                    slot,
                    format!("s{last} register not available on this GPU"),
                ));
            }
            if wide && n % 2 != 0 {
                return Err(err(slot, "invalid register alignment"));
            }
            u32::from(n)
        }
        ScalarReg::VccLo => c.vcc_lo,
        ScalarReg::ExecLo => c.exec_lo,
        ScalarReg::VccHi | ScalarReg::ExecHi | ScalarReg::M0 if wide => {
            return Err(err(slot, "invalid operand for instruction"));
        }
        ScalarReg::VccHi => c.vcc_lo + 1,
        ScalarReg::ExecHi => c.exec_lo + 1,
        ScalarReg::M0 => c.m0,
        ScalarReg::Null => c
            .null
            .ok_or_else(|| err(slot, "'null' operand is not supported on this GPU"))?,
        ScalarReg::Ttmp(n) => special_at(fam.special.ttmp0, u32::from(n), slot, "ttmp")?,
        ScalarReg::FlatScratchLo => {
            let name = if wide {
                "flat_scratch"
            } else {
                "flat_scratch_lo"
            };
            special_at(fam.special.flat_scratch_lo, 0, slot, name)?
        }
        ScalarReg::FlatScratchHi => {
            special_at(fam.special.flat_scratch_lo, 1, slot, "flat_scratch_hi")?
        }
        ScalarReg::XnackMaskLo => {
            let name = if wide { "xnack_mask" } else { "xnack_mask_lo" };
            special_at(fam.special.xnack_mask_lo, 0, slot, name)?
        }
        ScalarReg::XnackMaskHi => special_at(fam.special.xnack_mask_lo, 1, slot, "xnack_mask_hi")?,
    })
}

/// The code `offset` past `first` (a group of special codes), or LLVM's
/// error for a register the target does not have.
fn special_at(first: Option<u32>, offset: u32, slot: Slot, name: &str) -> Result<u32, EncodeError> {
    first
        .map(|c| c + offset)
        .ok_or_else(|| err(slot, format!("{name} register not available on this GPU")))
}

/// The operand code of a special source.
pub(crate) fn special_code(
    fam: &FamilyEncoding,
    src: Special,
    slot: Slot,
) -> Result<u32, EncodeError> {
    let c = &fam.special;
    let name = src.syntax();
    match src {
        Special::Vccz => special_at(c.src_vccz, 0, slot, name),
        Special::Execz => special_at(c.src_vccz, 1, slot, name),
        Special::Scc => special_at(c.src_vccz, 2, slot, name),
        Special::SharedBase => special_at(c.src_shared_base, 0, slot, name),
        Special::SharedLimit => special_at(c.src_shared_base, 1, slot, name),
        Special::PrivateBase => special_at(c.src_shared_base, 2, slot, name),
        Special::PrivateLimit => special_at(c.src_shared_base, 3, slot, name),
        Special::PopsExitingWaveId => special_at(c.src_shared_base, 4, slot, name),
        Special::FlatScratchBaseLo => special_at(c.src_flat_scratch_base_lo, 0, slot, name),
        Special::FlatScratchBaseHi => special_at(c.src_flat_scratch_base_lo, 1, slot, name),
        Special::LdsDirect => c
            .src_lds_direct
            .ok_or_else(|| err(slot, "lds_direct is not supported on this GPU")),
    }
}

pub(super) fn const_code(
    fam: &FamilyEncoding,
    op: Operand,
    slot: Slot,
) -> Result<u32, EncodeError> {
    let c = &fam.codes;
    match op {
        Operand::InlineInt(i) if (0..=64).contains(&i) => Ok(c.int_zero + i as u32),
        Operand::InlineInt(i) if (-16..0).contains(&i) => {
            Ok(c.int_zero + 64 + (-i32::from(i)) as u32)
        }
        Operand::InlineInt(i) => Err(err(slot, format!("inline integer {i} is outside -16..=64"))),
        Operand::InlineFloat(f) => {
            let idx = FloatConst::ALL.iter().position(|x| *x == f).unwrap_or(0) as u32;
            Ok(c.float_first + idx)
        }
        _ => Err(err(slot, "not a constant")),
    }
}

/// A VGPR's field value. Its range, alignment and halves were checked by
/// [`crate::validate::check`].
fn vgpr_field(index: u16) -> u32 {
    u32::from(index)
}

/// The 9-bit code of a VOP source (VGPRs as 256 + n, halves not applied)
/// and its literal.
fn src_code(
    te: &TargetEncoding,
    op: Operand,
    ty: OpType,
    slot: Slot,
    enc: Encoding,
) -> Result<(u32, Option<Lit>), EncodeError> {
    let fam = te.family;
    match op {
        Operand::Vgpr { index, .. } => Ok((fam.codes.vgpr_first + vgpr_field(index), None)),
        Operand::Scalar { reg, part } => {
            if part != Part::Full {
                return Err(err(
                    slot,
                    "invalid operand for instruction: scalar halves are not addressable",
                ));
            }
            Ok((scalar_code(fam, reg, ty, slot)?, None))
        }
        Operand::InlineInt(_) | Operand::InlineFloat(_) => Ok((const_code(fam, op, slot)?, None)),
        // A 16-bit operand's literal dword may have any high half (LLVM's
        // disassembler prints `lit(0x3f800000)`; the operand reads bits
        // 15:0); the assembler only writes 16-bit values.
        Operand::Literal(v) => Ok((fam.codes.literal, Some(Lit::L32(v)))),
        Operand::Literal64(v) => match fam.codes.literal64 {
            Some(code) if ty == OpType::F64 && te.literal64 && enc != Encoding::Sdwa => {
                Ok((code, Some(Lit::L64(v))))
            }
            Some(_) => Err(err(
                slot,
                "invalid operand for instruction: a 64-bit literal needs an F64 source",
            )),
            None => Err(err(slot, "lit64 is not supported on this GPU")),
        },
        Operand::Special(src) => Ok((special_code(fam, src, slot)?, None)),
    }
}

fn part_of(op: Operand) -> Part {
    match op {
        Operand::Vgpr { part, .. } | Operand::Scalar { part, .. } => part,
        _ => Part::Full,
    }
}

/// Check that true16 VGPR operands either all name halves or none does.
fn check_half_style(instr: &Instruction) -> Result<(), EncodeError> {
    let mut style: Option<bool> = None;
    let ops = [
        (Slot::Dst, Some(instr.dst)),
        (Slot::Src0, Some(instr.src0)),
        (Slot::Src1, instr.src1),
        (Slot::Src2, instr.src2),
    ];
    for (slot, op) in ops {
        let Some(Operand::Vgpr { part, .. }) = op else {
            continue;
        };
        let half = part != Part::Full;
        match style {
            None => style = Some(half),
            Some(s) if s != half => {
                return Err(err(
                    slot,
                    "invalid operand for instruction: mixed register halves and whole registers",
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The instruction check ([`crate::validate::check`], the same rules the
/// executor applies) in the assembler's words, then what LLVM's assembler
/// refuses beyond it: `sext` on the float source and true16 operands that
/// mix register halves with whole registers.
pub(crate) fn validate(te: &TargetEncoding, instr: &Instruction) -> Result<(), EncodeError> {
    crate::validate::check(te.target.spec(), instr).map_err(|v| encode_error(te, instr, v))?;
    // LLVM's disassembler prints `sext()` on a float SDWA source, but its
    // assembler refuses it.
    let info = instr.opcode.info();
    for (n, slot) in [Slot::Src0, Slot::Src1, Slot::Src2].into_iter().enumerate() {
        let float = info.sources.get(n).is_some_and(|t| t.is_float());
        if instr.src_mods(n).sext && (float || n == 0) {
            return Err(err(
                slot,
                "not a valid operand: sext applies to integer operands",
            ));
        }
    }
    if true16(te, instr.opcode.info().src0()) {
        check_half_style(instr)?;
    }
    Ok(())
}

/// A [`Violation`] in the assembler's (LLVM's) words.
fn encode_error(te: &TargetEncoding, instr: &Instruction, v: Violation) -> EncodeError {
    let slot = v.slot;
    let operand = match slot {
        Slot::Dst => Some(instr.dst),
        Slot::Src0 => Some(instr.src0),
        Slot::Src1 => instr.src1,
        Slot::Src2 => instr.src2,
        _ => None,
    };
    let reason = match v.rule {
        Rule::FormNotOnTarget => {
            let what = match instr.encoding {
                Encoding::Vop1 | Encoding::Vop2 => "e32",
                Encoding::Vop3 => "e64",
                Encoding::Sdwa => "sdwa",
            };
            format!("{what} variant of this instruction is not supported")
        }
        Rule::MissingSrc1 => "too few operands for instruction".into(),
        Rule::ExtraSrc1 | Rule::ScalarPairStart | Rule::KNotLiteral => {
            "invalid operand for instruction".into()
        }
        Rule::SdwaWithoutSelectors | Rule::SelectorsWithoutSdwa => {
            "SDWA selectors belong to the SDWA encoding only".into()
        }
        Rule::Src1AbsNeg => "not a valid operand: the exponent takes no ABS/NEG".into(),
        Rule::SextOutsideSdwa if slot == Slot::Src0 => {
            "not a valid operand: sext applies to integer operands".into()
        }
        Rule::SextOutsideSdwa => "sext is an SDWA modifier".into(),
        Rule::ModifiersOnE32 => "invalid operand for instruction: e32 takes no modifiers".into(),
        Rule::DstNotVgpr => {
            "invalid operand for instruction: the destination must be a VGPR".into()
        }
        Rule::HalfNeeds16Bit | Rule::NoHalves => match operand {
            Some(Operand::Scalar { .. }) => {
                "invalid operand for instruction: scalar halves are not addressable".into()
            }
            _ => "invalid operand for instruction: no register halves here".into(),
        },
        Rule::VgprOutOfRange { .. } => "register index is out of range".into(),
        Rule::MisalignedVgprPair { .. } => {
            "invalid register class: vgpr tuples must be 64 bit aligned".into()
        }
        Rule::E32HalfOutOfRange { .. } => format!(
            "invalid operand for instruction: e32 16-bit operands reach v0..v{}",
            te.family.e32_hi_half() - 1
        ),
        Rule::SgprOutOfRange { index, pair } => format!(
            "s{} register not available on this GPU",
            index + usize::from(pair)
        ),
        Rule::MisalignedSgprPair { .. } => "invalid register alignment".into(),
        Rule::InlineIntRange { value } => format!("inline integer {value} is outside -16..=64"),
        Rule::Literal64Width => match te.family.codes.literal64 {
            Some(_) => {
                "invalid operand for instruction: a 64-bit literal needs an F64 source".into()
            }
            None => "lit64 is not supported on this GPU".into(),
        },
        Rule::Vop2Src1NotVgpr => "invalid operand for instruction: e32 src1 must be a VGPR".into(),
        Rule::SdwaLiteral => "invalid operand for instruction: SDWA takes no literal".into(),
        Rule::DppFormNotOnTarget => match instr.encoding {
            Encoding::Vop3 => "e64_dpp variant of this instruction is not supported".into(),
            _ => "dpp variant of this instruction is not supported".into(),
        },
        Rule::DppSrc0NotVgpr | Rule::Dpp8SourceModifiers => {
            "invalid operand for instruction".into()
        }
        Rule::DppSrc1 => match operand {
            Some(Operand::InlineInt(_) | Operand::InlineFloat(_)) => {
                "src1 immediate operand invalid for instruction".into()
            }
            _ => "invalid operand for instruction".into(),
        },
        Rule::DppField => "not a valid operand.".into(),
        Rule::SdwaField => "reserved bits the SDWA word does not reserve".into(),
        Rule::TtmpOutOfRange { .. } => "register index is out of range".into(),
        Rule::MisalignedTtmpPair { .. } => "invalid register alignment".into(),
        Rule::LdsDirectNotSrc0 => "lds_direct may be used as src0 only".into(),
        Rule::LdsDirectInSdwa => "lds_direct cannot be used with this instruction".into(),
        Rule::LdsDirectWide => "invalid operand for instruction".into(),
    };
    EncodeError { slot, reason }
}

/// The machine code of `instr` on `target`, as `llvm-mc` encodes it: the
/// instruction's own encoding (no e32/e64 choice is made here), then any
/// literal dword. An [`EncodeError`] when the target lacks the form or a
/// field cannot hold an operand or modifier.
pub fn encode(target: Target, instr: &Instruction) -> Result<Vec<u8>, EncodeError> {
    encode_with(target_encoding(target), instr)
}

pub(crate) fn encode_with(
    te: &TargetEncoding,
    instr: &Instruction,
) -> Result<Vec<u8>, EncodeError> {
    validate(te, instr)?;
    let mut words: Vec<u32> = Vec::with_capacity(3);
    let lit = match instr.encoding {
        Encoding::Vop1 | Encoding::Vop2 => encode_e32(te, instr, &mut words)?,
        Encoding::Vop3 => encode_vop3(te, instr, &mut words)?,
        Encoding::Sdwa => encode_sdwa(te, instr, &mut words)?,
    };
    if let Some(dpp) = instr.dpp {
        super::dpp::encode_dpp(te, instr, dpp, &mut words)?;
    }
    match lit {
        Some(Lit::L32(v)) => words.push(v),
        Some(Lit::L64(v)) => {
            words.push(v as u32);
            words.push((v >> 32) as u32);
        }
        None => {}
    }
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// An e32 VGPR field value: the register, with the top bit of the field
/// ([`FamilyEncoding::e32_hi_half`]) the high half on
/// true16 16-bit operands.
pub(super) fn e32_vgpr(
    te: &TargetEncoding,
    index: u16,
    part: Part,
    ty: OpType,
    slot: Slot,
) -> Result<u32, EncodeError> {
    let n = vgpr_field(index);
    if true16(te, ty) {
        let hi = te.family.e32_hi_half();
        if n >= hi {
            return Err(err(
                slot,
                format!(
                    "invalid operand for instruction: e32 16-bit operands reach v0..v{}",
                    hi - 1
                ),
            ));
        }
        return Ok(n | if part == Part::Hi { hi } else { 0 });
    }
    Ok(n)
}

fn encode_e32(
    te: &TargetEncoding,
    instr: &Instruction,
    words: &mut Vec<u32>,
) -> Result<Option<Lit>, EncodeError> {
    let fam = te.family;
    let info = instr.opcode.info();
    let op = u32::from(te.op(instr.opcode, instr.encoding).unwrap_or(0));
    let t0 = info.src0();
    let Operand::Vgpr { index, part } = instr.dst else {
        return Err(err(Slot::Dst, "the destination must be a VGPR"));
    };
    let vdst = e32_vgpr(te, index, part, t0, Slot::Dst)?;
    let (mut src0, mut lit) = src_code(te, instr.src0, t0, Slot::Src0, instr.encoding)?;
    if let Operand::Vgpr { index, part } = instr.src0 {
        src0 = fam.codes.vgpr_first + e32_vgpr(te, index, part, t0, Slot::Src0)?;
    }
    let word = match instr.encoding {
        Encoding::Vop1 => {
            let l = fam.vop1;
            let w = l.encoding.put(0, l.encoding_value);
            l.src0.put(l.vdst.put(l.op.put(w, op), vdst), src0)
        }
        _ => {
            let l = fam.vop2;
            // FMAMK/FMAAK: K is the instruction's literal; the vsrc1 field
            // holds the other source.
            if let Some(k) = info.k_slot {
                // K reads the constant bus, and so does a scalar src0.
                let scalar = matches!(instr.src0, Operand::Scalar { reg, .. } if reg != ScalarReg::Null)
                    || matches!(instr.src0, Operand::Special(s) if s != Special::LdsDirect);
                if scalar && fam.constant_bus_limit < 2 {
                    return Err(err(
                        Slot::Src0,
                        "invalid operand (violates constant bus restrictions)",
                    ));
                }
                let slot = if k == 1 { Slot::Src1 } else { Slot::Src2 };
                let kt = info.sources.get(k).copied().unwrap_or(t0);
                let (_, klit) = match instr.source(k) {
                    Some(kop) => src_code(te, kop, kt, slot, instr.encoding)?,
                    None => return Err(err(slot, "too few operands for instruction")),
                };
                // gfx1250 writes the F64 K as a 64-bit literal (a 32-bit
                // F64 literal is the high dword), and src0 shares it.
                let wide = kt == OpType::F64 && te.literal64;
                let k64 = |l: Option<Lit>| match l {
                    Some(Lit::L32(v)) if wide => Some(Lit::L64(u64::from(v) << 32)),
                    other => other,
                };
                match (k64(lit), k64(klit)) {
                    (Some(a), Some(b)) if a != b => {
                        return Err(err(slot, "only one unique literal operand is allowed"))
                    }
                    (_, b) => lit = b,
                }
                if wide && matches!(instr.src0, Operand::Literal(_)) {
                    src0 = fam.codes.literal64.unwrap_or(src0);
                }
            }
            let n1 = (1..info.sources.len()).find(|&n| info.k_slot != Some(n));
            let slot1 = if n1 == Some(2) {
                Slot::Src2
            } else {
                Slot::Src1
            };
            let t1 = n1
                .and_then(|n| info.sources.get(n).copied())
                .unwrap_or(OpType::I32);
            let Some(Operand::Vgpr { index, part }) = n1.and_then(|n| instr.source(n)) else {
                return Err(err(
                    slot1,
                    "invalid operand for instruction: e32 src1 must be a VGPR",
                ));
            };
            let vsrc1 = e32_vgpr(te, index, part, t1, slot1)?;
            let w = l.encoding.put(0, l.encoding_value);
            l.src0
                .put(l.vsrc1.put(l.vdst.put(l.op.put(w, op), vdst), vsrc1), src0)
        }
    };
    words.push(word);
    Ok(lit)
}

/// Constant-bus and literal rules of VOP3 (and SDWA).
fn check_vop3_sources(te: &TargetEncoding, instr: &Instruction) -> Result<(), EncodeError> {
    let fam = te.family;
    // A pair and its low half are different constant-bus reads.
    let mut scalars: Vec<(ScalarReg, bool)> = Vec::new();
    // Special sources read the constant bus too (LLVM: `v_ldexp_f32 v5,
    // src_scc, s1` violates GFX9's limit of one); src_lds_direct does not.
    let mut specials: Vec<Special> = Vec::new();
    let mut literal: Option<u64> = None;
    let mut bus = 0;
    let info = instr.opcode.info();
    let wide = |n: usize| info.sources.get(n).is_some_and(|t| t.bits() == 64);
    let wide = [wide(0), wide(1), wide(2)];
    for (i, (slot, op)) in [
        (Slot::Src0, Some(instr.src0)),
        (Slot::Src1, instr.src1),
        (Slot::Src2, instr.src2),
    ]
    .into_iter()
    .enumerate()
    {
        match op {
            Some(Operand::Scalar { reg, .. })
                if reg != ScalarReg::Null && !scalars.contains(&(reg, wide[i])) =>
            {
                scalars.push((reg, wide[i]));
                bus += 1;
            }
            Some(Operand::Special(src))
                if src != Special::LdsDirect && !specials.contains(&src) =>
            {
                specials.push(src);
                bus += 1;
            }
            Some(lit @ (Operand::Literal(_) | Operand::Literal64(_))) => {
                let v = match lit {
                    Operand::Literal64(v) => v,
                    Operand::Literal(v) => u64::from(v),
                    _ => 0,
                };
                if !fam.vop3_literal {
                    return Err(err(slot, "literal operands are not supported"));
                }
                match literal {
                    None => {
                        literal = Some(v);
                        bus += 1;
                    }
                    Some(l) if l == v => {}
                    Some(_) => return Err(err(slot, "only one unique literal operand is allowed")),
                }
            }
            _ => {}
        }
        if bus > fam.constant_bus_limit {
            return Err(err(
                slot,
                "invalid operand (violates constant bus restrictions)",
            ));
        }
    }
    Ok(())
}

fn encode_vop3(
    te: &TargetEncoding,
    instr: &Instruction,
    words: &mut Vec<u32>,
) -> Result<Option<Lit>, EncodeError> {
    let fam = te.family;
    let l = fam.vop3;
    let info = instr.opcode.info();
    let op = u32::from(te.op(instr.opcode, instr.encoding).unwrap_or(0));
    let t0 = info.src0();
    check_vop3_sources(te, instr)?;
    let Operand::Vgpr { index, part } = instr.dst else {
        return Err(err(Slot::Dst, "the destination must be a VGPR"));
    };
    let slots = [Slot::Src0, Slot::Src1, Slot::Src2];
    let mut codes = [0u32; 3];
    let mut lit = None;
    let (mut abs, mut neg, mut op_sel) = (0u32, 0u32, 0u32);
    for (n, slot) in slots.into_iter().enumerate() {
        let (Some(src), Some(&ty)) = (instr.source(n), info.sources.get(n)) else {
            continue;
        };
        // GFX9/GFX10 op_sel on a scalar source: the code is the register's.
        let whole = match src {
            Operand::Scalar {
                reg,
                part: Part::Hi,
            } if te.op_sel_without_halves(instr.opcode) => Operand::Scalar {
                reg,
                part: Part::Full,
            },
            other => other,
        };
        let (code, l) = src_code(te, whole, ty, slot, Encoding::Vop3)?;
        codes[n] = code;
        lit = lit.or(l);
        let m = instr.src_mods(n);
        abs |= u32::from(m.abs) << n;
        neg |= u32::from(m.neg) << n;
        if part_of(src) == Part::Hi {
            op_sel |= 1 << n;
        }
    }
    if part == Part::Hi {
        op_sel |= 1 << l.op_sel.map_or(3, |s| s.dst_bit);
    }
    let mut w0 = l.encoding.put(0, l.encoding_value);
    w0 = l.op.put(w0, op);
    w0 = l.vdst.put(w0, u32::from(index));
    w0 = l.abs.put(w0, abs);
    w0 = l.clamp.put(w0, u32::from(instr.clamp));
    if op_sel != 0 {
        let Some(s) = l.op_sel else {
            return Err(err(Slot::Modifier, "not a valid operand: no op_sel here"));
        };
        w0 = s.field.put(w0, op_sel);
    }
    let _ = t0;
    let mut w1 = l.src[0].put(0, codes[0]);
    w1 = l.src[1].put(w1, codes[1]);
    w1 = l.src[2].put(w1, codes[2]);
    w1 = l.omod.put(w1, instr.omod.field());
    w1 = l.neg.put(w1, neg);
    words.push(w0);
    words.push(w1);
    Ok(lit)
}

/// An SDWA source: (register or scalar code, is-scalar flag).
fn sdwa_src(
    te: &TargetEncoding,
    op: Operand,
    ty: OpType,
    slot: Slot,
) -> Result<(u32, bool), EncodeError> {
    match op {
        Operand::Vgpr { index, .. } => Ok((vgpr_field(index), false)),
        Operand::Literal(_) | Operand::Literal64(_) => Err(err(
            slot,
            "invalid operand for instruction: SDWA takes no literal",
        )),
        other => Ok((src_code(te, other, ty, slot, Encoding::Sdwa)?.0, true)),
    }
}

fn encode_sdwa(
    te: &TargetEncoding,
    instr: &Instruction,
    words: &mut Vec<u32>,
) -> Result<Option<Lit>, EncodeError> {
    let fam = te.family;
    let Some(l) = fam.sdwa else {
        return Err(err(
            Slot::Mnemonic,
            "sdwa variant of this instruction is not supported",
        ));
    };
    let Some(sel) = instr.sdwa else {
        return Err(err(
            Slot::Modifier,
            "an SDWA instruction needs SDWA selectors",
        ));
    };
    let op = u32::from(te.op(instr.opcode, instr.encoding).unwrap_or(0));
    let (t0, t1) = (instr.opcode.info().src0(), instr.opcode.info().src1());
    let Operand::Vgpr { index, .. } = instr.dst else {
        return Err(err(Slot::Dst, "the destination must be a VGPR"));
    };
    let vdst = vgpr_field(index);
    check_vop3_sources(te, instr)?;
    let (s0, s0_scalar) = sdwa_src(te, instr.src0, t0, Slot::Src0)?;
    let mut w1 = l.src0.put(0, s0);
    w1 = l.dst_sel.put(w1, sel.dst_sel.field());
    w1 = l.dst_unused.put(w1, sel.dst_unused.field());
    w1 = l.clamp.put(w1, u32::from(instr.clamp));
    w1 = l.omod.put(w1, instr.omod.field());
    w1 = l.src0_sel.put(w1, sel.src0_sel.field());
    w1 = l.src0_sext.put(w1, u32::from(instr.src0_mods.sext));
    w1 = l.src0_neg.put(w1, u32::from(instr.src0_mods.neg));
    w1 = l.src0_abs.put(w1, u32::from(instr.src0_mods.abs));
    w1 = l.src0_sgpr.put(w1, u32::from(s0_scalar));
    // Validation keeps `reserved` inside the must-be-zero bits.
    w1 |= sel.reserved & l.reserved;
    let w0 = match (instr.src1, t1) {
        (Some(s1), Some(t1)) => {
            let (c1, s1_scalar) = sdwa_src(te, s1, t1, Slot::Src1)?;
            w1 = l.src1_sel.put(w1, sel.src1_sel.field());
            w1 = l.src1_sext.put(w1, u32::from(instr.src1_mods.sext));
            w1 = l.src1_neg.put(w1, u32::from(instr.src1_mods.neg));
            w1 = l.src1_abs.put(w1, u32::from(instr.src1_mods.abs));
            w1 = l.src1_sgpr.put(w1, u32::from(s1_scalar));
            let v = fam.vop2;
            let w = v.encoding.put(0, v.encoding_value);
            v.src0
                .put(v.vsrc1.put(v.vdst.put(v.op.put(w, op), vdst), c1), l.marker)
        }
        _ => {
            let v = fam.vop1;
            let w = v.encoding.put(0, v.encoding_value);
            v.src0.put(v.vdst.put(v.op.put(w, op), vdst), l.marker)
        }
    };
    words.push(w0);
    words.push(w1);
    Ok(None)
}
