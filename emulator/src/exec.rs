//! The shared executor: validate an instruction against a target, read the
//! operands of every lane, run the kernel over the wave, and write back the
//! active lanes (docs/semantics.md §3 and §7).
//!
//! Generated per-target modules choose the kernel and format and call
//! [`execute`]; everything that differs per target comes from [`TargetSpec`].

use crate::error::ExecError;
use crate::instr::{Encoding, Instruction, Operand, Part, ScalarReg, SdwaSel};
use crate::kernels::{run_dispatched, Operation, WaveIo};
use crate::kernels::{Format, FormatKind, Modifiers, Policy};
use crate::target::{F16DstHigh, TargetSpec};
use crate::wave::{Wave, MAX_LANES, NUM_SGPRS, NUM_VGPRS};

/// Execute `instr` (an `O` operation on format `F`) on `wave` under `spec`.
///
/// An opcode that is not `O` on `F` is refused
/// ([`ExecError::OperationMismatch`]): the types never run one instruction
/// as another. After validation the operands are read into per-lane words,
/// and one dispatched call runs the kernel over the wave and merges the
/// results of the active lanes into the destination (SDWA destinations are
/// merged afterwards).
pub fn execute<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    // There are two operations, told apart by LDEXP's exponent operand.
    if instr.opcode.is_ldexp() != O::HAS_EXPONENT || instr.opcode.format() != F::KIND {
        return Err(ExecError::OperationMismatch {
            opcode: instr.opcode,
            operation: O::NAME,
            format: F::KIND,
        });
    }
    if !plainly_valid::<O, F>(spec, wave, instr) {
        validate::<O, F>(spec, wave, instr)?;
    }
    let policy = policy::<F>(spec, wave, instr);
    if direct::<O, F>(spec, wave, instr, &policy) {
        return Ok(());
    }
    copied::<O, F>(spec, wave, instr, &policy)
}

/// A quick check, with few branches, that accepts the common shapes
/// (VGPR operands, no SDWA) only when [`validate`] would accept them too.
/// False means "run `validate`", which finds the error if there is one.
#[inline]
fn plainly_valid<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> bool {
    let enc = instr.encoding;
    let (m0, m1) = (instr.src0_mods, instr.src1_mods);
    let no_out_mods = !instr.clamp && instr.omod == crate::kernels::Omod::None;
    let vgpr = |op: Operand, width: u32| -> bool {
        let Operand::Vgpr { index, part } = op else {
            return false;
        };
        let index = usize::from(index);
        let regs = if width == 64 { 2 } else { 1 };
        // As check_part and check_vgpr (no SDWA here).
        (part == Part::Full || (width == 16 && spec.true16.value))
            && index + regs <= NUM_VGPRS
            && !(width == 64 && spec.aligned_vgpr_pairs.value && index % 2 != 0)
            && !(width == 16 && spec.true16.value && !enc.has_modifiers() && index >= 128)
    };
    let src1_ok = match instr.src1 {
        None => !O::HAS_EXPONENT,
        Some(src1) => O::HAS_EXPONENT && vgpr(src1, if F::WIDTH == 16 { 16 } else { 32 }),
    };
    instr.sdwa.is_none()
        & (enc != Encoding::Sdwa)
        & (enc.has_modifiers() || (!m0.abs && !m0.neg && no_out_mods))
        & !(m1.abs | m1.neg | m0.sext | m1.sext)
        && src1_ok
        && vgpr(instr.dst, F::WIDTH)
        && vgpr(instr.src0, F::WIDTH)
        && spec.has_form(instr.opcode, enc)
        && spec.supports_wave(wave.size())
}

/// Where an F16 result goes in a non-SDWA destination word: the old bits
/// kept and the left shift of the result. An F32 result takes the register;
/// an F16 result its half (true16 high: bits 31:16), preserving the other
/// half on true16 and GFX10 and zeroing it on GFX9.
fn dst_placement<F: Format>(spec: &TargetSpec, part: Part) -> (u32, u32) {
    let true16 = spec.true16.value;
    let zero_high = spec.f16_dst_high.value == F16DstHigh::Zero;
    if F::WIDTH == 32 {
        (0, 0)
    } else if true16 && part == Part::Hi {
        (0x0000_ffff, 16)
    } else if true16 || !zero_high {
        (0xffff_0000, 0)
    } else {
        (0, 0)
    }
}

/// The common case without copies: VGPR sources that are not destination
/// registers, no SDWA. The kernel reads the sources in the register file
/// and writes the destination in place. False, touching nothing, when the
/// instruction is not of that shape.
fn direct<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    policy: &Policy,
) -> bool {
    let (
        None,
        Operand::Vgpr {
            index: dst,
            part: dst_part,
        },
        Operand::Vgpr {
            index: src,
            part: src_part,
        },
    ) = (instr.sdwa, instr.dst, instr.src0)
    else {
        return false;
    };
    let exp_reg = match (O::HAS_EXPONENT, instr.src1) {
        (false, _) => None,
        (true, Some(Operand::Vgpr { index, part })) => Some((usize::from(index), part)),
        (true, _) => return false,
    };
    let exec = wave.exec();
    let (keep, dst_shift) = dst_placement::<F>(spec, dst_part);
    let wide = F::WIDTH == 64;
    let Some(split) = wave.vgpr_split(usize::from(dst), if wide { 2 } else { 1 }) else {
        return false;
    };
    let src = usize::from(src);
    let (Some(src_lo), Some(src_hi)) = (
        split.src(src),
        if wide {
            split.src(src + 1)
        } else {
            Some(&[][..])
        },
    ) else {
        return false;
    };
    let (exp, exp_shift) = match exp_reg {
        None => (&[][..], 0),
        Some((index, part)) => match split.src(index) {
            Some(e) => (e, half_shift::<F>(part)),
            None => return false,
        },
    };
    let (dst_lo, dst_hi) = split.dst();
    write_back::<O, F>(
        &mut WaveIo {
            src_lo,
            src_hi,
            src_shift: half_shift::<F>(src_part),
            exp,
            exp_shift,
            dst_lo,
            dst_hi,
            dst_keep: keep,
            dst_shift,
            exec,
        },
        policy,
    );
    true
}

/// Run the kernel over the wave and write the active lanes' results into
/// the destination ([`run_dispatched`]). Unit tests can break this
/// write-back on purpose (the test-only `fault` module) to prove that
/// replay notices.
#[inline(always)]
fn write_back<O: Operation, F: Format>(io: &mut WaveIo<'_>, policy: &Policy) {
    #[cfg(test)]
    fault::apply(io);
    run_dispatched::<O, F, _>(io, policy);
}

/// The right shift that brings a 16-bit operand in register half `part` to
/// bits 15:0 (0 for wider operands).
fn half_shift<F: Format>(part: Part) -> u32 {
    if F::WIDTH == 16 && part == Part::Hi {
        16
    } else {
        0
    }
}

/// Every other case: the operands are read into per-lane words on the
/// stack first (the destination may be one of the sources; scalars,
/// constants and SDWA selections are expanded per lane).
#[inline(never)]
fn copied<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    policy: &Policy,
) -> Result<(), ExecError> {
    let lanes = wave.lanes();
    let exec = wave.exec();

    // Fixed-size buffers on the stack: no allocation per instruction. The
    // sources are copied out of the register file because the destination
    // may be one of them.
    let wide = if F::WIDTH == 64 { lanes } else { 0 };
    let mut src_lo = [0u32; MAX_LANES];
    let mut src_hi = [0u32; MAX_LANES];
    let mut exp = [0u32; MAX_LANES];
    let src_shift =
        read_float_source::<F>(spec, wave, instr, &mut src_lo[..lanes], &mut src_hi[..wide])?;
    let (exp, exp_shift) = if O::HAS_EXPONENT {
        let Some(src1) = instr.src1 else {
            return Err(missing_src1());
        };
        let shift = read_exponent::<F>(spec, wave, instr, src1, &mut exp[..lanes])?;
        (&exp[..lanes], shift)
    } else {
        (&exp[..0], 0)
    };
    let Operand::Vgpr { index, part } = instr.dst else {
        return Err(invalid("dst", "the destination must be a VGPR"));
    };
    let index = usize::from(index);
    let oob = |index| ExecError::RegisterOutOfRange {
        operand: "dst",
        kind: "vgpr",
        index,
        count: NUM_VGPRS,
    };
    let io = |dst_lo, dst_hi, dst_keep, dst_shift, exec| WaveIo {
        src_lo: &src_lo[..lanes],
        src_hi: &src_hi[..wide],
        src_shift,
        exp,
        exp_shift,
        dst_lo,
        dst_hi,
        dst_keep,
        dst_shift,
        exec,
    };

    if let Some(sdwa) = instr.sdwa {
        // The results of every lane first, then the dst_sel merge of the
        // active ones. An F16 result is its 16 bits zero-extended [open:
        // SDWA dst_sel DWORD].
        let mut out = [0u32; MAX_LANES];
        let mut out_hi = [0u32; MAX_LANES];
        run_dispatched::<O, F, _>(
            &mut io(&mut out[..lanes], &mut out_hi[..wide], 0, 0, u64::MAX),
            policy,
        );
        let dst = wave.vgpr_lanes_mut(index).ok_or(oob(index))?;
        let (shift, width) = sdwa.dst_sel.field_bits();
        for (lane, (d, &v)) in dst.iter_mut().zip(&out).enumerate() {
            if exec >> lane & 1 != 0 {
                *d = sdwa.dst_unused.merge(*d, v, shift, width);
            }
        }
        return Ok(());
    }
    if F::WIDTH == 64 {
        let (lo, hi) = wave.vgpr_split(index, 2).ok_or(oob(index))?.dst();
        write_back::<O, F>(&mut io(lo, hi, 0, 0, exec), policy);
        return Ok(());
    }
    let (keep, shift) = dst_placement::<F>(spec, part);
    let dst = wave.vgpr_lanes_mut(index).ok_or(oob(index))?;
    write_back::<O, F>(&mut io(dst, &mut [], keep, shift, exec), policy);
    Ok(())
}

/// src0 of every lane as register words: `lo` (and `hi` for F64, else
/// empty). Returns the right shift that brings a 16-bit source to bits
/// 15:0. A plain VGPR source (the common case) is copied as is; every other
/// operand goes through [`read_operand`].
fn read_float_source<F: Format>(
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
fn read_exponent<F: Format>(
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

/// The raw src0 bits and the exponent operand of one lane of `instr`, as
/// the kernel sees them (before source modifiers): the same operand reads
/// and lane decoding as [`execute`].
pub fn lane_sources<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    lane: usize,
) -> Result<(u64, i32), ExecError> {
    let lanes = wave.lanes();
    if lane >= lanes {
        return Err(ExecError::LaneOutOfRange { lane, lanes });
    }
    let (mut lo, mut hi) = ([0u32; MAX_LANES], [0u32; MAX_LANES]);
    let wide = if F::WIDTH == 64 { lanes } else { 0 };
    let shift = read_float_source::<F>(spec, wave, instr, &mut lo[..lanes], &mut hi[..wide])?;
    let src = WaveIo::source::<F>(lo[lane], hi[lane], shift);
    let exp = match instr.src1 {
        Some(src1) => {
            let mut words = [0u32; MAX_LANES];
            let shift = read_exponent::<F>(spec, wave, instr, src1, &mut words[..lanes])?;
            WaveIo::exponent::<F>(words[lane], shift)
        }
        None => 0,
    };
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
    if !spec.has_form(instr.opcode, instr.encoding) {
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

/// Test-only: deliberately broken write-backs (per thread), so replay's
/// tests can show that a broken executor fails rows.
#[cfg(test)]
pub(crate) mod fault {
    use crate::kernels::WaveIo;
    use std::cell::Cell;

    /// How [`super::write_back`] is broken.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum Fault {
        /// Not broken.
        None,
        /// Writes every lane, active or not.
        IgnoreExec,
        /// A 16-bit result clears the other half of its register.
        ClobberOtherHalf,
        /// Lanes 32-63 are never written.
        SkipHighLanes,
    }

    thread_local! {
        static FAULT: Cell<Fault> = const { Cell::new(Fault::None) };
    }

    /// Break the write-back of this thread's executions until reset.
    pub(crate) fn set(fault: Fault) {
        FAULT.with(|f| f.set(fault));
    }

    pub(super) fn apply(io: &mut WaveIo<'_>) {
        match FAULT.with(Cell::get) {
            Fault::None => {}
            Fault::IgnoreExec => io.exec = u64::MAX,
            Fault::ClobberOtherHalf => io.dst_keep = 0,
            Fault::SkipHighLanes => io.exec &= 0xffff_ffff,
        }
    }
}
