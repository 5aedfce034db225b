//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code is stale.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("usage: cargo xtask <regen|check>");
        return ExitCode::from(2);
    };
    match cmd.as_str() {
        other => {
            eprintln!("unknown xtask command `{other}`");
            ExitCode::from(2)
        }
    }
}
