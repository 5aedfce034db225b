//! Which rule of the arithmetic contract (docs/semantics.md §12) decided
//! a lane of ADD, SUB, SUBREV, MUL or FMA, and what its one rounding did:
//! the words `explain` gives. Written from the rules, one lane in scalar
//! integers (the exact value in a `u128` with a sticky bit); it only
//! describes a case, the result bits always come from the kernels.

use super::arith_kernel::ArithOp;
use super::format::Format;
use super::policy::{Policy, Tininess};

/// The rule that decided a lane, before OMOD and CLAMP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithCase {
    /// 0 x inf in the product (MUL, FMA): the negative canonical NaN,
    /// winning over a NaN addend.
    InvalidZeroTimesInf,
    /// inf - inf in the sum: the negative canonical NaN.
    InvalidInfMinusInf,
    /// The first NaN in encoding order: the source slot (0, 1, 2).
    Nan(usize),
    /// An infinite source makes the result infinite.
    Infinite,
    /// The exact result is zero: its sign by the zero rules.
    ExactZero,
    /// A finite nonzero exact result, rounded once.
    Rounded(ArithRounding),
}

/// What the one rounding of a finite nonzero exact result did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArithRounding {
    /// The exact result was not representable.
    pub inexact: bool,
    /// Its magnitude was rounded up.
    pub rounded_up: bool,
    /// Tiny: rounded to the precision with an unbounded exponent, nonzero
    /// and below the smallest normal (tininess after rounding; before
    /// rounding under `tininess: before_rounding`, the exact value).
    pub tiny: bool,
    /// Tiny and flushed to the zero of its sign (output flush or OMOD).
    pub flushed: bool,
    /// Above the largest finite value once rounded to the precision.
    pub overflow: bool,
}

/// A finite encoding's exact value: sign, integer significand, weight of
/// its last bit.
#[derive(Clone, Copy, Debug)]
struct Exact {
    negative: bool,
    sig: u128,
    exp: i32,
}

fn unpack<F: Format>(x: u64) -> Exact {
    let mag = x & F::ABS_MASK;
    let field = (mag >> F::MAN) as i32;
    let hidden = if field == 0 { 0 } else { F::HIDDEN };
    Exact {
        negative: x & F::SIGN != 0,
        sig: u128::from((mag & F::MAN_MASK) | hidden),
        exp: field.max(1) - F::BIAS - F::MAN as i32,
    }
}

/// `v` with its leading bit at bit 125 (two bits of headroom); a zero
/// stays zero.
fn normalise(v: Exact) -> Exact {
    if v.sig == 0 {
        return v;
    }
    let lz = v.sig.leading_zeros();
    if lz < 2 {
        // A carry above bit 125: shift down, folding the bits out into a
        // sticky bit.
        let d = 2 - lz;
        let sticky = u128::from(v.sig & ((1u128 << d) - 1) != 0);
        return Exact {
            sig: v.sig >> d | sticky,
            exp: v.exp + d as i32,
            ..v
        };
    }
    let shift = lz - 2;
    Exact {
        sig: v.sig << shift,
        exp: v.exp - shift as i32,
        ..v
    }
}

/// `x + y` exact up to a sticky last bit (terms of at most 106 bits).
fn sum(x: Exact, y: Exact) -> Exact {
    let (x, y) = (normalise(x), normalise(y));
    if y.sig == 0 {
        return x;
    }
    if x.sig == 0 {
        return y;
    }
    let (big, small) = if (x.exp, x.sig) >= (y.exp, y.sig) {
        (x, y)
    } else {
        (y, x)
    };
    let d = (big.exp - small.exp).min(127) as u32;
    let shifted = small.sig >> d;
    let sticky = u128::from(small.sig & ((1u128 << d) - 1) != 0);
    let sig = if big.negative == small.negative {
        big.sig + shifted
    } else {
        big.sig - shifted - sticky
    } | sticky;
    Exact { sig, ..big }
}

/// The case of `op` on the prepared sources `src` (after ABS/NEG and the
/// input flush; `src[2]` read by FMA only) under `p`.
pub fn classify_arith<F: Format>(op: ArithOp, src: [u64; 3], p: &Policy) -> ArithCase {
    let mag = |x: u64| x & F::ABS_MASK;
    let nan = |x: u64| mag(x) > F::INF;
    let inf = |x: u64| mag(x) == F::INF;
    let zero = |x: u64| mag(x) == 0;
    let [a, b, c] = src;
    let used = &src[..op.sources()];
    let product = matches!(op, ArithOp::Mul | ArithOp::Fma);
    if product && ((zero(a) && inf(b)) || (inf(a) && zero(b))) {
        return ArithCase::InvalidZeroTimesInf;
    }
    if let Some(slot) = used.iter().position(|&x| nan(x)) {
        return ArithCase::Nan(slot);
    }
    // The terms of the final sum with their signs.
    let flip = |x: u64, yes: bool| if yes { x ^ F::SIGN } else { x };
    let (a, b) = (flip(a, op == ArithOp::Subrev), flip(b, op == ArithOp::Sub));
    let sign = |x: u64| x & F::SIGN != 0;
    let infinite_sum = match op {
        ArithOp::Mul => None,
        ArithOp::Fma => Some((inf(a) || inf(b), sign(a) != sign(b), c)),
        _ => Some((inf(a), sign(a), b)),
    };
    if let Some((left_inf, left_negative, right)) = infinite_sum {
        if left_inf && inf(right) && left_negative != sign(right) {
            return ArithCase::InvalidInfMinusInf;
        }
    }
    if used.iter().any(|&x| inf(x)) {
        return ArithCase::Infinite;
    }
    let (x, y) = (unpack::<F>(a), unpack::<F>(b));
    let exact = match op {
        ArithOp::Mul => Exact {
            negative: x.negative != y.negative,
            sig: x.sig * y.sig,
            exp: x.exp + y.exp,
        },
        ArithOp::Fma => sum(
            Exact {
                negative: x.negative != y.negative,
                sig: x.sig * y.sig,
                exp: x.exp + y.exp,
            },
            unpack::<F>(c),
        ),
        _ => sum(x, y),
    };
    if exact.sig == 0 {
        return ArithCase::ExactZero;
    }
    ArithCase::Rounded(rounding::<F>(normalise(exact), p))
}

/// The rounding of a normalised nonzero exact value (leading bit 125).
fn rounding<F: Format>(v: Exact, p: &Policy) -> ArithRounding {
    let precision = F::MAN + 1;
    // Binary exponent of the leading bit.
    let e = v.exp + 125;
    // Rounded to the precision with an unbounded exponent.
    let drop = 126 - precision;
    let (up_p, inexact_p) = round_at(v, drop, p);
    let carries = ((v.sig >> drop) + u128::from(up_p)) >> precision != 0;
    let e_rounded = e + i32::from(carries);
    let tiny = match p.tininess {
        Tininess::AfterRounding => e_rounded < F::EMIN,
        Tininess::BeforeRounding => e < F::EMIN,
    };
    let overflow = e_rounded > F::EMAX;
    if tiny {
        let flushed = p.flush_tiny();
        // Rounded on the subnormal grid 2^(EMIN - MAN) instead.
        let grid = F::EMIN - F::MAN as i32;
        let drop = (grid - v.exp).clamp(0, 127) as u32;
        let (up, inexact) = round_at(v, drop, p);
        return ArithRounding {
            inexact: inexact || flushed,
            rounded_up: up && !flushed,
            tiny,
            flushed,
            overflow: false,
        };
    }
    ArithRounding {
        inexact: inexact_p || overflow,
        rounded_up: up_p,
        tiny,
        flushed: false,
        overflow,
    }
}

/// Whether dropping the low `drop` bits (1..=127) of `v` rounds its
/// magnitude up, and whether any dropped bit is set.
fn round_at(v: Exact, drop: u32, p: &Policy) -> (bool, bool) {
    if drop == 0 {
        return (false, false);
    }
    let kept = v.sig >> drop;
    let guard = v.sig >> (drop - 1) & 1 != 0;
    let sticky = v.sig & ((1u128 << (drop - 1)) - 1) != 0;
    let up = p.round.rounds_up(v.negative, kept & 1 != 0, guard, sticky);
    (up, guard || sticky)
}
