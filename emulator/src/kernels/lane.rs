//! The integer lane the kernels compute in: `u32` for F16 and F32,
//! `u64` for F64 (see `Format::Lane`), and the wide lane of the arithmetic
//! kernels' exact products and sums: `u64` for F16 and F32, `u128` for F64
//! (see `Format::Wide`).
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
    type Exp: Copy + Ord + Debug + Add<Output = Self::Exp> + Sub<Output = Self::Exp> + From<i32>;
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
        }
    };
}

lane!(u32, i32);
lane!(u64, i64);
// The wide lane of F64's exact products and sums (`Format::Wide`).
lane!(u128, i128);
