//! Criterion benchmarks of the lane kernels: `cargo bench --bench kernels`.
//!
//! Per instruction and format, 64-lane calls over 64 Ki lanes of the
//! standard input mix (default MODE): SIMD as dispatched, each available
//! instruction-set level, and the scalar per-lane kernels; plus one wave64
//! `execute` end to end. `cargo xtask bench` prints the full table.

mod common;

use std::hint::black_box;

use amdgpu_valu::__testing::kernels::dispatch;
use amdgpu_valu::__testing::kernels::{
    run_dispatched, Format, Fract, KernelPath, Ldexp, Operation, Slices, F16, F32, F64,
};
use amdgpu_valu::WaveSize;
use amdgpu_valu::{execute, Encoding, Instruction, Opcode, Operand, Target, Wave};
use common::Case;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const LANES: usize = 1 << 16;
const CHUNK: usize = 64;

/// A kernel over one chunk: sources, exponents, destinations.
type Kernel<'a, B> = dyn Fn(&[B], &[i32], &mut [B]) + 'a;

fn bench_lanes<O: Operation, F: Format>(c: &mut Criterion) {
    let (src, exp) = Case::Default.inputs::<F>(LANES, 1);
    let p = Case::Default.policy::<F>();
    // On the heap: 64 Ki lanes of F64 would be 512 KiB of stack.
    #[allow(clippy::useless_vec)]
    let mut dst = vec![F::Bits::default(); LANES];
    let mut g = c.benchmark_group(format!("v_{}_{}", O::NAME, F::KIND.name()));
    g.throughput(Throughput::Elements(LANES as u64));
    let mut run = |name: &str, kernel: &Kernel<F::Bits>| {
        g.bench_function(name, |b| {
            b.iter(|| {
                for ((s, e), d) in src
                    .chunks(CHUNK)
                    .zip(exp.chunks(CHUNK))
                    .zip(dst.chunks_mut(CHUNK))
                {
                    kernel(black_box(s), black_box(e), d);
                }
            })
        });
    };
    run("simd", &|s, e, d| {
        run_dispatched::<O, F, _>(&mut Slices::new(s, e, d), &p)
    });
    for isa in dispatch::available() {
        run(&format!("simd_{}", isa.name()), &|s, e, d| {
            dispatch::run_on::<O, F, _>(isa, &mut Slices::new(s, e, d), &p);
        });
    }
    run("scalar", &|s, e, d| {
        dispatch::run::<O, F, _>(KernelPath::Scalar, &mut Slices::new(s, e, d), &p)
    });
    g.finish();
}

fn end_to_end(c: &mut Criterion) {
    let target = Target::Gfx1201;
    let mut wave =
        Wave::for_target_with_size(target, WaveSize::Wave64).expect("gfx1201 has wave64");
    wave.set_mode(0xf0);
    let (src, exp) = Case::Default.inputs::<F32>(CHUNK, 2);
    for lane in 0..CHUNK {
        wave.set_vgpr(1, lane, src[lane]).expect("in range");
        wave.set_vgpr(2, lane, exp[lane] as u32).expect("in range");
    }
    let fract = Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop1,
        Operand::v(0),
        Operand::v(1),
    );
    let ldexp = Instruction::binary(
        Opcode::LdexpF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    let mut g = c.benchmark_group("execute_wave64");
    g.throughput(Throughput::Elements(CHUNK as u64));
    for (name, instr) in [("v_fract_f32_e32", fract), ("v_ldexp_f32_e64", ldexp)] {
        g.bench_function(name, |b| {
            b.iter(|| execute(target, &mut wave, black_box(&instr)).expect("valid"))
        });
    }
    g.finish();
}

fn kernels(c: &mut Criterion) {
    bench_lanes::<Fract, F16>(c);
    bench_lanes::<Fract, F32>(c);
    bench_lanes::<Fract, F64>(c);
    bench_lanes::<Ldexp, F16>(c);
    bench_lanes::<Ldexp, F32>(c);
    bench_lanes::<Ldexp, F64>(c);
    end_to_end(c);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = kernels
}
criterion_main!(benches);
