//! The noted shape: what a wave keeps of the last instruction shape the
//! executor checked (its key and layout), and the run of a later
//! instruction with the same key, which checks only its register numbers
//! and runs in place on the register file (docs/semantics.md §3, §12).
//!
//! A shape is noted only after the quick check accepted it (every
//! operand a VGPR, no SDWA, a form the target has), on a generated target.
//! Its key holds everything that check, the policy and the operand layout
//! read except the register numbers; the layout holds what they derived:
//! the register numbers each operand may name, the halves, and for the
//! arithmetic the operation and the sources' ABS/NEG. A hit then costs the
//! key compare, the register numbers against the layout, the register file
//! split once, and the dispatched kernel call.

use super::dpp::Plan;
use super::operands::half_shift;
use super::write::{dst_placement, write_back};
use crate::instr::{Encoding, Instruction, Operand, OperationKind, Part};
use crate::kernels::arith::{run_arith, ArithIo, ArithOp, SourceModifiers};
use crate::kernels::{run_dispatched, Format, FormatKind, GatheredIo, Operation, Policy, WaveIo};
use crate::target::TargetSpec;
use crate::wave::{Layout, ShapeKey, Wave, MAX_LANES, NUM_VGPRS};

/// What the key holds of one operand: absent (0), a VGPR and its part
/// (1 whole, 2 low half, 3 high half), or another kind (4, never noted).
#[inline(always)]
pub(super) fn operand_shape(op: Option<Operand>) -> u8 {
    match op {
        None => 0,
        Some(Operand::Vgpr { part, .. }) => match part {
            Part::Full => 1,
            Part::Lo => 2,
            Part::Hi => 3,
        },
        Some(_) => 4,
    }
}

/// The key of `instr`'s shape on `wave` under `spec`, for the kernel
/// `kernel` ([`crate::wave::CheckedShape`]).
#[inline(always)]
pub(super) fn shape_key(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    kernel: (Option<OperationKind>, FormatKind),
) -> ShapeKey {
    ShapeKey {
        spec: core::ptr::from_ref(spec) as usize,
        size: wave.size(),
        mode: wave.mode(),
        kernel,
        opcode: instr.opcode,
        encoding: instr.encoding,
        operands: [
            operand_shape(Some(instr.dst)),
            operand_shape(Some(instr.src0)),
            operand_shape(instr.src1),
            operand_shape(instr.src2),
        ],
        sdwa: instr.sdwa.is_some(),
        dpp: instr.dpp.is_some(),
        mods: [instr.src0_mods, instr.src1_mods, instr.src2_mods],
        clamp: instr.clamp,
        omod: instr.omod,
    }
}

/// The register numbers a VGPR operand `width` bits wide may name in
/// encoding `enc` on `spec`, as the full check's VGPR rule says: the
/// highest, and the bits that must be clear (an aligned pair's odd start).
/// A pair ends at v255; an e32 true16 half is below v128.
#[inline(always)]
pub(super) fn vgpr_bounds(spec: &TargetSpec, enc: Encoding, width: u32) -> (u16, u16) {
    let wide = width == 64;
    let last = if wide { NUM_VGPRS - 2 } else { NUM_VGPRS - 1 } as u16;
    let e32_half = width == 16 && spec.true16.value && !enc.has_modifiers();
    let last = if e32_half { last.min(127) } else { last };
    let align = u16::from(wide && spec.aligned_vgpr_pairs.value);
    (last, align)
}

/// Whether register number `index` is within `bounds` ([`vgpr_bounds`]).
#[inline(always)]
pub(super) fn fits(index: u16, (last, align): (u16, u16)) -> bool {
    (index <= last) & (index & align == 0)
}

/// The layout of `instr`'s operands (checked by the quick check), whose
/// operands are `widths` bits wide (dst, src0, src1, src2; 0: absent),
/// for the arithmetic operation `op` with source modifiers `mods`.
pub(super) fn layout<F: Format>(
    spec: &TargetSpec,
    instr: &Instruction,
    widths: [u32; 4],
    op: Option<ArithOp>,
    mods: SourceModifiers,
) -> Layout {
    let bounds = widths.map(|w| vgpr_bounds(spec, instr.encoding, w));
    let part = |op: Option<Operand>| match op {
        Some(Operand::Vgpr { part, .. }) => part,
        _ => Part::Full,
    };
    let (dst_keep, dst_shift) = dst_placement::<F>(spec, part(Some(instr.dst)));
    let accumulator = op.is_some() && instr.opcode.info().accumulator();
    let src2_shift = if accumulator {
        dst_shift
    } else {
        half_shift::<F>(part(instr.src2))
    };
    Layout {
        last: bounds.map(|b| b.0),
        align: bounds.map(|b| b.1),
        src_shift: [
            half_shift::<F>(part(Some(instr.src0))),
            half_shift::<F>(part(instr.src1)),
            src2_shift,
        ],
        dst_keep,
        dst_shift,
        op,
        accumulator,
        mods,
    }
}

/// The register number of a VGPR operand.
#[inline(always)]
fn vgpr(op: Option<Operand>) -> Option<u16> {
    match op {
        Some(Operand::Vgpr { index, .. }) => Some(index),
        _ => None,
    }
}

/// Run FRACT/LDEXP `instr`, checked, in place on the register file under
/// `policy` and the operand `layout` (noted, or built for it): its
/// register numbers checked against the layout, the destination split off
/// once, the sources read where they lie. With a DPP `plan`, src0 is
/// gathered by it and its lanes are written. False, touching nothing, when
/// the instruction is not of that shape (an operand not a VGPR, SDWA, DPP
/// lanes under their own policy), a register number is outside the
/// layout's, or a source is a destination register: the general path then
/// words the error or copies the sources first.
#[inline(always)]
pub(super) fn run_op<O: Operation, F: Format>(
    wave: &mut Wave,
    instr: &Instruction,
    policy: &Policy,
    layout: &Layout,
    plan: Option<&Plan>,
) -> bool {
    let (Some(dst), Some(src)) = (vgpr(Some(instr.dst)), vgpr(Some(instr.src0))) else {
        return false;
    };
    let exp = if O::HAS_EXPONENT {
        match vgpr(instr.src1) {
            Some(e) => e,
            None => return false,
        }
    } else {
        0
    };
    let bounds = |slot: usize| (layout.last[slot], layout.align[slot]);
    let fit = fits(dst, bounds(0)) & fits(src, bounds(1)) & (!O::HAS_EXPONENT | fits(exp, bounds(2)));
    let plain = plan.is_some_and(|p| p.plain != 0);
    if !fit | instr.sdwa.is_some() | plain {
        return false;
    }
    let exec = plan.map_or(wave.exec(), |p| p.write);
    let wide = F::WIDTH == 64;
    let Some(split) = wave.vgpr_split(usize::from(dst), if wide { 2 } else { 1 }) else {
        return false;
    };
    let (split, dst_lo, dst_hi) = split.parts();
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
    let exp = if O::HAS_EXPONENT {
        match split.src(usize::from(exp)) {
            Some(e) => e,
            None => return false,
        }
    } else {
        &[][..]
    };
    // Built in place in each branch: moving a built WaveIo into a
    // GatheredIo costs a store-forwarding stall per call.
    macro_rules! io {
        () => {
            WaveIo {
                src_lo,
                src_hi,
                src_shift: layout.src_shift[0],
                exp,
                exp_shift: layout.src_shift[1],
                dst_lo,
                dst_hi,
                dst_keep: layout.dst_keep,
                dst_shift: layout.dst_shift,
                exec,
            }
        };
    }
    match plan {
        None => write_back::<O, F>(&mut io!(), policy),
        Some(plan) => {
            let mut gathered = GatheredIo {
                index: plan.sources(),
                io: io!(),
            };
            #[cfg(test)]
            super::write::fault::apply(&mut gathered.io);
            run_dispatched::<O, F, _>(&mut gathered, policy);
        }
    }
    #[cfg(test)]
    super::tally(super::Tally::InPlace);
    true
}

/// Run the arithmetic `instr` (no DPP), checked, in place on the register
/// file under `policy` and the operand `layout` (noted, or built for it;
/// it holds the operation and the sources' ABS/NEG): as [`run_op`], FMAC's
/// accumulator copied first. False, touching nothing, as for [`run_op`]
/// (a source operand not a VGPR included: K, scalars and constants are
/// broadcast by the general path).
#[inline(always)]
pub(super) fn run_arith_op<F: Format>(
    wave: &mut Wave,
    instr: &Instruction,
    policy: &Policy,
    layout: &Layout,
) -> bool {
    let Some(op) = layout.op else {
        return false;
    };
    let three = op.sources() == 3;
    let acc = layout.accumulator;
    let (Some(dst), Some(a), Some(b)) = (
        vgpr(Some(instr.dst)),
        vgpr(Some(instr.src0)),
        vgpr(instr.src1),
    ) else {
        return false;
    };
    let c = if three && !acc {
        match vgpr(instr.src2) {
            Some(c) => c,
            None => return false,
        }
    } else {
        0
    };
    let bounds = |slot: usize| (layout.last[slot], layout.align[slot]);
    let fit = fits(dst, bounds(0))
        & fits(a, bounds(1))
        & fits(b, bounds(2))
        & (!three | acc | fits(c, bounds(3)));
    if !fit | instr.sdwa.is_some() | instr.dpp.is_some() {
        return false;
    }
    let dst = usize::from(dst);
    if !acc {
        return arith_in_split::<F>(wave, op, dst, [a, b, c], None, policy, layout);
    }
    // FMAC: the destination's old words (same lane and half), copied
    // before any lane is written.
    let Some(lo) = wave.vgpr_words(dst) else {
        return false;
    };
    if F::WIDTH == 64 {
        let Some(hi) = wave.vgpr_words(dst + 1) else {
            return false;
        };
        arith_in_split::<F>(wave, op, dst, [a, b, 0], Some((&lo, &hi)), policy, layout)
    } else {
        arith_in_split::<F>(wave, op, dst, [a, b, 0], Some((&lo, &[])), policy, layout)
    }
}

/// [`run_arith_op`] once its register numbers fit: the destination `dst`
/// split off, the sources `src` read where they lie (src2 from `acc` for
/// FMAC), one dispatched kernel call.
#[inline(always)]
fn arith_in_split<F: Format>(
    wave: &mut Wave,
    op: ArithOp,
    dst: usize,
    src: [u16; 3],
    acc: Option<(&[u32; MAX_LANES], &[u32])>,
    policy: &Policy,
    layout: &Layout,
) -> bool {
    let wide = F::WIDTH == 64;
    let exec = wave.exec();
    let Some(split) = wave.vgpr_split(dst, if wide { 2 } else { 1 }) else {
        return false;
    };
    let (split, dst_lo, dst_hi) = split.parts();
    // A source's words; `None` when out of range or a destination register.
    let words = |index: u16| -> Option<(&[u32], &[u32])> {
        let i = usize::from(index);
        Some((split.src(i)?, if wide { split.src(i + 1)? } else { &[] }))
    };
    let (Some(a), Some(b)) = (words(src[0]), words(src[1])) else {
        return false;
    };
    let c = match acc {
        Some((lo, hi)) => (&lo[..], hi),
        None if op.sources() == 3 => match words(src[2]) {
            Some(c) => c,
            None => return false,
        },
        None => (&[][..], &[][..]),
    };
    let mut io = ArithIo {
        src_lo: [a.0, b.0, c.0],
        src_hi: [a.1, b.1, c.1],
        src_shift: layout.src_shift,
        src0_lane: None,
        dst_lo,
        dst_hi,
        dst_keep: layout.dst_keep,
        dst_shift: layout.dst_shift,
        exec,
    };
    #[cfg(test)]
    super::write::fault::apply_arith(&mut io);
    run_arith::<F>(op, &mut io, policy, layout.mods);
    #[cfg(test)]
    super::tally(super::Tally::InPlace);
    true
}

/// Run FRACT/LDEXP `instr` (no DPP) when the wave's note of the last
/// checked shape has its key: true when it ran. False, touching nothing,
/// on another key or when [`run_op`] refuses it. Never inlined: the
/// general path around it stays out of the hit's code.
#[inline(never)]
pub(super) fn hit_op<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> bool {
    let kernel = super::kind_of::<O>();
    if kernel.is_none() {
        return false;
    }
    let key = shape_key(spec, wave, instr, (kernel, F::KIND));
    let (policy, layout) = match &wave.checked {
        Some(c) if c.key == key => (c.policy, c.layout),
        _ => return false,
    };
    #[cfg(test)]
    super::tally(super::Tally::ShapeHit);
    run_op::<O, F>(wave, instr, &policy, &layout, None)
}

/// [`hit_op`] for an arithmetic `instr` in format `F`.
#[inline(never)]
pub(super) fn hit_arith<F: Format>(spec: &TargetSpec, wave: &mut Wave, instr: &Instruction) -> bool {
    let key = shape_key(spec, wave, instr, (None, F::KIND));
    let (policy, layout) = match &wave.checked {
        Some(c) if c.key == key => (c.policy, c.layout),
        _ => return false,
    };
    #[cfg(test)]
    super::tally(super::Tally::ShapeHit);
    run_arith_op::<F>(wave, instr, &policy, &layout)
}
