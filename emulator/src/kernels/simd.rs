//! Whole-wave FRACT and LDEXP: the rules of `fract.rs` and `ldexp.rs`
//! (docs/semantics.md §3 to §6) rewritten branch-free, so that a loop over
//! the lanes of a wave auto-vectorises on stable Rust.
//!
//! Every lane evaluates every case with total integer operations (wrapping
//! arithmetic, shift amounts modulo the width) and the result is chosen by
//! selects; there is no early return and no data-dependent branch. The
//! decisions that are the same for every lane (rounding, denormal bits,
//! OMOD, CLAMP, ABS/NEG) are lowered once per instruction into a
//! [`LanePolicy`] of masks and flags. The per-lane scalar kernels stay the
//! reference: the two must agree bit for bit on every input (tested
//! exhaustively for F16, by seeded random search for F32/F64).
//!
//! Encodings are loaded into [`Format::Lane`] (`u32` for F16 and F32, `u64`
//! for F64) so that data, exponents and compare masks share one vector shape.

use super::format::Format;
use super::lane::{sel, Lane};
use super::policy::{Omod, Policy, Round};
use super::wave::{Operation, WaveIo};

/// A [`Policy`] lowered to lane constants for format `F`, built once per
/// instruction.
#[derive(Clone, Copy, Debug)]
pub struct LanePolicy<F: Format> {
    /// ABS: `ABS_MASK`, else all ones.
    abs_and: F::Lane,
    /// NEG: `SIGN`, else 0.
    neg_xor: F::Lane,
    /// Input subnormals become signed zeros.
    flush_input: bool,
    /// Output subnormals are kept (FRACT of a small positive subnormal).
    keep_output_denorm: bool,
    /// LDEXP's flush_tiny (docs/semantics.md §5.3).
    flush_tiny: bool,
    /// FP_ROUND is nearest-even.
    nearest: bool,
    /// An inexact positive value rounds its magnitude up (toward +inf).
    up_positive: bool,
    /// An inexact negative value rounds its magnitude up (toward -inf).
    up_negative: bool,
    /// Overflow result of a positive value (docs/semantics.md §5.4).
    overflow_positive: F::Lane,
    /// Overflow result of a negative value.
    overflow_negative: F::Lane,
    /// `QUIET_BIT` when signalling NaNs are quieted, else 0.
    nan_or: F::Lane,
    /// OMOD or CLAMP is present: run the output-modifier step at all.
    output_modifiers: bool,
    /// OMOD is effective.
    omod: bool,
    /// OMOD is div:2 (else mul:2 or mul:4).
    omod_div2: bool,
    /// Exponent steps of mul:2 (1) or mul:4 (2).
    omod_steps: F::Lane,
    /// CLAMP requested.
    clamp: bool,
    /// CLAMP turns NaN into +0.
    clamp_nan_to_zero: bool,
}

impl<F: Format> PartialEq for LanePolicy<F> {
    fn eq(&self, o: &Self) -> bool {
        // Every field (a derive would demand `F: PartialEq`).
        let masks = |p: &Self| {
            [
                p.abs_and,
                p.neg_xor,
                p.overflow_positive,
                p.overflow_negative,
                p.nan_or,
                p.omod_steps,
            ]
        };
        let flags = |p: &Self| {
            [
                p.flush_input,
                p.keep_output_denorm,
                p.flush_tiny,
                p.nearest,
                p.up_positive,
                p.up_negative,
                p.output_modifiers,
                p.omod,
                p.omod_div2,
                p.clamp,
                p.clamp_nan_to_zero,
            ]
        };
        masks(self) == masks(o) && flags(self) == flags(o)
    }
}

/// A constant of format `F` in its lane type.
#[inline(always)]
fn k<F: Format>(v: u64) -> F::Lane {
    F::Lane::from_u64(v)
}

/// An exponent constant in the lane's signed type.
#[inline(always)]
fn ke<F: Format>(v: i32) -> <F::Lane as Lane>::Exp {
    <F::Lane as Lane>::Exp::from(v)
}

impl<F: Format> LanePolicy<F> {
    /// Lower `p` for format `F`.
    pub fn new(p: &Policy) -> LanePolicy<F> {
        let overflow = |negative: bool| {
            let sign = if negative { F::SIGN } else { 0 };
            let to_inf = !p.saturate_overflow
                && match p.round {
                    Round::NearestEven => true,
                    Round::TowardPositive => !negative,
                    Round::TowardNegative => negative,
                    Round::TowardZero => false,
                };
            k::<F>(sign | if to_inf { F::INF } else { F::MAX })
        };
        LanePolicy {
            abs_and: k::<F>(if p.abs { F::ABS_MASK } else { u64::MAX }),
            neg_xor: k::<F>(if p.neg { F::SIGN } else { 0 }),
            flush_input: !p.keep_input_denorm,
            keep_output_denorm: p.keep_output_denorm,
            flush_tiny: p.flush_tiny(),
            nearest: p.round == Round::NearestEven,
            up_positive: p.round == Round::TowardPositive,
            up_negative: p.round == Round::TowardNegative,
            overflow_positive: overflow(false),
            overflow_negative: overflow(true),
            nan_or: k::<F>(if p.quiet_snan { F::QUIET_BIT } else { 0 }),
            output_modifiers: p.omod != Omod::None || p.clamp,
            omod: p.omod != Omod::None,
            omod_div2: p.omod == Omod::Div2,
            omod_steps: k::<F>(if p.omod == Omod::Mul4 { 2 } else { 1 }),
            clamp: p.clamp,
            // Irrelevant without CLAMP: normalised so equal behaviour
            // compares equal (see `common`).
            clamp_nan_to_zero: p.clamp && p.clamp_nan_to_zero,
        }
    }

    /// The most common policy: nearest-even, subnormals kept, signalling
    /// NaNs quieted, no modifiers (MODE 0xf0 on gfx1201, no OMOD/CLAMP).
    /// The loops are instantiated for it with every field a constant.
    #[inline(always)]
    pub fn common() -> LanePolicy<F> {
        LanePolicy::new(&Policy {
            round: Round::NearestEven,
            keep_input_denorm: true,
            keep_output_denorm: true,
            saturate_overflow: false,
            omod: Omod::None,
            omod_decision: super::policy::OmodDecision::Absent,
            clamp: false,
            clamp_nan_to_zero: false,
            quiet_snan: true,
            abs: false,
            neg: false,
        })
    }

    /// Whether `p` lowers to [`LanePolicy::common`], decided on the policy's
    /// own fields (comparing lowered policies field by field would read
    /// back freshly stored bytes as vectors, a store-forwarding stall).
    #[inline(always)]
    pub fn is_common(p: &Policy) -> bool {
        (p.round == Round::NearestEven)
            & p.keep_input_denorm
            & p.keep_output_denorm
            & !p.saturate_overflow
            & (p.omod == Omod::None)
            & !p.clamp
            & p.quiet_snan
            & !p.abs
            & !p.neg
    }

    /// Whether OMOD or CLAMP must run (selects the kernel instantiation).
    #[inline(always)]
    pub fn has_output_modifiers(&self) -> bool {
        self.output_modifiers
    }

    /// Whether a magnitude with kept last bit `odd`, first discarded bit
    /// `guard` and lower discarded bits `sticky` rounds up, for a value of
    /// sign `negative` (`Round::rounds_up`, as masks).
    #[inline(always)]
    fn rounds_up(&self, negative: bool, odd: bool, guard: bool, sticky: bool) -> bool {
        let directed = sel(negative, self.up_negative, self.up_positive);
        (self.nearest & guard & (sticky | odd)) | (directed & (guard | sticky))
    }

    /// Overflow result for a value of sign `negative`.
    #[inline(always)]
    fn overflow(&self, negative: bool) -> F::Lane {
        sel(negative, self.overflow_negative, self.overflow_positive)
    }
}

/// Steps 2 and 3: ABS, NEG and the input flush.
#[inline(always)]
fn prepare_source<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let x = (x & p.abs_and) ^ p.neg_xor;
    let mag = x & k::<F>(F::ABS_MASK);
    let subnormal = (mag != F::Lane::ZERO) & (mag < k::<F>(F::MIN_NORMAL));
    sel(p.flush_input & subnormal, x & k::<F>(F::SIGN), x)
}

/// Steps 5 and 6: OMOD on the rounded result, then CLAMP.
#[inline(always)]
fn output_modifiers<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let man = ke::<F>(F::MAN as i32);
    let mag = x & k::<F>(F::ABS_MASK);
    let sign = x & k::<F>(F::SIGN);
    let special = mag >= k::<F>(F::INF);

    // OMOD: NaN and infinity unchanged, zero and subnormal +0 [hw].
    let field = mag.shr(man);
    let halved = sel(field == F::Lane::ONE, sign, x.sub(k::<F>(F::HIDDEN)));
    let raised = field.add(p.omod_steps) >= k::<F>(F::INF >> F::MAN);
    let doubled = sel(
        raised,
        p.overflow(sign != F::Lane::ZERO),
        x.add(p.omod_steps.shl(man)),
    );
    let scaled = sel(p.omod_div2, halved, doubled);
    let scaled = sel(mag < k::<F>(F::MIN_NORMAL), F::Lane::ZERO, scaled);
    let x = sel(p.omod & !special, scaled, x);

    // CLAMP to [+0, 1.0]; NaN to +0 when the policy says so.
    let nan = (x & k::<F>(F::ABS_MASK)) > k::<F>(F::INF);
    let clamped = sel(
        x & k::<F>(F::SIGN) != F::Lane::ZERO,
        F::Lane::ZERO,
        x.min(k::<F>(F::ONE)),
    );
    let clamped = sel(nan, sel(p.clamp_nan_to_zero, F::Lane::ZERO, x), clamped);
    sel(p.clamp, clamped, x)
}

/// FRACT of one lane (steps 2 to 6), branch-free. `OUT` instantiates the
/// output-modifier step; it must be true whenever `p` has OMOD or CLAMP.
#[inline(always)]
pub fn fract_lane<F: Format, const OUT: bool>(src: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let r = fract_rounded::<F>(prepare_source::<F>(src, p), p);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Step 4 of FRACT on a prepared source; mirrors `fract::fract_rounded`.
#[inline(always)]
fn fract_rounded<F: Format>(s: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let zero = F::Lane::ZERO;
    let one = F::Lane::ONE;
    let man = ke::<F>(F::MAN as i32);
    let bias = ke::<F>(F::BIAS);
    let mag = s & k::<F>(F::ABS_MASK);
    // Negative and nonzero: -0 takes the positive path, whose result for
    // a zero magnitude is +0 (as for +0).
    let negative = s > k::<F>(F::SIGN);
    let field = mag.shr(man).to_exp();
    let subnormal_field = field == ke::<F>(0);
    // Unbiased exponent; a subnormal has the smallest normal's exponent and
    // no hidden bit.
    let e = field.max(ke::<F>(1)) - bias;
    let sig = (mag & k::<F>(F::MAN_MASK)) | sel(subnormal_field, zero, k::<F>(F::HIDDEN));

    // |x| >= 0.5: the exact fraction bits, renormalised. An integer
    // (e >= MAN) has no fraction bits, so frac is 0 and the result +0 in
    // every rounding mode [gfx1201 capture].
    let frac_bits = (man - e).max(ke::<F>(0));
    let unit = one.shl(frac_bits);
    let frac = sig & unit.sub(one);
    let r = sel(negative, unit.sub(frac), frac);
    let top = ke::<F>(F::Lane::BITS as i32 - 1) - r.lz();
    let exact =
        r.shl(man - top) & k::<F>(F::MAN_MASK) | F::Lane::from_exp(e - man + top + bias).shl(man);
    let exact = sel(frac == zero, zero, exact);

    // Positive, |x| < 0.5: x itself; a subnormal x meets the output flush.
    // +-0 gives +0 [gfx1201 capture].
    let small_positive = sel(subnormal_field & !p.keep_output_denorm, zero, mag);

    // Negative, |x| < 0.5: 1 - |x| rounded once in units of 2^-(MAN+1).
    // |x| * 2^(MAN+1) = sig / 2^shift, so 1 - |x| keeps
    // 2^(MAN+1) - ceil(sig / 2^shift) units and discards the low `shift`
    // bits of -sig, left-aligned here so that the top bit is the guard bit.
    let shift = (ke::<F>(-1) - e).min(ke::<F>(F::MAN as i32 + 3));
    let discarded = zero.sub(sig).shl(ke::<F>(F::Lane::BITS as i32) - shift);
    let top_bit = k::<F>(1 << (F::Lane::BITS - 1));
    let inexact = discarded != zero;
    let guard = discarded >= top_bit;
    let sticky = discarded & !top_bit != zero;
    let kept = k::<F>(1 << (F::MAN + 1))
        .sub(sig.shr(shift))
        .sub(F::Lane::from_bool(inexact));
    // The result is positive: toward zero acts as toward -inf.
    let up = p.rounds_up(false, kept & one != zero, guard, sticky);
    // kept + up is in [2^MAN, 2^(MAN+1)]: exponent -1 with its hidden bit,
    // or exactly 1.0, which is capped at 1 - ulp [gfx1201, all formats].
    let small_negative = kept
        .add(F::Lane::from_bool(up))
        .add(k::<F>(((F::BIAS - 2) as u64) << F::MAN))
        .min(k::<F>(F::ONE_MINUS_ULP));

    let r = sel(
        e >= ke::<F>(-1),
        exact,
        sel(negative, small_negative, small_positive),
    );
    // NaN keeps sign and payload (quieted); either infinity gives the
    // negative quiet NaN [gfx1201 capture].
    let special = sel(
        mag == k::<F>(F::INF),
        k::<F>(F::NEG_QUIET_NAN),
        s | p.nan_or,
    );
    sel(mag >= k::<F>(F::INF), special, r)
}

/// LDEXP of one lane by `exp` (steps 2 to 6), branch-free. `OUT` as for
/// [`fract_lane`].
#[inline(always)]
pub fn ldexp_lane<F: Format, const OUT: bool>(
    src: F::Lane,
    exp: i32,
    p: &LanePolicy<F>,
) -> F::Lane {
    let r = ldexp_rounded::<F>(prepare_source::<F>(src, p), exp, p);
    if OUT {
        output_modifiers::<F>(r, p)
    } else {
        r
    }
}

/// Step 4 of LDEXP on a prepared source; mirrors `ldexp::ldexp_rounded`.
#[inline(always)]
fn ldexp_rounded<F: Format>(s: F::Lane, exp: i32, p: &LanePolicy<F>) -> F::Lane {
    let zero = F::Lane::ZERO;
    let one = F::Lane::ONE;
    let man = ke::<F>(F::MAN as i32);
    let mag = s & k::<F>(F::ABS_MASK);
    let sign = s & k::<F>(F::SIGN);
    let negative = sign != zero;
    let field = mag.shr(man).to_exp();
    // Normalise: |s| = sig * 2^(e - MAN), sig in [2^MAN, 2^(MAN+1)). The
    // shift is 0 for a normal source.
    let norm = (mag.lz() - ke::<F>((F::Lane::BITS - 1 - F::MAN) as i32)).max(ke::<F>(0));
    let hidden = sel(field == ke::<F>(0), zero, k::<F>(F::HIDDEN));
    let sig = ((mag & k::<F>(F::MAN_MASK)) | hidden).shl(norm);
    let e = field.max(ke::<F>(1)) - ke::<F>(F::BIAS) - norm;
    // Shifts beyond +-(EMAX + MAN + 3) saturate; the same clamp as the
    // scalar kernel.
    let limit = F::EMAX + F::MAN as i32 + 3;
    let n = e + <F::Lane as Lane>::Exp::from(exp.clamp(-4 * limit, 4 * limit));

    // In the normal range the result is exact.
    let normal =
        sign | F::Lane::from_exp(n + ke::<F>(F::BIAS)).shl(man) | (sig & k::<F>(F::MAN_MASK));
    // Tiny, judged at full precision: flushed to a signed zero, or rounded
    // to a subnormal (a carry may reach the smallest normal).
    let shift = (ke::<F>(F::EMIN) - n).min(ke::<F>(F::MAN as i32 + 3));
    let kept = sig.shr(shift);
    let guard = sig.shr(shift - ke::<F>(1)) & one != zero;
    let sticky = sig & one.shl(shift - ke::<F>(1)).sub(one) != zero;
    let up = p.rounds_up(negative, kept & one != zero, guard, sticky);
    let tiny = sel(p.flush_tiny, sign, sign | kept.add(F::Lane::from_bool(up)));

    let r = sel(
        n > ke::<F>(F::EMAX),
        p.overflow(negative),
        sel(n >= ke::<F>(F::EMIN), normal, tiny),
    );
    // Infinities and zeros pass through; a NaN is quieted.
    let r = sel((mag == zero) | (mag == k::<F>(F::INF)), s, r);
    sel(mag > k::<F>(F::INF), s | p.nan_or, r)
}

/// Load an encoding into its lane.
#[inline(always)]
fn load<F: Format>(b: F::Bits) -> F::Lane {
    F::Lane::from_u64(F::widen(b))
}

/// Store a lane back to an encoding.
#[inline(always)]
fn store<F: Format>(l: F::Lane) -> F::Bits {
    F::narrow(l.to_u64())
}

/// The three instantiations of a loop: the common policy with every field
/// a compile-time constant, any policy without OMOD/CLAMP, and any policy.
macro_rules! instantiate {
    ($p:expr, $run:ident :: <$f:ty>($($arg:expr),*)) => {{
        let p: &Policy = $p;
        let lp = LanePolicy::<$f>::new(p);
        if LanePolicy::<$f>::is_common(p) {
            $run::<$f, true, false>($($arg,)* &lp)
        } else if lp.has_output_modifiers() {
            $run::<$f, false, true>($($arg,)* &lp)
        } else {
            $run::<$f, false, false>($($arg,)* &lp)
        }
    }};
}

/// FRACT over `min(src, dst)` lanes.
#[inline(always)]
pub fn fract_wave<F: Format>(src: &[F::Bits], dst: &mut [F::Bits], p: &Policy) {
    instantiate!(p, fract_loop::<F>(src, dst));
}

#[inline(always)]
fn fract_loop<F: Format, const COMMON: bool, const OUT: bool>(
    src: &[F::Bits],
    dst: &mut [F::Bits],
    p: &LanePolicy<F>,
) {
    // For the common policy, a constant LLVM folds into the lane code.
    let p = if COMMON {
        LanePolicy::<F>::common()
    } else {
        *p
    };
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = store::<F>(fract_lane::<F, OUT>(load::<F>(s), &p));
    }
}

/// LDEXP over `min(src, exp, dst)` lanes.
#[inline(always)]
pub fn ldexp_wave<F: Format>(src: &[F::Bits], exp: &[i32], dst: &mut [F::Bits], p: &Policy) {
    instantiate!(p, ldexp_loop::<F>(src, exp, dst));
}

#[inline(always)]
fn ldexp_loop<F: Format, const COMMON: bool, const OUT: bool>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    p: &LanePolicy<F>,
) {
    let p = if COMMON {
        LanePolicy::<F>::common()
    } else {
        *p
    };
    for ((d, &s), &e) in dst.iter_mut().zip(src).zip(exp) {
        *d = store::<F>(ldexp_lane::<F, OUT>(load::<F>(s), e, &p));
    }
}

/// Every lane of `io` (at most 64): read the source words, run operation
/// `O`, and merge the results into the destination words of the active
/// lanes, in one branch-free loop.
#[inline(always)]
pub fn io_wave<O: Operation, F: Format>(io: &mut WaveIo<'_>, p: &Policy) {
    let lp = LanePolicy::<F>::new(p);
    let n = io.dst_lo.len();
    let all = if n >= 64 {
        io.exec == u64::MAX
    } else {
        io.exec & ((1u64 << n) - 1) == (1u64 << n) - 1
    };
    let common = LanePolicy::<F>::is_common(p);
    let out = lp.has_output_modifiers();
    match (common, out, all) {
        (true, _, true) => io_loop::<O, F, true, false, true>(io, &lp),
        (true, _, false) => io_loop::<O, F, true, false, false>(io, &lp),
        (false, true, true) => io_loop::<O, F, false, true, true>(io, &lp),
        (false, true, false) => io_loop::<O, F, false, true, false>(io, &lp),
        (false, false, true) => io_loop::<O, F, false, false, true>(io, &lp),
        (false, false, false) => io_loop::<O, F, false, false, false>(io, &lp),
    }
}

/// The loop of [`io_wave`]: `COMMON` and `OUT` as for the other loops;
/// `ALL` when every lane is active (EXEC then needs no select).
#[inline(always)]
fn io_loop<O: Operation, F: Format, const COMMON: bool, const OUT: bool, const ALL: bool>(
    io: &mut WaveIo<'_>,
    p: &LanePolicy<F>,
) {
    let p = if COMMON {
        LanePolicy::<F>::common()
    } else {
        *p
    };
    let n = io.dst_lo.len();
    let src_lo = &io.src_lo[..n];
    // Unused slices stand in for the ones a format or operation lacks.
    let src_hi = if F::WIDTH == 64 {
        &io.src_hi[..n]
    } else {
        src_lo
    };
    let exp = if O::HAS_EXPONENT {
        &io.exp[..n]
    } else {
        src_lo
    };
    let (src_shift, exp_shift) = (io.src_shift, io.exp_shift);
    let (keep, shift, exec) = (io.dst_keep, io.dst_shift, io.exec);
    // No closures here: they would not inherit the caller's target features.
    if F::WIDTH == 64 {
        let dst_hi = &mut io.dst_hi[..n];
        let dst_lo = &mut io.dst_lo[..n];
        for i in 0..n {
            let r = io_lane::<O, F, OUT>(src_lo[i], src_hi[i], src_shift, exp[i], exp_shift, &p);
            let a = ALL || exec.wrapping_shr(i as u32) & 1 != 0;
            dst_lo[i] = sel(a, r as u32, dst_lo[i]);
            dst_hi[i] = sel(a, (r >> 32) as u32, dst_hi[i]);
        }
    } else {
        let dst = &mut io.dst_lo[..n];
        for i in 0..n {
            let r = io_lane::<O, F, OUT>(src_lo[i], src_hi[i], src_shift, exp[i], exp_shift, &p);
            let a = ALL || exec.wrapping_shr(i as u32) & 1 != 0;
            dst[i] = sel(a, WaveIo::merge(dst[i], r, keep, shift), dst[i]);
        }
    }
}

/// One lane of [`io_loop`]: the source and exponent from their words, the
/// result widened.
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
    O::simd_lane::<F, OUT>(x, e, p).to_u64()
}

#[cfg(test)]
#[path = "simd_tests.rs"]
mod tests;
