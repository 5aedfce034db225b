//! Operand reads: every lane's source words, from VGPRs, scalars,
//! constants and literals, with register halves and SDWA selections
//! applied (docs/semantics.md §3).

use crate::error::ExecError;
use crate::instr::{Instruction, Operand, Part, ScalarReg, SdwaSel};
use crate::kernels::{Format, FormatKind};
use crate::target::{SdwaConstantSel, TargetSpec};
use crate::wave::{Wave, MAX_LANES, NUM_VGPRS};

/// The right shift that brings a 16-bit operand in register half `part` to
/// bits 15:0 (0 for wider operands).
pub(super) fn half_shift<F: Format>(part: Part) -> u32 {
    if F::WIDTH == 16 && part == Part::Hi {
        16
    } else {
        0
    }
}

/// src0 of every lane as register words: `lo` (and `hi` for F64, else
/// empty). Returns the right shift that brings a 16-bit source to bits
/// 15:0. A plain VGPR source (the common case) is copied as is; every other
/// operand goes through [`read_operand`].
pub(super) fn read_float_source<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    lo: &mut [u32],
    hi: &mut [u32],
) -> Result<u32, ExecError> {
    if let (Operand::Vgpr { index, part }, None) = (instr.src0, instr.sdwa) {
        let index = usize::from(index);
        lo.copy_from_slice(wave.vgpr_lanes(index).ok_or(out_of_range("src0", index))?);
        if F::WIDTH == 64 {
            let h = wave
                .vgpr_lanes(index + 1)
                .ok_or(out_of_range("src0", index + 1))?;
            hi.copy_from_slice(h);
        }
        // 16-bit operands take the selected half.
        return Ok(half_shift::<F>(part));
    }
    let mut raw = [0u64; MAX_LANES];
    let raw = &mut raw[..lo.len()];
    let sel = instr.sdwa.map(|s| (s.src0_sel, instr.src0_mods.sext));
    read_operand(
        spec,
        wave,
        "src0",
        instr.src0,
        F::WIDTH,
        Some(F::KIND),
        sel,
        raw,
    )?;
    for (l, &r) in lo.iter_mut().zip(raw.iter()) {
        *l = r as u32;
    }
    for (h, &r) in hi.iter_mut().zip(raw.iter()) {
        *h = (r >> 32) as u32;
    }
    Ok(0)
}

/// LDEXP's exponent operand of every lane as register words. Returns the
/// right shift that brings an F16 exponent to bits 15:0 (the kernel then
/// reads it as an i16 [gfx1201 capture]; F32/F64 use all 32 bits).
pub(super) fn read_exponent<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    src1: Operand,
    out: &mut [u32],
) -> Result<u32, ExecError> {
    let f16 = F::KIND == FormatKind::F16;
    if let (Operand::Vgpr { index, part }, None) = (src1, instr.sdwa) {
        let index = usize::from(index);
        out.copy_from_slice(wave.vgpr_lanes(index).ok_or(out_of_range("src1", index))?);
        return Ok(half_shift::<F>(part));
    }
    let mut raw = [0u64; MAX_LANES];
    let raw = &mut raw[..out.len()];
    let width = if f16 { 16 } else { 32 };
    let sel = instr.sdwa.map(|s| (s.src1_sel, instr.src1_mods.sext));
    read_operand(spec, wave, "src1", src1, width, None, sel, raw)?;
    for (o, &r) in out.iter_mut().zip(raw.iter()) {
        *o = r as u32;
    }
    Ok(0)
}

fn out_of_range(operand: &'static str, index: usize) -> ExecError {
    ExecError::RegisterOutOfRange {
        operand,
        kind: "vgpr",
        index,
        count: NUM_VGPRS,
    }
}

/// A scalar register's value (64 bits for pairs).
fn scalar_value(wave: &Wave, reg: ScalarReg, width: u32) -> Result<u64, ExecError> {
    let pair = width == 64;
    // A 64-bit register named by its low half: the pair, or the low word.
    let low_or_pair = |v: u64| if pair { v } else { v & 0xffff_ffff };
    Ok(match reg {
        ScalarReg::Sgpr(n) => {
            let n = usize::from(n);
            let lo = u64::from(wave.sgpr(n)?);
            if pair {
                lo | u64::from(wave.sgpr(n + 1)?) << 32
            } else {
                lo
            }
        }
        ScalarReg::VccLo => low_or_pair(wave.vcc()),
        ScalarReg::VccHi => wave.vcc() >> 32,
        ScalarReg::ExecLo => low_or_pair(wave.exec()),
        ScalarReg::ExecHi => wave.exec() >> 32,
        ScalarReg::M0 => u64::from(wave.m0()),
        ScalarReg::Null => 0,
        ScalarReg::Ttmp(n) => {
            let n = usize::from(n);
            let lo = u64::from(wave.ttmp(n)?);
            if pair {
                lo | u64::from(wave.ttmp(n + 1)?) << 32
            } else {
                lo
            }
        }
        ScalarReg::FlatScratchLo => low_or_pair(wave.flat_scratch()),
        ScalarReg::FlatScratchHi => wave.flat_scratch() >> 32,
        ScalarReg::XnackMaskLo => low_or_pair(wave.xnack_mask()),
        ScalarReg::XnackMaskHi => wave.xnack_mask() >> 32,
    })
}

/// Read `op` for every lane into `out` as a `width`-bit raw value. `float`
/// names the format an inline float constant is interpreted in (None for
/// integer operands, whose float constants are the F16/F32 encodings of
/// their width). `sel` is the SDWA selector and sign extension.
#[allow(clippy::too_many_arguments)]
pub(super) fn read_operand(
    spec: &TargetSpec,
    wave: &Wave,
    operand: &'static str,
    op: Operand,
    width: u32,
    float: Option<FormatKind>,
    sel: Option<(SdwaSel, bool)>,
    out: &mut [u64],
) -> Result<(), ExecError> {
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    // 16-bit operands take the selected half; SDWA takes the selected field.
    let narrow = |v32: u64, part: Part| -> u64 {
        let v = match sel {
            Some((s, sext)) => u64::from(s.extract(v32 as u32, sext)),
            None => v32,
        };
        let v = if width == 16 && part == Part::Hi {
            v >> 16
        } else {
            v
        };
        v & mask
    };
    // An SDWA selector on an inline constant: ignored, or applied to the
    // constant's encoding as to a register's (`sdwa_constant_sel`) [open].
    let applied = spec.sdwa_constant_sel.map(|s| s.value) == Some(SdwaConstantSel::Applied);
    let constant = |v: u64| if applied { narrow(v, Part::Full) } else { v };
    match op {
        Operand::Vgpr { index, part } => {
            let index = usize::from(index);
            let lo = wave
                .vgpr_lanes(index)
                .ok_or(ExecError::RegisterOutOfRange {
                    operand,
                    kind: "vgpr",
                    index,
                    count: NUM_VGPRS,
                })?;
            if width == 64 {
                let hi = wave
                    .vgpr_lanes(index + 1)
                    .ok_or(ExecError::RegisterOutOfRange {
                        operand,
                        kind: "vgpr",
                        index: index + 1,
                        count: NUM_VGPRS,
                    })?;
                for ((o, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
                    *o = u64::from(h) << 32 | u64::from(l);
                }
            } else {
                for (o, &l) in out.iter_mut().zip(lo) {
                    *o = narrow(u64::from(l), part);
                }
            }
        }
        Operand::Scalar { reg, part } => {
            let v = scalar_value(wave, reg, width)?;
            let v = if width == 64 { v } else { narrow(v, part) };
            out.fill(v);
        }
        Operand::InlineInt(i) => out.fill(constant(i as i64 as u64 & mask)),
        Operand::InlineFloat(c) => {
            let format = float.unwrap_or(if width == 16 {
                FormatKind::F16
            } else {
                FormatKind::F32
            });
            out.fill(constant(c.bits(format) & mask));
        }
        Operand::Literal(l) => {
            // A 64-bit float operand's literal is its high dword.
            let v = if width == 64 {
                u64::from(l) << 32
            } else {
                u64::from(l) & mask
            };
            out.fill(v);
        }
        Operand::Literal64(l) => out.fill(l & mask),
        // A special source reads like a scalar register: a 64-bit operand
        // takes the apertures' 64 bits and the 32-bit sources
        // zero-extended; narrower operands take bits 31:0, then their half
        // or SDWA field (docs/semantics.md §3.4).
        Operand::Special(src) => {
            let v = wave.special(src)?;
            let v = if width == 64 {
                v
            } else {
                narrow(v & 0xffff_ffff, Part::Full)
            };
            out.fill(v);
        }
    }
    Ok(())
}
