//! Which kernel path ran: SIMD by default (in the best instruction-set
//! variant this CPU has, or the one forced by `force_isa` or
//! `AMDGPU_VALU_FORCE_ISA`), scalar when forced by `set_kernel_path` or by
//! `AMDGPU_VALU_FORCE_SCALAR=1`, with identical bits every way. The path and
//! the level are process-wide state, so these tests hold a lock; the
//! environment variables are read once per process, so their tests run this
//! binary again as a child.

use std::process::Command;
use std::sync::Mutex;

use amdgpu_valu::__testing::kernels::dispatch::{
    self, Isa, IsaUnavailable, Variant, FORCE_ISA_ENV, FORCE_SCALAR_ENV,
};
use amdgpu_valu::__testing::kernels::{kernel_path, last_variant, set_kernel_path, KernelPath};
use amdgpu_valu::WaveSize;
use amdgpu_valu::{execute, Encoding, Instruction, Opcode, Operand, Target, Wave};

static PATH_LOCK: Mutex<()> = Mutex::new(());

/// A wave64 with a spread of F32 encodings in v1 and exponents in v2.
fn wave() -> Wave {
    let mut w = Wave::for_target_with_size(Target::Gfx1201, WaveSize::Wave64).expect("wave64");
    w.set_mode(0xf0);
    for lane in 0..64 {
        let x = (lane as u32).wrapping_mul(0x0b3d_91c7) ^ 0x3f00_0000;
        w.set_vgpr(1, lane, x).expect("in range");
        w.set_vgpr(2, lane, (lane as i32 - 32) as u32)
            .expect("in range");
    }
    w
}

/// Run FRACT and LDEXP F32 on `wave()`; the destinations of each lane.
fn run() -> (Vec<u32>, Option<Variant>) {
    let mut w = wave();
    let fract = Instruction::unary(
        Opcode::FractF32,
        Encoding::Vop1,
        Operand::v(3),
        Operand::v(1),
    );
    let ldexp = Instruction::binary(
        Opcode::LdexpF32,
        Encoding::Vop3,
        Operand::v(4),
        Operand::v(1),
        Operand::v(2),
    );
    execute(Target::Gfx1201, &mut w, &fract).expect("valid");
    execute(Target::Gfx1201, &mut w, &ldexp).expect("valid");
    let out = (0..64)
        .flat_map(|l| {
            [
                w.vgpr(3, l).expect("in range"),
                w.vgpr(4, l).expect("in range"),
            ]
        })
        .collect();
    (out, last_variant())
}

#[test]
fn best_available_level_is_selected() {
    let _guard = PATH_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let best = Isa::ALL
        .into_iter()
        .rev()
        .find(|i| i.is_available())
        .expect("baseline is always available");
    assert_eq!(dispatch::best(), best);
    // The whole suite may run with a level forced (docs/design.md).
    let forced = std::env::var(FORCE_ISA_ENV).ok();
    match forced.as_deref().and_then(Isa::from_name) {
        Some(isa) if isa.is_available() => assert_eq!(dispatch::selected(), isa),
        _ => assert_eq!(dispatch::selected(), best),
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512cd")
        && std::is_x86_feature_detected!("avx512vl")
    {
        assert_eq!(dispatch::best(), Isa::Avx512);
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("sse4.2") && std::is_x86_feature_detected!("popcnt") {
        assert!(dispatch::best() >= Isa::X86V2);
    }
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(dispatch::best(), Isa::Baseline);
}

#[test]
fn levels_are_ordered_and_named() {
    assert_eq!(
        Isa::ALL.map(Isa::name),
        ["baseline", "x86-64-v2", "avx2", "avx512"]
    );
    assert!(Isa::ALL.windows(2).all(|w| w[0] < w[1]));
    for isa in Isa::ALL {
        assert_eq!(Isa::from_name(isa.name()), Some(isa));
    }
    assert_eq!(Isa::from_name("sse4.2"), None);
    assert_eq!(Isa::from_name("AVX2"), None);
}

/// Forcing each level runs exactly that level, with the bits of the scalar
/// path; a level this CPU lacks is refused and changes nothing.
#[test]
fn forcing_a_level_runs_it_with_identical_bits() {
    let _guard = PATH_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let before = dispatch::selected();
    set_kernel_path(KernelPath::Scalar);
    let (want, _) = run();
    set_kernel_path(KernelPath::Simd);
    for isa in Isa::ALL {
        let previous = dispatch::selected();
        if !isa.is_available() {
            assert_eq!(dispatch::force_isa(Some(isa)), Err(IsaUnavailable(isa)));
            assert_eq!(dispatch::selected(), previous);
            continue;
        }
        assert_eq!(dispatch::force_isa(Some(isa)), Ok(()));
        assert_eq!(dispatch::selected(), isa);
        let (got, ran) = run();
        assert_eq!(ran, Some(Variant::Simd(isa)));
        assert_eq!(got, want, "{} against scalar", isa.name());
    }
    assert_eq!(dispatch::force_isa(None), Ok(()));
    assert_eq!(dispatch::selected(), dispatch::best());
    assert_eq!(dispatch::force_isa(Some(before)), Ok(()));
}

#[test]
fn execute_runs_simd_unless_scalar_is_chosen() {
    let _guard = PATH_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    set_kernel_path(KernelPath::Simd);
    let (simd, ran) = run();
    assert_eq!(ran, Some(Variant::Simd(dispatch::selected())));

    set_kernel_path(KernelPath::Scalar);
    let (scalar, ran) = run();
    assert_eq!(ran, Some(Variant::Scalar));
    assert_eq!(simd, scalar);
    set_kernel_path(KernelPath::Simd);
}

/// Run the ignored `env_child` test of this binary with `var` set to
/// `value` (or removed) and the other forcing variable removed, expecting
/// `expect` (`scalar`, `simd`, or a level's name); the child's stderr.
fn child_with(var: &str, value: Option<&str>, expect: &str) -> String {
    let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
    cmd.args(["--exact", "env_child", "--ignored", "--test-threads=1"])
        .arg("--nocapture")
        .env("EXPECT_KERNEL_PATH", expect)
        .env_remove(FORCE_SCALAR_ENV)
        .env_remove(FORCE_ISA_ENV);
    if let Some(v) = value {
        cmd.env(var, v);
    }
    let out = cmd.output().expect("run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child with {var}={value:?}:\n{stdout}{stderr}",
    );
    stderr
}

fn child(value: Option<&str>, expect: &str) {
    child_with(FORCE_SCALAR_ENV, value, expect);
}

#[test]
fn environment_forces_scalar() {
    child(Some("1"), "scalar");
    child(Some("0"), "simd");
    child(None, "simd");
}

#[test]
fn environment_forces_a_level() {
    for isa in Isa::ALL {
        let stderr = child_with(FORCE_ISA_ENV, Some(isa.name()), isa.name());
        let refused = stderr.contains("ignored: this CPU cannot run");
        assert_eq!(refused, !isa.is_available(), "{stderr}");
    }
    // Not a level: the best level runs, and stderr says why.
    let best = dispatch::best().name();
    let stderr = child_with(FORCE_ISA_ENV, Some("sse4"), best);
    assert!(
        stderr.contains("AMDGPU_VALU_FORCE_ISA=sse4 ignored: not one of baseline, x86-64-v2"),
        "{stderr}"
    );
    assert!(child_with(FORCE_ISA_ENV, Some(""), best).is_empty());
}

#[test]
#[ignore = "run by the environment_forces_* tests in a child process"]
fn env_child() {
    let Ok(expect) = std::env::var("EXPECT_KERNEL_PATH") else {
        return;
    };
    let (_, ran) = run();
    if expect == "scalar" {
        assert_eq!(kernel_path(), KernelPath::Scalar);
        assert_eq!(ran, Some(Variant::Scalar));
    } else {
        assert_eq!(kernel_path(), KernelPath::Simd);
        assert_eq!(ran, Some(Variant::Simd(dispatch::selected())));
    }
    // A forced level runs when this CPU has it; else the best level does.
    if let Some(isa) = Isa::from_name(&expect) {
        let want = if isa.is_available() {
            isa
        } else {
            dispatch::best()
        };
        assert_eq!(ran, Some(Variant::Simd(want)));
    }
}
