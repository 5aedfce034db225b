//! Helpers the codegen integration tests share: a temporary copy of
//! `isa-spec/` to edit and regenerate.

use std::path::{Path, PathBuf};

use amdgpu_valu_codegen::workspace_root;

/// A directory under the system temporary directory, removed on drop.
pub struct TempRoot(pub PathBuf);

impl TempRoot {
    pub fn new(name: &str) -> TempRoot {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempRoot(dir)
    }
}

impl Drop for TempRoot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copy every `*.yaml` of `isa-spec/` and its subdirectories (`families/`,
/// `instructions/`) to `to`.
pub fn copy_spec(to: &Path) {
    for dir in ["isa-spec", "isa-spec/families", "isa-spec/instructions"] {
        std::fs::create_dir_all(to.join(dir)).unwrap();
        for entry in std::fs::read_dir(workspace_root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml") {
                let name = path.file_name().unwrap();
                std::fs::copy(&path, to.join(dir).join(name)).unwrap();
            }
        }
    }
}

pub fn read(root: &Path, path: &str) -> String {
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}
