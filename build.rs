//! Never runs the generator: only checks that the committed generated code
//! in `emulator/src/generated/` was produced from the current `isa-spec/`,
//! by comparing the input hash recorded in each file's header with the hash
//! of those inputs now. Skipped when `isa-spec/` is absent (a packaged
//! crate ships the generated code without its sources).
//!
//! Also declares the opt-out of the Python binding test
//! (build_support/bindings_opt_out.rs).

use std::path::Path;
use std::process::exit;

// Header format, input hash and message, shared with amdgpu-valu-codegen.
include!("build_support/generated_header.rs");
// AMDGPU_VALU_SKIP_BINDINGS, shared with capi/build.rs.
include!("build_support/bindings_opt_out.rs");

fn main() {
    declare_bindings_opt_out();
    if !Path::new(SPEC_DIR).is_dir() {
        // A path in rerun-if-changed that does not exist makes Cargo rerun
        // the script, and rebuild the crate, on every build.
        println!("cargo:rerun-if-changed=build.rs");
        return;
    }
    println!("cargo:rerun-if-changed={SPEC_DIR}");
    println!("cargo:rerun-if-changed={GENERATED_DIR}");
    println!("cargo:rerun-if-changed=build_support/generated_header.rs");
    let problems = match check() {
        Ok(problems) => problems,
        Err(e) => vec![e],
    };
    if !problems.is_empty() {
        eprintln!("error: {STALE_MESSAGE}");
        for p in problems {
            eprintln!("  {p}");
        }
        exit(1);
    }
}

/// The problems found, one line each.
fn check() -> Result<Vec<String>, String> {
    let mut problems = Vec::new();
    let generated: Vec<String> = generated_files(Path::new("."))
        .map_err(|(dir, e)| format!("{dir}: {e}"))?
        .into_iter()
        .filter(|name| name.ends_with(".rs"))
        .collect();
    let all_inputs = spec_yaml_files(Path::new(".")).map_err(|(dir, e)| format!("{dir}: {e}"))?;
    for file in &generated {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let Some((inputs, recorded)) = parse_header(&text) else {
            problems.push(format!("{file}: no generated header"));
            continue;
        };
        // mod.rs covers every spec file, so adding or removing one shows.
        if file == &format!("{GENERATED_DIR}/mod.rs") && inputs != all_inputs {
            problems.push(format!("{file}: isa-spec/ files were added or removed"));
            continue;
        }
        let mut texts = Vec::new();
        for input in &inputs {
            match std::fs::read(input) {
                Ok(bytes) => texts.push((*input, bytes)),
                Err(e) => {
                    problems.push(format!("{file}: input {input}: {e}"));
                }
            }
        }
        if texts.len() == inputs.len()
            && input_hash(texts.iter().map(|(p, b)| (*p, b.as_slice()))) != recorded
        {
            problems.push(format!("{file}: inputs changed since it was generated"));
        }
    }
    Ok(problems)
}
