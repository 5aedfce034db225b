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

#[cfg(test)]
mod tests {
    //! The F16 register-word loops on wave lengths around the block size
    //! (whole blocks, a short tail, both), with the operand and result in
    //! either half, on every instruction-set variant this CPU has and on
    //! the scalar path. The values are exact small numbers whose results
    //! are worked out by hand in binary16 (1 sign, 5 exponent bits biased
    //! by 15, 10 fraction bits), so no rounding is involved.

    use super::*;
    use crate::kernels::arith::{run_arith_on, ArithIo, ArithOp, SourceModifiers};
    use crate::kernels::dispatch::{self, Isa, KernelPath};
    use crate::kernels::format::F16;
    use crate::kernels::lane_loop::WaveIo;
    use crate::kernels::operation::{Fract, Ldexp, Operation};
    use crate::kernels::policy::Policy;

    /// Round to nearest even, subnormals kept, no OMOD, CLAMP or ABS/NEG
    /// (MODE 0xf0), signalling NaNs kept.
    fn plain() -> Policy {
        Policy {
            quiet_snan: false,
            ..Policy::COMMON
        }
    }

    /// Wave lengths: under a block, one block, a block and a tail, two
    /// blocks (wave64).
    const LENGTHS: [usize; 6] = [1, 31, 32, 33, 63, 64];

    /// Where the F16 operands and result sit and which lanes are written.
    #[derive(Clone, Copy, Debug)]
    struct Shape {
        /// 0: bits 15:0; 16: bits 31:16 (true16 high half).
        shift: u32,
        exec: u64,
    }

    /// The low halves with every lane written (the loops' constant
    /// instantiation), the low halves under a partial EXEC, and the high
    /// halves under a partial EXEC.
    const SHAPES: [Shape; 3] = [
        Shape {
            shift: 0,
            exec: u64::MAX,
        },
        Shape {
            shift: 0,
            exec: 0xb6db_6db6_db6d_b6db,
        },
        Shape {
            shift: 16,
            exec: 0x6db6_db6d_b6db_6db6,
        },
    ];

    /// A word holding `half` in the shape's half and junk in the other.
    fn word(s: Shape, half: u16, lane: usize) -> u32 {
        let junk = (lane as u32).wrapping_mul(0x9e37_79b9);
        let other = if s.shift == 0 { 0xffff_0000 } else { 0xffff };
        (junk & other) | u32::from(half) << s.shift
    }

    /// Lane `lane` of `old` after a result `r` in the shape's half.
    fn written(s: Shape, old: u32, r: u16, lane: usize) -> u32 {
        if s.exec >> lane & 1 == 0 {
            return old;
        }
        let keep = if s.shift == 0 { 0xffff_0000 } else { 0xffff };
        (old & keep) | u32::from(r) << s.shift
    }

    /// Every level this CPU has, then the scalar path.
    fn paths() -> impl Iterator<Item = Option<Isa>> {
        dispatch::available().map(Some).chain([None])
    }

    #[test]
    fn packs_either_half_of_each_word() {
        let mut words = [0u32; HALF_BLOCK];
        words[0] = 0x1234_5678;
        words[HALF_BLOCK - 1] = 0xabcd_ef01;
        let (lo, hi) = (halves(&words, 0), halves(&words, 16));
        assert_eq!((lo[0], lo[HALF_BLOCK - 1]), (0x5678, 0xef01));
        assert_eq!((hi[0], hi[HALF_BLOCK - 1]), (0x1234, 0xabcd));
        assert_eq!(halves(&words[..1], 0)[1], 0, "lanes past the words");
        assert_eq!(whole_blocks(63), 32);
        assert_eq!(whole_blocks(64), 64);
    }

    /// `O` over lanes alternating between two sources and exponents, each
    /// lane's result `want[lane % 2]`.
    fn check_op<O: Operation>(src: [u16; 2], exp: [i16; 2], want: [u16; 2]) {
        let p = plain();
        for n in LENGTHS {
            for s in SHAPES {
                let src_words: Vec<u32> = (0..n).map(|i| word(s, src[i % 2], i)).collect();
                let exp_words: Vec<u32> =
                    (0..n).map(|i| word(s, exp[i % 2] as u16, i + 5)).collect();
                let old: Vec<u32> = (0..n).map(|i| word(s, 0x7e00, i + 9)).collect();
                for path in paths() {
                    let mut dst = old.clone();
                    let mut io = WaveIo {
                        src_lo: &src_words,
                        src_hi: &[],
                        src_shift: s.shift,
                        exp: &exp_words,
                        exp_shift: s.shift,
                        dst_lo: &mut dst,
                        dst_hi: &mut [],
                        dst_keep: if s.shift == 0 { 0xffff_0000 } else { 0xffff },
                        dst_shift: s.shift,
                        exec: s.exec,
                    };
                    match path {
                        Some(isa) => assert!(dispatch::run_on::<O, F16, _>(isa, &mut io, &p)),
                        None => dispatch::run::<O, F16, _>(KernelPath::Scalar, &mut io, &p),
                    }
                    for (lane, (&got, &was)) in dst.iter().zip(&old).enumerate() {
                        let w = written(s, was, want[lane % 2], lane);
                        assert_eq!(
                            got,
                            w,
                            "{} {n} lanes {s:?} on {path:?}: lane {lane}",
                            O::NAME
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fract_f16_every_block_and_tail_lane_in_either_half() {
        // 1.5 = 0x3e00 (exponent 15, fraction 0x200): FRACT 0.5 = 0x3800;
        // 2.25 = 0x4080 (exponent 16, fraction 0x080): FRACT 0.25 = 0x3400.
        check_op::<Fract>([0x3e00, 0x4080], [0, 0], [0x3800, 0x3400]);
    }

    #[test]
    fn ldexp_f16_every_block_and_tail_lane_in_either_half() {
        // 1.0 = 0x3c00 times 2^3 = 8.0: exponent field 15 + 3 = 18, 0x4800;
        // 1.5 = 0x3e00 times 2^-1 = 0.75: exponent field 14, 0x3a00 (the
        // exponent operand -1 is the i16 0xffff in its half).
        check_op::<Ldexp>([0x3c00, 0x3e00], [3, -1], [0x4800, 0x3a00]);
    }

    /// `op` over lanes alternating between two source triples, each lane's
    /// result `want[lane % 2]`.
    fn check_arith(op: ArithOp, src: [[u16; 3]; 2], want: [u16; 2]) {
        let p = plain();
        for n in LENGTHS {
            for s in SHAPES {
                let operand = |k: usize| -> Vec<u32> {
                    (0..n).map(|i| word(s, src[i % 2][k], i + k)).collect()
                };
                let (a, b, c) = (operand(0), operand(1), operand(2));
                let old: Vec<u32> = (0..n).map(|i| word(s, 0x7e00, i + 9)).collect();
                for path in paths() {
                    let mut dst = old.clone();
                    let mut io = ArithIo {
                        src_lo: [&a, &b, &c],
                        src_hi: [&[], &[], &[]],
                        src_shift: [s.shift; 3],
                        src0_lane: None,
                        dst_lo: &mut dst,
                        dst_hi: &mut [],
                        dst_keep: if s.shift == 0 { 0xffff_0000 } else { 0xffff },
                        dst_shift: s.shift,
                        exec: s.exec,
                    };
                    let mods = SourceModifiers::default();
                    let ran = match path {
                        Some(isa) => {
                            run_arith_on::<F16>(KernelPath::Simd, Some(isa), op, &mut io, &p, mods)
                        }
                        None => {
                            run_arith_on::<F16>(KernelPath::Scalar, None, op, &mut io, &p, mods)
                        }
                    };
                    assert!(ran);
                    for (lane, (&got, &was)) in dst.iter().zip(&old).enumerate() {
                        let w = written(s, was, want[lane % 2], lane);
                        assert_eq!(got, w, "{op:?} {n} lanes {s:?} on {path:?}: lane {lane}");
                    }
                }
            }
        }
    }

    #[test]
    fn add_f16_every_block_and_tail_lane_in_either_half() {
        // 1.0 + 0.5 = 1.5: 0x3c00 + 0x3800 = 0x3e00; 2.0 + 0.25 = 2.25:
        // 0x4000 + 0x3400 = 0x4080 (exponent 16, fraction 0.125 = 0x080).
        let src = [[0x3c00, 0x3800, 0], [0x4000, 0x3400, 0]];
        check_arith(ArithOp::Add, src, [0x3e00, 0x4080]);
    }

    #[test]
    fn mul_f16_every_block_and_tail_lane_in_either_half() {
        // 1.5 x 2.0 = 3.0: exponent 16, fraction 0.5, 0x4200; 2.0 x 0.25 =
        // 0.5 = 0x3800.
        let src = [[0x3e00, 0x4000, 0], [0x4000, 0x3400, 0]];
        check_arith(ArithOp::Mul, src, [0x4200, 0x3800]);
    }

    #[test]
    fn fma_f16_every_block_and_tail_lane_in_either_half() {
        // 1.5 x 2.0 + 0.5 = 3.5: exponent 16, fraction 0.75, 0x4300;
        // 2.0 x 0.25 + 0.25 = 0.75: exponent 14, fraction 0.5, 0x3a00.
        let src = [[0x3e00, 0x4000, 0x3800], [0x4000, 0x3400, 0x3400]];
        check_arith(ArithOp::Fma, src, [0x4300, 0x3a00]);
    }
}
