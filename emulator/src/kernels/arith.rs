//! The arithmetic kernels (`add`, `mul`, `fma`) over slices of raw lanes,
//! one instruction's policy for all of them: how tests and benches reach
//! the kernels until the executor runs them (the `Operation` trait takes
//! one float source and an exponent today).

use super::add::{add_lane, AddSign};
use super::fma::fma_lane;
use super::format::Format;
use super::lane::Lane;
use super::modifiers::{LanePolicy, SourceMods};
use super::mul::mul_lane;
use super::policy::Policy;

/// An arithmetic operation of ARITH §0 (FMAC, FMAMK and FMAAK are FMA with
/// operands placed by the executor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// V_ADD: src0 + src1.
    Add,
    /// V_SUB: src0 - src1.
    Sub,
    /// V_SUBREV: src1 - src0.
    Subrev,
    /// V_MUL: src0 x src1.
    Mul,
    /// V_FMA: src0 x src1 + src2, one rounding.
    Fma,
}

impl ArithOp {
    /// Every operation.
    pub const ALL: [ArithOp; 5] = [
        ArithOp::Add,
        ArithOp::Sub,
        ArithOp::Subrev,
        ArithOp::Mul,
        ArithOp::Fma,
    ];

    /// ISA name stem (`add`, `sub`, `subrev`, `mul`, `fma`).
    pub fn name(self) -> &'static str {
        match self {
            ArithOp::Add => "add",
            ArithOp::Sub => "sub",
            ArithOp::Subrev => "subrev",
            ArithOp::Mul => "mul",
            ArithOp::Fma => "fma",
        }
    }

    /// Number of float sources (2, or 3 for FMA).
    pub fn sources(self) -> usize {
        match self {
            ArithOp::Fma => 3,
            _ => 2,
        }
    }
}

/// ABS and NEG of each source (src0, src1, src2), as encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SourceModifiers {
    /// ABS of src0, src1, src2.
    pub abs: [bool; 3],
    /// NEG of src0, src1, src2.
    pub neg: [bool; 3],
}

/// One arithmetic instruction's operation and modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArithInstr {
    /// The operation.
    pub op: ArithOp,
    /// ABS and NEG of each source.
    pub sources: SourceModifiers,
    /// OMOD as encoded (the policy decides whether it is effective).
    pub omod: super::policy::Omod,
    /// CLAMP bit.
    pub clamp: bool,
}

impl ArithInstr {
    /// `op` with no modifiers.
    pub fn new(op: ArithOp) -> ArithInstr {
        ArithInstr {
            op,
            sources: SourceModifiers::default(),
            omod: super::policy::Omod::None,
            clamp: false,
        }
    }
}

/// One lane of `op` on raw sources (`c` ignored but by FMA): steps 2 to 7
/// of ARITH §9 with `OUT` instantiating OMOD and CLAMP.
#[inline(always)]
pub fn arith_lane<F: Format, const OUT: bool>(
    op: ArithOp,
    [a, b, c]: [F::Lane; 3],
    m: &[SourceMods<F>; 3],
    p: &LanePolicy<F>,
) -> F::Lane {
    let two = [m[0], m[1]];
    match op {
        ArithOp::Add => add_lane::<F, OUT>(AddSign::Add, a, b, &two, p),
        ArithOp::Sub => add_lane::<F, OUT>(AddSign::Sub, a, b, &two, p),
        ArithOp::Subrev => add_lane::<F, OUT>(AddSign::Subrev, a, b, &two, p),
        ArithOp::Mul => mul_lane::<F, OUT>(a, b, &two, p),
        ArithOp::Fma => fma_lane::<F, OUT>(a, b, c, m, p),
    }
}

/// `op` over the lanes of `dst`, reading `a`, `b` and `c` lane by lane
/// (lanes past the shortest slice are left alone; pass `c` = `a` for the
/// two-source operations), under the one policy `p` (its own ABS/NEG
/// fields are ignored; `mods` gives each source's). The loop runs the same
/// kernel for every lane, so it may vectorise.
pub fn arith_slices<F: Format>(
    op: ArithOp,
    p: &Policy,
    mods: SourceModifiers,
    a: &[F::Bits],
    b: &[F::Bits],
    c: &[F::Bits],
    dst: &mut [F::Bits],
) {
    let lp = LanePolicy::<F>::new(p);
    let m = [0, 1, 2].map(|i| SourceMods::<F>::new(mods.abs[i], mods.neg[i]));
    let lane = |x: &F::Bits| F::Lane::from_u64(F::widen(*x));
    // Each operation and OMOD/CLAMP instantiation its own loop, so the
    // match is outside it.
    macro_rules! run {
        ($op:expr, $out:literal) => {
            for (d, (x, (y, z))) in dst.iter_mut().zip(a.iter().zip(b.iter().zip(c))) {
                let r = arith_lane::<F, $out>($op, [lane(x), lane(y), lane(z)], &m, &lp);
                *d = F::narrow(r.to_u64());
            }
        };
    }
    match (op, lp.has_output_modifiers()) {
        (ArithOp::Add, false) => run!(ArithOp::Add, false),
        (ArithOp::Sub, false) => run!(ArithOp::Sub, false),
        (ArithOp::Subrev, false) => run!(ArithOp::Subrev, false),
        (ArithOp::Mul, false) => run!(ArithOp::Mul, false),
        (ArithOp::Fma, false) => run!(ArithOp::Fma, false),
        (op, true) => run!(op, true),
    }
}
