//! `execute` of random arithmetic instructions against the independent
//! reference (`tests/reference/arith.rs`, on APFloat): every operation,
//! format, form (VOP2, VOP3, SDWA, DPP16, DPP8, VOP3 DPP), source kind
//! (VGPR, half, scalar, inline constant, literal, K), modifier, MODE,
//! EXEC, wave size and target. The expected register words are computed
//! here: the operands read by this file's own rules (docs/semantics.md
//! §3, §7, §11, §12), each lane's result by the reference, and the write
//! (register half per family, SDWA merge, pair, EXEC) again here.

mod common;
mod reference;

use amdgpu_valu::__testing::kernels::{F16, F32, F64};
use amdgpu_valu::explain::explain;
use amdgpu_valu::{
    execute, Dpp, Dpp16, DppControl, DstUnused, Encoding, FloatConst, FormatKind, Instruction,
    Omod, Opcode, Operand, OperationKind, Part, Sdwa, SdwaSel, SnanPolicy, SrcMods, Target, Wave,
    WaveSize,
};
use common::Rng;
use reference::arith::{ref_arith, ArithFormat, ArithRefMods, RefOp};
use reference::TargetKind;

const CASES: usize = 20_000;

/// The reference operation of an opcode (FMAC, FMAMK, FMAAK are FMA).
fn ref_op(kind: OperationKind) -> Option<RefOp> {
    Some(match kind {
        OperationKind::Add => RefOp::Add,
        OperationKind::Sub => RefOp::Sub,
        OperationKind::Subrev => RefOp::Subrev,
        OperationKind::Mul => RefOp::Mul,
        OperationKind::Fma | OperationKind::Fmac | OperationKind::Fmamk | OperationKind::Fmaak => {
            RefOp::Fma
        }
        _ => return None,
    })
}

fn width(f: FormatKind) -> u32 {
    match f {
        FormatKind::F16 => 16,
        FormatKind::F32 => 32,
        FormatKind::F64 => 64,
    }
}

/// A float encoding of `bits` width, biased toward the interesting ones:
/// zeros, subnormals, the extremes of the exponent, infinities and NaNs.
fn float(r: &mut Rng, bits: u32) -> u64 {
    let (exp_bits, man_bits) = match bits {
        16 => (5, 10),
        32 => (8, 23),
        _ => (11, 52),
    };
    let max_exp = (1u64 << exp_bits) - 1;
    let bias = max_exp >> 1;
    let exp = match r.below(8) {
        0 => 0,
        1 => max_exp,
        2 => 1,
        3 => max_exp - 1,
        4 | 5 => (bias as i64 + r.range(-3, 3)) as u64,
        _ => r.below(max_exp + 1),
    };
    let man_mask = (1u64 << man_bits) - 1;
    let man = match r.below(5) {
        0 => 0,
        1 => man_mask,
        2 => 1,
        _ => r.next() & man_mask,
    };
    let sign = r.below(2) << (bits - 1);
    sign | exp << man_bits | man
}

/// The encoding of an inline float constant in `f` (hardware values).
fn inline_float(c: FloatConst, f: FormatKind) -> u64 {
    let (h, s, d): (u64, u64, u64) = match c {
        FloatConst::Half => (0x3800, 0x3f00_0000, 0x3fe0_0000_0000_0000),
        FloatConst::NegHalf => (0xb800, 0xbf00_0000, 0xbfe0_0000_0000_0000),
        FloatConst::One => (0x3c00, 0x3f80_0000, 0x3ff0_0000_0000_0000),
        FloatConst::NegOne => (0xbc00, 0xbf80_0000, 0xbff0_0000_0000_0000),
        FloatConst::Two => (0x4000, 0x4000_0000, 0x4000_0000_0000_0000),
        FloatConst::NegTwo => (0xc000, 0xc000_0000, 0xc000_0000_0000_0000),
        FloatConst::Four => (0x4400, 0x4080_0000, 0x4010_0000_0000_0000),
        FloatConst::NegFour => (0xc400, 0xc080_0000, 0xc010_0000_0000_0000),
        FloatConst::InvTwoPi => (0x3118, 0x3e22_f983, 0x3fc4_5f30_6dc9_c882),
    };
    match f {
        FormatKind::F16 => h,
        FormatKind::F32 => s,
        FormatKind::F64 => d,
    }
}

fn true16(t: Target) -> bool {
    matches!(
        t,
        Target::Gfx1100 | Target::Gfx1150 | Target::Gfx1201 | Target::Gfx1250
    )
}

fn gfx9(t: Target) -> bool {
    matches!(
        t,
        Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950
    )
}

/// A form of `op` on `t`: the encoding and DPP (None, DPP16, DPP8).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    Plain(Encoding),
    Dpp(Encoding, bool),
}

fn forms(t: Target, op: Opcode) -> Vec<Form> {
    let spec = t.spec();
    let mut out = Vec::new();
    for enc in [Encoding::Vop2, Encoding::Vop3, Encoding::Sdwa] {
        if spec.has_form(op, enc) {
            out.push(Form::Plain(enc));
        }
    }
    // F64 DPP takes only its own controls: left to the DPP tests.
    if op.format() != FormatKind::F64 {
        for enc in [Encoding::Vop2, Encoding::Vop3] {
            for dpp8 in [false, true] {
                if spec.has_dpp_form(op, enc, dpp8) {
                    out.push(Form::Dpp(enc, dpp8));
                }
            }
        }
    }
    out
}

/// One random case: the instruction, the wave before, and the wave the
/// reference expects after.
struct Case {
    target: Target,
    instr: Instruction,
    before: Wave,
    expected: Vec<[u32; 2]>,
    /// Each written lane's reference result (before the write's placement).
    results: Vec<Option<u64>>,
    dst: usize,
}

/// The source lane of lane `n` under DPP, or None when not written
/// (quad_perm, row_shr without bound_ctrl, DPP8; every lane active).
fn dpp_source(dpp: Option<Dpp>, n: usize) -> Option<usize> {
    match dpp {
        None => Some(n),
        Some(Dpp::Dpp8 { sel, .. }) => Some(n & !7 | usize::from(sel[n & 7])),
        Some(Dpp::Dpp16(d)) => match d.ctrl {
            DppControl::QuadPerm(p) => Some(n & !3 | usize::from(p[n & 3])),
            DppControl::RowShr(k) => {
                let k = usize::from(k);
                (n % 16 >= k).then(|| n - k)
            }
            other => panic!("not generated: {other:?}"),
        },
    }
}

fn random_case(r: &mut Rng) -> Case {
    let arith: Vec<Opcode> = Opcode::ALL
        .into_iter()
        .filter(|o| ref_op(o.info().operation).is_some())
        .collect();
    loop {
        let t = Target::ALL[r.below(Target::ALL.len() as u64) as usize];
        let op = arith[r.below(arith.len() as u64) as usize];
        let fs = forms(t, op);
        if fs.is_empty() {
            continue;
        }
        let form = fs[r.below(fs.len() as u64) as usize];
        return build(r, t, op, form);
    }
}

fn build(r: &mut Rng, t: Target, op: Opcode, form: Form) -> Case {
    let info = op.info();
    let f = info.format;
    let w = width(f);
    let (enc, dpp) = match form {
        Form::Plain(e) => (e, None),
        Form::Dpp(e, true) => {
            let mut sel = [0u8; 8];
            for s in &mut sel {
                *s = r.below(8) as u8;
            }
            (e, Some(Dpp::Dpp8 { sel, fi: false }))
        }
        Form::Dpp(e, false) => {
            let ctrl = if r.below(2) == 0 {
                let mut p = [0u8; 4];
                for x in &mut p {
                    *x = r.below(4) as u8;
                }
                DppControl::QuadPerm(p)
            } else {
                DppControl::RowShr(r.range(1, 15) as u8)
            };
            (e, Some(Dpp::Dpp16(Dpp16::new(ctrl))))
        }
    };
    let sdwa = enc == Encoding::Sdwa;
    let e64 = enc == Encoding::Vop3;
    let t16 = true16(t) && f == FormatKind::F16;
    // One half for every DPP operand (dpp.mixed_halves); any elsewhere.
    let dpp_part = if r.below(2) == 0 { Part::Lo } else { Part::Hi };
    let part = |r: &mut Rng| {
        if !t16 {
            Part::Full
        } else if dpp.is_some() {
            dpp_part
        } else if r.below(2) == 0 {
            Part::Lo
        } else {
            Part::Hi
        }
    };
    // Registers v0, v2, v4, v6 (pairs for F64): sources and destination
    // collide often.
    let vgpr = |r: &mut Rng| Operand::Vgpr {
        index: 2 * r.below(4) as u16,
        part: part(r),
    };
    let dst = vgpr(r);
    let k_slot = info.k_slot();
    let mut srcs: Vec<Operand> = Vec::new();
    for slot in 0..info.sources.len() {
        let operand = if k_slot == Some(slot) {
            match f {
                FormatKind::F64 if r.below(2) == 0 => Operand::Literal64(float(r, 64)),
                FormatKind::F64 => Operand::Literal((float(r, 64) >> 32) as u32),
                // F16: the literal's bits 31:16 are not K's.
                FormatKind::F16 => Operand::Literal(float(r, 16) as u32 | (r.next() as u32) << 16),
                FormatKind::F32 => Operand::Literal(float(r, 32) as u32),
            }
        } else {
            // A constant or scalar where the form takes one: src0 outside
            // DPP and SDWA, or any source of VOP3.
            let can = !sdwa && dpp.is_none() && (slot == 0 || e64);
            match if can { r.below(8) } else { 7 } {
                0 => Operand::InlineInt(r.range(-16, 64) as i8),
                1 => Operand::InlineFloat(FloatConst::ALL[r.below(9) as usize]),
                2 if k_slot.is_none() => match f {
                    FormatKind::F64 => Operand::Literal((float(r, 64) >> 32) as u32),
                    _ => Operand::Literal(float(r, w) as u32),
                },
                3 => Operand::Scalar {
                    reg: amdgpu_valu::ScalarReg::Sgpr(2 * r.below(4) as u8),
                    part: if t16 { part(r) } else { Part::Full },
                },
                _ => vgpr(r),
            }
        };
        srcs.push(operand);
    }
    let mut instr = Instruction::unary(op, enc, dst, srcs[0]);
    instr.src1 = srcs.get(1).copied();
    instr.src2 = srcs.get(2).copied();
    // Modifiers where the form has them: VOP3 every source; SDWA and e32
    // DPP16 src0 and src1; none on FMAC's implicit D.
    let mods = |r: &mut Rng| SrcMods {
        abs: r.below(3) == 0,
        neg: r.below(3) == 0,
        sext: false,
    };
    let e32_dpp16 = matches!(dpp, Some(Dpp::Dpp16(_))) && enc == Encoding::Vop2;
    if e64 || sdwa || e32_dpp16 {
        for slot in 0..info.sources.len().min(if e64 { 3 } else { 2 }) {
            if k_slot != Some(slot) {
                instr = instr.with_src_mods(slot, mods(r));
            }
        }
    }
    if e64 || sdwa {
        instr.clamp = r.below(4) == 0;
        instr.omod = Omod::from_field(if r.below(2) == 0 {
            0
        } else {
            r.below(4) as u32
        });
    }
    if sdwa {
        let sels = [
            SdwaSel::Word0,
            SdwaSel::Word1,
            SdwaSel::Dword,
            SdwaSel::Byte1,
        ];
        let pick = |r: &mut Rng| sels[r.below(4) as usize];
        // An F16 result with dst_sel DWORD follows an open policy: not here.
        let dst_sels: &[SdwaSel] = if f == FormatKind::F16 {
            &[SdwaSel::Word0, SdwaSel::Word1, SdwaSel::Byte2]
        } else {
            &[
                SdwaSel::Word0,
                SdwaSel::Word1,
                SdwaSel::Dword,
                SdwaSel::Byte0,
            ]
        };
        instr.sdwa = Some(Sdwa {
            dst_sel: dst_sels[r.below(dst_sels.len() as u64) as usize],
            dst_unused: [DstUnused::Pad, DstUnused::Sext, DstUnused::Preserve][r.below(3) as usize],
            src0_sel: pick(r),
            src1_sel: pick(r),
            reserved: 0,
        });
    }
    if let Some(d) = dpp {
        instr = instr.with_dpp(d);
    }

    // The wave: a random size the target runs, MODE, EXEC (every lane
    // under DPP), VGPRs and SGPRs.
    let spec = t.spec();
    let size = if spec.supports_wave(WaveSize::Wave64) && r.below(2) == 0 {
        WaveSize::Wave64
    } else if spec.supports_wave(WaveSize::Wave32) {
        WaveSize::Wave32
    } else {
        WaveSize::Wave64
    };
    let mut wave = Wave::for_target_with_size(t, size).expect("size");
    let lanes = wave.lanes();
    let mode = (r.next() as u32 & 0x3ff) | if r.below(3) == 0 { 1 << 23 } else { 0 };
    wave.set_mode(mode);
    let exec = if dpp.is_some() || r.below(3) == 0 {
        u64::MAX
    } else {
        r.next()
    };
    wave.set_exec(exec);
    for reg in 0..8 {
        for lane in 0..lanes {
            let word = match w {
                16 => (float(r, 16) << 16 | float(r, 16)) as u32,
                32 => float(r, 32) as u32,
                _ if reg % 2 == 0 => float(r, 64) as u32,
                _ => (float(r, 64) >> 32) as u32,
            };
            wave.set_vgpr(reg, lane, word).expect("lane");
        }
    }
    for s in 0..8 {
        let word = match w {
            16 => float(r, 16) as u32 | (r.next() as u32) << 16,
            _ => float(r, 32) as u32,
        };
        wave.set_sgpr(s, word).expect("sgpr");
    }
    let (expected, results) = expect(t, &instr, &wave);
    let Operand::Vgpr { index, .. } = dst else {
        unreachable!()
    };
    Case {
        target: t,
        instr,
        before: wave,
        expected,
        results,
        dst: usize::from(index),
    }
}

/// Lane `lane`'s raw bits of `op` as this file reads them.
fn read(wave: &Wave, f: FormatKind, op: Operand, sel: Option<(SdwaSel, bool)>, lane: usize) -> u64 {
    let w = width(f);
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let field = |v: u32| -> u64 {
        match sel {
            None => u64::from(v),
            Some((s, _)) => {
                let (shift, width) = s.field_bits();
                if width == 32 {
                    u64::from(v)
                } else {
                    u64::from(v >> shift & ((1u32 << width) - 1))
                }
            }
        }
    };
    let half = |v: u64, part: Part| if part == Part::Hi { v >> 16 } else { v };
    match op {
        Operand::Vgpr { index, part } => {
            let i = usize::from(index);
            let lo = wave.vgpr(i, lane).expect("lane");
            if w == 64 {
                u64::from(wave.vgpr(i + 1, lane).expect("lane")) << 32 | u64::from(lo)
            } else {
                half(field(lo), part) & mask
            }
        }
        Operand::Scalar {
            reg: amdgpu_valu::ScalarReg::Sgpr(n),
            part,
        } => {
            let lo = wave.sgpr(usize::from(n)).expect("sgpr");
            if w == 64 {
                u64::from(wave.sgpr(usize::from(n) + 1).expect("sgpr")) << 32 | u64::from(lo)
            } else {
                half(u64::from(lo), part) & mask
            }
        }
        Operand::InlineInt(i) => i as i64 as u64 & mask,
        Operand::InlineFloat(c) => inline_float(c, f),
        Operand::Literal(l) if w == 64 => u64::from(l) << 32,
        Operand::Literal(l) => u64::from(l) & mask,
        Operand::Literal64(l) => l,
        other => panic!("not generated: {other:?}"),
    }
}

/// The reference result of one lane.
fn reference(t: Target, instr: &Instruction, srcs: [u64; 3], mode: u32) -> u64 {
    let info = instr.opcode.info();
    let op = ref_op(info.operation).expect("arithmetic");
    let kind = TargetKind::of(t.name());
    let keep = t.spec().snan.value == SnanPolicy::KeepWhenIeeeOff;
    let m = ArithRefMods {
        abs: [0, 1, 2].map(|s| instr.src_mods(s).abs && !(s == 2 && info.accumulator())),
        neg: [0, 1, 2].map(|s| instr.src_mods(s).neg && !(s == 2 && info.accumulator())),
        omod: instr.omod.field() as u8,
        clamp: instr.clamp,
    };
    fn go<F: ArithFormat>(
        op: RefOp,
        s: [u64; 3],
        mode: u32,
        kind: TargetKind,
        keep: bool,
        m: ArithRefMods,
    ) -> u64 {
        ref_arith::<F>(op, s, mode, kind, keep, m)
    }
    match info.format {
        FormatKind::F16 => go::<F16>(op, srcs, mode, kind, keep, m),
        FormatKind::F32 => go::<F32>(op, srcs, mode, kind, keep, m),
        FormatKind::F64 => go::<F64>(op, srcs, mode, kind, keep, m),
    }
}

/// The destination words (low, high) of every lane after `instr`, and
/// each written lane's result.
fn expect(t: Target, instr: &Instruction, wave: &Wave) -> (Vec<[u32; 2]>, Vec<Option<u64>>) {
    let info = instr.opcode.info();
    let f = info.format;
    let Operand::Vgpr { index, part } = instr.dst else {
        unreachable!()
    };
    let d = usize::from(index);
    let lanes = wave.lanes();
    let old = |lane: usize| {
        [
            wave.vgpr(d, lane).expect("lane"),
            if f == FormatKind::F64 {
                wave.vgpr(d + 1, lane).expect("lane")
            } else {
                0
            },
        ]
    };
    let mut out = Vec::new();
    let mut results = Vec::new();
    for lane in 0..lanes {
        let mut words = old(lane);
        let source_lane = dpp_source(instr.dpp, lane);
        let (Some(from), true) = (source_lane, wave.exec() >> lane & 1 != 0) else {
            out.push(words);
            results.push(None);
            continue;
        };
        let mut srcs = [0u64; 3];
        for (slot, s) in srcs.iter_mut().enumerate().take(info.sources.len().max(2)) {
            let sel = instr.sdwa.and_then(|x| match slot {
                0 => Some((x.src0_sel, false)),
                1 => Some((x.src1_sel, false)),
                _ => None,
            });
            let l = if slot == 0 { from } else { lane };
            *s = match instr.source(slot) {
                Some(op) => read(wave, f, op, sel, l),
                // FMAC's D: the destination itself, this lane, its half.
                None if info.accumulator() && slot == 2 => read(wave, f, instr.dst, None, lane),
                None => 0,
            };
        }
        if info.accumulator() {
            srcs[2] = read(wave, f, instr.dst, None, lane);
        }
        let r = reference(t, instr, srcs, wave.mode().0);
        results.push(Some(r));
        match (f, instr.sdwa) {
            (_, Some(s)) => {
                let (shift, width) = s.dst_sel.field_bits();
                let v = r as u32;
                words[0] = if width == 32 {
                    v
                } else {
                    let fm = ((1u32 << width) - 1) << shift;
                    let placed = (v << shift) & fm;
                    match s.dst_unused {
                        DstUnused::Pad => placed,
                        DstUnused::Preserve => (words[0] & !fm) | placed,
                        DstUnused::Sext => {
                            let top = v >> (width - 1) & 1 != 0;
                            let above = (!0u64 << (shift + width)) as u32;
                            placed | if top { above } else { 0 }
                        }
                    }
                };
            }
            (FormatKind::F64, None) => words = [r as u32, (r >> 32) as u32],
            (FormatKind::F32, None) => words[0] = r as u32,
            (FormatKind::F16, None) => {
                let r = r as u32;
                words[0] = if part == Part::Hi {
                    (words[0] & 0xffff) | r << 16
                } else if gfx9(t) {
                    r
                } else {
                    (words[0] & 0xffff_0000) | r
                };
            }
        }
        out.push(words);
    }
    (out, results)
}

#[test]
fn random_arithmetic_instructions_match_the_reference() {
    let mut r = Rng(0xa817_4e5e_c0de);
    let mut failures = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for n in 0..CASES {
        let case = random_case(&mut r);
        seen.insert((
            case.instr.opcode,
            case.instr.encoding,
            case.instr.dpp.is_some(),
        ));
        let mut wave = case.before.clone();
        if let Err(e) = execute(case.target, &mut wave, &case.instr) {
            failures.push(format!("case {n} {} {:?}: {e}", case.target, case.instr));
            continue;
        }
        // `explain` of the first written lane ends in the reference's result.
        if let Some((lane, &Some(r))) = case.results.iter().enumerate().find(|(_, r)| r.is_some()) {
            match explain(case.target, &case.before, &case.instr, lane) {
                Ok(ex) if ex.result == r => {}
                Ok(ex) => failures.push(format!(
                    "case {n} {} explain lane {lane}: {:#x}, want {r:#x}: {:?}",
                    case.target, ex.result, case.instr
                )),
                Err(e) => failures.push(format!("case {n} explain: {e}")),
            }
        }
        let f64 = case.instr.opcode.format() == FormatKind::F64;
        for (lane, want) in case.expected.iter().enumerate() {
            let got = [
                wave.vgpr(case.dst, lane).expect("lane"),
                if f64 {
                    wave.vgpr(case.dst + 1, lane).expect("lane")
                } else {
                    0
                },
            ];
            if got != *want {
                failures.push(format!(
                    "case {n} {} mode {:#x} lane {lane}: got {got:08x?}, want {want:08x?}: {:?}",
                    case.target,
                    case.before.mode().0,
                    case.instr
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {CASES} failed; first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    // Every opcode in several forms.
    assert!(
        seen.len() > 60,
        "only {} (opcode, encoding, dpp) seen",
        seen.len()
    );
}

/// One case as a capture row (docs/captures.md §1): the instruction as
/// text, every input register lane by lane, and the reference's words in
/// each written lane of the destination. Lanes the instruction does not
/// write are left out: replay then checks they kept their input.
fn capture_row(case: &Case) -> String {
    let w = &case.before;
    let mut inputs = vec![
        format!("wave={}", w.lanes()),
        format!("exec={:#x}", w.exec()),
    ];
    for reg in 0..8 {
        for lane in 0..w.lanes() {
            inputs.push(format!(
                "v{reg}[{lane}]={:#010x}",
                w.vgpr(reg, lane).expect("lane")
            ));
        }
    }
    for s in 0..8 {
        inputs.push(format!("s{s}={:#010x}", w.sgpr(s).expect("sgpr")));
    }
    let f64 = case.instr.opcode.format() == FormatKind::F64;
    let d = case.dst;
    let expected: Vec<String> = case
        .expected
        .iter()
        .zip(&case.results)
        .enumerate()
        .filter(|(_, (_, r))| r.is_some())
        .map(|(lane, ([lo, hi], _))| {
            if f64 {
                format!("v[{d}:{}][{lane}]=0x{hi:08x}{lo:08x}", d + 1)
            } else {
                format!("v{d}[{lane}]={lo:#010x}")
            }
        })
        .collect();
    format!(
        "{}\t{:#010x}\t{}\t{}\t{}",
        case.target,
        w.mode().0,
        amdgpu_valu::asm::disassemble(case.target, &case.instr),
        inputs.join(" "),
        expected.join(" ")
    )
}

/// The same random cases (another seed) as capture rows, through the text
/// path `amdgpu-valu replay` takes: the instruction is assembled from its
/// text, the registers are loaded from the assignments, and every register
/// and lane is compared (with the rerun that inverts kept bits). The
/// expected words come from the reference, not from this crate.
#[test]
fn random_arithmetic_rows_replay_as_captures() {
    const ROWS: usize = 3_000;
    let mut r = Rng(0x5eed_ca97_0e5a);
    let mut text = String::new();
    let mut not_text = 0;
    let mut rows = 0;
    let mut seen = std::collections::HashSet::new();
    while rows < ROWS {
        let mut case = random_case(&mut r);
        // An F16 K is bits 15:0 of its literal; the text holds those only.
        if let (Some(slot), FormatKind::F16) = (
            case.instr.opcode.info().k_slot(),
            case.instr.opcode.format(),
        ) {
            if slot == 1 {
                if let Some(Operand::Literal(k)) = case.instr.src1 {
                    case.instr.src1 = Some(Operand::Literal(k & 0xffff));
                }
            } else if let Some(Operand::Literal(k)) = case.instr.src2 {
                case.instr.src2 = Some(Operand::Literal(k & 0xffff));
            }
        }
        let printed = amdgpu_valu::asm::disassemble(case.target, &case.instr);
        // A case machine code cannot hold (a scalar's high half in an e32
        // form, say) or LLVM's syntax cannot write (NEG or ABS on an F64
        // literal, which llvm-mc refuses as text) runs in `execute` only:
        // counted. The text of every other case must mean the same
        // instruction (it may not read back identically: a literal equal
        // to an inline constant prints as that constant, as llvm-mc's does).
        let parsed = amdgpu_valu::asm::parse(case.target, &printed);
        if amdgpu_valu::asm::encode(case.target, &case.instr).is_err() || parsed.is_err() {
            not_text += 1;
            continue;
        }
        seen.insert((
            case.instr.opcode,
            case.instr.encoding,
            case.instr.dpp.is_some(),
        ));
        text.push_str(&capture_row(&case));
        text.push('\n');
        rows += 1;
    }
    let report = amdgpu_valu::capture::replay_text(&text);
    assert_eq!(
        (report.passed, report.failed),
        (ROWS, 0),
        "first failures: {:#?}",
        &report.failures[..report.failures.len().min(3)]
    );
    // About 9% of the generated cases: scalar halves and literals where the
    // form has none, the constant bus, NEG or ABS on an F64 literal.
    assert!(
        not_text * 100 < ROWS * 15,
        "{not_text} cases not writable as text"
    );
    assert!(
        seen.len() > 60,
        "only {} (opcode, encoding, dpp) seen",
        seen.len()
    );
}
