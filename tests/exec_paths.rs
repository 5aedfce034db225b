//! The executor's two register paths agree: an instruction whose
//! destination overlaps a source (operands copied to the stack first) gives
//! the same registers as the same instruction reading copies of its sources
//! from other registers (operands read in place), on both kernel paths
//! (SIMD and scalar), under partial EXEC, on every target, form and wave
//! size, with register halves, modifiers and uniform operands.

mod common;

use amdgpu_valu::__testing::kernels::{set_kernel_path, KernelPath};
use amdgpu_valu::{
    execute, Encoding, Instruction, Omod, Opcode, Operand, OperationKind, Part, Target, Wave,
    WaveSize,
};
use common::Rng;

/// Registers the tests use: 0..=15 (sources, destinations and their copies).
const REGS: usize = 16;

fn random_wave(t: Target, size: WaveSize, rng: &mut Rng) -> Wave {
    let mut w = Wave::for_target_with_size(t, size).expect("supported size");
    w.set_mode(rng.next() as u32 & 0x0080_03ff);
    let exec = match rng.next() % 3 {
        0 => u64::MAX,
        1 => 0,
        _ => rng.next(),
    };
    w.set_exec(exec);
    for s in 0..8 {
        w.set_sgpr(s, rng.next() as u32).expect("in range");
    }
    for r in 0..REGS {
        for lane in 0..w.lanes() {
            // Mostly small exponents in the low halves, so LDEXP results vary.
            let v = rng.next();
            let v = if rng.next().is_multiple_of(2) {
                (v as u32 & 0xffff_0000) | u32::from((((v >> 40) % 64) as i16 - 32) as u16)
            } else {
                v as u32
            };
            w.set_vgpr(r, lane, v).expect("in range");
        }
    }
    w
}

fn regs(w: &Wave) -> Vec<u32> {
    (0..REGS)
        .flat_map(|r| (0..w.lanes()).map(move |l| w.vgpr(r, l).expect("in range")))
        .collect()
}

fn run(t: Target, w: &Wave, i: &Instruction, path: KernelPath) -> Vec<u32> {
    set_kernel_path(path);
    let mut w = w.clone();
    execute(t, &mut w, i).unwrap_or_else(|e| panic!("{t} {i:?}: {e}"));
    regs(&w)
}

/// The operand `op` moved to register `to` (same half).
fn moved(op: Operand, to: u16) -> Operand {
    match op {
        Operand::Vgpr { part, .. } => Operand::Vgpr { index: to, part },
        other => other,
    }
}

fn vgpr(op: Operand) -> Option<(usize, Part)> {
    match op {
        Operand::Vgpr { index, part } => Some((usize::from(index), part)),
        _ => None,
    }
}

#[test]
fn in_place_and_copied_operands_agree_on_both_paths() {
    let mut rng = Rng(0x00c0_ffee);
    let mut checked = 0;
    for t in Target::ALL {
        let spec = t.spec();
        let true16 = spec.true16.value;
        for form in spec.forms {
            // SDWA elsewhere; only FRACT and LDEXP are executed so far.
            if form.encoding == Encoding::Sdwa
                || !matches!(
                    form.opcode.info().operation,
                    OperationKind::Fract | OperationKind::Ldexp
                )
            {
                continue;
            }
            let op = form.opcode;
            let width = op.format().bits();
            let stride = if width == 64 { 2 } else { 1 };
            for &size in spec.wave_sizes {
                for shape in 0..6 {
                    let half = |hi: bool| {
                        if width == 16 && true16 {
                            if hi {
                                Part::Hi
                            } else {
                                Part::Lo
                            }
                        } else {
                            Part::Full
                        }
                    };
                    let reg = |index: u16, hi: bool| Operand::Vgpr {
                        index,
                        part: half(hi),
                    };
                    let w = random_wave(t, size, &mut rng);
                    let h = rng.next();
                    let dst = reg(4, h & 1 != 0);
                    // shape 0: src0 is dst; 1: LDEXP's src1 is dst; 2: the
                    // F64 pair overlaps (src0 = dst + 1) or dst's other half;
                    // 3: src0 and src1 the same register; 4: src0 a scalar or
                    // constant; 5: nothing shared.
                    let src0 = match shape {
                        0 => reg(4, h & 2 != 0),
                        2 if width == 64 => reg(5, false),
                        2 => reg(4, h & 1 == 0),
                        3 => reg(8, h & 2 != 0),
                        4 => [
                            Operand::s(4),
                            Operand::InlineInt(-3),
                            Operand::Literal(0x3fc0_1234),
                        ][(h >> 8) as usize % 3],
                        _ => reg(8, h & 2 != 0),
                    };
                    let src1 = match shape {
                        1 => reg(4, h & 4 != 0),
                        3 => reg(8, h & 4 != 0),
                        _ => reg(12, h & 4 != 0),
                    };
                    let mut i = if op.is_ldexp() {
                        Instruction::binary(op, form.encoding, dst, src0, src1)
                    } else {
                        Instruction::unary(op, form.encoding, dst, src0)
                    };
                    if form.encoding == Encoding::Vop3 {
                        i.src0_mods.abs = h & 16 != 0;
                        i.src0_mods.neg = h & 32 != 0;
                        i.clamp = h & 64 != 0;
                        i.omod = Omod::from_field((h >> 7) as u32);
                    }
                    if spec.aligned_vgpr_pairs.value && shape == 2 && width == 64 {
                        continue;
                    }
                    // The same instruction reading copies of its VGPR sources
                    // (at 8 + 4k, stride-aligned), nothing shared with dst.
                    let mut w2 = w.clone();
                    let mut i2 = i;
                    for (k, op) in [Some(i.src0), i.src1].into_iter().enumerate() {
                        let Some((from, _)) = op.and_then(vgpr) else {
                            continue;
                        };
                        let op = op.expect("a VGPR");
                        let to = 8 + 4 * k as u16;
                        for r in 0..stride {
                            for lane in 0..w.lanes() {
                                let v = w.vgpr(from + r, lane).expect("in range");
                                w2.set_vgpr(usize::from(to) + r, lane, v).expect("in range");
                            }
                        }
                        if k == 0 {
                            i2.src0 = moved(op, to);
                        } else {
                            i2.src1 = Some(moved(op, to));
                        }
                    }
                    let keep_copies = |mut v: Vec<u32>| {
                        // Compare every register but the copies' scratch (8..16).
                        v.truncate(8 * w.lanes());
                        v
                    };
                    let simd = keep_copies(run(t, &w, &i, KernelPath::Simd));
                    let scalar = keep_copies(run(t, &w, &i, KernelPath::Scalar));
                    let apart = keep_copies(run(t, &w2, &i2, KernelPath::Simd));
                    assert_eq!(simd, scalar, "{t} {size:?} {i:?}: SIMD vs scalar");
                    assert_eq!(simd, apart, "{t} {size:?} {i:?}: shared vs apart");
                    checked += 1;
                }
            }
        }
    }
    set_kernel_path(KernelPath::Simd);
    assert!(checked > 300, "{checked} instructions checked");
}

#[test]
fn f16_exponent_and_sources_read_their_halves() {
    // v1 holds two F16 values and v2 two i16 exponents; every combination of
    // halves, in place (dst = v1) or apart (dst = v0), on gfx1201.
    let t = Target::Gfx1201;
    let mut w = Wave::for_target_with_size(t, WaveSize::Wave64).expect("wave64");
    w.set_mode(0xf0);
    w.set_vgpr_all(1, 0x3c00_4200).expect("in range"); // 1.0 | 3.0
    w.set_vgpr_all(2, 0xfffe_0003).expect("in range"); // -2 | 3
    w.set_exec(0x00ff_00ff_00ff_00ff);
    let part = |hi| if hi { Part::Hi } else { Part::Lo };
    for dst in [0u16, 1] {
        for (s_hi, e_hi, d_hi) in (0..8).map(|b| (b & 1 != 0, b & 2 != 0, b & 4 != 0)) {
            let i = Instruction::binary(
                Opcode::LdexpF16,
                Encoding::Vop3,
                Operand::Vgpr {
                    index: dst,
                    part: part(d_hi),
                },
                Operand::Vgpr {
                    index: 1,
                    part: part(s_hi),
                },
                Operand::Vgpr {
                    index: 2,
                    part: part(e_hi),
                },
            );
            let mut w = w.clone();
            execute(t, &mut w, &i).expect("valid");
            let x: u32 = if s_hi { 0x3c00 } else { 0x4200 };
            let e: i32 = if e_hi { -2 } else { 3 };
            let r = (((x as i32 >> 10) + e) as u32 * 1024) | (x & 0x3ff);
            let old = if dst == 1 { 0x3c00_4200 } else { 0 };
            let want = if d_hi {
                (old & 0xffff) | r << 16
            } else {
                (old & 0xffff_0000) | r
            };
            for lane in 0..64 {
                let active = lane / 8 % 2 == 0;
                let got = w.vgpr(usize::from(dst), lane).expect("in range");
                assert_eq!(
                    got,
                    if active { want } else { old },
                    "dst v{dst} src hi {s_hi} exp hi {e_hi} dst hi {d_hi} lane {lane}"
                );
            }
        }
    }
}
