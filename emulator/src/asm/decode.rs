//! Machine code -> [`Instruction`]. Strict: every field must hold what the
//! assembler would have written, so decode then encode gives the same bytes.

use super::encode::{encode_with, true16, OpType};
use super::tables::{Field, TargetEncoding};
use super::target_encoding;
use super::DecodeError;
use crate::dpp::Dpp;
use crate::instr::{
    DstUnused, Encoding, FloatConst, Instruction, Operand, Part, ScalarReg, Sdwa, SdwaSel, Special,
    SrcMods,
};
use crate::kernels::Omod;
use crate::target::{DppReservedBits, SdwaReservedBits, Target, TargetSpec};

type Res<T> = Result<T, DecodeError>;

struct Words<'a> {
    bytes: &'a [u8],
}

impl Words<'_> {
    /// The dword at byte `offset`.
    fn get(&self, offset: usize, needed: usize) -> Res<u32> {
        match self.bytes.get(offset..offset + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(DecodeError::Truncated {
                offset,
                needed,
                available: self.bytes.len(),
            }),
        }
    }
}

fn reserved(offset: usize, field: &'static str, value: u32) -> DecodeError {
    DecodeError::Reserved {
        offset,
        field,
        value,
    }
}

/// The DPP word at byte `offset` has the reserved bits `bits` set: an
/// error naming the lowest if `dpp.reserved_bits` says error.
fn dpp_reserved(spec: &TargetSpec, offset: usize, bits: u32) -> Res<()> {
    if bits != 0 && spec.dpp.reserved_bits.value == DppReservedBits::Error {
        return Err(DecodeError::ReservedBit {
            offset,
            word: "DPP",
            bit: bits.trailing_zeros(),
            switch: "dpp.reserved_bits",
        });
    }
    Ok(())
}

/// Decode a 9-bit source code (VGPRs as 256 + n); `literal` reads the
/// trailing literal at the given byte length.
fn operand(
    te: &TargetEncoding,
    code: u32,
    ty: OpType,
    field: &'static str,
) -> Result<Operand, u32> {
    let c = &te.family.codes;
    let wide = ty.bits() == 64;
    let scalar = |reg| {
        Ok(Operand::Scalar {
            reg,
            part: Part::Full,
        })
    };
    if code >= c.vgpr_first {
        let n = code - c.vgpr_first;
        if wide && n == 255 {
            return Err(code);
        }
        return Ok(Operand::Vgpr {
            index: n as u16,
            part: Part::Full,
        });
    }
    if code <= u32::from(c.max_sgpr) {
        if wide && (!code.is_multiple_of(2) || code + 1 > u32::from(c.max_sgpr)) {
            return Err(code);
        }
        return scalar(ScalarReg::Sgpr(code as u8));
    }
    let _ = field;
    match code {
        x if x == c.vcc_lo => scalar(ScalarReg::VccLo),
        x if x == c.vcc_lo + 1 && !wide => scalar(ScalarReg::VccHi),
        x if x == c.exec_lo => scalar(ScalarReg::ExecLo),
        x if x == c.exec_lo + 1 && !wide => scalar(ScalarReg::ExecHi),
        x if x == c.m0 && !wide => scalar(ScalarReg::M0),
        x if Some(x) == c.null => scalar(ScalarReg::Null),
        x if (c.int_zero..=c.int_zero + 64).contains(&x) => {
            Ok(Operand::InlineInt((x - c.int_zero) as i8))
        }
        x if (c.int_zero + 65..=c.int_zero + 80).contains(&x) => {
            Ok(Operand::InlineInt(-((x - c.int_zero - 64) as i8)))
        }
        x if (c.float_first..c.float_first + 9).contains(&x) => Ok(Operand::InlineFloat(
            FloatConst::ALL[(x - c.float_first) as usize],
        )),
        _ => special_operand(te, code, wide).ok_or(code),
    }
}

/// A trap temporary, GFX9 register half or `src_*` code, as LLVM's
/// disassembler names it. A 64-bit operand takes an even ttmp (a pair),
/// the low halves (`flat_scratch`, `xnack_mask`) and every special source
/// but `src_flat_scratch_base_hi` and `src_lds_direct`, which LLVM's
/// disassembler refuses there. (It prints an odd ttmp code as the even
/// pair below it; this decoder refuses it, as it refuses odd SGPR pairs:
/// the encoding is not the one the text assembles to.)
fn special_operand(te: &TargetEncoding, code: u32, wide: bool) -> Option<Operand> {
    let c = &te.family.special;
    let at = |first: Option<u32>, n: u32| first.is_some_and(|f| code >= f && code - f < n);
    let off = |first: Option<u32>| first.map_or(0, |f| code - f);
    let scalar = |reg| {
        Some(Operand::Scalar {
            reg,
            part: Part::Full,
        })
    };
    if at(c.ttmp0, 16) {
        let n = off(c.ttmp0);
        if wide && (n % 2 != 0) {
            return None;
        }
        return scalar(ScalarReg::Ttmp(n as u8));
    }
    if at(c.flat_scratch_lo, 2) {
        return match off(c.flat_scratch_lo) {
            0 => scalar(ScalarReg::FlatScratchLo),
            _ if wide => None,
            _ => scalar(ScalarReg::FlatScratchHi),
        };
    }
    if at(c.xnack_mask_lo, 2) {
        return match off(c.xnack_mask_lo) {
            0 => scalar(ScalarReg::XnackMaskLo),
            _ if wide => None,
            _ => scalar(ScalarReg::XnackMaskHi),
        };
    }
    let group: [(Option<u32>, &[Special]); 4] = [
        (
            c.src_flat_scratch_base_lo,
            &[Special::FlatScratchBaseLo, Special::FlatScratchBaseHi],
        ),
        (
            c.src_shared_base,
            &[
                Special::SharedBase,
                Special::SharedLimit,
                Special::PrivateBase,
                Special::PrivateLimit,
                Special::PopsExitingWaveId,
            ],
        ),
        (c.src_vccz, &[Special::Vccz, Special::Execz, Special::Scc]),
        (c.src_lds_direct, &[Special::LdsDirect]),
    ];
    for (first, members) in group {
        if at(first, members.len() as u32) {
            let src = *members.get(off(first) as usize)?;
            if wide && matches!(src, Special::FlatScratchBaseHi | Special::LdsDirect) {
                return None;
            }
            return Some(Operand::Special(src));
        }
    }
    None
}

/// Decode the instruction at the start of `bytes` (little-endian dwords, as
/// in memory) for `target`: the instruction and its length in bytes (4 for
/// VOP1/VOP2, 8 for VOP3 or SDWA or e32 DPP, 12 for e64 DPP, plus 4 or 8
/// for a literal). Bytes after it are ignored. Truncated input, an
/// encoding or opcode out of scope, a reserved field value or an operand
/// the target refuses is a [`DecodeError`] with its byte offset.
///
/// Reserved bits of a DPP or SDWA word (DPP bit 17, bit 18 where the
/// target has no FI, bits 23:20 of an e64 DPP word, the src1 ABS/NEG bits
/// of LDEXP's e32 DPP word; SDWA bits 22 and 30) follow the target's
/// `dpp.reserved_bits` and `sdwa_reserved_bits`: by default the word
/// decodes as llvm-mc 22 decodes it, the bits kept in the instruction
/// ([`Dpp16::reserved`](crate::Dpp16::reserved),
/// [`Sdwa::reserved`](crate::Sdwa::reserved)) so it encodes back to the
/// same bytes; under `error` it is [`DecodeError::ReservedBit`].
///
/// ```
/// use amdgpu_valu::{asm, Opcode, Target};
/// use amdgpu_valu::asm::DecodeError;
///
/// // v_fract_f64_e32 v[2:3], v[4:5] on gfx90a (VOP1, one dword).
/// let (instr, len) = asm::decode(Target::Gfx90a, &[0x04, 0x65, 0x04, 0x7e])?;
/// assert_eq!((instr.opcode, len), (Opcode::FractF64, 4));
/// assert_eq!(asm::disassemble(Target::Gfx90a, &instr), "v_fract_f64_e32 v[2:3], v[4:5]");
/// // The first dword of a VOP3 word alone is truncated.
/// let vop3 = asm::assemble(Target::Gfx90a, "v_fract_f64_e64 v[2:3], v[4:5] clamp")?;
/// assert!(matches!(asm::decode(Target::Gfx90a, &vop3[..4]), Err(DecodeError::Truncated { offset: 4, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decode(target: Target, bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
    decode_with(target.spec(), bytes)
}

/// [`decode`] under `spec`, a target's facts possibly changed (its
/// reserved-bits switches).
pub(crate) fn decode_with(
    spec: &TargetSpec,
    bytes: &[u8],
) -> Result<(Instruction, usize), DecodeError> {
    let te = target_encoding(spec.target);
    let w = Words { bytes };
    let w0 = w.get(0, 4)?;
    let fam = te.family;
    let (instr, len) = if fam.vop1.encoding.get(w0) == fam.vop1.encoding_value {
        decode_e32(spec, te, &w, w0, true)?
    } else if fam.vop2.encoding.get(w0) == fam.vop2.encoding_value {
        decode_e32(spec, te, &w, w0, false)?
    } else if fam.vop3.encoding.get(w0) == fam.vop3.encoding_value {
        decode_vop3(spec, te, &w, w0)?
    } else {
        return Err(DecodeError::UnknownEncoding {
            offset: 0,
            word: w0,
        });
    };
    // The decoded instruction must be one the assembler accepts and encode
    // back to the same bytes (the reserved bits it keeps included).
    match encode_with(te, &instr) {
        Ok(b) if bytes.get(..len) == Some(&b[..]) => Ok((instr, len)),
        Ok(_) => Err(DecodeError::Invalid {
            offset: 0,
            reason: "non-canonical encoding".into(),
        }),
        Err(e) => Err(DecodeError::Invalid {
            offset: 0,
            reason: e.to_string(),
        }),
    }
}

/// Read the literal for `op` (if it is one) at byte `at`; the new length.
fn literal(
    te: &TargetEncoding,
    w: &Words<'_>,
    code: u32,
    ty: OpType,
    at: usize,
    allow64: bool,
) -> Res<Option<(Operand, usize)>> {
    let c = &te.family.codes;
    if code == c.literal {
        // A 16-bit operand's literal dword may have any high half: LLVM
        // prints it as `lit(0x3f800000)` (the operand reads bits 15:0).
        let v = w.get(at, at + 4)?;
        return Ok(Some((Operand::Literal(v), at + 4)));
    }
    if Some(code) == c.literal64 && allow64 && ty == OpType::F64 {
        let lo = w.get(at, at + 8)?;
        let hi = w.get(at + 4, at + 8)?;
        return Ok(Some((
            Operand::Literal64(u64::from(hi) << 32 | u64::from(lo)),
            at + 8,
        )));
    }
    Ok(None)
}

fn e32_vgpr(te: &TargetEncoding, field: u32, ty: OpType) -> Operand {
    if true16(te, ty) {
        let hi = te.family.e32_hi_half();
        let part = if field & hi != 0 { Part::Hi } else { Part::Lo };
        Operand::Vgpr {
            index: (field & (hi - 1)) as u16,
            part,
        }
    } else {
        Operand::Vgpr {
            index: field as u16,
            part: Part::Full,
        }
    }
}

fn decode_e32(
    spec: &TargetSpec,
    te: &TargetEncoding,
    w: &Words<'_>,
    w0: u32,
    vop1: bool,
) -> Res<(Instruction, usize)> {
    let fam = te.family;
    let (enc, op, vdst, src0, vsrc1) = if vop1 {
        let l = fam.vop1;
        (
            Encoding::Vop1,
            l.op.get(w0),
            l.vdst.get(w0),
            l.src0.get(w0),
            None,
        )
    } else {
        let l = fam.vop2;
        (
            Encoding::Vop2,
            l.op.get(w0),
            l.vdst.get(w0),
            l.src0.get(w0),
            Some(l.vsrc1.get(w0)),
        )
    };
    if let Some(s) = fam.sdwa {
        if src0 == s.marker {
            return decode_sdwa(spec, te, w, w0, vop1);
        }
    }
    let Some(opcode) = te.opcode(enc, op) else {
        return Err(DecodeError::UnknownOpcode {
            offset: 0,
            encoding: if vop1 { "VOP1" } else { "VOP2" },
            op,
        });
    };
    let info = opcode.info();
    let (t0, t1) = (info.src0(), info.src1());
    let dst = e32_vgpr(te, vdst, t0);
    let mut dpp = None;
    let mut src0_mods = SrcMods::default();
    let mut src1_mods = SrcMods::default();
    // A float src1 of a VOP2 word takes ABS/NEG from the DPP16 word.
    let float_src1 = !vop1 && t1.is_some_and(|t| t.is_float());
    let (src0, mut len) = match super::dpp::marker(te, src0) {
        Some(m) => {
            let mut d = super::dpp::decode_word(te, w.get(4, 8)?, m, enc)
                .map_err(|v| reserved(4, "dpp src1 modifiers", v))?;
            if let (true, Dpp::Dpp16(d16)) = (float_src1, &mut d.dpp) {
                src1_mods.neg = d16.src1_bits & 1 != 0;
                src1_mods.abs = d16.src1_bits & 2 != 0;
                d16.src1_bits = 0;
                d.reserved &= !super::dpp::src1_mod_bits(te);
            }
            dpp_reserved(spec, 4, d.reserved)?;
            dpp = Some(d.dpp);
            src0_mods.abs = d.abs;
            src0_mods.neg = d.neg;
            (e32_vgpr(te, d.src0, t0), 8)
        }
        None => e32_src0(te, w, src0, t0, info.k_slot.is_some())?,
    };
    // FMAMK/FMAAK: K is the literal (shared with a literal src0); the vsrc1
    // field holds the other source.
    let mut sources = [None, None, None];
    let vsrc1_slot = (1..info.sources.len()).find(|&n| info.k_slot != Some(n));
    if let (Some(v), Some(n)) = (vsrc1, vsrc1_slot) {
        let ty = info.sources.get(n).copied().unwrap_or(OpType::I32);
        sources[n] = Some(e32_vgpr(te, v, ty));
    }
    if let Some(k) = info.k_slot {
        let wide = t0 == OpType::F64 && te.literal64;
        let value = match src0 {
            Operand::Literal(v) if wide => u64::from(v) << 32,
            Operand::Literal(v) => u64::from(v),
            Operand::Literal64(v) => v,
            _ if wide => {
                let lo = w.get(4, 12)?;
                let hi = w.get(8, 12)?;
                len = 12;
                u64::from(hi) << 32 | u64::from(lo)
            }
            _ => {
                len = 8;
                u64::from(w.get(4, 8)?)
            }
        };
        // A 16-bit K with a high half: LLVM prints the whole dword, which its
        // assembler refuses (a deliberate refusal here).
        if t0.bits() == 16 && value > 0xffff {
            return Err(reserved(4, "K", value as u32));
        }
        let kop = if !wide {
            Operand::Literal(value as u32)
        } else if value >> 32 == 0 {
            Operand::Literal64(value)
        } else if value as u32 == 0 {
            Operand::Literal((value >> 32) as u32)
        } else {
            Operand::Literal64(value)
        };
        sources[k] = Some(kop);
    }
    // A literal src0 beside a 64-bit K is the same 64-bit literal: written
    // as the 32-bit (high dword) literal when its low dword is 0.
    let src0 = match src0 {
        Operand::Literal64(v) if info.k_slot.is_some() && v as u32 == 0 => {
            Operand::Literal((v >> 32) as u32)
        }
        other => other,
    };
    let [_, src1, src2] = sources;
    Ok((
        Instruction {
            src1,
            src2,
            src0_mods,
            src1_mods,
            dpp,
            ..Instruction::unary(opcode, enc, dst, src0)
        },
        len,
    ))
}

/// A non-DPP e32 src0 and the instruction's length.
fn e32_src0(
    te: &TargetEncoding,
    w: &Words<'_>,
    src0: u32,
    t0: OpType,
    _k: bool,
) -> Res<(Operand, usize)> {
    let fam = te.family;
    Ok(match literal(te, w, src0, t0, 4, true)? {
        Some((op, len)) => (op, len),
        None if src0 >= fam.codes.vgpr_first => (e32_vgpr(te, src0 - fam.codes.vgpr_first, t0), 4),
        None => (
            operand(te, src0, t0, "src0").map_err(|v| reserved(0, "src0", v))?,
            4,
        ),
    })
}

fn decode_vop3(
    spec: &TargetSpec,
    te: &TargetEncoding,
    w: &Words<'_>,
    w0: u32,
) -> Res<(Instruction, usize)> {
    let l = te.family.vop3;
    let op = l.op.get(w0);
    let Some(opcode) = te.opcode(Encoding::Vop3, op) else {
        return Err(DecodeError::UnknownOpcode {
            offset: 0,
            encoding: "VOP3",
            op,
        });
    };
    let w1 = w.get(4, 8)?;
    let info = opcode.info();
    let t0 = info.src0();
    let n = info.sources.len();
    // ABS/NEG bits of the float sources the instruction has.
    let float_bits = info
        .sources
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_float())
        .fold(0u32, |m, (i, _)| m | 1 << i);
    let abs = l.abs.get(w0);
    let neg = l.neg.get(w1);
    if abs & !float_bits != 0 {
        return Err(reserved(0, "abs", abs));
    }
    if neg & !float_bits != 0 {
        return Err(reserved(4, "neg", neg));
    }
    // Bits no field covers must be zero.
    let mut used0 = [l.encoding, l.op, l.vdst, l.abs, l.clamp]
        .iter()
        .fold(0u32, |m, f| m | f.mask() << f.lo);
    let halves = true16(te, t0);
    // GFX9/GFX10: op_sel of a VOP3-only 16-bit instruction, no `.l` halves.
    let hi_only = te.op_sel_without_halves(opcode);
    let (op_sel, dst_bit) = match l.op_sel {
        Some(s) if halves || hi_only => {
            used0 |= s.field.mask() << s.field.lo;
            (s.field.get(w0), Some(s.dst_bit))
        }
        _ => (0, None),
    };
    if w0 & !used0 != 0 {
        return Err(reserved(0, "reserved bits", w0 & !used0));
    }
    // Source fields the instruction does not have must be zero (FMAC's
    // accumulator has none: LLVM ignores the field, this decoder refuses it).
    for (i, field) in [(1, "src1"), (2, "src2")] {
        let code = l.src[i].get(w1);
        if i >= n && code != 0 {
            return Err(reserved(4, field, code));
        }
    }
    let src_bits = (1u32 << n) - 1;
    let dst_mask = dst_bit.map_or(0, |b| 1 << b);
    if op_sel & !(src_bits | dst_mask) != 0 {
        return Err(reserved(0, "op_sel", op_sel));
    }
    let part = |bit: u32| {
        if op_sel & bit != 0 {
            Part::Hi
        } else {
            Part::Lo
        }
    };
    let vdst = l.vdst.get(w0);
    let hi_part = |bit: u32| {
        if op_sel & bit != 0 {
            Part::Hi
        } else {
            Part::Full
        }
    };
    let dst = if hi_only {
        Operand::Vgpr {
            index: vdst as u16,
            part: hi_part(dst_mask),
        }
    } else if halves {
        Operand::Vgpr {
            index: vdst as u16,
            part: part(dst_mask),
        }
    } else {
        Operand::Vgpr {
            index: vdst as u16,
            part: Part::Full,
        }
    };
    let mut len = 8;
    let mut src = |code: u32, ty: OpType, bit: u32, field: &'static str| -> Res<Operand> {
        let op = match literal(te, w, code, ty, 8, true)? {
            // LLVM decodes a VOP3 64-bit literal only when a 32-bit one
            // could give it (as its assembler takes it).
            Some((Operand::Literal64(v), _))
                if v >> 32 != 0 && v as u32 != 0 && i64::from(v as i32) != v as i64 =>
            {
                return Err(reserved(8, field, code));
            }
            Some((op, l)) => {
                len = len.max(l);
                op
            }
            None => operand(te, code, ty, field).map_err(|v| reserved(4, field, v))?,
        };
        Ok(match op {
            Operand::Vgpr { index, .. } if hi_only => Operand::Vgpr {
                index,
                part: hi_part(bit),
            },
            Operand::Scalar { reg, .. } if hi_only && op_sel & bit != 0 => Operand::Scalar {
                reg,
                part: Part::Hi,
            },
            other if hi_only && op_sel & bit != 0 => {
                return Err(reserved(0, "op_sel", op_sel)).map(|_: ()| other)
            }
            Operand::Vgpr { index, .. } if halves => Operand::Vgpr {
                index,
                part: part(bit),
            },
            other if halves && op_sel & bit != 0 => {
                return Err(reserved(0, "op_sel", op_sel)).map(|_: ()| other)
            }
            other => other,
        })
    };
    let code0 = l.src[0].get(w1);
    let mut dpp_len = 0;
    let (src0, dpp) = match super::dpp::marker(te, code0) {
        Some(m) => {
            let d = super::dpp::decode_word(te, w.get(8, 12)?, m, Encoding::Vop3)
                .map_err(|v| reserved(8, "dpp", v))?;
            dpp_reserved(spec, 8, d.reserved)?;
            dpp_len = 12;
            let index = d.src0 as u16;
            let part = if halves { part(1) } else { Part::Full };
            (Operand::Vgpr { index, part }, Some(d.dpp))
        }
        None => (src(code0, t0, 1, "src0")?, None),
    };
    let mut more = [None, None];
    for (i, field) in [(1usize, "src1"), (2, "src2")] {
        if let Some(&ty) = info.sources.get(i) {
            more[i - 1] = Some(src(l.src[i].get(w1), ty, 1 << i, field)?);
        }
    }
    let mods = |i: u32| SrcMods {
        abs: abs >> i & 1 != 0,
        neg: neg >> i & 1 != 0,
        sext: false,
    };
    let instr = Instruction {
        src1: more[0],
        src2: more[1],
        src0_mods: mods(0),
        src1_mods: mods(1),
        src2_mods: mods(2),
        clamp: l.clamp.get(w0) != 0,
        omod: Omod::from_field(l.omod.get(w1)),
        dpp,
        ..Instruction::unary(opcode, Encoding::Vop3, dst, src0)
    };
    Ok((instr, len.max(dpp_len)))
}

fn sel(f: Field, w1: u32, name: &'static str) -> Res<SdwaSel> {
    SdwaSel::from_field(f.get(w1)).ok_or(reserved(4, name, f.get(w1)))
}

fn decode_sdwa(
    spec: &TargetSpec,
    te: &TargetEncoding,
    w: &Words<'_>,
    w0: u32,
    vop1: bool,
) -> Res<(Instruction, usize)> {
    let fam = te.family;
    let Some(l) = fam.sdwa else {
        return Err(DecodeError::UnknownEncoding {
            offset: 0,
            word: w0,
        });
    };
    let (op, vdst) = if vop1 {
        (fam.vop1.op.get(w0), fam.vop1.vdst.get(w0))
    } else {
        (fam.vop2.op.get(w0), fam.vop2.vdst.get(w0))
    };
    let Some(opcode) = te.opcode(Encoding::Sdwa, op) else {
        return Err(DecodeError::UnknownOpcode {
            offset: 0,
            encoding: "SDWA",
            op,
        });
    };
    let w1 = w.get(4, 8)?;
    // The must-be-zero bits: llvm-mc 22 decodes the word as if they were 0.
    let kept = w1 & l.reserved;
    let error = spec
        .sdwa_reserved_bits
        .is_some_and(|s| s.value == SdwaReservedBits::Error);
    if kept != 0 && error {
        return Err(DecodeError::ReservedBit {
            offset: 4,
            word: "SDWA",
            bit: kept.trailing_zeros(),
            switch: "sdwa_reserved_bits",
        });
    }
    let (t0, t1) = (opcode.info().src0(), opcode.info().src1());
    let src_of = |code: u32, scalar: bool, ty: OpType, field: &'static str| -> Res<Operand> {
        if scalar {
            operand(te, code, ty, field).map_err(|v| reserved(4, field, v))
        } else {
            Ok(Operand::Vgpr {
                index: code as u16,
                part: Part::Full,
            })
        }
    };
    let src0 = src_of(l.src0.get(w1), l.src0_sgpr.get(w1) != 0, t0, "src0")?;
    let dst_unused = DstUnused::from_field(l.dst_unused.get(w1)).ok_or(reserved(
        4,
        "dst_unused",
        l.dst_unused.get(w1),
    ))?;
    let sdwa = Sdwa {
        dst_sel: sel(l.dst_sel, w1, "dst_sel")?,
        dst_unused,
        src0_sel: sel(l.src0_sel, w1, "src0_sel")?,
        src1_sel: if t1.is_some() {
            sel(l.src1_sel, w1, "src1_sel")?
        } else {
            SdwaSel::Dword
        },
        reserved: kept,
    };
    let src1_bits = [l.src1_sel, l.src1_sext, l.src1_neg, l.src1_abs, l.src1_sgpr]
        .iter()
        .fold(0, |m, f| m | f.mask() << f.lo);
    let src1 = match t1 {
        Some(t1) => Some(src_of(
            fam.vop2.vsrc1.get(w0),
            l.src1_sgpr.get(w1) != 0,
            t1,
            "src1",
        )?),
        None => {
            if w1 & src1_bits != 0 {
                return Err(reserved(4, "src1 fields", w1 & src1_bits));
            }
            None
        }
    };
    let instr = Instruction {
        opcode,
        encoding: Encoding::Sdwa,
        dst: Operand::Vgpr {
            index: vdst as u16,
            part: Part::Full,
        },
        src0,
        src0_mods: SrcMods {
            abs: l.src0_abs.get(w1) != 0,
            neg: l.src0_neg.get(w1) != 0,
            sext: l.src0_sext.get(w1) != 0,
        },
        src1,
        src1_mods: SrcMods {
            abs: l.src1_abs.get(w1) != 0,
            neg: l.src1_neg.get(w1) != 0,
            sext: l.src1_sext.get(w1) != 0,
        },
        src2: None,
        src2_mods: SrcMods::default(),
        clamp: l.clamp.get(w1) != 0,
        omod: Omod::from_field(l.omod.get(w1)),
        sdwa: Some(sdwa),
        dpp: None,
    };
    Ok((instr, 8))
}
