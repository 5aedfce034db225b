//! V_ADD, V_SUB, V_SUBREV, V_MUL and V_FMA over caller-owned lane arrays:
//! one call is one VOP3 instruction on a target under MODE with
//! [`ArithMods`], computed by the arithmetic kernels straight into the
//! caller's destination (docs/semantics.md holds the rules).

use crate::error::ExecError;
use crate::kernels::arith::{arith_slices, ArithOp, SourceModifiers};
use crate::kernels::{Format, FormatKind, Mode, Modifiers, Omod, Policy};
use crate::target::Target;

use super::prepared;
use super::EXEC_BITS;
use super::{LaneBits, LaneMods, LaneOp};

/// The VOP3 modifiers of one arithmetic instruction: ABS and NEG on each
/// float source (index 0 is src0, 1 src1, 2 src2), OMOD and CLAMP on the
/// result. The two-source operations have no src2: ABS or NEG at index 2
/// is refused for them.
///
/// ```
/// use amdgpu_valu::lanes::{ArithMods, LaneMods};
/// use amdgpu_valu::Omod;
///
/// // -|src1| with div:2.
/// let m = ArithMods { abs: [false, true, false], neg: [false, true, false], omod: Omod::Div2, clamp: false };
/// assert_eq!(ArithMods::default().omod, Omod::None);
/// // The FRACT/LDEXP modifiers name src0's ABS and NEG.
/// let from_fract: ArithMods = LaneMods { neg: true, ..LaneMods::default() }.into();
/// assert_eq!(from_fract.neg, [true, false, false]);
/// # let _ = m;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArithMods {
    /// ABS of src0, src1, src2: clear the source's sign bit before NEG.
    pub abs: [bool; 3],
    /// NEG of src0, src1, src2: flip the source's sign bit (after ABS).
    pub neg: [bool; 3],
    /// OMOD as encoded: x2, x4 or /2 on the rounded result, effective or
    /// not by the target's OMOD gate and MODE (docs/semantics.md §6.1).
    pub omod: Omod,
    /// CLAMP: the result clamped to [+0, 1.0] after OMOD, NaN by the
    /// target's rule.
    pub clamp: bool,
}

impl From<LaneMods> for ArithMods {
    /// src0's ABS and NEG, OMOD and CLAMP as given.
    fn from(m: LaneMods) -> ArithMods {
        ArithMods {
            abs: [m.abs, false, false],
            neg: [m.neg, false, false],
            omod: m.omod,
            clamp: m.clamp,
        }
    }
}

/// Whether the instruction set has `op` in `format` on some target (the
/// opcode exists; [`crate::TargetSpec::has_form`] says which targets have
/// its VOP3 form: all ten, for each of these).
///
/// ```
/// use amdgpu_valu::lanes::{has_format, ArithOp};
/// use amdgpu_valu::FormatKind;
///
/// assert!(has_format(ArithOp::Fma, FormatKind::F64));
/// assert!(!has_format(ArithOp::Sub, FormatKind::F64));
/// ```
pub fn has_format(op: ArithOp, format: FormatKind) -> bool {
    LaneOp::from(op).opcode(format).is_some()
}

/// Lanes per EXEC-masked block: 16 EXEC words, computed into a stack
/// buffer and merged into the destination's active lanes.
const BLOCK: usize = 1024;

/// Check a request and run it: `srcs` holds the operation's sources, in
/// encoding order.
#[inline]
pub(super) fn run<T: LaneBits>(
    op: ArithOp,
    target: Target,
    mode: u32,
    mods: ArithMods,
    srcs: &[&[T]],
    exec: Option<&[u64]>,
    dst: &mut [T],
) -> Result<(), ExecError> {
    prepared::one_shot(target, LaneOp::from(op), mode, mods, srcs, &[], exec, dst)
}

/// The body of [`LaneBits::run_arith`] for format `F`: the policy built
/// once, then the kernel over the caller's arrays (EXEC-masked blocks
/// through a stack buffer).
pub(super) fn run_format<F: Format>(
    op: ArithOp,
    rules: &crate::kernels::FloatRules,
    mode: Mode,
    mods: ArithMods,
    [a, b, c]: [&[F::Bits]; 3],
    exec: Option<&[u64]>,
    dst: &mut [F::Bits],
) {
    // The policy's own ABS/NEG are for FRACT/LDEXP's one source; the
    // kernel takes each source's from `sources`.
    let p = &Policy::new::<F>(
        rules,
        mode,
        Modifiers {
            abs: false,
            neg: false,
            omod: mods.omod,
            clamp: mods.clamp,
        },
    );
    let sources = SourceModifiers {
        abs: mods.abs,
        neg: mods.neg,
    };
    run_policy::<F>(op, p, sources, [a, b, c], exec, dst);
}

/// The arithmetic over checked lanes under a built policy `p` (its ABS/NEG
/// unused) and each source's ABS/NEG: the kernel straight into `dst`, or
/// EXEC-masked blocks through a stack buffer.
pub(super) fn run_policy<F: Format>(
    op: ArithOp,
    p: &Policy,
    sources: SourceModifiers,
    [a, b, c]: [&[F::Bits]; 3],
    exec: Option<&[u64]>,
    dst: &mut [F::Bits],
) {
    let Some(exec) = exec else {
        arith_slices::<F>(op, p, sources, a, b, c, dst);
        return;
    };
    let mut buf = [F::Bits::default(); BLOCK];
    for (k, d) in dst.chunks_mut(BLOCK).enumerate() {
        let (start, len) = (k * BLOCK, d.len());
        let end = start + len;
        let words = exec
            .get(start / EXEC_BITS..end.div_ceil(EXEC_BITS))
            .unwrap_or(&[]);
        let active = |i: usize| {
            words
                .get(i / EXEC_BITS)
                .is_some_and(|w| w >> (i % EXEC_BITS) & 1 != 0)
        };
        let all = (0..len).all(active);
        if !all && !(0..len).any(active) {
            continue;
        }
        let (a, b, c) = (
            a.get(start..end).unwrap_or(&[]),
            b.get(start..end).unwrap_or(&[]),
            c.get(start..end).unwrap_or(&[]),
        );
        if all {
            arith_slices::<F>(op, p, sources, a, b, c, d);
            continue;
        }
        let out = &mut buf[..len];
        arith_slices::<F>(op, p, sources, a, b, c, out);
        for (i, (d, &r)) in d.iter_mut().zip(out.iter()).enumerate() {
            if active(i) {
                *d = r;
            }
        }
    }
}
