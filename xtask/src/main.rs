//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code is stale.

use std::process::ExitCode;

mod regen;

/// Every command: name, one-line help, entry point.
const COMMANDS: &[(&str, &str, fn() -> ExitCode)] = &[
    ("regen", "rewrite emulator/src/generated/ from isa-spec/", regen::regen),
    ("check", "fail if the generated code is stale", regen::check),
];

fn usage() -> ExitCode {
    eprintln!("usage: cargo xtask <command>\n\ncommands:");
    for (name, help, _) in COMMANDS {
        eprintln!("  {name:<8} {help}");
    }
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let Some(cmd) = std::env::args().nth(1) else {
        return usage();
    };
    match COMMANDS.iter().find(|(name, _, _)| *name == cmd) {
        Some((_, _, run)) => run(),
        None => {
            eprintln!("unknown xtask command `{cmd}`");
            usage()
        }
    }
}
