//! Speed through the bindings against the Rust kernel, in one run on one
//! machine (`cargo xtask bench bindings`, which builds the Python wheel
//! first; or `cargo bench -p amdgpu-valu-capi --bench bindings`).
//!
//! V_FRACT_F32 on gfx1201 under MODE 0xf0, 4,194,304 lanes per pass (the
//! 64-lane calls cycle through 65,536 lanes, so they stay in cache):
//! - Rust, bare kernel: the dispatched whole-wave kernel on 64-lane chunks
//!   with the policy built once (what `execute` runs per wave);
//! - Rust, `lanes::fract` per 64-lane chunk and on all lanes in one call;
//! - C: `avalu_fract_f32` per 64-lane chunk, from a C program built with
//!   `cc -O2` against the release static library;
//! - Python: `amdgpu_valu.fract` on a float32 array of all lanes, with a
//!   new output array and with `out=`.
//!
//! Five interleaved rounds (every side once per round); each figure is the
//! median over rounds of a median over passes, each ratio the median of
//! the rounds' own ratios.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use amdgpu_valu::__testing::kernels::{run_dispatched, Fract, WaveIo};
use amdgpu_valu::__testing::kernels::{Mode, Modifiers, Policy, F32};
use amdgpu_valu::lanes::{self, LaneMods};
use amdgpu_valu::Target;

const LANES: usize = 1 << 22;
/// The 64-lane calls cycle through this many lanes (256 KiB of sources and
/// as much of results: cache-resident, like an emulator's registers).
const RING: usize = 1 << 16;
const CHUNK: usize = 64;
const PASSES: usize = 15;
const ROUNDS: usize = 7;
const MODE: u32 = 0xf0;

/// xorshift64 with the C program's seed and lane mix: sign and fraction
/// random, biased exponent 119..158 (2^-8 to 2^31).
fn lanes_mix() -> Vec<u32> {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    (0..LANES)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s as u32 & 0x807f_ffff) | (119 + ((s >> 40) % 40) as u32) << 23
        })
        .collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median Mlanes/s of `PASSES` runs of `pass` (each over `LANES` lanes).
fn rate(mut pass: impl FnMut()) -> f64 {
    median(
        (0..PASSES)
            .map(|_| {
                let t = Instant::now();
                pass();
                LANES as f64 / t.elapsed().as_secs_f64() / 1e6
            })
            .collect(),
    )
}

/// The `LANES / CHUNK` chunks of a pass over the ring: (offset, chunk).
fn ring_chunks() -> impl Iterator<Item = usize> {
    (0..LANES / CHUNK).map(|i| i * CHUNK % RING)
}

fn bare_kernel(src: &[u32], dst: &mut [u32]) {
    let spec = Target::Gfx1201.spec();
    let p = Policy::new::<F32>(
        &amdgpu_valu::__testing::float_rules(spec),
        Mode(MODE),
        Modifiers::default(),
    );
    for off in ring_chunks() {
        let (s, d) = (&src[off..off + CHUNK], &mut dst[off..off + CHUNK]);
        let mut io = WaveIo {
            src_lo: black_box(s),
            src_hi: &[],
            src_shift: 0,
            exp: &[],
            exp_shift: 0,
            dst_lo: d,
            dst_hi: &mut [],
            dst_keep: 0,
            dst_shift: 0,
            exec: u64::MAX,
        };
        run_dispatched::<Fract, F32, _>(&mut io, &p);
    }
}

fn lanes_chunks(src: &[u32], dst: &mut [u32]) {
    for off in ring_chunks() {
        let (s, d) = (&src[off..off + CHUNK], &mut dst[off..off + CHUNK]);
        lanes::fract(Target::Gfx1201, MODE, LaneMods::default(), black_box(s), d)
            .expect("valid lanes");
    }
}

/// The C API's function called from Rust (linked as an rlib): the C side's
/// work without the static library and the C compiler.
fn capi_from_rust(src: &[u32], dst: &mut [u32]) {
    let mods = amdgpu_valu_capi::lanes::AvaluMods::default();
    let target = Target::ALL
        .iter()
        .position(|&t| t == Target::Gfx1201)
        .unwrap_or(0) as u32;
    for off in ring_chunks() {
        let (s, d) = (&src[off..off + CHUNK], &mut dst[off..off + CHUNK]);
        // SAFETY: both pointers are valid for the chunk's lanes.
        let status = unsafe {
            amdgpu_valu_capi::lanes::avalu_fract_f32(
                black_box(target),
                MODE,
                mods,
                std::ptr::null(),
                s.as_ptr(),
                d.as_mut_ptr(),
                s.len(),
            )
        };
        assert_eq!(status, amdgpu_valu_capi::AvaluStatus::Ok);
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ has a parent")
        .to_path_buf()
}

/// Build the C side against the static library beside this binary.
fn build_c() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let lib = dir.join("libamdgpu_valu_capi.a");
    let out = dir.join("bindings_c");
    let status = Command::new("cc")
        .args(["-O2", "-std=c11", "-I"])
        .arg(root().join("capi/include"))
        .arg(root().join("capi/benches/bindings.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .status();
    match status {
        Ok(s) if s.success() => Some(out),
        other => {
            eprintln!("C side skipped: could not build it with cc ({other:?})");
            None
        }
    }
}

fn numbers(cmd: &mut Command) -> Option<Vec<f64>> {
    let out = cmd.output().ok()?;
    if !out.status.success() {
        eprintln!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    Some(
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect(),
    )
}

/// Where the unpacked wheel is: $AMDGPU_VALU_PYTHONPATH, or the one
/// tests/python_bindings.rs unpacks.
fn python_path() -> Option<PathBuf> {
    let p = std::env::var_os("AMDGPU_VALU_PYTHONPATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/python-bindings/site"));
    if p.join("amdgpu_valu").exists() {
        Some(p)
    } else {
        eprintln!(
            "Python side skipped: no amdgpu_valu package in {} (run `cargo xtask bench bindings`)",
            p.display()
        );
        None
    }
}

fn main() {
    // `cargo bench` passes --bench; nothing else is taken.
    let src = lanes_mix();
    let mut dst = vec![0u32; LANES];
    let c = build_c();
    let py = python_path();
    let arg = |n: usize| n.to_string();
    let mut rows: Vec<[f64; 7]> = Vec::new();
    for round in 0..ROUNDS {
        let bare = rate(|| bare_kernel(&src, &mut dst));
        let chunks = rate(|| lanes_chunks(&src, &mut dst));
        let capi_rust = rate(|| capi_from_rust(&src, &mut dst));
        let c64 = c
            .as_ref()
            .and_then(|exe| numbers(Command::new(exe).args([arg(LANES), arg(RING), arg(PASSES)])))
            .map_or(f64::NAN, |v| v[0]);
        let whole = rate(|| {
            lanes::fract(Target::Gfx1201, MODE, LaneMods::default(), &src, &mut dst)
                .expect("valid lanes")
        });
        let (py_new, py_out) = py
            .as_ref()
            .and_then(|p| {
                numbers(
                    Command::new(std::env::var("PYTHON").unwrap_or_else(|_| "python3".into()))
                        .env("PYTHONPATH", p)
                        .arg(root().join("python/benches/fract_bench.py"))
                        .args([arg(LANES), arg(PASSES)]),
                )
            })
            .map_or((f64::NAN, f64::NAN), |v| (v[0], v[1]));
        eprintln!(
            "round {round}: bare {bare:.0}, lanes/64 {chunks:.0}, C API from Rust/64 {capi_rust:.0}, C/64 {c64:.0}, lanes/4M {whole:.0}, Python {py_new:.0} (out= {py_out:.0}) Mlanes/s"
        );
        rows.push([bare, chunks, c64, whole, py_new, py_out, capi_rust]);
    }
    black_box(&dst);
    let col = |i: usize| median(rows.iter().map(|r| r[i]).collect());
    let ratio = |a: usize, b: usize| median(rows.iter().map(|r| r[a] / r[b]).collect());
    println!("V_FRACT_F32, gfx1201, MODE 0xf0, {LANES} lanes per pass; Mlanes/s, medians of {ROUNDS} interleaved rounds\n");
    println!("| path | Mlanes/s | Rust bare kernel / path |");
    println!("|---|---:|---:|");
    let names = [
        "Rust bare kernel, 64-lane calls",
        "Rust lanes::fract, 64-lane calls",
        "C avalu_fract_f32, 64-lane calls",
        "Rust lanes::fract, one call",
        "Python fract (float32), new array",
        "Python fract (float32), out=",
        "C API function called from Rust, 64-lane calls",
    ];
    for (i, name) in names.iter().enumerate() {
        println!("| {name} | {:.0} | {:.2}x |", col(i), ratio(0, i));
    }
    println!();
    println!(
        "C call / Rust bare kernel on 64 lanes: {:.2}x slower (goal: at most 1.2x)",
        ratio(0, 2)
    );
    println!(
        "C call / Rust lanes::fract on 64 lanes (the same entry point from Rust): {:.2}x slower",
        ratio(1, 2)
    );
    println!(
        "Python on 4M lanes / Rust lanes::fract on 4M lanes: {:.2}x slower with a new array, {:.2}x with out= (goal: at most 1.5x)",
        ratio(3, 4),
        ratio(3, 5)
    );
}
