//! Instructions: assemble text or decode bytes into an opaque handle, then
//! read its bytes and LLVM's canonical text.

use std::ffi::c_char;

use amdgpu_valu::{asm, Instruction, Target};

use crate::{c_str, guard, slice, target, write_bytes, write_out, write_text, AvaluStatus, Error};

/// An instruction for one target (opaque). Made by `avalu_assemble` or
/// `avalu_decode`, freed by `avalu_instruction_free`.
pub struct AvaluInstruction {
    pub(crate) target: Target,
    pub(crate) instr: Instruction,
    bytes: Vec<u8>,
}

/// A shared reference to the handle behind `p`.
///
/// # Safety
/// `p` is NULL or a live handle from this library.
pub(crate) unsafe fn instruction<'a>(
    p: *const AvaluInstruction,
) -> Result<&'a AvaluInstruction, Error> {
    // SAFETY: a live handle by contract when non-NULL.
    unsafe { p.as_ref() }.ok_or_else(|| Error::null("instruction"))
}

fn boxed(out: *mut *mut AvaluInstruction, handle: AvaluInstruction) -> Result<(), Error> {
    if out.is_null() {
        return Err(Error::null("out"));
    }
    let p = Box::into_raw(Box::new(handle));
    // SAFETY: `out` is non-NULL and valid for a write by the callers' contract.
    unsafe { write_out(out, "out", p) }.inspect_err(|_| {
        // SAFETY: `p` came from Box::into_raw just above and was not shared.
        drop(unsafe { Box::from_raw(p) });
    })
}

/// Assemble one line of LLVM AMDGPU assembly for `target`, as llvm-mc 22
/// does (e32 or e64, inline constant or literal), into a new handle in
/// `*out`. A refused line is `AVALU_STATUS_ASSEMBLY` with the 1-based
/// column in the message.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or valid for
/// one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_assemble(
    target_id: u32,
    text: *const c_char,
    out: *mut *mut AvaluInstruction,
) -> AvaluStatus {
    guard(|| {
        let target = target(target_id)?;
        // SAFETY: forwarded caller contract.
        let text = unsafe { c_str(text, "text")? };
        let assembly = |e: asm::AsmError| Error::new(AvaluStatus::Assembly, e.to_string());
        let instr = asm::parse(target, text).map_err(assembly)?;
        let bytes = asm::assemble(target, text).map_err(assembly)?;
        boxed(
            out,
            AvaluInstruction {
                target,
                instr,
                bytes,
            },
        )
    })
}

/// Decode the instruction at the start of `bytes` (`len` bytes) for
/// `target` into a new handle in `*out`; `*consumed` (when not NULL) gets
/// its length in bytes. Truncated input, unknown opcodes and reserved
/// fields are `AVALU_STATUS_DECODE` with the byte offset in the message.
///
/// # Safety
/// `bytes` is NULL or valid for `len` bytes; `out` is NULL or valid for
/// one write; `consumed` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_decode(
    target_id: u32,
    bytes: *const u8,
    len: usize,
    out: *mut *mut AvaluInstruction,
    consumed: *mut usize,
) -> AvaluStatus {
    guard(|| {
        let target = target(target_id)?;
        if bytes.is_null() {
            return Err(Error::null("bytes"));
        }
        // SAFETY: forwarded caller contract.
        let bytes = unsafe { slice(bytes, len, "bytes")? };
        let (instr, n) = asm::decode(target, bytes)
            .map_err(|e| Error::new(AvaluStatus::Decode, e.to_string()))?;
        let bytes = bytes
            .get(..n)
            .ok_or_else(|| Error::invalid("decoded past the input"))?
            .to_vec();
        if !consumed.is_null() {
            // SAFETY: forwarded caller contract.
            unsafe { write_out(consumed, "consumed", n)? };
        }
        boxed(
            out,
            AvaluInstruction {
                target,
                instr,
                bytes,
            },
        )
    })
}

/// Free an instruction handle. NULL is ignored.
///
/// # Safety
/// `instr` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn avalu_instruction_free(instr: *mut AvaluInstruction) {
    if !instr.is_null() {
        // SAFETY: a live handle from Box::into_raw by contract; freed once.
        let _ = std::panic::catch_unwind(|| drop(unsafe { Box::from_raw(instr) }));
    }
}

/// The instruction's target id in `*out`.
///
/// # Safety
/// `instr` is NULL or a live handle; `out` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_instruction_target(
    instr: *const AvaluInstruction,
    out: *mut u32,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let i = unsafe { instruction(instr)? };
        let id = Target::ALL.iter().position(|&t| t == i.target).unwrap_or(0) as u32;
        // SAFETY: forwarded caller contract.
        unsafe { write_out(out, "out", id) }
    })
}

/// The instruction's machine code (as llvm-mc prints it) into `buf` of
/// `cap` bytes; `*len` (when not NULL) gets its length. With `cap` too
/// small (0 to ask), `AVALU_STATUS_BUFFER_TOO_SMALL` and the length.
///
/// # Safety
/// `instr` is NULL or a live handle; `buf` NULL or valid for `cap` bytes;
/// `len` NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn avalu_instruction_bytes(
    instr: *const AvaluInstruction,
    buf: *mut u8,
    cap: usize,
    len: *mut usize,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let i = unsafe { instruction(instr)? };
        if !len.is_null() {
            // SAFETY: forwarded caller contract.
            unsafe { write_out(len, "len", i.bytes.len())? };
        }
        // SAFETY: forwarded caller contract.
        unsafe { write_bytes(&i.bytes, false, buf, cap) }
    })
}

/// The instruction in LLVM's canonical spelling (what llvm-mc's
/// disassembler prints), NUL-terminated, into `buf` of `cap` bytes; `*len`
/// (when not NULL) gets its length without the NUL. With `cap` too small
/// (0 to ask), `AVALU_STATUS_BUFFER_TOO_SMALL` and the length.
///
/// # Safety
/// As `avalu_instruction_bytes`.
#[no_mangle]
pub unsafe extern "C" fn avalu_instruction_text(
    instr: *const AvaluInstruction,
    buf: *mut c_char,
    cap: usize,
    len: *mut usize,
) -> AvaluStatus {
    guard(|| {
        // SAFETY: forwarded caller contract.
        let i = unsafe { instruction(instr)? };
        let text = asm::disassemble(i.target, &i.instr);
        // SAFETY: forwarded caller contract.
        unsafe { write_text(&text, buf, cap, len) }
    })
}
