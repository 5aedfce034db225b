//! `amdgpu_valu::lanes`: the kernels on raw lane arrays give the same bits
//! as `execute` of the equivalent VOP3 instruction, on every target, format
//! and operation, under random MODE values, modifiers, EXEC masks and
//! lengths; plus hardware rows, length errors and the dispatched path.

mod common;

use amdgpu_valu::__testing::kernels::{self, Variant};
use amdgpu_valu::lanes::{self, LaneMods};
use amdgpu_valu::{execute, Encoding, ExecError, Instruction, Omod, Opcode, Operand, Target, Wave};
use common::Rng;

/// An element type of the lane API, seen as widened bits.
trait Bits: lanes::LaneBits + core::fmt::Debug + PartialEq {
    const WIDTH: u32;
    const EXP_BITS: u32;
    fn from_u64(v: u64) -> Self;
    fn to_u64(self) -> u64;
}

impl Bits for u16 {
    const WIDTH: u32 = 16;
    const EXP_BITS: u32 = 5;
    fn from_u64(v: u64) -> u16 {
        v as u16
    }
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}

impl Bits for u32 {
    const WIDTH: u32 = 32;
    const EXP_BITS: u32 = 8;
    fn from_u64(v: u64) -> u32 {
        v as u32
    }
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}

impl Bits for u64 {
    const WIDTH: u32 = 64;
    const EXP_BITS: u32 = 11;
    fn from_u64(v: u64) -> u64 {
        v
    }
    fn to_u64(self) -> u64 {
        self
    }
}

/// A source encoding, mostly from the interesting binades and fractions
/// (zeros, subnormals, around 1, integers, the top binade, infinities,
/// NaNs of both kinds), sometimes any bits.
fn source<T: Bits>(rng: &mut Rng) -> T {
    let (w, e) = (T::WIDTH, T::EXP_BITS);
    let man_bits = w - 1 - e;
    if rng.below(4) == 0 {
        return T::from_u64(rng.next());
    }
    let max_exp = (1u64 << e) - 1;
    let bias = max_exp >> 1;
    let exps = [
        0,
        1,
        bias - 2,
        bias - 1,
        bias,
        bias + 1,
        bias + u64::from(man_bits),
        max_exp - 1,
        max_exp,
    ];
    let exp = exps[rng.below(exps.len() as u64) as usize];
    let man_mask = (1u64 << man_bits) - 1;
    let man = match rng.below(5) {
        0 => 0,
        1 => 1,
        2 => man_mask,
        3 => 1 << (man_bits - 1),
        _ => rng.next() & man_mask,
    };
    let sign = rng.below(2) << (w - 1);
    T::from_u64(sign | exp << man_bits | man)
}

/// An exponent register word: small, near the format's range, huge, or any
/// bits (so F16's upper 16 bits vary).
fn exponent(rng: &mut Rng) -> i32 {
    match rng.below(5) {
        0 => rng.range(-40, 40) as i32,
        1 => rng.range(-1100, 1100) as i32,
        2 => [i32::MIN, i32::MAX, -32768, 32767, 65536, -65537][rng.below(6) as usize],
        _ => rng.next() as i32,
    }
}

fn mods(rng: &mut Rng) -> LaneMods {
    let bits = rng.next();
    LaneMods {
        abs: bits & 1 != 0,
        neg: bits & 2 != 0,
        omod: Omod::from_field((bits >> 2) as u32),
        clamp: bits & 16 != 0,
    }
}

fn opcode<T: Bits>(ldexp: bool) -> Opcode {
    match (ldexp, T::WIDTH) {
        (false, 16) => Opcode::FractF16,
        (false, 32) => Opcode::FractF32,
        (false, _) => Opcode::FractF64,
        (true, 16) => Opcode::LdexpF16,
        (true, 32) => Opcode::LdexpF32,
        (true, _) => Opcode::LdexpF64,
    }
}

/// Whether lane `i` is active in the mask words.
fn active(exec: &[u64], i: usize) -> bool {
    exec[i / 64] >> (i % 64) & 1 != 0
}

/// The reference: one VOP3 instruction per wave of `target`'s default size,
/// dst v0 (v[0:1]), src0 v2 (v[2:3]), exponent v4, the old destination
/// values as the destination's input.
#[allow(clippy::too_many_arguments)]
fn by_execute<T: Bits>(
    target: Target,
    mode: u32,
    m: LaneMods,
    exec: &[u64],
    src: &[T],
    exp: Option<&[i32]>,
    old: &[T],
) -> Vec<T> {
    let opcode = opcode::<T>(exp.is_some());
    let mut instr = match exp {
        Some(_) => Instruction::binary(
            opcode,
            Encoding::Vop3,
            Operand::v(0),
            Operand::v(2),
            Operand::v(4),
        ),
        None => Instruction::unary(opcode, Encoding::Vop3, Operand::v(0), Operand::v(2)),
    };
    instr.src0_mods.abs = m.abs;
    instr.src0_mods.neg = m.neg;
    instr.omod = m.omod;
    instr.clamp = m.clamp;
    let mut out = Vec::with_capacity(src.len());
    let lanes = target.spec().default_wave.lanes();
    for start in (0..src.len()).step_by(lanes) {
        let n = lanes.min(src.len() - start);
        let mut wave = Wave::for_target(target);
        wave.set_mode(mode);
        let mut mask = 0u64;
        for l in 0..n {
            let i = start + l;
            let set = |w: &mut Wave, r: usize, v: u64| {
                if T::WIDTH == 64 {
                    w.set_vgpr64(r, l, v).expect("pair in range");
                } else {
                    w.set_vgpr(r, l, v as u32).expect("register in range");
                }
            };
            set(&mut wave, 0, old[i].to_u64());
            set(&mut wave, 2, src[i].to_u64());
            if let Some(e) = exp {
                wave.set_vgpr(4, l, e[i] as u32).expect("register in range");
            }
            mask |= u64::from(active(exec, i)) << l;
        }
        wave.set_exec(mask);
        execute(target, &mut wave, &instr).unwrap_or_else(|e| panic!("{target} {instr:?}: {e}"));
        for l in 0..n {
            let v = if T::WIDTH == 64 {
                wave.vgpr64(0, l).expect("in range")
            } else {
                u64::from(wave.vgpr(0, l).expect("in range")) & (u64::MAX >> (64 - T::WIDTH))
            };
            out.push(T::from_u64(v));
        }
    }
    out
}

fn compare_with_execute<T: Bits>(rng: &mut Rng, rounds: usize) {
    for target in Target::ALL {
        for ldexp in [false, true] {
            for round in 0..rounds {
                let n = match round % 4 {
                    0 => rng.below(8) as usize,
                    1 => 64,
                    _ => rng.below(200) as usize,
                };
                let mode = rng.next() as u32;
                let m = mods(rng);
                let src: Vec<T> = (0..n).map(|_| source::<T>(rng)).collect();
                let exp: Vec<i32> = (0..n).map(|_| exponent(rng)).collect();
                let old: Vec<T> = (0..n).map(|_| T::from_u64(rng.next())).collect();
                let all = vec![u64::MAX; n.div_ceil(64)];
                let exec: Vec<u64> = if round % 2 == 0 {
                    all.clone()
                } else {
                    (0..n.div_ceil(64)).map(|_| rng.next()).collect()
                };
                let mut got = old.clone();
                let res = match ldexp {
                    false => lanes::fract_exec(target, mode, m, &exec, &src, &mut got),
                    true => lanes::ldexp_exec(target, mode, m, &exec, &src, &exp, &mut got),
                };
                res.unwrap_or_else(|e| panic!("{target}: {e}"));
                let exp_ref = ldexp.then_some(&exp[..]);
                let want = by_execute(target, mode, m, &exec, &src, exp_ref, &old);
                for i in 0..n {
                    assert_eq!(
                        got[i],
                        want[i],
                        "{target} {:?} MODE {mode:#x} {m:?} lane {i}: src {:#x} exp {} active {}",
                        opcode::<T>(ldexp),
                        src[i].to_u64(),
                        exp[i],
                        active(&exec, i)
                    );
                }
                // Without a mask: every lane, the same bits as every lane active.
                if round % 2 == 0 {
                    let mut plain = vec![T::default(); n];
                    let res = match ldexp {
                        false => lanes::fract(target, mode, m, &src, &mut plain),
                        true => lanes::ldexp(target, mode, m, &src, &exp, &mut plain),
                    };
                    res.unwrap_or_else(|e| panic!("{target}: {e}"));
                    assert_eq!(
                        plain,
                        want,
                        "{target} {:?} MODE {mode:#x}",
                        opcode::<T>(ldexp)
                    );
                }
            }
        }
    }
}

#[test]
fn f16_lanes_give_the_bits_of_execute_vop3_on_every_target() {
    compare_with_execute::<u16>(&mut Rng(0x1600), 24);
}

#[test]
fn f32_lanes_give_the_bits_of_execute_vop3_on_every_target() {
    compare_with_execute::<u32>(&mut Rng(0x3200), 24);
}

#[test]
fn f64_lanes_give_the_bits_of_execute_vop3_on_every_target() {
    compare_with_execute::<u64>(&mut Rng(0x6400), 24);
}

/// Rows of tests/captures/hw-public.tsv, as lane arrays: the expected bits
/// are the hardware's.
#[test]
fn public_hardware_rows_through_lanes() {
    let none = LaneMods::default();
    let gfx1201 = Target::Gfx1201;
    // v_fract_f32 under 0x30, 0xfc, 0xf0: -tiny, a negative value rounded
    // toward zero, +infinity.
    let mut d = [0u32; 1];
    lanes::fract(gfx1201, 0x30, none, &[0x8000_0001u32], &mut d).unwrap();
    assert_eq!(d, [0x3f7f_ffff]);
    lanes::fract(gfx1201, 0xfc, none, &[0xb7cb_b5fdu32], &mut d).unwrap();
    assert_eq!(d, [0x3f7f_fe69]);
    lanes::fract(gfx1201, 0xf0, none, &[0x7f80_0000u32], &mut d).unwrap();
    assert_eq!(d, [0xffc0_0000]);
    // v_fract_f32_e64 clamp of an sNaN: +0 on gfx1201.
    let clamp = LaneMods {
        clamp: true,
        ..none
    };
    lanes::fract(gfx1201, 0xf0, clamp, &[0x7f80_0001u32], &mut d).unwrap();
    assert_eq!(d, [0]);
    // v_fract_f16_e64 -x and mul:2.
    let mut h = [0u16; 1];
    let neg = LaneMods { neg: true, ..none };
    lanes::fract(gfx1201, 0xf0, neg, &[0x0001u16], &mut h).unwrap();
    assert_eq!(h, [0x3bff]);
    let mul2 = LaneMods {
        omod: Omod::Mul2,
        ..none
    };
    lanes::fract(gfx1201, 0xf0, mul2, &[0x8001u16], &mut h).unwrap();
    assert_eq!(h, [0x3fff]);
    // v_fract_f64 under 0xfc and with mul:2.
    let mut q = [0u64; 1];
    lanes::fract(gfx1201, 0xfc, none, &[0xbce2_54ae_32fc_7a4fu64], &mut q).unwrap();
    assert_eq!(q, [0x3fef_ffff_ffff_ffed]);
    lanes::fract(gfx1201, 0xf0, mul2, &[0x8000_0000_0000_0001u64], &mut q).unwrap();
    assert_eq!(q, [0x3fff_ffff_ffff_ffff]);
    // v_ldexp_f16: the exponent register 0x5a5affff is -1 (bits 15:0 as i16).
    lanes::ldexp(
        gfx1201,
        0xf0,
        none,
        &[0x0401u16],
        &[0x5a5a_ffff_u32 as i32],
        &mut h,
    )
    .unwrap();
    assert_eq!(h, [0x0200]);
}

#[test]
fn lengths_are_checked_and_zero_lanes_are_fine() {
    let t = Target::Gfx1100;
    let m = LaneMods::default();
    let mut d = [0u32; 2];
    let e = lanes::fract(t, 0xf0, m, &[0u32; 3], &mut d).unwrap_err();
    assert!(
        matches!(e, ExecError::InvalidOperand { operand: "dst", .. }),
        "{e}"
    );
    let e = lanes::ldexp(t, 0xf0, m, &[0u32; 2], &[0], &mut d).unwrap_err();
    assert!(
        matches!(
            e,
            ExecError::InvalidOperand {
                operand: "src1",
                ..
            }
        ),
        "{e}"
    );
    let mut big = [0u16; 65];
    let e = lanes::fract_exec(t, 0xf0, m, &[u64::MAX], &[0u16; 65], &mut big).unwrap_err();
    assert!(
        matches!(
            e,
            ExecError::InvalidOperand {
                operand: "exec",
                ..
            }
        ),
        "{e}"
    );
    lanes::fract::<u64>(t, 0xf0, m, &[], &mut []).unwrap();
    lanes::ldexp::<u16>(t, 0xf0, m, &[], &[], &mut []).unwrap();
    lanes::fract_exec::<u32>(t, 0xf0, m, &[], &[], &mut []).unwrap();
}

/// The lanes run through the dispatched whole-wave kernels, not a per-lane
/// loop, unless the scalar path is forced.
#[test]
fn lanes_run_on_the_dispatched_path() {
    let mut d = [0u32; 100];
    lanes::fract(
        Target::Gfx1201,
        0xf0,
        LaneMods::default(),
        &[0x3fc0_0000u32; 100],
        &mut d,
    )
    .unwrap();
    assert_eq!(d, [0x3f00_0000; 100]);
    let want = match kernels::kernel_path() {
        kernels::KernelPath::Simd => Variant::Simd(kernels::dispatch::selected()),
        kernels::KernelPath::Scalar => Variant::Scalar,
    };
    assert_eq!(kernels::last_variant(), Some(want));
}
