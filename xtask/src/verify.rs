//! `cargo xtask verify [--exhaustive]`: the kernels against the reference
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
//! The test binary prints, per instruction and format, the cases compared,
//! the mismatches (the first few as replay rows in the capture format of
//! docs/captures.md) and the run time; this command adds the total time and exits
//! non-zero on any mismatch.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Instant;

/// Run the verification; `args` are the words after `verify`.
pub fn run(args: &[String]) -> ExitCode {
    let mut exhaustive = false;
    for a in args {
        match a.as_str() {
            "--exhaustive" => exhaustive = true,
            other => {
                eprintln!(
                    "verify: unknown argument `{other}` (usage: cargo xtask verify [--exhaustive])"
                );
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
    // One test at a time so the report lines do not interleave; the
    // exhaustive test spreads its own work over every core.
    cmd.args(["--nocapture", "--test-threads=1"]);
    let what = if exhaustive {
        "exhaustive"
    } else {
        "default subset"
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
