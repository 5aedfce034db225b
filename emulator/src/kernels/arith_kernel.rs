//! The arithmetic operations as values and as types: `ArithOp` names one,
//! and each `ArithKernel` type runs its one kernel (`add`, `mul`, `fma`)
//! on a lane, so the loops above are monomorphised per operation.

use super::add::{add_lane, AddSign};
use super::fma::fma_lane;
use super::format::Format;
use super::modifiers::{LanePolicy, SourceMods};
use super::mul::mul_lane;

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

impl SourceModifiers {
    /// The six flags as one byte: bit `i` ABS of source `i`, bit `3 + i`
    /// NEG of source `i` (0: no modifier at all).
    #[inline(always)]
    pub fn bits(self) -> u8 {
        let [a0, a1, a2] = self.abs.map(u8::from);
        let [n0, n1, n2] = self.neg.map(u8::from);
        a0 | a1 << 1 | a2 << 2 | n0 << 3 | n1 << 4 | n2 << 5
    }

    /// The flags [`SourceModifiers::bits`] packed into `bits` (bits 7:6
    /// ignored).
    #[inline(always)]
    pub fn from_bits(bits: u8) -> SourceModifiers {
        let bit = |i: u32| bits >> i & 1 != 0;
        SourceModifiers {
            abs: [0, 1, 2].map(bit),
            neg: [3, 4, 5].map(bit),
        }
    }
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

/// An arithmetic operation as a type: the lane loops and dispatch are
/// instantiated per operation, so no lane matches on [`ArithOp`].
pub trait ArithKernel: Copy + 'static {
    /// The operation.
    const OP: ArithOp;
    /// One lane, steps 2 to 7 of ARITH §9, on raw sources in encoding
    /// order (`src[2]` read only by FMA).
    fn lane<F: Format, const OUT: bool>(
        src: [F::Lane; 3],
        m: &[SourceMods<F>; 3],
        p: &LanePolicy<F>,
    ) -> F::Lane;
}

macro_rules! kernel {
    ($(#[$doc:meta])* $name:ident, $op:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;

        impl ArithKernel for $name {
            const OP: ArithOp = $op;
            #[inline(always)]
            fn lane<F: Format, const OUT: bool>(
                src: [F::Lane; 3],
                m: &[SourceMods<F>; 3],
                p: &LanePolicy<F>,
            ) -> F::Lane {
                arith_lane::<F, OUT>($op, src, m, p)
            }
        }
    };
}

kernel!(
    /// V_ADD.
    AddKernel,
    ArithOp::Add
);
kernel!(
    /// V_SUB.
    SubKernel,
    ArithOp::Sub
);
kernel!(
    /// V_SUBREV.
    SubrevKernel,
    ArithOp::Subrev
);
kernel!(
    /// V_MUL.
    MulKernel,
    ArithOp::Mul
);
kernel!(
    /// V_FMA (FMAC, FMAMK, FMAAK).
    FmaKernel,
    ArithOp::Fma
);
