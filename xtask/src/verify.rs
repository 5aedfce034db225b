//! `cargo xtask verify [--exhaustive] [--isa LEVEL]`: the kernels against the reference
//! models (`tests/reference/`), bit for bit, through `tests/verify.rs`
//! (FRACT, LDEXP) and `tests/verify_f16.rs` (F16 ADD, MUL, FMA against the
//! exact integer model).
//!
//! - default: the deterministic strided F16 subsets and 10,048 generated
//!   F32 and F64 cases per instruction (the same tests `cargo test` runs);
//! - `--exhaustive`: every F16 source under every setting and 4,194,304
//!   generated cases per instruction and F32/F64 format; every pair of F16
//!   inputs of ADD and MUL in two settings and 2^26 stratified F16 FMA
//!   triples per setting; in release mode on every core.
//!
//! `--isa LEVEL` (`baseline`, `x86-64-v2`, `avx2`, `avx512`) runs the SIMD
//! path in that instruction-set variant, by setting `AMDGPU_VALU_FORCE_ISA`
//! for the tests (a level the CPU lacks falls back to the best one, with a
//! message; the summary names the variant that ran).
//!
//! The test binary prints, per instruction and format, the cases compared,
//! the mismatches (the first few as replay rows in the capture format of
//! docs/captures.md) and the run time; this command adds the total time and exits
//! non-zero on any mismatch.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Run the verification; `args` are the words after `verify`.
pub fn run(args: &[String]) -> ExitCode {
    // The names of `kernels::dispatch::Isa` (the xtask does not link the crate).
    const LEVELS: [&str; 4] = ["baseline", "x86-64-v2", "avx2", "avx512"];
    const USAGE: &str = "cargo xtask verify [--exhaustive] [--isa baseline|x86-64-v2|avx2|avx512]";
    let mut exhaustive = false;
    let mut isa = None;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--exhaustive" => exhaustive = true,
            "--isa" => match args.next() {
                Some(level) if LEVELS.contains(&level.as_str()) => isa = Some(level.clone()),
                Some(level) => {
                    eprintln!("verify: `{level}` is not a level (usage: {USAGE})");
                    return ExitCode::from(2);
                }
                None => {
                    eprintln!("verify: --isa needs a level (usage: {USAGE})");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("verify: unknown argument `{other}` (usage: {USAGE})");
                return ExitCode::from(2);
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(&root)
        .args(["test", "--package", "amdgpu-valu", "--test", "verify"])
        .args(["--test", "verify_f16"]);
    if exhaustive {
        cmd.args(["--release", "--", "--ignored", "--exact", "exhaustive"]);
    } else {
        cmd.arg("--");
    }
    if let Some(level) = &isa {
        cmd.env("AMDGPU_VALU_FORCE_ISA", level);
    }
    // One test at a time so the report lines do not interleave; the
    // exhaustive test spreads its own work over every core.
    cmd.args(["--nocapture", "--test-threads=1"]);
    let what = if exhaustive {
        "exhaustive"
    } else {
        "default subset"
    };
    let what = match &isa {
        Some(level) => format!("{what}, AMDGPU_VALU_FORCE_ISA={level}"),
        None => what.to_string(),
    };
    println!("verify ({what}): {cmd:?}");
    let start = Instant::now();
    let status = match cmd.status() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("verify: could not run cargo: {e}");
            return ExitCode::FAILURE;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    if status.success() {
        println!("verify ({what}): no mismatches; {secs:.1} s including the build");
        ExitCode::SUCCESS
    } else {
        eprintln!("verify ({what}): FAILED ({status}) after {secs:.1} s; mismatching cases are listed above as replay rows");
        ExitCode::FAILURE
    }
}
