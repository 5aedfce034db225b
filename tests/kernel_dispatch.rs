//! Which kernel path ran: SIMD by default (in the best instruction-set
//! variant this CPU has), scalar when forced by `set_kernel_path` or by
//! `AMDGPU_VALU_FORCE_SCALAR=1`, with identical bits either way. The path is
//! process-wide state, so these tests hold a lock; the environment variable
//! is read once per process, so its tests run this binary again as a child.

use std::process::Command;
use std::sync::Mutex;

use amdgpu_valu::__testing::kernels::dispatch::{self, Isa, Variant, FORCE_SCALAR_ENV};
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
    let best = Isa::ALL
        .into_iter()
        .rev()
        .find(|i| i.is_available())
        .expect("baseline is always available");
    assert_eq!(dispatch::selected(), best);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512cd")
        && std::is_x86_feature_detected!("avx512vl")
    {
        assert_eq!(dispatch::selected(), Isa::Avx512);
    }
    #[cfg(not(target_arch = "x86_64"))]
    assert_eq!(dispatch::selected(), Isa::Baseline);
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

/// Run the ignored `env_child` test of this binary with the variable set to
/// `value` (or removed), expecting `expect`.
fn child(value: Option<&str>, expect: &str) {
    let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
    cmd.args(["--exact", "env_child", "--ignored", "--test-threads=1"])
        .env("EXPECT_KERNEL_PATH", expect);
    match value {
        Some(v) => cmd.env(FORCE_SCALAR_ENV, v),
        None => cmd.env_remove(FORCE_SCALAR_ENV),
    };
    let out = cmd.output().expect("run the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child with {value:?}:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn environment_forces_scalar() {
    child(Some("1"), "scalar");
    child(Some("0"), "simd");
    child(None, "simd");
}

#[test]
#[ignore = "run by environment_forces_scalar in a child process"]
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
}
