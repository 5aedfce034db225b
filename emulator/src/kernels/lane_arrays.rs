//! FRACT and LDEXP over caller-owned arrays of encodings of any length,
//! under an optional EXEC mask: the lane API's container ([`LaneArrays`]).
//!
//! The kernel reads the caller's `u16`/`u32`/`u64` encodings and writes the
//! results straight into the destination: no register-word buffers, and one
//! dispatched call for the whole array (the loop runs inside the selected
//! instruction-set variant).

use super::format::Format;
use super::lane::sel;
use super::lane_loop::{load, store, Lanes};
use super::modifiers::LanePolicy;
use super::operation::Operation;

/// Lanes per EXEC word.
const EXEC_BITS: usize = 64;

/// Lanes as plain encodings of format `F`, with an EXEC mask: lane `i`
/// reads `src[i]` and (LDEXP) `exp[i]`, and writes `dst[i]` when bit
/// `i % 64` of `exec[i / 64]` is set (every lane when `exec` is `None`).
/// Inactive lanes keep their value.
///
/// The number of lanes is `dst.len()`. The caller guarantees `src` (and,
/// for LDEXP, `exp`) at least that long and `exec` at least
/// `ceil(dst.len() / 64)` words; a shorter one bounds the lanes processed
/// instead (nothing panics), the rest of `dst` left alone.
///
/// `exp[i]` is the exponent operand's register word: F32 and F64 read all
/// 32 bits, F16 bits 15:0 as a signed 16-bit integer, as the hardware
/// reads its 16-bit operand.
#[derive(Debug)]
pub struct LaneArrays<'a, F: Format> {
    /// Source encodings.
    pub src: &'a [F::Bits],
    /// LDEXP's exponent register words (unused, may be empty, for FRACT).
    pub exp: &'a [i32],
    /// Result encodings.
    pub dst: &'a mut [F::Bits],
    /// The EXEC words, lane `i` in bit `i % 64` of word `i / 64`; `None`:
    /// every lane is active.
    pub exec: Option<&'a [u64]>,
}

impl<F: Format> LaneArrays<'_, F> {
    /// The exponent operand of a register word (see the type's doc).
    #[inline(always)]
    pub fn exponent(word: i32) -> i32 {
        if F::WIDTH == 16 {
            i32::from(word as i16)
        } else {
            word
        }
    }
}

/// One lane's result from its source and exponent word.
#[inline(always)]
fn lane<O: Operation, F: Format, const OUT: bool>(
    s: F::Bits,
    e: i32,
    p: &LanePolicy<F>,
) -> F::Bits {
    let e = if O::HAS_EXPONENT {
        LaneArrays::<F>::exponent(e)
    } else {
        0
    };
    store::<F>(O::lane::<F, OUT>(load::<F>(s), e, p))
}

/// Every lane of `dst` from `src` and `exp` (FRACT: `exp` unread), all
/// active. No closures: they would not inherit the caller's target
/// features.
#[inline(always)]
fn all_lanes<O: Operation, F: Format, const OUT: bool>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    p: &LanePolicy<F>,
) {
    if O::HAS_EXPONENT {
        for ((d, &s), &e) in dst.iter_mut().zip(src).zip(exp) {
            *d = lane::<O, F, OUT>(s, e, p);
        }
    } else {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = lane::<O, F, OUT>(s, 0, p);
        }
    }
}

/// The lanes of one EXEC word (at most 64), the active ones written.
#[inline(always)]
fn masked_lanes<O: Operation, F: Format, const OUT: bool>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    exec: u64,
    p: &LanePolicy<F>,
) {
    let n = dst.len().min(src.len()).min(EXEC_BITS);
    let n = if O::HAS_EXPONENT { n.min(exp.len()) } else { n };
    let (src, dst) = (&src[..n], &mut dst[..n]);
    // FRACT reads no exponent: the source stands in for it.
    let exp = if O::HAS_EXPONENT { &exp[..n] } else { &[] };
    for i in 0..n {
        let e = if O::HAS_EXPONENT { exp[i] } else { 0 };
        let r = lane::<O, F, OUT>(src[i], e, p);
        dst[i] = sel(exec >> i & 1 != 0, r, dst[i]);
    }
}

impl<F: Format> Lanes<F> for LaneArrays<'_, F> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.dst.len()
    }
    #[inline(always)]
    fn active(&self, i: usize) -> bool {
        match self.exec {
            None => true,
            Some(words) => words
                .get(i / EXEC_BITS)
                .is_some_and(|w| w >> (i % EXEC_BITS) & 1 != 0),
        }
    }
    #[inline(always)]
    fn load<O: Operation>(&self, i: usize) -> (F::Lane, i32) {
        let s = self.src.get(i).copied().unwrap_or_default();
        let e = if O::HAS_EXPONENT {
            LaneArrays::<F>::exponent(self.exp.get(i).copied().unwrap_or(0))
        } else {
            0
        };
        (load::<F>(s), e)
    }
    #[inline(always)]
    fn store(&mut self, i: usize, r: F::Lane) {
        if let Some(d) = self.dst.get_mut(i) {
            *d = store::<F>(r);
        }
    }
    #[inline(always)]
    fn wave<O: Operation, const COMMON: bool, const OUT: bool>(&mut self, p: &LanePolicy<F>) {
        // For the common policy, a constant LLVM folds into the lane code.
        let p = if COMMON {
            LanePolicy::<F>::common()
        } else {
            *p
        };
        let Some(exec) = self.exec else {
            all_lanes::<O, F, OUT>(self.src, self.exp, self.dst, &p);
            return;
        };
        let exp_chunks = self
            .exp
            .chunks(EXEC_BITS)
            .map(Some)
            .chain(core::iter::repeat(None));
        let chunks = self
            .dst
            .chunks_mut(EXEC_BITS)
            .zip(self.src.chunks(EXEC_BITS))
            .zip(exp_chunks)
            .zip(exec);
        for (((d, s), e), &word) in chunks {
            let e = e.unwrap_or(&[]);
            let full = if d.len() == EXEC_BITS {
                u64::MAX
            } else {
                (1u64 << d.len()) - 1
            };
            if word & full == full {
                all_lanes::<O, F, OUT>(s, e, d, &p);
            } else if word & full != 0 {
                masked_lanes::<O, F, OUT>(s, e, d, word, &p);
            }
        }
    }
}
