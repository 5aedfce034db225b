//! The arithmetic core's machine-code fixtures (part of `cargo xtask
//! fixtures`, needs `llvm-mc-22`):
//!
//! - `tests/fixtures/arith/<target>.txt`: a few thousand lines of every
//!   form of ADD/SUB/SUBREV/MUL/FMA/FMAC/FMAMK/FMAAK, drawn by a seeded
//!   generator that writes them as a user would (many invalid: wrong
//!   suffixes, operands, modifiers), with LLVM's bytes or error for each,
//!   in the format of `tests/fixtures/encodings/`;
//! - `tests/fixtures/arith_src0/<target>.txt`: LLVM's disassembly of every
//!   e32 and e64 word of these instructions with each 9-bit src0 code.
//!
//! `tests/arith_fixtures.rs` checks the emulator against both without LLVM.

use std::fmt::Write as _;
use std::path::Path;

use std::process::Command;

use super::fixtures::{diagnostics, encodings, fixture_for, llvm_mc, mattr, Target};

/// The seed of the line generator: the committed fixtures are its output.
pub const SEED: u64 = 0x0a21_7418;
/// Lines drawn per target.
pub const LINES: usize = 3000;

/// SplitMix64: the generator's only source of choice.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    pub fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }
}

/// One instruction of the generator: its shape from
/// `isa-spec/instructions/valu.yaml`.
#[derive(Clone, Debug)]
pub struct Shape {
    /// LLVM's mnemonic without suffix.
    pub mnemonic: String,
    /// 16, 32 or 64.
    pub width: u32,
    /// Source operands written in the assembly (FMAC: 2, FMA: 3).
    pub sources: usize,
    /// The slot of FMAMK's/FMAAK's literal K.
    pub k_slot: Option<usize>,
    /// Whether the instruction has an e32 form anywhere.
    pub e32: bool,
}

/// The instructions the generator draws from: every instruction of the
/// set but FRACT and LDEXP (which have their own fixtures), in file order.
pub fn shapes() -> Vec<Shape> {
    use amdgpu_valu_codegen::model::Operation;
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let Ok(model) = amdgpu_valu_codegen::load(&root) else {
        return Vec::new();
    };
    model
        .instructions
        .instructions
        .iter()
        .filter(|i| !matches!(i.operation, Operation::Fract | Operation::Ldexp))
        .map(|i| Shape {
            mnemonic: i.mnemonic().to_string(),
            width: i.width(),
            sources: i.explicit_sources(),
            k_slot: i.k_slot(),
            e32: i.e32.is_some(),
        })
        .collect()
}

const SUFFIXES: &[&str] = &["", "", "", "_e32", "_e64", "_sdwa", "_dpp", "_e64_dpp"];

/// One register-or-constant operand of `width` bits, as a user might
/// write it for `true16` targets or not.
fn operand(r: &mut Rng, width: u32, true16: bool) -> String {
    let v = r.below(11);
    let reg = |r: &mut Rng| -> String {
        let n = match r.below(6) {
            0 => 255,
            1 => 127 + r.below(3),
            _ => r.below(12),
        };
        if width == 64 {
            let n = if r.one_in(4) { n | 1 } else { n & !1 };
            format!("v[{n}:{}]", n + 1)
        } else if width == 16 && ((true16 && !r.one_in(8)) || r.one_in(16)) {
            format!("v{n}.{}", if r.one_in(2) { "h" } else { "l" })
        } else {
            format!("v{n}")
        }
    };
    match v {
        0..=5 => reg(r),
        6 => {
            if width == 64 {
                r.pick(&["s[2:3]", "s[4:5]", "vcc", "exec", "s[3:4]", "ttmp[2:3]"])
                    .to_string()
            } else {
                r.pick(&[
                    "s2", "s3", "s101", "vcc_lo", "m0", "exec_hi", "null", "ttmp1",
                ])
                .to_string()
            }
        }
        7 => r
            .pick(&[
                "0",
                "1",
                "-1",
                "64",
                "-16",
                "65",
                "0.5",
                "-4.0",
                "2.0",
                "0.15915494",
            ])
            .to_string(),
        8 => r
            .pick(&[
                "0x1234",
                "0x3c00",
                "0x3f800000",
                "1.5",
                "-0.1",
                "0x12345678",
                "lit(1)",
                "lit(0x3c00)",
                "0x3ff0000000000001",
                "lit64(0x11)",
                "0xffff",
            ])
            .to_string(),
        _ => {
            let base = reg(r);
            match r.below(4) {
                0 => format!("-{base}"),
                1 => format!("|{base}|"),
                2 => format!("-|{base}|"),
                _ => format!("neg({base})"),
            }
        }
    }
}

fn modifiers(r: &mut Rng, suffix: &str, sources: usize, dpp8: bool) -> String {
    let mut out = String::new();
    if r.one_in(10) {
        let n = sources + 1;
        let bits: Vec<&str> = (0..n)
            .map(|_| if r.one_in(2) { "1" } else { "0" })
            .collect();
        let _ = write!(out, " op_sel:[{}]", bits.join(","));
    }
    let e32ish = suffix == "_e32" || suffix == "_dpp";
    if r.one_in(if e32ish { 16 } else { 6 }) {
        out.push_str(" clamp");
    }
    if r.one_in(if e32ish { 16 } else { 6 }) {
        out.push_str(r.pick(&[" mul:2", " mul:4", " div:2"]));
    }
    let sdwa = suffix == "_sdwa" || (suffix.is_empty() && r.one_in(10));
    if sdwa {
        let sel = ["BYTE_0", "BYTE_3", "WORD_0", "WORD_1", "DWORD"];
        if r.one_in(2) {
            let _ = write!(out, " dst_sel:{}", r.pick(&sel));
        }
        if r.one_in(2) {
            let u = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];
            let _ = write!(out, " dst_unused:{}", r.pick(&u));
        }
        if r.one_in(2) {
            let _ = write!(out, " src0_sel:{}", r.pick(&sel));
        }
        if r.one_in(2) {
            let _ = write!(out, " src1_sel:{}", r.pick(&sel));
        }
    }
    let dpp = suffix.contains("dpp") || (suffix.is_empty() && r.one_in(8));
    if dpp {
        if dpp8 {
            let sel: Vec<String> = (0..8).map(|_| r.below(8).to_string()).collect();
            let _ = write!(out, " dpp8:[{}]", sel.join(","));
            if r.one_in(3) {
                out.push_str(" fi:1");
            }
        } else {
            out.push(' ');
            out.push_str(r.pick(&[
                "quad_perm:[0,1,2,3]",
                "quad_perm:[3,2,1,0]",
                "row_shl:1",
                "row_shr:15",
                "row_ror:4",
                "row_mirror",
                "row_half_mirror",
                "row_bcast:15",
                "row_bcast:31",
                "wave_shl:1",
                "row_share:3",
                "row_xmask:5",
                "row_newbcast:1",
            ]));
            if r.one_in(3) {
                out.push_str(r.pick(&[" row_mask:0x3", " row_mask:0xf bank_mask:0x5"]));
            }
            if r.one_in(3) {
                out.push_str(r.pick(&[" bound_ctrl:0", " bound_ctrl:1"]));
            }
            if r.one_in(4) {
                out.push_str(" fi:1");
            }
        }
    }
    out
}

/// One random line for the instruction `s`.
pub fn line(r: &mut Rng, s: &Shape, true16: bool) -> String {
    let (mnemonic, width) = (s.mnemonic.as_str(), s.width);
    let mk = s.k_slot == Some(1);
    let ak = s.k_slot == Some(2);
    let three = s.sources == 3;
    let suffix = if mk || ak {
        r.pick(&["", "", "", "", "_e32", "_e64", "_dpp"])
    } else {
        r.pick(SUFFIXES)
    };
    let mut sources = if three { 3 } else { 2 };
    // Sometimes a wrong operand count.
    if r.one_in(25) {
        sources = if r.one_in(2) {
            sources - 1
        } else {
            sources + 1
        };
    }
    let mut ops = vec![operand(r, width, true16)];
    // The destination: mostly a plain register.
    if r.one_in(6) {
        ops[0] = operand(r, width, true16);
    } else {
        let n = r.below(16);
        ops[0] = if width == 64 {
            format!("v[{}:{}]", n & !1, (n & !1) + 1)
        } else if width == 16 && true16 {
            format!("v{n}.{}", if r.one_in(3) { "h" } else { "l" })
        } else {
            format!("v{n}")
        };
    }
    for i in 0..sources {
        let k = (mk && i == 1) || (ak && i == 2);
        if k && !r.one_in(6) {
            let lit = r.pick(&[
                "0x1234",
                "0x3c00",
                "1.0",
                "0x3f800000",
                "-2.5",
                "0x11",
                "lit(0x5)",
                "0x3ff0000000000001",
                "0xfff",
            ]);
            ops.push(lit.to_string());
        } else {
            ops.push(operand(r, width, true16));
        }
    }
    let dpp8 = r.one_in(3);
    let mods = modifiers(r, suffix, if three { 3 } else { 2 }, dpp8);
    let upper = r.one_in(30);
    let name = format!("{mnemonic}{suffix}");
    let name = if upper { name.to_uppercase() } else { name };
    format!("{name} {}{mods}", ops.join(", "))
}

/// Directed lines first: the facts of the forms table (docs/semantics.md
/// §1) that a random draw may miss.
const DIRECTED: &[&str] = &[
    "v_add_f32 v0, v1, v2",
    "v_add_f32 v0, s1, v2",
    "v_add_f32 v0, v1, s2",
    "v_add_f64 v[0:1], v[2:3], v[4:5]",
    "v_add_f64 v[0:1], 0x3ff0000000000001, v[4:5]",
    "v_add_f64_e32 v[0:1], v[2:3], v[4:5]",
    "v_mul_f64 v[1:2], v[2:3], v[4:5]",
    "v_fma_f32 v0, v1, v2, v3",
    "v_fma_f32 v0, s1, s2, v3",
    "v_fma_f32 v0, s1, s2, s3",
    "v_fma_f32 v0, 0x1234, v2, 0x1234",
    "v_fma_f32 v0, 0x1234, v2, 0x1235",
    "v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0,1]",
    "v_fma_f16 v0, v1, v2, v3 op_sel:[0,1,1,0]",
    "v_fma_f16 v0.h, v1.l, v2.h, v3.l",
    "v_fma_f32_e64_dpp v0, v1, v2, v3 row_shl:1",
    "v_fma_f32_e64_dpp v0, v1, s2, v3 row_shl:1",
    "v_fma_f16_e64_dpp v0.h, v1.l, v2.l, v3.h dpp8:[7,6,5,4,3,2,1,0]",
    "v_fmac_f32 v0, v1, v2",
    "v_fmac_f32_e64 v0, -v1, |v2| clamp mul:2",
    "v_fmac_f16_e64 v1.h, v2.l, v3.l",
    "v_fmac_f16_e64 v1, v2, v3 op_sel:[0,0,0,1]",
    "v_fmac_f32_dpp v0, v1, v2 row_shl:1",
    "v_fmac_f64 v[0:1], v[2:3], v[4:5]",
    "v_fmac_f64_dpp v[0:1], v[2:3], v[4:5] row_newbcast:1",
    "v_fmac_f64_dpp v[0:1], v[2:3], v[4:5] row_shl:1",
    "v_fmamk_f32 v0, v1, 0x1234, v2",
    "v_fmamk_f32 v0, s1, 0x1234, v2",
    "v_fmamk_f32 v0, 0x1234, 0x1234, v2",
    "v_fmamk_f32 v0, 0x1234, 0x1235, v2",
    "v_fmaak_f16 v0, v1, v2, 0x3c00",
    "v_fmaak_f16 v0.h, v1.l, v2.h, 0x3c00",
    "v_fmamk_f64 v[0:1], v[2:3], 0x3ff0000000000001, v[4:5]",
    "v_fmaak_f64 v[0:1], v[2:3], v[4:5], 1.0",
    "v_mul_f16_sdwa v0, -v1, |v2| src0_sel:WORD_1 src1_sel:BYTE_1",
    "v_mul_f16_sdwa v0, v1, sext(v2)",
    "v_sub_f32_sdwa v0, s1, v2 clamp div:2 dst_sel:WORD_0 dst_unused:UNUSED_PAD",
    "v_subrev_f16_dpp v0, -v1, |v2| quad_perm:[0,1,2,3] row_mask:0x1",
    "v_add_f16_e64_dpp v0.l, v1.h, 1.0 row_shl:1",
    "v_add_f16_e64_dpp v0.l, v1.h, s2 dpp8:[0,1,2,3,4,5,6,7]",
    "v_add_f32 v0, v1, v2 dpp8:[0,1,2,3,4,5,6,7] fi:1",
    "v_mac_f32 v0, v1, v2",
    "v_fma_mix_f32 v0, v1, v2, v3",
];

/// The lines of one target's fixture: the directed lines, then `LINES`
/// draws.
pub fn lines(true16: bool) -> Vec<String> {
    let mut r = Rng(SEED ^ u64::from(true16));
    let shapes = shapes();
    DIRECTED
        .iter()
        .map(|l| l.to_string())
        .chain((0..LINES).filter_map(|_| {
            let s = shapes.get(r.below(shapes.len()))?;
            Some(line(&mut r, s, true16))
        }))
        .collect()
}

const HEADER: &str = "\
# Random lines of the arithmetic instructions (ADD/SUB/SUBREV/MUL/FMA/FMAC/
# FMAMK/FMAAK) as LLVM's assembler sees them, for one target. Generated by
# `cargo xtask fixtures` (xtask/src/arith_fixtures.rs, a seeded generator
# writing lines as a user would); do not edit by hand. Format as in
# tests/fixtures/encodings/:
#   ok <TAB> input <TAB> bytes <TAB> asm text <TAB> disasm text [<TAB> warning]
#   err <TAB> input <TAB> column <TAB> message
";

const SRC0_HEADER: &str = "\
# LLVM's disassembly of every e32 and e64 word of the arithmetic
# instructions with each 9-bit src0 code, for one target. Generated by
# `cargo xtask fixtures`; do not edit by hand. One line per word:
#   bytes <TAB> LLVM's text (`<invalid>` when it refuses the word)
# Words: VOP2 with vdst v1 (v[2:3] for F64), vsrc1 v3 (v[4:5]); VOP3 with
# src1 v3 (v[4:5]), src2 v5 (v[6:7]) where the instruction has src2; a
# literal dword 0x3f800000 (8 bytes 0x3ff0000000000001 for code 254) after
# the word where src0 is 255 (254), and FMAMK/FMAAK's K.
";

/// `cargo xtask arith-fixtures`: only these fixtures, every target.
pub fn main() -> std::process::ExitCode {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let run = || -> Result<(), String> {
        let model = amdgpu_valu_codegen::load(&root).map_err(|e| e.to_string())?;
        let work = std::env::temp_dir().join(format!("amdgpu-valu-arith-{}", std::process::id()));
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        for t in &model.targets {
            let target = Target {
                name: t.target.as_str(),
                true16: t.spec.true16.value,
            };
            write(&root, target, &work)?;
        }
        let _ = std::fs::remove_dir_all(&work);
        Ok(())
    };
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask arith-fixtures: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Write both arithmetic fixtures of `target` under `root`.
pub fn write(root: &Path, target: Target<'_>, work: &Path) -> Result<(), String> {
    let lines = lines(target.true16);
    let out = fixture_for(target, &lines, work, HEADER)?;
    let dir = root.join("tests/fixtures/arith");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{target}.txt"));
    std::fs::write(&path, &out.text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{target}: arithmetic: {} lines, {} accepted, {} rejected -> {}",
        lines.len(),
        out.accepted,
        out.rejected,
        path.display()
    );
    src0_sweep(root, target, work)
}

/// The base forms of the sweep: e32 and e64 of each instruction.
fn base_lines() -> Vec<String> {
    let mut out = Vec::new();
    for s in shapes() {
        let m = &s.mnemonic;
        let (d, a, b, c, k) = match s.width {
            64 => ("v[2:3]", "v[0:1]", "v[4:5]", "v[6:7]", "0x3ff0000000000001"),
            16 => ("v1", "v0", "v3", "v5", "0x3c01"),
            _ => ("v1", "v0", "v3", "v5", "0x3f800001"),
        };
        match (s.k_slot, s.sources) {
            (Some(1), _) => out.push(format!("{m} {d}, {a}, {k}, {b}")),
            (Some(_), _) => out.push(format!("{m} {d}, {a}, {b}, {k}")),
            (None, 3) => out.push(format!("{m} {d}, {a}, {b}, {c}")),
            _ if !s.e32 => out.push(format!("{m} {d}, {a}, {b}")),
            _ => {
                out.push(format!("{m}_e32 {d}, {a}, {b}"));
                out.push(format!("{m}_e64 {d}, {a}, {b}"));
            }
        }
    }
    out
}

fn hex_bytes(s: &str) -> Vec<u8> {
    s.split(',')
        .filter_map(|x| u8::from_str_radix(x.trim().trim_start_matches("0x"), 16).ok())
        .collect()
}

/// `tests/fixtures/arith_src0/<target>.txt`.
fn src0_sweep(root: &Path, target: Target<'_>, work: &Path) -> Result<(), String> {
    let base = base_lines();
    let src = work.join(format!("{target}-arith-forms.s"));
    std::fs::write(&src, base.join("\n") + "\n").map_err(|e| e.to_string())?;
    let (stdout, stderr) = llvm_mc(target, &[], &src)?;
    let diags = diagnostics(&stderr, &src);
    let mut encs = encodings(&stdout).into_iter();
    let mut inputs = Vec::new();
    for (i, l) in base.iter().enumerate() {
        if diags
            .get(&(i + 1))
            .is_some_and(|d| d.iter().any(|x| x.0 == "error"))
        {
            continue;
        }
        let Some((_, bytes)) = encs.next() else {
            return Err(format!("{target}: encodings ran short"));
        };
        let bytes = hex_bytes(&bytes);
        let vop3 = bytes.len() >= 8
            && matches!(
                u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) >> 26,
                0x34 | 0x35
            );
        let words = if vop3 { 8 } else { 4 };
        let (head, k) = bytes.split_at(words.min(bytes.len()));
        let wide = l.contains("f64");
        for code in 0..512u32 {
            if matches!(code, 0xe9 | 0xea | 0xfa) || (!vop3 && code == 0xf9) {
                continue;
            }
            let mut b = head.to_vec();
            let at = words - 4;
            let w = u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
            b[at..at + 4].copy_from_slice(&((w & !0x1ff) | code).to_le_bytes());
            if !k.is_empty() {
                // FMAMK/FMAAK: the K, which a literal src0 shares.
                b.extend(k);
            } else if code == 255 {
                b.extend(0x3f80_0000u32.to_le_bytes());
            } else if code == 254 && wide {
                b.extend(0x3ff0_0000_0000_0001u64.to_le_bytes());
            }
            inputs.push(b);
        }
    }
    let texts: Vec<String> = inputs
        .iter()
        .map(|b| {
            let hex: Vec<String> = b.iter().map(|x| format!("{x:#04x}")).collect();
            format!("[{}]", hex.join(","))
        })
        .collect();
    let dis = disassemble_each(target, &texts, &inputs, work)?;
    let mut text = String::from(SRC0_HEADER);
    let _ = writeln!(text, "# target: {target}");
    for (b, d) in texts.iter().zip(&dis) {
        let _ = writeln!(text, "{b}\t{d}");
    }
    let dir = root.join("tests/fixtures/arith_src0");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{target}.txt"));
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    let invalid = dis.iter().filter(|t| t.starts_with('<')).count();
    println!(
        "{target}: arithmetic src0 sweep: {} words, {invalid} refused -> {}",
        inputs.len(),
        path.display()
    );
    Ok(())
}

/// LLVM's disassembly of the first instruction of each input line: its
/// text only when it consumed the whole line, else `<invalid>` (refused,
/// or the line decodes as more than one instruction). Lines go in batches
/// of one process each; outputs and diagnostics are matched to lines by
/// the bytes each consumed.
fn disassemble_each(
    target: Target<'_>,
    texts: &[String],
    bytes: &[Vec<u8>],
    work: &Path,
) -> Result<Vec<String>, String> {
    const BATCH: usize = 512;
    let mut out = Vec::with_capacity(texts.len());
    for (chunk, raw) in texts.chunks(BATCH).zip(bytes.chunks(BATCH)) {
        out.extend(batch(target, chunk, raw, work)?);
    }
    Ok(out)
}

/// One batch; a batch llvm-mc crashes on is split in halves, and a single
/// line it crashes on is `<llvm-crash>`.
fn batch(
    target: Target<'_>,
    chunk: &[String],
    raw: &[Vec<u8>],
    work: &Path,
) -> Result<Vec<String>, String> {
    let file = work.join(format!("{target}-arith-sweep.bytes"));
    std::fs::write(&file, chunk.join("\n") + "\n").map_err(|e| e.to_string())?;
    let mut cmd = Command::new("llvm-mc-22");
    cmd.arg("-arch=amdgcn").arg(format!("-mcpu={target}"));
    if let Some(m) = mattr(target) {
        cmd.arg(m);
    }
    cmd.args(["--disassemble", "-show-encoding"]).arg(&file);
    let o = cmd
        .output()
        .map_err(|e| format!("cannot run llvm-mc-22: {e}"))?;
    let crashed = !matches!(o.status.code(), Some(0 | 1));
    let parsed = if crashed {
        None
    } else {
        match_lines(&o, &file, raw)
    };
    if let Some(p) = parsed {
        return Ok(p);
    }
    {
        if chunk.len() == 1 {
            let why = if crashed { "<llvm-crash>" } else { "<invalid>" };
            return Ok(vec![why.to_string()]);
        }
        let mid = chunk.len() / 2;
        let mut a = batch(target, &chunk[..mid], &raw[..mid], work)?;
        a.extend(batch(target, &chunk[mid..], &raw[mid..], work)?);
        Ok(a)
    }
}

/// The first instruction of each line, or `None` when LLVM's output
/// cannot be matched to the lines.
fn match_lines(o: &std::process::Output, file: &Path, raw: &[Vec<u8>]) -> Option<Vec<String>> {
    let diags = diagnostics(&String::from_utf8_lossy(&o.stderr), file);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let mut encs = encodings(&stdout).into_iter();
    let mut out = Vec::with_capacity(raw.len());
    for (i, b) in raw.iter().enumerate() {
        // Invalid words (4 bytes skipped each) by their column: each byte
        // is written as `0x..,` (5 columns) after the `[`.
        let bad: Vec<usize> = diags
            .get(&(i + 1))
            .map(|d| d.iter().map(|x| x.1.saturating_sub(2) / 5).collect())
            .unwrap_or_default();
        let mut at = 0;
        let mut first: Option<String> = None;
        while at < b.len() {
            if bad.contains(&at) {
                first.get_or_insert_with(|| "<invalid>".to_string());
                at += 4;
                continue;
            }
            let (text, enc) = encs.next()?;
            let len = hex_bytes(&enc).len().max(4);
            if at == 0 && len == b.len() {
                first = Some(text);
            } else {
                first = Some("<invalid>".to_string());
            }
            at += len;
        }
        out.push(first.unwrap_or_else(|| "<invalid>".to_string()));
    }
    encs.next().is_none().then_some(out)
}

#[cfg(test)]
mod tests {
    /// The committed fixtures were written from these lines (a change to
    /// the generator needs `cargo xtask fixtures`).
    #[test]
    fn lines_are_the_inputs_of_the_checked_in_arith_fixtures() {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let model = amdgpu_valu_codegen::load(&root).unwrap_or_else(|e| panic!("{e}"));
        for t in &model.targets {
            let path = root.join(format!("tests/fixtures/arith/{}.txt", t.target));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let inputs: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| l.split('\t').nth(1))
                .collect();
            assert_eq!(
                inputs,
                super::lines(t.spec.true16.value),
                "{}",
                path.display()
            );
        }
    }
}
