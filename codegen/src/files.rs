//! The generated files as a whole: produce them in memory, compare them
//! with the tree, write them atomically.

use std::fmt;
use std::path::Path;

use crate::error::Error;
use crate::header::{generated_files, STALE_MESSAGE};
use crate::model::Model;

/// Directory the Rust modules go to, relative to the workspace root. Every
/// file in it and in its `families/` is generated; anything the generator
/// does not produce is an orphan.
pub use crate::header::GENERATED_DIR;

/// The generated evidence table, relative to the workspace root.
pub const EVIDENCE_MD: &str = "isa-spec/EVIDENCE.md";

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    /// Workspace-relative path.
    pub path: String,
    /// Full contents.
    pub contents: String,
}

/// Every generated file for `model`, in a fixed order.
pub fn generate(model: &Model) -> Result<Vec<GeneratedFile>, Error> {
    let mut files = Vec::new();
    for f in &model.families {
        let contents = crate::emit::family_module(model, f)?;
        files.push(GeneratedFile {
            path: format!("{GENERATED_DIR}/families/{}.rs", f.family),
            contents,
        });
    }
    for t in &model.targets {
        let contents = crate::emit::target_module(model, t)?;
        files.push(GeneratedFile {
            path: format!("{GENERATED_DIR}/{}.rs", t.target),
            contents,
        });
    }
    files.push(GeneratedFile {
        path: format!("{GENERATED_DIR}/forms.rs"),
        contents: crate::emit::forms_module(model)?,
    });
    files.push(GeneratedFile {
        path: format!("{GENERATED_DIR}/instructions.rs"),
        contents: crate::emit::instructions_module(model)?,
    });
    files.push(GeneratedFile {
        path: format!("{GENERATED_DIR}/mod.rs"),
        contents: crate::emit::mod_rs(model)?,
    });
    files.push(GeneratedFile {
        path: EVIDENCE_MD.to_string(),
        contents: crate::evidence::evidence_md(model),
    });
    Ok(files)
}

/// Read, validate and generate everything under workspace `root`, in memory.
pub fn generate_all(root: &Path) -> Result<Vec<GeneratedFile>, Error> {
    generate(&crate::load::load(root)?)
}

/// How the tree differs from what the generator produces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drift {
    /// On disk with other contents.
    pub stale: Vec<String>,
    /// Not on disk.
    pub missing: Vec<String>,
    /// In the generated directory but not produced.
    pub orphaned: Vec<String>,
}

impl Drift {
    /// True when the tree matches.
    pub fn is_empty(&self) -> bool {
        self.stale.is_empty() && self.missing.is_empty() && self.orphaned.is_empty()
    }
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{STALE_MESSAGE}")?;
        for (what, paths) in [
            ("stale", &self.stale),
            ("missing", &self.missing),
            ("orphaned", &self.orphaned),
        ] {
            for p in paths {
                write!(f, "\n  {what}: {p}")?;
            }
        }
        Ok(())
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Files in the generated directories that `files` does not produce.
fn orphans(root: &Path, files: &[GeneratedFile]) -> Result<Vec<String>, Error> {
    let present = generated_files(root).map_err(|(path, source)| Error::Io { path, source })?;
    Ok(present
        .into_iter()
        .filter(|path| !files.iter().any(|f| &f.path == path))
        .collect())
}

/// Compare `files` with the tree under `root`.
pub fn drift(root: &Path, files: &[GeneratedFile]) -> Result<Drift, Error> {
    let mut drift = Drift {
        orphaned: orphans(root, files)?,
        ..Drift::default()
    };
    for f in files {
        let path = root.join(&f.path);
        match std::fs::read(&path) {
            Ok(bytes) if bytes == f.contents.as_bytes() => {}
            Ok(_) => drift.stale.push(f.path.clone()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                drift.missing.push(f.path.clone())
            }
            Err(e) => return Err(io(&path)(e)),
        }
    }
    Ok(drift)
}

/// Regenerate in memory and compare with the tree (`cargo xtask check`).
pub fn check(root: &Path) -> Result<Drift, Error> {
    drift(root, &generate_all(root)?)
}

/// Bring the tree in line with `files`: each changed file is written to a
/// temporary file in its directory and renamed over the old one, then
/// orphans are removed. Returns what changed.
pub fn write(root: &Path, files: &[GeneratedFile]) -> Result<Drift, Error> {
    let drift = drift(root, files)?;
    for f in files
        .iter()
        .filter(|f| drift.stale.contains(&f.path) || drift.missing.contains(&f.path))
    {
        let path = root.join(&f.path);
        let dir = path.parent().unwrap_or(root);
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let tmp = dir.join(format!(".{name}.tmp"));
        std::fs::write(&tmp, &f.contents).map_err(io(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(io(&path))?;
    }
    for orphan in &drift.orphaned {
        let path = root.join(orphan);
        std::fs::remove_file(&path).map_err(io(&path))?;
    }
    Ok(drift)
}

/// Regenerate everything under `root` (`cargo xtask regen`). Nothing is
/// written unless the whole spec loads and every file generates.
pub fn regen(root: &Path) -> Result<Drift, Error> {
    let files = generate_all(root)?;
    write(root, &files)
}
