//! The shared executor: validate an instruction against a target, read the
//! operands of every lane, run the kernel over the wave, and write back the
//! active lanes (SEMANTICS.md sections 3 and 7).
//!
//! Generated per-target modules choose the kernel and format and call
//! [`execute`]; everything that differs per target comes from [`TargetSpec`].

use crate::error::ExecError;
use crate::instr::{Encoding, Instruction, Operand, Part, ScalarReg, SdwaSel};
use crate::kernels::wave::{run_lanes_dispatched, Operation};
use crate::kernels::{Format, FormatKind, Modifiers, Policy};
use crate::target::{F16DstHigh, TargetSpec};
use crate::wave::{Wave, MAX_LANES, NUM_SGPRS, NUM_VGPRS};

/// Execute `instr` (an `O` operation on format `F`) on `wave` under `spec`.
pub fn execute<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    validate::<O, F>(spec, wave, instr)?;
    let policy = policy::<F>(spec, wave, instr);
    let lanes = wave.lanes();

    // Fixed-size buffers on the stack: no allocation per instruction.
    let mut src = [F::Bits::default(); MAX_LANES];
    let mut exp = [0i32; MAX_LANES];
    read_float_source::<F>(spec, wave, instr, &mut src[..lanes])?;
    if O::HAS_EXPONENT {
        let Some(src1) = instr.src1 else {
            return Err(missing_src1());
        };
        read_exponent::<F>(spec, wave, instr, src1, &mut exp[..lanes])?;
    }

    let mut out = [F::Bits::default(); MAX_LANES];
    run_lanes_dispatched::<O, F>(&src[..lanes], &exp[..lanes], &mut out[..lanes], &policy);
    write_back::<F>(spec, wave, instr, &out[..lanes])
}

/// src0 of every lane as encodings of `F`. A plain VGPR source (the common
/// case) is read straight into `out`; every other operand goes through
/// [`read_operand`].
fn read_float_source<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    out: &mut [F::Bits],
) -> Result<(), ExecError> {
    if let (Operand::Vgpr { index, part }, None) = (instr.src0, instr.sdwa) {
        let index = usize::from(index);
        let lo = wave.vgpr_lanes(index).ok_or(out_of_range("src0", index))?;
        if F::WIDTH == 64 {
            let hi = wave
                .vgpr_lanes(index + 1)
                .ok_or(out_of_range("src0", index + 1))?;
            for ((o, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
                *o = F::narrow(u64::from(h) << 32 | u64::from(l));
            }
        } else {
            // 16-bit operands take the selected half (narrow drops the rest).
            let shift = if F::WIDTH == 16 && part == Part::Hi {
                16
            } else {
                0
            };
            for (o, &l) in out.iter_mut().zip(lo) {
                *o = F::narrow(u64::from(l >> shift));
            }
        }
        return Ok(());
    }
    let mut raw = [0u64; MAX_LANES];
    let raw = &mut raw[..out.len()];
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
    for (o, &r) in out.iter_mut().zip(raw.iter()) {
        *o = F::narrow(r);
    }
    Ok(())
}

/// LDEXP's exponent operand of every lane. F16: only the low 16 bits, as a
/// signed i16 [gfx1201 capture]; F32/F64: all 32 bits.
fn read_exponent<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    src1: Operand,
    out: &mut [i32],
) -> Result<(), ExecError> {
    let f16 = F::KIND == FormatKind::F16;
    let to_exp = |r: u32| {
        if f16 {
            i32::from(r as u16 as i16)
        } else {
            r as i32
        }
    };
    if let (Operand::Vgpr { index, part }, None) = (src1, instr.sdwa) {
        let index = usize::from(index);
        let lo = wave.vgpr_lanes(index).ok_or(out_of_range("src1", index))?;
        let shift = if f16 && part == Part::Hi { 16 } else { 0 };
        for (o, &l) in out.iter_mut().zip(lo) {
            *o = to_exp(l >> shift);
        }
        return Ok(());
    }
    let mut raw = [0u64; MAX_LANES];
    let raw = &mut raw[..out.len()];
    let width = if f16 { 16 } else { 32 };
    let sel = instr.sdwa.map(|s| (s.src1_sel, instr.src1_mods.sext));
    read_operand(spec, wave, "src1", src1, width, None, sel, raw)?;
    for (o, &r) in out.iter_mut().zip(raw.iter()) {
        *o = to_exp(r as u32);
    }
    Ok(())
}

fn out_of_range(operand: &'static str, index: usize) -> ExecError {
    ExecError::RegisterOutOfRange {
        operand,
        kind: "vgpr",
        index,
        count: NUM_VGPRS,
    }
}

/// The raw src0 bits and the exponent operand of one lane of `instr`, as
/// the kernel sees them (before source modifiers).
pub fn lane_sources<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<(u64, i32), ExecError> {
    if lane >= wave.lanes() {
        return Err(ExecError::LaneOutOfRange {
            lane,
            lanes: wave.lanes(),
        });
    }
    let mut raw = [0u64; MAX_LANES];
    let lanes = wave.lanes();
    let src0_sel = instr.sdwa.map(|s| (s.src0_sel, instr.src0_mods.sext));
    read_operand(
        spec,
        wave,
        "src0",
        instr.src0,
        F::WIDTH,
        Some(F::KIND),
        src0_sel,
        &mut raw[..lanes],
    )?;
    let src = raw[lane];
    let mut exp = 0;
    if let Some(src1) = instr.src1 {
        let width = if F::KIND == FormatKind::F16 { 16 } else { 32 };
        let src1_sel = instr.sdwa.map(|s| (s.src1_sel, instr.src1_mods.sext));
        read_operand(
            spec,
            wave,
            "src1",
            src1,
            width,
            None,
            src1_sel,
            &mut raw[..lanes],
        )?;
        exp = if width == 16 {
            i32::from(raw[lane] as u16 as i16)
        } else {
            raw[lane] as u32 as i32
        };
    }
    Ok((src, exp))
}

/// The policy of `instr` under the wave's MODE.
pub fn policy<F: Format>(spec: &TargetSpec, wave: &Wave, instr: &Instruction) -> Policy {
    let mods = Modifiers {
        abs: instr.src0_mods.abs,
        neg: instr.src0_mods.neg,
        omod: instr.omod,
        clamp: instr.clamp,
    };
    Policy::new::<F>(&spec.float_rules(), wave.mode(), mods)
}

fn missing_src1() -> ExecError {
    ExecError::InvalidOperand {
        operand: "src1",
        reason: "LDEXP needs an exponent operand".into(),
    }
}

fn invalid(operand: &'static str, reason: impl Into<String>) -> ExecError {
    ExecError::InvalidOperand {
        operand,
        reason: reason.into(),
    }
}

/// Check everything about `instr` that could make execution ill-defined.
fn validate<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    let target = spec.target.name();
    if spec.form(instr.opcode, instr.encoding).is_none() {
        return Err(ExecError::FormNotOnTarget {
            target,
            opcode: instr.opcode,
            encoding: instr.encoding,
        });
    }
    if !spec.supports_wave(wave.size()) {
        return Err(ExecError::WaveSizeNotOnTarget {
            target,
            lanes: wave.lanes(),
        });
    }
    let enc = instr.encoding;
    if !enc.has_modifiers() {
        let m = instr.src0_mods;
        if m.abs || m.neg || instr.clamp || instr.omod != crate::kernels::Omod::None {
            return Err(ExecError::InvalidModifier {
                reason: format!(
                    "the {} encoding has no ABS, NEG, CLAMP or OMOD",
                    enc.suffix()
                ),
            });
        }
    }
    if instr.src1_mods.abs || instr.src1_mods.neg {
        return Err(ExecError::InvalidModifier {
            reason: "ABS/NEG apply to floating sources only, not src1".into(),
        });
    }
    match (enc, instr.sdwa) {
        (Encoding::Sdwa, None) => {
            return Err(ExecError::InvalidModifier {
                reason: "an SDWA instruction needs SDWA selectors".into(),
            })
        }
        (Encoding::Sdwa, Some(_)) => {}
        (_, Some(_)) => {
            return Err(ExecError::InvalidModifier {
                reason: "SDWA selectors on a non-SDWA encoding".into(),
            })
        }
        (_, None) => {}
    }
    if enc != Encoding::Sdwa && (instr.src0_mods.sext || instr.src1_mods.sext) {
        return Err(ExecError::InvalidModifier {
            reason: "sext is an SDWA modifier".into(),
        });
    }
    match (O::HAS_EXPONENT, instr.src1) {
        (true, None) => return Err(missing_src1()),
        (false, Some(_)) => return Err(invalid("src1", "FRACT takes one source")),
        _ => {}
    }
    // Destination: a VGPR, halves only for true16 16-bit results.
    let Operand::Vgpr { index, part } = instr.dst else {
        return Err(invalid("dst", "the destination must be a VGPR"));
    };
    check_vgpr(spec, "dst", index, part, F::WIDTH, enc)?;
    check_source(spec, "src0", instr.src0, F::WIDTH, enc)?;
    if let Some(src1) = instr.src1 {
        let width = if F::KIND == FormatKind::F16 { 16 } else { 32 };
        check_source(spec, "src1", src1, width, enc)?;
        if enc == Encoding::Vop2 && !matches!(src1, Operand::Vgpr { .. }) {
            return Err(invalid("src1", "VOP2 src1 must be a VGPR"));
        }
    }
    if enc == Encoding::Sdwa {
        if let Operand::Literal(_) | Operand::Literal64(_) = instr.src0 {
            return Err(invalid("src0", "SDWA takes no literal"));
        }
    }
    Ok(())
}

fn check_part(
    spec: &TargetSpec,
    operand: &'static str,
    part: Part,
    width: u32,
    enc: Encoding,
) -> Result<(), ExecError> {
    if part == Part::Full {
        return Ok(());
    }
    if width != 16 {
        return Err(invalid(operand, "a register half needs a 16-bit operand"));
    }
    if !spec.true16.value || enc == Encoding::Sdwa {
        return Err(invalid(
            operand,
            format!("{} has no true16 register halves", spec.target),
        ));
    }
    Ok(())
}

fn check_vgpr(
    spec: &TargetSpec,
    operand: &'static str,
    index: u16,
    part: Part,
    width: u32,
    enc: Encoding,
) -> Result<(), ExecError> {
    check_part(spec, operand, part, width, enc)?;
    let index = usize::from(index);
    let regs = if width == 64 { 2 } else { 1 };
    if index + regs > NUM_VGPRS {
        return Err(ExecError::RegisterOutOfRange {
            operand,
            kind: "vgpr",
            index,
            count: NUM_VGPRS,
        });
    }
    if width == 64 && spec.aligned_vgpr_pairs.value && index % 2 != 0 {
        return Err(ExecError::MisalignedPair { operand, index });
    }
    // True16 e32 forms address v0..v127 with bit 7 choosing the half.
    if width == 16 && spec.true16.value && !enc.has_modifiers() && index >= 128 {
        return Err(ExecError::RegisterOutOfRange {
            operand,
            kind: "16-bit e32 vgpr",
            index,
            count: 128,
        });
    }
    Ok(())
}

fn check_source(
    spec: &TargetSpec,
    operand: &'static str,
    op: Operand,
    width: u32,
    enc: Encoding,
) -> Result<(), ExecError> {
    match op {
        Operand::Vgpr { index, part } => check_vgpr(spec, operand, index, part, width, enc),
        Operand::Scalar { reg, part } => {
            check_part(spec, operand, part, width, enc)?;
            if let ScalarReg::Sgpr(n) = reg {
                let n = usize::from(n);
                let regs = if width == 64 { 2 } else { 1 };
                if n + regs > NUM_SGPRS {
                    return Err(ExecError::RegisterOutOfRange {
                        operand,
                        kind: "sgpr",
                        index: n,
                        count: NUM_SGPRS,
                    });
                }
                if width == 64 && n % 2 != 0 {
                    return Err(ExecError::MisalignedPair { operand, index: n });
                }
            }
            if width == 64 && matches!(reg, ScalarReg::VccHi | ScalarReg::ExecHi | ScalarReg::M0) {
                return Err(invalid(operand, "not the start of a 64-bit scalar pair"));
            }
            Ok(())
        }
        Operand::InlineInt(v) => {
            if (-16..=64).contains(&v) {
                Ok(())
            } else {
                Err(invalid(
                    operand,
                    format!("inline integer {v} is outside -16..=64"),
                ))
            }
        }
        Operand::InlineFloat(_) | Operand::Literal(_) => Ok(()),
        Operand::Literal64(_) if width == 64 => Ok(()),
        Operand::Literal64(_) => Err(invalid(operand, "a 64-bit literal needs a 64-bit operand")),
    }
}

/// A scalar register's value (64 bits for pairs).
fn scalar_value(wave: &Wave, reg: ScalarReg, width: u32) -> Result<u64, ExecError> {
    let pair = width == 64;
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
        ScalarReg::VccLo => {
            if pair {
                wave.vcc()
            } else {
                wave.vcc() & 0xffff_ffff
            }
        }
        ScalarReg::VccHi => wave.vcc() >> 32,
        ScalarReg::ExecLo => {
            if pair {
                wave.exec()
            } else {
                wave.exec() & 0xffff_ffff
            }
        }
        ScalarReg::ExecHi => wave.exec() >> 32,
        ScalarReg::M0 => u64::from(wave.m0()),
        ScalarReg::Null => 0,
    })
}

/// Read `op` for every lane into `out` as a `width`-bit raw value. `float`
/// names the format an inline float constant is interpreted in (None for
/// integer operands, whose float constants are the F16/F32 encodings of
/// their width). `sel` is the SDWA selector and sign extension.
#[allow(clippy::too_many_arguments)]
fn read_operand(
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
        Operand::InlineInt(i) => out.fill(i as i64 as u64 & mask),
        Operand::InlineFloat(c) => {
            let format = float.unwrap_or(if width == 16 {
                FormatKind::F16
            } else {
                FormatKind::F32
            });
            out.fill(c.bits(format) & mask);
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
    }
    let _ = spec;
    Ok(())
}

/// Write the results of the active lanes.
fn write_back<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    out: &[F::Bits],
) -> Result<(), ExecError> {
    let Operand::Vgpr { index, part } = instr.dst else {
        return Err(invalid("dst", "the destination must be a VGPR"));
    };
    let index = usize::from(index);
    let exec = wave.exec();
    let oob = ExecError::RegisterOutOfRange {
        operand: "dst",
        kind: "vgpr",
        index,
        count: NUM_VGPRS,
    };
    // Inactive lanes keep their old bits: a select per lane, no branch;
    // with every lane active (the common case) a plain store.
    let all_active = exec & wave.size().exec_mask() == wave.size().exec_mask();
    let active = |lane: usize| all_active || exec >> lane & 1 != 0;
    if F::WIDTH == 64 {
        let lo = wave.vgpr_lanes_mut(index).ok_or(oob.clone())?;
        for (lane, (d, &r)) in lo.iter_mut().zip(out).enumerate() {
            *d = if active(lane) { F::widen(r) as u32 } else { *d };
        }
        let hi = wave.vgpr_lanes_mut(index + 1).ok_or(oob)?;
        for (lane, (d, &r)) in hi.iter_mut().zip(out).enumerate() {
            *d = if active(lane) {
                (F::widen(r) >> 32) as u32
            } else {
                *d
            };
        }
        return Ok(());
    }
    let sdwa = instr.sdwa;
    let true16 = spec.true16.value;
    let zero_high = spec.f16_dst_high.value == F16DstHigh::Zero;
    if instr.sdwa.is_none() {
        // The old bits kept and where the result goes: an F32 result takes
        // the register; an F16 result its half (true16 high: bits 31:16),
        // preserving the other half on true16 and GFX10 and zeroing it on
        // GFX9. The same rules as the general loop below.
        let (keep, shift) = if F::WIDTH == 32 {
            (0, 0)
        } else if true16 && part == Part::Hi {
            (0x0000_ffff, 16)
        } else if true16 || !zero_high {
            (0xffff_0000, 0)
        } else {
            (0, 0)
        };
        let dst = wave.vgpr_lanes_mut(index).ok_or(oob)?;
        for (lane, (d, &r)) in dst.iter_mut().zip(out).enumerate() {
            let v = (*d & keep) | (F::widen(r) as u32) << shift;
            *d = if active(lane) { v } else { *d };
        }
        return Ok(());
    }
    let dst = wave.vgpr_lanes_mut(index).ok_or(oob)?;
    for (lane, (d, &r)) in dst.iter_mut().zip(out).enumerate() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        // An F16 result is its 16 bits zero-extended [open: SDWA dst_sel DWORD].
        let v = F::widen(r) as u32;
        *d = if let Some(s) = sdwa {
            let (shift, width) = s.dst_sel.field_bits();
            s.dst_unused.merge(*d, v, shift, width)
        } else if F::WIDTH == 32 {
            v
        } else if true16 && part == Part::Hi {
            (*d & 0x0000_ffff) | (v << 16)
        } else if true16 || !zero_high {
            // True16 low half, or GFX10: the other half is preserved.
            (*d & 0xffff_0000) | v
        } else {
            // GFX9: the high half is zeroed.
            v
        };
    }
    Ok(())
}
