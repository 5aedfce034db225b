//! amdgpu-valu-codegen: reads `isa-spec/` (the instruction set, one YAML
//! file per target, one per family) and writes `emulator/src/generated/`
//! (the `Opcode` enum and its descriptors, the `Target` and `Family` enums,
//! a module per family and per target, the shared form tables) and
//! `isa-spec/EVIDENCE.md`.
//! No list of targets or families is written here: they are the files.
//!
//! The pipeline is [`load()`] (strict parsing, merging, validation into a
//! [`model::Model`]), [`sharing`] (which form entries the tables share),
//! [`emit`] (quote → syn → prettyplease) and [`files`]
//! (in-memory generation, comparison with the tree, atomic writes). The
//! generator is never compiled by users of the emulator: the generated files
//! are committed, and `build.rs` only compares input hashes.

pub mod emit;
pub mod error;
pub mod evidence;
pub mod files;
mod layout;
pub mod load;
pub mod model;
mod raw;
pub mod sharing;

/// Generated-file header and input hash, shared with the root `build.rs`.
pub mod header {
    include!("../../build_support/generated_header.rs");
}

pub use error::{Error, Loc, SpecError};
pub use files::{
    check, generate, generate_all, regen, Drift, GeneratedFile, EVIDENCE_MD, GENERATED_DIR,
};
pub use load::{build, load, read_inputs};
pub use model::Model;

/// The workspace root, from the codegen crate's own location.
pub fn workspace_root() -> std::path::PathBuf {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}
