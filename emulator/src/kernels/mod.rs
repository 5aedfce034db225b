//! The float rules, written once, branch-free and generic over format and
//! over the lane container, and the driver that runs them over a wave.
//!
//! Imports run one way: `format` and `policy`; `lane` and `modifiers`
//! (the shared steps); `round` (exact values in the wide lane and their
//! one rounding); `fract`, `ldexp`, `add`, `mul` and `fma` (the one kernel
//! of each operation), `arith_kernel` (the arithmetic operations as
//! types) and `operation`; `gather` (the DPP lane gather, a leaf),
//! `halves` (the blocks of F16 register halves, a leaf) and `pairs` (F64
//! encodings joined from and split into register pairs, a leaf);
//! `lane_loop` and `arith_loop` (the loops over a wave, and the scalar
//! path's one lane at a time) and `lane_arrays` (FRACT/LDEXP over caller
//! arrays of any length under EXEC, the lane API's); `dispatch` (which loop and which
//! instruction-set variant runs); `arith` (the arithmetic entry points:
//! slices, and the executor's wave of register words).
//! `classify` and `classify_arith` only describe a case for `explain`.
//!
//! Every function here is integer arithmetic on raw encodings; no host
//! floating-point operation touches an emulated value.

pub mod add;
pub mod arith;
pub mod arith_kernel;
pub mod arith_loop;
pub mod classify;
pub mod classify_arith;
pub mod dispatch;
pub mod fma;
pub mod format;
pub mod fract;
pub mod gather;
mod halves;
pub mod lane;
pub mod lane_arrays;
pub mod lane_loop;
pub mod ldexp;
pub mod modifiers;
pub mod mul;
pub mod operation;
pub mod pairs;
pub mod policy;
pub mod round;
pub mod scaled;

pub use classify::{FractCase, LdexpCase, Rounding};
pub use dispatch::{
    kernel_path, last_variant, run, run_dispatched, set_kernel_path, Isa, KernelPath, Variant,
};
pub use format::{Format, FormatKind, F16, F32, F64};
pub use lane_arrays::LaneArrays;
pub use lane_loop::{GatheredIo, Lanes, Slices, WaveIo};
pub use modifiers::LanePolicy;
pub use operation::{Fract, Ldexp, Operation};
pub use policy::{
    ClampNan, FloatRules, Mode, Modifiers, Omod, OmodDecision, OmodGate, Policy, Round, SnanPolicy,
    SubNan, Tininess,
};

#[cfg(test)]
mod tests;
