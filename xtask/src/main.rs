//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code is stale.
//! - `fixtures`: rewrite `tests/fixtures/encodings/` by asking `llvm-mc-22`.

mod fixtures;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("usage: cargo xtask <regen|check|fixtures>");
        return ExitCode::from(2);
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    match cmd.as_str() {
        "fixtures" => match fixtures::run(&root) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("xtask fixtures: {e}");
                ExitCode::FAILURE
            }
        },
        other => {
            eprintln!("unknown xtask command `{other}`");
            ExitCode::from(2)
        }
    }
}
