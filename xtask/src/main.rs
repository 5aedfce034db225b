//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code is stale.
//! - `bench`: print the kernel speed table (see `bench.rs`).

mod bench;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("usage: cargo xtask <regen|check|bench>");
        return ExitCode::from(2);
    };
    match cmd.as_str() {
        "bench" => bench::run(&args[1..]),
        other => {
            eprintln!("unknown xtask command `{other}`");
            ExitCode::from(2)
        }
    }
}
