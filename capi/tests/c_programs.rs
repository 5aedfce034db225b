//! C and C++ programs against the C API, built with the system compilers
//! and the libraries this test build produced: the C++ example
//! (capi/examples/example.cpp) linked statically and dynamically, and the
//! README's C example. Each checks hardware rows and replays the public
//! captures.
//!
//! The compilers are `CXX` (else g++) and `CC` (else cc, else the C++
//! compiler's C front end). Without a C++ compiler the tests fail, naming
//! the command that installs one; they never pass without running.
//! AMDGPU_VALU_SKIP_BINDINGS=1 skips them, reported by `cargo test` as
//! ignored (build_support/bindings_opt_out.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ has a parent")
        .to_path_buf()
}

/// The directory holding this build's libamdgpu_valu_capi.{a,so}: the test
/// binary's own (target/<profile>/deps).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent().expect("binary in a directory").to_path_buf();
    assert!(
        dir.join("libamdgpu_valu_capi.a").exists(),
        "no libamdgpu_valu_capi.a beside the test binary in {}",
        dir.display()
    );
    dir
}

/// Libraries the Rust standard library needs in a static link.
const NATIVE_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// Whether `compiler` runs.
fn runs(compiler: &str) -> bool {
    Command::new(compiler)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The C++ compiler: `CXX`, else g++; the test fails when it does not run.
fn cxx() -> String {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    assert!(
        runs(&cxx),
        "`{cxx} --version` does not run: the C API program tests need a C++ compiler. \
         Install one (`apt-get install g++`) or name it in CXX, or set \
         AMDGPU_VALU_SKIP_BINDINGS=1 to skip the binding tests"
    );
    cxx
}

/// The C compiler, and whether it is the C++ compiler's C front end: `CC`,
/// else cc, else the C++ compiler.
fn cc() -> (String, bool) {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    if runs(&cc) {
        (cc, false)
    } else {
        (cxx(), true)
    }
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn out_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn check_example_output(stdout: &str) {
    assert!(
        stdout.contains("hw-public.tsv: 64 passed, 0 failed"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("checks, 0 failed"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
}

#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn cpp_example_linked_statically_checks_hardware_rows() {
    let cxx = cxx();
    let root = root();
    let exe = out_path("example_static");
    run(Command::new(&cxx)
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root.join("capi/include"))
        .arg(root.join("capi/examples/example.cpp"))
        .arg(lib_dir().join("libamdgpu_valu_capi.a"))
        .args(NATIVE_LIBS)
        .arg("-o")
        .arg(&exe));
    let stdout = run(Command::new(&exe).arg(root.join("tests/captures/hw-public.tsv")));
    check_example_output(&stdout);
}

#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn cpp_example_linked_dynamically_checks_hardware_rows() {
    let cxx = cxx();
    let root = root();
    let lib = lib_dir();
    let exe = out_path("example_shared");
    run(Command::new(&cxx)
        .args(["-std=c++17", "-I"])
        .arg(root.join("capi/include"))
        .arg(root.join("capi/examples/example.cpp"))
        .arg("-L")
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-Wl,--disable-new-dtags")
        .arg("-lamdgpu_valu_capi")
        .arg("-o")
        .arg(&exe));
    // cargo test's LD_LIBRARY_PATH also names target/<profile>, where an
    // older `cargo build` may have left another copy: load by rpath only.
    let stdout = run(Command::new(&exe)
        .env_remove("LD_LIBRARY_PATH")
        .arg(root.join("tests/captures/hw-public.tsv")));
    check_example_output(&stdout);
}

/// The C block of the README's "C API" section, compiled as C11 (by the
/// C++ compiler's C front end when there is no C compiler) and run.
#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn readme_c_example_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme
        .find("<!-- c-example -->")
        .expect("README marks its C example with <!-- c-example -->");
    let block = &readme[start..];
    let code_start = block.find("```c\n").expect("a ```c block after the marker") + 5;
    let code_len = block[code_start..].find("```").expect("the block ends");
    let code = &block[code_start..code_start + code_len];
    let expected = block
        .find("<!-- prints: ")
        .map(|i| &block[i + 13..])
        .and_then(|s| s.split(" -->").next())
        .expect("README gives the C example's output as <!-- prints: ... -->");
    let (compiler, is_cxx) = cc();
    let src = out_path("readme_example.c");
    std::fs::write(&src, code).expect("write the example");
    let exe = out_path("readme_example");
    let mut cmd = Command::new(&compiler);
    if is_cxx {
        cmd.args(["-x", "c"]);
    }
    run(cmd
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(root().join("capi/include"))
        .arg(&src)
        .args(["-x", "none"])
        .arg(lib_dir().join("libamdgpu_valu_capi.a"))
        .args(NATIVE_LIBS)
        .arg("-o")
        .arg(&exe));
    let stdout = run(&mut Command::new(&exe));
    assert_eq!(stdout.trim(), expected.trim());
}

/// The arithmetic functions from C: capi/tests/arith_lanes.c, bits derived
/// by hand, built as `lang` (`c` as C11, `c++` as C++17) and linked
/// statically.
fn arith_program(lang: &str) {
    checks_program("arith_lanes", lang);
}

/// The C program `capi/tests/{name}.c`, which prints one line per check
/// and "N checks, 0 failed", built as `lang` and linked statically.
fn checks_program(name: &str, lang: &str) {
    let (compiler, std) = match lang {
        "c" => (cc().0, "-std=c11"),
        _ => (cxx(), "-std=c++17"),
    };
    let exe = out_path(&format!("{name}_{}", lang.replace('+', "p")));
    run(Command::new(&compiler)
        .args(["-x", lang, std, "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root().join("capi/include"))
        .arg(root().join(format!("capi/tests/{name}.c")))
        .args(["-x", "none"])
        .arg(lib_dir().join("libamdgpu_valu_capi.a"))
        .args(NATIVE_LIBS)
        .arg("-o")
        .arg(&exe));
    let stdout = run(&mut Command::new(&exe));
    assert!(!stdout.contains("FAIL"), "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    assert!(
        last.ends_with("checks, 0 failed") && !last.starts_with("0 "),
        "{stdout}"
    );
}

#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn arithmetic_from_c_gives_hand_derived_bits() {
    arith_program("c");
}

#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn arithmetic_from_cpp_gives_hand_derived_bits() {
    arith_program("c++");
}

#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn prepared_instructions_from_c_give_hand_derived_bits() {
    checks_program("prepared_lanes", "c");
}

#[test]
#[cfg_attr(skip_bindings, ignore = "AMDGPU_VALU_SKIP_BINDINGS is set")]
fn prepared_instructions_from_cpp_give_hand_derived_bits() {
    checks_program("prepared_lanes", "c++");
}
