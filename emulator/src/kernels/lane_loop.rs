//! The lane loops: one operation's lane kernel over every lane of a wave.
//!
//! A [`Lanes`] container says where the lanes come from and go to: the
//! register file ([`WaveIo`], the executor's) or plain encodings
//! ([`Slices`]). Each container has one loop LLVM vectorises
//! ([`Lanes::wave`], run by [`run_wave`] with the policy's instantiation)
//! and the accessors the scalar path uses to run the same kernel one lane
//! at a time ([`run_scalar`]). Which of the two runs, and in which
//! instruction-set variant, is `dispatch`'s choice.

use super::format::Format;
use super::gather::{gather, Words};
use super::halves::{halves, whole_blocks, HALF_BLOCK};
use super::lane::{sel, Lane};
use super::modifiers::LanePolicy;
use super::operation::Operation;
use super::pairs;
use super::policy::Policy;

/// The lanes of one instruction: where each lane's operands come from and
/// where its result goes.
pub trait Lanes<F: Format> {
    /// Number of lanes.
    fn count(&self) -> usize;
    /// Whether lane `i` (below [`Lanes::count`]) is written.
    fn active(&self, i: usize) -> bool;
    /// Lane `i`'s source encoding and exponent operand (0 when the
    /// operation has none).
    fn load<O: Operation>(&self, i: usize) -> (F::Lane, i32);
    /// Write lane `i`'s result.
    fn store(&mut self, i: usize, r: F::Lane);
    /// Every lane through `O`'s kernel in one branch-free loop. `COMMON`:
    /// `p` is [`LanePolicy::common`] (then folded to constants); `OUT`: as
    /// for [`super::fract::fract_lane`].
    fn wave<O: Operation, const COMMON: bool, const OUT: bool>(&mut self, p: &LanePolicy<F>);
}

/// A whole wave of one instruction as the dispatcher runs it: the same
/// kernel either in one vectorisable loop (inlined into each
/// instruction-set variant of `dispatch`) or one lane at a time.
pub trait WaveJob {
    /// Every lane in the branch-free loop. Must be `#[inline(always)]` down
    /// to the kernel, so each variant compiles it for its own features.
    fn wave(&mut self);
    /// Every active lane through the same kernel, one lane at a time (the
    /// scalar path).
    fn scalar(&mut self);
}

/// Operation `O` over the lanes `L` under one policy, as a [`WaveJob`].
#[derive(Debug)]
pub struct OpJob<'a, O, F: Format, L> {
    lanes: &'a mut L,
    policy: &'a Policy,
    _op: core::marker::PhantomData<(O, F)>,
}

impl<'a, O: Operation, F: Format, L: Lanes<F>> OpJob<'a, O, F, L> {
    /// The job of `O` over `lanes` under `policy`.
    #[inline(always)]
    pub fn new(lanes: &'a mut L, policy: &'a Policy) -> OpJob<'a, O, F, L> {
        OpJob {
            lanes,
            policy,
            _op: core::marker::PhantomData,
        }
    }
}

impl<O: Operation, F: Format, L: Lanes<F>> WaveJob for OpJob<'_, O, F, L> {
    #[inline(always)]
    fn wave(&mut self) {
        run_wave::<O, F, L>(self.lanes, self.policy);
    }
    fn scalar(&mut self) {
        run_scalar::<O, F, L>(self.lanes, self.policy);
    }
}

/// Run `O` over every lane of `lanes` in the vectorisable loop, in the
/// instantiation `p` needs: the common policy with every field a
/// compile-time constant, any policy without OMOD/CLAMP, or any policy.
/// Inlined into each instruction-set variant of `dispatch`.
#[inline(always)]
pub fn run_wave<O: Operation, F: Format, L: Lanes<F>>(lanes: &mut L, p: &Policy) {
    // The common case decided first, before any lane policy is built: this
    // is the path from the call to the loop (measured: 2-4 ns per call).
    if LanePolicy::<F>::is_common(p) {
        return lanes.wave::<O, true, false>(&LanePolicy::<F>::common());
    }
    let lp = LanePolicy::<F>::new(p);
    if lp.has_output_modifiers() {
        lanes.wave::<O, false, true>(&lp)
    } else {
        lanes.wave::<O, false, false>(&lp)
    }
}

/// Run `O` over the active lanes of `lanes` one lane at a time: the same
/// kernel as [`run_wave`], called once per lane (the scalar path).
pub fn run_scalar<O: Operation, F: Format, L: Lanes<F>>(lanes: &mut L, p: &Policy) {
    let lp = LanePolicy::<F>::new(p);
    for i in 0..lanes.count() {
        if lanes.active(i) {
            let (x, e) = lanes.load::<O>(i);
            lanes.store(i, one_lane::<O, F>(x, e, &lp));
        }
    }
}

/// One lane of [`run_scalar`]; never inlined, so the loop stays one lane at
/// a time.
#[inline(never)]
fn one_lane<O: Operation, F: Format>(x: F::Lane, e: i32, p: &LanePolicy<F>) -> F::Lane {
    if p.has_output_modifiers() {
        O::lane::<F, true>(x, e, p)
    } else {
        O::lane::<F, false>(x, e, p)
    }
}

/// Load an encoding into its lane.
#[inline(always)]
pub(super) fn load<F: Format>(b: F::Bits) -> F::Lane {
    F::Lane::from_u64(F::widen(b))
}

/// Store a lane back to an encoding.
#[inline(always)]
pub(super) fn store<F: Format>(l: F::Lane) -> F::Bits {
    F::narrow(l.to_u64())
}

/// Lanes as plain encodings: lane `i` reads `src[i]` and `exp[i]` (ignored
/// by FRACT) and writes `dst[i]`; every lane is active. The slices are
/// zipped: the shortest bounds the lanes processed, and the rest of `dst`
/// is left alone.
#[derive(Debug)]
pub struct Slices<'a, F: Format> {
    /// Source encodings.
    pub src: &'a [F::Bits],
    /// LDEXP's exponent operands.
    pub exp: &'a [i32],
    /// Result encodings.
    pub dst: &'a mut [F::Bits],
}

impl<'a, F: Format> Slices<'a, F> {
    /// The lanes of `src`, `exp` and `dst` (the format named, as in
    /// `Slices::<F32>::new`, since the encodings alone do not tell it).
    #[inline(always)]
    pub fn new(src: &'a [F::Bits], exp: &'a [i32], dst: &'a mut [F::Bits]) -> Slices<'a, F> {
        Slices { src, exp, dst }
    }
}

impl<F: Format> Lanes<F> for Slices<'_, F> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.src.len().min(self.exp.len()).min(self.dst.len())
    }
    #[inline(always)]
    fn active(&self, _i: usize) -> bool {
        true
    }
    #[inline(always)]
    fn load<O: Operation>(&self, i: usize) -> (F::Lane, i32) {
        let e = if O::HAS_EXPONENT { self.exp[i] } else { 0 };
        (load::<F>(self.src[i]), e)
    }
    #[inline(always)]
    fn store(&mut self, i: usize, r: F::Lane) {
        self.dst[i] = store::<F>(r);
    }
    #[inline(always)]
    fn wave<O: Operation, const COMMON: bool, const OUT: bool>(&mut self, p: &LanePolicy<F>) {
        // For the common policy, a constant LLVM folds into the lane code.
        let p = if COMMON {
            LanePolicy::<F>::common()
        } else {
            *p
        };
        let n = Lanes::<F>::count(self);
        let (src, dst) = (&self.src[..n], &mut self.dst[..n]);
        if O::HAS_EXPONENT {
            for ((d, &s), &e) in dst.iter_mut().zip(src).zip(&self.exp[..n]) {
                *d = store::<F>(O::lane::<F, OUT>(load::<F>(s), e, &p));
            }
        } else {
            // FRACT reads no exponent.
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = store::<F>(O::lane::<F, OUT>(load::<F>(s), 0, &p));
            }
        }
    }
}

/// One instruction's lanes on the register file: where the source words
/// come from and where the results go. The executor fills it once per
/// instruction; one dispatched call then reads, computes and writes back
/// every lane.
///
/// A source word holds the operand as a register does: an F16 operand is
/// bits `src_shift..src_shift + 16` (16 for a true16 high half, else 0), an
/// F64 operand is `src_hi:src_lo`. Every slice has at least `dst_lo.len()`
/// elements (the lanes processed), except the ones a format or operation
/// does not use (`src_hi`, `dst_hi` outside F64; `exp` for FRACT), which may
/// be empty.
#[derive(Debug)]
pub struct WaveIo<'a> {
    /// src0 words (the low dwords for F64).
    pub src_lo: &'a [u32],
    /// src0 high dwords (F64 only).
    pub src_hi: &'a [u32],
    /// Right shift bringing an F16 source to bits 15:0.
    pub src_shift: u32,
    /// LDEXP's exponent words (ignored by FRACT).
    pub exp: &'a [u32],
    /// Right shift bringing an F16 exponent operand to bits 15:0 (read as an i16).
    pub exp_shift: u32,
    /// The destination words (the low dwords for F64).
    pub dst_lo: &'a mut [u32],
    /// The destination high dwords (F64 only).
    pub dst_hi: &'a mut [u32],
    /// Bits of the old destination word a 16-bit result keeps (an F32 or
    /// F64 result takes its whole words: ignored).
    pub dst_keep: u32,
    /// Left shift placing a 16-bit result in its half (ignored for F32
    /// and F64).
    pub dst_shift: u32,
    /// Lane `i` is written only when bit `i` is set.
    pub exec: u64,
}

impl WaveIo<'_> {
    /// The encoding of lane `i`'s float source, widened.
    #[inline(always)]
    pub fn source<F: Format>(lo: u32, hi: u32, shift: u32) -> u64 {
        match F::WIDTH {
            64 => u64::from(hi) << 32 | u64::from(lo),
            32 => u64::from(lo),
            _ => u64::from(lo >> shift & 0xffff),
        }
    }

    /// The exponent operand of a lane from its word (F16: the selected
    /// 16 bits as an i16; F32/F64: all 32 bits).
    #[inline(always)]
    pub fn exponent<F: Format>(word: u32, shift: u32) -> i32 {
        if F::WIDTH == 16 {
            i32::from((word >> shift) as u16 as i16)
        } else {
            word as i32
        }
    }

    /// A 32-bit (or 16-bit) result merged into the old destination word.
    #[inline(always)]
    pub fn merge(old: u32, result: u64, keep: u32, shift: u32) -> u32 {
        (old & keep) | (result as u32).wrapping_shl(shift)
    }

    /// The loop of [`Lanes::wave`]: `ALL` when every lane is active (EXEC
    /// then needs no select); `LOW` when an F16 source, exponent and
    /// result are all in the low halves (the shifts 0, the high half kept:
    /// constants).
    #[inline(always)]
    fn wave_loop<
        O: Operation,
        F: Format,
        const COMMON: bool,
        const OUT: bool,
        const ALL: bool,
        const LOW: bool,
    >(
        &mut self,
        p: &LanePolicy<F>,
    ) {
        let p = if COMMON {
            LanePolicy::<F>::common()
        } else {
            *p
        };
        let n = self.dst_lo.len();
        let src_lo = &self.src_lo[..n];
        // Unused slices stand in for the ones a format or operation lacks.
        let src_hi = if F::WIDTH == 64 {
            &self.src_hi[..n]
        } else {
            src_lo
        };
        let exp = if O::HAS_EXPONENT {
            &self.exp[..n]
        } else {
            src_lo
        };
        let (src_shift, exp_shift) = if LOW {
            (0, 0)
        } else {
            (self.src_shift, self.exp_shift)
        };
        let (keep, shift) = if LOW {
            (LOW_KEEP, 0)
        } else {
            (self.dst_keep, self.dst_shift)
        };
        let exec = self.exec;
        // No closures here: they would not inherit the caller's target features.
        // F64 with the permutes: whole blocks of register pairs joined and
        // split by them; the lanes left over (all of them without the
        // permutes) in the per-lane loop.
        let mut done = 0;
        if let Some(pm) = (F::WIDTH == 64).then(pairs::permutes).flatten() {
            let dst = pairs::blocks_mut::<PAIR_BLOCK>(&mut self.dst_lo[..n], &mut self.dst_hi[..n]);
            done = n - n % PAIR_BLOCK;
            // Every slice holds the `n` lanes: as many blocks each.
            let (exp_blocks, _) = exp.as_chunks::<PAIR_BLOCK>();
            let blocks = dst.zip(pairs::blocks::<PAIR_BLOCK>(src_lo, src_hi).zip(exp_blocks));
            for (k, ((dl, dh), ((sl, sh), e))) in blocks.enumerate() {
                let x = pm.join(sl, sh);
                let mut r = [0; PAIR_BLOCK];
                for j in 0..PAIR_BLOCK {
                    let e = WaveIo::exponent::<F>(e[j], exp_shift);
                    r[j] = O::lane::<F, OUT>(F::Lane::from_u64(x[j]), e, &p).to_u64();
                }
                let active = exec.wrapping_shr((k * PAIR_BLOCK) as u32);
                pm.split::<PAIR_BLOCK, ALL>(&r, active, dl, dh);
            }
        }
        if F::WIDTH == 64 {
            let dst_hi = &mut self.dst_hi[..n];
            let dst_lo = &mut self.dst_lo[..n];
            for i in done..n {
                let r =
                    io_lane::<O, F, OUT>(src_lo[i], src_hi[i], src_shift, exp[i], exp_shift, &p);
                let a = ALL || exec.wrapping_shr(i as u32) & 1 != 0;
                dst_lo[i] = sel(a, r as u32, dst_lo[i]);
                dst_hi[i] = sel(a, (r >> 32) as u32, dst_hi[i]);
            }
        } else if F::WIDTH == 32 {
            // The result is the whole word: with every lane active the old
            // words are not read.
            let dst = &mut self.dst_lo[..n];
            for i in 0..n {
                let r =
                    io_lane::<O, F, OUT>(src_lo[i], src_hi[i], src_shift, exp[i], exp_shift, &p);
                let a = ALL || exec.wrapping_shr(i as u32) & 1 != 0;
                dst[i] = sel(a, r as u32, dst[i]);
            }
        } else {
            // F16: whole blocks, each source half packed into u16 lanes
            // first (measured faster than reading it from the word in the
            // kernel loop), then the lanes left over.
            let dst = &mut self.dst_lo[..n];
            let blocks = whole_blocks(n);
            let (head, tail) = dst.split_at_mut(blocks);
            let shifts = (src_shift, exp_shift, keep, shift);
            for (k, d) in head.chunks_exact_mut(HALF_BLOCK).enumerate() {
                let base = k * HALF_BLOCK;
                let (s, e) = (&src_lo[base..][..HALF_BLOCK], &exp[base..][..HALF_BLOCK]);
                half_block::<O, F, OUT, ALL>(base, s, e, d, shifts, exec, &p);
            }
            let (s, e) = (&src_lo[blocks..], &exp[blocks..]);
            half_lanes::<O, F, OUT, ALL>(blocks, s, e, tail, shifts, exec, &p);
        }
    }
}

/// One whole block of [`WaveIo::wave_loop`]'s F16 lanes from lane
/// `base`: the source halves packed, the kernel over them, the results
/// merged into the destination words' halves. `src`, `exp` and `dst` hold
/// [`HALF_BLOCK`] lanes.
#[inline(always)]
fn half_block<O: Operation, F: Format, const OUT: bool, const ALL: bool>(
    base: usize,
    src: &[u32],
    exp: &[u32],
    dst: &mut [u32],
    (src_shift, exp_shift, keep, shift): (u32, u32, u32, u32),
    exec: u64,
    p: &LanePolicy<F>,
) {
    let (exp, dst) = (&exp[..HALF_BLOCK], &mut dst[..HALF_BLOCK]);
    let x = halves(src, src_shift);
    let mut r = [0u16; HALF_BLOCK];
    for j in 0..HALF_BLOCK {
        let e = WaveIo::exponent::<F>(exp[j], exp_shift);
        r[j] = O::lane::<F, OUT>(F::Lane::from_u64(u64::from(x[j])), e, p).to_u64() as u16;
    }
    for j in 0..HALF_BLOCK {
        let a = ALL || exec.wrapping_shr((base + j) as u32) & 1 != 0;
        dst[j] = sel(
            a,
            WaveIo::merge(dst[j], u64::from(r[j]), keep, shift),
            dst[j],
        );
    }
}

/// [`WaveIo::wave_loop`]'s F16 lanes from lane `base` on, as many as
/// `dst` has (fewer than a block): each read from its word, the result
/// merged into the destination word's half.
#[inline(always)]
fn half_lanes<O: Operation, F: Format, const OUT: bool, const ALL: bool>(
    base: usize,
    src: &[u32],
    exp: &[u32],
    dst: &mut [u32],
    (src_shift, exp_shift, keep, shift): (u32, u32, u32, u32),
    exec: u64,
    p: &LanePolicy<F>,
) {
    let n = dst.len();
    let (src, exp) = (&src[..n], &exp[..n]);
    for i in 0..n {
        let r = io_lane::<O, F, OUT>(src[i], 0, src_shift, exp[i], exp_shift, p);
        let a = ALL || exec.wrapping_shr((base + i) as u32) & 1 != 0;
        dst[i] = sel(a, WaveIo::merge(dst[i], r, keep, shift), dst[i]);
    }
}

/// The lanes of a block of FRACT/LDEXP's F64 register pairs with the
/// permutes (`pairs`): 32 measured about 2 ns per wave64 call faster than
/// 16 for them.
const PAIR_BLOCK: usize = 32;

/// The bits of its register a 16-bit result in the low half keeps.
pub(super) const LOW_KEEP: u32 = 0xffff_0000;

/// A [`WaveIo`] whose source words are first gathered across lanes (DPP,
/// docs/semantics.md §11): lane `i` reads the words of lane `index[i]` of
/// `io.src_lo` (and `io.src_hi`), or 0 when `index[i]` is 64 or more (the
/// DPP plan's zero-filled lanes). The gather is part of the dispatched call, so
/// it is compiled for the selected instruction set like the kernel.
#[derive(Debug)]
pub struct GatheredIo<'a> {
    /// The source lane of every lane; 64 or more reads 0.
    pub index: &'a [u8; 64],
    /// The lanes: `src_lo`/`src_hi` hold the register words by lane before
    /// the gather.
    pub io: WaveIo<'a>,
}

/// `words[index[i]]` for every lane `i`, 0 for an index at or beyond 64
/// (or beyond `words`).
#[inline(always)]
pub(super) fn gather_words(index: &[u8; 64], words: &[u32], out: &mut [u32; 64]) {
    // A wave64 register is read in place, a shorter one through a copy
    // (the copy's zeros stand for the lanes past it).
    let copy: [u32; 64];
    let all: &[u32; 64] = match words.first_chunk::<64>() {
        Some(w) => w,
        None => {
            let mut c = [0u32; 64];
            let m = words.len().min(64);
            c[..m].copy_from_slice(&words[..m]);
            copy = c;
            &copy
        }
    };
    gather(index, all, out);
}

impl<F: Format> Lanes<F> for GatheredIo<'_> {
    #[inline(always)]
    fn count(&self) -> usize {
        <WaveIo<'_> as Lanes<F>>::count(&self.io)
    }
    #[inline(always)]
    fn active(&self, i: usize) -> bool {
        <WaveIo<'_> as Lanes<F>>::active(&self.io, i)
    }
    #[inline(always)]
    fn load<O: Operation>(&self, i: usize) -> (F::Lane, i32) {
        let s = usize::from(self.index.get(i).copied().unwrap_or(64));
        let word = |w: &[u32]| {
            if s < 64 {
                w.get(s).copied().unwrap_or(0)
            } else {
                0
            }
        };
        let hi = if F::WIDTH == 64 {
            word(self.io.src_hi)
        } else {
            0
        };
        let src = WaveIo::source::<F>(word(self.io.src_lo), hi, self.io.src_shift);
        let exp = if O::HAS_EXPONENT {
            WaveIo::exponent::<F>(self.io.exp[i], self.io.exp_shift)
        } else {
            0
        };
        (F::Lane::from_u64(src), exp)
    }
    #[inline(always)]
    fn store(&mut self, i: usize, r: F::Lane) {
        <WaveIo<'_> as Lanes<F>>::store(&mut self.io, i, r);
    }
    #[inline(always)]
    fn wave<O: Operation, const COMMON: bool, const OUT: bool>(&mut self, p: &LanePolicy<F>) {
        let n = self.io.dst_lo.len().min(64);
        let mut lo = Words::ZERO;
        gather_words(self.index, self.io.src_lo, &mut lo.0);
        let hi: Words;
        let src_hi: &[u32] = if F::WIDTH == 64 {
            let mut h = Words::ZERO;
            gather_words(self.index, self.io.src_hi, &mut h.0);
            hi = h;
            &hi.0[..n]
        } else {
            &[]
        };
        let mut io = WaveIo {
            src_lo: &lo.0[..n],
            src_hi,
            src_shift: self.io.src_shift,
            exp: self.io.exp,
            exp_shift: self.io.exp_shift,
            dst_lo: &mut self.io.dst_lo[..n],
            dst_hi: &mut *self.io.dst_hi,
            dst_keep: self.io.dst_keep,
            dst_shift: self.io.dst_shift,
            exec: self.io.exec,
        };
        <WaveIo<'_> as Lanes<F>>::wave::<O, COMMON, OUT>(&mut io, p);
    }
}

/// One lane of [`WaveIo`]'s loop: the source and exponent from their
/// words, the result widened.
#[inline(always)]
fn io_lane<O: Operation, F: Format, const OUT: bool>(
    lo: u32,
    hi: u32,
    src_shift: u32,
    exp: u32,
    exp_shift: u32,
    p: &LanePolicy<F>,
) -> u64 {
    let x = F::Lane::from_u64(WaveIo::source::<F>(lo, hi, src_shift));
    let e = WaveIo::exponent::<F>(exp, exp_shift);
    O::lane::<F, OUT>(x, e, p).to_u64()
}

impl<F: Format> Lanes<F> for WaveIo<'_> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.dst_lo.len()
    }
    #[inline(always)]
    fn active(&self, i: usize) -> bool {
        self.exec.wrapping_shr(i as u32) & 1 != 0
    }
    #[inline(always)]
    fn load<O: Operation>(&self, i: usize) -> (F::Lane, i32) {
        let hi = if F::WIDTH == 64 { self.src_hi[i] } else { 0 };
        let src = WaveIo::source::<F>(self.src_lo[i], hi, self.src_shift);
        let exp = if O::HAS_EXPONENT {
            WaveIo::exponent::<F>(self.exp[i], self.exp_shift)
        } else {
            0
        };
        (F::Lane::from_u64(src), exp)
    }
    #[inline(always)]
    fn store(&mut self, i: usize, r: F::Lane) {
        let r = r.to_u64();
        if F::WIDTH == 64 {
            self.dst_lo[i] = r as u32;
            self.dst_hi[i] = (r >> 32) as u32;
        } else if F::WIDTH == 32 {
            self.dst_lo[i] = r as u32;
        } else {
            let d = &mut self.dst_lo[i];
            *d = WaveIo::merge(*d, r, self.dst_keep, self.dst_shift);
        }
    }
    #[inline(always)]
    fn wave<O: Operation, const COMMON: bool, const OUT: bool>(&mut self, p: &LanePolicy<F>) {
        let n = self.dst_lo.len();
        let all = if n >= 64 {
            self.exec == u64::MAX
        } else {
            self.exec & ((1u64 << n) - 1) == (1u64 << n) - 1
        };
        // F16 in the low halves with every lane written (the common 16-bit
        // shape): the shifts and the kept half as constants.
        let low = F::WIDTH == 16
            && self.src_shift == 0
            && self.exp_shift == 0
            && self.dst_shift == 0
            && self.dst_keep == LOW_KEEP;
        if all && low {
            self.wave_loop::<O, F, COMMON, OUT, true, true>(p)
        } else if all {
            self.wave_loop::<O, F, COMMON, OUT, true, false>(p)
        } else {
            self.wave_loop::<O, F, COMMON, OUT, false, false>(p)
        }
    }
}
