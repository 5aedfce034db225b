//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code is stale.

use std::process::ExitCode;

mod regen;

/// One `cargo xtask` command.
struct Command {
    name: &'static str,
    help: &'static str,
    run: fn() -> ExitCode,
}

/// Every command; add new ones here.
const COMMANDS: &[Command] = &[
    Command {
        name: "regen",
        help: "rewrite emulator/src/generated/ from isa-spec/",
        run: regen::regen,
    },
    Command {
        name: "check",
        help: "fail if the generated code is stale",
        run: regen::check,
    },
];

fn usage() -> ExitCode {
    eprintln!("usage: cargo xtask <command>\n\ncommands:");
    for c in COMMANDS {
        eprintln!("  {:<8} {}", c.name, c.help);
    }
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let Some(cmd) = std::env::args().nth(1) else {
        return usage();
    };
    match COMMANDS.iter().find(|c| c.name == cmd) {
        Some(c) => (c.run)(),
        None => {
            eprintln!("unknown xtask command `{cmd}`");
            usage()
        }
    }
}
