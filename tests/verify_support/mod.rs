//! The comparison engine behind `tests/verify.rs`: runs the kernels and the
//! reference model over a space of cases, counts, and reports mismatches as
//! replay rows.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use amdgpu_valu::__testing::kernels::dispatch;
use amdgpu_valu::__testing::kernels::format::{Format, FormatKind, F16};
use amdgpu_valu::__testing::kernels::{run, Fract, KernelPath, Ldexp, Slices};
use amdgpu_valu::__testing::kernels::{
    ClampNan, FloatRules, Mode, Modifiers, Omod, OmodGate, Policy, SnanPolicy, SubNan, Tininess,
};
use amdgpu_valu::{execute, Encoding, Instruction, Opcode, Operand, Target, Wave, WaveSize};

use crate::common::Rng;
use crate::reference::{self as model, Post, RefFormat, RefMods, TargetKind};

/// Generated F32/F64 batches of [`LANES`] cases in the default suite (10,048 cases).
pub const DEFAULT_BATCHES: usize = 157;
/// Generated batches in the exhaustive run: 4,194,304 cases, every MODE /
/// OMOD / CLAMP / ABS-NEG / target-kind combination 8 times.
pub const EXHAUSTIVE_BATCHES: usize = 65_536;
/// Lanes per generated batch (one policy per batch, as one instruction).
pub const LANES: usize = 64;
/// Mismatches shown per instruction and format.
const SHOWN: usize = 5;

/// The instruction under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// V_FRACT_*
    Fract,
    /// V_LDEXP_*
    Ldexp,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Fract => "v_fract",
            Op::Ldexp => "v_ldexp",
        }
    }
}

// ---------------------------------------------------------------------------
// Reporting.

/// Counts for one instruction, format and path family.
#[derive(Default)]
pub struct Tally {
    /// Cases compared.
    pub cases: u64,
    /// Cases whose bits differ.
    pub mismatches: u64,
    /// The first few, as replay rows.
    pub rows: Vec<String>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.cases += other.cases;
        self.mismatches += other.mismatches;
        for r in other.rows {
            if self.rows.len() < SHOWN {
                self.rows.push(r);
            }
        }
    }

    /// One case on both kernel paths: a mismatch when either path differs.
    fn check_paths(
        &mut self,
        expected: u64,
        scalar: u64,
        simd: u64,
        row: impl FnOnce(u64, &str) -> String,
    ) {
        self.cases += 1;
        let bad = [(scalar, "kernel Scalar path"), (simd, "kernel Simd path")]
            .into_iter()
            .find(|&(g, _)| g != expected);
        if let Some((got, path)) = bad {
            self.mismatches += 1;
            if self.rows.len() < SHOWN {
                self.rows.push(row(got, path));
            }
        }
    }

    fn check(&mut self, expected: u64, got: u64, row: impl FnOnce() -> String) {
        self.cases += 1;
        if expected != got {
            self.mismatches += 1;
            if self.rows.len() < SHOWN {
                self.rows.push(row());
            }
        }
    }
}

/// One line of the report.
struct Line {
    what: String,
    kernel: Tally,
    exec: Tally,
    time: Duration,
}

/// The report of one test: printed at the end, and a failure when anything
/// mismatched.
pub struct Report {
    scope: &'static str,
    lines: Vec<Line>,
}

impl Report {
    /// An empty report.
    pub fn new(scope: &'static str) -> Report {
        Report {
            scope,
            lines: Vec::new(),
        }
    }

    fn add(&mut self, what: String, kernel: Tally, exec: Tally, time: Duration) {
        let line = Line {
            what,
            kernel,
            exec,
            time,
        };
        println!("{}", render(&line));
        self.lines.push(line);
    }

    /// Print the summary and fail on any mismatch.
    pub fn finish(self) {
        let mut failed = 0;
        println!(
            "verify ({}) summary, SIMD path in the {} variant:",
            self.scope,
            dispatch::selected().name()
        );
        for l in &self.lines {
            println!("{}", render(l).lines().next().unwrap_or_default());
            failed += l.kernel.mismatches + l.exec.mismatches;
        }
        assert_eq!(
            failed, 0,
            "{failed} mismatches between the kernels and the reference model (rows above)"
        );
    }
}

fn render(l: &Line) -> String {
    let mut s = format!(
        "  {:<12} kernel (scalar+simd): {:>13} cases, {} mismatches; execute: {:>10} cases, {} mismatches; {:.2} s",
        l.what,
        l.kernel.cases,
        l.kernel.mismatches,
        l.exec.cases,
        l.exec.mismatches,
        l.time.as_secs_f64()
    );
    for r in l.kernel.rows.iter().chain(&l.exec.rows) {
        s.push_str("\n    ");
        s.push_str(r);
    }
    s
}

// ---------------------------------------------------------------------------
// Targets, policies and replay rows.

/// The targets of each kind (docs/semantics.md §1), rotated through by the
/// execute path.
const GATED_TARGETS: [Target; 8] = [
    Target::Gfx908,
    Target::Gfx90a,
    Target::Gfx942,
    Target::Gfx950,
    Target::Gfx1010,
    Target::Gfx1030,
    Target::Gfx1100,
    Target::Gfx1150,
];
const ALWAYS_TARGETS: [Target; 2] = [Target::Gfx1201, Target::Gfx1250];

fn target_for(kind: TargetKind, i: usize) -> Target {
    match kind {
        TargetKind::Gated => GATED_TARGETS[i % GATED_TARGETS.len()],
        TargetKind::Always => ALWAYS_TARGETS[i % ALWAYS_TARGETS.len()],
    }
}

/// True16 targets (docs/semantics.md §1).
fn true16(t: Target) -> bool {
    matches!(
        t,
        Target::Gfx1100 | Target::Gfx1150 | Target::Gfx1201 | Target::Gfx1250
    )
}

/// GFX9 zeroes the high half of F16 results (docs/semantics.md §7.5).
fn zeroes_high(t: Target) -> bool {
    matches!(
        t,
        Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950
    )
}

/// The kernels' float rules for a target kind, from docs/semantics.md §1.
fn rules(kind: TargetKind) -> FloatRules {
    match kind {
        TargetKind::Gated => FloatRules {
            omod_gate: OmodGate::IeeeAndOutputDenorm,
            clamp_nan: ClampNan::Dx10Clamp,
            has_ieee_dx10_bits: true,
            snan: SnanPolicy::KeepWhenIeeeOff,
            sub_nan: SubNan::Ieee,
            tininess: Tininess::AfterRounding,
        },
        TargetKind::Always => FloatRules {
            omod_gate: OmodGate::Always,
            clamp_nan: ClampNan::AlwaysZero,
            has_ieee_dx10_bits: false,
            snan: SnanPolicy::Quiet,
            sub_nan: SubNan::Ieee,
            tininess: Tininess::AfterRounding,
        },
    }
}

fn policy<F: Format>(kind: TargetKind, mode: u32, m: RefMods) -> Policy {
    let mods = Modifiers {
        abs: m.abs,
        neg: m.neg,
        omod: Omod::from_field(u32::from(m.omod)),
        clamp: m.clamp,
    };
    Policy::new::<F>(&rules(kind), Mode(mode), mods)
}

/// The exponent as the executor hands it to the kernel: F16 the low 16 bits
/// as an i16, otherwise all 32 bits.
fn kernel_exp<F: Format>(operand: u32) -> i32 {
    if F::KIND == FormatKind::F16 {
        i32::from(operand as u16 as i16)
    } else {
        operand as i32
    }
}

fn opcode<F: Format>(op: Op) -> Opcode {
    match (op, F::KIND) {
        (Op::Fract, FormatKind::F16) => Opcode::FractF16,
        (Op::Fract, FormatKind::F32) => Opcode::FractF32,
        (Op::Fract, FormatKind::F64) => Opcode::FractF64,
        (Op::Ldexp, FormatKind::F16) => Opcode::LdexpF16,
        (Op::Ldexp, FormatKind::F32) => Opcode::LdexpF32,
        (Op::Ldexp, FormatKind::F64) => Opcode::LdexpF64,
    }
}

fn hex<F: Format>(v: u64) -> String {
    match F::KIND {
        FormatKind::F16 | FormatKind::F32 => format!("0x{v:08x}"),
        FormatKind::F64 => format!("0x{v:016x}"),
    }
}

/// A replay row (docs/captures.md) for one case on `target`: registers not named
/// start at 0, so an F16 result's other half reads 0 on every target. The
/// expected column is the model's; the kernel's bits follow as a comment.
#[allow(clippy::too_many_arguments)]
fn replay_row<F: Format>(
    target: Target,
    op: Op,
    mode: u32,
    m: RefMods,
    src: u64,
    exp: u32,
    expected: u64,
    got: u64,
    path: &str,
) -> String {
    let t16 = true16(target);
    let (dst, src_reg, exp_reg) = match F::KIND {
        FormatKind::F16 if t16 => ("v0.l", "v1.l", "v2.l"),
        FormatKind::F16 | FormatKind::F32 => ("v0", "v1", "v2"),
        FormatKind::F64 => ("v[0:1]", "v[2:3]", "v4"),
    };
    let src_syntax = match (m.abs, m.neg) {
        (false, false) => src_reg.to_string(),
        (true, false) => format!("|{src_reg}|"),
        (false, true) => format!("-{src_reg}"),
        (true, true) => format!("-|{src_reg}|"),
    };
    let mnemonic = match (op, F::KIND) {
        (Op::Fract, k) => format!("v_fract_{}_e64", k.name()),
        (Op::Ldexp, FormatKind::F16) => "v_ldexp_f16_e64".to_string(),
        (Op::Ldexp, k) => format!("v_ldexp_{}", k.name()),
    };
    let mut instr = match op {
        Op::Fract => format!("{mnemonic} {dst}, {src_syntax}"),
        Op::Ldexp => format!("{mnemonic} {dst}, {src_syntax}, {exp_reg}"),
    };
    if m.clamp {
        instr.push_str(" clamp");
    }
    instr.push_str(match m.omod {
        1 => " mul:2",
        2 => " mul:4",
        3 => " div:2",
        _ => "",
    });
    let src_name = src_reg.trim_end_matches(".l");
    let dst_name = dst.trim_end_matches(".l");
    let exp_name = exp_reg.trim_end_matches(".l");
    let mut inputs = format!("{src_name}={}", hex::<F>(src));
    if op == Op::Ldexp {
        inputs.push_str(&format!(" {exp_name}=0x{exp:08x}"));
    }
    format!(
        "{target}\t0x{mode:08x}\t{instr}\t{inputs}\t{dst_name}={}\t# {path} gave {dst_name}={}",
        hex::<F>(expected),
        hex::<F>(got)
    )
}

/// Run the kernel on one path.
fn kernel<F: Format>(
    op: Op,
    path: KernelPath,
    src: &[F::Bits],
    exp: &[i32],
    p: &Policy,
) -> Vec<F::Bits> {
    let mut dst = vec![F::Bits::default(); src.len()];
    let mut lanes = Slices::<F> {
        src,
        exp,
        dst: &mut dst,
    };
    match op {
        Op::Fract => run::<Fract, F, _>(path, &mut lanes, p),
        Op::Ldexp => run::<Ldexp, F, _>(path, &mut lanes, p),
    }
    dst
}

/// Run cases through `amdgpu_valu::execute` on `target` in wave64 chunks
/// (VOP3, so every modifier is encodable) and return each lane's whole
/// destination: the result, and for F16 the other half of the register
/// (poisoned before, so a stray write shows).
fn execute_cases<F: Format>(
    target: Target,
    op: Op,
    mode: u32,
    m: RefMods,
    srcs: &[u64],
    exps: &[u32],
) -> Vec<u64> {
    const POISON: u32 = 0xa5a5_a5a5;
    let mut wave = Wave::for_target_with_size(target, WaveSize::Wave64)
        .unwrap_or_else(|_| Wave::for_target(target));
    wave.set_mode(mode);
    let lanes = wave.lanes();
    let t16 = true16(target) && F::KIND == FormatKind::F16;
    let reg = |n: u16| if t16 { Operand::v_lo(n) } else { Operand::v(n) };
    let (dst, src, exp) = match F::KIND {
        FormatKind::F64 => (reg(0), reg(2), reg(4)),
        _ => (reg(0), reg(1), reg(2)),
    };
    let mut instr = match op {
        Op::Fract => Instruction::unary(opcode::<F>(op), Encoding::Vop3, dst, src),
        Op::Ldexp => Instruction::binary(opcode::<F>(op), Encoding::Vop3, dst, src, exp),
    };
    instr.src0_mods.abs = m.abs;
    instr.src0_mods.neg = m.neg;
    instr.clamp = m.clamp;
    instr.omod = Omod::from_field(u32::from(m.omod));
    let mut out = Vec::with_capacity(srcs.len());
    for (chunk, echunk) in srcs.chunks(lanes).zip(exps.chunks(lanes)) {
        for lane in 0..lanes {
            let s = chunk.get(lane).copied().unwrap_or(0);
            let e = echunk.get(lane).copied().unwrap_or(0);
            let ok = match F::KIND {
                FormatKind::F64 => wave
                    .set_vgpr64(0, lane, u64::from(POISON) * 0x1_0000_0001)
                    .and(wave.set_vgpr64(2, lane, s))
                    .and(wave.set_vgpr(4, lane, e)),
                // True16: junk in the unused source half, which is ignored.
                FormatKind::F16 if t16 => wave
                    .set_vgpr(0, lane, POISON)
                    .and(wave.set_vgpr(1, lane, 0x5a5a_0000 | s as u32))
                    .and(wave.set_vgpr(2, lane, e)),
                _ => wave
                    .set_vgpr(0, lane, POISON)
                    .and(wave.set_vgpr(1, lane, s as u32))
                    .and(wave.set_vgpr(2, lane, e)),
            };
            ok.expect("registers in range");
        }
        if let Err(err) = execute(target, &mut wave, &instr) {
            panic!("{target}: execute refused {instr:?}: {err}");
        }
        for lane in 0..chunk.len() {
            out.push(match F::KIND {
                FormatKind::F64 => wave.vgpr64(0, lane).expect("in range"),
                _ => u64::from(wave.vgpr(0, lane).expect("in range")),
            });
        }
    }
    out
}

/// The whole destination register `execute` must leave for a result `r`.
fn expected_register<F: Format>(target: Target, r: u64) -> u64 {
    match F::KIND {
        // GFX9 zeroes the other half; GFX10 and true16 targets preserve it.
        FormatKind::F16 if zeroes_high(target) => r,
        FormatKind::F16 => 0xa5a5_0000 | r,
        _ => r,
    }
}

// ---------------------------------------------------------------------------
// F16: the whole space or a strided subset of it.

/// How much of the F16 space to compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F16Scope {
    /// Every source under every setting.
    All,
    /// A deterministic strided subset (the default suite).
    Strided,
}

/// The exponent operands of LDEXP_F16 (raw 32-bit registers): -45..=45,
/// +-32767, -32768, and values with junk in bits 16..31.
fn f16_exponents() -> Vec<u32> {
    let mut v: Vec<u32> = (-45i32..=45).map(|e| e as u32).collect();
    v.extend([0x7fff, (-32767i32) as u32, 0x8000]);
    // Junk above bit 15: the low 16 bits as an i16 are -1, 10, 0, 32767, -14, -32768.
    v.extend([
        0xde3d_ffff,
        0x0001_000a,
        0xffff_0000,
        0x8000_7fff,
        0x1234_fff2,
        0x7fff_8000,
    ]);
    v
}

/// The 16 F16 MODE settings (4 roundings x 4 denormal pairs). The F32 fields
/// hold the opposite settings so that reading the wrong field shows.
fn f16_modes() -> Vec<u32> {
    let mut v = Vec::new();
    for round in 0..4u32 {
        for denorm in 0..4u32 {
            let f32_fields = (3 - round) | ((3 - denorm) << 4);
            v.push((round << 2) | (denorm << 6) | f32_fields);
        }
    }
    v
}

/// The output-modifier settings per source setting: for each OMOD, CLAMP off
/// and on; on the gated target MODE.IEEE both ways, and MODE.DX10_CLAMP both
/// ways when CLAMP is on (the only time it is read).
fn f16_post_configs() -> Vec<(TargetKind, u32, RefMods)> {
    const IEEE: u32 = 1 << 9;
    const DX10: u32 = 1 << 8;
    let mut v = Vec::new();
    for omod in 0..4u8 {
        for clamp in [false, true] {
            let m = RefMods {
                omod,
                clamp,
                abs: false,
                neg: false,
            };
            v.push((TargetKind::Always, 0, m));
            let extras: &[u32] = if clamp {
                &[0, IEEE, DX10, IEEE | DX10]
            } else {
                &[0, IEEE]
            };
            for &x in extras {
                v.push((TargetKind::Gated, x, m));
            }
        }
    }
    v
}

/// Sources always in the strided subset: the edges of every rule.
const F16_SPECIALS: [u16; 40] = [
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400, 0x0401, 0x8401, 0x07ff,
    0x3800, 0xb800, 0x37ff, 0xb7ff, 0x3801, 0xb801, 0x3bff, 0xbbff, 0x3c00, 0xbc00, 0x3c01, 0xbc01,
    0x6400, 0xe400, 0x63ff, 0xe3ff, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7c01, 0xfc01, 0x7e00, 0xfe00,
    0x7dff, 0xb58d, 0x1400, 0x9400,
];

/// One unit of F16 work: a source-side setting, compared under every
/// output-modifier configuration.
#[derive(Clone, Copy)]
struct F16Unit {
    exp: u32,
    mode: u32,
    abs: bool,
    neg: bool,
}

fn f16_units(op: Op) -> Vec<F16Unit> {
    const OVFL: u32 = 1 << 23;
    let mut v = Vec::new();
    match op {
        Op::Fract => {
            for mode in f16_modes() {
                for (abs, neg) in [(false, false), (true, false), (false, true), (true, true)] {
                    v.push(F16Unit {
                        exp: 0,
                        mode,
                        abs,
                        neg,
                    });
                }
            }
        }
        Op::Ldexp => {
            for (i, exp) in f16_exponents().into_iter().enumerate() {
                for (j, mode) in f16_modes().into_iter().enumerate() {
                    for ovfl in [0, OVFL] {
                        // ABS/NEG rotate across units: extra coverage at no cost.
                        let k = (i + j) % 4;
                        v.push(F16Unit {
                            exp,
                            mode: mode | ovfl,
                            abs: k & 1 != 0,
                            neg: k & 2 != 0,
                        });
                    }
                }
            }
        }
    }
    v
}

/// The reference's output-modifier results for every F16 result encoding, one
/// table per (effective OMOD, CLAMP/NaN rule, FP_ROUND, FP16_OVFL): each entry
/// is `model::apply_post` of that encoding.
struct PostTables {
    tables: Vec<Vec<u16>>,
}

impl PostTables {
    fn key(post: Post, mode: u32) -> usize {
        let clamp = match post.clamp {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        };
        let round = (mode >> 2) as usize & 3;
        let ovfl = (mode >> 23) as usize & 1;
        ((usize::from(post.omod) * 3 + clamp) * 4 + round) * 2 + ovfl
    }

    fn build(threads: usize) -> PostTables {
        let keys: Vec<(Post, u32)> = (0..4u8)
            .flat_map(|omod| {
                [None, Some(false), Some(true)]
                    .into_iter()
                    .flat_map(move |clamp| {
                        (0..4u32).flat_map(move |round| {
                            [0u32, 1].into_iter().map(move |ovfl| {
                                (Post { omod, clamp }, (round << 2) | (ovfl << 23))
                            })
                        })
                    })
            })
            .collect();
        let mut tables = vec![Vec::new(); keys.len()];
        let next = AtomicUsize::new(0);
        let done = Mutex::new(&mut tables);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(post, mode)) = keys.get(i) else {
                        break;
                    };
                    let t: Vec<u16> = (0..=u16::MAX)
                        .map(|r| model::apply_post::<F16>(u64::from(r), post, mode) as u16)
                        .collect();
                    done.lock().expect("no panics while holding")[Self::key(post, mode)] = t;
                });
            }
        });
        PostTables { tables }
    }

    fn get(&self, post: Post, mode: u32) -> &[u16] {
        &self.tables[Self::key(post, mode)]
    }
}

/// Compare every F16 source-side unit of `op` under every output-modifier
/// configuration, on `threads` threads, and add the lines to `report`.
pub fn run_f16(op: Op, scope: F16Scope, threads: usize, report: &mut Report) {
    let start = Instant::now();
    let units = f16_units(op);
    let posts = f16_post_configs();
    let tables = (scope == F16Scope::All).then(|| PostTables::build(threads));
    let next = AtomicUsize::new(0);
    let totals = Mutex::new((Tally::default(), Tally::default()));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let (mut kt, mut et) = (Tally::default(), Tally::default());
                loop {
                    let u = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&unit) = units.get(u) else { break };
                    f16_unit(
                        op,
                        scope,
                        u,
                        unit,
                        &posts,
                        tables.as_ref(),
                        &mut kt,
                        &mut et,
                    );
                }
                let mut t = totals.lock().expect("no panics while holding");
                t.0.merge(kt);
                t.1.merge(et);
            });
        }
    });
    let (kt, et) = totals.into_inner().expect("threads joined");
    report.add(format!("{}_f16", op.name()), kt, et, start.elapsed());
}

/// The sources of one (unit, configuration) pair in the strided subset.
fn strided_sources(pair: usize) -> Vec<u16> {
    const STRIDE: usize = 251; // prime: the pairs' offsets sweep every source
    let offset = pair.wrapping_mul(7919) % STRIDE;
    let mut v: Vec<u16> = (offset..=0xffff)
        .step_by(STRIDE)
        .map(|s| s as u16)
        .collect();
    v.extend_from_slice(&F16_SPECIALS);
    v
}

#[allow(clippy::too_many_arguments)]
fn f16_unit(
    op: Op,
    scope: F16Scope,
    u: usize,
    unit: F16Unit,
    posts: &[(TargetKind, u32, RefMods)],
    tables: Option<&PostTables>,
    kt: &mut Tally,
    et: &mut Tally,
) {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    // The exhaustive run evaluates the model in stages, composed exactly as
    // `ref_fract`/`ref_ldexp` compose them: step 4 (`prepare_source` then
    // `fract_core`/`ldexp_core`) once per source for each distinct value of
    // what step 4 reads beyond the unit (flush_tiny, and the signalling-NaN
    // policy, the only use of the target kind), then steps 5 and 6 from
    // `PostTables`. The default run calls `ref_fract`/`ref_ldexp` directly,
    // so both compositions are exercised.
    let mut cores: Vec<((bool, bool), Vec<u16>)> = Vec::new();
    for (pi, &(kind, extra, post_mods)) in posts.iter().enumerate() {
        let pair = u * posts.len() + pi;
        let mode = unit.mode | extra;
        let m = RefMods {
            abs: unit.abs,
            neg: unit.neg,
            ..post_mods
        };
        let srcs = match scope {
            F16Scope::All => all.clone(),
            F16Scope::Strided => strided_sources(pair),
        };
        let exps = vec![kernel_exp::<F16>(unit.exp); srcs.len()];
        let p = policy::<F16>(kind, mode, m);
        let expected: Vec<u16> = match tables {
            Some(t) => {
                let flush_tiny = model::flush_tiny::<F16>(kind, mode, m.omod);
                let key = (
                    model::quiets_snan(kind, mode),
                    op == Op::Ldexp && flush_tiny,
                );
                if !cores.iter().any(|(k, _)| *k == key) {
                    let core: Vec<u16> = all
                        .iter()
                        .map(|&s| {
                            let p = model::prepare_source::<F16>(u64::from(s), mode, m.abs, m.neg);
                            (match op {
                                Op::Fract => model::fract_core::<F16>(p, kind, mode),
                                Op::Ldexp => {
                                    model::ldexp_core::<F16>(p, unit.exp, kind, mode, flush_tiny)
                                }
                            }) as u16
                        })
                        .collect();
                    cores.push((key, core));
                }
                let core = &cores
                    .iter()
                    .find(|(k, _)| *k == key)
                    .expect("just inserted")
                    .1;
                let post = model::post_for::<F16>(kind, mode, m.omod, m.clamp);
                let table = t.get(post, mode);
                srcs.iter()
                    .map(|&s| table[usize::from(core[usize::from(s)])])
                    .collect()
            }
            _ => srcs
                .iter()
                .map(|&s| {
                    (match op {
                        Op::Fract => model::ref_fract::<F16>(u64::from(s), mode, kind, m),
                        Op::Ldexp => model::ref_ldexp::<F16>(u64::from(s), unit.exp, mode, kind, m),
                    }) as u16
                })
                .collect(),
        };
        let row_target = target_for(kind, if kind == TargetKind::Gated { 5 } else { 0 }); // gfx1030 / gfx1201
        let scalar = kernel::<F16>(op, KernelPath::Scalar, &srcs, &exps, &p);
        let simd = kernel::<F16>(op, KernelPath::Simd, &srcs, &exps, &p);
        for (((&s, &want), &a), &b) in srcs.iter().zip(&expected).zip(&scalar).zip(&simd) {
            let (s, want) = (u64::from(s), u64::from(want));
            kt.check_paths(want, u64::from(a), u64::from(b), |g, path| {
                replay_row::<F16>(row_target, op, mode, m, s, unit.exp, want, g, path)
            });
        }
        // One configuration per unit, rotating, also runs through `execute`
        // on a concrete target of the kind, rotating through all of them.
        if pi == u % posts.len() {
            let target = target_for(kind, u / posts.len() + u);
            let srcs64: Vec<u64> = srcs.iter().map(|&s| u64::from(s)).collect();
            let raw_exps = vec![unit.exp; srcs.len()];
            let got = execute_cases::<F16>(target, op, mode, m, &srcs64, &raw_exps);
            for ((&s, &want), &g) in srcs64.iter().zip(&expected).zip(&got) {
                let want = expected_register::<F16>(target, u64::from(want));
                et.check(want, g, || {
                    replay_row::<F16>(
                        target,
                        op,
                        mode,
                        m,
                        s,
                        unit.exp,
                        want & 0xffff,
                        g,
                        "execute",
                    )
                });
            }
        }
    }
}

// ---------------------------------------------------------------------------
// F32 and F64: generated cases aimed at the hard places.

/// How many generated batches, on how many threads.
#[derive(Clone, Copy, Debug)]
pub struct RandomScope {
    /// Batches of [`LANES`] cases.
    pub batches: usize,
    /// Worker threads.
    pub threads: usize,
}

/// Number of MODE / modifier / target-kind combinations cycled through:
/// FP_ROUND (4) x FP_DENORM (4) x IEEE (2) x DX10_CLAMP (2) x FP16_OVFL (2)
/// x OMOD (4) x CLAMP (2) x ABS/NEG (4) x kind (2).
const COMBOS: usize = 8192;

fn combo<F: Format>(c: usize, rng: &mut Rng) -> (TargetKind, u32, RefMods) {
    let mut c = c;
    let mut take = |n: usize| {
        let v = c % n;
        c /= n;
        v as u32
    };
    let round = take(4);
    let denorm = take(4);
    let ieee = take(2);
    let dx10 = take(2);
    let ovfl = take(2);
    let omod = take(4) as u8;
    let clamp = take(2) != 0;
    let absneg = take(4);
    let kind = if take(2) == 0 {
        TargetKind::Gated
    } else {
        TargetKind::Always
    };
    // The other format's fields are random: they must not matter.
    let other = rng.next() as u32 & 0xf;
    let (own, other_fields) = match F::KIND {
        FormatKind::F32 => (
            round | (denorm << 4),
            ((other & 3) << 2) | ((other >> 2) << 6),
        ),
        _ => (
            (round << 2) | (denorm << 6),
            (other & 3) | ((other >> 2) << 4),
        ),
    };
    let mode = own | other_fields | (dx10 << 8) | (ieee << 9) | (ovfl << 23);
    (
        kind,
        mode,
        RefMods {
            omod,
            clamp,
            abs: absneg & 1 != 0,
            neg: absneg & 2 != 0,
        },
    )
}

/// A source aimed at the hard places of format `F`.
fn gen_source<F: Format>(rng: &mut Rng) -> u64 {
    let man = u64::from(F::MAN);
    let bias = F::BIAS as u64;
    let max_field = (1u64 << F::EXP) - 1;
    let sign = if rng.below(2) == 0 { 0 } else { F::SIGN };
    let enc = |field: u64, frac: u64| sign | (field << man) | (frac & F::MAN_MASK);
    let near = |rng: &mut Rng, v: u64| {
        // v plus or minus a few units in the last place.
        let d = rng.below(4);
        if rng.below(2) == 0 {
            v.wrapping_add(d)
        } else {
            v.wrapping_sub(d)
        }
    };
    let random_frac = |rng: &mut Rng| match rng.below(4) {
        0 => rng.next(),
        1 => F::MAN_MASK - rng.below(4),
        2 => rng.below(4),
        _ => 1u64 << rng.below(man),
    };
    match rng.below(16) {
        0 => sign | F::MAN_MASK & rng.next(), // subnormal (or zero)
        1 => {
            sign | [
                1,
                F::MAN_MASK,
                F::MAN_MASK - 1,
                1 << (man - 1),
                (1 << (man - 1)) + 1,
            ][rng.below(5) as usize]
        }
        2 => enc(1 + rng.below(2), random_frac(rng)), // smallest normals
        3 => enc(max_field - 1 - rng.below(2), random_frac(rng)), // largest normals
        // |x| near 0.5 and 1.0, within a few ulps either side.
        4 => sign | near(rng, (bias - 1) << man),
        5 => sign | near(rng, bias << man),
        6 => enc(bias - 1 - rng.below(3), random_frac(rng)),
        // Around the integer threshold (exponent = mantissa bits).
        7 => enc(bias + man - 2 + rng.below(4), random_frac(rng)),
        8 => enc(rng.below(max_field), F::MAN_MASK), // all fraction bits set
        // Tiny negatives for FRACT's 1 - |x| rounding and the cap.
        9 => enc(
            bias.saturating_sub(man + 4) + rng.below(man + 4),
            random_frac(rng),
        ),
        10 => sign | F::INF,
        // NaN payloads, with and without the quiet bit.
        11 => {
            sign | F::INF | (F::QUIET_BIT * rng.below(2)) | (rng.next() & (F::QUIET_BIT - 1)).max(1)
        }
        12 => {
            sign | F::INF | [1, F::QUIET_BIT, F::MAN_MASK, F::QUIET_BIT - 1][rng.below(4) as usize]
        }
        13 => enc(rng.below(max_field), rng.next()), // random finite
        _ => rng.next() & (F::SIGN | F::ABS_MASK),   // any encoding
    }
}

/// floor(log2 |x|) of a finite nonzero encoding, by integer inspection.
fn log2_of<F: Format>(x: u64) -> i64 {
    let mag = x & F::ABS_MASK;
    let field = (mag >> F::MAN) as i64;
    if field != 0 {
        field - i64::from(F::BIAS)
    } else {
        let lead = 63 - i64::from(mag.leading_zeros());
        lead - i64::from(F::MAN) + 1 - i64::from(F::BIAS)
    }
}

/// An exponent operand for `src`, aimed at the subnormal boundary and one
/// past it, the smallest subnormal, overflow, and huge shifts.
fn gen_exponent<F: Format>(rng: &mut Rng, src: u64) -> u32 {
    let emin = 1 - i64::from(F::BIAS);
    let emax = i64::from(F::BIAS);
    let man = i64::from(F::MAN);
    let mag = src & F::ABS_MASK;
    let k = if mag == 0 || mag >= F::INF {
        0
    } else {
        log2_of::<F>(src)
    };
    let aim = |target: i64, rng: &mut Rng| (target - k + rng.range(-1, 1)) as i32;
    let e: i32 = match rng.below(12) {
        0 => rng.range(-5, 5) as i32,
        1 => aim(emin, rng),           // the smallest normal
        2 => aim(emin - 1, rng),       // one past: the largest subnormals
        3 => aim(emin - man, rng),     // the smallest subnormal
        4 => aim(emin - man - 1, rng), // half of it: rounds to 0 or the smallest
        5 => aim(emin - man - 2 - rng.range(0, 3), rng),
        6 => aim(emax, rng),
        7 => aim(emax + 1, rng),
        8 => [
            i32::MIN,
            i32::MAX,
            i32::MIN + 1,
            i32::MAX - 1,
            1 << 30,
            -(1 << 30),
        ][rng.below(6) as usize],
        9 => rng.next() as i32,
        10 => rng.range(-3 * (emax + man), 3 * (emax + man)) as i32,
        _ => aim(emin + rng.range(-(man + 3), 1), rng),
    };
    e as u32
}

/// Compare `batches` generated batches of `op` in format `F`.
pub fn run_random<F: RefFormat + Format>(op: Op, scope: RandomScope, report: &mut Report) {
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let totals = Mutex::new((Tally::default(), Tally::default()));
    std::thread::scope(|s| {
        for _ in 0..scope.threads {
            s.spawn(|| {
                let (mut kt, mut et) = (Tally::default(), Tally::default());
                loop {
                    let b = next.fetch_add(1, Ordering::Relaxed);
                    if b >= scope.batches {
                        break;
                    }
                    random_batch::<F>(op, b, &mut kt, &mut et);
                }
                let mut t = totals.lock().expect("no panics while holding");
                t.0.merge(kt);
                t.1.merge(et);
            });
        }
    });
    let (kt, et) = totals.into_inner().expect("threads joined");
    report.add(
        format!("{}_{}", op.name(), F::KIND.name()),
        kt,
        et,
        start.elapsed(),
    );
}

fn random_batch<F: RefFormat + Format>(op: Op, b: usize, kt: &mut Tally, et: &mut Tally) {
    let seed = (b as u64) << 8 | (F::KIND as u64) << 1 | (op == Op::Ldexp) as u64;
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
    // An odd multiplier walks every combination before repeating one.
    let (kind, mode, m) = combo::<F>((b * 3163) % COMBOS, &mut rng);
    let srcs: Vec<u64> = (0..LANES).map(|_| gen_source::<F>(&mut rng)).collect();
    let raw_exps: Vec<u32> = srcs
        .iter()
        .map(|&s| {
            if op == Op::Ldexp {
                gen_exponent::<F>(&mut rng, s)
            } else {
                0
            }
        })
        .collect();
    let expected: Vec<u64> = srcs
        .iter()
        .zip(&raw_exps)
        .map(|(&s, &e)| match op {
            Op::Fract => model::ref_fract::<F>(s, mode, kind, m),
            Op::Ldexp => model::ref_ldexp::<F>(s, e, mode, kind, m),
        })
        .collect();
    let row_target = target_for(kind, if kind == TargetKind::Gated { 5 } else { 0 });
    let bits: Vec<F::Bits> = srcs.iter().map(|&s| F::narrow(s)).collect();
    let exps: Vec<i32> = raw_exps.iter().map(|&e| kernel_exp::<F>(e)).collect();
    let p = policy::<F>(kind, mode, m);
    let scalar = kernel::<F>(op, KernelPath::Scalar, &bits, &exps, &p);
    let simd = kernel::<F>(op, KernelPath::Simd, &bits, &exps, &p);
    for (((&s, &e), &want), (&a, &c)) in srcs
        .iter()
        .zip(&raw_exps)
        .zip(&expected)
        .zip(scalar.iter().zip(&simd))
    {
        kt.check_paths(want, F::widen(a), F::widen(c), |g, path| {
            replay_row::<F>(row_target, op, mode, m, s, e, want, g, path)
        });
    }
    // Every 4th batch also runs through `execute`, rotating through the targets.
    if b.is_multiple_of(4) {
        let target = target_for(kind, b / 4);
        let got = execute_cases::<F>(target, op, mode, m, &srcs, &raw_exps);
        for ((&s, &e), (&want, &g)) in srcs.iter().zip(&raw_exps).zip(expected.iter().zip(&got)) {
            et.check(want, g, || {
                replay_row::<F>(target, op, mode, m, s, e, want, g, "execute")
            });
        }
    }
}
