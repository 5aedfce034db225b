//! The lane loops of the arithmetic operations (ADD, SUB, SUBREV, MUL,
//! FMA): one `ArithKernel` over every lane of a wave, from plain encodings
//! ([`ArithSlices`]) or from register words ([`ArithIo`], the executor's),
//! as a [`WaveJob`] the dispatcher runs in its instruction-set variant or
//! one lane at a time. The same shape as `lane_loop` for FRACT/LDEXP, with
//! two or three float sources per lane.

use core::marker::PhantomData;

use super::arith_kernel::{ArithKernel, SourceModifiers};
use super::format::Format;
use super::gather::Words;
use super::halves::{halves, whole_blocks, HALF_BLOCK};
use super::lane::{sel, Lane};
use super::lane_loop::{gather_words, load, store, WaveIo, WaveJob, LOW_KEEP};
use super::modifiers::{LanePolicy, SourceMods};
use super::pairs;
use super::policy::Policy;

/// The lanes of a block of ADD's and MUL's F64 register pairs with the
/// permutes (`pairs`): 16, measured about 8 ns per wave64 call faster
/// than 32 for them (two sources).
const PAIR_BLOCK: usize = 16;

/// Where the lanes of one arithmetic instruction come from and go to.
pub trait ArithLanes<F: Format> {
    /// Number of lanes (for operation `K`, whose unused sources may be
    /// empty).
    fn count<K: ArithKernel>(&self) -> usize;
    /// Whether lane `i` (below `count`) is written.
    fn active(&self, i: usize) -> bool;
    /// Lane `i`'s sources in encoding order (0 for an unused one).
    fn load<K: ArithKernel>(&self, i: usize) -> [F::Lane; 3];
    /// Write lane `i`'s result.
    fn store(&mut self, i: usize, r: F::Lane);
    /// Every lane through `K`'s kernel in one branch-free loop; `COMMON`:
    /// `p` is [`LanePolicy::common`] and `m` has no ABS/NEG (both then
    /// folded to constants); `OUT`: OMOD/CLAMP instantiated.
    fn wave<K: ArithKernel, const COMMON: bool, const OUT: bool>(
        &mut self,
        m: &[SourceMods<F>; 3],
        p: &LanePolicy<F>,
    );
}

/// The policy and source modifiers a loop runs with: constants for the
/// common instantiation.
#[inline(always)]
fn lowered<F: Format, const COMMON: bool>(
    m: &[SourceMods<F>; 3],
    p: &LanePolicy<F>,
) -> ([SourceMods<F>; 3], LanePolicy<F>) {
    if COMMON {
        (
            [SourceMods::new(false, false); 3],
            LanePolicy::<F>::common(),
        )
    } else {
        (*m, *p)
    }
}

/// Lanes as plain encodings: lane `i` reads `src[0][i]`, `src[1][i]` and
/// (FMA only) `src[2][i]` and writes `dst[i]`; every lane is active. The
/// shortest slice the operation reads bounds the lanes processed; the rest
/// of `dst` is left alone.
#[derive(Debug)]
pub struct ArithSlices<'a, F: Format> {
    /// src0, src1, src2 encodings (src2 may be empty but for FMA).
    pub src: [&'a [F::Bits]; 3],
    /// Result encodings.
    pub dst: &'a mut [F::Bits],
}

impl<F: Format> ArithLanes<F> for ArithSlices<'_, F> {
    #[inline(always)]
    fn count<K: ArithKernel>(&self) -> usize {
        let n = self.dst.len().min(self.src[0].len()).min(self.src[1].len());
        if K::OP.sources() == 3 {
            n.min(self.src[2].len())
        } else {
            n
        }
    }
    #[inline(always)]
    fn active(&self, _i: usize) -> bool {
        true
    }
    #[inline(always)]
    fn load<K: ArithKernel>(&self, i: usize) -> [F::Lane; 3] {
        let c = if K::OP.sources() == 3 {
            load::<F>(self.src[2][i])
        } else {
            F::Lane::ZERO
        };
        [load::<F>(self.src[0][i]), load::<F>(self.src[1][i]), c]
    }
    #[inline(always)]
    fn store(&mut self, i: usize, r: F::Lane) {
        self.dst[i] = store::<F>(r);
    }
    #[inline(always)]
    fn wave<K: ArithKernel, const COMMON: bool, const OUT: bool>(
        &mut self,
        m: &[SourceMods<F>; 3],
        p: &LanePolicy<F>,
    ) {
        let (m, p) = lowered::<F, COMMON>(m, p);
        let n = self.count::<K>();
        let (a, b) = (&self.src[0][..n], &self.src[1][..n]);
        let dst = &mut self.dst[..n];
        if K::OP.sources() == 3 {
            let c = &self.src[2][..n];
            for i in 0..n {
                let s = [load::<F>(a[i]), load::<F>(b[i]), load::<F>(c[i])];
                dst[i] = store::<F>(K::lane::<F, OUT>(s, &m, &p));
            }
        } else {
            for i in 0..n {
                let s = [load::<F>(a[i]), load::<F>(b[i]), F::Lane::ZERO];
                dst[i] = store::<F>(K::lane::<F, OUT>(s, &m, &p));
            }
        }
    }
}

/// One arithmetic instruction's lanes on the register file, for the
/// executor: every source's words by lane, the destination words, EXEC.
///
/// A source word holds the operand as a register does: an F16 operand is
/// bits `src_shift[s]..src_shift[s] + 16` of `src_lo[s]` (16 for a true16
/// high half, else 0; an SDWA source is its selected, extended field,
/// already extracted), an F64 operand is `src_hi[s]:src_lo[s]`. The lanes
/// processed are `dst_lo.len()`, at most 64; every slice the format and
/// operation read must have at least that many elements (`src_hi` and
/// `dst_hi` are read only for F64, src2 only by FMA; a shorter slice cuts
/// the lanes processed, never panics). FMAC passes its destination's old
/// words (same lane, same half: `src_shift[2] = dst_shift`, or the pair)
/// as src2; FMAMK/FMAAK pass K in every lane of its operand slot.
#[derive(Debug)]
pub struct ArithIo<'a> {
    /// src0, src1, src2 words (the low dwords for F64).
    pub src_lo: [&'a [u32]; 3],
    /// src0, src1, src2 high dwords (F64 only).
    pub src_hi: [&'a [u32]; 3],
    /// Right shift bringing each F16 source to bits 15:0.
    pub src_shift: [u32; 3],
    /// DPP: lane `i` reads src0 from lane `src0_lane[i]` of `src_lo[0]`
    /// (and `src_hi[0]`), or 0 for 64 and above (docs/semantics.md §11);
    /// `None` reads its own lane.
    pub src0_lane: Option<&'a [u8; 64]>,
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

/// The encoding of a source from its words.
#[inline(always)]
fn source<F: Format>(lo: u32, hi: u32, shift: u32) -> F::Lane {
    F::Lane::from_u64(match F::WIDTH {
        64 => u64::from(hi) << 32 | u64::from(lo),
        32 => u64::from(lo),
        _ => u64::from(lo.wrapping_shr(shift) & 0xffff),
    })
}

impl ArithIo<'_> {
    /// The slices a lane reads for operation `K` in format `F`, cut to the
    /// lanes processed.
    #[inline(always)]
    fn lanes<F: Format, K: ArithKernel>(&self) -> usize {
        let used = K::OP.sources();
        let mut n = self.dst_lo.len().min(64);
        for s in 0..used {
            n = n.min(self.src_lo[s].len());
            if F::WIDTH == 64 {
                n = n.min(self.src_hi[s].len());
            }
        }
        if F::WIDTH == 64 {
            n = n.min(self.dst_hi.len());
        }
        n
    }

    /// The loop of `wave`: `ALL` when every lane is active; `LOW` when
    /// every F16 source and the result are in the low halves (the shifts
    /// 0, the high half kept: constants).
    #[inline(always)]
    fn wave_loop<F: Format, K: ArithKernel, const OUT: bool, const ALL: bool, const LOW: bool>(
        &mut self,
        m: &[SourceMods<F>; 3],
        p: &LanePolicy<F>,
        src0: (&[u32], &[u32]),
    ) {
        let n = self.lanes::<F, K>();
        let three = K::OP.sources() == 3;
        // Unused slices stand in for the ones a format or operation lacks.
        let (a_lo, a_hi) = (
            &src0.0[..n],
            if F::WIDTH == 64 {
                &src0.1[..n]
            } else {
                &src0.0[..n]
            },
        );
        let b_lo = &self.src_lo[1][..n];
        let b_hi = if F::WIDTH == 64 {
            &self.src_hi[1][..n]
        } else {
            b_lo
        };
        let c_lo = if three { &self.src_lo[2][..n] } else { b_lo };
        let c_hi = if three && F::WIDTH == 64 {
            &self.src_hi[2][..n]
        } else {
            c_lo
        };
        let [sa, sb, sc] = if LOW { [0; 3] } else { self.src_shift };
        let (keep, shift) = if LOW {
            (LOW_KEEP, 0)
        } else {
            (self.dst_keep, self.dst_shift)
        };
        let exec = self.exec;
        // No closures here: they would not inherit the caller's target features.
        // F64 with two sources and the permutes: whole blocks of register
        // pairs joined and split by them; the lanes left over in the
        // indexed loop below. FMA keeps that loop for all its lanes (blocks
        // measured 357 against 266 ns per wave64 call).
        let permutes = (F::WIDTH == 64 && !three).then(pairs::permutes).flatten();
        let mut done = 0;
        if let Some(pm) = permutes {
            let dst = pairs::blocks_mut::<PAIR_BLOCK>(&mut self.dst_lo[..n], &mut self.dst_hi[..n]);
            done = n - n % PAIR_BLOCK;
            // Every slice holds the `n` lanes: as many blocks each.
            let blocks = pairs::blocks::<PAIR_BLOCK>;
            let sources = blocks(a_lo, a_hi).zip(blocks(b_lo, b_hi));
            for (k, ((dl, dh), ((al, ah), (bl, bh)))) in dst.zip(sources).enumerate() {
                let (x, y) = (pm.join(al, ah), pm.join(bl, bh));
                let mut r = [0; PAIR_BLOCK];
                for j in 0..PAIR_BLOCK {
                    let s = [
                        F::Lane::from_u64(x[j]),
                        F::Lane::from_u64(y[j]),
                        F::Lane::ZERO,
                    ];
                    r[j] = K::lane::<F, OUT>(s, m, p).to_u64();
                }
                let active = exec.wrapping_shr((k * PAIR_BLOCK) as u32);
                pm.split::<PAIR_BLOCK, ALL>(&r, active, dl, dh);
            }
        }
        if F::WIDTH == 64 && ALL && !three && permutes.is_none() {
            // Two sources, every lane written: the loop of `Slices` over the
            // word pairs (iterators, no lane index, the old words never
            // read). FMA keeps the indexed loop below, measured faster for it.
            let dst_hi = &mut self.dst_hi[..n];
            let dst_lo = &mut self.dst_lo[..n];
            let dst = dst_lo.iter_mut().zip(dst_hi.iter_mut());
            let a = a_lo.iter().zip(a_hi);
            let b = b_lo.iter().zip(b_hi);
            for (((lo, hi), (&al, &ah)), (&bl, &bh)) in dst.zip(a).zip(b) {
                let s = [
                    source::<F>(al, ah, 0),
                    source::<F>(bl, bh, 0),
                    F::Lane::ZERO,
                ];
                let r = K::lane::<F, OUT>(s, m, p).to_u64();
                *lo = r as u32;
                *hi = (r >> 32) as u32;
            }
        } else if F::WIDTH == 64 {
            let dst_hi = &mut self.dst_hi[..n];
            let dst_lo = &mut self.dst_lo[..n];
            for i in done..n {
                let c = sel(three, source::<F>(c_lo[i], c_hi[i], sc), F::Lane::ZERO);
                let s = [
                    source::<F>(a_lo[i], a_hi[i], sa),
                    source::<F>(b_lo[i], b_hi[i], sb),
                    c,
                ];
                let r = K::lane::<F, OUT>(s, m, p).to_u64();
                let a = ALL || exec.wrapping_shr(i as u32) & 1 != 0;
                dst_lo[i] = sel(a, r as u32, dst_lo[i]);
                dst_hi[i] = sel(a, (r >> 32) as u32, dst_hi[i]);
            }
        } else if F::WIDTH == 32 && ALL {
            // Whole words, every lane written: the loop of `Slices`
            // (iterators, no lane index, the old words never read).
            let dst = &mut self.dst_lo[..n];
            if three {
                for (((d, &a), &b), &c) in dst.iter_mut().zip(a_lo).zip(b_lo).zip(c_lo) {
                    let s = [
                        source::<F>(a, 0, sa),
                        source::<F>(b, 0, sb),
                        source::<F>(c, 0, sc),
                    ];
                    *d = K::lane::<F, OUT>(s, m, p).to_u64() as u32;
                }
            } else {
                for ((d, &a), &b) in dst.iter_mut().zip(a_lo).zip(b_lo) {
                    let s = [source::<F>(a, 0, sa), source::<F>(b, 0, sb), F::Lane::ZERO];
                    *d = K::lane::<F, OUT>(s, m, p).to_u64() as u32;
                }
            }
        } else if F::WIDTH == 32 {
            // The result is the whole word, kept where EXEC is clear.
            let dst = &mut self.dst_lo[..n];
            for i in 0..n {
                let c = sel(three, source::<F>(c_lo[i], 0, sc), F::Lane::ZERO);
                let s = [source::<F>(a_lo[i], 0, sa), source::<F>(b_lo[i], 0, sb), c];
                let r = K::lane::<F, OUT>(s, m, p).to_u64();
                let a = ALL || exec.wrapping_shr(i as u32) & 1 != 0;
                dst[i] = sel(a, r as u32, dst[i]);
            }
        } else {
            // F16: whole blocks, then the lanes left over. FMA packs its
            // three source halves into u16 lanes first; ADD and MUL read
            // them from the words in the kernel loop (each measured the
            // faster for it).
            let dst = &mut self.dst_lo[..n];
            let blocks = whole_blocks(n);
            let (head, tail) = dst.split_at_mut(blocks);
            let out = (keep, shift, exec);
            for (k, d) in head.chunks_exact_mut(HALF_BLOCK).enumerate() {
                let base = k * HALF_BLOCK;
                let src = [
                    &a_lo[base..][..HALF_BLOCK],
                    &b_lo[base..][..HALF_BLOCK],
                    &c_lo[base..][..HALF_BLOCK],
                ];
                if three {
                    half_block::<F, K, OUT, ALL>(base, src, [sa, sb, sc], d, out, m, p);
                } else {
                    half_lanes::<F, K, OUT, ALL>(base, src, [sa, sb, sc], d, out, m, p);
                }
            }
            let src = [&a_lo[blocks..], &b_lo[blocks..], &c_lo[blocks..]];
            half_lanes::<F, K, OUT, ALL>(blocks, src, [sa, sb, sc], tail, out, m, p);
        }
    }
}

/// [`ArithIo::wave_loop`]'s F16 lanes from lane `base` on, as many as
/// `dst` has: each source half read from its word, the result merged
/// into the destination word's half.
#[inline(always)]
fn half_lanes<F: Format, K: ArithKernel, const OUT: bool, const ALL: bool>(
    base: usize,
    src: [&[u32]; 3],
    shifts: [u32; 3],
    dst: &mut [u32],
    (keep, shift, exec): (u32, u32, u64),
    m: &[SourceMods<F>; 3],
    p: &LanePolicy<F>,
) {
    let three = K::OP.sources() == 3;
    let n = dst.len();
    let [a_lo, b_lo, c_lo] = src;
    let (a_lo, b_lo, c_lo) = (&a_lo[..n], &b_lo[..n], &c_lo[..n]);
    let [sa, sb, sc] = shifts;
    for i in 0..n {
        let c = sel(three, source::<F>(c_lo[i], 0, sc), F::Lane::ZERO);
        let s = [source::<F>(a_lo[i], 0, sa), source::<F>(b_lo[i], 0, sb), c];
        let r = K::lane::<F, OUT>(s, m, p).to_u64();
        let a = ALL || exec.wrapping_shr((base + i) as u32) & 1 != 0;
        dst[i] = sel(a, WaveIo::merge(dst[i], r, keep, shift), dst[i]);
    }
}

/// One whole block of [`ArithIo::wave_loop`]'s F16 lanes from lane
/// `base`, for three sources: their halves packed into u16 lanes, the
/// kernel over them, the results merged into the destination words'
/// halves. Every slice holds [`HALF_BLOCK`] lanes.
#[inline(always)]
fn half_block<F: Format, K: ArithKernel, const OUT: bool, const ALL: bool>(
    base: usize,
    src: [&[u32]; 3],
    shifts: [u32; 3],
    dst: &mut [u32],
    (keep, shift, exec): (u32, u32, u64),
    m: &[SourceMods<F>; 3],
    p: &LanePolicy<F>,
) {
    let dst = &mut dst[..HALF_BLOCK];
    let (a, b, c) = (
        halves(src[0], shifts[0]),
        halves(src[1], shifts[1]),
        halves(src[2], shifts[2]),
    );
    let mut r = [0u16; HALF_BLOCK];
    for j in 0..HALF_BLOCK {
        let s = [
            F::Lane::from_u64(u64::from(a[j])),
            F::Lane::from_u64(u64::from(b[j])),
            F::Lane::from_u64(u64::from(c[j])),
        ];
        r[j] = K::lane::<F, OUT>(s, m, p).to_u64() as u16;
    }
    for j in 0..HALF_BLOCK {
        let a = ALL || exec.wrapping_shr((base + j) as u32) & 1 != 0;
        let merged = WaveIo::merge(dst[j], u64::from(r[j]), keep, shift);
        dst[j] = sel(a, merged, dst[j]);
    }
}

impl<F: Format> ArithLanes<F> for ArithIo<'_> {
    #[inline(always)]
    fn count<K: ArithKernel>(&self) -> usize {
        self.lanes::<F, K>()
    }
    #[inline(always)]
    fn active(&self, i: usize) -> bool {
        self.exec.wrapping_shr(i as u32) & 1 != 0
    }
    #[inline(always)]
    fn load<K: ArithKernel>(&self, i: usize) -> [F::Lane; 3] {
        let word = |w: &[u32], lane: usize| w.get(lane).copied().unwrap_or(0);
        let from = match self.src0_lane {
            Some(index) => usize::from(index.get(i).copied().unwrap_or(64)),
            None => i,
        };
        let hi = |s: usize, lane: usize| {
            if F::WIDTH == 64 {
                word(self.src_hi[s], lane)
            } else {
                0
            }
        };
        let a = source::<F>(word(self.src_lo[0], from), hi(0, from), self.src_shift[0]);
        let b = source::<F>(word(self.src_lo[1], i), hi(1, i), self.src_shift[1]);
        let c = if K::OP.sources() == 3 {
            source::<F>(word(self.src_lo[2], i), hi(2, i), self.src_shift[2])
        } else {
            F::Lane::ZERO
        };
        [a, b, c]
    }
    #[inline(always)]
    fn store(&mut self, i: usize, r: F::Lane) {
        let r = r.to_u64();
        if F::WIDTH == 64 {
            if let (Some(lo), Some(hi)) = (self.dst_lo.get_mut(i), self.dst_hi.get_mut(i)) {
                *lo = r as u32;
                *hi = (r >> 32) as u32;
            }
        } else if F::WIDTH == 32 {
            if let Some(d) = self.dst_lo.get_mut(i) {
                *d = r as u32;
            }
        } else if let Some(d) = self.dst_lo.get_mut(i) {
            *d = WaveIo::merge(*d, r, self.dst_keep, self.dst_shift);
        }
    }
    #[inline(always)]
    fn wave<K: ArithKernel, const COMMON: bool, const OUT: bool>(
        &mut self,
        m: &[SourceMods<F>; 3],
        p: &LanePolicy<F>,
    ) {
        let (m, p) = lowered::<F, COMMON>(m, p);
        // DPP: src0 gathered across lanes first, in this variant too. The
        // copies exist only on that path (zeroing them costs every call).
        match self.src0_lane {
            Some(index) => {
                let (mut lo, mut hi) = (Words::ZERO, Words::ZERO);
                gather_words(index, self.src_lo[0], &mut lo.0);
                if F::WIDTH == 64 {
                    gather_words(index, self.src_hi[0], &mut hi.0);
                }
                // The gathered copies are 64 long; the own-lane slices were counted.
                self.wave_exec::<F, K, OUT>(&m, &p, (&lo.0[..], &hi.0[..]));
            }
            None => {
                let src0 = (self.src_lo[0], self.src_hi[0]);
                self.wave_exec::<F, K, OUT>(&m, &p, src0);
            }
        }
    }
}

impl ArithIo<'_> {
    /// [`ArithIo::wave_loop`] in its instantiation for EXEC.
    #[inline(always)]
    fn wave_exec<F: Format, K: ArithKernel, const OUT: bool>(
        &mut self,
        m: &[SourceMods<F>; 3],
        p: &LanePolicy<F>,
        src0: (&[u32], &[u32]),
    ) {
        let n = self.lanes::<F, K>();
        let all = n == 0 || self.exec | !(u64::MAX >> (64 - n)) == u64::MAX;
        // F16 in the low halves with every lane written (the common 16-bit
        // shape): the shifts and the kept half as constants.
        let low = F::WIDTH == 16
            && self.src_shift == [0; 3]
            && self.dst_shift == 0
            && self.dst_keep == LOW_KEEP;
        if all && low {
            self.wave_loop::<F, K, OUT, true, true>(m, p, src0)
        } else if all {
            self.wave_loop::<F, K, OUT, true, false>(m, p, src0)
        } else {
            self.wave_loop::<F, K, OUT, false, false>(m, p, src0)
        }
    }
}

/// Operation `K` over the lanes `L` under one policy and the sources'
/// ABS/NEG, as a [`WaveJob`].
#[derive(Debug)]
pub struct ArithJob<'a, K, F: Format, L> {
    lanes: &'a mut L,
    policy: &'a Policy,
    /// The sources' ABS/NEG packed by [`SourceModifiers::bits`]: one byte,
    /// stored and read whole (six bool stores then one wide load of them
    /// would miss store-to-load forwarding on every call).
    mods: u8,
    _op: PhantomData<(K, F)>,
}

impl<'a, K: ArithKernel, F: Format, L: ArithLanes<F>> ArithJob<'a, K, F, L> {
    /// The job of `K` over `lanes` under `policy` (its own ABS/NEG fields
    /// ignored) with each source's ABS/NEG `mods`, packed as
    /// [`SourceModifiers::bits`] packs them.
    #[inline(always)]
    pub fn new(lanes: &'a mut L, policy: &'a Policy, mods: u8) -> Self {
        ArithJob {
            lanes,
            policy,
            mods,
            _op: PhantomData,
        }
    }

    #[inline(always)]
    fn source_mods(&self) -> [SourceMods<F>; 3] {
        let m = SourceModifiers::from_bits(self.mods);
        [0, 1, 2].map(|i| SourceMods::<F>::new(m.abs[i], m.neg[i]))
    }
}

impl<K: ArithKernel, F: Format, L: ArithLanes<F>> WaveJob for ArithJob<'_, K, F, L> {
    #[inline(always)]
    fn wave(&mut self) {
        // The common case first, as in `run_wave`.
        if (self.mods == 0) & LanePolicy::<F>::is_common(self.policy) {
            let m = [SourceMods::new(false, false); 3];
            return self
                .lanes
                .wave::<K, true, false>(&m, &LanePolicy::<F>::common());
        }
        let lp = LanePolicy::<F>::new(self.policy);
        let m = self.source_mods();
        if lp.has_output_modifiers() {
            self.lanes.wave::<K, false, true>(&m, &lp)
        } else {
            self.lanes.wave::<K, false, false>(&m, &lp)
        }
    }

    fn scalar(&mut self) {
        let lp = LanePolicy::<F>::new(self.policy);
        let m = self.source_mods();
        for i in 0..self.lanes.count::<K>() {
            if self.lanes.active(i) {
                let s = self.lanes.load::<K>(i);
                self.lanes.store(i, one_lane::<K, F>(s, &m, &lp));
            }
        }
    }
}

/// One lane of the scalar path; never inlined, so the loop stays one lane
/// at a time.
#[inline(never)]
fn one_lane<K: ArithKernel, F: Format>(
    s: [F::Lane; 3],
    m: &[SourceMods<F>; 3],
    p: &LanePolicy<F>,
) -> F::Lane {
    if p.has_output_modifiers() {
        K::lane::<F, true>(s, m, p)
    } else {
        K::lane::<F, false>(s, m, p)
    }
}
