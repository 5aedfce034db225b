//! A wave of registers (VGPRs per lane, SGPRs, MODE, EXEC) and executing an
//! instruction on it.

use amdgpu_valu::{execute, Target, Wave, WaveSize};

use crate::instruction::{instruction, AvaluInstruction};
use crate::{guard, guard_value, slice, slice_mut, target, write_out, AvaluStatus, Error};

/// One wave of one target (opaque). Made by `avalu_wave_new`, freed by
/// `avalu_wave_free`.
pub struct AvaluWave {
    target: Target,
    wave: Wave,
}

/// # Safety
/// `p` is NULL or a live handle from this library.
unsafe fn wave_ref<'a>(p: *const AvaluWave) -> Result<&'a AvaluWave, Error> {
    // SAFETY: a live handle by contract when non-NULL.
    unsafe { p.as_ref() }.ok_or_else(|| Error::null("wave"))
}

/// # Safety
/// `p` is NULL or a live handle from this library, not otherwise borrowed.
unsafe fn wave_mut<'a>(p: *mut AvaluWave) -> Result<&'a mut AvaluWave, Error> {
    // SAFETY: a live, exclusive handle by contract when non-NULL.
    unsafe { p.as_mut() }.ok_or_else(|| Error::null("wave"))
}

fn index(i: u32) -> usize {
    // u32 always fits usize on the targets the library builds for.
    usize::try_from(i).unwrap_or(usize::MAX)
}

/// A new wave for `target` with `lanes` lanes (32 or 64; 0 for the
/// target's default) in `*out`: every register 0, MODE 0, every lane
/// active. A size the target lacks is `AVALU_STATUS_EXECUTE`.
///
/// # Safety
/// `out` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_new(
    target_id: u32,
    lanes: u32,
    out: *mut *mut AvaluWave,
) -> AvaluStatus {
    guard(|| {
        let target = target(target_id)?;
        let wave = match lanes {
            0 => Wave::for_target(target),
            32 => Wave::for_target_with_size(target, WaveSize::Wave32)?,
            64 => Wave::for_target_with_size(target, WaveSize::Wave64)?,
            n => {
                return Err(Error::invalid(format!(
                    "a wave has 32 or 64 lanes, not {n}"
                )))
            }
        };
        if out.is_null() {
            return Err(Error::null("out"));
        }
        let p = Box::into_raw(Box::new(AvaluWave { target, wave }));
        // SAFETY: `out` non-NULL and valid by contract.
        unsafe { write_out(out, "out", p) }.inspect_err(|_| {
            // SAFETY: `p` came from Box::into_raw just above.
            drop(unsafe { Box::from_raw(p) });
        })
    })
}

/// Free a wave. NULL is ignored.
///
/// # Safety
/// `wave` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_free(wave: *mut AvaluWave) {
    if !wave.is_null() {
        // SAFETY: a live handle from Box::into_raw by contract; freed once.
        let _ = std::panic::catch_unwind(|| drop(unsafe { Box::from_raw(wave) }));
    }
}

/// The wave's lane count (32 or 64); 0 when `wave` is NULL.
///
/// # Safety
/// `wave` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_lanes(wave: *const AvaluWave) -> u32 {
    // SAFETY: forwarded caller contract.
    guard_value(0, || {
        unsafe { wave_ref(wave) }.map_or(0, |w| w.wave.lanes() as u32)
    })
}

/// Set VGPR `reg` (0 to 255) of lane `lane` to `value`.
///
/// # Safety
/// `wave` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_set_vgpr(
    wave: *mut AvaluWave,
    reg: u32,
    lane: u32,
    value: u32,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let w = unsafe { wave_mut(wave)? };
        Ok(w.wave.set_vgpr(index(reg), index(lane), value)?)
    })
}

/// VGPR `reg` of lane `lane` in `*out`.
///
/// # Safety
/// `wave` is NULL or a live handle; `out` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_get_vgpr(
    wave: *const AvaluWave,
    reg: u32,
    lane: u32,
    out: *mut u32,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let w = unsafe { wave_ref(wave)? };
        let v = w.wave.vgpr(index(reg), index(lane))?;
        // SAFETY: forwarded caller contract.
        unsafe { write_out(out, "out", v) }
    })
}

/// Write VGPR `reg` of lanes 0 to `n - 1` from `values` (`n` at most the
/// lane count).
///
/// # Safety
/// `wave` is NULL or a live handle; `values` NULL or valid for `n` reads.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_write_vgpr(
    wave: *mut AvaluWave,
    reg: u32,
    values: *const u32,
    n: usize,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let w = unsafe { wave_mut(wave)? };
        lanes_fit(w, n)?;
        // SAFETY: forwarded caller contract.
        let values = unsafe { slice(values, n, "values")? };
        for (lane, &v) in values.iter().enumerate() {
            w.wave.set_vgpr(index(reg), lane, v)?;
        }
        Ok(())
    })
}

/// Read VGPR `reg` of lanes 0 to `n - 1` into `out` (`n` at most the lane
/// count).
///
/// # Safety
/// `wave` is NULL or a live handle; `out` NULL or valid for `n` writes.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_read_vgpr(
    wave: *const AvaluWave,
    reg: u32,
    out: *mut u32,
    n: usize,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let w = unsafe { wave_ref(wave)? };
        lanes_fit(w, n)?;
        // SAFETY: forwarded caller contract.
        let out = unsafe { slice_mut(out, n, "out")? };
        for (lane, o) in out.iter_mut().enumerate() {
            *o = w.wave.vgpr(index(reg), lane)?;
        }
        Ok(())
    })
}

fn lanes_fit(w: &AvaluWave, n: usize) -> Result<(), Error> {
    if n > w.wave.lanes() {
        return Err(Error::invalid(format!(
            "{n} lanes asked of a wave of {}",
            w.wave.lanes()
        )));
    }
    Ok(())
}

/// Set SGPR `reg` (0 to 105).
///
/// # Safety
/// `wave` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_set_sgpr(
    wave: *mut AvaluWave,
    reg: u32,
    value: u32,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let w = unsafe { wave_mut(wave)? };
        Ok(w.wave.set_sgpr(index(reg), value)?)
    })
}

/// SGPR `reg` in `*out`.
///
/// # Safety
/// `wave` is NULL or a live handle; `out` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_get_sgpr(
    wave: *const AvaluWave,
    reg: u32,
    out: *mut u32,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let w = unsafe { wave_ref(wave)? };
        let v = w.wave.sgpr(index(reg))?;
        // SAFETY: forwarded caller contract.
        unsafe { write_out(out, "out", v) }
    })
}

/// Set the MODE register.
///
/// # Safety
/// `wave` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_set_mode(wave: *mut AvaluWave, mode: u32) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        unsafe { wave_mut(wave)? }.wave.set_mode(mode);
        Ok(())
    })
}

/// The MODE register in `*out`.
///
/// # Safety
/// `wave` is NULL or a live handle; `out` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_get_mode(wave: *const AvaluWave, out: *mut u32) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let mode = unsafe { wave_ref(wave)? }.wave.mode().0;
        // SAFETY: forwarded caller contract.
        unsafe { write_out(out, "out", mode) }
    })
}

/// Set EXEC (bits beyond the wave's lanes are dropped).
///
/// # Safety
/// `wave` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_set_exec(wave: *mut AvaluWave, exec: u64) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        unsafe { wave_mut(wave)? }.wave.set_exec(exec);
        Ok(())
    })
}

/// EXEC in `*out`.
///
/// # Safety
/// `wave` is NULL or a live handle; `out` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_wave_get_exec(wave: *const AvaluWave, out: *mut u64) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let exec = unsafe { wave_ref(wave)? }.wave.exec();
        // SAFETY: forwarded caller contract.
        unsafe { write_out(out, "out", exec) }
    })
}

/// Execute `instr` on `wave`, as its target does. The instruction must be
/// for the wave's target. A form the target lacks, a register out of
/// range or a misaligned pair is `AVALU_STATUS_EXECUTE` or
/// `AVALU_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `wave` and `instr` are NULL or live handles.
#[no_mangle]
pub unsafe extern "C" fn avalu_execute(
    wave: *mut AvaluWave,
    instr: *const AvaluInstruction,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let (w, i) = unsafe { (wave_mut(wave)?, instruction(instr)?) };
        if w.target != i.target {
            return Err(Error::invalid(format!(
                "the instruction is for {}, the wave for {}",
                i.target, w.target
            )));
        }
        Ok(execute(w.target, &mut w.wave, &i.instr)?)
    })
}
