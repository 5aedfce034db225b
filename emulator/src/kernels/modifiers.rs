//! The steps every operation shares (docs/semantics.md §3, §5.4 and §6):
//! source modifiers, the input flush, rounding direction, overflow, OMOD and
//! CLAMP, written branch-free on a [`Lane`] of format `F`.
//!
//! The decisions that are the same for every lane (rounding, denormal bits,
//! OMOD, CLAMP, ABS/NEG) are lowered once per instruction into a
//! [`LanePolicy`] of masks and flags; each step is then total integer work
//! on the lane (wrapping arithmetic, shifts that give 0 past the width)
//! whose result is chosen by selects, so a loop over a wave's lanes
//! auto-vectorises and the same code runs one lane at a time.

use super::format::Format;
use super::lane::{sel, Lane};
use super::policy::{Omod, Policy, Round, SubNan, Tininess};

/// A constant of format `F` in its lane type.
#[inline(always)]
pub(super) fn k<F: Format>(v: u64) -> F::Lane {
    F::Lane::from_u64(v)
}

/// An exponent constant in the lane's signed type.
#[inline(always)]
pub(super) fn ke<F: Format>(v: i32) -> <F::Lane as Lane>::Exp {
    <F::Lane as Lane>::Exp::from(v)
}

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
    pub(super) keep_output_denorm: bool,
    /// LDEXP's flush_tiny (docs/semantics.md §5.3).
    pub(super) flush_tiny: bool,
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
    pub(super) nan_or: F::Lane,
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
    /// SUB/SUBREV negate a NaN subtrahend too (`sub_nan:
    /// negate_subtrahend`).
    pub(super) negate_nan_subtrahend: bool,
    /// Tininess is judged before rounding (`tininess: before_rounding`).
    pub(super) tiny_before_rounding: bool,
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
                p.negate_nan_subtrahend,
                p.tiny_before_rounding,
            ]
        };
        masks(self) == masks(o) && flags(self) == flags(o)
    }
}

impl<F: Format> LanePolicy<F> {
    /// Lower `p` for format `F`.
    #[inline]
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
            negate_nan_subtrahend: p.sub_nan == SubNan::NegateSubtrahend,
            tiny_before_rounding: p.tininess == Tininess::BeforeRounding,
        }
    }

    /// [`Policy::COMMON`] for the lanes. The loops are instantiated for it
    /// with every field a constant.
    #[inline(always)]
    pub fn common() -> LanePolicy<F> {
        LanePolicy::new(&Policy::COMMON)
    }

    /// Whether `p` lowers to [`LanePolicy::common`], decided on the policy's
    /// own fields (comparing lowered policies field by field would read
    /// back freshly stored bytes as vectors, a store-forwarding stall):
    /// one compare of [`Policy::lane_key`], about 14 instructions where
    /// eleven field compares took about 60 on the path to every loop.
    #[inline(always)]
    pub fn is_common(p: &Policy) -> bool {
        p.lane_key() == const { Policy::COMMON.lane_key() }
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
    pub(super) fn rounds_up(&self, negative: bool, odd: bool, guard: bool, sticky: bool) -> bool {
        let directed = sel(negative, self.up_negative, self.up_positive);
        (self.nearest & guard & (sticky | odd)) | (directed & (guard | sticky))
    }

    /// The rounding of a magnitude `sig` of sign `negative` to a multiple of
    /// 2^s, as `((sig + add) >> (s - 1) + bump) >> 1` (`half_less_one`:
    /// 2^(s-1) - 1; `odd`: the last kept bit, 0 or 1). Nearest-even adds
    /// half a unit less one, plus one when the kept value is odd (a tie
    /// rounds to even); a rounding of the magnitude up takes the ceiling at
    /// 2^(s-1) and then at 2^s; down adds nothing. Equals
    /// [`LanePolicy::rounds_up`] on the guard and sticky bits.
    #[inline(always)]
    pub(super) fn round_increment(
        &self,
        negative: bool,
        half_less_one: F::Lane,
        odd: F::Lane,
    ) -> (F::Lane, F::Lane) {
        let directed = sel(negative, self.up_negative, self.up_positive);
        let up = sel(directed, half_less_one, F::Lane::ZERO);
        (
            sel(self.nearest, half_less_one.add(odd), up),
            F::Lane::from_bool(!self.nearest & directed),
        )
    }

    /// FP_ROUND is toward -inf: an exact zero sum of nonzero terms is -0
    /// (ARITH §1.2).
    #[inline(always)]
    pub(super) fn toward_negative(&self) -> bool {
        self.up_negative
    }

    /// Overflow result for a value of sign `negative`: infinity or the
    /// largest finite value by FP_ROUND, or always the largest finite value
    /// when F16 overflow saturates (docs/semantics.md §5.4).
    #[inline(always)]
    pub(super) fn overflow(&self, negative: bool) -> F::Lane {
        sel(negative, self.overflow_negative, self.overflow_positive)
    }
}

/// Step 2: ABS clears the sign, then NEG flips it. Sign-bit operations only,
/// so a NaN payload is untouched.
#[inline(always)]
pub fn source_modifiers<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    (x & p.abs_and) ^ p.neg_xor
}

/// Step 3: a subnormal source becomes a zero of the same sign when input
/// denormals are not kept.
#[inline(always)]
pub fn flush_input<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let mag = x & k::<F>(F::ABS_MASK);
    let subnormal = (mag != F::Lane::ZERO) & (mag < k::<F>(F::MIN_NORMAL));
    sel(p.flush_input & subnormal, x & k::<F>(F::SIGN), x)
}

/// ABS and NEG of one source of a multi-source operation (ADD, MUL, FMA),
/// lowered to lane masks; a [`LanePolicy`] carries them for a single source.
#[derive(Clone, Copy, Debug)]
pub struct SourceMods<F: Format> {
    /// ABS: `ABS_MASK`, else all ones.
    abs_and: F::Lane,
    /// NEG: `SIGN`, else 0.
    neg_xor: F::Lane,
}

impl<F: Format> SourceMods<F> {
    /// The masks of ABS `abs` and NEG `neg`.
    #[inline]
    pub fn new(abs: bool, neg: bool) -> SourceMods<F> {
        SourceMods {
            abs_and: k::<F>(if abs { F::ABS_MASK } else { u64::MAX }),
            neg_xor: k::<F>(if neg { F::SIGN } else { 0 }),
        }
    }
}

/// Steps 2 and 3 for one source of a multi-source operation: its own ABS
/// and NEG, then the input flush of the result format.
#[inline(always)]
pub fn prepare_operand<F: Format>(x: F::Lane, m: &SourceMods<F>, p: &LanePolicy<F>) -> F::Lane {
    flush_input::<F>((x & m.abs_and) ^ m.neg_xor, p)
}

/// Steps 2 and 3 together: the source value an operation sees.
#[inline(always)]
pub fn prepare_source<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    flush_input::<F>(source_modifiers::<F>(x, p), p)
}

/// Step 5: OMOD on the rounded result (docs/semantics.md §6). The policy's
/// OMOD is already off where the target's gate keeps it off.
#[inline(always)]
pub fn apply_omod<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let man = ke::<F>(F::MAN as i32);
    let mag = x & k::<F>(F::ABS_MASK);
    let sign = x & k::<F>(F::SIGN);
    // NaN and infinity unchanged (not quieted here).
    let special = mag >= k::<F>(F::INF);
    let field = mag.shr(man);
    // div:2 of the smallest normals gives a zero of the input's sign [hw].
    let halved = sel(field == F::Lane::ONE, sign, x.sub(k::<F>(F::HIDDEN)));
    let raised = field.add(p.omod_steps) >= k::<F>(F::INF >> F::MAN);
    let doubled = sel(
        raised,
        p.overflow(sign != F::Lane::ZERO),
        x.add(p.omod_steps.shl(man)),
    );
    let scaled = sel(p.omod_div2, halved, doubled);
    // Zero or subnormal: +0, for negative inputs too [hw].
    let scaled = sel(mag < k::<F>(F::MIN_NORMAL), F::Lane::ZERO, scaled);
    sel(p.omod & !special, scaled, x)
}

/// Step 6: CLAMP to [+0, 1.0]; NaN becomes +0 when the policy says so.
#[inline(always)]
pub fn apply_clamp<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    let nan = (x & k::<F>(F::ABS_MASK)) > k::<F>(F::INF);
    let clamped = sel(
        x & k::<F>(F::SIGN) != F::Lane::ZERO,
        F::Lane::ZERO,
        x.min(k::<F>(F::ONE)),
    );
    let clamped = sel(nan, sel(p.clamp_nan_to_zero, F::Lane::ZERO, x), clamped);
    sel(p.clamp, clamped, x)
}

/// Steps 5 and 6.
#[inline(always)]
pub fn output_modifiers<F: Format>(x: F::Lane, p: &LanePolicy<F>) -> F::Lane {
    apply_clamp::<F>(apply_omod::<F>(x, p), p)
}
