//! The float rules, written once and generic over format: one file per
//! operation plus the shared policy, modifiers and format descriptors.
//!
//! Every function here is integer arithmetic on raw encodings; no host
//! floating-point operation touches an emulated value.

pub mod dispatch;
pub mod format;
pub mod fract;
pub mod lane;
pub mod ldexp;
pub mod modifiers;
pub mod policy;
pub mod scaled;
pub mod simd;
pub mod wave;

pub use dispatch::{kernel_path, last_variant, set_kernel_path, Isa, Variant};
pub use format::{Format, FormatKind, F16, F32, F64};
pub use fract::{fract, FractCase, Rounding};
pub use ldexp::{ldexp, LdexpCase};
pub use policy::{
    ClampNan, FloatRules, Mode, Modifiers, Omod, OmodDecision, OmodGate, Policy, Round, SnanPolicy,
};
pub use wave::KernelPath;
