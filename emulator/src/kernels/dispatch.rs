//! The driver from the executor into the kernels: which path runs the lane
//! loop, and the run-time choice of its instruction-set variant.
//!
//! The vectorised lane loops of `lane_loop` are compiled four times on
//! x86_64: for the baseline target (SSE2), for x86-64-v2 (SSE3, SSSE3,
//! SSE4.1, SSE4.2, POPCNT), for AVX2 and for AVX-512, each variant a
//! `#[target_feature]` function that inlines the same generic source. The
//! best variant the CPU supports is detected once and cached; every variant
//! gives identical bits (tested by calling each one directly, and by running
//! the whole suite with each one forced). Other architectures compile only
//! the baseline variant (NEON on aarch64).
//!
//! The level can be forced process-wide, for users and for testing: with
//! [`force_isa`], or by setting `AMDGPU_VALU_FORCE_ISA` to a level's
//! [`Isa::name`] (`baseline`, `x86-64-v2`, `avx2`, `avx512`; read once, at
//! the first dispatched call). A level this CPU lacks is refused: the setter
//! returns an error, and the variable falls back to the best level with a
//! message on standard error.
//!
//! The scalar path (the same kernel, one lane at a time) stays selectable:
//! process-wide with [`set_kernel_path`], or by setting
//! `AMDGPU_VALU_FORCE_SCALAR=1` in the environment (read once, at the first
//! dispatched call; it wins over a forced level). [`last_variant`] reports
//! what actually ran on the calling thread, so a silent fallback to the
//! scalar loop or to another level cannot pass for the one asked for.
//!
//! This module, `gather` and `pairs` hold the crate's only `unsafe`: here,
//! calling a `#[target_feature]` function from code compiled without those
//! features. Each call site runs a level only after `Isa::is_available`
//! checked that the CPU has every feature its function enables.

#![allow(unsafe_code)]

use core::cell::Cell;
use core::sync::atomic::{AtomicU8, Ordering};

use super::format::Format;
use super::lane_loop::{Lanes, OpJob, WaveJob};
use super::operation::Operation;
use super::policy::Policy;

/// Which implementation runs the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelPath {
    /// The lane kernel called once per lane (always available).
    Scalar,
    /// The vectorised lane loop, in the instruction-set variant chosen at
    /// run time for this CPU ([`selected`]).
    Simd,
}

/// An instruction-set level the vectorised lane loops are compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Isa {
    /// The compilation target's baseline (SSE2 on x86_64, NEON on aarch64).
    Baseline,
    /// x86_64 psABI level x86-64-v2: SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT.
    X86V2,
    /// x86_64 AVX2 (with BMI1/BMI2/LZCNT).
    Avx2,
    /// x86_64 AVX-512 F/BW/CD/DQ/VL.
    Avx512,
}

impl Isa {
    /// Every level, lowest first.
    pub const ALL: [Isa; 4] = [Isa::Baseline, Isa::X86V2, Isa::Avx2, Isa::Avx512];

    /// Short name (`baseline`, `x86-64-v2`, `avx2`, `avx512`), as
    /// `AMDGPU_VALU_FORCE_ISA` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Baseline => "baseline",
            Isa::X86V2 => "x86-64-v2",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// The level named `name` ([`Isa::name`]), if any.
    pub fn from_name(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|i| i.name() == name)
    }

    /// The CPU features the level's variant is compiled with, for messages.
    pub fn features(self) -> &'static str {
        match self {
            Isa::Baseline => "the build target's own",
            Isa::X86V2 => "sse3, ssse3, sse4.1, sse4.2, popcnt",
            Isa::Avx2 => "avx2, bmi1, bmi2, lzcnt",
            Isa::Avx512 => "avx2, bmi1, bmi2, lzcnt, avx512f/bw/cd/dq/vl",
        }
    }

    /// Whether this CPU (and this build's architecture) can run the level.
    #[inline]
    pub fn is_available(self) -> bool {
        match self {
            Isa::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            Isa::X86V2 => {
                // The features enabled on `x86::x86_64_v2`.
                std::is_x86_feature_detected!("sse3")
                    && std::is_x86_feature_detected!("ssse3")
                    && std::is_x86_feature_detected!("sse4.1")
                    && std::is_x86_feature_detected!("sse4.2")
                    && std::is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                // The features enabled on `x86::avx2`.
                std::is_x86_feature_detected!("avx2")
                    && std::is_x86_feature_detected!("bmi1")
                    && std::is_x86_feature_detected!("bmi2")
                    && std::is_x86_feature_detected!("lzcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                // The features enabled on `x86::avx512`.
                Isa::Avx2.is_available()
                    && std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512bw")
                    && std::is_x86_feature_detected!("avx512cd")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("avx512vl")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Isa::X86V2 | Isa::Avx2 | Isa::Avx512 => false,
        }
    }

    #[inline(always)]
    fn code(self) -> u8 {
        match self {
            Isa::Baseline => 1,
            Isa::X86V2 => 2,
            Isa::Avx2 => 3,
            Isa::Avx512 => 4,
        }
    }

    /// The level whose [`Isa::code`] is `c`: a match, not a search, as
    /// every dispatched call reads it.
    #[inline(always)]
    fn from_code(c: u8) -> Option<Isa> {
        match c {
            1 => Some(Isa::Baseline),
            2 => Some(Isa::X86V2),
            3 => Some(Isa::Avx2),
            4 => Some(Isa::Avx512),
            _ => None,
        }
    }
}

/// What ran the lanes of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The lane kernel one lane at a time.
    Scalar,
    /// The vectorised lane loop compiled for this level.
    Simd(Isa),
}

/// A forced level the CPU lacks ([`force_isa`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsaUnavailable(pub Isa);

impl core::fmt::Display for IsaUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "this CPU cannot run the {} kernel variant (it needs {})",
            self.0.name(),
            self.0.features()
        )
    }
}

impl std::error::Error for IsaUnavailable {}

/// The environment variable that forces an instruction-set level.
pub const FORCE_ISA_ENV: &str = "AMDGPU_VALU_FORCE_ISA";

/// Cached [`selected`]: 0 until decided, else `Isa::code`.
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// The best level this CPU supports.
pub fn best() -> Isa {
    Isa::ALL
        .into_iter()
        .rev()
        .find(|i| i.is_available())
        .unwrap_or(Isa::Baseline)
}

/// The level the SIMD path runs: the one forced by [`force_isa`] or
/// `AMDGPU_VALU_FORCE_ISA` (read once, on first use), else the best this
/// CPU supports ([`best`]). Decided once and cached.
#[inline(always)]
pub fn selected() -> Isa {
    match Isa::from_code(SELECTED.load(Ordering::Relaxed)) {
        Some(isa) => isa,
        None => select_from_env(),
    }
}

#[cold]
fn select_from_env() -> Isa {
    let isa = match std::env::var(FORCE_ISA_ENV) {
        Err(std::env::VarError::NotPresent) => best(),
        Ok(v) if v.is_empty() => best(),
        Ok(v) => match Isa::from_name(&v) {
            Some(isa) if isa.is_available() => isa,
            Some(isa) => {
                eprintln!(
                    "amdgpu-valu: {FORCE_ISA_ENV}={v} ignored: {}; running {}",
                    IsaUnavailable(isa),
                    best().name()
                );
                best()
            }
            None => {
                let names: Vec<&str> = Isa::ALL.into_iter().map(Isa::name).collect();
                eprintln!(
                    "amdgpu-valu: {FORCE_ISA_ENV}={v} ignored: not one of {}; running {}",
                    names.join(", "),
                    best().name()
                );
                best()
            }
        },
        Err(std::env::VarError::NotUnicode(v)) => {
            eprintln!(
                "amdgpu-valu: {FORCE_ISA_ENV}={v:?} ignored: not a level name; running {}",
                best().name()
            );
            best()
        }
    };
    // A concurrent force_isa wins over the environment.
    match SELECTED.compare_exchange(0, isa.code(), Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => isa,
        Err(_) => selected(),
    }
}

/// Force the level of the SIMD path for every later call in the process
/// (overrides the environment); `None` returns to the best level. A level
/// this CPU lacks is refused, changing nothing.
pub fn force_isa(isa: Option<Isa>) -> Result<(), IsaUnavailable> {
    let isa = match isa {
        Some(isa) if !isa.is_available() => return Err(IsaUnavailable(isa)),
        Some(isa) => isa,
        None => best(),
    };
    SELECTED.store(isa.code(), Ordering::Relaxed);
    Ok(())
}

/// Every level this CPU supports, lowest first.
pub fn available() -> impl Iterator<Item = Isa> {
    Isa::ALL.into_iter().filter(|i| i.is_available())
}

/// The environment variable that forces the scalar path.
pub const FORCE_SCALAR_ENV: &str = "AMDGPU_VALU_FORCE_SCALAR";

/// Process-wide path: 0 until the environment is read, 1 SIMD, 2 scalar.
static PATH: AtomicU8 = AtomicU8::new(0);

fn path_code(p: KernelPath) -> u8 {
    match p {
        KernelPath::Simd => 1,
        KernelPath::Scalar => 2,
    }
}

/// The path the executor uses: SIMD, unless [`set_kernel_path`] chose
/// otherwise or `AMDGPU_VALU_FORCE_SCALAR` is set to anything but `0` or
/// empty (read once).
///
/// Always inlined: once decided, the path is one load and compare in the
/// caller (the environment is read apart, once).
#[inline(always)]
pub fn kernel_path() -> KernelPath {
    match PATH.load(Ordering::Relaxed) {
        1 => KernelPath::Simd,
        2 => KernelPath::Scalar,
        _ => path_from_env(),
    }
}

/// [`kernel_path`] before it is decided: from the environment.
#[cold]
#[inline(never)]
fn path_from_env() -> KernelPath {
    let forced = std::env::var_os(FORCE_SCALAR_ENV).is_some_and(|v| !v.is_empty() && v != "0");
    let path = if forced {
        KernelPath::Scalar
    } else {
        KernelPath::Simd
    };
    // A concurrent set_kernel_path wins over the environment.
    match PATH.compare_exchange(0, path_code(path), Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => path,
        Err(_) => kernel_path(),
    }
}

/// Choose the path for every later call in the process (overrides the
/// environment).
pub fn set_kernel_path(path: KernelPath) {
    PATH.store(path_code(path), Ordering::Relaxed);
}

thread_local! {
    static LAST: Cell<Option<Variant>> = const { Cell::new(None) };
}

/// What ran the lanes of the last kernel call on this thread (`None` before
/// the first).
pub fn last_variant() -> Option<Variant> {
    LAST.with(Cell::get)
}

/// Note what ran the lanes of a call.
#[inline]
fn record(v: Variant) {
    LAST.with(|l| l.set(Some(v)));
}

/// Run operation `O` over `lanes` on `path`. Both paths run the same
/// kernel and give identical bits for every input.
pub fn run<O: Operation, F: Format, L: Lanes<F>>(path: KernelPath, lanes: &mut L, p: &Policy) {
    run_job(path, &mut OpJob::<O, F, L>::new(lanes, p));
}

/// Run operation `O` over `lanes` on the process-wide path
/// ([`kernel_path`]: SIMD unless `AMDGPU_VALU_FORCE_SCALAR=1` or
/// [`set_kernel_path`] says otherwise). The executor calls this.
#[inline(always)]
pub fn run_dispatched<O: Operation, F: Format, L: Lanes<F>>(lanes: &mut L, p: &Policy) {
    run::<O, F, L>(kernel_path(), lanes, p);
}

/// Run operation `O` over `lanes` with the vectorised loop compiled for
/// `isa`. Returns false, touching nothing, when this CPU lacks `isa`.
pub fn run_on<O: Operation, F: Format, L: Lanes<F>>(isa: Isa, lanes: &mut L, p: &Policy) -> bool {
    run_job_on(isa, &mut OpJob::<O, F, L>::new(lanes, p))
}

/// Run a whole-wave job on `path`: [`WaveJob::scalar`], or
/// [`WaveJob::wave`] in the selected instruction-set variant. Inlined:
/// the caller then calls the variant itself.
#[inline(always)]
pub fn run_job<J: WaveJob>(path: KernelPath, job: &mut J) {
    match path {
        KernelPath::Scalar => {
            record(Variant::Scalar);
            job.scalar();
        }
        KernelPath::Simd => run_simd(selected(), job),
    }
}

/// [`run_job`] on the process-wide path ([`kernel_path`]).
#[inline]
pub fn run_job_dispatched<J: WaveJob>(job: &mut J) {
    run_job(kernel_path(), job);
}

/// Run a job's vectorised loop compiled for `isa`. Returns false, touching
/// nothing, when this CPU lacks `isa`.
pub fn run_job_on<J: WaveJob>(isa: Isa, job: &mut J) -> bool {
    if !isa.is_available() {
        return false;
    }
    run_simd(isa, job);
    true
}

/// [`run_job_on`] for an `isa` already known to be available: `selected()`
/// holds only levels that passed `is_available()` (`best`, `force_isa` and
/// `select_from_env` check it), and `run_job_on` checks it itself.
#[inline(always)]
fn run_simd<J: WaveJob>(isa: Isa, job: &mut J) {
    record(Variant::Simd(isa));
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` passed `is_available()` (see above), which checked
        // every feature `x86::avx512` enables.
        Isa::Avx512 => unsafe { x86::avx512(job) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for the features of `x86::avx2`.
        Isa::Avx2 => unsafe { x86::avx2(job) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for the features of `x86::x86_64_v2`.
        Isa::X86V2 => unsafe { x86::x86_64_v2(job) },
        _ => baseline(job),
    }
}

/// The baseline variant (also the fallback on every other architecture).
#[inline(never)]
fn baseline<J: WaveJob>(job: &mut J) {
    job.wave();
}

#[cfg(target_arch = "x86_64")]
mod x86 {

    /// The AVX-512 variant; the feature list matches `Isa::Avx512::is_available`.
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
    #[inline(never)]
    pub(super) fn avx512<J: super::WaveJob>(job: &mut J) {
        job.wave();
    }

    /// The AVX2 variant; the feature list matches `Isa::Avx2::is_available`.
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
    #[inline(never)]
    pub(super) fn avx2<J: super::WaveJob>(job: &mut J) {
        job.wave();
    }

    /// The x86-64-v2 variant; the feature list matches
    /// `Isa::X86V2::is_available`.
    #[target_feature(enable = "sse3,ssse3,sse4.1,sse4.2,popcnt")]
    #[inline(never)]
    pub(super) fn x86_64_v2<J: super::WaveJob>(job: &mut J) {
        job.wave();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_level_code_names_that_level_and_no_other_code_names_one() {
        for isa in super::Isa::ALL {
            assert_eq!(super::Isa::from_code(isa.code()), Some(isa), "{isa:?}");
        }
        // 0 is "not decided yet" in SELECTED.
        for c in [0, 5, 0xff] {
            assert_eq!(super::Isa::from_code(c), None, "{c}");
        }
    }
}
