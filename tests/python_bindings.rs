//! The Python package (`python/`) from the outside: build its wheel with
//! maturin (one release build, into the workspace's `target/`), unpack it,
//! and run its pytest suite (`python/tests/`) against it, as a user of the
//! wheel would import it.
//!
//! Needs Python 3 (`PYTHON`, else `python3`) with maturin, numpy and pytest.
//! When that Python lacks them (or maturin is not on PATH), the test makes a
//! virtual environment, `target/python-bindings/venv`, and installs the
//! three from PyPI with pip; later runs reuse it. When that fails too, the
//! test fails with the one command that installs what is missing: it never
//! passes without running. AMDGPU_VALU_SKIP_BINDINGS=1 skips it, reported
//! by `cargo test` as ignored (build_support/bindings_opt_out.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

const TOOLS: &str = "maturin numpy pytest";
const OPT_OUT: &str = "or set AMDGPU_VALU_SKIP_BINDINGS=1 to skip the binding tests";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// This build's target directory (where CARGO_TARGET_DIR puts it).
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target/tmp has a parent")
        .to_path_buf()
}

fn work_dir() -> PathBuf {
    target_dir().join("python-bindings")
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The interpreter and the maturin that build and test the package.
struct Tools {
    python: PathBuf,
    maturin: PathBuf,
}

/// `cmd`'s output, or why it did not run or failed.
fn output(cmd: &mut Command) -> Result<String, String> {
    match cmd.output() {
        Err(e) => Err(format!("{cmd:?} does not run: {e}")),
        Ok(o) if !o.status.success() => Err(format!(
            "{cmd:?} failed ({}): {}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout).trim(),
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
    }
}

/// The tools, if `python` imports numpy and pytest and `maturin` runs.
fn usable(python: &Path, maturin: &Path) -> Result<Tools, String> {
    output(Command::new(python).args(["-c", "import numpy, pytest"]))?;
    output(Command::new(maturin).arg("--version"))?;
    Ok(Tools {
        python: python.to_path_buf(),
        maturin: maturin.to_path_buf(),
    })
}

/// The tools of `PYTHON`, else of the virtual environment under target/,
/// made and filled from PyPI when needed; else the one command to run.
fn tools() -> Result<Tools, String> {
    let py = python();
    let system = usable(Path::new(&py), Path::new("maturin"));
    if let Ok(tools) = system {
        return Ok(tools);
    }
    let venv = work_dir().join("venv");
    let bin = venv.join("bin");
    let (vpy, vmaturin) = (bin.join("python"), bin.join("maturin"));
    if let Ok(tools) = usable(&vpy, &vmaturin) {
        return Ok(tools);
    }
    if let Err(e) = output(Command::new(&py).args(["--version"])) {
        return Err(format!(
            "the Python bindings test needs Python 3: install it \
             (`apt-get install python3 python3-venv`) or name one in PYTHON, {OPT_OUT}.\n{e}"
        ));
    }
    eprintln!(
        "python_bindings: `{py}` lacks {TOOLS} ({}); installing them from PyPI into {}",
        system.err().unwrap_or_default(),
        venv.display()
    );
    if !vpy.exists() {
        output(Command::new(&py).args(["-m", "venv"]).arg(&venv)).map_err(|e| {
            format!(
                "could not make a virtual environment for {TOOLS}: install them \
                 (`{py} -m pip install {TOOLS}`), or the venv module \
                 (`apt-get install python3-venv`), {OPT_OUT}.\n{e}"
            )
        })?;
    }
    output(
        Command::new(&vpy)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(TOOLS.split(' ')),
    )
    .map_err(|e| {
        format!(
            "pip could not install {TOOLS} into {} (remove it to make it anew): \
             install them (`{py} -m pip install {TOOLS}`), {OPT_OUT}.\n{e}",
            venv.display()
        )
    })?;
    usable(&vpy, &vmaturin).map_err(|e| {
        format!(
            "{TOOLS} do not run after installing them into {}: {e}",
            venv.display()
        )
    })
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
#[cfg_attr(
    skip_bindings,
    ignore = "AMDGPU_VALU_SKIP_BINDINGS is set: the Python package is not tested"
)]
fn python_package_passes_its_pytest_suite() {
    let tools = tools().unwrap_or_else(|why| panic!("{why}"));
    let root = root();
    let work = work_dir();
    let (wheels, site) = (work.join("wheels"), work.join("site"));
    for dir in [&wheels, &site] {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).expect("create a work directory");
    }
    run(Command::new(&tools.maturin)
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "--quiet",
            "-m",
            "python/Cargo.toml",
            "-i",
        ])
        .arg(&tools.python)
        .arg("-o")
        .arg(&wheels));
    let wheel = wheel_in(&wheels);
    run(Command::new(&tools.python)
        .args(["-m", "zipfile", "-e"])
        .arg(&wheel)
        .arg(&site));
    let out = run(Command::new(&tools.python)
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
    assert!(!out.contains("failed") && !out.contains("skipped"), "{out}");
}
