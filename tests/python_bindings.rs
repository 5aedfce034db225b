//! The Python package (`python/`) from the outside: build its wheel with
//! maturin (one release build, into the workspace's `target/`), unpack it,
//! and run its pytest suite (`python/tests/`) against it, as a user of the
//! wheel would import it.
//!
//! Needs `python3` with maturin, numpy and pytest (`.ci/run` installs them
//! with pip). Without them the test prints why it is skipped, and fails
//! under CI=true. `PYTHON` names another interpreter.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Why the tools are missing, if they are.
fn missing_tools(py: &str) -> Option<String> {
    let modules = Command::new(py)
        .args(["-c", "import numpy, pytest"])
        .output();
    match modules {
        Err(e) => return Some(format!("`{py}` does not run: {e}")),
        Ok(o) if !o.status.success() => {
            return Some(format!(
                "`{py}` lacks numpy or pytest: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            ))
        }
        Ok(_) => {}
    }
    match Command::new("maturin").arg("--version").output() {
        Ok(o) if o.status.success() => None,
        _ => Some("`maturin` is not on PATH".into()),
    }
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{text}",
        out.status
    );
    text
}

fn wheel_in(dir: &Path) -> PathBuf {
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("wheel directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "expected one wheel in {}", dir.display());
    wheels.into_iter().next().expect("one wheel")
}

#[test]
fn python_package_passes_its_pytest_suite() {
    let py = python();
    if let Some(why) = missing_tools(&py) {
        let msg = format!(
            "the Python bindings tests need maturin, numpy and pytest \
             (`{py} -m pip install maturin numpy pytest`): {why}"
        );
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{msg}");
        }
        eprintln!("skipped: {msg}");
        return;
    }
    let root = root();
    let work = root.join("target").join("python-bindings");
    let (wheels, site) = (work.join("wheels"), work.join("site"));
    for dir in [&wheels, &site] {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).expect("create a work directory");
    }
    run(Command::new("maturin")
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "--quiet",
            "-m",
            "python/Cargo.toml",
            "-i",
        ])
        .arg(&py)
        .arg("-o")
        .arg(&wheels));
    let wheel = wheel_in(&wheels);
    run(Command::new(&py)
        .args(["-m", "zipfile", "-e"])
        .arg(&wheel)
        .arg(&site));
    let out = run(Command::new(&py)
        .current_dir(&root)
        .env("PYTHONPATH", &site)
        .env("AMDGPU_VALU_REPO", &root)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ]));
    println!("{out}");
    assert!(out.contains(" passed"), "{out}");
}
