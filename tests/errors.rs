//! Bad requests are typed errors, never panics.

use amdgpu_valu::Opcode::{FractF16, FractF32, FractF64, LdexpF16, LdexpF32};
use amdgpu_valu::{
    execute, Encoding, ExecError, Instruction, Omod, Operand, Target, Wave, WaveSize,
};

fn run(t: Target, i: Instruction) -> Result<(), ExecError> {
    let mut wave = Wave::for_target(t);
    execute(t, &mut wave, &i)
}

#[test]
fn unknown_target_names_the_choices() {
    let e = "gfx9000".parse::<Target>().unwrap_err();
    assert_eq!(e, ExecError::UnknownTarget("gfx9000".into()));
    assert!(e.to_string().contains("gfx1201"));
    for t in Target::ALL {
        assert_eq!(t.name().parse::<Target>(), Ok(t));
    }
    // The targets are the files isa-spec/<target>.yaml, shortest name
    // first, then alphabetically (generation order); the message lists them.
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/isa-spec"))
            .unwrap()
            .filter_map(|e| {
                e.ok()?
                    .file_name()
                    .to_str()?
                    .strip_suffix(".yaml")
                    .map(String::from)
            })
            .collect();
    files.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(names, files);
    assert_eq!(
        e.to_string(),
        format!(
            "unknown target `gfx9000` (expected one of {})",
            files.join(", ")
        )
    );
}

#[test]
fn forms_a_target_lacks_are_refused() {
    let i = Instruction::unary(FractF32, Encoding::Sdwa, Operand::v(0), Operand::v(1));
    for t in [
        Target::Gfx1100,
        Target::Gfx1150,
        Target::Gfx1201,
        Target::Gfx1250,
    ] {
        assert!(
            matches!(run(t, i), Err(ExecError::FormNotOnTarget { .. })),
            "{t}"
        );
    }
    // V_LDEXP_F32 has no VOP2 form anywhere; V_FRACT has no VOP2 form.
    let i = Instruction::binary(
        LdexpF32,
        Encoding::Vop2,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    let f = Instruction::unary(FractF16, Encoding::Vop2, Operand::v(0), Operand::v(1));
    for t in Target::ALL {
        assert!(
            matches!(run(t, i), Err(ExecError::FormNotOnTarget { .. })),
            "{t}"
        );
        assert!(
            matches!(run(t, f), Err(ExecError::FormNotOnTarget { .. })),
            "{t}"
        );
    }
}

#[test]
fn registers_out_of_range_are_refused() {
    let t = Target::Gfx1201;
    let i = Instruction::unary(FractF32, Encoding::Vop1, Operand::v(256), Operand::v(1));
    assert!(matches!(
        run(t, i),
        Err(ExecError::RegisterOutOfRange { operand: "dst", .. })
    ));
    let i = Instruction::unary(FractF64, Encoding::Vop1, Operand::v(0), Operand::v(255));
    assert!(matches!(
        run(t, i),
        Err(ExecError::RegisterOutOfRange {
            operand: "src0",
            ..
        })
    ));
    let i = Instruction::unary(FractF32, Encoding::Vop1, Operand::v(0), Operand::s(106));
    assert!(matches!(
        run(t, i),
        Err(ExecError::RegisterOutOfRange {
            operand: "src0",
            ..
        })
    ));
    // A 64-bit SGPR pair must be even.
    let i = Instruction::unary(FractF64, Encoding::Vop1, Operand::v(0), Operand::s(3));
    assert!(matches!(
        run(t, i),
        Err(ExecError::MisalignedPair {
            operand: "src0",
            index: 3
        })
    ));
    // True16 e32 operands address v0..v127 only.
    let i = Instruction::unary(
        FractF16,
        Encoding::Vop1,
        Operand::v_lo(200),
        Operand::v_lo(1),
    );
    assert!(matches!(
        run(t, i),
        Err(ExecError::RegisterOutOfRange { .. })
    ));
    let mut wave = Wave::for_target(t);
    assert!(wave.set_vgpr(256, 0, 1).is_err());
    assert!(wave.set_vgpr(0, 32, 1).is_err(), "wave32 has 32 lanes");
    assert!(wave.set_sgpr(106, 1).is_err());
    assert!(wave.set_vgpr64(255, 0, 1).is_err());
}

#[test]
fn operands_and_modifiers_the_form_cannot_take_are_refused() {
    let t = Target::Gfx1030;
    let e32 = Instruction::unary(FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1));
    for bad in [
        e32.with_clamp(),
        e32.with_abs(),
        e32.with_neg(),
        e32.with_omod(Omod::Mul2),
    ] {
        assert!(
            matches!(run(t, bad), Err(ExecError::InvalidModifier { .. })),
            "{bad:?}"
        );
    }
    // Halves on a target without true16.
    let i = Instruction::unary(FractF16, Encoding::Vop3, Operand::v_hi(0), Operand::v(1));
    assert!(matches!(
        run(t, i),
        Err(ExecError::InvalidOperand { operand: "dst", .. })
    ));
    // Halves on a 32-bit operand.
    let i = Instruction::unary(FractF32, Encoding::Vop3, Operand::v(0), Operand::v_hi(1));
    assert!(matches!(
        run(Target::Gfx1201, i),
        Err(ExecError::InvalidOperand {
            operand: "src0",
            ..
        })
    ));
    // LDEXP without an exponent, FRACT with one, ABS on the exponent.
    let mut i = Instruction::binary(
        LdexpF16,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    i.src1 = None;
    assert!(matches!(
        run(t, i),
        Err(ExecError::InvalidOperand {
            operand: "src1",
            ..
        })
    ));
    let mut i = Instruction::unary(FractF32, Encoding::Vop3, Operand::v(0), Operand::v(1));
    i.src1 = Some(Operand::v(2));
    assert!(run(t, i).is_err());
    let mut i = Instruction::binary(
        LdexpF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    i.src1_mods.abs = true;
    assert!(matches!(run(t, i), Err(ExecError::InvalidModifier { .. })));
    // A destination that is not a VGPR; an inline integer out of range.
    let i = Instruction::unary(FractF32, Encoding::Vop3, Operand::s(0), Operand::v(1));
    assert!(run(t, i).is_err());
    let i = Instruction::unary(
        FractF32,
        Encoding::Vop3,
        Operand::v(0),
        Operand::InlineInt(65),
    );
    assert!(run(t, i).is_err());
    // SDWA selectors on a VOP3 instruction, and an SDWA one without them.
    let i = Instruction::unary(FractF32, Encoding::Vop3, Operand::v(0), Operand::v(1))
        .with_sdwa(Default::default());
    assert!(run(t, i).is_err());
    let mut i = Instruction::unary(FractF32, Encoding::Sdwa, Operand::v(0), Operand::v(1));
    i.sdwa = None;
    assert!(run(t, i).is_err());
}

#[test]
fn wave_sizes_a_target_lacks_are_refused() {
    assert!(matches!(
        Wave::for_target_with_size(Target::Gfx908, WaveSize::Wave32),
        Err(ExecError::WaveSizeNotOnTarget { .. })
    ));
    let mut wave = Wave::new(WaveSize::Wave32);
    let i = Instruction::unary(FractF32, Encoding::Vop1, Operand::v(0), Operand::v(1));
    assert!(matches!(
        execute(Target::Gfx942, &mut wave, &i),
        Err(ExecError::WaveSizeNotOnTarget { .. })
    ));
}

/// The typed executor `exec::execute::<O, F>` runs an opcode only as its
/// own operation and format: asked for another, it refuses and leaves the
/// wave untouched; asked for its own, it does what `execute` does.
#[test]
fn typed_execution_refuses_another_operation_or_format() {
    use amdgpu_valu::__testing::exec;
    use amdgpu_valu::__testing::kernels::{FormatKind, F16, F32, F64};
    use amdgpu_valu::__testing::kernels::{Fract, Ldexp};
    use amdgpu_valu::Opcode::LdexpF64;

    type Typed = fn(&amdgpu_valu::TargetSpec, &mut Wave, &Instruction) -> Result<(), ExecError>;
    let typed: [(Typed, &str, FormatKind); 6] = [
        (exec::execute::<Fract, F16>, "fract", FormatKind::F16),
        (exec::execute::<Fract, F32>, "fract", FormatKind::F32),
        (exec::execute::<Fract, F64>, "fract", FormatKind::F64),
        (exec::execute::<Ldexp, F16>, "ldexp", FormatKind::F16),
        (exec::execute::<Ldexp, F32>, "ldexp", FormatKind::F32),
        (exec::execute::<Ldexp, F64>, "ldexp", FormatKind::F64),
    ];
    let own = [FractF16, FractF32, FractF64, LdexpF16, LdexpF32, LdexpF64];
    let mut ran = 0;
    for t in Target::ALL {
        let mut start = Wave::for_target(t);
        // 1.5 in every format's low bits: F16 0x3e00, F32 0x3fc00000,
        // F64 0x3ff8000000000000; exponent 1 in v4.
        start.set_vgpr_all(2, 0x3fc0_3e00).unwrap();
        start.set_vgpr_all(3, 0x3ff8_0000).unwrap();
        start.set_vgpr_all(4, 1).unwrap();
        for (i, &opcode) in own.iter().enumerate() {
            let instr = if opcode.is_ldexp() {
                Instruction::binary(
                    opcode,
                    Encoding::Vop3,
                    Operand::v(0),
                    Operand::v(2),
                    Operand::v(4),
                )
            } else {
                Instruction::unary(opcode, Encoding::Vop3, Operand::v(0), Operand::v(2))
            };
            for (j, &(run_typed, operation, format)) in typed.iter().enumerate() {
                let mut wave = start.clone();
                let got = run_typed(t.spec(), &mut wave, &instr);
                if i == j {
                    let mut want = start.clone();
                    let expected = execute(t, &mut want, &instr);
                    assert_eq!(got, expected, "{t} {opcode:?}");
                    assert_eq!(wave, want, "{t} {opcode:?}");
                    ran += usize::from(got.is_ok() && wave != start);
                } else {
                    assert_eq!(
                        got,
                        Err(ExecError::OperationMismatch {
                            opcode,
                            operation,
                            format
                        }),
                        "{t} {opcode:?} as {operation} {format:?}"
                    );
                    assert_eq!(wave, start, "{t} {opcode:?} as {operation} {format:?}");
                }
            }
        }
    }
    // Most targets have the six in VOP3; each one that does wrote v0.
    assert!(ran >= 50, "only {ran} typed runs wrote a result");
}
