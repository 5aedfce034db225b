//! F64 operands in register pairs (docs/semantics.md §3): a block of
//! lanes' encodings joined from their low and high words with in-register
//! permutes, and results split back into them. A pure bit move: no value
//! is looked at.
//!
//! Where the CPU has AVX-512 (detected at run time: [`permutes`]), the
//! F64 loops over register words run the kernel a block at a time on the
//! joined encodings; each conversion is two two-register permutes per 16
//! lanes. LLVM's own code for them (a zero extension, a shift and an OR
//! per word in, truncations, shifts and lane-crossing inserts out) cost
//! more than the kernel's loads and stores: on Zen 4 the bare LDEXP F64
//! kernel took 61 ns per 64 lanes, its loop on register words 79 ns, and
//! 60 ns with both conversions left out. Elsewhere the loops join and
//! split each lane's words themselves, as before: the blocks without the
//! permutes measured slower there at the x86-64-v2 and baseline levels.
//! A leaf module: it imports nothing of the crate.
//!
//! With `dispatch` and `gather`, this module holds the crate's `unsafe`:
//! the vector loads and stores, and calling them after the run-time
//! feature check.

#![allow(unsafe_code)]

/// The lanes one permute pair converts: a block is a multiple of it.
pub const PERMUTE_LANES: usize = 16;

/// The whole blocks of `N` lanes of a register pair's words: block `k`
/// holds lanes `N * k..N * (k + 1)` of `lo` and of `hi` (as many blocks
/// as the shorter has).
#[inline(always)]
pub fn blocks<'a, const N: usize>(
    lo: &'a [u32],
    hi: &'a [u32],
) -> impl Iterator<Item = (&'a [u32; N], &'a [u32; N])> {
    lo.as_chunks().0.iter().zip(hi.as_chunks().0)
}

/// [`blocks`] of a destination pair.
#[inline(always)]
pub fn blocks_mut<'a, const N: usize>(
    lo: &'a mut [u32],
    hi: &'a mut [u32],
) -> impl Iterator<Item = (&'a mut [u32; N], &'a mut [u32; N])> {
    lo.as_chunks_mut().0.iter_mut().zip(hi.as_chunks_mut().0)
}

/// Proof that this CPU has the permutes ([`permutes`]): the only way to
/// call them.
#[derive(Clone, Copy, Debug)]
pub struct Permutes(Private);

#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
struct Private;

/// No permutes off x86_64: a [`Permutes`] cannot be made.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
enum Private {}

/// The permutes, when this CPU has them (x86_64 with AVX-512F).
#[inline(always)]
pub fn permutes() -> Option<Permutes> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        return Some(Permutes(Private));
    }
    None
}

impl Permutes {
    /// The encodings of a block's `N` lanes (a multiple of
    /// [`PERMUTE_LANES`]): lane `j` is `hi[j]:lo[j]`.
    #[inline(always)]
    pub fn join<const N: usize>(self, lo: &[u32; N], hi: &[u32; N]) -> [u64; N] {
        const { assert!(N.is_multiple_of(PERMUTE_LANES)) };
        #[cfg(target_arch = "x86_64")]
        {
            let Permutes(Private) = self;
            // SAFETY: a `Permutes` exists only on a CPU with AVX-512F
            // (`permutes`), the one feature `x86::join512` enables.
            unsafe { x86::join512(lo, hi) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        match self.0 {}
    }

    /// The words of a block's `N` results `r` (a multiple of
    /// [`PERMUTE_LANES`]), written where `active` has lane `j`'s bit `j`
    /// set (`ALL`: every lane, `active` ignored): `lo[j]` takes bits 31:0
    /// of `r[j]` and `hi[j]` bits 63:32; the other lanes' words are kept.
    #[inline(always)]
    pub fn split<const N: usize, const ALL: bool>(
        self,
        r: &[u64; N],
        active: u64,
        lo: &mut [u32; N],
        hi: &mut [u32; N],
    ) {
        const { assert!(N.is_multiple_of(PERMUTE_LANES)) };
        #[cfg(target_arch = "x86_64")]
        {
            let Permutes(Private) = self;
            // SAFETY: as in `join`, for `x86::split512`.
            unsafe { x86::split512::<N, ALL>(r, active, lo, hi) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        match self.0 {}
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_storeu_epi32, _mm512_permutex2var_epi32,
        _mm512_setr_epi32, _mm512_storeu_si512,
    };

    /// The words of one register: the lanes one permute pair converts.
    const WORDS: usize = super::PERMUTE_LANES;

    /// Word `k` of the first register is index `k`, of the second `16 + k`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn indices(first: [i32; 16]) -> __m512i {
        let [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] = first;
        _mm512_setr_epi32(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)
    }

    /// [`super::Permutes::join`]: of each 16 lanes, lanes 0-7 interleave
    /// words 0-7 of `lo` and `hi` and lanes 8-15 words 8-15, one
    /// two-register permute each.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn join512<const N: usize>(lo: &[u32; N], hi: &[u32; N]) -> [u64; N] {
        let first = indices([0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]);
        let second = indices([8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31]);
        let mut out = [0u64; N];
        let (out16, _) = out.as_chunks_mut::<WORDS>();
        let (lo, _) = lo.as_chunks::<WORDS>();
        let (hi, _) = hi.as_chunks::<WORDS>();
        for ((o, lo), hi) in out16.iter_mut().zip(lo).zip(hi) {
            let (a, b) = o.split_at_mut(WORDS / 2);
            // SAFETY: `lo` and `hi` hold 16 words each, the 64 bytes
            // loaded; `a` and `b` 8 u64 each, the 64 bytes stored
            // (unaligned loads and stores are allowed).
            unsafe {
                let l = _mm512_loadu_si512(lo.as_ptr().cast());
                let h = _mm512_loadu_si512(hi.as_ptr().cast());
                let (x, y) = (
                    _mm512_permutex2var_epi32(l, first, h),
                    _mm512_permutex2var_epi32(l, second, h),
                );
                _mm512_storeu_si512(a.as_mut_ptr().cast(), x);
                _mm512_storeu_si512(b.as_mut_ptr().cast(), y);
            }
        }
        out
    }

    /// [`super::Permutes::split`]: of each 16 results, the even words of
    /// the two halves are `lo` and the odd words `hi`, one two-register
    /// permute each, stored under those lanes' bits of `active` unless
    /// `ALL`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn split512<const N: usize, const ALL: bool>(
        r: &[u64; N],
        active: u64,
        lo: &mut [u32; N],
        hi: &mut [u32; N],
    ) {
        let even = indices([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]);
        let odd = indices([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]);
        let (r, _) = r.as_chunks::<WORDS>();
        let (lo, _) = lo.as_chunks_mut::<WORDS>();
        let (hi, _) = hi.as_chunks_mut::<WORDS>();
        for (k, ((r, lo), hi)) in r.iter().zip(lo).zip(hi).enumerate() {
            let (a, b) = r.split_at(WORDS / 2);
            let mask = active.wrapping_shr((k * WORDS) as u32) as u16;
            // SAFETY: `a` and `b` hold 8 u64 each, the 64 bytes loaded;
            // `lo` and `hi` 16 words each, the 64 bytes stored (under a
            // mask: only the active lanes' words).
            unsafe {
                let (a, b) = (
                    _mm512_loadu_si512(a.as_ptr().cast()),
                    _mm512_loadu_si512(b.as_ptr().cast()),
                );
                let l = _mm512_permutex2var_epi32(a, even, b);
                let h = _mm512_permutex2var_epi32(a, odd, b);
                if ALL {
                    _mm512_storeu_si512(lo.as_mut_ptr().cast(), l);
                    _mm512_storeu_si512(hi.as_mut_ptr().cast(), h);
                } else {
                    _mm512_mask_storeu_epi32(lo.as_mut_ptr().cast(), mask, l);
                    _mm512_mask_storeu_epi32(hi.as_mut_ptr().cast(), mask, h);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The permutes on this CPU; on one without them there is nothing of
    /// this module to run, and `permutes` must say so.
    fn on_this_cpu() -> Option<Permutes> {
        let p = permutes();
        #[cfg(target_arch = "x86_64")]
        assert_eq!(p.is_some(), std::is_x86_feature_detected!("avx512f"));
        #[cfg(not(target_arch = "x86_64"))]
        assert!(p.is_none());
        p
    }

    #[test]
    fn join_puts_each_high_word_above_its_low_word() {
        let Some(p) = on_this_cpu() else {
            return;
        };
        let lo: [u32; 32] = core::array::from_fn(|j| 0x1000 + j as u32);
        let hi: [u32; 32] = core::array::from_fn(|j| 0xa000_0000 + j as u32);
        // Worked out by hand: lane 3 is 0xa0000003_00001003, lane 21
        // 0xa0000015_00001015.
        let joined = p.join(&lo, &hi);
        assert_eq!(joined[3], 0xa000_0003_0000_1003);
        assert_eq!(joined[21], 0xa000_0015_0000_1015);
        let want: [u64; 32] =
            core::array::from_fn(|j| 0xa000_0000_0000_1000 + ((j as u64) << 32) + j as u64);
        assert_eq!(joined, want);
        let (lo16, hi16) = (lo[..16].try_into().unwrap(), hi[..16].try_into().unwrap());
        assert_eq!(p.join::<16>(lo16, hi16)[..], want[..16]);
    }

    #[test]
    fn split_writes_the_active_lanes_halves_and_keeps_the_others() {
        let Some(p) = on_this_cpu() else {
            return;
        };
        // Lane j: 0xb000_0000 | j << 4 above 0xc000_0000 | j.
        let r: [u64; 32] =
            core::array::from_fn(|j| 0xb000_0000_c000_0000 | (j as u64) << 36 | j as u64);
        let old_lo: [u32; 32] = core::array::from_fn(|j| 0x7777_0000 | j as u32);
        let old_hi: [u32; 32] = core::array::from_fn(|j| 0x6666_0000 | j as u32);
        for active in [
            u64::MAX,
            0,
            0x8001_8001,
            0x5a5a_a5a5,
            0x0ff0_f00f,
            0xffff_0000,
        ] {
            let on = |j: usize| active >> j & 1 == 1;
            let want_lo: [u32; 32] = core::array::from_fn(|j| {
                if on(j) {
                    0xc000_0000 | j as u32
                } else {
                    old_lo[j]
                }
            });
            let want_hi: [u32; 32] = core::array::from_fn(|j| {
                if on(j) {
                    0xb000_0000 | (j as u32) << 4
                } else {
                    old_hi[j]
                }
            });
            let (mut lo, mut hi) = (old_lo, old_hi);
            p.split::<32, false>(&r, active, &mut lo, &mut hi);
            assert_eq!((lo, hi), (want_lo, want_hi), "{active:#x}");
        }
        let (mut lo, mut hi) = (old_lo, old_hi);
        p.split::<32, true>(&r, 0, &mut lo, &mut hi);
        assert_eq!((lo[5], hi[5]), (0xc000_0005, 0xb000_0050));
        assert_eq!((lo[31], hi[31]), (0xc000_001f, 0xb000_01f0));
    }

    #[test]
    fn split_undoes_join() {
        let Some(p) = on_this_cpu() else {
            return;
        };
        for seed in 0..64u32 {
            let words = |s: u32| -> [u32; 16] {
                core::array::from_fn(|j| s.wrapping_mul(0x0101_0101) ^ (j as u32 * 0x1111_1111))
            };
            let (lo, hi) = (words(seed), words(seed ^ 0x55));
            let (mut l, mut h) = ([0; 16], [0; 16]);
            p.split::<16, true>(&p.join(&lo, &hi), 0, &mut l, &mut h);
            assert_eq!((l, h), (lo, hi));
        }
    }
}
