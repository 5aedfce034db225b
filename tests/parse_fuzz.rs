//! No input text makes the assembler or the capture reader panic: random
//! token soups and byte strings go through `asm::parse`, `asm::assemble`,
//! `capture::parse_line` and `capture::run_row` on every target.

use amdgpu_valu::capture::{parse_line, run_row};
use amdgpu_valu::{asm, Target};

const TOKENS: &[&str] = &[
    "v_fract_f16",
    "v_fract_f32_e64",
    "v_fract_f64_e32",
    "v_ldexp_f16_sdwa",
    "v_ldexp_f32",
    "v_ldexp_f64_e64",
    "v_ldexp_f16_e32",
    "v0",
    "v255",
    "v256",
    "v1.l",
    "v1.h",
    "v[2:3]",
    "v[3:2]",
    "v[",
    "s4",
    "s[4:5]",
    "s106",
    "vcc",
    "vcc_lo",
    "exec_hi",
    "m0",
    "null",
    ",",
    ", ",
    " ",
    "-",
    "|",
    "abs(",
    "neg(",
    ")",
    "sext(",
    "clamp",
    "mul:2",
    "mul:4",
    "div:2",
    "op_sel:[1,0]",
    "op_sel:[",
    "dst_sel:WORD_1",
    "dst_unused:UNUSED_PAD",
    "src0_sel:BYTE_3",
    "src1_sel:DWORD",
    "0.5",
    "-4.0",
    "1e10",
    "1e400",
    "0x7fffffff",
    "0xffffffffffffffff",
    "-17",
    "64",
    "65",
    "lit(",
    "lit64(",
    "0.15915494",
    "99999999999999999999999",
    ".",
    ":",
    "[",
    "]",
    "\t",
    "é",
];

fn rng(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

const OPERANDS: &[&str] = &[
    "v0",
    "v1",
    "v1.l",
    "v1.h",
    "v0.l",
    "v[2:3]",
    "v[0:1]",
    "v[1:2]",
    "s4",
    "s[4:5]",
    "vcc_lo",
    "vcc",
    "m0",
    "0.5",
    "-4.0",
    "1e10",
    "64",
    "-17",
    "0x7fffffff",
    "|v1|",
    "-v2",
    "abs(v1)",
    "neg(v[2:3])",
    "sext(v2)",
    "-|v1.l|",
    "v255",
    "v256",
    "lit(1.0)",
    "0x3c00",
];
const MODIFIERS: &[&str] = &[
    "",
    " clamp",
    " mul:2",
    " div:2",
    " clamp mul:4",
    " op_sel:[1,0]",
    " op_sel:[0,0,1]",
    " dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_3",
    " dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0",
];

/// Mostly well-formed lines (a mnemonic, 2-3 operands, modifiers) with a
/// random token of junk spliced in now and then.
fn soup(state: &mut u64) -> String {
    let pick = |s: &mut u64, list: &[&str]| list[(rng(s) % list.len() as u64) as usize].to_string();
    let mut s = pick(state, &TOKENS[..7]);
    for i in 0..2 + rng(state) % 2 {
        s.push_str(if i == 0 { " " } else { ", " });
        s.push_str(&pick(state, OPERANDS));
    }
    s.push_str(&pick(state, MODIFIERS));
    if rng(state).is_multiple_of(4) {
        let at = (rng(state) as usize) % (s.len() + 1);
        if s.is_char_boundary(at) {
            s.insert_str(at, &pick(state, TOKENS));
        }
    }
    s
}

#[test]
fn assembler_never_panics() {
    let mut state = 0x2545_f491_4f6c_dd1d;
    let mut assembled = 0;
    for _ in 0..20_000 {
        let text = soup(&mut state);
        for t in Target::ALL {
            let _ = asm::parse(t, &text);
            if let Ok(bytes) = asm::assemble(t, &text) {
                assembled += 1;
                // Whatever assembles decodes back to the same bytes.
                let (instr, len) = asm::decode(t, &bytes).expect("our own bytes decode");
                assert_eq!(len, bytes.len(), "{t} `{text}`");
                assert_eq!(asm::encode(t, &instr).ok(), Some(bytes), "{t} `{text}`");
            }
        }
    }
    // The soup is not all rejected at the first token.
    assert!(assembled > 100, "only {assembled} inputs assembled");
}

#[test]
fn capture_reader_never_panics() {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let assigns = [
        "v0=0x1",
        "v[2:3]=0x3ff0000000000000",
        "exec=0x0",
        "wave=64",
        "v1[63]=0x5",
        "s3=0xffffffff",
        "v0=",
        "=",
        "v300=0x1",
        "v0[99]=0x1",
    ];
    for _ in 0..3_000 {
        let target = ["gfx1201", "gfx908", "gfx1030", "gfx9"][(rng(&mut state) % 4) as usize];
        let mode = ["0xf0", "0x00800000", "0xffffffffff", "f0"][(rng(&mut state) % 4) as usize];
        let pick = |s: &mut u64| assigns[(rng(s) % assigns.len() as u64) as usize];
        let cols = [
            target.to_string(),
            mode.to_string(),
            soup(&mut state),
            format!("{} {}", pick(&mut state), pick(&mut state)),
            pick(&mut state).to_string(),
        ];
        let n = 3 + (rng(&mut state) % 4) as usize;
        let line = cols[..n.min(5)].join("\t");
        if let Ok(Some(row)) = parse_line(1, &line) {
            let _ = run_row(&row);
        }
    }
}

const DPP_MNEMONICS: &[&str] = &[
    "v_fract_f16_dpp",
    "v_fract_f32_e32_dpp",
    "v_fract_f64_dpp",
    "v_ldexp_f16_dpp",
    "v_ldexp_f32_e64_dpp",
    "v_fract_f16_e64_dpp",
    "v_ldexp_f16",
    "v_fract_f32",
];
const DPP_MODIFIERS: &[&str] = &[
    "quad_perm:[3,2,1,0]",
    "quad_perm:[0,1,2,4]",
    "quad_perm:[",
    "row_shl:1",
    "row_shr:15",
    "row_ror:1+2",
    "row_shl:0",
    "wave_shl:1",
    "wave_ror:1",
    "row_mirror",
    "row_half_mirror",
    "row_bcast:15",
    "row_bcast:31",
    "row_newbcast:3",
    "row_share:15",
    "row_xmask:16",
    "dpp8:[7,6,5,4,3,2,1,0]",
    "dpp8:[0,1,2,3,4,5,6,8]",
    "dpp8:[",
    "row_mask:0x5",
    "row_mask:-1",
    "bank_mask:0x10",
    "bank_mask:1.0",
    "bound_ctrl:0",
    "bound_ctrl:1",
    "bound_ctrl:2",
    "fi:1",
    "fi:-3",
    "clamp",
    "div:2",
    "op_sel:[1,1]",
    "99999999999999999999999",
];

/// DPP lines (DPP mnemonics, operands, controls, masks, bound_ctrl, fi in
/// and out of order): no panic, and whatever assembles decodes and
/// re-encodes to the same bytes.
#[test]
fn dpp_lines_never_panic() {
    let mut state = 0x0dd0_f00d_cafe_beef;
    let (mut assembled, mut dpp_assembled) = (0, 0);
    for _ in 0..6_000 {
        fn pick(s: &mut u64, list: &[&'static str]) -> &'static str {
            list[(rng(s) % list.len() as u64) as usize]
        }
        let mut text = pick(&mut state, DPP_MNEMONICS).to_string();
        for i in 0..2 + rng(&mut state) % 2 {
            text.push_str(if i == 0 { " " } else { ", " });
            text.push_str(pick(&mut state, &OPERANDS[..8]));
        }
        // Mostly a control first (the first 18 entries), then anything.
        if !rng(&mut state).is_multiple_of(4) {
            text.push(' ');
            text.push_str(pick(&mut state, &DPP_MODIFIERS[..18]));
        }
        for _ in 0..rng(&mut state) % 3 {
            text.push(' ');
            text.push_str(pick(&mut state, DPP_MODIFIERS));
        }
        for t in Target::ALL {
            let parsed = asm::parse(t, &text);
            if let Ok(bytes) = asm::assemble(t, &text) {
                assembled += 1;
                let (instr, len) = asm::decode(t, &bytes).expect("our own bytes decode");
                assert_eq!(len, bytes.len(), "{t} `{text}`");
                assert!(parsed.is_ok(), "{t} `{text}`");
                dpp_assembled += usize::from(instr.dpp.is_some());
                assert_eq!(asm::encode(t, &instr).ok(), Some(bytes), "{t} `{text}`");
            }
        }
    }
    assert!(
        dpp_assembled > 100,
        "only {dpp_assembled} of {assembled} assembled inputs are DPP"
    );
}
