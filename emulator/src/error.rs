//! Errors of the execution API. Every bad request is one of these, never a
//! panic.

use core::fmt;

use crate::instr::{Encoding, Opcode};
use crate::kernels::FormatKind;

/// Why a target name, an instruction, a wave or a register access was
/// refused. New variants may be added in minor releases.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExecError {
    /// A target name that is not LLVM's name of one of [`crate::Target::ALL`]
    /// (the text given).
    UnknownTarget(String),
    /// The target does not have this instruction in this encoding (e.g.
    /// SDWA on GFX11, or V_LDEXP_F32 in VOP2).
    FormNotOnTarget {
        /// LLVM's name of the target (`gfx1201`).
        target: &'static str,
        /// The operation and format asked for.
        opcode: Opcode,
        /// The encoding the target lacks for it.
        encoding: Encoding,
    },
    /// The target cannot run a wave of this size (GFX9 runs wave64 only).
    WaveSizeNotOnTarget {
        /// LLVM's name of the target.
        target: &'static str,
        /// The lanes asked for: 32 or 64.
        lanes: usize,
    },
    /// A register number beyond the register file (v0..v255, s0..s105),
    /// including the second register of a pair.
    RegisterOutOfRange {
        /// The operand (`dst`, `src0`, `src1`) or accessor (`vgpr`, `sgpr`)
        /// that named it.
        operand: &'static str,
        /// The register file: `vgpr` or `sgpr`.
        kind: &'static str,
        /// The register number asked for.
        index: usize,
        /// The number of registers in that file.
        count: usize,
    },
    /// A lane number at or beyond the wave size.
    LaneOutOfRange {
        /// The lane asked for.
        lane: usize,
        /// The lanes in the wave: 32 or 64.
        lanes: usize,
    },
    /// A 64-bit VGPR operand starting at an odd register on a target whose
    /// register pairs must be even-aligned (gfx90a, gfx942, gfx950,
    /// gfx1250).
    MisalignedPair {
        /// The operand: `dst`, `src0` or `src1`.
        operand: &'static str,
        /// The odd register number.
        index: usize,
    },
    /// An operand the instruction form cannot take (a constant as the
    /// destination, a register half on a target without true16, a missing
    /// or extra src1...), or lane arrays of unequal lengths
    /// ([`crate::lanes`]).
    InvalidOperand {
        /// The operand: `dst`, `src0`, `src1` (or `exec` for the lane API).
        operand: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A modifier the encoding cannot carry: ABS, NEG, OMOD or CLAMP in VOP1
    /// or VOP2, ABS or NEG on LDEXP's integer exponent, SDWA selectors
    /// outside SDWA.
    InvalidModifier {
        /// What is wrong.
        reason: String,
    },
    /// A DPP instruction the target cannot run (docs/semantics.md §11): no
    /// such DPP form, a DPP_CTRL the target does not have (under
    /// `dpp.reserved_ctrl: error`), DPP with a source the DPP word cannot
    /// name, or a DPP open point whose switch says error.
    InvalidDpp {
        /// What is wrong.
        reason: String,
    },
    /// An instruction was run as another operation or format than its
    /// opcode's (an internal consistency check; [`crate::execute`] never
    /// returns it for a well-formed request).
    OperationMismatch {
        /// The instruction's opcode.
        opcode: Opcode,
        /// The operation it was run as (`fract`, `ldexp`).
        operation: &'static str,
        /// The format it was run as.
        format: FormatKind,
    },
    /// The opcode is modelled in machine code (assembler, decoder,
    /// printer) but its operation has no kernel wired yet.
    NotExecuted {
        /// The opcode.
        opcode: Opcode,
    },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::UnknownTarget(t) => write!(
                f,
                "unknown target `{t}` (expected one of {})",
                crate::target::Target::NAMES
            ),
            ExecError::FormNotOnTarget {
                target,
                opcode,
                encoding,
            } => {
                write!(
                    f,
                    "{target} has no {}{} form",
                    opcode.mnemonic(),
                    encoding.suffix()
                )
            }
            ExecError::WaveSizeNotOnTarget { target, lanes } => {
                write!(f, "{target} does not support wave{lanes}")
            }
            ExecError::RegisterOutOfRange {
                operand,
                kind,
                index,
                count,
            } => {
                write!(
                    f,
                    "{operand}: {kind} {index} out of range (the file has {count})"
                )
            }
            ExecError::LaneOutOfRange { lane, lanes } => {
                write!(f, "lane {lane} out of range (the wave has {lanes})")
            }
            ExecError::MisalignedPair { operand, index } => {
                write!(
                    f,
                    "{operand}: 64-bit register pair must start at an even register, not {index}"
                )
            }
            ExecError::InvalidOperand { operand, reason } => write!(f, "{operand}: {reason}"),
            ExecError::InvalidModifier { reason } => write!(f, "{reason}"),
            ExecError::InvalidDpp { reason } => write!(f, "dpp: {reason}"),
            ExecError::OperationMismatch {
                opcode,
                operation,
                format,
            } => {
                write!(
                    f,
                    "{} cannot run as v_{operation}_{}",
                    opcode.mnemonic(),
                    format.name()
                )
            }
            ExecError::NotExecuted { opcode } => {
                write!(f, "{} is not executed yet", opcode.mnemonic())
            }
        }
    }
}

impl std::error::Error for ExecError {}
