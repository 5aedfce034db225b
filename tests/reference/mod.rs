//! The reference model: docs/semantics.md written as directly as possible on exact
//! arithmetic, for checking the kernels bit for bit.
//!
//! The arithmetic is `rustc_apfloat` (the Rust port of LLVM's APFloat, which
//! rounds every operation once and correctly under an explicit rounding
//! argument); the hardware rules are layered on top, one function per step of
//! docs/semantics.md §3. Nothing here calls the kernels or reads the crate's
//! format constants: the bit layouts ([`RefFormat`]) come from the APFloat
//! types' own width and precision, and the MODE fields are decoded here from
//! the table of docs/semantics.md §2. Only the crate's format marker types
//! (`F16`, `F32`, `F64`) are named, so the verifier can pass one type to
//! both sides.

#![allow(dead_code)]

pub mod arith;
pub mod exact16;

use amdgpu_valu::__testing::kernels::{F16, F32, F64};
use rustc_apfloat::ieee::{Double, Half, Single};
use rustc_apfloat::{Float, Round};

/// A result format: its APFloat type, and the bit layout of its encodings
/// (docs/semantics.md §2), derived from the APFloat type's width and
/// precision.
pub trait RefFormat {
    /// The APFloat type of the same format.
    type Ap: Float;
    /// Width of an encoding in bits.
    const WIDTH: u32 = <Self::Ap as Float>::BITS as u32;
    /// Explicit fraction bits.
    const MAN: u32 = <Self::Ap as Float>::PRECISION as u32 - 1;
    /// The sign bit.
    const SIGN: u64 = 1 << (Self::WIDTH - 1);
    /// Every bit but the sign.
    const ABS_MASK: u64 = Self::SIGN - 1;
    /// +infinity: every exponent bit set, fraction 0.
    const INF: u64 = Self::ABS_MASK & !((1 << Self::MAN) - 1);
    /// Largest finite magnitude.
    const MAX: u64 = Self::INF - 1;
    /// The quiet bit of a NaN (the top fraction bit).
    const QUIET_BIT: u64 = 1 << (Self::MAN - 1);
    /// The negative quiet NaN FRACT gives for infinities.
    const NEG_QUIET_NAN: u64 = Self::SIGN | Self::INF | Self::QUIET_BIT;
    /// The largest value below 1.0 (exponent field bias - 1, fraction all ones).
    const ONE_MINUS_ULP: u64 = (Self::INF >> 1 & !((1 << Self::MAN) - 1)) - 1;
}

impl RefFormat for F16 {
    type Ap = Half;
}
impl RefFormat for F32 {
    type Ap = Single;
}
impl RefFormat for F64 {
    type Ap = Double;
}

/// What a target does with OMOD and CLAMP (docs/semantics.md §1, table
/// columns "OMOD gate" and "CLAMP of NaN").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetKind {
    /// Pre-GFX12: OMOD only when MODE.IEEE = 0 and the result format's
    /// output-denormal bit is 0; CLAMP turns NaN into +0 only with
    /// MODE.DX10_CLAMP.
    Gated,
    /// gfx1201, gfx1250: OMOD always; CLAMP turns NaN into +0 always.
    Always,
}

impl TargetKind {
    /// The kind of a target, by name, from docs/semantics.md §1.
    pub fn of(target: &str) -> TargetKind {
        match target {
            "gfx1201" | "gfx1250" => TargetKind::Always,
            _ => TargetKind::Gated,
        }
    }
}

/// The instruction-level modifiers, as encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefMods {
    /// OMOD field: 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
    /// CLAMP bit.
    pub clamp: bool,
    /// ABS on src0.
    pub abs: bool,
    /// NEG on src0.
    pub neg: bool,
}

// ---------------------------------------------------------------------------
// MODE (docs/semantics.md §2). Each instruction reads the fields of its
// result format: F32 FP_ROUND[1:0], FP_DENORM[5:4]; F16 and F64 share
// FP_ROUND[3:2] and FP_DENORM[7:6].

const MODE_DX10_CLAMP: u32 = 1 << 8;
const MODE_IEEE: u32 = 1 << 9;
const MODE_FP16_OVFL: u32 = 1 << 23;

fn round_field<F: RefFormat>(mode: u32) -> u32 {
    match F::WIDTH {
        32 => mode & 3,
        _ => (mode >> 2) & 3,
    }
}

fn denorm_field<F: RefFormat>(mode: u32) -> u32 {
    match F::WIDTH {
        32 => (mode >> 4) & 3,
        _ => (mode >> 6) & 3,
    }
}

/// FP_ROUND as an APFloat rounding direction.
pub fn rounding<F: RefFormat>(mode: u32) -> Round {
    match round_field::<F>(mode) {
        0 => Round::NearestTiesToEven,
        1 => Round::TowardPositive,
        2 => Round::TowardNegative,
        _ => Round::TowardZero,
    }
}

/// FP_DENORM input bit: keep subnormal sources.
pub fn keep_input_denorm<F: RefFormat>(mode: u32) -> bool {
    denorm_field::<F>(mode) & 1 != 0
}

/// FP_DENORM output bit: keep subnormal results.
pub fn keep_output_denorm<F: RefFormat>(mode: u32) -> bool {
    denorm_field::<F>(mode) & 2 != 0
}

/// MODE.FP16_OVFL, which only F16 results obey.
pub fn fp16_ovfl<F: RefFormat>(mode: u32) -> bool {
    F::WIDTH == 16 && mode & MODE_FP16_OVFL != 0
}

/// Section 6, "When OMOD is effective".
pub fn omod_effective<F: RefFormat>(kind: TargetKind, mode: u32, omod: u8) -> bool {
    omod != 0
        && match kind {
            TargetKind::Always => true,
            TargetKind::Gated => mode & MODE_IEEE == 0 && !keep_output_denorm::<F>(mode),
        }
}

/// Section 6, CLAMP: whether a NaN clamps to +0.
pub fn clamp_nan_to_zero(kind: TargetKind, mode: u32) -> bool {
    match kind {
        TargetKind::Always => true,
        TargetKind::Gated => mode & MODE_DX10_CLAMP != 0,
    }
}

// ---------------------------------------------------------------------------
// Small helpers on APFloat values.

fn ap<F: RefFormat>(bits: u64) -> F::Ap {
    F::Ap::from_bits(u128::from(bits))
}

fn bits_of<F: RefFormat>(x: F::Ap) -> u64 {
    x.to_bits() as u64
}

fn ap_one<F: RefFormat>() -> F::Ap {
    F::Ap::from_u128(1).value
}

fn is_nan_bits<F: RefFormat>(bits: u64) -> bool {
    bits & F::ABS_MASK > F::INF
}

fn signed_zero<F: RefFormat>(negative: bool) -> u64 {
    if negative {
        F::SIGN
    } else {
        0
    }
}

fn signed_max<F: RefFormat>(negative: bool) -> u64 {
    signed_zero::<F>(negative) | F::MAX
}

// ---------------------------------------------------------------------------
// Section 3, steps 2 and 3.

/// Step 2: ABS clears the sign bit, then NEG flips it (sign-bit operations
/// only: a NaN payload is untouched). Step 3: a subnormal source becomes a
/// zero of the same sign when the input-denormal bit is 0.
pub fn prepare_source<F: RefFormat>(bits: u64, mode: u32, abs: bool, neg: bool) -> u64 {
    let mut s = bits & (F::SIGN | F::ABS_MASK);
    if abs {
        s &= !F::SIGN;
    }
    if neg {
        s ^= F::SIGN;
    }
    if !is_nan_bits::<F>(s) && ap::<F>(s).is_denormal() && !keep_input_denorm::<F>(mode) {
        s &= F::SIGN;
    }
    s
}

/// Whether FRACT/LDEXP quiet a signalling NaN source (docs/semantics.md
/// §10.1): before GFX12 (the gated kind: GFX9, GFX10, GFX11) only with
/// MODE.IEEE = 1 (bit 9), as every VALU instruction [doc AMD ISA guides;
/// hw gfx1100 for ADD/MUL/FMA]; gfx1201 and gfx1250 always.
pub fn quiets_snan(kind: TargetKind, mode: u32) -> bool {
    match kind {
        TargetKind::Gated => mode & MODE_IEEE != 0,
        TargetKind::Always => true,
    }
}

/// A NaN source's result: quiet bit set, sign and payload kept (sections 4
/// and 5.1), unless the target keeps signalling NaNs (section 8.1).
fn quiet<F: RefFormat>(s: u64, kind: TargetKind, mode: u32) -> u64 {
    if quiets_snan(kind, mode) {
        s | F::QUIET_BIT
    } else {
        s
    }
}

// ---------------------------------------------------------------------------
// Section 4: V_FRACT, step 4 (operation, one rounding, output flush).

/// FRACT of a prepared source: rounded once and output-flushed.
pub fn fract_core<F: RefFormat>(s: u64, kind: TargetKind, mode: u32) -> u64 {
    if is_nan_bits::<F>(s) {
        return quiet::<F>(s, kind, mode);
    }
    let x = ap::<F>(s);
    if x.is_infinite() {
        // Either infinity gives the negative quiet NaN.
        return F::NEG_QUIET_NAN;
    }
    if x.is_zero() || x.is_integer() {
        // +0 in every rounding mode, toward -inf included.
        return 0;
    }
    // x - floor(x): floor is exact, and the subtraction is exact except for
    // negative |x| < 0.5, where 1 - |x| is rounded once under FP_ROUND. The
    // result is positive, so toward zero acts as toward -inf.
    let round = match rounding::<F>(mode) {
        Round::TowardZero => Round::TowardNegative,
        r => r,
    };
    let floor = x.round_to_integral(Round::TowardNegative).value;
    let r = x.sub_r(floor, round).value;
    if r.bitwise_eq(ap_one::<F>()) {
        // Rounded to 1.0: the cap, 1 - ulp.
        return F::ONE_MINUS_ULP;
    }
    if r.is_denormal() && !keep_output_denorm::<F>(mode) {
        // Output flush (only a kept positive subnormal x gets here).
        return 0;
    }
    bits_of::<F>(r)
}

// ---------------------------------------------------------------------------
// Section 5: V_LDEXP, step 4.

/// The exponent operand as the instruction reads it: F16 the low 16 bits as
/// an i16 (higher bits ignored), F32/F64 all 32 bits, two's complement.
pub fn ldexp_exponent<F: RefFormat>(exp_operand: u32) -> i64 {
    match F::WIDTH {
        16 => i64::from(exp_operand as u16 as i16),
        _ => i64::from(exp_operand as i32),
    }
}

/// LDEXP of a prepared source: rounded once and output-flushed.
/// `flush_tiny` is section 5.3's condition (output-denormal bit 0, or OMOD
/// effective).
pub fn ldexp_core<F: RefFormat>(
    s: u64,
    exp_operand: u32,
    kind: TargetKind,
    mode: u32,
    flush_tiny: bool,
) -> u64 {
    if is_nan_bits::<F>(s) {
        return quiet::<F>(s, kind, mode);
    }
    let x = ap::<F>(s);
    if x.is_infinite() || x.is_zero() {
        return s;
    }
    let negative = x.is_negative();
    let e = ldexp_exponent::<F>(exp_operand);
    // floor(log2 |v|) of the exact v = |x| * 2^e, in exact integer arithmetic.
    let log2_v = i64::from(x.ilogb()) + e;
    // Section 5.3: tininess is judged on the EXACT value, before rounding.
    // APFloat's underflow status judges after rounding, so it is not used:
    // a v just below the smallest normal that rounds up to it is still tiny.
    let tiny = log2_v < i64::from(F::Ap::MIN_EXP);
    if tiny && flush_tiny {
        // A zero with the source's sign, in every rounding mode.
        return signed_zero::<F>(negative);
    }
    // Section 5.4: overflow. A result in the normal range is exact, so the
    // rounded magnitude reaches infinity exactly when log2 |v| > emax.
    let overflow = log2_v > i64::from(F::Ap::MAX_EXP);
    if overflow && fp16_ovfl::<F>(mode) {
        return signed_max::<F>(negative);
    }
    // One rounding under FP_ROUND (subnormal results, which may carry into
    // the smallest normal); on overflow APFloat gives IEEE 754's
    // +-inf / +-max by rounding direction, which is exactly section 5.4's table.
    let e = e.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    bits_of::<F>(x.scalbn_r(e, rounding::<F>(mode)))
}

// ---------------------------------------------------------------------------
// Section 6: OMOD and CLAMP.

/// OMOD (field 1 = mul:2, 2 = mul:4, 3 = div:2) on a rounded result, when it
/// is effective.
pub fn apply_omod<F: RefFormat>(r: u64, omod: u8, mode: u32) -> u64 {
    if omod == 0 || is_nan_bits::<F>(r) {
        // NaN: unchanged, not quieted here.
        return r;
    }
    let x = ap::<F>(r);
    if x.is_infinite() {
        return r;
    }
    if x.is_zero() || x.is_denormal() {
        // +0, for negative inputs too.
        return 0;
    }
    let negative = x.is_negative();
    let round = rounding::<F>(mode);
    match omod {
        3 => {
            if x.ilogb() == F::Ap::MIN_EXP {
                // Biased exponent field 1: a zero with the input's sign.
                return signed_zero::<F>(negative);
            }
            // Exact: exponent - 1.
            bits_of::<F>(
                x.mul_r(
                    F::Ap::from_u128(2)
                        .value
                        .get_exact_inverse()
                        .expect("1/2 is exact"),
                    round,
                )
                .value,
            )
        }
        _ => {
            let k = if omod == 1 { 1 } else { 2 };
            if x.ilogb() + k > F::Ap::MAX_EXP && fp16_ovfl::<F>(mode) {
                return signed_max::<F>(negative);
            }
            // Exact unless it overflows; overflow per section 5.4 (IEEE).
            bits_of::<F>(x.mul_r(F::Ap::from_u128(1 << k).value, round).value)
        }
    }
}

/// CLAMP to [+0, 1.0]; NaN to +0 when `nan_to_zero`.
pub fn apply_clamp<F: RefFormat>(r: u64, nan_to_zero: bool) -> u64 {
    if is_nan_bits::<F>(r) {
        return if nan_to_zero { 0 } else { r };
    }
    let x = ap::<F>(r);
    if x.is_negative() {
        // Negative values, -0 included.
        return 0;
    }
    let one = ap_one::<F>();
    if x > one {
        return bits_of::<F>(one);
    }
    r
}

/// Steps 5 and 6 as decided for one instruction: the effective OMOD (0 when
/// absent or gated off) and CLAMP (`Some(nan_to_zero)` when requested).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Post {
    /// Effective OMOD field.
    pub omod: u8,
    /// CLAMP and its NaN rule.
    pub clamp: Option<bool>,
}

/// Decide steps 5 and 6 for a target kind, MODE and the encoded modifiers.
pub fn post_for<F: RefFormat>(kind: TargetKind, mode: u32, omod: u8, clamp: bool) -> Post {
    Post {
        omod: if omod_effective::<F>(kind, mode, omod) {
            omod
        } else {
            0
        },
        clamp: clamp.then(|| clamp_nan_to_zero(kind, mode)),
    }
}

/// Steps 5 and 6 on a rounded result. MODE is read only for FP_ROUND and
/// FP16_OVFL (OMOD overflow).
pub fn apply_post<F: RefFormat>(r: u64, post: Post, mode: u32) -> u64 {
    let r = apply_omod::<F>(r, post.omod, mode);
    match post.clamp {
        Some(nan_to_zero) => apply_clamp::<F>(r, nan_to_zero),
        None => r,
    }
}

/// Steps 5 and 6 for a target kind and MODE.
pub fn output_modifiers<F: RefFormat>(
    r: u64,
    kind: TargetKind,
    mode: u32,
    omod: u8,
    clamp: bool,
) -> u64 {
    apply_post::<F>(r, post_for::<F>(kind, mode, omod, clamp), mode)
}

// ---------------------------------------------------------------------------
// Whole operations.

/// V_FRACT of `bits` (format `F`) on a target of `kind`.
pub fn ref_fract<F: RefFormat>(bits: u64, mode: u32, kind: TargetKind, m: RefMods) -> u64 {
    let s = prepare_source::<F>(bits, mode, m.abs, m.neg);
    output_modifiers::<F>(fract_core::<F>(s, kind, mode), kind, mode, m.omod, m.clamp)
}

/// Section 5.3's flush_tiny: output denormals flushed, or OMOD effective.
pub fn flush_tiny<F: RefFormat>(kind: TargetKind, mode: u32, omod: u8) -> bool {
    !keep_output_denorm::<F>(mode) || omod_effective::<F>(kind, mode, omod)
}

/// V_LDEXP of `bits` (format `F`) by the raw exponent operand on a target of `kind`.
pub fn ref_ldexp<F: RefFormat>(
    bits: u64,
    exp_operand: u32,
    mode: u32,
    kind: TargetKind,
    m: RefMods,
) -> u64 {
    let s = prepare_source::<F>(bits, mode, m.abs, m.neg);
    let r = ldexp_core::<F>(
        s,
        exp_operand,
        kind,
        mode,
        flush_tiny::<F>(kind, mode, m.omod),
    );
    output_modifiers::<F>(r, kind, mode, m.omod, m.clamp)
}
