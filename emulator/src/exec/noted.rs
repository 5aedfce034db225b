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
use crate::kernels::arith::{run_arith_packed, ArithIo, ArithOp, SourceModifiers};
use crate::kernels::{run_dispatched, Format, FormatKind, GatheredIo, Operation, Policy, WaveIo};
use crate::target::TargetSpec;
use crate::wave::{CheckedDpp, CheckedShape, Layout, ShapeKey, VgprSources, VgprSplit, Wave};
use crate::wave::{MAX_LANES, NUM_VGPRS};

/// The kernel an instruction runs with, as a [`ShapeKey`] holds it:
/// FRACT or LDEXP (`None`: the arithmetic), in its format.
pub(super) type Kernel = (Option<OperationKind>, FormatKind);

/// The key of `instr`'s shape on `wave` under `spec`, for `kernel`;
/// `None` when an operand is neither a VGPR nor absent, or with an SDWA
/// word (never noted).
pub(super) fn shape_key(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    kernel: Kernel,
) -> Option<ShapeKey> {
    Some(ShapeKey {
        spec: core::ptr::from_ref(spec) as usize,
        size: wave.size(),
        mode: wave.mode(),
        bits: shape_bits(instr, kernel)?,
        dpp: instr.dpp,
    })
}

/// Whether `spec` is one of the generated targets' specs: only such a
/// static, which never changes, is named by its address in a key.
#[inline(always)]
pub(super) fn generated(spec: &TargetSpec) -> bool {
    core::ptr::eq(spec, spec.target.spec())
}

/// Note `instr`'s shape on `wave`, run with `kernel` under `policy` and
/// the operand `layout`, so a later instruction of the same shape is
/// checked only for its register numbers: when `spec` is a generated one
/// and the shape has a key ([`shape_key`]).
pub(super) fn note(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    kernel: Kernel,
    policy: Policy,
    layout: Layout,
) {
    if !generated(spec) {
        return;
    }
    if let Some(key) = shape_key(spec, wave, instr, kernel) {
        wave.checked = Some(CheckedShape {
            key,
            policy,
            layout,
        });
    }
}

/// Whether `instr` on `wave` under `spec`, for `kernel`, has the key
/// `key` ([`shape_key`]): the same target, wave size, MODE and kernel, and
/// the same instruction but for the register numbers.
#[inline(always)]
pub(super) fn key_matches(
    key: &ShapeKey,
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
    kernel: Kernel,
) -> bool {
    shape_bits(instr, kernel) == Some(key.bits)
        && key.spec == core::ptr::from_ref(spec) as usize
        && key.mode == wave.mode()
        && key.size == wave.size()
        // Present in both or in neither (the bits say): compared whole
        // only when present.
        && (instr.dpp.is_none() || instr.dpp == key.dpp)
}

/// The bits of `kernel` in a key's first word ([`shape_bits`]): the
/// operation (0 the arithmetic, 1 FRACT, 2 LDEXP) in bits 18:17 and the
/// format (0 F16, 1 F32, 2 F64) in bits 20:19, above the one bit src0's
/// ABS flag uses in its byte. A constant of the caller.
#[inline(always)]
const fn kernel_bits((operation, format): Kernel) -> u64 {
    let operation = match operation {
        Some(OperationKind::Fract) => 1,
        Some(OperationKind::Ldexp) => 2,
        // Only FRACT and LDEXP name their kernel: `None` is the
        // arithmetic, whose operation the opcode fixes.
        _ => 0,
    };
    let format = match format {
        FormatKind::F16 => 0,
        FormatKind::F32 => 1,
        FormatKind::F64 => 2,
    };
    (operation | format << 2) << 17
}

/// Every field of `instr` but the register numbers and the DPP word, and
/// the `kernel` that runs it, packed in two words. The first holds a byte
/// each, from its lowest: the encoding, OMOD, then ABS, NEG and sext of
/// src0 and of src1, with the kernel's bits above src0's ABS bit
/// ([`kernel_bits`]). The second: ABS, NEG and sext of src2 and CLAMP (a
/// byte each, bits 31:0), the opcode (47:32), a DPP word present (49), and
/// for dst, src0, src1, src2 three bits each from bit 52: 0 absent, else a
/// VGPR's part (1 whole, 2 low half, 3 high half). `None` when an operand
/// is of another kind or with an SDWA word: such a shape is never noted.
/// The bytes follow the order the one-byte fields lie in in memory, so
/// LLVM reads each run of them as one load (the order changes the speed
/// only, never the key).
#[inline(always)]
pub(super) fn shape_bits(instr: &Instruction, kernel: Kernel) -> Option<[u64; 2]> {
    // Every field named: a new field of `Instruction` does not compile
    // here until the key holds it.
    let Instruction {
        opcode,
        encoding,
        dst,
        src0,
        src0_mods,
        src1,
        src1_mods,
        src2,
        src2_mods,
        clamp,
        omod,
        sdwa,
        dpp,
    } = *instr;
    // Branch-free: 0 absent, 1 + the part of a VGPR, 4 another kind.
    let kind = |op: Option<Operand>| -> u64 {
        match op {
            None => 0,
            Some(Operand::Vgpr { part, .. }) => 1 + part as u64,
            Some(_) => 4,
        }
    };
    let operands = kind(Some(dst)) | kind(Some(src0)) << 3 | kind(src1) << 6 | kind(src2) << 9;
    if operands & 0o4444 != 0 || sdwa.is_some() {
        return None;
    }
    let b = u8::from;
    let fields = u64::from_le_bytes([
        encoding as u8,
        omod as u8,
        b(src0_mods.abs),
        b(src0_mods.neg),
        b(src0_mods.sext),
        b(src1_mods.abs),
        b(src1_mods.neg),
        b(src1_mods.sext),
    ]);
    let rest = u64::from(u32::from_le_bytes([
        b(src2_mods.abs),
        b(src2_mods.neg),
        b(src2_mods.sext),
        b(clamp),
    ]));
    Some([
        fields | kernel_bits(kernel),
        rest | u64::from(opcode as u16) << 32 | u64::from(dpp.is_some()) << 49 | operands << 52,
    ])
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
        mods: mods.bits(),
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

/// The register numbers of FRACT/LDEXP `instr` (dst, src0, LDEXP's
/// exponent or 0) when every one is a VGPR within `layout`'s bounds and
/// there is no SDWA.
#[inline(always)]
fn op_registers<O: Operation>(instr: &Instruction, layout: &Layout) -> Option<[u16; 3]> {
    let (Some(dst), Some(src)) = (vgpr(Some(instr.dst)), vgpr(Some(instr.src0))) else {
        return None;
    };
    let exp = if O::HAS_EXPONENT {
        vgpr(instr.src1)?
    } else {
        0
    };
    let bounds = |slot: usize| (layout.last[slot], layout.align[slot]);
    let fit =
        fits(dst, bounds(0)) & fits(src, bounds(1)) & (!O::HAS_EXPONENT | fits(exp, bounds(2)));
    (fit & instr.sdwa.is_none()).then_some([dst, src, exp])
}

/// Run FRACT/LDEXP `instr`, checked, in place on the register file under
/// `policy` and the operand `layout` (built for it): its register numbers
/// checked against the layout, the destination split off once, the
/// sources read where they lie. With a DPP `plan`, src0 is gathered by it
/// and its lanes are written. False, touching nothing, when the
/// instruction is not of that shape (an operand not a VGPR, SDWA, DPP
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
    let Some(regs) = op_registers::<O>(instr, layout) else {
        return false;
    };
    if plan.is_some_and(|p| p.plain != 0) {
        return false;
    }
    let exec = plan.map_or(wave.exec(), |p| p.write);
    let count = if F::WIDTH == 64 { 2 } else { 1 };
    let Some(split) = wave.vgpr_split(usize::from(regs[0]), count) else {
        return false;
    };
    op_in_split::<O, F>(split, regs, policy, layout, exec, plan.map(Plan::sources))
}

/// [`run_op`] once the destination `regs[0]` is split off: the sources
/// `regs[1]` (src0) and `regs[2]` (the exponent) read where they lie (src0
/// gathered by `gather` with DPP), one dispatched kernel call writing the
/// lanes of `exec`.
#[inline(always)]
fn op_in_split<O: Operation, F: Format>(
    split: VgprSplit<'_>,
    regs: [u16; 3],
    policy: &Policy,
    layout: &Layout,
    exec: u64,
    gather: Option<&[u8; MAX_LANES]>,
) -> bool {
    let (split, dst_lo, dst_hi) = split.parts();
    let Some((src_lo, src_hi)) = source_words::<F>(&split, regs[1]) else {
        return false;
    };
    let exp = if O::HAS_EXPONENT {
        match split.src(usize::from(regs[2])) {
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
    match gather {
        None => write_back::<O, F>(&mut io!(), policy),
        Some(index) => {
            let mut gathered = GatheredIo { index, io: io!() };
            #[cfg(test)]
            super::write::fault::apply(&mut gathered.io);
            run_dispatched::<O, F, _>(&mut gathered, policy);
        }
    }
    #[cfg(test)]
    super::tally(super::Tally::InPlace);
    true
}

/// The kernel of FRACT/LDEXP `O` in format `F`; `None` for another `O`.
#[inline(always)]
fn op_kernel<O: Operation, F: Format>() -> Option<Kernel> {
    let kind = super::kind_of::<O>()?;
    Some((Some(kind), F::KIND))
}

/// Run FRACT/LDEXP `instr` (no DPP) when the wave's note of the last
/// checked shape has its key: true when it ran. False, touching nothing,
/// on another key, or when a register number does not fit or a source is
/// a destination register. Inlined into `execute`, whose miss path is a
/// jump to the checks.
#[inline(always)]
pub(super) fn hit_op<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> bool {
    let Some(kernel) = op_kernel::<O, F>() else {
        return false;
    };
    let regs = match &wave.checked {
        Some(c) if key_matches(&c.key, spec, wave, instr, kernel) => {
            match op_registers::<O>(instr, &c.layout) {
                Some(regs) => regs,
                None => return false,
            }
        }
        _ => return false,
    };
    let exec = wave.exec();
    let count = if F::WIDTH == 64 { 2 } else { 1 };
    let Some((split, Some(c), _)) = wave.vgpr_split_noted(usize::from(regs[0]), count) else {
        return false;
    };
    #[cfg(test)]
    super::tally(super::Tally::ShapeHit);
    op_in_split::<O, F>(split, regs, &c.policy, &c.layout, exec, None)
}

/// [`hit_op`] for a DPP `instr`: the wave's note of the last checked DPP
/// shape, whose key holds the DPP word, taken when EXEC is also the one
/// its lane plan was built for (and no lane runs under its own policy).
/// Inlined into `execute`, as [`hit_op`].
#[inline(always)]
pub(super) fn hit_dpp<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> bool {
    let Some(kernel) = op_kernel::<O, F>() else {
        return false;
    };
    let exec = wave.exec();
    let regs = match &wave.checked_dpp {
        Some(c)
            if c.exec == exec
                && c.plan.plain == 0
                && key_matches(&c.shape.key, spec, wave, instr, kernel) =>
        {
            match op_registers::<O>(instr, &c.shape.layout) {
                Some(regs) => regs,
                None => return false,
            }
        }
        _ => return false,
    };
    let count = if F::WIDTH == 64 { 2 } else { 1 };
    let Some((split, _, Some(c))) = wave.vgpr_split_noted(usize::from(regs[0]), count) else {
        return false;
    };
    #[cfg(test)]
    super::tally(super::Tally::DppShapeHit);
    let CheckedDpp { shape, plan, .. } = c;
    let CheckedShape { policy, layout, .. } = shape;
    op_in_split::<O, F>(split, regs, policy, layout, plan.write, Some(&plan.src))
}

/// The register numbers of the arithmetic `instr` (dst, src0, src1, src2
/// or 0 when the operation has none or it is FMAC's accumulator) when
/// every one is a VGPR within `layout`'s bounds and there is no SDWA or
/// DPP.
#[inline(always)]
fn arith_registers(instr: &Instruction, op: ArithOp, layout: &Layout) -> Option<[u16; 4]> {
    let three = op.sources() == 3;
    let acc = layout.accumulator;
    let (Some(dst), Some(a), Some(b)) = (
        vgpr(Some(instr.dst)),
        vgpr(Some(instr.src0)),
        vgpr(instr.src1),
    ) else {
        return None;
    };
    let c = if three && !acc { vgpr(instr.src2)? } else { 0 };
    let bounds = |slot: usize| (layout.last[slot], layout.align[slot]);
    let fit = fits(dst, bounds(0))
        & fits(a, bounds(1))
        & fits(b, bounds(2))
        & (!three | acc | fits(c, bounds(3)));
    (fit & instr.sdwa.is_none() & instr.dpp.is_none()).then_some([dst, a, b, c])
}

/// Run the arithmetic `instr` (no DPP), checked, in place on the register
/// file under `policy` and the operand `layout` (built for it; it holds
/// the operation and the sources' ABS/NEG): as [`run_op`], FMAC's
/// accumulator copied first. False, touching nothing, as for [`run_op`]
/// (a source operand not a VGPR included: K, scalars and constants are
/// broadcast by the general path).
pub(super) fn run_arith_op<F: Format>(
    wave: &mut Wave,
    instr: &Instruction,
    policy: &Policy,
    layout: &Layout,
) -> bool {
    let Some(op) = layout.op else {
        return false;
    };
    let Some(regs) = arith_registers(instr, op, layout) else {
        return false;
    };
    let dst = usize::from(regs[0]);
    let exec = wave.exec();
    let count = if F::WIDTH == 64 { 2 } else { 1 };
    let mut acc = [[0; MAX_LANES]; 2];
    let acc = if layout.accumulator {
        if !accumulated::<F>(wave, dst, &mut acc) {
            return false;
        }
        Some(&acc)
    } else {
        None
    };
    let Some(split) = wave.vgpr_split(dst, count) else {
        return false;
    };
    arith_in_split::<F>(split, op, regs, acc, policy, layout, exec)
}

/// FMAC's accumulator: the destination's old words (the pair for F64)
/// copied into `acc` before any lane is written (only `acc[0]` for F16
/// and F32); false when `dst` is out of range.
#[inline(always)]
fn accumulated<F: Format>(wave: &Wave, dst: usize, acc: &mut [[u32; MAX_LANES]; 2]) -> bool {
    let [lo, hi] = acc;
    let Some(words) = wave.vgpr_words(dst) else {
        return false;
    };
    *lo = words;
    if F::WIDTH == 64 {
        let Some(words) = wave.vgpr_words(dst + 1) else {
            return false;
        };
        *hi = words;
    }
    true
}

/// [`run_arith_op`] once the destination `regs[0]` is split off: the
/// sources `regs[1..]` read where they lie (src2 from `acc` for FMAC), one
/// dispatched kernel call writing the lanes of `exec`.
#[inline(always)]
fn arith_in_split<F: Format>(
    split: VgprSplit<'_>,
    op: ArithOp,
    regs: [u16; 4],
    acc: Option<&[[u32; MAX_LANES]; 2]>,
    policy: &Policy,
    layout: &Layout,
    exec: u64,
) -> bool {
    let wide = F::WIDTH == 64;
    let (split, dst_lo, dst_hi) = split.parts();
    let (Some(a), Some(b)) = (
        source_words::<F>(&split, regs[1]),
        source_words::<F>(&split, regs[2]),
    ) else {
        return false;
    };
    let c = match acc {
        Some([lo, hi]) => (&lo[..], if wide { &hi[..] } else { &[][..] }),
        None if op.sources() == 3 => match source_words::<F>(&split, regs[3]) {
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
    run_arith_packed::<F>(op, &mut io, policy, layout.mods);
    #[cfg(test)]
    super::tally(super::Tally::InPlace);
    true
}

/// The words of source VGPR `index` (and the next for F64); `None` when
/// out of range or a destination register.
#[inline(always)]
fn source_words<'a, F: Format>(
    split: &VgprSources<'a>,
    index: u16,
) -> Option<(&'a [u32], &'a [u32])> {
    let i = usize::from(index);
    if F::WIDTH == 64 {
        split.src_pair(i)
    } else {
        Some((split.src(i)?, &[]))
    }
}

/// [`hit_op`] for an arithmetic `instr` in format `F`; inlined into
/// `execute_arith`, as [`hit_op`].
#[inline(always)]
pub(super) fn hit_arith<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> bool {
    let (op, regs, accumulator) = match &wave.checked {
        Some(c) if key_matches(&c.key, spec, wave, instr, (None, F::KIND)) => {
            let Some(op) = c.layout.op else {
                return false;
            };
            match arith_registers(instr, op, &c.layout) {
                Some(regs) => (op, regs, c.layout.accumulator),
                None => return false,
            }
        }
        _ => return false,
    };
    let dst = usize::from(regs[0]);
    let exec = wave.exec();
    let count = if F::WIDTH == 64 { 2 } else { 1 };
    if accumulator {
        let mut acc = [[0; MAX_LANES]; 2];
        if !accumulated::<F>(wave, dst, &mut acc) {
            return false;
        }
        let Some((split, Some(c), _)) = wave.vgpr_split_noted(dst, count) else {
            return false;
        };
        #[cfg(test)]
        super::tally(super::Tally::ShapeHit);
        return arith_in_split::<F>(split, op, regs, Some(&acc), &c.policy, &c.layout, exec);
    }
    let Some((split, Some(c), _)) = wave.vgpr_split_noted(dst, count) else {
        return false;
    };
    #[cfg(test)]
    super::tally(super::Tally::ShapeHit);
    arith_in_split::<F>(split, op, regs, None, &c.policy, &c.layout, exec)
}
