//! F64 operands in register pairs (docs/semantics.md §3): a block of
//! [`PAIR_BLOCK`] lanes' encodings joined from their low and high words,
//! and results split back into them. A pure bit move: no value is looked
//! at.
//!
//! The loops over register words run the F64 kernels a block at a time on
//! the joined encodings. LLVM's own code for the join and the split (a
//! zero extension, a shift and an OR per word in, a truncation and a
//! shift per word out, with lane-crossing fixes) cost more than the
//! kernel's loads and stores: on Zen 4 with AVX-512 the bare LDEXP F64
//! kernel takes 61 ns per 64 lanes, the same loop on register words 79
//! ns, and 60 ns with both conversions removed. Where the CPU has
//! AVX-512 (detected at run time) each conversion is two two-register
//! permutes per block; elsewhere the portable loops below, which give the
//! same words (tested below). A leaf module: it imports nothing of the
//! crate.
//!
//! With `dispatch` and `gather`, this module holds the crate's `unsafe`:
//! the vector loads and stores, and calling them after the run-time
//! feature check.

#![allow(unsafe_code)]

/// The lanes of one block.
pub const PAIR_BLOCK: usize = 16;

/// The encodings of a block's lanes: lane `j` is `hi[j]:lo[j]`.
#[inline(always)]
pub fn join(lo: &[u32; PAIR_BLOCK], hi: &[u32; PAIR_BLOCK]) -> [u64; PAIR_BLOCK] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F, the one feature `x86::join512`
        // enables.
        return unsafe { x86::join512(lo, hi) };
    }
    join_portable(lo, hi)
}

/// [`join`] one lane at a time.
#[inline(always)]
pub fn join_portable(lo: &[u32; PAIR_BLOCK], hi: &[u32; PAIR_BLOCK]) -> [u64; PAIR_BLOCK] {
    let mut out = [0; PAIR_BLOCK];
    for ((o, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
        *o = u64::from(h) << 32 | u64::from(l);
    }
    out
}

/// The words of a block's results `r`, written where `active` has lane
/// `j`'s bit `j` set (`ALL`: every lane, `active` ignored): `lo[j]` takes
/// bits 31:0 of `r[j]` and `hi[j]` bits 63:32; the other lanes' words are
/// kept.
#[inline(always)]
pub fn split<const ALL: bool>(
    r: &[u64; PAIR_BLOCK],
    active: u16,
    lo: &mut [u32; PAIR_BLOCK],
    hi: &mut [u32; PAIR_BLOCK],
) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F, the one feature `x86::split512`
        // enables.
        return unsafe { x86::split512::<ALL>(r, active, lo, hi) };
    }
    split_portable::<ALL>(r, active, lo, hi);
}

/// [`split`] one lane at a time, without branches.
#[inline(always)]
pub fn split_portable<const ALL: bool>(
    r: &[u64; PAIR_BLOCK],
    active: u16,
    lo: &mut [u32; PAIR_BLOCK],
    hi: &mut [u32; PAIR_BLOCK],
) {
    for (j, ((&r, l), h)) in r.iter().zip(lo).zip(hi).enumerate() {
        let keep = if ALL {
            0
        } else {
            u32::from(active >> j & 1 == 0).wrapping_neg()
        };
        *l = (*l & keep) | (r as u32 & !keep);
        *h = (*h & keep) | ((r >> 32) as u32 & !keep);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_mask_storeu_epi32, _mm512_permutex2var_epi32,
        _mm512_setr_epi32, _mm512_storeu_si512,
    };

    /// The lanes of one block ([`super::PAIR_BLOCK`]).
    const PAIR_BLOCK: usize = super::PAIR_BLOCK;

    /// Word `k` of the first register is index `k`, of the second `16 + k`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn indices(first: [i32; 16]) -> __m512i {
        let [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] = first;
        _mm512_setr_epi32(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)
    }

    /// [`super::join`]: lanes 0-7 interleave words 0-7 of `lo` and `hi`,
    /// lanes 8-15 words 8-15, one two-register permute each.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn join512(lo: &[u32; PAIR_BLOCK], hi: &[u32; PAIR_BLOCK]) -> [u64; PAIR_BLOCK] {
        // SAFETY: `lo` and `hi` hold 16 words each, the 64 bytes loaded
        // (unaligned loads are allowed).
        let (l, h) = unsafe {
            (
                _mm512_loadu_si512(lo.as_ptr().cast()),
                _mm512_loadu_si512(hi.as_ptr().cast()),
            )
        };
        let first = indices([0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]);
        let second = indices([8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31]);
        let mut out = [0u64; PAIR_BLOCK];
        let (a, b) = out.split_at_mut(PAIR_BLOCK / 2);
        // SAFETY: `a` and `b` hold 8 u64 each, the 64 bytes stored
        // (unaligned stores are allowed).
        unsafe {
            _mm512_storeu_si512(
                a.as_mut_ptr().cast(),
                _mm512_permutex2var_epi32(l, first, h),
            );
            _mm512_storeu_si512(
                b.as_mut_ptr().cast(),
                _mm512_permutex2var_epi32(l, second, h),
            );
        }
        out
    }

    /// [`super::split`]: the even words of the two halves of `r` are
    /// `lo`, the odd words `hi`, one two-register permute each, stored
    /// under the lane mask `active` unless `ALL`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn split512<const ALL: bool>(
        r: &[u64; PAIR_BLOCK],
        active: u16,
        lo: &mut [u32; PAIR_BLOCK],
        hi: &mut [u32; PAIR_BLOCK],
    ) {
        let (a, b) = r.split_at(PAIR_BLOCK / 2);
        // SAFETY: `a` and `b` hold 8 u64 each, the 64 bytes loaded.
        let (a, b) = unsafe {
            (
                _mm512_loadu_si512(a.as_ptr().cast()),
                _mm512_loadu_si512(b.as_ptr().cast()),
            )
        };
        let even = indices([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]);
        let odd = indices([1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31]);
        let (l, h) = (
            _mm512_permutex2var_epi32(a, even, b),
            _mm512_permutex2var_epi32(a, odd, b),
        );
        // SAFETY: `lo` and `hi` hold 16 words each, the 64 bytes stored
        // (under a mask: only the active lanes' words).
        unsafe {
            if ALL {
                _mm512_storeu_si512(lo.as_mut_ptr().cast(), l);
                _mm512_storeu_si512(hi.as_mut_ptr().cast(), h);
            } else {
                _mm512_mask_storeu_epi32(lo.as_mut_ptr().cast(), active, l);
                _mm512_mask_storeu_epi32(hi.as_mut_ptr().cast(), active, h);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words whose every byte differs, so a word from the wrong lane or
    /// half shows.
    fn words(seed: u32) -> [u32; PAIR_BLOCK] {
        core::array::from_fn(|j| seed.wrapping_mul(0x0101_0101) ^ (j as u32 * 0x1111_1111))
    }

    #[test]
    fn join_puts_each_high_word_above_its_low_word() {
        let lo: [u32; 16] = core::array::from_fn(|j| 0x1000 + j as u32);
        let hi: [u32; 16] = core::array::from_fn(|j| 0xa000_0000 + j as u32);
        let want: [u64; 16] =
            core::array::from_fn(|j| (0xa000_0000_0000_1000u64) + ((j as u64) << 32) + j as u64);
        assert_eq!(join(&lo, &hi), want);
        assert_eq!(join_portable(&lo, &hi), want);
    }

    #[test]
    fn split_writes_the_active_lanes_halves_and_keeps_the_others() {
        let r: [u64; 16] =
            core::array::from_fn(|j| 0xb000_0000_c000_0000 | (j as u64) << 36 | j as u64);
        for active in [0xffffu16, 0, 0x8001, 0x5a5a, 0x0ff0] {
            let want_lo: [u32; 16] = core::array::from_fn(|j| {
                if active >> j & 1 == 1 {
                    0xc000_0000 | j as u32
                } else {
                    0x7777_0000 | j as u32
                }
            });
            let want_hi: [u32; 16] = core::array::from_fn(|j| {
                if active >> j & 1 == 1 {
                    0xb000_0000 | (j as u32) << 4
                } else {
                    0x6666_0000 | j as u32
                }
            });
            let old_lo: [u32; 16] = core::array::from_fn(|j| 0x7777_0000 | j as u32);
            let old_hi: [u32; 16] = core::array::from_fn(|j| 0x6666_0000 | j as u32);
            let (mut lo, mut hi) = (old_lo, old_hi);
            split::<false>(&r, active, &mut lo, &mut hi);
            assert_eq!((lo, hi), (want_lo, want_hi), "{active:#x}");
            let (mut lo, mut hi) = (old_lo, old_hi);
            split_portable::<false>(&r, active, &mut lo, &mut hi);
            assert_eq!((lo, hi), (want_lo, want_hi), "portable {active:#x}");
        }
        let (mut lo, mut hi) = ([0; 16], [0; 16]);
        split::<true>(&r, 0, &mut lo, &mut hi);
        let (mut plo, mut phi) = ([0; 16], [0; 16]);
        split_portable::<true>(&r, 0, &mut plo, &mut phi);
        assert_eq!((lo, hi), (plo, phi));
        assert_eq!(lo[5], 0xc000_0005);
        assert_eq!(hi[5], 0xb000_0050);
    }

    #[test]
    fn split_undoes_join() {
        for seed in 0..64 {
            let (lo, hi) = (words(seed), words(seed ^ 0x55));
            let joined = join(&lo, &hi);
            let (mut l, mut h) = ([0; 16], [0; 16]);
            split::<true>(&joined, 0xffff, &mut l, &mut h);
            assert_eq!((l, h), (lo, hi));
        }
    }
}
