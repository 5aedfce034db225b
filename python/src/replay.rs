//! Capture replay (the row format of docs/captures.md).

use pyo3::prelude::*;

use amdgpu_valu::capture::Replayer;

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
    let mut r = ReplayResult {
        passed: 0,
        failed: 0,
        failures: Vec::new(),
    };
    let mut replayer = Replayer::new();
    for (index, line) in text.lines().enumerate() {
        let Some(report) = replayer.replay_line(index + 1, line) else {
            continue;
        };
        if report.passed {
            r.passed += 1;
        } else {
            r.failed += 1;
            r.failures.push(report.text.trim_end().to_string());
        }
    }
    r
}
