//! `cargo xtask bench [WORDS...] [--no-e2e] [--min] [--path=WORD]`: print the
//! kernel speed table.
//!
//! `cargo xtask bench replay [--rows N] [--runs N] [--jobs N] [--baseline
//! BIN]`: replay a generated capture file of N rows (default 1,000,000) and
//! report rows per second and peak memory (the `replay` bench target).
//!
//! Runs the `table` bench target of the root package (release profile, one
//! process): every instruction, format and case on every kernel path, then
//! wave64 `execute` end to end against the bare kernel. WORDS filter the
//! instructions (`cargo xtask bench ldexp f32`); `--path=WORD` keeps only the
//! kernel paths whose name contains WORD (`--path=scalar`).

use std::path::Path;
use std::process::{Command, ExitCode};

pub fn run(args: &[String]) -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let (bench, args) = match args.split_first() {
        Some((first, rest)) if first == "replay" => ("replay", rest),
        _ => ("table", args),
    };
    let status = Command::new(cargo)
        .current_dir(root)
        .args([
            "bench",
            "--quiet",
            "--package",
            "amdgpu-valu",
            "--bench",
            bench,
            "--",
        ])
        .args(args)
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => {
            eprintln!("bench failed: {s}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("could not run cargo: {e}");
            ExitCode::FAILURE
        }
    }
}
