//! The kernels' modules import one way (issue 10): each `use super::...`
//! in `emulator/src/kernels/` names a module of a lower layer, so there is
//! no import circle. Doc links do not count; `tests.rs` (the unit tests)
//! sits on top.

use std::path::Path;

/// Lowest first: formats, policy, the shared steps, the one rounding of
/// an exact value, the one kernel per operation (and `arith_kernel`, the
/// arithmetic operations as types; `classify_arith`, the words of an
/// arithmetic lane for `explain`; `scaled`, the SDWA alternative order),
/// the DPP gather, the blocks of F16 register halves and the joined F64
/// register pairs (leaves), the
/// lane loops (and `lane_arrays`, the lane API's container), dispatch,
/// and `arith`, the arithmetic entry points over dispatch.
const LAYERS: [&str; 23] = [
    "lane",
    "format",
    "policy",
    "modifiers",
    "round",
    "classify",
    "fract",
    "ldexp",
    "add",
    "mul",
    "fma",
    "arith_kernel",
    "classify_arith",
    "operation",
    "scaled",
    "gather",
    "halves",
    "pairs",
    "lane_loop",
    "lane_arrays",
    "arith_loop",
    "dispatch",
    "arith",
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|&m| m == module)
}

#[test]
fn kernel_modules_import_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("emulator/src/kernels");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("kernels directory") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        if name == "mod" || name == "tests" {
            continue;
        }
        let own = layer(name).unwrap_or_else(|| panic!("{name}.rs is in no layer"));
        seen.push(name.to_string());
        let text = std::fs::read_to_string(&path).expect("readable");
        for line in text.lines().map(str::trim) {
            let Some(rest) = line
                .strip_prefix("use super::")
                .or_else(|| line.strip_prefix("pub use super::"))
            else {
                continue;
            };
            let module: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if module.is_empty() {
                // `use super::{...}` in a nested module: its own parent.
                continue;
            }
            let to = layer(&module).unwrap_or_else(|| panic!("{name}.rs imports {module}"));
            assert!(
                to < own,
                "{name}.rs imports {module}, which is not below it: the layers are {LAYERS:?}"
            );
        }
    }
    seen.sort();
    let mut want: Vec<String> = LAYERS.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(seen, want, "every layer is one file, and nothing else");
}
