//! The speed table: `cargo xtask bench` (or `cargo bench --bench table`).
//!
//! One process, release build. For each instruction, format and case:
//! 4,194,304 lanes of the standard input mix in 64-lane chunks, one call per
//! chunk, median of 3 passes, on every path: SIMD as dispatched, SIMD per
//! available instruction-set level, the scalar per-lane kernels, a naive
//! host-float loop and a rustc_apfloat reference; then every level against
//! the SSE2 baseline per row, in interleaved short passes (`--isa`: only
//! this part). Then wave64 `amdgpu_valu::execute` end to end against the
//! bare kernel on the same 64 lanes (FRACT, LDEXP and the arithmetic), and
//! DPP16 `v_fract_f32` against its non-DPP form: short passes of the two
//! alternating, the fastest of each (`--e2e-only`: only this part).
//!
//! Timings only: nothing here asserts a speed. Numbers are noisy on a shared
//! machine; compare ratios within one run.

mod common;

use std::hint::black_box;
use std::time::Instant;

use amdgpu_valu::__testing::kernels::arith::{
    arith_slices, arith_slices_isa, arith_slices_on, ArithOp, SourceModifiers,
};
use amdgpu_valu::__testing::kernels::dispatch::{self, Isa};
use amdgpu_valu::__testing::kernels::{
    run, run_dispatched, Format, Fract, KernelPath, Ldexp, Slices, F16, F32, F64,
};
use amdgpu_valu::WaveSize;
use amdgpu_valu::{
    execute, Dpp, Dpp16, DppControl, Encoding, Instruction, Opcode, Operand, Target, Wave,
};
use common::{Case, Naive};

const LANES: usize = 1 << 22;
const CHUNK: usize = 64;
const PASSES: usize = 3;
/// Source registers the end-to-end passes cycle through.
const REGS: usize = 32;

/// Median over `PASSES` of the seconds one call of `pass` takes (with
/// `--min`, a tuning aid on a busy machine: the fastest of 3 x `PASSES`).
fn median_secs(mut pass: impl FnMut()) -> f64 {
    pass(); // warm-up
    let min = std::env::args().any(|a| a == "--min");
    let passes = if min { 3 * PASSES } else { PASSES };
    let mut t: Vec<f64> = (0..passes)
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    if min {
        t[0]
    } else {
        t[PASSES / 2]
    }
}

/// Mlanes/s of `kernel` over the inputs in 64-lane chunks.
fn chunked<F: Format>(
    src: &[F::Bits],
    exp: &[i32],
    dst: &mut [F::Bits],
    kernel: impl Fn(&[F::Bits], &[i32], &mut [F::Bits]),
) -> f64 {
    let secs = median_secs(|| {
        // The inputs are opaque to the optimiser once per pass, not per
        // call: a `black_box` per call stores each slice to the stack and
        // reloads it, which costs a store-forwarding stall per call when
        // the reload is one vector load over two scalar stores.
        let (src, exp) = (black_box(src), black_box(exp));
        for ((s, e), d) in src
            .chunks(CHUNK)
            .zip(exp.chunks(CHUNK))
            .zip(dst.chunks_mut(CHUNK))
        {
            kernel(s, e, d);
        }
        black_box(&mut *dst);
    });
    LANES as f64 / secs / 1e6
}

struct Row {
    instr: String,
    case: &'static str,
    path: String,
    mlanes: f64,
}

/// `--path=WORD`: only the paths whose name contains WORD (a tuning aid;
/// the scalar path always runs, as the reference the SIMD rows are checked
/// against).
fn path_wanted(path: &str) -> bool {
    std::env::args()
        .filter_map(|a| a.strip_prefix("--path=").map(String::from))
        .all(|w| path.contains(&w))
}

fn bench_op<O: Naive, F: Format>(rows: &mut Vec<Row>) {
    let instr = format!("v_{}_{}", O::NAME, F::KIND.name());
    for (k, case) in Case::ALL.into_iter().enumerate() {
        let (src, exp) = case.inputs::<F>(LANES, 0x5eed + k as u64);
        let p = case.policy::<F>();
        let mut dst = vec![F::Bits::default(); LANES];
        let mut want = vec![F::Bits::default(); LANES];
        let mut row = |path: String, mlanes: f64| {
            rows.push(Row {
                instr: instr.clone(),
                case: case.name(),
                path,
                mlanes,
            })
        };

        if path_wanted("naive host loop") {
            let naive = chunked::<F>(&src, &exp, &mut dst, |s, e, d| O::naive::<F>(s, e, d));
            row("naive host loop".into(), naive);
        }
        let scalar = chunked::<F>(&src, &exp, &mut want, |s, e, d| {
            run::<O, F, _>(KernelPath::Scalar, &mut Slices::<F>::new(s, e, d), &p)
        });
        let selected = dispatch::selected();
        let dispatched = format!("simd dispatched ({})", selected.name());
        if path_wanted(&dispatched) {
            dispatch::set_kernel_path(KernelPath::Simd);
            let simd = chunked::<F>(&src, &exp, &mut dst, |s, e, d| {
                run_dispatched::<O, F, _>(&mut Slices::<F>::new(s, e, d), &p)
            });
            assert_eq!(
                dispatch::last_variant(),
                Some(dispatch::Variant::Simd(selected))
            );
            assert!(
                dst == want,
                "{instr} {}: SIMD and scalar differ",
                case.name()
            );
            row(dispatched, simd);
        }
        for isa in dispatch::available().filter(|i| path_wanted(&format!("simd {}", i.name()))) {
            let m = chunked::<F>(&src, &exp, &mut dst, |s, e, d| {
                dispatch::run_on::<O, F, _>(isa, &mut Slices::<F>::new(s, e, d), &p);
            });
            assert!(
                dst == want,
                "{instr} {} {}: SIMD and scalar differ",
                case.name(),
                isa.name()
            );
            row(format!("simd {}", isa.name()), m);
        }
        if path_wanted("scalar") {
            row("scalar".into(), scalar);
        }
        if path_wanted("reference (apfloat)") {
            let reference =
                chunked::<F>(&src, &exp, &mut dst, |s, e, d| O::reference::<F>(s, e, d));
            row("reference (apfloat)".into(), reference);
        }
    }
}

/// Mlanes/s of `kernel` over three source slices in 64-lane chunks.
fn chunked3<F: Format>(
    src: [&[F::Bits]; 3],
    dst: &mut [F::Bits],
    kernel: impl Fn([&[F::Bits]; 3], &mut [F::Bits]),
) -> f64 {
    let secs = median_secs(|| {
        let [a, b, c] = black_box(src);
        for (((d, x), y), z) in dst
            .chunks_mut(CHUNK)
            .zip(a.chunks(CHUNK))
            .zip(b.chunks(CHUNK))
            .zip(c.chunks(CHUNK))
        {
            kernel([x, y, z], d);
        }
        black_box(&mut *dst);
    });
    LANES as f64 / secs / 1e6
}

/// The rows of one arithmetic operation in format `F`: SIMD dispatched (the
/// default case, and directed rounding with mul:2 and CLAMP), each
/// instruction-set level, scalar, rustc_apfloat, SoftFloat 3 and the naive
/// host loop. Every SIMD result is checked against the scalar path.
fn bench_arith<F: Format>(op: ArithOp, rows: &mut Vec<Row>) {
    let instr = format!("v_{}_{}", op.name(), F::KIND.name());
    let inputs = |seed: u64| Case::Default.inputs::<F>(LANES, seed).0;
    let (a, b, c) = (inputs(0xa11), inputs(0xb22), inputs(0xc33));
    let src = [&a[..], &b[..], &c[..]];
    let mut dst = vec![F::Bits::default(); LANES];
    let mut want = vec![F::Bits::default(); LANES];
    let none = SourceModifiers::default();
    for case in [Case::Default, Case::DirectedOmodClamp] {
        let p = case.policy::<F>();
        let mut row = |path: String, mlanes: f64| {
            rows.push(Row {
                instr: instr.clone(),
                case: case.name(),
                path,
                mlanes,
            })
        };
        let default = case == Case::Default;
        if default && path_wanted("naive host loop") {
            let m = chunked3::<F>(src, &mut dst, |s, d| common::arith::naive::<F>(op, s, d));
            row("naive host loop".into(), m);
        }
        let scalar = chunked3::<F>(src, &mut want, |s, d| {
            arith_slices_on::<F>(KernelPath::Scalar, op, &p, none, s, d)
        });
        let selected = dispatch::selected();
        let dispatched = format!("simd dispatched ({})", selected.name());
        if path_wanted(&dispatched) {
            dispatch::set_kernel_path(KernelPath::Simd);
            let m = chunked3::<F>(src, &mut dst, |[x, y, z], d| {
                arith_slices::<F>(op, &p, none, x, y, z, d)
            });
            assert_eq!(
                dispatch::last_variant(),
                Some(dispatch::Variant::Simd(selected))
            );
            assert!(
                dst == want,
                "{instr} {}: SIMD and scalar differ",
                case.name()
            );
            row(dispatched, m);
        }
        if !default {
            continue;
        }
        for isa in dispatch::available().filter(|i| path_wanted(&format!("simd {}", i.name()))) {
            let m = chunked3::<F>(src, &mut dst, |s, d| {
                arith_slices_isa::<F>(isa, op, &p, none, s, d);
            });
            assert!(
                dst == want,
                "{instr} {}: SIMD and scalar differ",
                isa.name()
            );
            row(format!("simd {}", isa.name()), m);
        }
        if path_wanted("scalar") {
            row("scalar".into(), scalar);
        }
        if path_wanted("apfloat") {
            let m = chunked3::<F>(src, &mut dst, |s, d| common::arith::apfloat::<F>(op, s, d));
            row("apfloat (IEEE, nearest)".into(), m);
        }
        if path_wanted("softfloat") {
            let m = chunked3::<F>(src, &mut dst, |s, d| {
                common::arith::softfloat::<F>(op, s, d)
            });
            row("SoftFloat 3 (IEEE, nearest)".into(), m);
        }
    }
}

/// A short pass of one kernel over 16 Ki lanes of the default mix in
/// 64-lane calls: returns Mlanes/s.
type Pass = Box<dyn FnMut() -> f64>;

/// The pass of `what` in format `F`: FRACT (`None`), an arithmetic
/// operation dispatched, or SoftFloat 3 on it (`soft`).
fn short_pass<F: Format>(what: Option<ArithOp>, soft: bool) -> Pass {
    const N: usize = 1 << 14;
    let inputs = |seed: u64| Case::Default.inputs::<F>(N, seed);
    let ((a, e), (b, _), (c, _)) = (inputs(0xa11), inputs(0xb22), inputs(0xc33));
    let p = Case::Default.policy::<F>();
    let mut d = vec![F::Bits::default(); N];
    let none = SourceModifiers::default();
    Box::new(move || {
        let start = Instant::now();
        let (a, b, c) = black_box((&a, &b, &c));
        for i in (0..N).step_by(CHUNK) {
            let r = i..i + CHUNK;
            let (x, y, z, out) = (
                &a[r.clone()],
                &b[r.clone()],
                &c[r.clone()],
                &mut d[r.clone()],
            );
            match what {
                None => run_dispatched::<Fract, F, _>(&mut Slices::<F>::new(x, &e[r], out), &p),
                Some(op) if soft => common::arith::softfloat::<F>(op, [x, y, z], out),
                Some(op) => arith_slices::<F>(op, &p, none, x, y, z, out),
            }
        }
        black_box(&d);
        N as f64 / start.elapsed().as_secs_f64() / 1e6
    })
}

/// The goals of the arithmetic rows as ratios of this run (printed, never
/// asserted). The rates are measured again for this: 300 rounds of short
/// passes of every kernel in turn, the fastest of each, so that every
/// ratio compares two kernels under the same machine load (a busy shared
/// machine only ever adds time).
fn arith_goals(words: &[&String]) {
    if !words.is_empty() {
        return;
    }
    let ops = [ArithOp::Add, ArithOp::Mul, ArithOp::Fma];
    let mut passes: Vec<(String, Pass)> = vec![
        ("v_fract_f32".into(), short_pass::<F32>(None, false)),
        ("v_fract_f64".into(), short_pass::<F64>(None, false)),
    ];
    for op in ops {
        let n = op.name();
        passes.push((format!("v_{n}_f16"), short_pass::<F16>(Some(op), false)));
        passes.push((format!("v_{n}_f32"), short_pass::<F32>(Some(op), false)));
        passes.push((format!("v_{n}_f64"), short_pass::<F64>(Some(op), false)));
        passes.push((
            format!("softfloat_{n}_f32"),
            short_pass::<F32>(Some(op), true),
        ));
    }
    let mut best = vec![0f64; passes.len()];
    for _ in 0..300 {
        for (b, (_, pass)) in best.iter_mut().zip(passes.iter_mut()) {
            *b = b.max(pass());
        }
    }
    let rate = |name: &str| {
        passes
            .iter()
            .position(|(n, _)| n == name)
            .map_or(f64::NAN, |i| best[i])
    };
    println!();
    println!("Arithmetic goals, fastest of 300 interleaved short passes (16 Ki lanes in 64-lane calls, default case), Mlanes/s:");
    println!("| kernel | Mlanes/s | against | ratio | goal | |");
    println!("|---|---:|---|---:|---:|---|");
    let goal = |num: &str, den: &str, at_least: f64| {
        let (n, d) = (rate(num), rate(den));
        let r = n / d;
        let met = if r >= at_least { "met" } else { "NOT met" };
        println!("| {num} | {n:.0} | {den} ({d:.0}) | {r:.2} | {at_least} | {met} |");
    };
    for op in ops {
        let n = op.name();
        goal(&format!("v_{n}_f16"), &format!("v_{n}_f32"), 1.0);
    }
    for op in ops {
        let n = op.name();
        let share = if op == ArithOp::Fma { 0.25 } else { 0.5 };
        goal(&format!("v_{n}_f32"), "v_fract_f32", share);
        goal(&format!("v_{n}_f32"), &format!("softfloat_{n}_f32"), 10.0);
    }
    for op in ops {
        goal(&format!("v_{}_f64", op.name()), "v_fract_f64", 0.25);
    }
}

/// A short pass of `O` (or, with `arith`, that arithmetic operation) in
/// format `F` compiled for `isa`, over 16 Ki lanes of `case` in 64-lane
/// calls: returns Mlanes/s.
fn level_pass<O: Naive, F: Format>(isa: Isa, case: Case, arith: Option<ArithOp>) -> Pass {
    const N: usize = 1 << 14;
    let inputs = |seed: u64| case.inputs::<F>(N, seed);
    let ((a, e), (b, _), (c, _)) = (inputs(0xa11), inputs(0xb22), inputs(0xc33));
    let p = case.policy::<F>();
    let mut d = vec![F::Bits::default(); N];
    Box::new(move || {
        let start = Instant::now();
        let (a, b, c, e) = black_box((&a, &b, &c, &e));
        for i in (0..N).step_by(CHUNK) {
            let r = i..i + CHUNK;
            let out = &mut d[r.clone()];
            if let Some(op) = arith {
                let s = [&a[r.clone()], &b[r.clone()], &c[r]];
                arith_slices_isa::<F>(isa, op, &p, SourceModifiers::default(), s, out);
            } else {
                dispatch::run_on::<O, F, _>(
                    isa,
                    &mut Slices::<F>::new(&a[r.clone()], &e[r], out),
                    &p,
                );
            }
        }
        black_box(&d);
        N as f64 / start.elapsed().as_secs_f64() / 1e6
    })
}

/// Every instruction-set level against the SSE2 baseline, per row (the
/// goal: x86-64-v2 at least 1.2x baseline on every row; printed, never
/// asserted): 200 rounds of short passes of every row and level in turn,
/// the fastest of each, so each ratio compares two variants under the
/// same machine load.
fn isa_goals(wanted: &dyn Fn(&str) -> bool) {
    type Make = fn(Isa, Case, Option<ArithOp>) -> Pass;
    let mut rows: Vec<(String, Case, Option<ArithOp>, Make)> = Vec::new();
    let ops: [(&str, Make, Make, Make); 2] = [
        (
            "fract",
            level_pass::<Fract, F16>,
            level_pass::<Fract, F32>,
            level_pass::<Fract, F64>,
        ),
        (
            "ldexp",
            level_pass::<Ldexp, F16>,
            level_pass::<Ldexp, F32>,
            level_pass::<Ldexp, F64>,
        ),
    ];
    for (name, f16, f32, f64) in ops {
        for (fmt, make) in [("f16", f16), ("f32", f32), ("f64", f64)] {
            rows.extend(Case::ALL.map(|c| (format!("v_{name}_{fmt}"), c, None, make)));
        }
    }
    for op in [ArithOp::Add, ArithOp::Mul, ArithOp::Fma] {
        let fmts: [(&str, Make); 3] = [
            ("f16", level_pass::<Fract, F16>),
            ("f32", level_pass::<Fract, F32>),
            ("f64", level_pass::<Fract, F64>),
        ];
        for (fmt, make) in fmts {
            rows.push((
                format!("v_{}_{fmt}", op.name()),
                Case::Default,
                Some(op),
                make,
            ));
        }
    }
    rows.retain(|r| wanted(&r.0));
    let levels: Vec<Isa> = dispatch::available().collect();
    let mut passes: Vec<Pass> = rows
        .iter()
        .flat_map(|&(_, case, op, make)| levels.iter().map(move |&i| make(i, case, op)))
        .collect();
    let mut best = vec![0f64; passes.len()];
    for _ in 0..200 {
        for (b, pass) in best.iter_mut().zip(passes.iter_mut()) {
            *b = b.max(pass());
        }
    }
    let names: Vec<&str> = levels.iter().map(|i| i.name()).collect();
    let col = |isa: Isa| levels.iter().position(|&i| i == isa);
    println!();
    println!("Instruction-set levels, fastest of 200 interleaved short passes (16 Ki lanes in 64-lane calls), Mlanes/s:");
    println!(
        "| instruction | case | {} | x86-64-v2 / baseline | goal | |",
        names.join(" | ")
    );
    println!("|---|---|{}---:|---:|---|", "---:|".repeat(levels.len()));
    for (row, rates) in rows.iter().zip(best.chunks(levels.len())) {
        let cells: Vec<String> = rates.iter().map(|m| format!("{m:.0}")).collect();
        let ratio = match (col(Isa::X86V2), col(Isa::Baseline)) {
            (Some(v2), Some(b)) => rates[v2] / rates[b],
            _ => f64::NAN,
        };
        let met = if ratio >= 1.2 { "met" } else { "NOT met" };
        let case = row.1.name();
        println!(
            "| {} | {case} | {} | {ratio:.2} | 1.2 | {met} |",
            row.0,
            cells.join(" | ")
        );
    }
}

/// What an end-to-end row runs: FRACT or LDEXP (their bare kernel on
/// [`Slices`]), or an arithmetic operation (on [`arith_slices`]).
#[derive(Clone, Copy)]
enum Kernel {
    Fract,
    Ldexp,
    Arith(ArithOp),
}

/// One end-to-end row: the instruction's name, opcode, encoding, kernel
/// and format, and its DPP word.
struct E2eRow {
    name: &'static str,
    opcode: Opcode,
    enc: Encoding,
    kernel: Kernel,
    format: amdgpu_valu::FormatKind,
    dpp: Option<Dpp>,
}

/// A timed pass: ns per call of `calls` calls.
type Timed = Box<dyn FnMut() -> f64>;

/// Registers of the end-to-end waves: the destination (v0, the pair
/// v0:v1 for F64; FMAC's accumulator), src1 (v2), src2 (v4), and src0
/// cycling through `REGS` registers (pairs for F64) from v8.
const DST_REG: usize = 0;
const SRC1_REG: usize = 2;
const SRC2_REG: usize = 4;
const SRC0_BASE: usize = 8;

/// The pair of timed passes of `row` in format `F`: wave64 `execute` on
/// gfx1201 under MODE 0xf0, cycling src0 through `REGS` registers (2048
/// distinct inputs), and the bare kernel on the same lanes, `calls` calls
/// each.
fn e2e_passes<F: Format>(row: &E2eRow, calls: usize) -> (Timed, Timed) {
    let target = Target::Gfx1201;
    let mut wave =
        Wave::for_target_with_size(target, WaveSize::Wave64).expect("gfx1201 has wave64");
    wave.set_mode(0xf0);
    let (src, exp) = Case::Default.inputs::<F>(REGS * CHUNK, 77);
    let (b, _) = Case::Default.inputs::<F>(CHUNK, 0xb22);
    let (c, _) = Case::Default.inputs::<F>(CHUNK, 0xc33);
    let stride = if F::WIDTH == 64 { 2 } else { 1 };
    let mut set = |reg: usize, lane: usize, bits: F::Bits| {
        let v = F::widen(bits);
        if F::WIDTH == 64 {
            wave.set_vgpr64(reg, lane, v).expect("in range");
        } else {
            wave.set_vgpr(reg, lane, v as u32).expect("in range");
        }
    };
    for (r, chunk) in src.chunks(CHUNK).enumerate() {
        for (lane, &x) in chunk.iter().enumerate() {
            set(SRC0_BASE + r * stride, lane, x);
        }
    }
    for lane in 0..CHUNK {
        set(SRC1_REG, lane, b[lane]);
        set(SRC2_REG, lane, c[lane]);
    }
    if let Kernel::Ldexp = row.kernel {
        for (lane, &e) in exp[..CHUNK].iter().enumerate() {
            wave.set_vgpr(SRC1_REG, lane, e as u32).expect("in range");
        }
    }
    let v = |i: usize| {
        if F::WIDTH == 16 {
            Operand::v_lo(i as u16)
        } else {
            Operand::v(i as u16)
        }
    };
    let (opcode, enc, kernel) = (row.opcode, row.enc, row.kernel);
    let instrs: Vec<Instruction> = (0..REGS)
        .map(|r| {
            let s = v(SRC0_BASE + r * stride);
            let i = match kernel {
                Kernel::Fract => Instruction::unary(opcode, enc, v(DST_REG), s),
                Kernel::Ldexp => Instruction::binary(opcode, enc, v(DST_REG), s, v(SRC1_REG)),
                Kernel::Arith(ArithOp::Fma) if opcode.info().sources.len() == 3 => {
                    Instruction::ternary(opcode, enc, v(DST_REG), s, v(SRC1_REG), v(SRC2_REG))
                }
                Kernel::Arith(_) => Instruction::binary(opcode, enc, v(DST_REG), s, v(SRC1_REG)),
            };
            Instruction { dpp: row.dpp, ..i }
        })
        .collect();
    let exec = Box::new(move || {
        let start = Instant::now();
        for i in 0..calls {
            execute(target, &mut wave, black_box(&instrs[i % REGS])).expect("valid instruction");
        }
        black_box(&wave);
        start.elapsed().as_secs_f64() / calls as f64 * 1e9
    });
    let p = Case::Default.policy::<F>();
    let mut dst = vec![F::Bits::default(); CHUNK];
    let none = SourceModifiers::default();
    let bare = Box::new(move || {
        let start = Instant::now();
        let (src, exp, b, c) = black_box((&src, &exp, &b, &c));
        for i in 0..calls {
            let a = &src[(i % REGS) * CHUNK..][..CHUNK];
            match kernel {
                Kernel::Fract => run_dispatched::<Fract, F, _>(
                    &mut Slices::<F>::new(a, &exp[..CHUNK], &mut dst),
                    &p,
                ),
                Kernel::Ldexp => run_dispatched::<Ldexp, F, _>(
                    &mut Slices::<F>::new(a, &exp[..CHUNK], &mut dst),
                    &p,
                ),
                Kernel::Arith(op) => arith_slices::<F>(op, &p, none, a, b, c, &mut dst),
            }
        }
        black_box(&dst);
        start.elapsed().as_secs_f64() / calls as f64 * 1e9
    });
    (exec, bare)
}

/// [`e2e_passes`] in the row's format.
fn passes(row: &E2eRow, calls: usize) -> (Timed, Timed) {
    use amdgpu_valu::FormatKind as K;
    match row.format {
        K::F16 => e2e_passes::<F16>(row, calls),
        K::F32 => e2e_passes::<F32>(row, calls),
        K::F64 => e2e_passes::<F64>(row, calls),
    }
}

/// The fastest of `rounds` alternating short passes of `a` and `b`, ns
/// per call. Interleaving puts both under the same machine load, and the
/// fastest of many short passes is what the code costs when nothing else
/// interferes (a busy shared machine only ever adds time).
fn fastest_alternating(a: &mut Timed, b: &mut Timed, rounds: usize) -> (f64, f64) {
    a();
    b();
    let (mut ta, mut tb) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..rounds {
        ta = ta.min(a());
        tb = tb.min(b());
    }
    (ta, tb)
}

/// The goal of every end-to-end row: `execute` at most this many times
/// the bare kernel.
const E2E_GOAL: f64 = 1.3;
/// The goal of DPP16 `v_fract_f32` against its non-DPP form.
const DPP_GOAL: f64 = 1.4;
/// Alternating passes per end-to-end row, and calls per pass.
const E2E_ROUNDS: usize = 101;
const E2E_CALLS: usize = 1024;

/// The end-to-end rows: wave64 `execute` against the bare kernel on the
/// same lanes, then DPP16 `v_fract_f32` against its non-DPP form.
fn end_to_end(wanted: &dyn Fn(&str) -> bool) {
    use amdgpu_valu::FormatKind as K;
    println!();
    println!(
        "wave64 gfx1201, MODE 0xf0, 64 lanes per call; fastest of {E2E_ROUNDS} alternating \
         passes of {E2E_CALLS} calls each:"
    );
    println!(
        "| instruction | execute ns/call | bare kernel ns/call | execute / bare | goal | met |"
    );
    println!("|---|---:|---:|---:|---:|---|");
    // DPP16 (docs/semantics.md §11): row_shr:1 bound_ctrl:1, every lane
    // written, against the same instruction without DPP.
    let dpp = Some(Dpp::Dpp16(Dpp16 {
        bound_ctrl: true,
        ..Dpp16::new(DppControl::RowShr(1))
    }));
    let row = |name, opcode, enc, kernel, format| E2eRow {
        name,
        opcode,
        enc,
        kernel,
        format,
        dpp: None,
    };
    use ArithOp::{Add, Fma, Mul};
    use Encoding::{Vop1, Vop2, Vop3};
    use Kernel::{Arith, Fract as FRACT, Ldexp as LDEXP};
    let rows = [
        row("v_fract_f16_e32", Opcode::FractF16, Vop1, FRACT, K::F16),
        row("v_fract_f32_e32", Opcode::FractF32, Vop1, FRACT, K::F32),
        row("v_fract_f64_e32", Opcode::FractF64, Vop1, FRACT, K::F64),
        row("v_ldexp_f16_e32", Opcode::LdexpF16, Vop2, LDEXP, K::F16),
        row("v_ldexp_f32_e64", Opcode::LdexpF32, Vop3, LDEXP, K::F32),
        row("v_ldexp_f64_e64", Opcode::LdexpF64, Vop3, LDEXP, K::F64),
        row("v_add_f16_e32", Opcode::AddF16, Vop2, Arith(Add), K::F16),
        row("v_add_f32_e32", Opcode::AddF32, Vop2, Arith(Add), K::F32),
        row("v_add_f32_e64", Opcode::AddF32, Vop3, Arith(Add), K::F32),
        row("v_add_f64_e64", Opcode::AddF64, Vop3, Arith(Add), K::F64),
        row("v_mul_f16_e32", Opcode::MulF16, Vop2, Arith(Mul), K::F16),
        row("v_mul_f32_e32", Opcode::MulF32, Vop2, Arith(Mul), K::F32),
        row("v_mul_f64_e64", Opcode::MulF64, Vop3, Arith(Mul), K::F64),
        row("v_fma_f16_e64", Opcode::FmaF16, Vop3, Arith(Fma), K::F16),
        row("v_fma_f32_e64", Opcode::FmaF32, Vop3, Arith(Fma), K::F32),
        row("v_fma_f64_e64", Opcode::FmaF64, Vop3, Arith(Fma), K::F64),
        row("v_fmac_f32_e32", Opcode::FmacF32, Vop2, Arith(Fma), K::F32),
        E2eRow {
            dpp,
            ..row(
                "v_fract_f32_dpp row_shr:1 bound_ctrl:1",
                Opcode::FractF32,
                Vop1,
                FRACT,
                K::F32,
            )
        },
    ];
    let mut met_all = true;
    for r in rows.iter().filter(|r| wanted(r.name)) {
        let (mut e, mut b) = passes(r, E2E_CALLS);
        let (e, b) = fastest_alternating(&mut e, &mut b, E2E_ROUNDS);
        if r.dpp.is_some() {
            // The DPP row's goal is against its non-DPP form (below); the
            // bare kernel has no cross-lane step to compare with.
            println!(
                "| {} | {e:.1} | {b:.1} | {:.2} | see below | |",
                r.name,
                e / b
            );
            continue;
        }
        let met = e / b <= E2E_GOAL;
        met_all &= met;
        let said = if met { "met" } else { "NOT met" };
        println!(
            "| {} | {e:.1} | {b:.1} | {:.2} | {E2E_GOAL} | {said} |",
            r.name,
            e / b
        );
    }
    println!(
        "execute within {E2E_GOAL}x of the bare kernel on every non-DPP row above: {}",
        if met_all { "met" } else { "NOT met" }
    );
    if wanted("v_fract_f32_dpp") {
        let plain = row("v_fract_f32_e32", Opcode::FractF32, Vop1, FRACT, K::F32);
        let with_dpp = E2eRow { dpp, ..plain };
        let (mut a, _) = passes(&plain, 2048);
        let (mut b, _) = passes(&with_dpp, 2048);
        let (plain, with_dpp) = fastest_alternating(&mut a, &mut b, 301);
        let r = with_dpp / plain;
        println!();
        println!(
            "DPP16 against non-DPP v_fract_f32, wave64, fastest of 301 alternating passes: \
             {with_dpp:.1} / {plain:.1} ns per call = {r:.2}x (goal: at most {DPP_GOAL}x: {})",
            if r <= DPP_GOAL { "met" } else { "NOT met" }
        );
    }
}

fn main() {
    // Optional filters: words that must all appear in "v_<op>_<fmt>" (e.g.
    // `fract f32`); `--no-e2e` skips the end-to-end part, `--e2e-only`
    // runs only it. Cargo's own
    // `--bench` argument is ignored.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let e2e_on = !args.iter().any(|a| a == "--no-e2e");
    if args.iter().any(|a| a == "--goals") {
        // Only the interleaved measurement of the arithmetic goals.
        arith_goals(&[]);
        return;
    }
    let words: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| words.iter().all(|w| name.contains(w.as_str()));
    if args.iter().any(|a| a == "--e2e-only") {
        // Only `execute` against the bare kernel.
        end_to_end(&wanted);
        return;
    }
    let selected: Vec<&str> = dispatch::available().map(Isa::name).collect();
    let forced = if dispatch::selected() == dispatch::best() {
        String::new()
    } else {
        format!(", forced by {}", dispatch::FORCE_ISA_ENV)
    };
    println!("amdgpu-valu kernel speed: {LANES} lanes per pass in {CHUNK}-lane calls, median of {PASSES} passes");
    println!(
        "instruction-set levels available: {} (dispatched: {}{forced})",
        selected.join(", "),
        dispatch::selected().name()
    );
    if args.iter().any(|a| a == "--isa") {
        // Only the interleaved measurement of the levels.
        isa_goals(&wanted);
        return;
    }
    println!();

    let mut rows = Vec::new();
    for (name, bench) in [
        ("v_fract_f16", bench_op::<Fract, F16> as fn(&mut Vec<Row>)),
        ("v_fract_f32", bench_op::<Fract, F32>),
        ("v_fract_f64", bench_op::<Fract, F64>),
        ("v_ldexp_f16", bench_op::<Ldexp, F16>),
        ("v_ldexp_f32", bench_op::<Ldexp, F32>),
        ("v_ldexp_f64", bench_op::<Ldexp, F64>),
    ] {
        if wanted(name) {
            bench(&mut rows);
        }
    }
    for (name, op, bench) in [
        (
            "v_add_f16",
            ArithOp::Add,
            bench_arith::<F16> as fn(ArithOp, &mut Vec<Row>),
        ),
        ("v_mul_f16", ArithOp::Mul, bench_arith::<F16>),
        ("v_fma_f16", ArithOp::Fma, bench_arith::<F16>),
        ("v_add_f32", ArithOp::Add, bench_arith::<F32>),
        ("v_mul_f32", ArithOp::Mul, bench_arith::<F32>),
        ("v_fma_f32", ArithOp::Fma, bench_arith::<F32>),
        ("v_add_f64", ArithOp::Add, bench_arith::<F64>),
        ("v_mul_f64", ArithOp::Mul, bench_arith::<F64>),
        ("v_fma_f64", ArithOp::Fma, bench_arith::<F64>),
    ] {
        if wanted(name) {
            bench(op, &mut rows);
        }
    }

    println!("| instruction | case | path | Mlanes/s | x naive |");
    println!("|---|---|---|---:|---:|");
    let mut naive = f64::NAN;
    for r in &rows {
        if r.path == "naive host loop" {
            naive = r.mlanes;
        }
        let ratio = if naive.is_nan() {
            "-".to_string()
        } else {
            format!("{:.2}", r.mlanes / naive)
        };
        println!(
            "| {} | {} | {} | {:.1} | {ratio} |",
            r.instr, r.case, r.path, r.mlanes
        );
    }

    arith_goals(&words);
    isa_goals(&wanted);

    if !e2e_on {
        return;
    }
    end_to_end(&wanted);
}
