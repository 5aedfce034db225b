//! F16 ADD, MUL and FMA against the exact integer model
//! (`tests/reference/exact16.rs`), itself checked against the APFloat
//! model (`tests/reference/arith.rs`) on a sample.
//!
//! Two settings, each a target's rules and a MODE (docs/semantics.md §2):
//! gfx1201's rules under MODE 0xf0 (F16 to nearest, subnormals kept, NaNs
//! quieted), and gfx1100's under MODE 0x800008 (F16 toward -inf, F16
//! subnormals flushed in and out, FP16_OVFL, IEEE = 0 so a signalling NaN
//! passes unchanged).
//!
//! The default suite runs a strided slice: every src0 against 64 src1
//! values 1021 apart (ADD and MUL), and 2^20 FMA triples. `cargo xtask
//! verify --exhaustive` runs [`exhaustive`]: every pair of 16-bit inputs
//! (2^32) of ADD and MUL in both settings, 2^26 stratified FMA triples per
//! setting, and the exact model against APFloat on 1.5 million more cases, on
//! every core, reporting the time and mismatches of each.

mod common;
mod reference;

use std::time::Instant;

use amdgpu_valu::__testing::kernels::arith::{arith_slices, ArithOp, SourceModifiers};
use amdgpu_valu::__testing::kernels::dispatch;
use amdgpu_valu::__testing::kernels::{
    ClampNan, FloatRules, Mode, Modifiers, OmodGate, Policy, SnanPolicy, SubNan, Tininess, F16,
};

use common::Rng;
use reference::arith::{ref_arith, ArithRefMods, RefOp};
use reference::exact16::{self, Mode16, Table};
use reference::TargetKind;

/// One setting: a target's float rules, MODE, and what the model needs.
#[derive(Clone, Copy, Debug)]
struct Setting {
    name: &'static str,
    rules: FloatRules,
    mode: u32,
    /// The model's view: target kind and whether sNaNs pass with IEEE = 0.
    kind: TargetKind,
    keep_when_ieee_off: bool,
    /// A returned NaN is quieted (gfx1201 always; gfx1100 with IEEE = 1).
    quiet: bool,
}

const SETTINGS: [Setting; 2] = [
    Setting {
        name: "gfx1201 MODE 0xf0",
        rules: FloatRules {
            omod_gate: OmodGate::Always,
            clamp_nan: ClampNan::AlwaysZero,
            has_ieee_dx10_bits: false,
            snan: SnanPolicy::Quiet,
            sub_nan: SubNan::Ieee,
            tininess: Tininess::AfterRounding,
        },
        mode: 0xf0,
        kind: TargetKind::Always,
        keep_when_ieee_off: false,
        quiet: true,
    },
    Setting {
        name: "gfx1100 MODE 0x800008",
        rules: FloatRules {
            omod_gate: OmodGate::IeeeAndOutputDenorm,
            clamp_nan: ClampNan::Dx10Clamp,
            has_ieee_dx10_bits: true,
            snan: SnanPolicy::KeepWhenIeeeOff,
            sub_nan: SubNan::Ieee,
            tininess: Tininess::AfterRounding,
        },
        mode: 0x0080_0008,
        kind: TargetKind::Gated,
        keep_when_ieee_off: true,
        quiet: false,
    },
];

impl Setting {
    fn policy(&self) -> Policy {
        Policy::new::<F16>(&self.rules, Mode(self.mode), Modifiers::default())
    }
    fn table(&self) -> Table {
        Table::new(Mode16::new(self.mode, self.quiet))
    }
}

/// The model's result of `op` (ADD, MUL or FMA).
fn model(t: &Table, op: ArithOp, a: u16, b: u16, c: u16) -> u16 {
    match op {
        ArithOp::Mul => exact16::mul(t, a, b),
        ArithOp::Fma => exact16::fma(t, a, b, c),
        _ => exact16::add(t, a, b),
    }
}

/// Kernel against model on lanes `a`, `b`, `c` (c read by FMA only);
/// prints the first mismatches, returns their count.
fn compare(s: &Setting, t: &Table, op: ArithOp, a: &[u16], b: &[u16], c: &[u16]) -> u64 {
    let mut got = vec![0u16; a.len()];
    let none = SourceModifiers::default();
    arith_slices::<F16>(op, &s.policy(), none, a, b, c, &mut got);
    let mut bad = 0;
    for (i, &g) in got.iter().enumerate() {
        let (x, y) = (a[i], b[i]);
        let z = c.get(i).copied().unwrap_or(0);
        let want = model(t, op, x, y, z);
        if g != want {
            if bad < 3 {
                eprintln!(
                    "{} F16 {:#06x} {:#06x} {:#06x} under {}: kernel {g:#06x}, model {want:#06x}",
                    op.name(),
                    x,
                    y,
                    z,
                    s.name
                );
            }
            bad += 1;
        }
    }
    bad
}

/// ADD or MUL of every src0 in `a_values` against every src1 in `b`.
fn pairs(s: &Setting, t: &Table, op: ArithOp, a_values: &[u16], b: &[u16]) -> u64 {
    let mut a = vec![0u16; b.len()];
    let mut bad = 0;
    for &x in a_values {
        a.fill(x);
        bad += compare(s, t, op, &a, b, &[]);
    }
    bad
}

/// `f` over `0..n` split into one contiguous range per thread; the sum.
fn on_threads(n: usize, f: impl Fn(std::ops::Range<usize>) -> u64 + Sync) -> u64 {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, 16);
    let chunk = n.div_ceil(threads);
    std::thread::scope(|scope| {
        let f = &f;
        let runs: Vec<_> = (0..threads)
            .map(|i| scope.spawn(move || f(i * chunk..((i + 1) * chunk).min(n))))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap_or(u64::MAX)).sum()
    })
}

/// Every F16 encoding.
fn all() -> Vec<u16> {
    (0..=0xffff).collect()
}

/// A stratified F16 value: random bits, values near 1 and near powers of
/// two, subnormals, the largest finite values, zeros, infinities and NaNs.
fn stratified(rng: &mut Rng) -> u16 {
    let sign = ((rng.next() & 1) << 15) as u16;
    let pick = rng.below(100);
    let mag = if pick < 40 {
        rng.next() as u16 & 0x7fff
    } else if pick < 60 {
        // A power of two (field 1..30) nudged by up to 3 ulps.
        let field = 1 + rng.below(30) as u16;
        (field << 10)
            .wrapping_add(rng.below(7) as u16)
            .wrapping_sub(3)
            & 0x7fff
    } else if pick < 75 {
        rng.below(0x400) as u16
    } else if pick < 85 {
        0x7bff - rng.below(16) as u16
    } else if pick < 92 {
        0
    } else if pick < 96 {
        0x7c00
    } else {
        0x7c00 | (1 + rng.below(0x3ff) as u16)
    };
    sign | mag
}

/// FMA triples for src0 values `a_range` (each src0 `per` times): src1
/// stratified, src2 stratified or (half of them) the model's own product
/// a x b rounded to nearest, negated and nudged by up to 3 ulps, so the
/// sum nearly cancels.
fn fma_triples(a_range: std::ops::Range<usize>, per: usize, seed: u64) -> [Vec<u16>; 3] {
    let nearest = Table::new(Mode16::new(0xf0, true));
    let mut rng = Rng(seed ^ (a_range.start as u64) << 20);
    let mut out = [Vec::new(), Vec::new(), Vec::new()];
    for a in a_range {
        let a = a as u16;
        for _ in 0..per {
            let b = stratified(&mut rng);
            let c = if rng.below(2) == 0 {
                let p = exact16::mul(&nearest, a, b) ^ 0x8000;
                p.wrapping_add(rng.below(7) as u16).wrapping_sub(3)
            } else {
                stratified(&mut rng)
            };
            out[0].push(a);
            out[1].push(b);
            out[2].push(c);
        }
    }
    out
}

/// FMA on `per` stratified triples for each src0 in `a_range`.
fn fma_sample(s: &Setting, t: &Table, a_range: std::ops::Range<usize>, per: usize) -> u64 {
    let mut bad = 0;
    for start in a_range.clone().step_by(64) {
        let r = start..(start + 64).min(a_range.end);
        let [a, b, c] = fma_triples(r, per, 0xf3a);
        bad += compare(s, t, ArithOp::Fma, &a, &b, &c);
    }
    bad
}

/// The exact model against the APFloat model on `n` cases per operation
/// and setting (stratified sources, near cancellations for FMA).
fn model_against_apfloat(n: usize, seed: u64) -> u64 {
    let nearest = Table::new(Mode16::new(0xf0, true));
    let mut bad = 0;
    for s in &SETTINGS {
        let t = s.table();
        let mut rng = Rng(seed);
        for (op, ref_op) in [
            (ArithOp::Add, RefOp::Add),
            (ArithOp::Mul, RefOp::Mul),
            (ArithOp::Fma, RefOp::Fma),
        ] {
            for i in 0..n {
                let a = if i % 2 == 0 {
                    rng.next() as u16
                } else {
                    stratified(&mut rng)
                };
                let b = stratified(&mut rng);
                let c = if rng.below(2) == 0 {
                    let p = exact16::mul(&nearest, a, b) ^ 0x8000;
                    p.wrapping_add(rng.below(7) as u16).wrapping_sub(3)
                } else {
                    stratified(&mut rng)
                };
                let fast = model(&t, op, a, b, c);
                let srcs = [a, b, c].map(u64::from);
                let none = ArithRefMods::default();
                let slow =
                    ref_arith::<F16>(ref_op, srcs, s.mode, s.kind, s.keep_when_ieee_off, none);
                if u64::from(fast) != slow {
                    if bad < 3 {
                        eprintln!(
                            "model {} {a:#06x} {b:#06x} {c:#06x} under {}: exact {fast:#06x}, APFloat {slow:#06x}",
                            op.name(),
                            s.name
                        );
                    }
                    bad += 1;
                }
            }
        }
    }
    bad
}

/// The models agree with each other and with the contract's F16 examples
/// (derived by hand in `tests/verify_arith.rs`): 65504 + 2^-48 rounds up
/// to infinity toward +inf, 0 x inf beats a NaN addend, 1.5 x 65504 to
/// nearest overflows, and with FP16_OVFL (any direction) saturates.
#[test]
fn exact_model_examples_and_apfloat_sample() {
    let up_kept = Table::new(Mode16::new(0xc4, true));
    assert_eq!(exact16::fma(&up_kept, 0x0001, 0x0001, 0x7bff), 0x7c00);
    let t = SETTINGS[0].table();
    assert_eq!(exact16::fma(&t, 0x0000, 0x7c00, 0x7e01), 0xfe00);
    assert_eq!(exact16::mul(&t, 0x3e00, 0x7bff), 0x7c00);
    let ovfl = Table::new(Mode16::new(0x0080_0000, true));
    assert_eq!(exact16::mul(&ovfl, 0x3e00, 0x7bff), 0x7bff);
    // gfx1100 IEEE = 0: the sNaN src0 passes as it is.
    let keep = SETTINGS[1].table();
    assert_eq!(exact16::add(&keep, 0x7c01, 0xfe00), 0x7c01);
    assert_eq!(model_against_apfloat(20_000, 0xa9f), 0);
}

/// Default suite: ADD and MUL of every src0 against 64 src1 values 1021
/// apart, and FMA on 16 stratified triples for each src0, in both
/// settings.
#[test]
fn f16_against_exact_model_strided() {
    let b: Vec<u16> = (0..64u32).map(|j| (j * 1021 + 0x1bd) as u16).collect();
    let a = all();
    let bad = on_threads(SETTINGS.len() * 2, |r| {
        r.map(|i| {
            let s = &SETTINGS[i / 2];
            let t = s.table();
            let op = [ArithOp::Add, ArithOp::Mul][i % 2];
            pairs(s, &t, op, &a, &b) + fma_sample(s, &t, (i % 2) * 0x8000..(i % 2 + 1) * 0x8000, 8)
        })
        .sum()
    });
    assert_eq!(bad, 0);
}

/// Every pair of F16 inputs of ADD and MUL in both settings, 2^26
/// stratified FMA triples per setting and the exact model against APFloat
/// on 1.5 million cases: `cargo xtask verify --exhaustive` (release, every core).
#[test]
#[ignore = "exhaustive: cargo xtask verify --exhaustive"]
fn exhaustive() {
    let start = Instant::now();
    let b = all();
    let mut total = 0;
    for s in &SETTINGS {
        let t = s.table();
        for op in [ArithOp::Add, ArithOp::Mul] {
            let clock = Instant::now();
            let bad = on_threads(0x10000, |r| {
                let a: Vec<u16> = r.map(|x| x as u16).collect();
                pairs(s, &t, op, &a, &b)
            });
            println!(
                "F16 {} {}: 4294967296 pairs, {bad} mismatches, {:.1} s",
                op.name(),
                s.name,
                clock.elapsed().as_secs_f64()
            );
            total += bad;
        }
        let clock = Instant::now();
        let bad = on_threads(0x10000, |r| fma_sample(s, &t, r, 1024));
        println!(
            "F16 fma {}: {} stratified triples, {bad} mismatches, {:.1} s",
            s.name,
            0x10000u64 * 1024,
            clock.elapsed().as_secs_f64()
        );
        total += bad;
    }
    let clock = Instant::now();
    let bad = on_threads(4, |r| {
        r.map(|i| model_against_apfloat(1 << 16, 0x5eed + i as u64))
            .sum()
    });
    println!(
        "exact model against APFloat: {} cases, {bad} mismatches, {:.1} s",
        (4u64 << 16) * 6,
        clock.elapsed().as_secs_f64()
    );
    total += bad;
    println!(
        "F16 exhaustive: {total} mismatches in {:.1} s (SIMD variant {})",
        start.elapsed().as_secs_f64(),
        dispatch::selected().name()
    );
    assert_eq!(total, 0);
}
