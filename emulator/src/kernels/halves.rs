//! F16 operands in register words: the block of lanes the F16
//! register-word loops (`lane_loop`, `arith_loop`) take at a time, and the
//! packing of a block's 16-bit fields into `u16` lanes.
//!
//! An F16 operand is one half of a 32-bit register word (bits 15:0, or
//! 31:16 for a true16 high half), and its result is merged into one half
//! of the destination word (docs/semantics.md §9). The loops run whole
//! blocks of [`HALF_BLOCK`] lanes (on AVX-512 two vectors of 16 words, the
//! shape of the bare kernel's loop over `u16` encodings), then the lanes
//! left over one by one.

/// Lanes an F16 register-word loop takes at a time.
pub(super) const HALF_BLOCK: usize = 32;

/// The 16-bit fields `words[j] >> shift` of one block of words (the
/// shift taken modulo 32, as the loops read a source), packed into `u16`
/// lanes; lanes past the end of a shorter `words` are 0.
#[inline(always)]
pub(super) fn halves(words: &[u32], shift: u32) -> [u16; HALF_BLOCK] {
    let mut h = [0u16; HALF_BLOCK];
    // No closure (`array::from_fn`): it would not inherit the caller's
    // target features.
    for (h, &w) in h.iter_mut().zip(words) {
        *h = w.wrapping_shr(shift) as u16;
    }
    h
}

/// The first lane after the whole blocks of `n` lanes.
#[inline(always)]
pub(super) fn whole_blocks(n: usize) -> usize {
    n - n % HALF_BLOCK
}
