//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code is stale.
//! - `verify [--exhaustive]`: the kernels against the reference model.

use std::process::ExitCode;

mod verify;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("usage: cargo xtask <regen|check|verify [--exhaustive]>");
        return ExitCode::from(2);
    };
    match cmd.as_str() {
        "verify" => verify::run(&args[1..]),
        other => {
            eprintln!("unknown xtask command `{other}`");
            ExitCode::from(2)
        }
    }
}
