//! The DPP gather (docs/semantics.md §11): every lane's source word picked
//! from a 64-lane register by a table of source lanes, before the kernel
//! runs. A pure bit move: no value is looked at.
//!
//! [`gather`] uses in-register permutes where the CPU has them (x86_64
//! AVX-512 or AVX2, detected at run time) and the portable loop
//! [`gather_portable`] elsewhere; all give the same words for every table
//! (tested below). A leaf module: it imports nothing of the crate.
//!
//! With `dispatch` and `pairs`, this module holds the crate's `unsafe`:
//! the vector gathers' unaligned loads and stores, and calling them after
//! the run-time feature check.

#![allow(unsafe_code)]

/// A register's 64 words on a 64-byte boundary: where a gathered source
/// is staged for the kernel loop, whose vector loads then neither straddle
/// a cache line nor span two of the gather's stores.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct Words(pub [u32; 64]);

impl Words {
    /// Every word 0.
    pub const ZERO: Words = Words([0; 64]);
}

/// `all[index[i]]` for every lane `i`, or 0 when `index[i]` is 64 or more.
#[inline(always)]
pub fn gather(index: &[u8; 64], all: &[u32; 64], out: &mut [u32; 64]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F, the one feature `x86::gather512`
        // enables.
        unsafe { x86::gather512(index, all, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one feature `x86::gather` enables.
        unsafe { x86::gather(index, all, out) };
        return;
    }
    gather_portable(index, all, out);
}

/// [`gather`] one lane at a time, without branches.
#[inline(always)]
pub fn gather_portable(index: &[u8; 64], all: &[u32; 64], out: &mut [u32; 64]) {
    for (o, &s) in out.iter_mut().zip(index) {
        *o = all[usize::from(s & 63)] & u32::from(s < 64).wrapping_neg();
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m128i, __m256i, __m512i, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_ps,
        _mm256_castps_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi8, _mm256_cmpgt_epi32,
        _mm256_cvtepu8_epi32, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_permutevar8x32_epi32, _mm256_set1_epi32, _mm256_set1_epi8, _mm256_setr_epi8,
        _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi16, _mm256_storeu_si256,
        _mm512_cmple_epu32_mask, _mm512_cvtepu8_epi32, _mm512_loadu_si512, _mm512_mask_blend_epi32,
        _mm512_maskz_mov_epi32, _mm512_permutex2var_epi32, _mm512_set1_epi32, _mm512_storeu_si512,
        _mm512_test_epi32_mask, _mm_loadl_epi64, _mm_loadu_si128,
    };

    /// [`super::gather`] for any table in whole registers: each group of 16
    /// lanes is two two-register permutes (words 0-31 and 32-63, picked by
    /// bits 4:0 of the index), a blend by bit 5, and the lanes whose index
    /// is 64 or more zeroed. Each group is stored as one 64-byte register,
    /// as the kernel loop that reads `out` loads it.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) fn gather512(index: &[u8; 64], all: &[u32; 64], out: &mut [u32; 64]) {
        // SAFETY: `all` holds 64 words: four loads of 16 (unaligned loads
        // are allowed).
        let [w0, w1, w2, w3] = core::array::from_fn::<__m512i, 4, _>(|k| unsafe {
            _mm512_loadu_si512(all.as_ptr().add(16 * k).cast())
        });
        let bit5 = _mm512_set1_epi32(32);
        let last = _mm512_set1_epi32(63);
        for (idx, dst) in index.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
            // SAFETY: `idx` holds 16 bytes, the one 16-byte load.
            let lanes = _mm512_cvtepu8_epi32(unsafe { _mm_loadu_si128(idx.as_ptr().cast()) });
            let low = _mm512_permutex2var_epi32(w0, lanes, w1);
            let high = _mm512_permutex2var_epi32(w2, lanes, w3);
            let words = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(lanes, bit5), low, high);
            let inside = _mm512_cmple_epu32_mask(lanes, last);
            // SAFETY: `dst` holds 16 words, the 64 bytes stored (unaligned
            // stores are allowed).
            unsafe {
                _mm512_storeu_si512(
                    dst.as_mut_ptr().cast(),
                    _mm512_maskz_mov_epi32(inside, words),
                );
            }
        }
    }

    /// Whether every lane of a 32-lane half of the table (`first_row`:
    /// its first row, 0 or 2) reads its own row of 16 lanes or nothing
    /// (an index of 64 or more).
    #[target_feature(enable = "avx2")]
    fn in_rows(i: __m256i, first_row: i8) -> bool {
        let r = first_row;
        let row = _mm256_and_si256(_mm256_srli_epi16::<4>(i), _mm256_set1_epi8(0x0f));
        #[rustfmt::skip]
        let want = _mm256_setr_epi8(
            r, r, r, r, r, r, r, r, r, r, r, r, r, r, r, r,
            r + 1, r + 1, r + 1, r + 1, r + 1, r + 1, r + 1, r + 1,
            r + 1, r + 1, r + 1, r + 1, r + 1, r + 1, r + 1, r + 1,
        );
        let zero = _mm256_setzero_si256();
        let below_64 = _mm256_cmpeq_epi8(_mm256_and_si256(i, _mm256_set1_epi8(-64)), zero);
        let fine = _mm256_or_si256(
            _mm256_cmpeq_epi8(row, want),
            _mm256_cmpeq_epi8(below_64, zero),
        );
        _mm256_movemask_epi8(fine) == -1
    }

    /// [`super::gather`] with in-register permutes. DPP sources stay in
    /// their row of 16 lanes for every control but `wave_*` and
    /// `row_bcast`: then each group of eight lanes is two permutes of its
    /// row's words and a blend. Any other table takes the portable loop.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn gather(index: &[u8; 64], all: &[u32; 64], out: &mut [u32; 64]) {
        // SAFETY: `index` holds 64 bytes, the two 32-byte loads.
        let (i0, i1) = unsafe {
            (
                _mm256_loadu_si256(index.as_ptr().cast::<__m256i>()),
                _mm256_loadu_si256(index.as_ptr().add(32).cast::<__m256i>()),
            )
        };
        if !(in_rows(i0, 0) && in_rows(i1, 2)) {
            return super::gather_portable(index, all, out);
        }
        let last = _mm256_set1_epi32(63);
        for (g, (idx, dst)) in index
            .chunks_exact(8)
            .zip(out.chunks_exact_mut(8))
            .enumerate()
        {
            let row = g / 2;
            // SAFETY: `idx` holds 8 bytes and each row 16 words: the loads
            // read no further (unaligned loads are allowed).
            let (lanes, low, high) = unsafe {
                (
                    _mm256_cvtepu8_epi32(_mm_loadl_epi64(idx.as_ptr().cast::<__m128i>())),
                    _mm256_loadu_si256(all.as_ptr().add(16 * row).cast::<__m256i>()),
                    _mm256_loadu_si256(all.as_ptr().add(16 * row + 8).cast::<__m256i>()),
                )
            };
            let low = _mm256_permutevar8x32_epi32(low, lanes);
            let high = _mm256_permutevar8x32_epi32(high, lanes);
            // Bit 3 of the index picks the row's upper eight words.
            let upper = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(lanes));
            let words = _mm256_castps_si256(_mm256_blendv_ps(
                _mm256_castsi256_ps(low),
                _mm256_castsi256_ps(high),
                upper,
            ));
            let past = _mm256_cmpgt_epi32(lanes, last);
            // SAFETY: `dst` holds 8 words, the 32 bytes stored (unaligned
            // stores are allowed).
            unsafe {
                _mm256_storeu_si256(
                    dst.as_mut_ptr().cast::<__m256i>(),
                    _mm256_andnot_si256(past, words),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift: varied tables without a dependency.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// The gather of every accelerated path this CPU has, and of
    /// [`gather`] itself, each by name.
    fn accelerated(index: &[u8; 64], all: &[u32; 64]) -> Vec<(&'static str, [u32; 64])> {
        let mut out = Vec::new();
        let mut words = [0u32; 64];
        gather(index, all, &mut words);
        out.push(("gather", words));
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                let mut words = [0u32; 64];
                // SAFETY: the CPU has AVX-512F.
                unsafe { x86::gather512(index, all, &mut words) };
                out.push(("avx512", words));
            }
            if std::is_x86_feature_detected!("avx2") {
                let mut words = [0u32; 64];
                // SAFETY: the CPU has AVX2.
                unsafe { x86::gather(index, all, &mut words) };
                out.push(("avx2", words));
            }
        }
        out
    }

    fn words() -> [u32; 64] {
        let mut all = [0u32; 64];
        for (i, w) in all.iter_mut().enumerate() {
            *w = 0x1000_0000 | i as u32;
        }
        all
    }

    #[test]
    fn reversed_table_with_lanes_past_the_wave() {
        // Crosses rows: the portable loop on AVX2 machines.
        let mut index = [0u8; 64];
        for (i, s) in index.iter_mut().enumerate() {
            *s = match i {
                10 => 64,
                11 => 255,
                _ => 63 - i as u8,
            };
        }
        let mut portable = [0xdead_beef; 64];
        gather_portable(&index, &words(), &mut portable);
        let paths = accelerated(&index, &words());
        for (name, out) in [("portable", portable)].into_iter().chain(paths) {
            for (i, &o) in out.iter().enumerate() {
                let want = match i {
                    10 | 11 => 0,
                    _ => 0x1000_0000 | (63 - i as u32),
                };
                assert_eq!(o, want, "{name}, lane {i}");
            }
        }
    }

    #[test]
    fn row_shift_table() {
        // row_shr:1 with lane 0 of every row zero-filled: the in-row path
        // on AVX2 machines.
        let mut index = [0u8; 64];
        for (i, s) in index.iter_mut().enumerate() {
            *s = if i % 16 == 0 { 64 } else { i as u8 - 1 };
        }
        let mut portable = [0xdead_beef; 64];
        gather_portable(&index, &words(), &mut portable);
        let paths = accelerated(&index, &words());
        for (name, out) in [("portable", portable)].into_iter().chain(paths) {
            for (i, &o) in out.iter().enumerate() {
                let want = if i % 16 == 0 {
                    0
                } else {
                    0x1000_0000 | (i as u32 - 1)
                };
                assert_eq!(o, want, "{name}, lane {i}");
            }
        }
    }

    #[test]
    fn accelerated_and_portable_agree() {
        let mut s = 0x9e37_79b9_7f4a_7c15;
        for round in 0..4000 {
            let mut all = [0u32; 64];
            for w in &mut all {
                *w = next(&mut s) as u32;
            }
            let mut index = [0u8; 64];
            for (i, b) in index.iter_mut().enumerate() {
                let r = next(&mut s);
                *b = match (round % 4, r % 8) {
                    // Anywhere, sometimes past the lanes.
                    (0, _) => (r % 80) as u8,
                    // Past the lanes.
                    (_, 0) => 64 + (r >> 8) as u8 % 192,
                    // Now and then a lane leaves its row.
                    (1, 1) if r >> 20 & 63 == 0 => (r >> 8) as u8 & 63,
                    // In the lane's row.
                    _ => (i & !15) as u8 | (r >> 8) as u8 & 15,
                };
            }
            let mut want = [1u32; 64];
            gather_portable(&index, &all, &mut want);
            for (name, got) in accelerated(&index, &all) {
                assert_eq!(got, want, "{name}, table {index:?}");
            }
        }
    }
}
