//! `cargo xtask bench [WORDS...] [--no-e2e] [--min] [--path=WORD] [--goals]
//! [--isa]`: print the kernel speed table (`--goals`: only the arithmetic
//! goals, `--isa`: only the instruction-set levels against the baseline,
//! each measured in interleaved short passes). `AMDGPU_VALU_FORCE_ISA`
//! chooses the dispatched level.
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
//!
//! `cargo xtask bench bindings`: the C and Python bindings against the
//! Rust kernel (`capi/benches/bindings.rs`), after building the Python
//! wheel with maturin and unpacking it into `target/python-bindings/site`.

use std::path::Path;
use std::process::{Command, ExitCode};

pub fn run(args: &[String]) -> ExitCode {
    if args.first().is_some_and(|a| a == "bindings") {
        return bindings();
    }
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

/// Build and unpack the Python wheel, then run the bindings benchmark.
fn bindings() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let work = root.join("target").join("python-bindings");
    let (wheels, site) = (work.join("wheels"), work.join("site"));
    for dir in [&wheels, &site] {
        let _ = std::fs::remove_dir_all(dir);
        let _ = std::fs::create_dir_all(dir);
    }
    let built = Command::new("maturin")
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "--quiet",
            "-m",
            "python/Cargo.toml",
            "-i",
        ])
        .arg(&python)
        .arg("-o")
        .arg(&wheels)
        .status()
        .is_ok_and(|s| s.success());
    let wheel = std::fs::read_dir(&wheels).ok().and_then(|d| {
        d.filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "whl"))
    });
    match wheel {
        Some(w) if built => {
            let _ = Command::new(&python)
                .args(["-m", "zipfile", "-e"])
                .arg(w)
                .arg(&site)
                .status();
        }
        _ => eprintln!("no Python wheel (is maturin installed?): the Python side is skipped"),
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .env("AMDGPU_VALU_PYTHONPATH", &site)
        .args([
            "bench",
            "--quiet",
            "--package",
            "amdgpu-valu-capi",
            "--bench",
            "bindings",
        ])
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        other => {
            eprintln!("bench failed: {other:?}");
            ExitCode::FAILURE
        }
    }
}
