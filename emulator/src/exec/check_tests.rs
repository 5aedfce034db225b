//! The fast path's pre-check ([`super::plainly_valid`]) against the one
//! instruction check ([`crate::validate::check`] plus the wave size):
//! whenever the pre-check accepts, the check accepts; and on the shapes the
//! pre-check is for (every operand a VGPR, no SDWA) the two agree exactly.
//! Run over every instruction of the LLVM fixtures and over random ones.

use super::arith_in_place::plainly_valid_arith;
use super::{plainly_valid, validate};
use crate::instr::{
    DstUnused, Encoding, FloatConst, Instruction, Opcode, Operand, OperationKind, Part, ScalarReg,
    Sdwa, SdwaSel, SrcMods,
};
use crate::kernels::FormatKind as K;
use crate::kernels::{Fract, Ldexp};
use crate::kernels::{Omod, F16, F32, F64};
use crate::target::{Target, TargetSpec, WaveSize};
use crate::test_rng::Rng;
use crate::wave::Wave;

fn pre_check(spec: &TargetSpec, wave: &Wave, instr: &Instruction) -> bool {
    use OperationKind::{Fract as FRACT, Ldexp as LDEXP};
    let info = instr.opcode.info();
    match (info.operation, info.format) {
        (FRACT, K::F16) => plainly_valid::<Fract, F16>(spec, wave, instr),
        (FRACT, K::F32) => plainly_valid::<Fract, F32>(spec, wave, instr),
        (FRACT, K::F64) => plainly_valid::<Fract, F64>(spec, wave, instr),
        (LDEXP, K::F16) => plainly_valid::<Ldexp, F16>(spec, wave, instr),
        (LDEXP, K::F32) => plainly_valid::<Ldexp, F32>(spec, wave, instr),
        (LDEXP, K::F64) => plainly_valid::<Ldexp, F64>(spec, wave, instr),
        (_, K::F16) => plainly_valid_arith::<F16>(spec, wave, instr),
        (_, K::F32) => plainly_valid_arith::<F32>(spec, wave, instr),
        (_, K::F64) => plainly_valid_arith::<F64>(spec, wave, instr),
    }
}

/// The shapes the pre-check decides on its own (FMAMK/FMAAK, whose K is a
/// literal, and a high half on a target without true16 halves, which
/// only op_sel can name, always take the full check).
fn plain_shape(spec: &TargetSpec, instr: &Instruction) -> bool {
    let vgpr = |op: Operand| match op {
        Operand::Vgpr { part, .. } => spec.true16.value || part != Part::Hi,
        _ => false,
    };
    instr.encoding != Encoding::Sdwa
        && instr.sdwa.is_none()
        && instr.dpp.is_none()
        && instr.opcode.info().k_slot().is_none()
        && vgpr(instr.dst)
        && vgpr(instr.src0)
        && instr.src1.is_none_or(vgpr)
        && instr.src2.is_none_or(vgpr)
}

/// Compare the two on `instr` for `target` in both wave sizes; returns
/// whether the pre-check accepted in some wave.
fn agree(target: Target, instr: &Instruction) -> bool {
    let spec = target.spec();
    let mut accepted = false;
    for size in [WaveSize::Wave32, WaveSize::Wave64] {
        let wave = Wave::new(size);
        let fast = pre_check(spec, &wave, instr);
        let full = validate(spec, &wave, instr);
        if fast {
            assert!(
                full.is_ok(),
                "{target} {instr:?}: the pre-check accepts what the check refuses: {full:?}"
            );
        }
        if plain_shape(spec, instr) {
            assert_eq!(
                fast,
                full.is_ok(),
                "{target} {instr:?}: pre-check {fast}, check {full:?}"
            );
        }
        accepted |= fast;
    }
    accepted
}

#[test]
fn pre_check_matches_the_check_on_the_fixtures() {
    let mut accepted = 0;
    for target in Target::ALL {
        let path = format!(
            "{}/tests/fixtures/encodings/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            target.name()
        );
        let text = std::fs::read_to_string(&path).expect("fixture file");
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some(input) = line.split('\t').nth(1) else {
                continue;
            };
            // Every target's fixtures on every target: rejected forms too.
            if let Ok(instr) = crate::asm::parse(target, input) {
                for on in Target::ALL {
                    accepted += usize::from(agree(on, &instr));
                }
            }
        }
    }
    assert!(
        accepted > 1000,
        "only {accepted} fixtures took the fast path"
    );
}

fn operand(r: &mut Rng) -> Operand {
    let part = if r.one_in(3) {
        r.pick(&[Part::Lo, Part::Hi])
    } else {
        Part::Full
    };
    let sgpr = r.below(110) as u8;
    match r.below(10) {
        0..=5 => Operand::Vgpr {
            // Mostly in range, sometimes at or past the ends.
            index: if r.one_in(8) {
                r.pick(&[126, 127, 128, 129, 254, 255, 256, 300])
            } else {
                r.below(256) as u16
            },
            part,
        },
        6 => Operand::Scalar {
            reg: r.pick(&[
                ScalarReg::Sgpr(sgpr),
                ScalarReg::VccLo,
                ScalarReg::VccHi,
                ScalarReg::ExecLo,
                ScalarReg::ExecHi,
                ScalarReg::M0,
                ScalarReg::Null,
            ]),
            part,
        },
        7 => Operand::InlineInt(r.below(90) as i8 - 20),
        8 => Operand::InlineFloat(r.pick(&FloatConst::ALL)),
        _ => {
            if r.one_in(2) {
                Operand::Literal(r.next() as u32)
            } else {
                Operand::Literal64(r.next())
            }
        }
    }
}

fn random_instruction(r: &mut Rng) -> Instruction {
    random_instruction_of(r, &Opcode::ALL)
}

/// A random instruction of one of `opcodes`.
fn random_instruction_of(r: &mut Rng, opcodes: &[Opcode]) -> Instruction {
    let opcode = r.pick(opcodes);
    let encoding = r.pick(&[
        Encoding::Vop1,
        Encoding::Vop2,
        Encoding::Vop3,
        Encoding::Sdwa,
    ]);
    // Bias towards the plain shape so both sides of the pre-check are seen.
    let plain = r.one_in(2);
    let op = |r: &mut Rng| {
        if plain {
            Operand::Vgpr {
                index: r.below(258) as u16,
                part: if r.one_in(4) { Part::Hi } else { Part::Lo },
            }
        } else {
            operand(r)
        }
    };
    let mut instr = Instruction {
        opcode,
        encoding,
        dst: op(r),
        src0: op(r),
        src1: if opcode.info().src1().is_some() != r.one_in(10) {
            Some(op(r))
        } else {
            None
        },
        src2: if (opcode.info().sources.len() > 2) != r.one_in(10) {
            Some(op(r))
        } else {
            None
        },
        ..Instruction::unary(opcode, encoding, Operand::v(0), Operand::v(0))
    };
    if plain && r.one_in(2) {
        let full = |o: Operand| match o {
            Operand::Vgpr { index, .. } => Operand::v(index),
            other => other,
        };
        instr.dst = full(instr.dst);
        instr.src0 = full(instr.src0);
        instr.src1 = instr.src1.map(full);
        instr.src2 = instr.src2.map(full);
    }
    let mods = |r: &mut Rng| SrcMods {
        abs: r.one_in(6),
        neg: r.one_in(6),
        sext: r.one_in(8),
    };
    instr.src0_mods = mods(r);
    instr.src1_mods = mods(r);
    // Now and then ABS/NEG/sext on a src2 the instruction lacks.
    if instr.src2.is_some() || r.one_in(10) {
        instr.src2_mods = mods(r);
    }
    instr.clamp = r.one_in(6);
    instr.omod = if r.one_in(6) { Omod::Div2 } else { Omod::None };
    let sdwa = (encoding == Encoding::Sdwa) != r.one_in(10);
    instr.sdwa = sdwa.then(|| Sdwa {
        dst_sel: r.pick(&[SdwaSel::Byte0, SdwaSel::Word1, SdwaSel::Dword]),
        dst_unused: r.pick(&[DstUnused::Pad, DstUnused::Preserve]),
        src0_sel: r.pick(&[SdwaSel::Byte1, SdwaSel::Dword]),
        src1_sel: r.pick(&[SdwaSel::Word0, SdwaSel::Dword]),
        reserved: 0,
    });
    instr
}

#[test]
fn pre_check_matches_the_check_on_random_instructions() {
    let mut r = Rng(0x0c4e_c4ed);
    let (mut fast, mut plain) = (0, 0);
    for _ in 0..200_000 {
        let instr = random_instruction(&mut r);
        let target = r.pick(&Target::ALL);
        fast += usize::from(agree(target, &instr));
        plain += usize::from(plain_shape(target.spec(), &instr));
    }
    // Both answers are common, so the comparison means something.
    assert!(
        fast > 5_000 && plain - fast > 5_000,
        "fast {fast}, plain {plain}"
    );
}

/// DPP's pre-check ([`super::plainly_valid_but_dpp`]) on an instruction
/// is the pre-check of its base instruction: without the DPP part, and on
/// an e32 word without the src0 ABS/NEG only the DPP16 word carries. Its
/// acceptance then implies the check's through [`agree`].
#[test]
fn dpp_pre_check_is_the_base_instructions() {
    use super::plainly_valid_but_dpp;
    let mut r = Rng(0xd00d_f00d);
    let mut accepted = 0;
    let fract_ldexp: Vec<Opcode> = Opcode::ALL
        .into_iter()
        .filter(|o| {
            matches!(
                o.info().operation,
                OperationKind::Fract | OperationKind::Ldexp
            )
        })
        .collect();
    for _ in 0..100_000 {
        let instr = random_instruction_of(&mut r, &fract_ldexp);
        let dpp = r.one_in(2).then(|| {
            crate::dpp::Dpp::Dpp16(crate::dpp::Dpp16::new(crate::dpp::DppControl::RowShr(1)))
        });
        let instr = Instruction { dpp, ..instr };
        let target = r.pick(&Target::ALL);
        let spec = target.spec();
        let e32 = matches!(instr.encoding, Encoding::Vop1 | Encoding::Vop2);
        let base = Instruction {
            dpp: None,
            src0_mods: SrcMods {
                abs: instr.src0_mods.abs && !e32,
                neg: instr.src0_mods.neg && !e32,
                ..instr.src0_mods
            },
            ..instr
        };
        for size in [WaveSize::Wave32, WaveSize::Wave64] {
            let wave = Wave::new(size);
            use OperationKind::{Fract as FRACT, Ldexp as LDEXP};
            let info = instr.opcode.info();
            let dpp = match (info.operation, info.format) {
                (FRACT, K::F16) => plainly_valid_but_dpp::<Fract, F16>(spec, &wave, &instr, e32),
                (FRACT, K::F32) => plainly_valid_but_dpp::<Fract, F32>(spec, &wave, &instr, e32),
                (FRACT, K::F64) => plainly_valid_but_dpp::<Fract, F64>(spec, &wave, &instr, e32),
                (LDEXP, K::F16) => plainly_valid_but_dpp::<Ldexp, F16>(spec, &wave, &instr, e32),
                (LDEXP, K::F32) => plainly_valid_but_dpp::<Ldexp, F32>(spec, &wave, &instr, e32),
                (LDEXP, K::F64) => plainly_valid_but_dpp::<Ldexp, F64>(spec, &wave, &instr, e32),
                // The arithmetic instructions always take the full check.
                _ => false,
            };
            assert_eq!(dpp, pre_check(spec, &wave, &base), "{target} {instr:?}");
            accepted += usize::from(dpp);
        }
        agree(target, &base);
    }
    assert!(accepted > 5_000, "only {accepted} accepted");
}
