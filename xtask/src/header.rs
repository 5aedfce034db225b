//! `cargo xtask header`: write the C header `capi/include/amdgpu_valu.h`
//! from the C API's source with cbindgen (a library dependency, nothing to
//! install); `cargo xtask check` fails when the committed header is stale.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use amdgpu_valu_codegen::workspace_root;

/// The committed header, relative to the workspace root.
pub const HEADER: &str = "capi/include/amdgpu_valu.h";

fn generate(root: &Path) -> Result<String, String> {
    let crate_dir = root.join("capi");
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .map_err(|e| format!("capi/cbindgen.toml: {e}"))?;
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).map_err(|e| format!("cbindgen wrote non-UTF-8: {e}"))
}

fn path(root: &Path) -> PathBuf {
    root.join(HEADER)
}

/// Rewrite the header.
pub fn write() -> ExitCode {
    let root = workspace_root();
    let result = generate(&root).and_then(|text| {
        let p = path(&root);
        let old = std::fs::read_to_string(&p).unwrap_or_default();
        if old == text {
            return Ok(false);
        }
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        Ok(true)
    });
    match result {
        Ok(false) => {
            println!("{HEADER} is up to date");
            ExitCode::SUCCESS
        }
        Ok(true) => {
            println!("wrote {HEADER}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Fail unless the committed header is what `write` would produce.
pub fn check() -> ExitCode {
    let root = workspace_root();
    match generate(&root) {
        Ok(text) if std::fs::read_to_string(path(&root)).ok().as_deref() == Some(&text) => {
            println!("{HEADER} is up to date");
            ExitCode::SUCCESS
        }
        Ok(_) => {
            eprintln!("error: {HEADER} is stale: run `cargo xtask header`");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
