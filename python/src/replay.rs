//! Capture replay (the row format of docs/captures.md).

use pyo3::prelude::*;

use amdgpu_valu::capture;

/// The result of replay(): rows passed and failed, and one text per
/// failure as `amdgpu-valu replay` prints it, without the file name.
#[pyclass(module = "amdgpu_valu", frozen)]
pub struct ReplayResult {
    /// Rows whose registers all held the expected bits.
    #[pyo3(get)]
    passed: usize,
    /// Rows with wrong bits, malformed rows and rows that could not run.
    #[pyo3(get)]
    failed: usize,
    /// One text per failed row (`LINE: FAIL row` and the wrong registers,
    /// `LINE:COLUMN: malformed row: ...`, `LINE:COLUMN: error: ...`).
    #[pyo3(get)]
    failures: Vec<String>,
}

#[pymethods]
impl ReplayResult {
    /// True when no row failed.
    #[getter]
    fn ok(&self) -> bool {
        self.failed == 0
    }

    fn __repr__(&self) -> String {
        format!(
            "ReplayResult(passed={}, failed={})",
            self.passed, self.failed
        )
    }
}

/// Replay capture rows (one per line, tab-separated, as in
/// docs/captures.md): run each on a fresh wave and compare every register
/// bit for bit. Malformed rows count as failed; the rest still run.
#[pyfunction]
pub fn replay(py: Python<'_>, text: &str) -> ReplayResult {
    py.detach(|| replay_text(text))
}

fn replay_text(text: &str) -> ReplayResult {
    let r = capture::replay_text(text);
    ReplayResult {
        passed: r.passed,
        failed: r.failed,
        failures: r.failures,
    }
}
