//! V_FMA (and FMAC, FMAMK, FMAAK, whose operands the executor places):
//! src0 x src1 + src2 with ONE rounding (ARITH §1.1). The product is exact
//! in the wide lane (22, 48 or 106 bits) and the aligned sum is exact up
//! to a sticky bit (`round::aligned_sum`). Branch-free, as `fract.rs`.

use super::format::Format;
use super::lane::{sel, Lane};
use super::modifiers::{k, output_modifiers, prepare_operand, LanePolicy, SourceMods};
use super::round::{
    aligned_sum, normalised_to, product, round_wide_sum, scaled, unpack, widened, Exact,
};

/// FMA of one lane, steps 2 to 7 of ARITH §9 (sources in encoding order).
/// `OUT` as for [`super::fract::fract_lane`].
#[inline(always)]
pub fn fma_lane<F: Format, const OUT: bool>(
    src0: F::Lane,
    src1: F::Lane,
    src2: F::Lane,
    mods: &[SourceMods<F>; 3],
    p: &LanePolicy<F>,
) -> F::Lane {
    let a = prepare_operand::<F>(src0, &mods[0], p);
    let b = prepare_operand::<F>(src1, &mods[1], p);
    let c = prepare_operand::<F>(src2, &mods[2], p);
    let r = fma_rounded::<F>(a, b, c, p, 0);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Steps 4 to 6 on prepared sources: `a x b + c` rounded once and
/// output-flushed. A zero product has the sign a XOR b and adds to `c` by
/// the zero rules of ADD (ARITH §1.2).
/// `scale` as for [`super::add::add_rounded`].
#[inline(always)]
pub fn fma_rounded<F: Format>(
    a: F::Lane,
    b: F::Lane,
    c: F::Lane,
    p: &LanePolicy<F>,
    scale: i32,
) -> F::Lane {
    let zero = F::Lane::ZERO;
    let inf = k::<F>(F::INF);
    let abs = k::<F>(F::ABS_MASK);
    let (ma, mb, mc) = (a & abs, b & abs, c & abs);
    let product_sign = (a ^ b) & k::<F>(F::SIGN);
    // The product and the sum exact in the wide lane, rounded in the
    // format's lane. The sources are normalised in the format's lane (one
    // leading-zero count each) to leading bits at `half - 2`, so their
    // product has its leading bit at the wide lane's third-highest bit or
    // the one below with no shift, and the addend its at the third-highest
    // by a constant shift: the sum orders its terms by exponent alone
    // (`aligned_sum`), and zero terms are known from the sources, so
    // neither waits for the multiplication. The sum stays below the top
    // bit, so a negative difference is found by that bit alone.
    let (exact, zero_negative) = {
        let half = F::Wide::BITS as i32 / 2;
        let x = normalised_to::<F>(unpack::<F, F::Lane>(a), half - 2);
        let y = normalised_to::<F>(unpack::<F, F::Lane>(b), half - 2);
        let z = normalised_to::<F>(unpack::<F, F::Lane>(c), F::Lane::BITS as i32 - 3);
        // A zero term's exponent below every other, so it is never `big`.
        let below = <F::Lane as Lane>::Exp::from(i32::MIN / 2);
        let xy = product::<F>(x, y);
        let z = widened::<F>(z);
        aligned_sum(
            Exact {
                exp: sel((ma == zero) | (mb == zero), below, xy.exp),
                ..xy
            },
            Exact {
                exp: sel(mc == zero, below, z.exp),
                ..z
            },
            p.toward_negative(),
            false,
            true,
        )
    };
    let r = round_wide_sum::<F>(scaled(exact, scale), zero_negative, p);
    // The special cases (an infinite or NaN source) apart from the rounded
    // value and chosen once at the end, so their selects run beside the
    // arithmetic rather than after it. Infinite terms: an infinite
    // product, else an infinite addend, gives itself; inf - inf is invalid.
    // The addend is the infinity of the other sign exactly when it differs
    // from the product's infinity in the sign bit alone.
    let product_inf = (ma == inf) | (mb == inf);
    let signed_inf = product_sign | inf;
    let s = sel(product_inf, signed_inf, c);
    let cancel = product_inf & ((c ^ signed_inf) == k::<F>(F::SIGN));
    let s = sel(cancel, k::<F>(F::NEG_QUIET_NAN), s);
    // NaN sources in encoding order, quieted per the target.
    let s = sel(mc > inf, c | p.nan_or, s);
    let s = sel(mb > inf, b | p.nan_or, s);
    let s = sel(ma > inf, a | p.nan_or, s);
    // 0 x inf is invalid and wins over a NaN addend [hw gfx1100, gfx1201
    // F16 FMA] (a NaN src0 or src1 cannot be part of it).
    let zero_times_inf = ((ma == inf) & (mb == zero)) | ((ma == zero) & (mb == inf));
    let s = sel(zero_times_inf, k::<F>(F::NEG_QUIET_NAN), s);
    sel((ma >= inf) | (mb >= inf) | (mc >= inf), s, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::format::{F16, F32, F64};

    fn fma<F: Format>(a: u64, b: u64, c: u64) -> u64 {
        let m = [SourceMods::<F>::new(false, false); 3];
        let p = LanePolicy::<F>::common();
        let k = |x: u64| F::Lane::from_u64(x);
        fma_lane::<F, false>(k(a), k(b), k(c), &m, &p).to_u64()
    }

    /// The product's leading bit lands one below the wide lane's
    /// third-highest when the significands' product is below 2 (1.0 x
    /// 1.0), so with an addend one exponent lower the product is taken as
    /// the larger term although it is not: the difference comes out
    /// negative and is negated. Values by hand: 1 x 1 - 1.5 = -0.5,
    /// 1 x 1.5 - 2 = -0.5 (equal exponents), 1 x 1 - 1 = +0 (nearest).
    #[test]
    fn fma_negative_difference_of_ordered_terms() {
        assert_eq!(
            fma::<F32>(0x3f80_0000, 0x3f80_0000, 0xbfc0_0000),
            0xbf00_0000
        );
        assert_eq!(
            fma::<F32>(0x3f80_0000, 0x3fc0_0000, 0xc000_0000),
            0xbf00_0000
        );
        assert_eq!(fma::<F32>(0x3f80_0000, 0x3f80_0000, 0xbf80_0000), 0);
        assert_eq!(fma::<F16>(0x3c00, 0x3c00, 0xbe00), 0xb800);
        assert_eq!(fma::<F16>(0x3c00, 0x3e00, 0xc000), 0xb800);
        let (one, one_half, two) = (0x3ff0 << 48, 0x3ff8 << 48, 0x4000 << 48);
        let neg = F64::SIGN;
        assert_eq!(fma::<F64>(one, one, neg | one_half), neg | 0x3fe0 << 48);
        assert_eq!(fma::<F64>(one, one_half, neg | two), neg | 0x3fe0 << 48);
    }

    /// FMA under `p` (no source modifiers, no OMOD or CLAMP).
    fn fma_under<F: Format>(p: &crate::kernels::policy::Policy, a: u64, b: u64, c: u64) -> u64 {
        let m = [SourceMods::<F>::new(false, false); 3];
        let k = |x: u64| F::Lane::from_u64(x);
        fma_lane::<F, false>(k(a), k(b), k(c), &m, &LanePolicy::<F>::new(p)).to_u64()
    }

    /// The common policy with FP_ROUND `round` and output subnormals
    /// kept or flushed.
    fn policy(
        round: crate::kernels::policy::Round,
        keep_out: bool,
    ) -> crate::kernels::policy::Policy {
        use crate::kernels::policy::Policy;
        Policy {
            round,
            keep_output_denorm: keep_out,
            ..Policy::COMMON
        }
    }

    /// An exact zero sum takes its sign from the terms and FP_ROUND, a
    /// flushed tiny value from the value (the sum's sign is chosen once
    /// the rounding has the narrowed value). By hand, in F32: 1 x 1 + (-1)
    /// is +0, and -0 toward -inf; (-0) x 1 + (-0) is -0 (like signs keep
    /// theirs); (+0) x (-1) + (+0) is (-0) + (+0): +0, and -0 toward -inf.
    /// -2^-70 x 2^-70 + (+0) is -2^-140 exactly (2^-70 is 0x1c80_0000;
    /// 2^-140 = 2^9 x 2^-149, the subnormal 0x200): 0x8000_0200 with
    /// subnormals kept, and with them flushed the zero of the value's sign,
    /// 0x8000_0000, although a zero sum of these terms would be +0.
    #[test]
    fn fma_zero_sum_and_flushed_tiny_signs() {
        use crate::kernels::policy::Round::{NearestEven, TowardNegative};
        let (one, neg_one, neg_zero) = (0x3f80_0000, 0xbf80_0000, 0x8000_0000);
        let near = policy(NearestEven, true);
        let down = policy(TowardNegative, true);
        assert_eq!(fma_under::<F32>(&near, one, one, neg_one), 0);
        assert_eq!(fma_under::<F32>(&down, one, one, neg_one), neg_zero);
        assert_eq!(fma_under::<F32>(&near, neg_zero, one, neg_zero), neg_zero);
        assert_eq!(fma_under::<F32>(&near, 0, neg_one, 0), 0);
        assert_eq!(fma_under::<F32>(&down, 0, neg_one, 0), neg_zero);
        let (tiny, neg_tiny) = (0x1c80_0000, 0x9c80_0000);
        assert_eq!(fma_under::<F32>(&near, neg_tiny, tiny, 0), 0x8000_0200);
        let flush = policy(NearestEven, false);
        assert_eq!(fma_under::<F32>(&flush, neg_tiny, tiny, 0), neg_zero);
        // The same in F64: 2^-600 is 0x1a70 << 48 (1023 - 600 = 423 =
        // 0x1a7), 2^-1200 = 2^-1074 x 2^-126 is below the subnormal grid's
        // half unit: nearest gives -0 for the value, kept or flushed.
        let (t64, n64) = (0x1a70_u64 << 48, F64::SIGN | 0x1a70 << 48);
        assert_eq!(fma_under::<F64>(&near, n64, t64, 0), F64::SIGN);
        assert_eq!(fma_under::<F64>(&flush, n64, t64, 0), F64::SIGN);
    }

    /// inf - inf is invalid exactly when the addend is the infinity of
    /// the other sign; an infinity of the same sign, or a finite product
    /// with an infinite addend, gives that infinity; a NaN addend is
    /// quieted. By hand (F32, inf 0x7f80_0000): inf x 1 - inf and
    /// inf x -1 + inf are the negative canonical NaN 0xffc0_0000; inf x 1 +
    /// inf is +inf, -inf x -1 + inf is +inf, 2 x 3 - inf is -inf; inf x 1
    /// plus the signalling NaN 0xff80_0001 is it quieted, 0xffc0_0001.
    #[test]
    fn fma_inf_minus_inf_only_for_opposite_infinities() {
        let (inf, ninf, nan) = (0x7f80_0000, 0xff80_0000, 0xffc0_0000);
        let (one, neg_one) = (0x3f80_0000, 0xbf80_0000);
        assert_eq!(fma::<F32>(inf, one, ninf), nan);
        assert_eq!(fma::<F32>(inf, neg_one, inf), nan);
        assert_eq!(fma::<F32>(inf, one, inf), inf);
        assert_eq!(fma::<F32>(ninf, neg_one, inf), inf);
        assert_eq!(fma::<F32>(0x4000_0000, 0x4040_0000, ninf), ninf);
        assert_eq!(fma::<F32>(inf, one, 0xff80_0001), 0xffc0_0001);
    }

    /// Overflow to exactly the infinity's encoding: 2^127 x 2 = 2^128, the
    /// first value above the largest finite 0x7f7f_ffff (its rounded
    /// magnitude is 0x7f80_0000 itself), gives that largest value toward
    /// zero and inf to nearest; -2^128 toward +inf gives -max 0xff7f_ffff.
    /// The largest value plus half its ulp (2^103, 0x7300_0000) is a tie:
    /// toward zero it stays 0x7f7f_ffff, to nearest-even (the last bit
    /// odd) it rounds to 2^128, inf.
    #[test]
    fn fma_overflow_at_the_infinity_encoding() {
        use crate::kernels::policy::Round::{NearestEven, TowardPositive, TowardZero};
        let (p127, two, max, inf) = (0x7f00_0000, 0x4000_0000, 0x7f7f_ffff, 0x7f80_0000);
        let (near, zero) = (policy(NearestEven, true), policy(TowardZero, true));
        assert_eq!(fma_under::<F32>(&zero, p127, two, 0), max);
        assert_eq!(fma_under::<F32>(&near, p127, two, 0), inf);
        let up = policy(TowardPositive, true);
        assert_eq!(fma_under::<F32>(&up, 0xff00_0000, two, 0), 0xff7f_ffff);
        let one = 0x3f80_0000;
        assert_eq!(fma_under::<F32>(&zero, max, one, 0x7300_0000), max);
        assert_eq!(fma_under::<F32>(&near, max, one, 0x7300_0000), inf);
    }

    /// The lowest bit of the sticky region: an F64 product that is a tie
    /// but for its bit 42 (of 106), which the normalised wide sum holds at
    /// bit 64, the bit the narrowing to 63 bits shifts out. By hand: A =
    /// 0xffff_ffff x 2^21 and B = 0xffff_fbff x 2^21 (significands, so a =
    /// 0x3fff_ffff_ffe0_0000, b = 0x3fff_ffff_7fe0_0000), A x B = 2^42 x Q
    /// with Q = 0xffff_ffff x 0xffff_fbff = 1025 mod 4096: bit 0 of Q (the
    /// product's bit 42) set, bits 1 to 9 clear, bit 10 (the guard bit,
    /// product bit 52) set, bit 11 (the last kept bit) clear; the product
    /// has 106 bits, so it lies in [2, 4) and its 53 kept bits are
    /// 0x1f_ffff_7fc0_0000. Above the tie, so nearest rounds up:
    /// 0x400f_ffff_7fc0_0001 (a tie would stay on the even 0x...0000).
    #[test]
    fn fma_f64_sticky_bit_below_the_narrowing() {
        let (a, b) = (0x3fff_ffff_ffe0_0000, 0x3fff_ffff_7fe0_0000);
        assert_eq!(fma::<F64>(a, b, 0), 0x400f_ffff_7fc0_0001);
        assert_eq!(fma::<F64>(a, b, F64::SIGN), 0x400f_ffff_7fc0_0001);
    }

    /// Deep cancellation with the product taken as the larger term:
    /// (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 exactly; minus (1 + 2^-22) it is
    /// 2^-46 (exponent field 127 - 46 = 81: 0x2880_0000); minus
    /// (1 + 3 x 2^-23) it is -(2^-23 - 2^-46) = -(2 - 2^-22) x 2^-24,
    /// 23 significant bits: exponent field 103, fraction 22 ones and a 0
    /// (0x7f_fffe), so 0xb3ff_fffe.
    #[test]
    fn fma_deep_cancellation_keeps_the_product_low_bits() {
        assert_eq!(
            fma::<F32>(0x3f80_0001, 0x3f80_0001, 0xbf80_0002),
            0x2880_0000
        );
        assert_eq!(
            fma::<F32>(0x3f80_0001, 0x3f80_0001, 0xbf80_0003),
            0xb3ff_fffe
        );
    }
}
