//! `tests/captures/dpp-spec.tsv`: DPP rows whose expected values were
//! derived from docs/semantics.md §11 (not hardware).
//!
//! `replay_dpp_spec_rows` replays the file as `amdgpu-valu replay` does,
//! through the assembler. `rows_hold_with_a_test_side_dpp_parser` runs every
//! row again with the instruction built by a small parser of the DPP syntax
//! the file uses (written here, for this file only, so a fault of the
//! assembler cannot hide one of execution), and checks every named lane and
//! that every other lane of the destination kept its input.

use amdgpu_valu::capture::{parse_line, prepare_wave, replay_text, Loc};
use amdgpu_valu::{
    execute, Dpp, Dpp16, DppControl, Encoding, Instruction, Omod, Opcode, Operand, Part, Target,
};

const FILE: &str = include_str!("captures/dpp-spec.tsv");

#[test]
fn replay_dpp_spec_rows() {
    let r = replay_text(FILE);
    assert!(r.failed == 0, "{}", r.failures.join("\n"));
    assert!(r.passed >= 50, "{} rows", r.passed);
}

fn num(s: &str) -> u32 {
    match s.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).expect("hex"),
        None => s.parse().expect("number"),
    }
}

fn list(s: &str) -> Vec<u8> {
    s.trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|v| v.parse().expect("selector"))
        .collect()
}

/// `vN`, `vN.l`, `vN.h`, `v[N:M]`, with `-` and `|..|`: the operand, ABS, NEG.
fn operand(s: &str) -> (Operand, bool, bool) {
    let neg = s.starts_with('-');
    let s = s.trim_start_matches('-');
    let abs = s.starts_with('|');
    let s = s.trim_matches('|');
    let s = s.strip_prefix('v').expect("a VGPR");
    let (index, part) = if let Some(pair) = s.strip_prefix('[') {
        (pair.split(':').next().expect("pair"), Part::Full)
    } else if let Some(n) = s.strip_suffix(".l") {
        (n, Part::Lo)
    } else if let Some(n) = s.strip_suffix(".h") {
        (n, Part::Hi)
    } else {
        (s, Part::Full)
    };
    let index = index.parse().expect("register");
    (Operand::Vgpr { index, part }, abs, neg)
}

/// The DPP instructions of the file.
fn parse(target: Target, text: &str) -> Instruction {
    let (mnemonic, rest) = text.split_once(' ').expect("operands");
    let words: Vec<&str> = rest.split_whitespace().collect();
    let n_ops = words.iter().take_while(|w| w.ends_with(',')).count() + 1;
    let ops: Vec<(Operand, bool, bool)> = words[..n_ops]
        .iter()
        .map(|w| operand(w.trim_end_matches(',')))
        .collect();
    let e64 = mnemonic.contains("_e64");
    let base = mnemonic.trim_end_matches("_dpp").trim_end_matches("_e64");
    let opcode = [
        Opcode::FractF16,
        Opcode::FractF32,
        Opcode::FractF64,
        Opcode::LdexpF16,
        Opcode::LdexpF32,
        Opcode::LdexpF64,
    ]
    .into_iter()
    .find(|o| o.mnemonic() == base)
    .expect("opcode");
    let encoding = match (e64, opcode.is_ldexp()) {
        (true, _) => Encoding::Vop3,
        (false, true) => Encoding::Vop2,
        (false, false) => Encoding::Vop1,
    };
    let mut instr = if opcode.is_ldexp() {
        Instruction::binary(opcode, encoding, ops[0].0, ops[1].0, ops[2].0)
    } else {
        Instruction::unary(opcode, encoding, ops[0].0, ops[1].0)
    };
    instr.src0_mods.abs = ops[1].1;
    instr.src0_mods.neg = ops[1].2;
    let gfx11_plus = target.spec().true16.value;
    let mut d = Dpp16::new(DppControl::Reserved(0x100));
    let mut dpp8 = None;
    for w in &words[n_ops..] {
        let (key, value) = w.split_once(':').unwrap_or((w, ""));
        let k = || num(value) as u8;
        match key {
            "clamp" => instr.clamp = true,
            "mul" if value == "2" => instr.omod = Omod::Mul2,
            "mul" => instr.omod = Omod::Mul4,
            "div" => instr.omod = Omod::Div2,
            "quad_perm" => {
                let s = list(value);
                d.ctrl = DppControl::QuadPerm([s[0], s[1], s[2], s[3]]);
            }
            "row_shl" => d.ctrl = DppControl::RowShl(k()),
            "row_shr" => d.ctrl = DppControl::RowShr(k()),
            "row_ror" => d.ctrl = DppControl::RowRor(k()),
            "wave_shl" => d.ctrl = DppControl::WaveShl,
            "wave_rol" => d.ctrl = DppControl::WaveRol,
            "wave_shr" => d.ctrl = DppControl::WaveShr,
            "wave_ror" => d.ctrl = DppControl::WaveRor,
            "row_mirror" => d.ctrl = DppControl::RowMirror,
            "row_half_mirror" => d.ctrl = DppControl::RowHalfMirror,
            "row_bcast" if value == "15" => d.ctrl = DppControl::RowBcast15,
            "row_bcast" => d.ctrl = DppControl::RowBcast31,
            "row_newbcast" | "row_share" => d.ctrl = DppControl::RowShare(k()),
            "row_xmask" => d.ctrl = DppControl::RowXmask(k()),
            "row_mask" => d.row_mask = k(),
            "bank_mask" => d.bank_mask = k(),
            // bound_ctrl:0 sets BC before GFX11 (docs/semantics.md §11).
            "bound_ctrl" => d.bound_ctrl = !gfx11_plus || k() == 1,
            "fi" => d.fi = k() == 1,
            "dpp8" => {
                let s = list(value);
                dpp8 = Some([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]);
            }
            _ => panic!("{text}: `{w}`"),
        }
    }
    instr.dpp = Some(match dpp8 {
        Some(sel) => Dpp::Dpp8 { sel, fi: d.fi },
        None => Dpp::Dpp16(d),
    });
    instr
}

#[test]
fn rows_hold_with_a_test_side_dpp_parser() {
    let mut rows = 0;
    for (i, line) in FILE.lines().enumerate() {
        let Some(row) = parse_line(i + 1, line).unwrap_or_else(|e| panic!("{e:?}")) else {
            continue;
        };
        let instr = parse(row.target, &row.instruction);
        let mut wave = prepare_wave(row.target, row.mode, &row.inputs).expect("inputs");
        let before = wave.clone();
        execute(row.target, &mut wave, &instr).unwrap_or_else(|e| panic!("{}: {e}", row.text));
        let lanes = wave.lanes();
        // Every named lane holds its value; every other register and lane
        // kept its input.
        let mut want = before.clone();
        for a in &row.expected {
            let lane = a.lane.expect("per-lane expectations");
            match a.loc {
                Loc::Vgpr(r) => want.set_vgpr(usize::from(r), lane, a.value as u32),
                Loc::VgprPair(r) => want.set_vgpr64(usize::from(r), lane, a.value),
                l => panic!("{l}"),
            }
            .expect("in range");
        }
        if wave != want {
            let diff: Vec<String> = (0..amdgpu_valu::NUM_VGPRS)
                .flat_map(|r| (0..lanes).map(move |l| (r, l)))
                .filter(|&(r, l)| wave.vgpr(r, l).ok() != want.vgpr(r, l).ok())
                .take(6)
                .map(|(r, l)| {
                    format!(
                        "v{r}[{l}]: got {:#010x}, want {:#010x}",
                        wave.vgpr(r, l).unwrap_or(0),
                        want.vgpr(r, l).unwrap_or(0)
                    )
                })
                .collect();
            panic!(
                "line {}: {}\n{}",
                row.line,
                row.instruction,
                diff.join("\n")
            );
        }
        rows += 1;
    }
    println!("dpp-spec.tsv: {rows} rows hold");
    assert!(rows >= 50, "{rows}");
}
