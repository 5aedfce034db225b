//! One instruction of the lane API decoded once ([`Prepared`]), and the
//! operations it names ([`LaneOp`]).

use core::marker::PhantomData;
use std::sync::OnceLock;

use crate::error::ExecError;
use crate::instr::{Encoding, Opcode};
use crate::kernels::arith::SourceModifiers;
use crate::kernels::{FormatKind, Mode, Modifiers, Policy};
use crate::target::{Target, TargetSpec};

use super::{ArithMods, ArithOp, LaneBits, EXEC_BITS};

/// An operation of the lane API: V_FRACT, V_LDEXP and the arithmetic.
///
/// ```
/// use amdgpu_valu::lanes::{ArithOp, LaneOp};
///
/// assert_eq!("ldexp".parse::<LaneOp>(), Ok(LaneOp::Ldexp));
/// assert_eq!(LaneOp::Fma.sources(), 3);
/// assert_eq!(LaneOp::from(ArithOp::Subrev).name(), "subrev");
/// assert!("frac".parse::<LaneOp>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneOp {
    /// V_FRACT: one float source.
    Fract,
    /// V_LDEXP: one float source and the exponent register word.
    Ldexp,
    /// V_ADD: src0 + src1.
    Add,
    /// V_SUB: src0 - src1 (F16 and F32).
    Sub,
    /// V_SUBREV: src1 - src0 (F16 and F32).
    Subrev,
    /// V_MUL: src0 x src1.
    Mul,
    /// V_FMA: src0 x src1 + src2, one rounding.
    Fma,
}

impl LaneOp {
    /// Every operation.
    pub const ALL: [LaneOp; 7] = [
        LaneOp::Fract,
        LaneOp::Ldexp,
        LaneOp::Add,
        LaneOp::Sub,
        LaneOp::Subrev,
        LaneOp::Mul,
        LaneOp::Fma,
    ];

    /// ISA name stem (`fract`, `ldexp`, `add`, `sub`, `subrev`, `mul`,
    /// `fma`).
    pub fn name(self) -> &'static str {
        match self.arith() {
            Some(op) => op.name(),
            None if self == LaneOp::Ldexp => "ldexp",
            None => "fract",
        }
    }

    /// The arithmetic operation, for ADD, SUB, SUBREV, MUL and FMA.
    #[inline]
    pub fn arith(self) -> Option<ArithOp> {
        match self {
            LaneOp::Fract | LaneOp::Ldexp => None,
            LaneOp::Add => Some(ArithOp::Add),
            LaneOp::Sub => Some(ArithOp::Sub),
            LaneOp::Subrev => Some(ArithOp::Subrev),
            LaneOp::Mul => Some(ArithOp::Mul),
            LaneOp::Fma => Some(ArithOp::Fma),
        }
    }

    /// Number of float sources: 1 for FRACT and LDEXP (whose exponent is
    /// an integer operand), 2, or 3 for FMA.
    #[inline]
    pub fn sources(self) -> usize {
        self.arith().map_or(1, ArithOp::sources)
    }

    /// Whether the operation takes LDEXP's exponent operand.
    #[inline]
    pub fn has_exponent(self) -> bool {
        self == LaneOp::Ldexp
    }

    /// The instruction that runs the operation in `format`, if the
    /// instruction set has one (V_SUB and V_SUBREV have no F64): from a
    /// table made once from the instruction list.
    #[inline]
    pub fn opcode(self, format: FormatKind) -> Option<Opcode> {
        static TABLE: OnceLock<[[Option<Opcode>; 3]; 7]> = OnceLock::new();
        let table = TABLE.get_or_init(|| {
            LaneOp::ALL.map(|op| {
                FORMATS.map(|f| {
                    Opcode::ALL
                        .into_iter()
                        .find(|o| o.info().operation.name() == op.name() && o.format() == f)
                })
            })
        });
        table
            .get(self as usize)
            .and_then(|row| row.get(format_index(format)))
            .copied()
            .flatten()
    }
}

const FORMATS: [FormatKind; 3] = [FormatKind::F16, FormatKind::F32, FormatKind::F64];

#[inline]
fn format_index(format: FormatKind) -> usize {
    match format {
        FormatKind::F16 => 0,
        FormatKind::F32 => 1,
        FormatKind::F64 => 2,
    }
}

impl From<ArithOp> for LaneOp {
    fn from(op: ArithOp) -> LaneOp {
        match op {
            ArithOp::Add => LaneOp::Add,
            ArithOp::Sub => LaneOp::Sub,
            ArithOp::Subrev => LaneOp::Subrev,
            ArithOp::Mul => LaneOp::Mul,
            ArithOp::Fma => LaneOp::Fma,
        }
    }
}

impl core::str::FromStr for LaneOp {
    type Err = ExecError;
    /// The name stem, as [`LaneOp::name`] spells it.
    fn from_str(s: &str) -> Result<LaneOp, ExecError> {
        LaneOp::ALL
            .into_iter()
            .find(|op| op.name() == s)
            .ok_or_else(|| ExecError::InvalidOperand {
                operand: "op",
                reason: format!("{s:?} is not one of fract, ldexp, add, sub, subrev, mul, fma"),
            })
    }
}

/// One VOP3 instruction of the lane API, checked and decoded once: the
/// target, the operation, the format (the element type `T`: `u16` F16,
/// `u32` F32, `u64` F64), MODE and the modifiers, with the policy the
/// kernel runs under. [`Prepared::run`] then checks only the lengths;
/// the results are the bits of the one-shot functions ([`super::fract`],
/// [`super::add`]...) for the same instruction.
///
/// ```
/// use amdgpu_valu::lanes::{ArithMods, LaneOp, Prepared};
/// use amdgpu_valu::{Omod, Target};
///
/// // V_FRACT_F32 on gfx1100, MODE 0xf0, with mul:2 (gfx1100 gates OMOD
/// // off while F32 subnormal outputs are kept: MODE 0xf0 keeps them, so
/// // FRACT(1.75) stays 0.75 = 0x3f400000).
/// let fract = Prepared::<u32>::new(Target::Gfx1100, LaneOp::Fract, 0xf0, ArithMods { omod: Omod::Mul2, ..ArithMods::default() })?;
/// let mut dst = [0u32; 2];
/// fract.run(&[&[0x3fe0_0000, 0xbfc0_0000]], &[], &mut dst)?;
/// // -1.5 - floor(-1.5) = 0.5.
/// assert_eq!(dst, [0x3f40_0000, 0x3f00_0000]);
///
/// // V_LDEXP_F16: 1.0 x 2^-1 = 0.5 (0x3800); the word 0x1_0001 reads as 1.
/// let ldexp = Prepared::<u16>::new(Target::Gfx1201, LaneOp::Ldexp, 0xf0, ArithMods::default())?;
/// let mut h = [0u16; 2];
/// ldexp.run(&[&[0x3c00, 0x3c00]], &[-1, 0x1_0001], &mut h)?;
/// assert_eq!(h, [0x3800, 0x4000]);
///
/// // Lengths are the only per-call check; a bad instruction is refused up front.
/// assert!(fract.run(&[&[0u32; 3]], &[], &mut dst).is_err());
/// assert!(Prepared::<u64>::new(Target::Gfx1201, LaneOp::Sub, 0, ArithMods::default()).is_err());
/// # Ok::<(), amdgpu_valu::ExecError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prepared<T: LaneBits> {
    op: LaneOp,
    target: Target,
    mode: u32,
    mods: ArithMods,
    policy: Policy,
    sources: SourceModifiers,
    _format: PhantomData<fn() -> T>,
}

impl<T: LaneBits> Prepared<T> {
    /// Check and decode one instruction: `op` in the format of `T` on
    /// `target` (its VOP3 form must exist there), under MODE `mode` with
    /// `mods` (ABS and NEG only on the operation's float sources: src0
    /// for FRACT and LDEXP, src0 and src1 for the two-source operations).
    #[inline]
    pub fn new(
        target: Target,
        op: LaneOp,
        mode: u32,
        mods: ArithMods,
    ) -> Result<Prepared<T>, ExecError> {
        let spec = validate::<T>(target, op, &mods)?;
        Ok(Prepared {
            op,
            target,
            mode,
            mods,
            policy: policy_of::<T>(spec, op, mode, &mods),
            sources: SourceModifiers {
                abs: mods.abs,
                neg: mods.neg,
            },
            _format: PhantomData,
        })
    }

    /// The operation.
    #[inline]
    pub fn op(&self) -> LaneOp {
        self.op
    }

    /// The target.
    #[inline]
    pub fn target(&self) -> Target {
        self.target
    }

    /// The MODE register value.
    #[inline]
    pub fn mode(&self) -> u32 {
        self.mode
    }

    /// The modifiers.
    #[inline]
    pub fn mods(&self) -> ArithMods {
        self.mods
    }

    /// The instruction over every lane of `dst`: `srcs` holds the float
    /// sources in encoding order (FRACT and LDEXP: `[src]`; ADD, SUB,
    /// SUBREV, MUL: `[a, b]`; FMA: `[a, b, c]`), each as long as `dst`;
    /// `exp` holds LDEXP's exponent register words (as long as `dst`;
    /// empty for every other operation). A wrong count or length is an
    /// error, and then `dst` is left as it was.
    #[inline(always)]
    pub fn run(&self, srcs: &[&[T]], exp: &[i32], dst: &mut [T]) -> Result<(), ExecError> {
        check(self.op, srcs, exp, None, dst.len())?;
        self.run_checked(srcs, exp, None, dst);
        Ok(())
    }

    /// [`Prepared::run`] under an EXEC mask: lane `i` is written only when
    /// bit `i % 64` of `exec[i / 64]` is set, inactive lanes keep their
    /// value. `exec` needs at least `ceil(dst.len() / 64)` words.
    #[inline]
    pub fn run_exec(
        &self,
        exec: &[u64],
        srcs: &[&[T]],
        exp: &[i32],
        dst: &mut [T],
    ) -> Result<(), ExecError> {
        check(self.op, srcs, exp, Some(exec), dst.len())?;
        self.run_checked(srcs, exp, Some(exec), dst);
        Ok(())
    }

    /// The lanes, once [`check`] passed.
    #[inline(always)]
    pub(super) fn run_checked(
        &self,
        srcs: &[&[T]],
        exp: &[i32],
        exec: Option<&[u64]>,
        dst: &mut [T],
    ) {
        run_with(self.op, &self.policy, self.sources, srcs, exp, exec, dst);
    }
}

/// Check that `op` in the format of `T` runs on `target` (its VOP3 form
/// exists there) with `mods` (ABS and NEG only on the operation's float
/// sources); the target's facts when it does.
#[inline]
pub(super) fn validate<T: LaneBits>(
    target: Target,
    op: LaneOp,
    mods: &ArithMods,
) -> Result<&'static TargetSpec, ExecError> {
    let Some(opcode) = op.opcode(T::FORMAT) else {
        return Err(no_format(op, T::FORMAT));
    };
    let spec = target.spec();
    if !spec.has_form(opcode, Encoding::Vop3) {
        return Err(ExecError::FormNotOnTarget {
            target: target.name(),
            opcode,
            encoding: Encoding::Vop3,
        });
    }
    let want = op.sources();
    let extra = |m: &[bool; 3]| m.iter().skip(want).any(|&b| b);
    if extra(&mods.abs) || extra(&mods.neg) {
        return Err(extra_modifier(op, mods));
    }
    Ok(spec)
}

#[cold]
fn no_format(op: LaneOp, format: FormatKind) -> ExecError {
    ExecError::InvalidOperand {
        operand: "src0",
        reason: format!(
            "no target has v_{}_{}: {} exists in F16 and F32 only",
            op.name(),
            format.name(),
            op.name().to_uppercase()
        ),
    }
}

#[cold]
fn extra_modifier(op: LaneOp, mods: &ArithMods) -> ExecError {
    let want = op.sources();
    let i = (want..3)
        .find(|&i| mods.abs[i] || mods.neg[i])
        .unwrap_or(want);
    let name = NAMES.get(i).copied().unwrap_or("src2");
    ExecError::InvalidModifier {
        reason: if want == 1 {
            format!("ABS or NEG on {name}: v_{} has 1 float source", op.name())
        } else {
            format!("ABS or NEG on {name}: v_{} has {want} sources", op.name())
        },
    }
}

/// The policy the kernel of `op` runs under: FRACT and LDEXP take src0's
/// ABS/NEG from it; the arithmetic kernel takes each source's from its
/// `SourceModifiers`.
#[inline]
pub(super) fn policy_of<T: LaneBits>(
    spec: &TargetSpec,
    op: LaneOp,
    mode: u32,
    mods: &ArithMods,
) -> Policy {
    let one_source = op.arith().is_none();
    T::policy(
        &spec.float_rules(),
        Mode(mode),
        Modifiers {
            abs: one_source && mods.abs[0],
            neg: one_source && mods.neg[0],
            omod: mods.omod,
            clamp: mods.clamp,
        },
    )
}

/// `op` over checked lanes under a built policy.
#[inline(always)]
pub(super) fn run_with<T: LaneBits>(
    op: LaneOp,
    policy: &Policy,
    sources: SourceModifiers,
    srcs: &[&[T]],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) {
    let Some(&a) = srcs.first() else {
        return;
    };
    match op.arith() {
        None => T::run_kernel(op.has_exponent(), policy, a, exp, exec, dst),
        Some(arith) => {
            let b = srcs.get(1).copied().unwrap_or(a);
            // Two-source operations ignore src2: pass src0's lanes.
            let c = srcs.get(2).copied().unwrap_or(a);
            T::run_arith_policy(arith, policy, sources, [a, b, c], exec, dst)
        }
    }
}

/// The instruction of a one-shot call: what its checked policy depends on.
#[derive(Clone, Copy, PartialEq, Eq)]
struct OneShotKey {
    target: Target,
    op: LaneOp,
    format: FormatKind,
    mode: u32,
    mods: ArithMods,
}

thread_local! {
    /// The last instruction a one-shot call on this thread checked, with
    /// its policy: a caller that issues the same instruction call after
    /// call pays the checks of the instruction (its form on the target,
    /// the modifiers) and the policy's derivation once.
    static ONE_SHOT: core::cell::Cell<Option<(OneShotKey, Policy)>> =
        const { core::cell::Cell::new(None) };
}

/// One call of a one-shot function: the operands checked, the
/// instruction checked and its policy built (no [`Prepared`] made; the
/// last instruction's policy kept per thread), the lanes run.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn one_shot<T: LaneBits>(
    target: Target,
    op: LaneOp,
    mode: u32,
    mods: ArithMods,
    srcs: &[&[T]],
    exp: &[i32],
    exec: Option<&[u64]>,
    dst: &mut [T],
) -> Result<(), ExecError> {
    check(op, srcs, exp, exec, dst.len())?;
    let key = OneShotKey {
        target,
        op,
        format: T::FORMAT,
        mode,
        mods,
    };
    let policy = match ONE_SHOT.with(core::cell::Cell::get) {
        Some((k, p)) if k == key => p,
        _ => one_shot_policy::<T>(key)?,
    };
    let sources = SourceModifiers {
        abs: mods.abs,
        neg: mods.neg,
    };
    run_with(op, &policy, sources, srcs, exp, exec, dst);
    Ok(())
}

/// The instruction of a one-shot call checked and its policy built (and
/// kept as this thread's last).
#[inline(never)]
fn one_shot_policy<T: LaneBits>(key: OneShotKey) -> Result<Policy, ExecError> {
    let spec = validate::<T>(key.target, key.op, &key.mods)?;
    let policy = policy_of::<T>(spec, key.op, key.mode, &key.mods);
    ONE_SHOT.with(|c| c.set(Some((key, policy))));
    Ok(policy)
}

const NAMES: [&str; 3] = ["src0", "src1", "src2"];

/// `got` items of `operand` for `want` lanes (`whose`: "source" or
/// "destination").
fn length_error(
    operand: &'static str,
    what: &str,
    got: usize,
    want: usize,
    whose: &str,
) -> ExecError {
    ExecError::InvalidOperand {
        operand,
        reason: format!("{got} {what} for {want} {whose} lanes"),
    }
}

/// Check the operands of one call of `op` over `n` destination lanes:
/// the number of float sources, every length, the EXEC words. The
/// passing case inline; the errors (and their wording) from
/// [`check_all`].
#[inline(always)]
pub(super) fn check<T>(
    op: LaneOp,
    srcs: &[&[T]],
    exp: &[i32],
    exec: Option<&[u64]>,
    n: usize,
) -> Result<(), ExecError> {
    let exp_len = if op.has_exponent() { n } else { 0 };
    let ok = srcs.len() == op.sources()
        && srcs.iter().all(|s| s.len() == n)
        && exp.len() == exp_len
        && exec.is_none_or(|e| e.len() >= n.div_ceil(EXEC_BITS));
    if ok {
        Ok(())
    } else {
        check_all(op, srcs, exp, exec, n)
    }
}

/// [`check`] in full, with the error of the first failing rule.
#[cold]
#[inline(never)]
fn check_all<T>(
    op: LaneOp,
    srcs: &[&[T]],
    exp: &[i32],
    exec: Option<&[u64]>,
    n: usize,
) -> Result<(), ExecError> {
    let want = op.sources();
    if srcs.len() != want {
        return Err(ExecError::InvalidOperand {
            operand: NAMES.get(srcs.len().min(want)).copied().unwrap_or("src2"),
            reason: format!("v_{} takes {want} sources, {} given", op.name(), srcs.len()),
        });
    }
    if op.arith().is_none() {
        // FRACT and LDEXP: measured against the source, as documented.
        let m = srcs.first().map_or(0, |s| s.len());
        if n != m {
            return Err(length_error("dst", "destination lanes", n, m, "source"));
        }
        if op.has_exponent() && exp.len() != m {
            return Err(length_error("src1", "exponents", exp.len(), m, "source"));
        }
        if !op.has_exponent() && !exp.is_empty() {
            return Err(ExecError::InvalidOperand {
                operand: "src1",
                reason: "v_fract takes no exponent operand".into(),
            });
        }
        if let Some(exec) = exec {
            if exec.len() < m.div_ceil(EXEC_BITS) {
                return Err(length_error("exec", "EXEC words", exec.len(), m, "source"));
            }
        }
        return Ok(());
    }
    for (src, name) in srcs.iter().zip(NAMES) {
        if src.len() != n {
            return Err(length_error(name, "lanes", src.len(), n, "destination"));
        }
    }
    if !exp.is_empty() {
        return Err(ExecError::InvalidOperand {
            operand: "src1",
            reason: format!("v_{} takes no exponent operand", op.name()),
        });
    }
    if let Some(exec) = exec {
        if exec.len() < n.div_ceil(EXEC_BITS) {
            return Err(length_error(
                "exec",
                "EXEC words",
                exec.len(),
                n,
                "destination",
            ));
        }
    }
    Ok(())
}
