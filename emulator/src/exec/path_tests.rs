//! The in-place paths against the general one: on random instructions of
//! every operation and operand kind (VGPRs and their halves, SGPRs, inline
//! constants, literals, SDWA, DPP16/DPP8, a destination overlapping a
//! source, FMAC's accumulator) in wave32 and wave64 with partial EXEC,
//! [`crate::generated::execute_spec`] (which takes the in-place path
//! whenever it can) must leave the same wave and give the same result as
//! the general path, which reads every source into words on the stack
//! first ([`general`]). The expected state is computed by the other path,
//! never by the one under test; the count of in-place runs shows the fast
//! paths were taken.

use super::{arith, dpp, policy, validate, write};
use crate::dpp::{Dpp, Dpp16, DppControl};
use crate::error::ExecError;
use crate::instr::{
    DstUnused, Encoding, FloatConst, Instruction, Opcode, Operand, OperationKind, Part, ScalarReg,
    Sdwa, SdwaSel, SrcMods,
};
use crate::kernels::{Format, FormatKind as K, Fract, Ldexp, Omod, Operation, F16, F32, F64};
use crate::target::{Target, TargetSpec, WaveSize};
use crate::test_rng::Rng;
use crate::wave::Wave;

/// `instr` run with kernel `O` in format `F` by `execute` on `fast` (the
/// note's path first) and by the checks alone on `slow`.
fn noted_and_checked<O: Operation, F: Format>(
    spec: &TargetSpec,
    fast: &mut Wave,
    slow: &mut Wave,
    instr: &Instruction,
) -> (Result<(), ExecError>, Result<(), ExecError>) {
    (
        super::execute::<O, F>(spec, fast, instr),
        super::execute_checked::<O, F>(spec, slow, instr),
    )
}

/// FRACT/LDEXP through the general path only: the same checks as
/// [`super::execute`], then [`write::copied`].
fn general_op<O: Operation, F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    let plan = match instr.dpp {
        Some(d) => Some(dpp::plan::<O, F>(spec, wave, instr, d)?),
        None => {
            validate(spec, wave, instr)?;
            None
        }
    };
    let policy = policy::<F>(spec, wave, instr);
    write::copied::<O, F>(spec, wave, instr, &policy, plan.as_ref())
}

/// An arithmetic instruction through the general path only.
fn general_arith<F: Format>(
    spec: &TargetSpec,
    wave: &mut Wave,
    instr: &Instruction,
) -> Result<(), ExecError> {
    let plan = arith::check::<F>(spec, wave, instr)?;
    let op = arith::arith_op(instr.opcode.info().operation).ok_or(ExecError::NotExecuted {
        opcode: instr.opcode,
    })?;
    let policy = arith::arith_policy::<F>(spec, wave, instr);
    let mods = arith::source_modifiers(instr);
    arith::copied::<F>(spec, wave, instr, op, &policy, mods, plan.as_ref())
}

/// `instr` on the general path.
fn general(spec: &TargetSpec, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
    use OperationKind::{Fract as FRACT, Ldexp as LDEXP};
    let info = instr.opcode.info();
    match (info.operation, info.format) {
        (FRACT, K::F16) => general_op::<Fract, F16>(spec, wave, instr),
        (FRACT, K::F32) => general_op::<Fract, F32>(spec, wave, instr),
        (FRACT, K::F64) => general_op::<Fract, F64>(spec, wave, instr),
        (LDEXP, K::F16) => general_op::<Ldexp, F16>(spec, wave, instr),
        (LDEXP, K::F32) => general_op::<Ldexp, F32>(spec, wave, instr),
        (LDEXP, K::F64) => general_op::<Ldexp, F64>(spec, wave, instr),
        (_, K::F16) => general_arith::<F16>(spec, wave, instr),
        (_, K::F32) => general_arith::<F32>(spec, wave, instr),
        (_, K::F64) => general_arith::<F64>(spec, wave, instr),
    }
}

/// A register word: special encodings (zeros, infinities, NaNs,
/// subnormals, ones in every format) half the time, random bits else.
fn word(r: &mut Rng) -> u32 {
    if r.one_in(2) {
        r.pick(&[
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0x0000_0001,
            0x807f_ffff,
            0x3f80_0000,
            0x3c00_3c00,
            0x7c00_fc00,
            0x7e00_0001,
            0x3ff0_0000,
            0x7ff0_0000,
            0xfff8_0000,
            0x4b00_0001,
        ])
    } else {
        r.next() as u32
    }
}

/// A source operand: VGPRs from a small pool (so the destination often
/// overlaps one), halves, scalars, constants and literals.
fn source(r: &mut Rng, width: u32) -> Operand {
    let part = if width == 16 && r.one_in(3) {
        r.pick(&[Part::Lo, Part::Hi])
    } else {
        Part::Full
    };
    match r.below(12) {
        0..=6 => Operand::Vgpr {
            index: r.below(8) as u16,
            part,
        },
        7 => {
            let sgpr = ScalarReg::Sgpr(r.below(8) as u8);
            Operand::Scalar {
                reg: r.pick(&[sgpr, sgpr, ScalarReg::VccLo, ScalarReg::M0]),
                part,
            }
        }
        8 => Operand::InlineInt(r.below(81) as i8 - 16),
        9 => Operand::InlineFloat(r.pick(&FloatConst::ALL)),
        _ => Operand::Literal(word(r)),
    }
}

/// A random instruction of any executed opcode, mostly valid on `spec`.
fn instruction(r: &mut Rng, spec: &TargetSpec) -> Instruction {
    let opcode = r.pick(&Opcode::ALL);
    let mut encs = vec![Encoding::Vop3, Encoding::Sdwa];
    encs.extend(opcode.info().e32);
    let encoding = r.pick(&encs);
    instruction_of(r, spec, opcode, encoding)
}

/// A random instruction of `opcode` in `encoding`.
fn instruction_of(
    r: &mut Rng,
    spec: &TargetSpec,
    opcode: Opcode,
    encoding: Encoding,
) -> Instruction {
    let info = opcode.info();
    let width = info.format.bits();
    let dst_part = if width == 16 && spec.true16.value && r.one_in(3) {
        r.pick(&[Part::Lo, Part::Hi])
    } else {
        Part::Full
    };
    let mut instr = Instruction::unary(
        opcode,
        encoding,
        Operand::Vgpr {
            index: r.below(8) as u16,
            part: dst_part,
        },
        source(r, width),
    );
    for slot in 1..info.sources.len() {
        let ty = info.sources[slot];
        let op = if info.k_slot == Some(slot) {
            Operand::Literal(word(r))
        } else if encoding == Encoding::Vop2 && r.one_in(2) {
            Operand::v(r.below(8) as u16)
        } else {
            source(r, ty.bits())
        };
        if slot == 1 {
            instr.src1 = Some(op);
        } else {
            instr.src2 = Some(op);
        }
    }
    let mods = |r: &mut Rng| SrcMods {
        abs: r.one_in(4),
        neg: r.one_in(4),
        sext: false,
    };
    if encoding.has_modifiers() {
        instr.src0_mods = mods(r);
        if info.sources.get(1).is_some_and(|t| t.is_float()) {
            instr.src1_mods = mods(r);
        }
        if info.sources.len() > 2 && encoding == Encoding::Vop3 {
            instr.src2_mods = mods(r);
        }
        instr.clamp = r.one_in(4);
        instr.omod = if r.one_in(4) {
            r.pick(&[Omod::Mul2, Omod::Mul4, Omod::Div2])
        } else {
            Omod::None
        };
    }
    if encoding == Encoding::Sdwa {
        let sel = [
            SdwaSel::Byte0,
            SdwaSel::Byte1,
            SdwaSel::Word0,
            SdwaSel::Word1,
            SdwaSel::Dword,
        ];
        instr.sdwa = Some(Sdwa {
            dst_sel: r.pick(&sel),
            dst_unused: r.pick(&[DstUnused::Pad, DstUnused::Preserve, DstUnused::Sext]),
            src0_sel: r.pick(&sel),
            src1_sel: r.pick(&sel),
            reserved: 0,
        });
    } else if r.one_in(3) {
        // DPP on src0, a VGPR.
        instr.src0 = Operand::Vgpr {
            index: r.below(8) as u16,
            part: if width == 16 && spec.true16.value {
                dst_part
            } else {
                Part::Full
            },
        };
        instr.dpp = Some(if r.one_in(4) {
            let mut sel = [0u8; 8];
            for s in &mut sel {
                *s = r.below(8) as u8;
            }
            Dpp::Dpp8 {
                sel,
                fi: r.one_in(2),
            }
        } else {
            let ctrl = r.pick(&[
                DppControl::RowShr(1),
                DppControl::RowRor(3),
                DppControl::QuadPerm([3, 2, 1, 0]),
                DppControl::RowMirror,
                DppControl::WaveShl,
                DppControl::RowBcast15,
            ]);
            Dpp::Dpp16(Dpp16 {
                row_mask: if r.one_in(3) { r.below(16) as u8 } else { 0xf },
                bank_mask: if r.one_in(3) { r.below(16) as u8 } else { 0xf },
                bound_ctrl: r.one_in(2),
                ..Dpp16::new(ctrl)
            })
        });
    }
    instr
}

/// A wave of a size `spec` runs, random registers v0..v9 and s0..s9,
/// EXEC all, partial or none, and a random MODE.
fn wave(r: &mut Rng, spec: &TargetSpec) -> Wave {
    let size = if spec.supports_wave(WaveSize::Wave32) && r.one_in(2) {
        WaveSize::Wave32
    } else {
        WaveSize::Wave64
    };
    let mut wave = Wave::new(size);
    for reg in 0..10 {
        for lane in 0..wave.lanes() {
            wave.set_vgpr(reg, lane, word(r)).expect("in range");
        }
        wave.set_sgpr(reg, word(r)).expect("in range");
    }
    wave.set_vcc(r.next());
    wave.set_m0(word(r));
    wave.set_exec(match r.below(4) {
        0 => 0,
        1 => u64::MAX,
        _ => r.next(),
    });
    wave.set_mode(r.pick(&[0, 0xf0, 0xf3, 0x3f0, 0x1f0, 0x8000f0, 0xf4]));
    wave.take_written();
    wave
}

#[test]
fn in_place_paths_match_the_general_path_on_random_instructions() {
    let mut r = Rng(0x1a_91ace);
    let (mut ran, mut failed) = (0usize, 0usize);
    let before = super::tallied(super::Tally::InPlace);
    let shapes_before = super::tallied(super::Tally::ShapeHit);
    let dpp_shapes_before = super::tallied(super::Tally::DppShapeHit);
    let hits_before = dpp::forget_plan();
    let mut last: Option<(Target, Instruction, Wave)> = None;
    for _ in 0..60_000 {
        let mut target = r.pick(&Target::ALL);
        let mut instr = instruction(&mut r, target.spec());
        let mut start = wave(&mut r, target.spec());
        // Half the time the last DPP word again on the same wave as the
        // last instruction left it, other registers: the remembered DPP
        // plan is used, and with the same modifiers too the wave's checked
        // shape.
        if let Some((t, i, w)) = last.as_ref().filter(|_| r.one_in(2)) {
            target = *t;
            instr = Instruction {
                dpp: i.dpp,
                src0: i.src0,
                src0_mods: i.src0_mods,
                sdwa: i.sdwa,
                ..instruction_of(&mut r, target.spec(), i.opcode, i.encoding)
            };
            if r.one_in(2) {
                instr = Instruction {
                    src1_mods: i.src1_mods,
                    src2_mods: i.src2_mods,
                    clamp: i.clamp,
                    omod: i.omod,
                    ..instr
                };
            }
            start = w.clone();
            // Now and then under another EXEC or MODE: a new plan.
            if r.one_in(3) {
                start.set_exec(r.next());
            }
            if r.one_in(3) {
                start.set_mode(r.pick(&[0, 0xf0, 0x3f0]));
            }
        }
        let spec = target.spec();
        let (mut fast, mut slow) = (start.clone(), start.clone());
        let got = crate::generated::execute_spec(spec, &mut fast, &instr);
        // The general path builds its DPP plan anew.
        dpp::forget_plan();
        let want = general(spec, &mut slow, &instr);
        assert_eq!(got, want, "{target} {instr:?}");
        assert_eq!(fast, slow, "{target} {instr:?}: the waves differ");
        if got.is_ok() {
            assert_eq!(
                fast.take_written(),
                slow.take_written(),
                "{target} {instr:?}: the written registers differ"
            );
        }
        ran += usize::from(got.is_ok());
        failed += usize::from(got.is_err());
        last = Some((target, instr, fast));
    }
    let in_place = super::tallied(super::Tally::InPlace) - before;
    let plan_hits = dpp::forget_plan() - hits_before;
    let shape_hits = super::tallied(super::Tally::ShapeHit) - shapes_before;
    let dpp_shape_hits = super::tallied(super::Tally::DppShapeHit) - dpp_shapes_before;
    // Both paths, the remembered DPP plans and checked shapes, and the
    // errors are exercised.
    assert!(
        ran > 10_000
            && failed > 1_000
            && in_place > 5_000
            && ran - in_place > 2_000
            && plan_hits > 500
            && shape_hits > 300
            && dpp_shape_hits > 50,
        "ran {ran}, failed {failed}, in place {in_place}, DPP plans remembered {plan_hits}, \
         checked shapes reused {shape_hits}, checked DPP shapes reused {dpp_shape_hits}"
    );
}

/// Run `first` and then `second` on one wave through
/// [`crate::generated::execute_spec`] (so `second` meets the shape
/// `first` noted) and on another through the general path only; the
/// waves and results must agree. `start` has random registers v0..v9 in
/// every lane, so a field that changes the result shows in some lane.
fn after_noting(spec: &TargetSpec, start: &Wave, first: &Instruction, second: &Instruction) {
    let (mut fast, mut slow) = (start.clone(), start.clone());
    let noted = crate::generated::execute_spec(spec, &mut fast, first);
    assert_eq!(noted, general(spec, &mut slow, first), "{first:?}");
    let got = crate::generated::execute_spec(spec, &mut fast, second);
    let want = general(spec, &mut slow, second);
    assert_eq!(got, want, "{second:?} after {first:?}");
    assert_eq!(fast, slow, "{second:?} after {first:?}: the waves differ");
}

/// A wave64 of random registers v0..v9 (each lane its own word), EXEC
/// all, MODE 0xf0 (subnormals kept, round to nearest even).
fn random_wave(r: &mut Rng) -> Wave {
    let mut wave = Wave::new(WaveSize::Wave64);
    for reg in 0..10 {
        for lane in 0..64 {
            wave.set_vgpr(reg, lane, word(r)).expect("in range");
        }
    }
    wave.set_mode(0xf0);
    wave.take_written();
    wave
}

/// The key of a noted shape holds every field the reuse depends on: an
/// instruction that differs from the noted one in any one of them (its
/// opcode, encoding, a source's ABS or NEG, CLAMP, OMOD, the half of a
/// register it reads or writes, the kind of an operand, MODE, the wave
/// size, the target, the kernel, the DPP word) after it on the same wave
/// gives what the general path gives. Each pair below differs in one
/// field whose effect shows in some of the 64 random lanes.
#[test]
fn a_noted_shape_serves_only_instructions_with_its_key() {
    use Encoding::{Vop1, Vop2, Vop3};
    let mut r = Rng(0x0de_4e7);
    let gfx1201 = Target::Gfx1201.spec();
    let add = Instruction::binary(
        Opcode::AddF32,
        Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    let fract = Instruction::unary(Opcode::FractF32, Vop3, Operand::v(0), Operand::v(1));
    let ldexp = Instruction::binary(
        Opcode::LdexpF32,
        Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
    );
    let fma = Instruction::ternary(
        Opcode::FmaF32,
        Vop3,
        Operand::v(0),
        Operand::v(1),
        Operand::v(2),
        Operand::v(3),
    );
    let neg = SrcMods {
        neg: true,
        ..SrcMods::default()
    };
    let abs = SrcMods {
        abs: true,
        ..SrcMods::default()
    };
    let add16 = |dst, src0, src1| Instruction::binary(Opcode::AddF16, Vop3, dst, src0, src1);
    let mut pairs: Vec<(Instruction, Instruction)> = Vec::new();
    for base in [add, fract, ldexp] {
        pairs.push((
            base,
            Instruction {
                src0_mods: neg,
                ..base
            },
        ));
        pairs.push((
            base,
            Instruction {
                src0_mods: abs,
                ..base
            },
        ));
        pairs.push((
            base,
            Instruction {
                clamp: true,
                ..base
            },
        ));
        pairs.push((
            base,
            Instruction {
                omod: Omod::Mul2,
                ..base
            },
        ));
        pairs.push((
            base,
            Instruction {
                omod: Omod::Div2,
                ..base
            },
        ));
        // The same registers, another kind of src0.
        pairs.push((
            base,
            Instruction {
                src0: Operand::InlineInt(3),
                ..base
            },
        ));
    }
    pairs.extend([
        (
            add,
            Instruction {
                src1_mods: neg,
                ..add
            },
        ),
        (
            add,
            Instruction {
                opcode: Opcode::SubF32,
                ..add
            },
        ),
        (
            add,
            Instruction {
                opcode: Opcode::MulF32,
                ..add
            },
        ),
        (
            add,
            Instruction {
                encoding: Vop2,
                ..add
            },
        ),
        (
            fract,
            Instruction {
                encoding: Vop1,
                ..fract
            },
        ),
        (
            add,
            Instruction::ternary(
                Opcode::FmaF32,
                Vop3,
                Operand::v(0),
                Operand::v(1),
                Operand::v(2),
                Operand::v(3),
            ),
        ),
        (
            add,
            Instruction {
                src1_mods: abs,
                ..add
            },
        ),
        // src2's ABS and NEG (FMA), each its own byte of the key.
        (
            fma,
            Instruction {
                src2_mods: neg,
                ..fma
            },
        ),
        (
            fma,
            Instruction {
                src2_mods: abs,
                ..fma
            },
        ),
        (
            fma,
            Instruction {
                src1_mods: neg,
                ..fma
            },
        ),
        (
            Instruction::binary(
                Opcode::FmacF32,
                Vop2,
                Operand::v(0),
                Operand::v(1),
                Operand::v(2),
            ),
            Instruction::binary(
                Opcode::MulF32,
                Vop2,
                Operand::v(0),
                Operand::v(1),
                Operand::v(2),
            ),
        ),
        // Halves: of the destination, of src0, of src1 (true16).
        (
            add16(Operand::v_lo(0), Operand::v_lo(1), Operand::v_lo(2)),
            add16(Operand::v_hi(0), Operand::v_lo(1), Operand::v_lo(2)),
        ),
        (
            add16(Operand::v_lo(0), Operand::v_lo(1), Operand::v_lo(2)),
            add16(Operand::v_lo(0), Operand::v_hi(1), Operand::v_lo(2)),
        ),
        (
            add16(Operand::v_lo(0), Operand::v_lo(1), Operand::v_lo(2)),
            add16(Operand::v_lo(0), Operand::v_lo(1), Operand::v_hi(2)),
        ),
        // DPP words: none, then one, then another.
        (
            Instruction::unary(Opcode::FractF32, Vop1, Operand::v(0), Operand::v(1)),
            Instruction {
                dpp: Some(Dpp::Dpp16(Dpp16::new(DppControl::RowShr(1)))),
                ..Instruction::unary(Opcode::FractF32, Vop1, Operand::v(0), Operand::v(1))
            },
        ),
        (
            Instruction {
                dpp: Some(Dpp::Dpp16(Dpp16::new(DppControl::RowShr(1)))),
                ..Instruction::unary(Opcode::FractF32, Vop1, Operand::v(0), Operand::v(1))
            },
            Instruction {
                dpp: Some(Dpp::Dpp16(Dpp16::new(DppControl::RowRor(3)))),
                ..Instruction::unary(Opcode::FractF32, Vop1, Operand::v(0), Operand::v(1))
            },
        ),
    ]);
    for (first, second) in &pairs {
        let start = random_wave(&mut r);
        after_noting(gfx1201, &start, first, second);
        // And the first again after the second: each is the other's
        // differing instruction.
        after_noting(gfx1201, &start, second, first);
    }
    // MODE and target between two runs of one instruction (a wave's size
    // changes only by a reset, which forgets its notes).
    for instr in [add, fract, ldexp] {
        let start = random_wave(&mut r);
        let (mut fast, mut slow) = (start.clone(), start.clone());
        let noted = crate::generated::execute_spec(gfx1201, &mut fast, &instr);
        assert_eq!(noted, general(gfx1201, &mut slow, &instr));
        for (mode, target) in [
            (0x0, Target::Gfx1201),
            (0x3f0, Target::Gfx1201),
            (0xf0, Target::Gfx908),
        ] {
            let mut fast2 = fast.clone();
            let mut slow2 = slow.clone();
            fast2.set_mode(mode);
            slow2.set_mode(mode);
            let spec = target.spec();
            let got = crate::generated::execute_spec(spec, &mut fast2, &instr);
            let want = general(spec, &mut slow2, &instr);
            assert_eq!(got, want, "{instr:?} under {mode:#x} on {target}");
            assert_eq!(fast2, slow2, "{instr:?} under {mode:#x} on {target}");
        }
        // The kernel: the noted shape run as another operation is refused,
        // as without a note.
        let (got, want) = if instr.opcode == Opcode::FractF32 {
            noted_and_checked::<Ldexp, F32>(gfx1201, &mut fast, &mut slow, &instr)
        } else {
            noted_and_checked::<Fract, F32>(gfx1201, &mut fast, &mut slow, &instr)
        };
        assert_eq!(got, want, "{instr:?} as another operation");
        assert!(got.is_err(), "{instr:?} as another operation");
        // The same operation in another format: refused too (the kernel's
        // format is in the key as well as its operation).
        let (got, want) = if instr.opcode == Opcode::LdexpF32 {
            noted_and_checked::<Ldexp, F64>(gfx1201, &mut fast, &mut slow, &instr)
        } else {
            noted_and_checked::<Fract, F16>(gfx1201, &mut fast, &mut slow, &instr)
        };
        assert_eq!(got, want, "{instr:?} in another format");
        assert!(got.is_err(), "{instr:?} in another format");
    }
    // Other registers under the same key: the note serves.
    let before = super::tallied(super::Tally::ShapeHit);
    let moved = Instruction {
        dst: Operand::v(5),
        src0: Operand::v(6),
        src1: Some(Operand::v(7)),
        ..add
    };
    after_noting(gfx1201, &random_wave(&mut r), &add, &moved);
    assert!(
        super::tallied(super::Tally::ShapeHit) > before,
        "the note was not reused"
    );
}
