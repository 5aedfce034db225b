//! Write-back: where a result goes in its destination register and the
//! kernel run over the wave that puts it there (docs/semantics.md §3).

use super::dpp::Plan;
use super::operands::{read_exponent, read_float_source};
use super::{invalid, missing_src1};
use crate::error::ExecError;
use crate::instr::{DstUnused, Instruction, Operand, Part, SdwaSel};
use crate::kernels::scaled::ScaledBeforeRounding;
use crate::kernels::{run_dispatched, GatheredIo, Operation, WaveIo};
use crate::kernels::{Format, FormatKind, Omod, Policy};
use crate::target::{F16DstHigh, SdwaF16DwordDst, SdwaF16Output, TargetSpec};
use crate::wave::{Wave, MAX_LANES, NUM_VGPRS};

/// Where an F16 result goes in a non-SDWA destination word: the old bits
/// kept and the left shift of the result. An F32 result takes the register;
/// an F16 result its half (true16 high: bits 31:16), preserving the other
/// half on true16 and GFX10 and zeroing it on GFX9.
pub(super) fn dst_placement<F: Format>(spec: &TargetSpec, part: Part) -> (u32, u32) {
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

/// Run the kernel over the wave and write the active lanes' results into
/// the destination ([`run_dispatched`]). Unit tests can break this
/// write-back on purpose (the test-only `fault` module) to prove that
/// replay notices.
#[inline(always)]
pub(super) fn write_back<O: Operation, F: Format>(io: &mut WaveIo<'_>, policy: &Policy) {
    #[cfg(test)]
    fault::apply(io);
    run_dispatched::<O, F, _>(io, policy);
}

/// [`write_back`], with src0 first gathered across lanes by `gather` (DPP)
/// inside the dispatched call.
#[inline(always)]
fn write_back_gathered<O: Operation, F: Format>(
    mut io: WaveIo<'_>,
    gather: Option<&[u8; MAX_LANES]>,
    policy: &Policy,
) {
    let Some(index) = gather else {
        return write_back::<O, F>(&mut io, policy);
    };
    #[cfg(test)]
    fault::apply(&mut io);
    run_dispatched::<O, F, _>(&mut GatheredIo { index, io }, policy);
}

/// Every other case: the operands are read into per-lane words on the
/// stack first (the destination may be one of the sources; scalars,
/// constants and SDWA selections are expanded per lane). With a DPP `plan`
/// the staged src0 words are gathered from their source lanes, and the
/// plan's written lanes are the write-back's `exec`.
#[inline(never)]
pub(super) fn copied<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
    policy: &Policy,
    plan: Option<&Plan>,
) -> Result<(), ExecError> {
    let lanes = wave.lanes();
    let mut exec = wave.exec();

    // Fixed-size buffers on the stack: no allocation per instruction. The
    // sources are copied out of the register file because the destination
    // may be one of them.
    let wide = if F::WIDTH == 64 { lanes } else { 0 };
    let mut src_lo = [0u32; MAX_LANES];
    let mut src_hi = [0u32; MAX_LANES];
    let mut exp = [0u32; MAX_LANES];
    let src_shift =
        read_float_source::<F>(spec, wave, instr, &mut src_lo[..lanes], &mut src_hi[..wide])?;
    // DPP: the kernel call gathers src0 from its source lanes (the words
    // above, by lane); lanes whose zero-filled src0 skips ABS/NEG run
    // separately.
    let mut plain = None;
    let gather = plan.map(Plan::sources);
    if let Some(plan) = plan {
        exec = plan.write;
        if plan.plain != 0 {
            exec &= !plan.plain;
            plain = Some((plan.plain, super::dpp::plain_policy::<F>(spec, wave, instr)));
        }
    }
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
    // A macro, not a closure: the DPP plan writes one destination twice.
    macro_rules! io {
        ($dst_lo:expr, $dst_hi:expr, $dst_keep:expr, $dst_shift:expr, $exec:expr) => {
            WaveIo {
                src_lo: &src_lo[..lanes],
                src_hi: &src_hi[..wide],
                src_shift,
                exp,
                exp_shift,
                dst_lo: $dst_lo,
                dst_hi: $dst_hi,
                dst_keep: $dst_keep,
                dst_shift: $dst_shift,
                exec: $exec,
            }
        };
    }

    if let Some(sdwa) = instr.sdwa {
        // The results of every lane first, then the dst_sel merge of the
        // active ones.
        let mut out = [0u32; MAX_LANES];
        let mut out_hi = [0u32; MAX_LANES];
        let f16 = F::KIND == FormatKind::F16;
        let output = spec.sdwa_f16_output.map(|s| s.value);
        if f16 && policy.omod != Omod::None && output == Some(SdwaF16Output::ScaledBeforeRounding) {
            // OMOD before the rounding: one lane at a time.
            let scaled = ScaledBeforeRounding::<F>::new(policy);
            for (lane, o) in out[..lanes].iter_mut().enumerate() {
                let src = WaveIo::source::<F>(src_lo[lane], 0, src_shift);
                let e = O::HAS_EXPONENT.then(|| WaveIo::exponent::<F>(exp[lane], exp_shift));
                *o = scaled.lane(src, e) as u32;
            }
        } else {
            run_dispatched::<O, F, _>(
                &mut io!(&mut out[..lanes], &mut out_hi[..wide], 0, 0, u64::MAX),
                policy,
            );
        }
        return sdwa_merge::<F>(spec, wave, index, sdwa, exec, &out);
    }
    if F::WIDTH == 64 {
        let (lo, hi) = wave.vgpr_split(index, 2).ok_or(oob(index))?.dst();
        write_back_gathered::<O, F>(io!(&mut *lo, &mut *hi, 0, 0, exec), gather, policy);
        if let Some((lanes, p)) = plain {
            write_back_gathered::<O, F>(io!(&mut *lo, &mut *hi, 0, 0, lanes), gather, &p);
        }
        return Ok(());
    }
    let (keep, shift) = dst_placement::<F>(spec, part);
    let dst = wave.vgpr_lanes_mut(index).ok_or(oob(index))?;
    write_back_gathered::<O, F>(io!(&mut *dst, &mut [], keep, shift, exec), gather, policy);
    if let Some((lanes, p)) = plain {
        write_back_gathered::<O, F>(io!(dst, &mut [], keep, shift, lanes), gather, &p);
    }
    Ok(())
}

/// The SDWA write of the results `out` (one per lane) into VGPR `index`:
/// the `dst_sel` field of each active lane, the other bits as `dst_unused`
/// says (docs/semantics.md §7.6).
pub(super) fn sdwa_merge<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    index: usize,
    sdwa: crate::instr::Sdwa,
    exec: u64,
    out: &[u32; MAX_LANES],
) -> Result<(), ExecError> {
    let f16 = F::KIND == FormatKind::F16;
    // An F16 result with dst_sel DWORD: its 16 bits zero-extended, or
    // bits 31:16 kept (`sdwa_f16_dword_dst`) [open].
    let dword = spec.sdwa_f16_dword_dst.map(|s| s.value);
    let (unused, (shift, width)) = match (f16, sdwa.dst_sel, dword) {
        (true, SdwaSel::Dword, Some(SdwaF16DwordDst::PreserveHigh)) => {
            (DstUnused::Preserve, (0, 16))
        }
        _ => (sdwa.dst_unused, sdwa.dst_sel.field_bits()),
    };
    let dst = wave
        .vgpr_lanes_mut(index)
        .ok_or(ExecError::RegisterOutOfRange {
            operand: "dst",
            kind: "vgpr",
            index,
            count: NUM_VGPRS,
        })?;
    for (lane, (d, &v)) in dst.iter_mut().zip(out).enumerate() {
        if exec >> lane & 1 != 0 {
            *d = unused.merge(*d, v, shift, width);
        }
    }
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

    /// The same breaks on an arithmetic write-back.
    pub(in crate::exec) fn apply_arith(io: &mut crate::kernels::arith::ArithIo<'_>) {
        match FAULT.with(Cell::get) {
            Fault::None => {}
            Fault::IgnoreExec => io.exec = u64::MAX,
            Fault::ClobberOtherHalf => io.dst_keep = 0,
            Fault::SkipHighLanes => io.exec &= 0xffff_ffff,
        }
    }

    pub(in crate::exec) fn apply(io: &mut WaveIo<'_>) {
        match FAULT.with(Cell::get) {
            Fault::None => {}
            Fault::IgnoreExec => io.exec = u64::MAX,
            Fault::ClobberOtherHalf => io.dst_keep = 0,
            Fault::SkipHighLanes => io.exec &= 0xffff_ffff,
        }
    }
}
