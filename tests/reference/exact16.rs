//! F16 ADD, MUL and FMA as exact integer arithmetic: a second, fast model
//! for the exhaustive sweeps, written apart from the kernels and from the
//! APFloat model (`arith.rs`), which checks it on a sample.
//!
//! Every finite F16 value is an integer times 2^-24 (the smallest
//! subnormal). A sum of two is then an exact `i64` in units of 2^-24, a
//! product an exact integer times 2^-48, and a fused multiply-add an exact
//! `i128` in units of 2^-48. The one rounding ([`round`]) takes such an
//! exact value to F16 under the MODE fields of docs/semantics.md §2, with
//! tininess after rounding, the output flush, overflow and FP16_OVFL; the
//! AMD rules around it (input flush, invalid operations, first-NaN
//! priority, quieting, the signs of exact zeros) are written out in
//! [`add`], [`mul`] and [`fma`]. Nothing here reads the crate.

/// The MODE fields an F16 result reads (docs/semantics.md §2), and whether
/// the target quiets a returned signalling NaN (§10.1: decided by the
/// caller from the target and MODE.IEEE).
#[derive(Clone, Copy, Debug)]
pub struct Mode16 {
    /// F16/F64 FP_ROUND, MODE bits 3:2: 0 nearest-even, 1 toward +inf, 2
    /// toward -inf, 3 toward zero.
    pub round: u32,
    /// MODE bit 6: subnormal sources kept.
    pub keep_in: bool,
    /// MODE bit 7: subnormal results kept.
    pub keep_out: bool,
    /// MODE bit 23, FP16_OVFL: a finite overflow gives +-65504.
    pub ovfl: bool,
    /// A returned NaN gets its quiet bit (0x0200).
    pub quiet: bool,
}

impl Mode16 {
    /// The fields of the 32-bit MODE value `mode`.
    pub fn new(mode: u32, quiet: bool) -> Mode16 {
        Mode16 {
            round: mode >> 2 & 3,
            keep_in: mode >> 6 & 1 == 1,
            keep_out: mode >> 7 & 1 == 1,
            ovfl: mode >> 23 & 1 == 1,
            quiet,
        }
    }
}

/// What a source is after the input flush.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Nan,
    Inf,
    /// Finite, zero included (`sig` 0).
    Finite,
}

/// A decoded F16 source: `(-1)^neg x sig x 2^-24`.
#[derive(Clone, Copy, Debug)]
struct Val {
    kind: Kind,
    neg: bool,
    /// The magnitude in units of 2^-24 (at most 65504 x 2^24 < 2^41).
    sig: u64,
}

/// Every F16 encoding decoded once for one MODE (the input flush depends
/// on it).
pub struct Table {
    vals: Vec<Val>,
    mode: Mode16,
}

impl Table {
    /// The table for `mode`.
    pub fn new(mode: Mode16) -> Table {
        let vals = (0..=0xffffu32)
            .map(|x| {
                let neg = x & 0x8000 != 0;
                let field = x >> 10 & 0x1f;
                let frac = u64::from(x & 0x3ff);
                let (kind, sig) = match field {
                    0x1f if frac != 0 => (Kind::Nan, 0),
                    0x1f => (Kind::Inf, 0),
                    // Subnormal: frac units of 2^-24; flushed to a signed
                    // zero when inputs are not kept.
                    0 => (Kind::Finite, if mode.keep_in { frac } else { 0 }),
                    // Normal: (1024 + frac) x 2^(field - 25) = that many
                    // 2^-24 units shifted by field - 1.
                    _ => (Kind::Finite, (1024 + frac) << (field - 1)),
                };
                Val { kind, neg, sig }
            })
            .collect();
        Table { vals, mode }
    }

    fn get(&self, x: u16) -> Val {
        self.vals[usize::from(x)]
    }

    /// A NaN source as returned: quieted when the mode says so.
    fn nan(&self, x: u16) -> u16 {
        if self.mode.quiet {
            x | 0x0200
        } else {
            x
        }
    }
}

/// The negative canonical quiet NaN of an invalid operation.
const INVALID: u16 = 0xfe00;

/// The zero of sign `neg`.
fn zero(neg: bool) -> u16 {
    if neg {
        0x8000
    } else {
        0
    }
}

/// An exact sum of zero: (-0) + (-0) is -0; otherwise +0, or -0 toward
/// -inf (docs/semantics.md §1.2 of the arithmetic).
fn zero_sum(both_zero: bool, neg_x: bool, neg_y: bool, m: Mode16) -> u16 {
    let down = m.round == 2;
    if both_zero && neg_x == neg_y {
        zero(neg_x)
    } else {
        zero(down)
    }
}

/// Whether a discarded remainder `rem` out of `2^shift` units rounds the
/// kept `q` up, for a value of sign `neg`.
fn rounds_up(q: u128, rem: u128, shift: u32, neg: bool, m: Mode16) -> bool {
    if rem == 0 {
        return false;
    }
    let half = 1u128 << (shift - 1);
    match m.round {
        0 => rem > half || (rem == half && q & 1 == 1),
        1 => !neg,
        2 => neg,
        _ => false,
    }
}

/// `mag` (times 2^exp2) rounded to a multiple of 2^lsb: the quotient in
/// units of 2^lsb.
fn quantise(mag: u128, exp2: i32, lsb: i32, neg: bool, m: Mode16) -> u128 {
    if lsb <= exp2 {
        return mag << (exp2 - lsb);
    }
    let shift = (lsb - exp2) as u32;
    if shift >= 128 {
        return u128::from(rounds_up(0, 1, 128, neg, m) && mag != 0);
    }
    let q = mag >> shift;
    let rem = mag & ((1u128 << shift) - 1);
    q + u128::from(rounds_up(q, rem, shift, neg, m))
}

/// The nonzero exact value `(-1)^neg x mag x 2^exp2` rounded once to F16.
pub fn round(neg: bool, mag: u128, exp2: i32, m: Mode16) -> u16 {
    debug_assert!(mag != 0);
    // The value's binary exponent: 2^e <= value < 2^(e+1).
    let e = 127 - mag.leading_zeros() as i32 + exp2;
    // Tininess after rounding: rounded to 11 bits with an unbounded
    // exponent, the value is below 2^-14. Below 2^-15 it stays below; in
    // [2^-15, 2^-14) its last bit weighs 2^-25, and it reaches 2^-14 only
    // by rounding up to 2048 of those.
    let tiny = e < -15 || (e == -15 && quantise(mag, exp2, -25, neg, m) < 2048);
    if tiny && !m.keep_out {
        return zero(neg);
    }
    // Rounded to 11 bits, or to the subnormal grid 2^-24 if coarser.
    let lsb = (e - 10).max(-24);
    let q = quantise(mag, exp2, lsb, neg, m);
    // Normal: q in [2^10, 2^11] units of 2^lsb, biased exponent lsb + 25,
    // so the encoding is (lsb + 24) << 10 plus q (a carry to 2^11 steps
    // the exponent). Subnormal: lsb = -24 and the encoding is q.
    let enc = ((lsb + 24) as u128) * 1024 + q;
    if enc >= 0x7c00 {
        let to_inf = !m.ovfl
            && match m.round {
                0 => true,
                1 => !neg,
                2 => neg,
                _ => false,
            };
        return zero(neg) | if to_inf { 0x7c00 } else { 0x7bff };
    }
    zero(neg) | enc as u16
}

/// F16 ADD.
pub fn add(t: &Table, a: u16, b: u16) -> u16 {
    let (x, y) = (t.get(a), t.get(b));
    if x.kind == Kind::Nan {
        return t.nan(a);
    }
    if y.kind == Kind::Nan {
        return t.nan(b);
    }
    match (x.kind, y.kind) {
        (Kind::Inf, Kind::Inf) if x.neg != y.neg => return INVALID,
        (Kind::Inf, _) => return a,
        (_, Kind::Inf) => return b,
        _ => {}
    }
    let sx = if x.neg { -(x.sig as i64) } else { x.sig as i64 };
    let sy = if y.neg { -(y.sig as i64) } else { y.sig as i64 };
    let s = sx + sy;
    if s == 0 {
        return zero_sum(x.sig == 0 && y.sig == 0, x.neg, y.neg, t.mode);
    }
    round(s < 0, u128::from(s.unsigned_abs()), -24, t.mode)
}

/// F16 MUL.
pub fn mul(t: &Table, a: u16, b: u16) -> u16 {
    let (x, y) = (t.get(a), t.get(b));
    if x.kind == Kind::Nan {
        return t.nan(a);
    }
    if y.kind == Kind::Nan {
        return t.nan(b);
    }
    let neg = x.neg != y.neg;
    let zero_x = x.kind == Kind::Finite && x.sig == 0;
    let zero_y = y.kind == Kind::Finite && y.sig == 0;
    if (x.kind == Kind::Inf && zero_y) || (zero_x && y.kind == Kind::Inf) {
        return INVALID;
    }
    if x.kind == Kind::Inf || y.kind == Kind::Inf {
        return zero(neg) | 0x7c00;
    }
    let p = u128::from(x.sig) * u128::from(y.sig);
    if p == 0 {
        return zero(neg);
    }
    round(neg, p, -48, t.mode)
}

/// F16 FMA: `a x b + c` rounded once.
pub fn fma(t: &Table, a: u16, b: u16, c: u16) -> u16 {
    let (x, y, z) = (t.get(a), t.get(b), t.get(c));
    if x.kind == Kind::Nan {
        return t.nan(a);
    }
    if y.kind == Kind::Nan {
        return t.nan(b);
    }
    let pneg = x.neg != y.neg;
    let zero_x = x.kind == Kind::Finite && x.sig == 0;
    let zero_y = y.kind == Kind::Finite && y.sig == 0;
    // 0 x inf is invalid, even with a NaN addend.
    if (x.kind == Kind::Inf && zero_y) || (zero_x && y.kind == Kind::Inf) {
        return INVALID;
    }
    if z.kind == Kind::Nan {
        return t.nan(c);
    }
    let pinf = x.kind == Kind::Inf || y.kind == Kind::Inf;
    match (pinf, z.kind) {
        (true, Kind::Inf) if pneg != z.neg => return INVALID,
        (true, _) => return zero(pneg) | 0x7c00,
        (false, Kind::Inf) => return c,
        _ => {}
    }
    // Units of 2^-48: the product exactly, the addend shifted by 24.
    let p = i128::from(x.sig) * i128::from(y.sig);
    let q = i128::from(z.sig) << 24;
    let s = if pneg { -p } else { p } + if z.neg { -q } else { q };
    if s == 0 {
        return zero_sum(p == 0 && q == 0, pneg, z.neg, t.mode);
    }
    round(s < 0, s.unsigned_abs(), -48, t.mode)
}
