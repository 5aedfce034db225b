//! Results never depend on the host's floating-point environment: every
//! F16 FRACT and LDEXP result, and a spread of ADD, SUB, SUBREV, MUL and FMA
//! results in every format, is computed twice, once under the default
//! environment and once with the host set to round toward zero with
//! flush-to-zero and denormals-are-zero, and the bits must agree.

use amdgpu_valu::__testing::kernels::{dispatch, Fract, KernelPath, Ldexp, Slices};
use amdgpu_valu::__testing::kernels::{ClampNan, Format, SnanPolicy, SubNan, Tininess};
use amdgpu_valu::__testing::kernels::{
    FloatRules, Mode, Modifiers, Omod, OmodGate, Policy, F16, F32, F64,
};

const RULES: FloatRules = FloatRules {
    omod_gate: OmodGate::Always,
    clamp_nan: ClampNan::AlwaysZero,
    has_ieee_dx10_bits: false,
    snan: SnanPolicy::Quiet,
    sub_nan: SubNan::Ieee,
    tininess: Tininess::AfterRounding,
};

/// A digest of many results: all F16 inputs, and a spread of F32/F64 ones,
/// under several modes and modifiers.
fn sweep() -> Vec<u64> {
    let mut out = Vec::new();
    let f16: Vec<u16> = (0..=u16::MAX).collect();
    let exps: Vec<i32> = (0..f16.len()).map(|i| (i as i32 % 61) - 30).collect();
    for mode in [0xf0, 0xfc, 0x00, 0x0080_00f4] {
        for omod in [Omod::None, Omod::Mul2, Omod::Div2] {
            let mods = Modifiers {
                omod,
                ..Modifiers::default()
            };
            let p = Policy::new::<F16>(&RULES, Mode(mode), mods);
            let mut dst = vec![0u16; f16.len()];
            dispatch::run::<Fract, F16, _>(
                KernelPath::Scalar,
                &mut Slices::new(&f16, &exps, &mut dst),
                &p,
            );
            out.extend(dst.iter().map(|&d| u64::from(d)));
            dispatch::run::<Ldexp, F16, _>(
                KernelPath::Scalar,
                &mut Slices::new(&f16, &exps, &mut dst),
                &p,
            );
            out.extend(dst.iter().map(|&d| u64::from(d)));
        }
    }
    // F32/F64: a deterministic spread of bit patterns (xorshift).
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut f32s = vec![0u32; 4096];
    let mut f64s = vec![0u64; 4096];
    for (a, b) in f32s.iter_mut().zip(f64s.iter_mut()) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        *a = s as u32;
        *b = s;
    }
    let exps = &exps[..4096];
    for mode in [0xf0, 0xf3, 0xfa, 0x00] {
        out.extend(run::<F32>(&f32s, exps, mode).into_iter().map(u64::from));
        out.extend(run::<F64>(&f64s, exps, mode));
    }
    out.extend(arithmetic(&f16, &f32s, &f64s));
    out.extend(assembled_literals());
    out
}

/// The arithmetic kernels (through the test hook): every F16 encoding as
/// src0 against a rotated src1 and src2, and the F32/F64 spread, under
/// nearest/kept, toward zero, toward -inf flushed, and FP16_OVFL modes.
fn arithmetic(f16: &[u16], f32s: &[u32], f64s: &[u64]) -> Vec<u64> {
    use amdgpu_valu::__testing::arith_lanes;
    use amdgpu_valu::__testing::kernels::arith::{ArithInstr, ArithOp};
    use amdgpu_valu::FormatKind;
    let rotate = |v: &[u64], k: usize| -> Vec<u64> {
        v.iter().cycle().skip(k).take(v.len()).copied().collect()
    };
    let a16: Vec<u64> = f16.iter().map(|&x| u64::from(x)).collect();
    let a32: Vec<u64> = f32s.iter().map(|&x| u64::from(x)).collect();
    let cases = [
        (
            FormatKind::F16,
            rotate(&a16, 0),
            rotate(&a16, 12_345),
            rotate(&a16, 777),
        ),
        (
            FormatKind::F32,
            rotate(&a32, 0),
            rotate(&a32, 1),
            rotate(&a32, 2),
        ),
        (
            FormatKind::F64,
            rotate(f64s, 0),
            rotate(f64s, 1),
            rotate(f64s, 2),
        ),
    ];
    let mut out = Vec::new();
    for (format, a, b, c) in &cases {
        for mode in [0xf0, 0xff, 0x0a, 0x0080_00f4] {
            for op in ArithOp::ALL {
                for omod in [Omod::None, Omod::Div2] {
                    let i = ArithInstr {
                        omod,
                        ..ArithInstr::new(op)
                    };
                    let mut dst = vec![0u64; a.len()];
                    arith_lanes(i, *format, &RULES, Mode(mode), [a, b, c], &mut dst)
                        .expect("lanes of equal length, in range");
                    out.extend(dst);
                }
            }
        }
    }
    out
}

/// Float literals in assembly text are converted to operand encodings; the
/// bytes must not depend on the host either (0.1 and 0.3 are inexact in
/// every format; 1e-40 is an F32 subnormal; 65519.0 is an F16 tie).
fn assembled_literals() -> Vec<u64> {
    use amdgpu_valu::{asm, Target};
    let literals = [
        "0.1",
        "0.3",
        "-0.7",
        "1e-40",
        "3.0e38",
        "65519.0",
        "1.00000001",
        "6.1e-5",
        "2.9e-8",
    ];
    let mut out = Vec::new();
    for target in [Target::Gfx908, Target::Gfx1030, Target::Gfx1201] {
        for lit in literals {
            for text in [
                format!("v_fract_f32 v0, {lit}"),
                format!("v_fract_f64 v[0:1], {lit}"),
                format!("v_ldexp_f32 v0, {lit}, v1"),
                format!("v_fract_f16_e64 v0, {lit}"),
            ] {
                // Accepted or rejected, the outcome must be the same.
                match asm::assemble(target, &text) {
                    Ok(bytes) => out.extend(bytes.iter().map(|&b| u64::from(b))),
                    Err(e) => out.push(e.column as u64 | 1 << 40),
                }
            }
        }
    }
    out
}

fn run<F: Format>(src: &[F::Bits], exps: &[i32], mode: u32) -> Vec<F::Bits> {
    let p = Policy::new::<F>(&RULES, Mode(mode), Modifiers::default());
    let mut dst = vec![F::Bits::default(); src.len()];
    let mut out = Vec::new();
    dispatch::run::<Fract, F, _>(
        KernelPath::Scalar,
        &mut Slices::<F>::new(src, exps, &mut dst),
        &p,
    );
    out.extend_from_slice(&dst);
    dispatch::run::<Ldexp, F, _>(
        KernelPath::Scalar,
        &mut Slices::<F>::new(src, exps, &mut dst),
        &p,
    );
    out.extend_from_slice(&dst);
    out
}

#[cfg(target_arch = "x86_64")]
mod host {
    /// MXCSR: rounding toward zero (bits 14:13 = 11), FTZ (bit 15), DAZ (bit 6).
    pub const HOSTILE: u32 = 0x1f80 | (3 << 13) | (1 << 15) | (1 << 6);

    pub fn get() -> u32 {
        let mut v: u32 = 0;
        // SAFETY: stmxcsr stores the 32-bit MXCSR to the given address.
        unsafe { core::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack)) };
        v
    }

    pub fn set(v: u32) {
        // SAFETY: ldmxcsr loads a valid MXCSR value (reserved bits clear).
        unsafe { core::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack)) };
    }

    /// Proves the environment took effect: 1.0 / 3.0 rounds down under it.
    /// The division is done in asm so the compiler cannot move it across
    /// the MXCSR writes (it assumes a fixed floating-point environment).
    pub fn host_division_bits() -> u32 {
        let mut a: f32 = 1.0;
        let b: f32 = 3.0;
        // SAFETY: divss on two xmm registers; no memory access.
        unsafe {
            core::arch::asm!("divss {a}, {b}", a = inout(xmm_reg) a, b = in(xmm_reg) b, options(nostack, nomem))
        };
        a.to_bits()
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn results_are_identical_under_a_hostile_host_rounding_mode() {
    let reference = sweep();
    let saved = host::get();
    let nearest = host::host_division_bits();
    host::set(host::HOSTILE);
    let toward_zero = host::host_division_bits();
    let hostile = sweep();
    host::set(saved);
    // The host really was switched: 1/3 is 0x3eaaaaab to nearest, 0x3eaaaaaa toward zero.
    assert_eq!((nearest, toward_zero), (0x3eaa_aaab, 0x3eaa_aaaa));
    assert_eq!(reference.len(), hostile.len());
    let first_diff = reference.iter().zip(&hostile).position(|(a, b)| a != b);
    assert_eq!(
        first_diff, None,
        "a result changed with the host's rounding mode"
    );
}

#[cfg(not(target_arch = "x86_64"))]
#[test]
fn results_are_identical_across_runs() {
    // No portable way to switch the host environment here; at least the
    // results must be deterministic.
    assert_eq!(sweep(), sweep());
}
