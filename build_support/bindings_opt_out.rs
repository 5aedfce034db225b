// The opt-out of the binding tests (tests/python_bindings.rs and
// capi/tests/c_programs.rs), shared by the build scripts of their packages.
//
// AMDGPU_VALU_SKIP_BINDINGS=1 sets the cfg `skip_bindings`, which marks
// those tests #[ignore]: `cargo test` then reports them as ignored, with the
// reason, never as ok. Without it a missing tool fails them. Changing the
// variable reruns the build script, and so rebuilds the package.

const SKIP_BINDINGS_VAR: &str = "AMDGPU_VALU_SKIP_BINDINGS";

fn declare_bindings_opt_out() {
    println!("cargo::rustc-check-cfg=cfg(skip_bindings)");
    println!("cargo::rerun-if-env-changed={SKIP_BINDINGS_VAR}");
    if std::env::var(SKIP_BINDINGS_VAR).is_ok_and(|v| !v.is_empty() && v != "0") {
        println!("cargo::rustc-cfg=skip_bindings");
    }
}
