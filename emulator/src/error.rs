//! Errors of the execution API. Every bad request is one of these, never a
//! panic.

use core::fmt;

use crate::instr::{Encoding, Opcode};
use crate::kernels::FormatKind;

/// Why an instruction or a register access was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// A target name that is not one of [`crate::Target::ALL`].
    UnknownTarget(String),
    /// The target does not have this instruction in this encoding.
    FormNotOnTarget {
        /// Target name.
        target: &'static str,
        /// Instruction.
        opcode: Opcode,
        /// Encoding.
        encoding: Encoding,
    },
    /// The wave size is not supported by the target.
    WaveSizeNotOnTarget {
        /// Target name.
        target: &'static str,
        /// Lanes requested.
        lanes: usize,
    },
    /// A register number beyond the register file.
    RegisterOutOfRange {
        /// Which operand (`dst`, `src0`, `src1`) or accessor.
        operand: &'static str,
        /// Kind of register (`vgpr`, `sgpr`).
        kind: &'static str,
        /// The number asked for.
        index: usize,
        /// The number of registers there are.
        count: usize,
    },
    /// A lane number beyond the wave.
    LaneOutOfRange {
        /// The lane asked for.
        lane: usize,
        /// Lanes in the wave.
        lanes: usize,
    },
    /// A 64-bit operand on an odd register where the target needs even.
    MisalignedPair {
        /// Which operand.
        operand: &'static str,
        /// The odd register number.
        index: usize,
    },
    /// An operand the instruction form cannot take.
    InvalidOperand {
        /// Which operand.
        operand: &'static str,
        /// Why.
        reason: String,
    },
    /// A modifier the instruction form cannot take.
    InvalidModifier {
        /// Why.
        reason: String,
    },
    /// The typed executor was asked to run an opcode as another operation
    /// or format than its own.
    OperationMismatch {
        /// The instruction's opcode.
        opcode: Opcode,
        /// The operation asked for (`fract`, `ldexp`).
        operation: &'static str,
        /// The format asked for.
        format: FormatKind,
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
        }
    }
}

impl std::error::Error for ExecError {}
