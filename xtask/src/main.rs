//! Project tasks: `cargo xtask <command>`.
//!
//! - `regen`: rewrite `emulator/src/generated/` from `isa-spec/`.
//! - `check`: fail if the generated code or the C header is stale.
//! - `header`: rewrite the C header `capi/include/amdgpu_valu.h`.
//! - `verify [--exhaustive]`: the kernels against the reference model.
//! - `fixtures`: rewrite `tests/fixtures/encodings/` by asking `llvm-mc-22`.
//! - `bench [WORDS...] [--no-e2e] [--min]`: the kernel speed table.
//! - `bench replay [--rows N] [--jobs N] [--baseline BIN]`: replay speed and memory.
//! - `bench bindings`: the C and Python bindings against the Rust kernel.

use std::process::ExitCode;

mod arith_fixtures;
mod bench;
mod dpp_fixtures;
mod fixtures;
mod header;
mod regen;
mod verify;

/// One `cargo xtask` command.
struct Command {
    name: &'static str,
    help: &'static str,
    run: fn(&[String]) -> ExitCode,
}

/// Every command; add new ones here.
const COMMANDS: &[Command] = &[
    Command {
        name: "regen",
        help: "rewrite emulator/src/generated/ from isa-spec/",
        run: |_| regen::regen(),
    },
    Command {
        name: "check",
        help: "fail if the generated code or the C header is stale",
        run: |_| {
            let (code, header) = (regen::check(), header::check());
            if code == ExitCode::SUCCESS {
                header
            } else {
                code
            }
        },
    },
    Command {
        name: "header",
        help: "rewrite capi/include/amdgpu_valu.h with cbindgen",
        run: |_| header::write(),
    },
    Command {
        name: "fixtures",
        help: "rewrite tests/fixtures/encodings/ from llvm-mc-22",
        run: |_| fixtures::main(),
    },
    Command {
        name: "arith-fixtures",
        help: "rewrite only tests/fixtures/arith*/ from llvm-mc-22 (part of `fixtures`)",
        run: |_| arith_fixtures::main(),
    },
    Command {
        name: "verify",
        help: "compare the kernels with the reference model [--exhaustive]",
        run: verify::run,
    },
    Command {
        name: "bench",
        help: "print the kernel speed table [WORDS...] [--no-e2e] [--min]; \
               `bench replay [--rows N] [--jobs N] [--baseline BIN]`: replay speed; \
               `bench bindings`: C and Python",
        run: bench::run,
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        return usage();
    };
    match COMMANDS.iter().find(|c| c.name == cmd) {
        Some(c) => (c.run)(&args[1..]),
        None => {
            eprintln!("unknown xtask command `{cmd}`");
            usage()
        }
    }
}
