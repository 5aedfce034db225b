//! The integer lane the kernels compute in: `u32` for F16 and F32,
//! `u64` for F64 (see `Format::Lane`), and the wide lane of the arithmetic
//! kernels' exact products and sums: `u32` for F16, `u64` for F32 and
//! [`W128`] for F64 (see `Format::Wide`).
//!
//! Every operation is total (wrapping arithmetic; a shift by a negative
//! amount or by the width or more gives 0, as the x86 variable vector
//! shifts do, so no masking instruction is needed) so a branch-free kernel can evaluate every case of every lane
//! and select afterwards without a panic on the lanes a case does not apply
//! to. Exponent arithmetic uses the signed type of the same width
//! ([`Lane::Exp`]), so compare masks and data share one vector shape.

use core::fmt::Debug;
use core::ops::{Add, BitAnd, BitOr, BitXor, Not, Sub};

/// An unsigned integer lane holding one encoding.
pub trait Lane:
    Copy
    + Default
    + Eq
    + Ord
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Signed integer of the same width, for exponents and shift amounts.
    type Exp: Exponent;
    /// Width in bits.
    const BITS: u32;
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;

    /// A constant of the kernel (truncated to the lane width).
    fn from_u64(v: u64) -> Self;
    /// The lane zero-extended (the low 64 bits of a `u128`).
    fn to_u64(self) -> u64;
    /// `self + o`, wrapping.
    fn add(self, o: Self) -> Self;
    /// `self - o`, wrapping.
    fn sub(self, o: Self) -> Self;
    /// `self * o`, wrapping (the wide lane's exact significand products).
    fn mul(self, o: Self) -> Self;
    /// `self << n`; 0 when `n` is negative or at least the width.
    fn shl(self, n: Self::Exp) -> Self;
    /// `self >> n` (logical); 0 when `n` is negative or at least the width.
    fn shr(self, n: Self::Exp) -> Self;
    /// Leading zero bits, `BITS` for 0.
    fn lz(self) -> Self::Exp;
    /// The lane read as a (non-negative, small) exponent.
    fn to_exp(self) -> Self::Exp;
    /// An exponent stored into a lane (two's complement, wrapping).
    fn from_exp(e: Self::Exp) -> Self;
    /// 1 for true, 0 for false.
    fn from_bool(b: bool) -> Self;
    /// The top bit (the sign of a two's-complement difference).
    fn top_bit(self) -> bool;

    /// `self >> n` for `n` in `0..BITS`, and 1 if a one bit was shifted
    /// out, else 0 (the sticky bit of an alignment, as a lane).
    #[inline(always)]
    fn shr_sticky(self, n: Self::Exp) -> (Self, Self) {
        let width = Self::Exp::from(Self::BITS as i32);
        (
            self.shr(n),
            Self::from_bool(self.shl(width - n) != Self::ZERO),
        )
    }
    /// `self` shifted left until its top bit is set, and the shift: its
    /// leading-zero count (`BITS` for 0, which stays 0).
    #[inline(always)]
    fn shl_leading(self) -> (Self, Self::Exp) {
        let lz = self.lz();
        let top = Self::Exp::from(Self::BITS as i32 - 1);
        (self.shl(lz.min(top)), lz)
    }
}

/// A signed exponent or shift amount (`i32`, `i64`): a lane's
/// [`Lane::Exp`], and the exponent of an exact value, which may be
/// narrower than its significand's lane (`round::Exact`).
pub trait Exponent:
    Copy + Ord + Debug + Add<Output = Self> + Sub<Output = Self> + From<i32>
{
    /// The exponent as an `i64`.
    fn to_i64(self) -> i64;
    /// A small `i64` exponent in this type (truncated).
    fn from_i64(e: i64) -> Self;
}

impl Exponent for i32 {
    #[inline(always)]
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    #[inline(always)]
    fn from_i64(e: i64) -> i32 {
        e as i32
    }
}

impl Exponent for i64 {
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline(always)]
    fn from_i64(e: i64) -> i64 {
        e
    }
}

/// `if c { a } else { b }` on lanes; written as a plain select so LLVM
/// lowers it to a blend (or an AVX-512 masked move) rather than a branch.
#[inline(always)]
pub fn sel<T>(c: bool, a: T, b: T) -> T {
    if c {
        a
    } else {
        b
    }
}

macro_rules! lane {
    ($t:ty, $s:ty) => {
        impl Lane for $t {
            type Exp = $s;
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            #[inline(always)]
            fn shl(self, n: $s) -> Self {
                // Written as the select LLVM folds into vpsllv*.
                if (n as u64) < u64::from(Self::BITS) {
                    self << n
                } else {
                    0
                }
            }
            #[inline(always)]
            fn shr(self, n: $s) -> Self {
                if (n as u64) < u64::from(Self::BITS) {
                    self >> n
                } else {
                    0
                }
            }
            #[inline(always)]
            fn lz(self) -> $s {
                self.leading_zeros() as $s
            }
            #[inline(always)]
            fn to_exp(self) -> $s {
                self as $s
            }
            #[inline(always)]
            fn from_exp(e: $s) -> Self {
                e as $t
            }
            #[inline(always)]
            fn from_bool(b: bool) -> Self {
                <$t>::from(b)
            }
            #[inline(always)]
            fn top_bit(self) -> bool {
                (self as $s) < 0
            }
            /// The bits shifted out as those below bit `n`: no shift by
            /// `BITS - n`, whose select for `n` 0 stays in the vector code.
            /// They are below 2^(BITS - 1) (`n` is below the width), so
            /// adding 2^(BITS - 1) - 1 carries into the top bit exactly
            /// when one is set: the sticky bit by an addition and a
            /// shift, not a compare and a mask turned back into a lane.
            #[inline(always)]
            fn shr_sticky(self, n: $s) -> (Self, Self) {
                let below = Self::ONE.shl(n).wrapping_sub(1);
                let lost = (self & below).wrapping_add(<$t>::MAX >> 1);
                (self.shr(n), lost >> (Self::BITS - 1))
            }
        }
    };
}

lane!(u32, i32);
lane!(u64, i64);

/// The wide lane of F64's exact products and sums (`Format::Wide`): a
/// 128-bit unsigned integer as two `u64` halves, every operation written
/// on `u64`s without branches, so a loop over it vectorises as `u64`
/// lanes do (a Rust `u128` would not). Its exponent type is `i64`, the
/// shape of its halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct W128 {
    /// Bits 127:64.
    pub hi: u64,
    /// Bits 63:0.
    pub lo: u64,
}

impl W128 {
    /// The full 128-bit product of two `u64`s, from four 32 x 32-bit
    /// products (the vector multiply every x86 level has).
    #[inline(always)]
    pub fn mul_full(a: u64, b: u64) -> W128 {
        let (a1, a0) = (a >> 32, a & 0xffff_ffff);
        let (b1, b0) = (b >> 32, b & 0xffff_ffff);
        let ll = a0 * b0;
        let lh = a0 * b1;
        let hl = a1 * b0;
        let hh = a1 * b1;
        // The middle column in two steps; each sum is at most
        // (2^32 - 1)^2 + 2^32 - 1 < 2^64.
        let t = lh + (ll >> 32);
        let u = hl + (t & 0xffff_ffff);
        W128 {
            hi: hh + (t >> 32) + (u >> 32),
            lo: (u << 32) | (ll & 0xffff_ffff),
        }
    }
}

impl PartialOrd for W128 {
    #[inline(always)]
    fn partial_cmp(&self, o: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(o))
    }
    #[inline(always)]
    fn lt(&self, o: &Self) -> bool {
        (self.hi < o.hi) | ((self.hi == o.hi) & (self.lo < o.lo))
    }
    #[inline(always)]
    fn le(&self, o: &Self) -> bool {
        !o.lt(self)
    }
    #[inline(always)]
    fn gt(&self, o: &Self) -> bool {
        o.lt(self)
    }
    #[inline(always)]
    fn ge(&self, o: &Self) -> bool {
        !self.lt(o)
    }
}

impl Ord for W128 {
    #[inline(always)]
    fn cmp(&self, o: &Self) -> core::cmp::Ordering {
        (self.hi, self.lo).cmp(&(o.hi, o.lo))
    }
}

macro_rules! bitwise {
    ($tr:ident, $f:ident, $op:tt) => {
        impl $tr for W128 {
            type Output = W128;
            #[inline(always)]
            fn $f(self, o: W128) -> W128 {
                W128 { hi: self.hi $op o.hi, lo: self.lo $op o.lo }
            }
        }
    };
}
bitwise!(BitAnd, bitand, &);
bitwise!(BitOr, bitor, |);
bitwise!(BitXor, bitxor, ^);

impl Not for W128 {
    type Output = W128;
    #[inline(always)]
    fn not(self) -> W128 {
        W128 {
            hi: !self.hi,
            lo: !self.lo,
        }
    }
}

impl Lane for W128 {
    type Exp = i64;
    const BITS: u32 = 128;
    const ZERO: Self = W128 { hi: 0, lo: 0 };
    const ONE: Self = W128 { hi: 0, lo: 1 };

    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        W128 { hi: 0, lo: v }
    }
    #[inline(always)]
    fn to_u64(self) -> u64 {
        self.lo
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        let lo = self.lo.wrapping_add(o.lo);
        let carry = u64::from(lo < self.lo);
        W128 {
            hi: self.hi.wrapping_add(o.hi).wrapping_add(carry),
            lo,
        }
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        let borrow = u64::from(self.lo < o.lo);
        W128 {
            hi: self.hi.wrapping_sub(o.hi).wrapping_sub(borrow),
            lo: self.lo.wrapping_sub(o.lo),
        }
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        let low = W128::mul_full(self.lo, o.lo);
        let cross = self
            .hi
            .wrapping_mul(o.lo)
            .wrapping_add(self.lo.wrapping_mul(o.hi));
        W128 {
            hi: low.hi.wrapping_add(cross),
            lo: low.lo,
        }
    }
    #[inline(always)]
    fn shl(self, n: i64) -> Self {
        // Each term is 0 outside its range of `n` (the u64 shifts' rule).
        W128 {
            hi: self.hi.shl(n) | self.lo.shr(64 - n) | self.lo.shl(n - 64),
            lo: self.lo.shl(n),
        }
    }
    #[inline(always)]
    fn shr(self, n: i64) -> Self {
        W128 {
            hi: self.hi.shr(n),
            lo: self.lo.shr(n) | self.hi.shl(64 - n) | self.hi.shr(n - 64),
        }
    }
    #[inline(always)]
    fn lz(self) -> i64 {
        sel(self.hi == 0, 64 + self.lo.lz(), self.hi.lz())
    }
    #[inline(always)]
    fn to_exp(self) -> i64 {
        self.lo as i64
    }
    #[inline(always)]
    fn from_exp(e: i64) -> Self {
        W128 {
            hi: (e >> 63) as u64,
            lo: e as u64,
        }
    }
    #[inline(always)]
    fn from_bool(b: bool) -> Self {
        W128 {
            hi: 0,
            lo: u64::from(b),
        }
    }
    #[inline(always)]
    fn top_bit(self) -> bool {
        (self.hi as i64) < 0
    }
    /// In two steps: a whole half (a select) and then a shift `m` below
    /// 64, so few `u64` shifts give both the result and the bits shifted
    /// out (the generic form takes eight); a 128-bit-vector build then
    /// vectorises the FMA loop. `n` below 128 (see the trait), so `m` is
    /// `n & 63` and no shift needs the select of a shift by 64.
    #[inline(always)]
    fn shr_sticky(self, n: i64) -> (Self, Self) {
        let half = n >= 64;
        let (hi, lo) = (sel(half, 0, self.hi), sel(half, self.hi, self.lo));
        let lost_half = half & (self.lo != 0);
        let m = n & 63;
        let out = W128 {
            hi: hi.shr(m),
            // `hi << (64 - m)`, 0 for `m` 0.
            lo: lo.shr(m) | (hi << 1).shl(63 - m),
        };
        let below = 1u64.shl(m).wrapping_sub(1);
        (out, W128::from_bool(lost_half | (lo & below != 0)))
    }
    /// In two steps: `lo` into `hi` when `hi` is 0, then one `u64`
    /// leading-zero count and a shift below 64.
    #[inline(always)]
    fn shl_leading(self) -> (Self, i64) {
        let half = self.hi == 0;
        let (hi, lo) = (sel(half, self.lo, self.hi), sel(half, 0, self.lo));
        let lz = hi.lz();
        // A zero: `lz` 64, shifted by 63, stays 0.
        let m = lz.min(63);
        let out = W128 {
            // `lo >> (64 - m)`, 0 for `m` 0.
            hi: hi.shl(m) | (lo >> 1).shr(63 - m),
            lo: lo.shl(m),
        };
        (out, lz + sel(half, 64, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(x: u128) -> W128 {
        W128 {
            hi: (x >> 64) as u64,
            lo: x as u64,
        }
    }
    fn u(x: W128) -> u128 {
        u128::from(x.hi) << 64 | u128::from(x.lo)
    }

    /// The `u32`/`u64` alignment shift and its sticky bit (1 when a one
    /// bit is shifted out), by hand: 0b1011 >> 2 is 0b10 with bit 0 lost;
    /// 0b1000 >> 3 is 1 with nothing lost; the top bit alone shifted by
    /// `BITS - 1` is 1, nothing lost, and with the last bit set too, 1 with
    /// it lost; by 0 nothing moves.
    #[test]
    fn shr_sticky_of_u32_and_u64() {
        assert_eq!(0b1011u64.shr_sticky(2), (0b10, 1));
        assert_eq!(0b1000u64.shr_sticky(3), (1, 0));
        assert_eq!((1u64 << 63).shr_sticky(63), (1, 0));
        assert_eq!(0x8000_0000_0000_0001u64.shr_sticky(63), (1, 1));
        assert_eq!(u64::MAX.shr_sticky(0), (u64::MAX, 0));
        assert_eq!(0b1011u32.shr_sticky(2), (0b10, 1));
        assert_eq!(0x8000_0000u32.shr_sticky(31), (1, 0));
        assert_eq!(0xffff_ffffu32.shr_sticky(31), (1, 1));
        assert_eq!(0x7fff_ffffu32.shr_sticky(31), (0, 1));
    }

    /// W128 against Rust's u128 on values spread over the width, every
    /// shift amount from -1 to 129.
    #[test]
    fn w128_matches_u128() {
        let mut s = 0x1234_5678_9abc_def0_u64;
        let mut next = || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let z = (s ^ (s >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z ^ (z >> 31)
        };
        for _ in 0..2000 {
            let (a, b) = (next(), next());
            let x = (u128::from(next()) << 64 | u128::from(next())) >> (a % 128);
            let y = (u128::from(next()) << 64 | u128::from(next())) >> (b % 128);
            assert_eq!(u(w(x).add(w(y))), x.wrapping_add(y));
            assert_eq!(u(w(x).sub(w(y))), x.wrapping_sub(y));
            assert_eq!(u(w(x).mul(w(y))), x.wrapping_mul(y));
            assert_eq!(u(W128::mul_full(a, b)), u128::from(a) * u128::from(b));
            assert_eq!(w(x).lz(), i64::from(x.leading_zeros()));
            let (top, lz) = w(x).shl_leading();
            assert_eq!(lz, i64::from(x.leading_zeros()), "{x:#x}");
            assert_eq!(u(top), x << (lz.min(127)), "{x:#x}");
            assert_eq!(w(x) < w(y), x < y);
            assert_eq!(w(x) >= w(y), x >= y);
            assert_eq!(w(x).cmp(&w(y)), x.cmp(&y));
            for n in -1..=129i64 {
                let (l, r) = if (0..128).contains(&n) {
                    (x << n, x >> n)
                } else {
                    (0, 0)
                };
                assert_eq!(u(w(x).shl(n)), l, "{x:#x} << {n}");
                assert_eq!(u(w(x).shr(n)), r, "{x:#x} >> {n}");
                if (0..128).contains(&n) {
                    let (v, lost) = w(x).shr_sticky(n);
                    let (kept, lost_bits) = if n == 128 {
                        (0, x)
                    } else {
                        (x >> n, x ^ (x >> n << n))
                    };
                    let lost_bits = u128::from(lost_bits != 0);
                    assert_eq!((u(v), u(lost)), (kept, lost_bits), "{x:#x} >> {n}");
                }
            }
        }
        assert_eq!(u(W128::from_exp(-3)), (-3i128) as u128);
    }
}
