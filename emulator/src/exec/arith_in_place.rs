//! The arithmetic instructions' fast path: a quick pre-check that accepts
//! the plain shapes only when the full check would, and the write-back
//! that reads the register file in place (docs/semantics.md §3, §12).
//!
//! In place: a VGPR source that is not a destination register is read
//! where it lies; a scalar, constant or literal source (FMAMK/FMAAK's K
//! too) is one value broadcast to every lane; a source that is a
//! destination register, FMAC's accumulator among them, is the
//! register's words copied before the kernel writes any lane. The one
//! dispatched call then reads, computes and merges every lane under EXEC.
//! SDWA and the DPP lanes that run under their own modifiers take the
//! general path ([`super::arith::execute_arith`]).

use super::dpp::Plan;
use super::noted::{fits, vgpr_bounds};
use super::operands::{half_shift, read_operand};
use super::write::dst_placement;
use crate::instr::{Encoding, Instruction, Operand, Part};
use crate::kernels::arith::{run_arith, ArithIo, ArithOp, SourceModifiers};
use crate::kernels::{Format, Omod, Policy};
use crate::target::TargetSpec;
use crate::wave::{Wave, MAX_LANES};

/// A quick check of an arithmetic `instr` (format `F`), with few
/// branches: true only for shapes [`super::validate`] accepts too (every
/// source and the destination a VGPR, no SDWA, no DPP, no K). False means
/// "run the full check", which finds the error if there is one.
/// `check_tests` asserts the two agree on the fixtures and on random
/// instructions.
#[inline]
pub(crate) fn plainly_valid_arith<F: Format>(
    spec: &TargetSpec,
    wave: &Wave,
    instr: &Instruction,
) -> bool {
    let enc = instr.encoding;
    let info = instr.opcode.info();
    let true16 = spec.true16.value;
    // As the full check's `vgpr` (no SDWA, no op_sel-only halves here).
    let vgpr = |op: Option<Operand>, width: u32| -> bool {
        let Some(Operand::Vgpr { index, part }) = op else {
            return false;
        };
        (part == Part::Full || (width == 16 && true16))
            && fits(index, vgpr_bounds(spec, enc, width))
    };
    let n = info.sources.len();
    // Every source the instruction has, a float VGPR of its type's width;
    // none it has not.
    let mut sources_ok = (2..=3).contains(&n) && info.k_slot.is_none();
    let mut any_mods = false;
    for slot in 0..3 {
        let op = instr.source(slot);
        let m = instr.src_mods(slot);
        any_mods |= m.abs | m.neg;
        sources_ok &= match info.sources.get(slot) {
            Some(ty) => ty.is_float() && vgpr(op, ty.bits()),
            // No source, and no ABS/NEG of one (FMAC's src2).
            None => op.is_none() && !(m.abs | m.neg),
        };
    }
    let (m0, m1, m2) = (instr.src0_mods, instr.src1_mods, instr.src2_mods);
    let out_mods = instr.clamp || instr.omod != Omod::None;
    instr.sdwa.is_none()
        & instr.dpp.is_none()
        & (enc != Encoding::Sdwa)
        & (enc.has_modifiers() || !(any_mods || out_mods))
        & !(m0.sext | m1.sext | m2.sext)
        && sources_ok
        && vgpr(Some(instr.dst), F::WIDTH)
        && spec.has_form(instr.opcode, enc)
        && spec.supports_wave(wave.size())
}

/// Where one source's words come from: VGPR `index[slot]` (and the next
/// for F64) read in place ([`IN_PLACE`]), one value broadcast to every
/// lane ([`BROADCAST`], `value[slot]`), or VGPR `index[slot]` copied
/// first because it is a destination register ([`COPIED`]). Plain arrays
/// of whole words, not an enum: the fast path stores and loads each field
/// at one width.
const IN_PLACE: u8 = 0;
const BROADCAST: u8 = 1;
const COPIED: u8 = 2;

/// Run an already checked arithmetic `instr` (operation `op`) on `wave`
/// reading the register file in place, under `policy` and the sources'
/// `mods`; with DPP, `plan` gathers src0 and gives the written lanes.
/// False, touching nothing, when the instruction is not of that shape
/// (SDWA, a DPP plan with lanes of their own policy, an operand that does
/// not read). Never inlined: inlined into `execute_arith` its staged
/// words are copied through the stack (measured 0.3x slower per call).
#[inline(never)]
pub(super) fn in_place<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    op: ArithOp,
    policy: &Policy,
    mods: SourceModifiers,
    plan: Option<&Plan>,
) -> bool {
    if instr.sdwa.is_some() || plan.is_some_and(|p| p.plain != 0) {
        return false;
    }
    let Operand::Vgpr {
        index: dst,
        part: dst_part,
    } = instr.dst
    else {
        return false;
    };
    let dst = usize::from(dst);
    let wide = F::WIDTH == 64;
    let regs = if wide { 2 } else { 1 };
    let accumulator = instr.opcode.info().accumulator();
    let (keep, dst_shift) = dst_placement::<F>(spec, dst_part);
    let overlaps = |index: usize| index < dst + regs && dst < index + regs;

    // Each source: how it is read, its register, its broadcast value and
    // the right shift of an F16 source; `None` when it does not read.
    let source = |slot: usize| -> Option<(u8, usize, u64, u32)> {
        if slot == 2 && accumulator {
            // D: the destination's own words, same lane and half.
            return Some((COPIED, dst, 0, dst_shift));
        }
        match instr.source(slot)? {
            Operand::Vgpr { index, part } => {
                let index = usize::from(index);
                let how = if overlaps(index) { COPIED } else { IN_PLACE };
                Some((how, index, 0, half_shift::<F>(part)))
            }
            operand => {
                let mut raw = [0u64; 1];
                let name = ["src0", "src1", "src2"][slot];
                let width = F::WIDTH;
                read_operand(
                    spec,
                    wave,
                    name,
                    operand,
                    width,
                    Some(F::KIND),
                    None,
                    &mut raw,
                )
                .ok()?;
                Some((BROADCAST, 0, raw[0], 0))
            }
        }
    };
    let unused = Some((IN_PLACE, 0, 0, 0));
    let (Some(a), Some(b), Some(c)) = (
        source(0),
        source(1),
        if op.sources() == 3 { source(2) } else { unused },
    ) else {
        return false;
    };
    let how = [a.0, b.0, c.0];
    let index = [a.1, b.1, c.1];
    let value = [a.2, b.2, c.2];
    let shift = [a.3, b.3, c.3];
    let io = Io {
        how,
        index,
        shift,
        exec: plan.map_or(wave.exec(), |p| p.write),
        gather: plan.map(Plan::sources),
        dst,
        keep,
        dst_shift,
    };
    if how == [IN_PLACE; 3] {
        // The common shape: nothing to stage.
        return io.run::<F>(wave, op, policy, mods, &NO_WORDS);
    }
    // The copied and broadcast words, by slot: low and high words.
    let mut words = NO_WORDS;
    let lanes = wave.lanes();
    for (slot, [lo, hi]) in words.iter_mut().enumerate().take(op.sources()) {
        match how[slot] {
            BROADCAST => {
                lo.fill(value[slot] as u32);
                hi.fill((value[slot] >> 32) as u32);
            }
            COPIED => {
                let i = index[slot];
                let (Some(l), Some(h)) =
                    (wave.vgpr_lanes(i), wave.vgpr_lanes(i + usize::from(wide)))
                else {
                    return false;
                };
                lo[..lanes].copy_from_slice(l);
                if wide {
                    hi[..lanes].copy_from_slice(h);
                }
            }
            _ => {}
        }
    }
    io.run::<F>(wave, op, policy, mods, &words)
}

/// No staged words: what the common shape passes.
static NO_WORDS: [[[u32; MAX_LANES]; 2]; 3] = [[[0; MAX_LANES]; 2]; 3];

/// Where every source of one instruction comes from and where its
/// result goes.
struct Io<'p> {
    how: [u8; 3],
    index: [usize; 3],
    shift: [u32; 3],
    exec: u64,
    gather: Option<&'p [u8; MAX_LANES]>,
    dst: usize,
    keep: u32,
    dst_shift: u32,
}

impl Io<'_> {
    /// The one dispatched call: sources in place or from `words` (staged
    /// by slot), the destination registers written in place.
    #[inline(always)]
    fn run<F: Format>(
        &self,
        wave: &mut Wave,
        op: ArithOp,
        policy: &Policy,
        mods: SourceModifiers,
        words: &[[[u32; MAX_LANES]; 2]; 3],
    ) -> bool {
        let wide = F::WIDTH == 64;
        let lanes = wave.lanes();
        let Some(split) = wave.vgpr_split(self.dst, if wide { 2 } else { 1 }) else {
            return false;
        };
        let (split, dst_lo, dst_hi) = split.parts();
        // Each slot's words as values: slices stored into arrays one slot
        // at a time and then copied whole stall the copy's loads.
        let words_of = |slot: usize| -> Option<(&[u32], &[u32])> {
            if slot >= op.sources() {
                return Some((&[], &[]));
            }
            if self.how[slot] == IN_PLACE {
                let index = self.index[slot];
                let hi = if wide { split.src(index + 1)? } else { &[] };
                // Out of range: the general path words the error.
                Some((split.src(index)?, hi))
            } else {
                let [lo, hi] = &words[slot];
                Some((&lo[..lanes], if wide { &hi[..lanes] } else { &hi[..0] }))
            }
        };
        let (Some(a), Some(b), Some(c)) = (words_of(0), words_of(1), words_of(2)) else {
            return false;
        };
        let mut io = ArithIo {
            src_lo: [a.0, b.0, c.0],
            src_hi: [a.1, b.1, c.1],
            src_shift: self.shift,
            src0_lane: self.gather,
            dst_lo,
            dst_hi,
            dst_keep: self.keep,
            dst_shift: self.dst_shift,
            exec: self.exec,
        };
        #[cfg(test)]
        super::write::fault::apply_arith(&mut io);
        run_arith::<F>(op, &mut io, policy, mods);
        #[cfg(test)]
        super::tally(super::Tally::InPlace);
        true
    }
}
