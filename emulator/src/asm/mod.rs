//! Machine code: LLVM's AMDGPU assembly syntax to bytes and back.
//!
//! - [`parse`]: one line of assembly to a typed [`Instruction`], choosing the
//!   encoding (and literal versus inline constant) the way `llvm-mc` does;
//! - [`encode`] and [`assemble`]: the machine code of an instruction;
//! - [`decode`]: machine code to an instruction and its length;
//! - [`disassemble`]: an instruction in LLVM's canonical spelling, so text ->
//!   bytes -> text -> bytes is a fixed point.
//!
//! The field layouts and opcode numbers come from [`tables`]; the checked-in
//! fixtures in `tests/fixtures/encodings/` (written by `cargo xtask fixtures`
//! from `llvm-mc-22`) are the authority every function here is tested on.

mod decode;
mod encode;
mod lex;
mod literal;
mod operands;
mod print;
mod syntax;
pub mod tables;

use core::fmt;

pub use decode::decode;
pub use encode::encode;
pub use print::disassemble;
pub use syntax::parse;

use crate::target::Target;

/// The encoding tables of `target`: field layouts, operand codes and
/// limits from `isa-spec/`, generated into `crate::generated`.
pub fn target_encoding(target: Target) -> &'static tables::TargetEncoding {
    crate::generated::encoding(target)
}

/// Why a line of assembly was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// 1-based column (byte offset in the line + 1) of the offending token.
    pub column: usize,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.reason)
    }
}

impl std::error::Error for AsmError {}

/// Why bytes could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The input ends inside an instruction.
    Truncated {
        /// Byte offset of the missing dword.
        offset: usize,
        /// Bytes the instruction needs.
        needed: usize,
        /// Bytes there are.
        available: usize,
    },
    /// The word is not one of the encodings in scope (VOP1, VOP2, VOP3, SDWA).
    UnknownEncoding {
        /// Byte offset of the word.
        offset: usize,
        /// The word.
        word: u32,
    },
    /// The encoding is known but the opcode is not FRACT/LDEXP on this target.
    UnknownOpcode {
        /// Byte offset of the word.
        offset: usize,
        /// The encoding's name.
        encoding: &'static str,
        /// The opcode number.
        op: u32,
    },
    /// A field holds a value that is reserved or that these instructions
    /// cannot take.
    Reserved {
        /// Byte offset of the word holding the field.
        offset: usize,
        /// The field's name.
        field: &'static str,
        /// Its value.
        value: u32,
    },
    /// The fields are well-formed but name something invalid (a misaligned
    /// pair, too many scalar operands...).
    Invalid {
        /// Byte offset of the instruction.
        offset: usize,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Truncated {
                offset,
                needed,
                available,
            } => {
                write!(f, "byte offset {offset}: truncated instruction (needs {needed} bytes, {available} available)")
            }
            DecodeError::UnknownEncoding { offset, word } => {
                write!(f, "byte offset {offset}: word {word:#010x} is not a VOP1, VOP2, VOP3 or SDWA instruction")
            }
            DecodeError::UnknownOpcode {
                offset,
                encoding,
                op,
            } => {
                write!(f, "byte offset {offset}: {encoding} opcode {op:#x} is not V_FRACT or V_LDEXP on this target")
            }
            DecodeError::Reserved {
                offset,
                field,
                value,
            } => {
                write!(f, "byte offset {offset}: reserved or unsupported value {value:#x} in field {field}")
            }
            DecodeError::Invalid { offset, reason } => write!(f, "byte offset {offset}: {reason}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Which part of an instruction an encoding problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The mnemonic: the form itself.
    Mnemonic,
    /// The destination.
    Dst,
    /// The first source.
    Src0,
    /// The second source.
    Src1,
    /// A modifier (clamp, omod, op_sel, SDWA selectors).
    Modifier,
}

/// Why an instruction cannot be encoded on a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// Where the problem is.
    pub slot: Slot,
    /// What it is.
    pub reason: String,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.slot {
            Slot::Mnemonic => "instruction",
            Slot::Dst => "dst",
            Slot::Src0 => "src0",
            Slot::Src1 => "src1",
            Slot::Modifier => "modifier",
        };
        write!(f, "{what}: {}", self.reason)
    }
}

impl std::error::Error for EncodeError {}

/// Assemble one line of LLVM AMDGPU assembly for `target`.
pub fn assemble(target: Target, text: &str) -> Result<Vec<u8>, AsmError> {
    let instr = parse(target, text)?;
    encode(target, &instr).map_err(|e| AsmError {
        column: 1,
        reason: e.to_string(),
    })
}
