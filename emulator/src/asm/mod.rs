//! Machine code: LLVM's AMDGPU assembly syntax to bytes and back, for every
//! form of the modelled instructions (V_FRACT, V_LDEXP and the arithmetic
//! core: VOP1, VOP2, VOP3, SDWA, and DPP16/DPP8 on VOP1/VOP2/VOP3) on every
//! target, exactly as LLVM 22's `llvm-mc` does.
//!
//! - [`parse`]: one line of assembly to a typed
//!   [`Instruction`](crate::Instruction), choosing the encoding (e32 or e64)
//!   and literal versus inline constant the way `llvm-mc` does;
//! - [`encode()`] and [`assemble`]: the machine code of an instruction;
//! - [`decode()`]: machine code to an instruction and its length;
//! - [`disassemble`]: an instruction in LLVM's canonical spelling, so text ->
//!   bytes -> text -> bytes is a fixed point.
//!
//! ```
//! use amdgpu_valu::{asm, Encoding, Opcode, Operand, Target};
//!
//! let t = Target::Gfx1201;
//! // 0.1 is no inline constant: LLVM picks VOP1 (e32) with a literal dword.
//! let bytes = asm::assemble(t, "v_fract_f32 v1, 0.1")?;
//! assert_eq!(bytes, [0xff, 0x40, 0x02, 0x7e, 0xcd, 0xcc, 0xcc, 0x3d]);
//! let (instr, len) = asm::decode(t, &bytes)?;
//! assert_eq!(len, 8);
//! assert_eq!((instr.opcode, instr.encoding), (Opcode::FractF32, Encoding::Vop1));
//! assert_eq!(instr.src0, Operand::Literal(0x3dcc_cccd));
//! assert_eq!(asm::disassemble(t, &instr), "v_fract_f32_e32 v1, 0x3dcccccd");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The field layouts and opcode numbers come from each target's `isa-spec/`
//! file (generated into the crate). The repository's encoding fixtures,
//! written from `llvm-mc-22` output for every form, operand kind and
//! modifier, are what every function here is tested against.

mod decode;
mod dpp;
mod encode;
mod lex;
mod literal;
mod operands;
mod print;
mod syntax;
pub(crate) mod tables;

use core::fmt;

pub use decode::decode;
pub(crate) use decode::decode_with;
pub use encode::encode;
pub use print::disassemble;
pub use syntax::parse;

use crate::target::Target;

/// The encoding tables of `target`: field layouts, operand codes and
/// limits from `isa-spec/`, generated into `crate::generated`.
pub(crate) fn target_encoding(target: Target) -> &'static tables::TargetEncoding {
    crate::generated::encoding(target)
}

/// The reserved bits of a DPP16 word on a `base`-encoded instruction of
/// `target` ([`crate::Dpp16::reserved`]).
pub(crate) fn dpp_reserved_bits(target: Target, base: crate::instr::Encoding) -> u32 {
    dpp::reserved_bits(target_encoding(target), base)
}

/// Why a line of assembly was refused: a syntax error, an instruction or
/// operand the target does not have, or a form that cannot encode it (as
/// `llvm-mc` refuses it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// The 1-based column (byte offset in the line + 1) of the offending
    /// token; 1 when the whole instruction cannot be encoded.
    pub column: usize,
    /// What was wrong, in LLVM's words where LLVM has them.
    pub reason: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.reason)
    }
}

impl std::error::Error for AsmError {}

/// Why machine code could not be decoded. Offsets count bytes from the
/// start of the input. New variants may be added in minor releases.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input ends inside an instruction (a VOP3, SDWA or DPP dword,
    /// or a literal dword, is missing).
    Truncated {
        /// The byte offset of the missing dword.
        offset: usize,
        /// The bytes the instruction needs.
        needed: usize,
        /// The bytes there are.
        available: usize,
    },
    /// The word's encoding bits are none of the encodings in scope (VOP1,
    /// VOP2, VOP3, and SDWA or DPP on them).
    UnknownEncoding {
        /// The byte offset of the word.
        offset: usize,
        /// The 32-bit word, little-endian as the input holds it.
        word: u32,
    },
    /// The encoding is known but its opcode field is no modelled instruction
    /// on this target.
    UnknownOpcode {
        /// The byte offset of the word.
        offset: usize,
        /// The encoding's name (`VOP1`, `VOP2`, `VOP3`, `SDWA`).
        encoding: &'static str,
        /// The opcode field's value.
        op: u32,
    },
    /// A field holds a value that is reserved, or an operand code these
    /// instructions cannot take (e.g. SDWA selector value 7, or src1
    /// fields in a VOP1 SDWA word).
    Reserved {
        /// The byte offset of the word holding the field.
        offset: usize,
        /// The field's name (`src0`, `dst_sel`, `omod`...).
        field: &'static str,
        /// Its value.
        value: u32,
    },
    /// A reserved bit of a DPP or SDWA word is set and the target's switch
    /// for such bits (`dpp.reserved_bits`, `sdwa_reserved_bits`) says
    /// error. Under the default (LLVM's behaviour) the word decodes.
    ReservedBit {
        /// The byte offset of the word.
        offset: usize,
        /// The word: `DPP` or `SDWA`.
        word: &'static str,
        /// The lowest reserved bit set (0-31 in the word).
        bit: u32,
        /// The switch that refused it.
        switch: &'static str,
    },
    /// The fields are well-formed but name something the target refuses
    /// (a misaligned register pair, too many scalar operands...).
    Invalid {
        /// The byte offset of the instruction.
        offset: usize,
        /// What is refused.
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
                write!(f, "byte offset {offset}: {encoding} opcode {op:#x} is no modelled instruction on this target")
            }
            DecodeError::Reserved {
                offset,
                field,
                value,
            } => {
                write!(f, "byte offset {offset}: reserved or unsupported value {value:#x} in field {field}")
            }
            DecodeError::ReservedBit {
                offset,
                word,
                bit,
                switch,
            } => {
                write!(f, "byte offset {offset}: reserved bit {bit} of the {word} word is set ({switch} says error)")
            }
            DecodeError::Invalid { offset, reason } => write!(f, "byte offset {offset}: {reason}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Which part of an instruction an encoding problem is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The mnemonic: the target lacks the opcode in that encoding.
    Mnemonic,
    /// The destination operand (`vdst`).
    Dst,
    /// src0, the float source.
    Src0,
    /// src1, the second source (V_LDEXP's exponent, FMAMK's K).
    Src1,
    /// src2, the third source (V_FMA's addend, FMAAK's K).
    Src2,
    /// A modifier field: ABS/NEG, CLAMP, OMOD, OPSEL or the SDWA selectors.
    Modifier,
}

/// Why an instruction has no machine code on a target: the form, an
/// operand or a modifier that the encoding's fields cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    /// The part of the instruction at fault.
    pub slot: Slot,
    /// What cannot be encoded, in LLVM's words where LLVM has them.
    pub reason: String,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.slot {
            Slot::Mnemonic => "instruction",
            Slot::Dst => "dst",
            Slot::Src0 => "src0",
            Slot::Src1 => "src1",
            Slot::Src2 => "src2",
            Slot::Modifier => "modifier",
        };
        write!(f, "{what}: {}", self.reason)
    }
}

impl std::error::Error for EncodeError {}

/// The machine code of one line of LLVM AMDGPU assembly for `target`, as
/// `llvm-mc -arch=amdgcn -mcpu=<target> -show-encoding` prints it (with
/// `-mattr=+real-true16` on gfx11 and gfx12): [`parse`] then [`encode()`].
///
/// ```
/// use amdgpu_valu::{asm, Target};
///
/// // An explicit e64 form with NEG, OMOD and true16 halves (VOP3 + OPSEL).
/// let bytes = asm::assemble(Target::Gfx1100, "v_ldexp_f16_e64 v0.h, -v1.l, v2.l mul:2")?;
/// assert_eq!(bytes.len(), 8);
/// // The same text on a GFX9 target has no `.h` halves: an error with its column.
/// let err = asm::assemble(Target::Gfx908, "v_ldexp_f16_e64 v0.h, -v1.l, v2.l").unwrap_err();
/// assert!(err.column > 1);
/// # Ok::<(), asm::AsmError>(())
/// ```
pub fn assemble(target: Target, text: &str) -> Result<Vec<u8>, AsmError> {
    let instr = parse(target, text)?;
    encode(target, &instr).map_err(|e| AsmError {
        column: 1,
        reason: e.to_string(),
    })
}
