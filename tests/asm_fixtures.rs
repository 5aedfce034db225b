//! Every line of `tests/fixtures/encodings/<target>.txt` and of
//! `tests/fixtures/arith/<target>.txt` (the arithmetic instructions: a few
//! thousand random lines written as a user would, many invalid) (LLVM's
//! answers, written by `cargo xtask fixtures`): the assembler gives LLVM's bytes or
//! rejects what LLVM rejects, decoding gives LLVM's disassembly text, and
//! text -> bytes -> text -> bytes is a fixed point.

use amdgpu_valu::asm::{assemble, decode, disassemble};
use amdgpu_valu::Target;

struct Line<'a> {
    n: usize,
    ok: bool,
    input: &'a str,
    /// ok: bytes; err: column.
    a: &'a str,
    /// ok: LLVM's asm text; err: message.
    b: &'a str,
    /// ok: LLVM's disassembly.
    dis: &'a str,
    /// ok: LLVM's warning, if any.
    warn: &'a str,
}

fn fixture(dir: &str, target: Target) -> String {
    let path = format!(
        "{}/tests/fixtures/{dir}/{}.txt",
        env!("CARGO_MANIFEST_DIR"),
        target.name()
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 4, "line {}: malformed fixture line", i + 1);
            Line {
                n: i + 1,
                ok: f[0] == "ok",
                input: f[1],
                a: f[2],
                b: f[3],
                dis: f.get(4).copied().unwrap_or(""),
                warn: f.get(5).copied().unwrap_or(""),
            }
        })
        .collect()
}

fn parse_bytes(s: &str) -> Option<Vec<u8>> {
    s.split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:#04x}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Where this crate knowingly differs from llvm-mc-22 (each entry is
/// checked to still differ, so the list cannot go stale).
fn known_deviation(target: Target, l: &Line<'_>) -> Option<&'static str> {
    let gfx9 = matches!(
        target,
        Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950
    );
    if gfx9 && l.ok && l.input.contains("lit(") && l.dis == "<llvm-crash>" {
        return Some("LLVM puts lit() in a GFX9 VOP3 (which has no literal) and drops the literal dword; its own disassembler then crashes");
    }
    if l.ok
        && l.b
            .contains("/*Invalid register, operand has 'VGPR_32' register class*/")
    {
        return Some("LLVM takes a register pair as the 32-bit src0 of a DPP form (the DP ALU DPP operand class) and encodes its first register");
    }
    let base = l.input.split(' ').next().unwrap_or("").to_ascii_lowercase();
    let base = ["_e64_dpp", "_e32", "_e64", "_sdwa", "_dpp"]
        .iter()
        .find_map(|s| base.strip_suffix(s))
        .unwrap_or(&base)
        .to_string();
    if l.ok
        && amdgpu_valu::NOT_MODELLED.iter().any(|g| {
            g.names.contains(&base.as_str()) || g.prefixes.iter().any(|p| base.starts_with(p))
        })
    {
        return Some("not modelled: refused by name with the reason");
    }
    if l.ok && two_literals(l.b) {
        return Some("LLVM takes two different literal values (one from lit()/lit64() or FMAMK/FMAAK's K) and encodes one of them for both; refused as \"only one unique literal operand is allowed\"");
    }
    if l.ok && op_sel_on_constant(l.b) {
        return Some("LLVM sets an op_sel bit on a constant or scalar source that has no half to select; refused");
    }
    if l.ok && l.a.contains('A') {
        return Some(
            "LLVM takes an unknown name as a symbol (relocation); symbols are not supported",
        );
    }
    None
}

#[test]
fn fixtures_match_llvm() {
    check_fixtures("encodings");
}

/// The random arithmetic lines: 0 differences in bytes, in what is
/// rejected, and in disassembly.
#[test]
fn arithmetic_fixtures_match_llvm() {
    check_fixtures("arith");
}

fn check_fixtures(dir: &str) {
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for target in Target::ALL {
        let text = fixture(dir, target);
        let (mut ok, mut err, mut dev, mut same_col) = (0, 0, 0, 0);
        let (mut dpp_err, mut dpp_same_col) = (0, 0);
        for l in lines(&text) {
            let got = assemble(target, l.input);
            if let Some(why) = known_deviation(target, &l) {
                dev += 1;
                let differs = match (&got, l.ok) {
                    (Ok(b), true) => parse_bytes(l.a).as_deref() != Some(b.as_slice()),
                    (Err(_), true) => true,
                    (Ok(_), false) => true,
                    (Err(_), false) => false,
                };
                if !differs {
                    failures.push(format!(
                        "{target}:{}: `{}` is listed as a deviation ({why}) but matches LLVM",
                        l.n, l.input
                    ));
                }
                continue;
            }
            if !l.ok {
                err += 1;
                dpp_err += usize::from(is_dpp(l.input));
                if let Err(e) = &got {
                    let same = usize::from(l.a.parse::<usize>() == Ok(e.column));
                    same_col += same;
                    dpp_same_col += same * usize::from(is_dpp(l.input));
                }
                if let Ok(b) = got {
                    failures.push(format!(
                        "{target}:{}: `{}`: LLVM rejects ({}), we give {}",
                        l.n,
                        l.input,
                        l.b,
                        hex(&b)
                    ));
                }
                continue;
            }
            ok += 1;
            let Some(want) = parse_bytes(l.a) else {
                failures.push(format!("{target}:{}: bad bytes {}", l.n, l.a));
                continue;
            };
            match got {
                Ok(b) if b == want => {}
                Ok(b) => failures.push(format!(
                    "{target}:{}: `{}`: LLVM {} ; we {}",
                    l.n,
                    l.input,
                    l.a,
                    hex(&b)
                )),
                Err(e) => failures.push(format!(
                    "{target}:{}: `{}`: LLVM {} ({}); we reject: {e}",
                    l.n, l.input, l.a, l.b
                )),
            }
            if l.dis.starts_with('<') {
                continue;
            }
            match decode(target, &want) {
                Ok((instr, len)) => {
                    if len != want.len() {
                        failures.push(format!(
                            "{target}:{}: `{}`: decoded length {len}, want {}",
                            l.n,
                            l.input,
                            want.len()
                        ));
                    }
                    let text = disassemble(target, &instr);
                    if text != l.dis {
                        failures.push(format!(
                            "{target}:{}: `{}`: disassembly `{text}`, LLVM `{}`",
                            l.n, l.input, l.dis
                        ));
                    }
                    match assemble(target, &text) {
                        Ok(b) if b == want => {}
                        _ if !fixed_point_expected(&l) => {}
                        Ok(b) => failures.push(format!(
                            "{target}:{}: `{text}` reassembles to {} not {}",
                            l.n,
                            hex(&b),
                            l.a
                        )),
                        Err(e) => failures.push(format!(
                            "{target}:{}: `{text}` does not reassemble: {e}",
                            l.n
                        )),
                    }
                }
                Err(e) => failures.push(format!(
                    "{target}:{}: `{}`: decode {}: {e}",
                    l.n, l.input, l.a
                )),
            }
        }
        counts.push(format!(
            "{target}: {ok} accepted, {err} rejected ({same_col} at LLVM's column), {dev} known deviations; DPP lines: {dpp_err} rejected ({dpp_same_col} at LLVM's column)"
        ));
    }
    for c in &counts {
        eprintln!("{c}");
    }
    if !failures.is_empty() {
        for f in failures.iter().take(400) {
            eprintln!("{f}");
        }
        panic!("{} fixture mismatches", failures.len());
    }
}

/// Whether a line is about DPP (a DPP mnemonic or modifier).
fn is_dpp(input: &str) -> bool {
    [
        "_dpp",
        "quad_perm",
        "row_",
        "wave_",
        "dpp8",
        "bank_mask",
        "bound_ctrl",
        " fi:",
    ]
    .iter()
    .any(|k| input.contains(k))
}

/// LLVM's own disassembly is not always a fixed point: it prints a literal
/// whose value is an inline constant of an F64 operand as the constant (which
/// reassembles to the inline encoding), and after its "low 32 bits set to
/// zero" warning it prints ABS/NEG on the truncated F64 literal, which it
/// then refuses to assemble.
fn fixed_point_expected(l: &Line<'_>) -> bool {
    !(l.input.contains("lit(")
        || l.input.contains("lit64(")
        || !l.warn.is_empty()
        || (l.dis.starts_with("v_fmac") && l.dis.contains("dpp8:") && raw_code_src1(l.dis)))
}

// LLVM's disassembler prints an inline-constant src1 of a VOP3 DPP8 FMAC
// as its raw operand code (0xc1 for -1), which assembles as a
// literal: that text is no fixed point (the printer matches LLVM's text).

/// The operands of an instruction text, without the mnemonic and the
/// modifiers after them.
fn operands(text: &str) -> Vec<String> {
    let rest = text.split_once(' ').map_or("", |x| x.1);
    let mut out = Vec::new();
    for piece in rest.split(',') {
        let piece = piece.trim();
        out.push(piece.split(' ').next().unwrap_or("").to_string());
        // The modifiers start after the last operand's first blank.
        if piece.contains(' ') {
            break;
        }
    }
    out
}

/// The value of a literal operand as written (`0x1234`, `lit(0x5)`,
/// `lit64(0x11)`, with any ABS/NEG around it), if it is one.
fn literal_value(op: &str) -> Option<u64> {
    let s = op.trim_start_matches(['-', '|']).trim_end_matches('|');
    let s = s
        .strip_prefix("neg(")
        .map_or(s, |x| x.trim_end_matches(')'));
    let s = s
        .strip_prefix("lit64(")
        .or_else(|| s.strip_prefix("lit("))
        .map_or(s, |x| x.trim_end_matches(')'));
    u64::from_str_radix(s.strip_prefix("0x")?, 16).ok()
}

/// LLVM's text has two literal operands of different values.
fn two_literals(text: &str) -> bool {
    let values: Vec<u64> = operands(text)
        .iter()
        .filter_map(|o| literal_value(o))
        .collect();
    values.windows(2).any(|w| w[0] != w[1]) || {
        let mut v = values.clone();
        v.dedup();
        v.len() > 1
    }
}

/// LLVM's text sets an op_sel bit for a source that is not a VGPR.
fn op_sel_on_constant(text: &str) -> bool {
    let Some(list) = text
        .split("op_sel:[")
        .nth(1)
        .and_then(|s| s.split(']').next())
    else {
        return false;
    };
    let bits: Vec<&str> = list.split(',').collect();
    let ops = operands(text);
    ops.iter().skip(1).enumerate().any(|(i, o)| {
        let o = o.trim_start_matches(['-', '|']);
        let o = o.strip_prefix("neg(").unwrap_or(o);
        bits.get(i) == Some(&"1")
            && (o.starts_with(|c: char| c.is_ascii_digit()) || o.starts_with("lit"))
    })
}

/// A source printed as a raw inline-constant code (0x80..0xf8).
fn raw_code_src1(text: &str) -> bool {
    operands(text).iter().skip(2).any(|o| {
        literal_value(o).is_some_and(|v| (0x80..=0xf8).contains(&v)) && o.starts_with("0x")
    })
}
