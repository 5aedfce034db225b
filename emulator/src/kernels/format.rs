//! Floating-point format descriptors: one generic implementation serves F16,
//! F32 and F64, parameterised by bit widths (in the manner of rustc_apfloat).
//!
//! All arithmetic in the kernels is integer work on raw encodings widened to
//! `u64`; the host's floating-point unit is never involved.

/// The three IEEE 754 binary formats of the instructions' results and
/// float sources; the format also picks which MODE fields an instruction
/// reads (docs/semantics.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatKind {
    /// binary16 (half): 1 sign, 5 exponent and 10 fraction bits; MODE bits
    /// 3:2 and 7:6.
    F16,
    /// binary32 (single): 1 sign, 8 exponent and 23 fraction bits; MODE bits
    /// 1:0 and 5:4.
    F32,
    /// binary64 (double, a VGPR pair): 1 sign, 11 exponent and 52 fraction
    /// bits; MODE bits 3:2 and 7:6.
    F64,
}

impl FormatKind {
    /// The lower-case name as mnemonics spell it (`f16`, `f32`, `f64`).
    pub fn name(self) -> &'static str {
        match self {
            FormatKind::F16 => "f16",
            FormatKind::F32 => "f32",
            FormatKind::F64 => "f64",
        }
    }

    /// The width of an encoding in bits: 16, 32 or 64.
    pub fn bits(self) -> u32 {
        match self {
            FormatKind::F16 => 16,
            FormatKind::F32 => 32,
            FormatKind::F64 => 64,
        }
    }
}

/// A floating-point format: widths, and the MODE fields it reads.
///
/// Encodings are carried as `u64` inside the kernels; `Bits` is the storage
/// type a lane container holds.
pub trait Format: Copy + 'static {
    /// Storage type of one encoding.
    type Bits: Copy + Default + Eq + core::fmt::Debug + Send + Sync + 'static;
    /// Integer lane the kernels compute in (`kernels::lane`).
    type Lane: super::lane::Lane;
    /// Integer lane of at least twice the significand width plus guard
    /// bits, for exact products and aligned sums (`kernels::round`): `u32`
    /// for F16 (a 22-bit product), `u64` for F32 (48 bits), `W128` for F64
    /// (106 bits).
    type Wide: super::lane::Lane;
    /// Which format this is.
    const KIND: FormatKind;
    /// Total width in bits.
    const WIDTH: u32;
    /// Explicit fraction (mantissa) bits.
    const MAN: u32;
    /// Exponent field bits.
    const EXP: u32;
    /// Position of FP_ROUND for this format in MODE (bits 1:0 for F32, 3:2 for F16/F64).
    const MODE_ROUND_SHIFT: u32;
    /// Position of FP_DENORM for this format in MODE (bits 5:4 for F32, 7:6 for F16/F64).
    const MODE_DENORM_SHIFT: u32;

    /// The exact product of two significands of at most `MAN + 1` bits
    /// held in the lane, in the wide lane.
    fn wide_product(a: Self::Lane, b: Self::Lane) -> Self::Wide;
    /// Widen an encoding.
    fn widen(b: Self::Bits) -> u64;
    /// Narrow an encoding (the value must fit; higher bits are dropped).
    fn narrow(v: u64) -> Self::Bits;

    // Derived constants, all on the widened encoding.
    /// Exponent bias.
    const BIAS: i32 = (1 << (Self::EXP - 1)) - 1;
    /// Largest unbiased exponent of a finite value.
    const EMAX: i32 = Self::BIAS;
    /// Unbiased exponent of the smallest normal.
    const EMIN: i32 = 1 - Self::BIAS;
    /// The sign bit.
    const SIGN: u64 = 1 << (Self::WIDTH - 1);
    /// All magnitude bits.
    const ABS_MASK: u64 = Self::SIGN - 1;
    /// Fraction field mask.
    const MAN_MASK: u64 = (1 << Self::MAN) - 1;
    /// Exponent field mask (also the encoding of +infinity).
    const EXP_MASK: u64 = Self::ABS_MASK & !Self::MAN_MASK;
    /// +infinity.
    const INF: u64 = Self::EXP_MASK;
    /// Largest finite magnitude.
    const MAX: u64 = Self::INF - 1;
    /// The quiet bit of a NaN (the top fraction bit).
    const QUIET_BIT: u64 = 1 << (Self::MAN - 1);
    /// The negative quiet NaN FRACT returns for infinities.
    const NEG_QUIET_NAN: u64 = Self::SIGN | Self::INF | Self::QUIET_BIT;
    /// The implicit leading significand bit of a normal number.
    const HIDDEN: u64 = 1 << Self::MAN;
    /// Smallest normal magnitude.
    const MIN_NORMAL: u64 = Self::HIDDEN;
    /// 1.0.
    const ONE: u64 = (Self::BIAS as u64) << Self::MAN;
    /// The largest value below 1.0: FRACT's cap.
    const ONE_MINUS_ULP: u64 = Self::ONE - 1;
}

/// binary16.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F16;
/// binary32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F32;
/// binary64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct F64;

impl Format for F16 {
    type Wide = u32;
    type Bits = u16;
    type Lane = u32;
    const KIND: FormatKind = FormatKind::F16;
    const WIDTH: u32 = 16;
    const MAN: u32 = 10;
    const EXP: u32 = 5;
    const MODE_ROUND_SHIFT: u32 = 2;
    const MODE_DENORM_SHIFT: u32 = 6;
    #[inline(always)]
    fn wide_product(a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
    #[inline(always)]
    fn widen(b: u16) -> u64 {
        u64::from(b)
    }
    #[inline(always)]
    fn narrow(v: u64) -> u16 {
        v as u16
    }
}

impl Format for F32 {
    type Wide = u64;
    type Bits = u32;
    type Lane = u32;
    const KIND: FormatKind = FormatKind::F32;
    const WIDTH: u32 = 32;
    const MAN: u32 = 23;
    const EXP: u32 = 8;
    const MODE_ROUND_SHIFT: u32 = 0;
    const MODE_DENORM_SHIFT: u32 = 4;
    #[inline(always)]
    fn wide_product(a: u32, b: u32) -> u64 {
        u64::from(a) * u64::from(b)
    }
    #[inline(always)]
    fn widen(b: u32) -> u64 {
        u64::from(b)
    }
    #[inline(always)]
    fn narrow(v: u64) -> u32 {
        v as u32
    }
}

impl Format for F64 {
    type Wide = super::lane::W128;
    type Bits = u64;
    type Lane = u64;
    const KIND: FormatKind = FormatKind::F64;
    const WIDTH: u32 = 64;
    const MAN: u32 = 52;
    const EXP: u32 = 11;
    const MODE_ROUND_SHIFT: u32 = 2;
    const MODE_DENORM_SHIFT: u32 = 6;
    #[inline(always)]
    fn wide_product(a: u64, b: u64) -> super::lane::W128 {
        super::lane::W128::mul_full(a, b)
    }
    #[inline(always)]
    fn widen(b: u64) -> u64 {
        b
    }
    #[inline(always)]
    fn narrow(v: u64) -> u64 {
        v
    }
}

/// Classification helpers on a widened encoding of format `F`.
#[inline(always)]
pub fn is_nan<F: Format>(x: u64) -> bool {
    x & F::ABS_MASK > F::INF
}

/// True for +-0.
#[inline(always)]
pub fn is_zero<F: Format>(x: u64) -> bool {
    x & F::ABS_MASK == 0
}

/// True for a nonzero value with a zero exponent field.
#[inline(always)]
pub fn is_subnormal<F: Format>(x: u64) -> bool {
    let mag = x & F::ABS_MASK;
    mag != 0 && mag < F::MIN_NORMAL
}

/// The biased exponent field.
#[inline(always)]
pub fn exp_field<F: Format>(x: u64) -> u64 {
    (x & F::EXP_MASK) >> F::MAN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_semantics_table() {
        // docs/semantics.md §2.
        assert_eq!(F16::QUIET_BIT, 0x0200);
        assert_eq!(F16::ONE_MINUS_ULP, 0x3bff);
        assert_eq!(F16::NEG_QUIET_NAN, 0xfe00);
        assert_eq!(F32::QUIET_BIT, 0x0040_0000);
        assert_eq!(F32::ONE_MINUS_ULP, 0x3f7f_ffff);
        assert_eq!(F32::NEG_QUIET_NAN, 0xffc0_0000);
        assert_eq!(F64::QUIET_BIT, 0x0008_0000_0000_0000);
        assert_eq!(F64::ONE_MINUS_ULP, 0x3fef_ffff_ffff_ffff);
        assert_eq!(F64::NEG_QUIET_NAN, 0xfff8_0000_0000_0000);
        assert_eq!(F16::MAX, 0x7bff);
        assert_eq!(F16::BIAS, 15);
        assert_eq!(F64::BIAS, 1023);
    }
}
