//! `cargo xtask regen` and `cargo xtask check`: the generated code of
//! `emulator/src/generated/` (and `isa-spec/EVIDENCE.md`) against `isa-spec/`.

use std::process::ExitCode;

use amdgpu_valu_codegen::{check as check_tree, regen as regen_tree, workspace_root};

/// Rewrite the generated files from `isa-spec/`. A spec error leaves the
/// tree untouched.
pub fn regen() -> ExitCode {
    match regen_tree(&workspace_root()) {
        Ok(changes) if changes.is_empty() => {
            println!("generated code is up to date");
            ExitCode::SUCCESS
        }
        Ok(changes) => {
            for (what, paths) in [
                ("wrote", &changes.stale),
                ("created", &changes.missing),
                ("removed", &changes.orphaned),
            ] {
                for p in paths {
                    println!("{what} {p}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Fail, listing stale, missing and orphaned files, unless the tree matches
/// what `regen` would write.
pub fn check() -> ExitCode {
    match check_tree(&workspace_root()) {
        Ok(drift) if drift.is_empty() => {
            println!("generated code is up to date");
            ExitCode::SUCCESS
        }
        Ok(drift) => {
            eprintln!("error: {drift}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
