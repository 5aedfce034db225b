//! The arithmetic instructions (ADD, SUB, SUBREV, MUL, FMA, FMAC, FMAMK,
//! FMAAK) through the same steps as FRACT/LDEXP: validate (a quick
//! pre-check first), run the dispatched kernel over the wave ([`run_arith`])
//! on the register file in place where the shape allows
//! (`arith_in_place`), else on every source of every lane read into words
//! first (`copied`), and write back the active lanes
//! (docs/semantics.md §3, §12).
//!
//! What differs per instruction comes from [`crate::instr::OpcodeInfo`]:
//! the sources in syntax order (FMAMK's K in slot 1 and FMAAK's in slot 2,
//! read in the result format), and FMAC's accumulator, the destination's
//! old value of the same lane and half (the pair for F64), which DPP never
//! moves. The kernel's sources are the syntax's in order, FMAC's D third:
//! that is also the NaN priority of the encoding (src0, K, src1 for FMAMK).

use super::arith_in_place::{in_place, plainly_valid_arith};
use super::dpp::{plan_arith, Plan};
use super::noted::{hit_arith, layout, note, run_arith_op};
use super::operands::{half_shift, read_operand};
use super::write::{dst_placement, sdwa_merge};
use super::{invalid, validate};
use crate::dpp::Dpp;
use crate::error::ExecError;
use crate::instr::{Instruction, Operand, OperationKind, Part, SrcMods};
use crate::kernels::arith::{run_arith, ArithIo, ArithOp, SourceModifiers};
use crate::kernels::modifiers::SourceMods;
use crate::kernels::scaled::ScaledBeforeRounding;
use crate::kernels::{Format, FormatKind, Modifiers, Omod, Policy};
use crate::target::{SdwaF16Output, TargetSpec};
use crate::wave::{Wave, MAX_LANES, NUM_VGPRS};

/// Run the kernel over the lanes of `io` ([`run_arith`]). Unit tests can
/// break this write-back on purpose (the test-only `fault` module).
#[inline(always)]
fn run<F: Format>(op: ArithOp, io: &mut ArithIo<'_>, p: &Policy, mods: SourceModifiers) {
    #[cfg(test)]
    super::write::fault::apply_arith(io);
    run_arith::<F>(op, io, p, mods);
}

/// The kernel of an arithmetic operation: the one place an
/// [`OperationKind`] becomes an arithmetic kernel (FMAC, FMAMK and FMAAK
/// are FMA with their operands placed here); `None` for FRACT and LDEXP.
pub(crate) fn arith_op(kind: OperationKind) -> Option<ArithOp> {
    Some(match kind {
        OperationKind::Add => ArithOp::Add,
        OperationKind::Sub => ArithOp::Sub,
        OperationKind::Subrev => ArithOp::Subrev,
        OperationKind::Mul => ArithOp::Mul,
        OperationKind::Fma | OperationKind::Fmac | OperationKind::Fmamk | OperationKind::Fmaak => {
            ArithOp::Fma
        }
        OperationKind::Fract | OperationKind::Ldexp => return None,
    })
}

/// The operation of `instr` if it is an arithmetic one in format `F`.
fn operation<F: Format>(instr: &Instruction) -> Result<ArithOp, ExecError> {
    let info = instr.opcode.info();
    match arith_op(info.operation) {
        Some(op) if info.format == F::KIND => Ok(op),
        _ => Err(ExecError::OperationMismatch {
            opcode: instr.opcode,
            operation: "arithmetic",
            format: F::KIND,
        }),
    }
}

/// Each source's ABS/NEG in kernel order: the VOP3 or SDWA bits, an e32
/// DPP16 word's src1 bits (23:22: NEG, ABS) for a float src1, none for
/// FMAC's accumulator (its VOP3 bits are not expressible and ignored).
pub(crate) fn source_modifiers(instr: &Instruction) -> SourceModifiers {
    let info = instr.opcode.info();
    let dpp_src1 = match instr.dpp {
        Some(Dpp::Dpp16(d)) if info.src1().is_some_and(|t| t.is_float()) => d.src1_bits,
        _ => 0,
    };
    let m1 = SrcMods {
        abs: instr.src1_mods.abs || dpp_src1 & 2 != 0,
        neg: instr.src1_mods.neg || dpp_src1 & 1 != 0,
        ..instr.src1_mods
    };
    let m2 = if info.accumulator() {
        SrcMods::default()
    } else {
        instr.src2_mods
    };
    let m = [instr.src0_mods, m1, m2];
    SourceModifiers {
        abs: m.map(|m| m.abs),
        neg: m.map(|m| m.neg),
    }
}

/// The policy of an arithmetic `instr` under the wave's MODE (its ABS/NEG
/// fields unused: [`SourceModifiers`] carry each source's).
pub fn arith_policy<F: Format>(spec: &TargetSpec, wave: &Wave, instr: &Instruction) -> Policy {
    let mods = Modifiers {
        abs: false,
        neg: false,
        omod: instr.omod,
        clamp: instr.clamp,
    };
    Policy::new::<F>(&spec.float_rules(), wave.mode(), mods)
}

/// Every source of every lane of an arithmetic instruction as register
/// words, in kernel order: `lo` (and `hi` for F64) per source, and the
/// right shift bringing an F16 source to bits 15:0.
pub(crate) struct ArithSources {
    /// Low words of src0, src1, src2 (or D) by lane.
    pub(crate) lo: [[u32; MAX_LANES]; 3],
    /// High words (F64).
    pub(crate) hi: [[u32; MAX_LANES]; 3],
    /// Right shift of each F16 source.
    pub(crate) shift: [u32; 3],
}

/// Read the sources of `instr` (operation `op`) on every lane of `wave`:
/// each as FRACT's src0 is read (VGPR or half, scalar, inline constant in
/// the format, literal, 64-bit literal, special, SDWA field), K in the
/// result format, FMAC's D from the destination register and half.
pub(crate) fn read_sources<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    op: ArithOp,
) -> Result<ArithSources, ExecError> {
    let lanes = wave.lanes();
    let mut s = ArithSources {
        lo: [[0; MAX_LANES]; 3],
        hi: [[0; MAX_LANES]; 3],
        shift: [0; 3],
    };
    let info = instr.opcode.info();
    const NAMES: [&str; 3] = ["src0", "src1", "src2"];
    for (slot, &name) in NAMES.iter().enumerate().take(op.sources()) {
        let (lo, hi) = (&mut s.lo[slot][..lanes], &mut s.hi[slot][..lanes]);
        let operand = if slot == 2 && info.accumulator() {
            // D: the destination's own words, same lane and half.
            let Operand::Vgpr { index, part } = instr.dst else {
                return Err(invalid("dst", "the destination must be a VGPR"));
            };
            s.shift[slot] = dst_placement::<F>(spec, part).1;
            Operand::Vgpr {
                index,
                part: Part::Full,
            }
        } else {
            instr
                .source(slot)
                .ok_or_else(|| invalid(name, "the instruction needs this source"))?
        };
        let sel = instr.sdwa.and_then(|sdwa| {
            let sext = instr.src_mods(slot).sext;
            match slot {
                0 => Some((sdwa.src0_sel, sext)),
                1 => Some((sdwa.src1_sel, sext)),
                _ => None,
            }
        });
        if let (Operand::Vgpr { index, part }, None) = (operand, sel) {
            let index = usize::from(index);
            let words = |i: usize| wave.vgpr_lanes(i).ok_or(out_of_range(name, i));
            lo.copy_from_slice(words(index)?);
            if F::WIDTH == 64 {
                hi.copy_from_slice(words(index + 1)?);
            }
            if !(slot == 2 && info.accumulator()) {
                s.shift[slot] = half_shift::<F>(part);
            }
            continue;
        }
        let mut raw = [0u64; MAX_LANES];
        let raw = &mut raw[..lanes];
        read_operand(spec, wave, name, operand, F::WIDTH, Some(F::KIND), sel, raw)?;
        for ((l, h), &r) in lo.iter_mut().zip(hi.iter_mut()).zip(raw.iter()) {
            *l = r as u32;
            *h = (r >> 32) as u32;
        }
    }
    Ok(s)
}

fn out_of_range(operand: &'static str, index: usize) -> ExecError {
    ExecError::RegisterOutOfRange {
        operand,
        kind: "vgpr",
        index,
        count: NUM_VGPRS,
    }
}

/// The checks of an arithmetic `instr` and, with DPP, its lane plan.
pub(crate) fn check<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> Result<Option<Plan>, ExecError> {
    operation::<F>(instr)?;
    match instr.dpp {
        Some(d) => plan_arith::<F>(spec, wave, instr, d).map(Some),
        None => {
            validate(spec, wave, instr)?;
            Ok(None)
        }
    }
}

/// Execute the arithmetic `instr` in format `F` on `wave` under `spec`:
/// validate, read the sources of every lane, run the dispatched kernel and
/// write the active lanes (a register half per family, SDWA `dst_sel`
/// merge, the F64 pair). An opcode that is not arithmetic in `F` is
/// refused ([`ExecError::OperationMismatch`]).
///
/// An instruction of the shape the wave noted last runs with only its
/// register numbers checked (`noted`); never inlined, as
/// [`execute`](super::execute).
#[inline(never)]
pub fn execute_arith<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    if instr.dpp.is_none() && hit_arith::<F>(spec, wave, instr) {
        return Ok(());
    }
    execute_arith_checked::<F>(spec, wave, instr)
}

/// [`execute_arith`] when the wave's note does not serve: the checks (the
/// quick one first, noting the shape), then the run in place or on copied
/// words.
#[inline(never)]
fn execute_arith_checked<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    let op = operation::<F>(instr)?;
    let plan = match instr.dpp {
        Some(d) => Some(plan_arith::<F>(spec, wave, instr, d)?),
        None if plainly_valid_arith::<F>(spec, wave, instr) => {
            return noted_arith::<F>(spec, wave, instr, op);
        }
        None => {
            validate(spec, wave, instr)?;
            None
        }
    };
    let policy = arith_policy::<F>(spec, wave, instr);
    let mods = source_modifiers(instr);
    if in_place::<F>(spec, wave, instr, op, &policy, mods, plan.as_ref()) {
        return Ok(());
    }
    copied::<F>(spec, wave, instr, op, &policy, mods, plan.as_ref())
}

/// [`execute_arith`] of an instruction the quick check accepted: its
/// shape noted on the wave (on a generated target) and run as a later
/// instruction of the same shape will be ([`run_arith_op`]), or in place
/// with staged words when a source is a destination register.
#[inline(never)]
fn noted_arith<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    op: ArithOp,
) -> Result<(), ExecError> {
    let policy = arith_policy::<F>(spec, wave, instr);
    let mods = source_modifiers(instr);
    let info = instr.opcode.info();
    let width = |slot: usize| info.sources.get(slot).map_or(0, |t| t.bits());
    let widths = [F::WIDTH, width(0), width(1), width(2)];
    let layout = layout::<F>(spec, instr, widths, Some(op), mods);
    note(spec, wave, instr, (None, F::KIND), policy, layout);
    if run_arith_op::<F>(wave, instr, &policy, &layout) {
        return Ok(());
    }
    if in_place::<F>(spec, wave, instr, op, &policy, mods, None) {
        return Ok(());
    }
    copied::<F>(spec, wave, instr, op, &policy, mods, None)
}

/// Every other case: the sources of every lane read into words on the
/// stack first (SDWA selections, DPP lanes under their own modifiers).
#[inline(never)]
pub(super) fn copied<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    op: ArithOp,
    policy: &Policy,
    mods: SourceModifiers,
    plan: Option<&Plan>,
) -> Result<(), ExecError> {
    let src = read_sources::<F>(spec, wave, instr, op)?;
    let lanes = wave.lanes();
    let Operand::Vgpr { index, part } = instr.dst else {
        return Err(invalid("dst", "the destination must be a VGPR"));
    };
    let index = usize::from(index);
    let oob = out_of_range("dst", index);

    // DPP: src0 gathered by the plan; the plan's lanes are written, and
    // zero-filled lanes that skip src0's ABS/NEG run with none.
    let mut exec = wave.exec();
    let mut plain = 0;
    if let Some(plan) = plan {
        exec = plan.write & !plan.plain;
        plain = plan.plain;
    }
    let plain_mods = SourceModifiers {
        abs: [false, mods.abs[1], mods.abs[2]],
        neg: [false, mods.neg[1], mods.neg[2]],
    };
    let gather = plan.map(Plan::sources);
    macro_rules! io {
        ($dst_lo:expr, $dst_hi:expr, $keep:expr, $shift:expr, $exec:expr) => {
            ArithIo {
                src_lo: [
                    &src.lo[0][..lanes],
                    &src.lo[1][..lanes],
                    &src.lo[2][..lanes],
                ],
                src_hi: [
                    &src.hi[0][..lanes],
                    &src.hi[1][..lanes],
                    &src.hi[2][..lanes],
                ],
                src_shift: src.shift,
                src0_lane: gather,
                dst_lo: $dst_lo,
                dst_hi: $dst_hi,
                dst_keep: $keep,
                dst_shift: $shift,
                exec: $exec,
            }
        };
    }

    if let Some(sdwa) = instr.sdwa {
        // Every lane's result first, then the dst_sel merge of the active
        // ones (SDWA has no DPP).
        let mut out = [0u32; MAX_LANES];
        let scaled = F::KIND == FormatKind::F16
            && policy.omod != Omod::None
            && spec.sdwa_f16_output.map(|s| s.value) == Some(SdwaF16Output::ScaledBeforeRounding);
        if scaled {
            // OMOD before the rounding: one lane at a time.
            let order = ScaledBeforeRounding::<F>::new(policy);
            let m = [0, 1, 2].map(|i| SourceMods::<F>::new(mods.abs[i], mods.neg[i]));
            for (lane, o) in out[..lanes].iter_mut().enumerate() {
                let words = [0, 1, 2]
                    .map(|s| u64::from(src.lo[s][lane].wrapping_shr(src.shift[s]) & 0xffff));
                *o = order.arith_lane(op, words, &m) as u32;
            }
        } else {
            run::<F>(
                op,
                &mut io!(&mut out[..lanes], &mut [], 0, 0, u64::MAX),
                policy,
                mods,
            );
        }
        return sdwa_merge::<F>(spec, wave, index, sdwa, exec, &out);
    }
    if F::WIDTH == 64 {
        let (lo, hi) = wave.vgpr_split(index, 2).ok_or(oob)?.dst();
        run::<F>(op, &mut io!(&mut *lo, &mut *hi, 0, 0, exec), policy, mods);
        if plain != 0 {
            run::<F>(op, &mut io!(lo, hi, 0, 0, plain), policy, plain_mods);
        }
        return Ok(());
    }
    let (keep, shift) = dst_placement::<F>(spec, part);
    let dst = wave.vgpr_lanes_mut(index).ok_or(oob)?;
    run::<F>(
        op,
        &mut io!(&mut *dst, &mut [], keep, shift, exec),
        policy,
        mods,
    );
    if plain != 0 {
        run::<F>(
            op,
            &mut io!(dst, &mut [], keep, shift, plain),
            policy,
            plain_mods,
        );
    }
    Ok(())
}
