//! The yardsticks of the arithmetic rows (ADD, MUL, FMA): rustc_apfloat,
//! Berkeley SoftFloat 3 (`softfloat-sys`, C) and a naive host-float loop.
//! Each computes the plain IEEE operation to nearest-even, not the AMD
//! rules: they measure what a software float costs, not what is right.
//!
//! Host floating point appears here ONLY in the naive loop, a speed
//! yardstick and never a source of emulated results.

use amdgpu_valu::__testing::kernels::arith::ArithOp;
use amdgpu_valu::__testing::kernels::{Format, FormatKind};

/// rustc_apfloat over the lanes, nearest-even.
pub fn apfloat<F: Format>(op: ArithOp, src: [&[F::Bits]; 3], dst: &mut [F::Bits]) {
    use rustc_apfloat::ieee::{Double, Half, Single};
    use rustc_apfloat::{Float, Round};
    fn one<T: Float>(op: ArithOp, a: u64, b: u64, c: u64) -> u64 {
        let (a, b, c) = (
            T::from_bits(u128::from(a)),
            T::from_bits(u128::from(b)),
            T::from_bits(u128::from(c)),
        );
        let r = Round::NearestTiesToEven;
        let v = match op {
            ArithOp::Add => a.add_r(b, r).value,
            ArithOp::Sub => a.sub_r(b, r).value,
            ArithOp::Subrev => b.sub_r(a, r).value,
            ArithOp::Mul => a.mul_r(b, r).value,
            ArithOp::Fma => a.mul_add_r(b, c, r).value,
        };
        v.to_bits() as u64
    }
    let c = if op == ArithOp::Fma { src[2] } else { src[1] };
    for (i, d) in dst.iter_mut().enumerate() {
        let (a, b, c) = (F::widen(src[0][i]), F::widen(src[1][i]), F::widen(c[i]));
        *d = F::narrow(match F::KIND {
            FormatKind::F16 => one::<Half>(op, a, b, c),
            FormatKind::F32 => one::<Single>(op, a, b, c),
            FormatKind::F64 => one::<Double>(op, a, b, c),
        });
    }
}

/// Berkeley SoftFloat 3 over the lanes, nearest-even (its default
/// rounding mode, set once per call).
pub fn softfloat<F: Format>(op: ArithOp, src: [&[F::Bits]; 3], dst: &mut [F::Bits]) {
    use softfloat_sys as sf;
    // SAFETY (every call below): SoftFloat's functions are pure C on
    // plain-old-data arguments; the rounding-mode helper writes a
    // thread-local.
    unsafe { sf::softfloat_roundingMode_write_helper(sf::softfloat_round_near_even) };
    let c = if op == ArithOp::Fma { src[2] } else { src[1] };
    macro_rules! lanes {
        ($t:ident, $bits:ty, $add:ident, $sub:ident, $mul:ident, $fma:ident) => {
            for (i, d) in dst.iter_mut().enumerate() {
                let w = |x: F::Bits| sf::$t {
                    v: F::widen(x) as $bits,
                };
                let (a, b, c) = (w(src[0][i]), w(src[1][i]), w(c[i]));
                let r = unsafe {
                    match op {
                        ArithOp::Add => sf::$add(a, b),
                        ArithOp::Sub => sf::$sub(a, b),
                        ArithOp::Subrev => sf::$sub(b, a),
                        ArithOp::Mul => sf::$mul(a, b),
                        ArithOp::Fma => sf::$fma(a, b, c),
                    }
                };
                *d = F::narrow(u64::from(r.v));
            }
        };
    }
    match F::KIND {
        FormatKind::F16 => lanes!(float16_t, u16, f16_add, f16_sub, f16_mul, f16_mulAdd),
        FormatKind::F32 => lanes!(float32_t, u32, f32_add, f32_sub, f32_mul, f32_mulAdd),
        FormatKind::F64 => lanes!(float64_t, u64, f64_add, f64_sub, f64_mul, f64_mulAdd),
    }
}

/// The naive host loop: `a + b`, `a * b`, `a.mul_add(b, c)` in host floats
/// (F16 through f32, its FMA through f64: not bit-exact, a yardstick).
pub fn naive<F: Format>(op: ArithOp, src: [&[F::Bits]; 3], dst: &mut [F::Bits]) {
    let c = if op == ArithOp::Fma { src[2] } else { src[1] };
    macro_rules! lanes {
        ($to:expr, $from:expr, $fma:expr) => {
            for (i, d) in dst.iter_mut().enumerate() {
                let (a, b, c) = (
                    $to(F::widen(src[0][i])),
                    $to(F::widen(src[1][i])),
                    $to(F::widen(c[i])),
                );
                let r = match op {
                    ArithOp::Add => a + b,
                    ArithOp::Sub => a - b,
                    ArithOp::Subrev => b - a,
                    ArithOp::Mul => a * b,
                    ArithOp::Fma => $fma(a, b, c),
                };
                *d = F::narrow($from(r));
            }
        };
    }
    match F::KIND {
        FormatKind::F16 => lanes!(
            |x: u64| half::f16::from_bits(x as u16).to_f32(),
            |r: f32| u64::from(half::f16::from_f32(r).to_bits()),
            |a: f32, b: f32, c: f32| (f64::from(a) * f64::from(b) + f64::from(c)) as f32
        ),
        FormatKind::F32 => lanes!(
            |x: u64| f32::from_bits(x as u32),
            |r: f32| u64::from(r.to_bits()),
            f32::mul_add
        ),
        FormatKind::F64 => lanes!(f64::from_bits, f64::to_bits, f64::mul_add),
    }
}
