//! Capture replay (the format of `docs/captures.md`): run every row of a
//! capture text and keep the pass/fail counts and the failure lines.

use std::ffi::{c_char, CString};

use amdgpu_valu::capture;

use crate::{guard, guard_value, slice, write_out, AvaluStatus, Error};

/// The result of a replay (opaque). Made by `avalu_replay`, freed by
/// `avalu_replay_free`.
pub struct AvaluReplay {
    passed: usize,
    failed: usize,
    failures: Vec<CString>,
}

/// Replay `text` (`len` bytes of capture rows, not NUL-terminated; invalid
/// UTF-8 makes its row malformed) into a new result in `*out`. Failing,
/// malformed and unrunnable rows count as failed and each leaves one
/// failure text, as `amdgpu-valu replay` prints it without the file name
/// (`LINE: FAIL row` and one indented line per wrong register, or
/// `LINE:COLUMN: malformed row: reason`, or `LINE:COLUMN: error: reason`).
///
/// # Safety
/// `text` is NULL or valid for `len` bytes; `out` NULL or valid for one
/// write.
#[no_mangle]
pub unsafe extern "C" fn avalu_replay(
    text: *const c_char,
    len: usize,
    out: *mut *mut AvaluReplay,
) -> AvaluStatus {
    guard(|| {
        if text.is_null() {
            return Err(Error::null("text"));
        }
        // SAFETY: forwarded caller contract.
        let bytes = unsafe { slice(text.cast::<u8>(), len, "text")? };
        if out.is_null() {
            return Err(Error::null("out"));
        }
        let result = replay_text(&String::from_utf8_lossy(bytes));
        let p = Box::into_raw(Box::new(result));
        // SAFETY: `out` non-NULL and valid by contract.
        unsafe { write_out(out, "out", p) }.inspect_err(|_| {
            // SAFETY: `p` came from Box::into_raw just above.
            drop(unsafe { Box::from_raw(p) });
        })
    })
}

fn replay_text(text: &str) -> AvaluReplay {
    let r = capture::replay_text(text);
    AvaluReplay {
        passed: r.passed,
        failed: r.failed,
        failures: r
            .failures
            .into_iter()
            .map(|m| CString::new(m.replace('\0', " ")).unwrap_or_default())
            .collect(),
    }
}

/// # Safety
/// `p` is NULL or a live handle.
unsafe fn replay_ref<'a>(p: *const AvaluReplay) -> Option<&'a AvaluReplay> {
    // SAFETY: a live handle by contract when non-NULL.
    unsafe { p.as_ref() }
}

/// Rows that passed; 0 when `replay` is NULL.
///
/// # Safety
/// `replay` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_replay_passed(replay: *const AvaluReplay) -> usize {
    // SAFETY: forwarded caller contract.
    guard_value(0, || unsafe { replay_ref(replay) }.map_or(0, |r| r.passed))
}

/// Rows that failed (wrong bits, malformed, or unrunnable); 0 when
/// `replay` is NULL.
///
/// # Safety
/// `replay` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_replay_failed(replay: *const AvaluReplay) -> usize {
    // SAFETY: forwarded caller contract.
    guard_value(0, || unsafe { replay_ref(replay) }.map_or(0, |r| r.failed))
}

/// Failure text `i` (0 to failed - 1), NUL-terminated and owned by the
/// result; NULL when `i` is out of range or `replay` is NULL.
///
/// # Safety
/// `replay` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_replay_failure(
    replay: *const AvaluReplay,
    i: usize,
) -> *const c_char {
    guard_value(core::ptr::null(), || {
        // SAFETY: forwarded caller contract.
        unsafe { replay_ref(replay) }
            .and_then(|r| r.failures.get(i))
            .map_or(core::ptr::null(), |s| s.as_ptr())
    })
}

/// Free a replay result. NULL is ignored.
///
/// # Safety
/// `replay` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn avalu_replay_free(replay: *mut AvaluReplay) {
    if !replay.is_null() {
        // SAFETY: a live handle from Box::into_raw by contract; freed once.
        let _ = std::panic::catch_unwind(|| drop(unsafe { Box::from_raw(replay) }));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_and_failure_lines() {
        let text = "# comment\n\
            gfx1201\t0x30\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x80000001\tv0=0x3f7fffff\n\
            gfx1201\t0x30\tv_fract_f32_e32 v0, v1\tv0=0xdeadbeef v1=0x80000001\tv0=0x3f800000\n\
            gfx9\t0x30\tv_fract_f32_e32 v0, v1\tv1=0x0\tv0=0x0\n";
        let r = super::replay_text(text);
        assert_eq!((r.passed, r.failed), (1, 2));
        let lines: Vec<_> = r.failures.iter().map(|s| s.to_string_lossy()).collect();
        assert!(lines[0].starts_with("3: FAIL gfx1201"), "{}", lines[0]);
        assert!(
            lines[0].contains("v0: expected 0x3f800000, actual 0x3f7fffff"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].starts_with("4:1: malformed row: unknown target `gfx9`"),
            "{}",
            lines[1]
        );
    }
}
