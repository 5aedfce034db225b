//! The `encoding:` section: field layouts and operand codes of the real
//! `isa-spec/`, and strict checking of broken layouts (each error names
//! file:line:column).

use amdgpu_valu_codegen::model::{BitField, Input, Model};
use amdgpu_valu_codegen::{build, read_inputs, workspace_root, SpecError};

fn inputs() -> Vec<Input> {
    read_inputs(&workspace_root()).unwrap_or_else(|e| panic!("{e}"))
}

fn model() -> Model {
    build(inputs()).unwrap_or_else(|e| panic!("{}", amdgpu_valu_codegen::Error::Spec(e)))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(workspace_root().join(path)).unwrap()
}

/// The errors of building the real inputs with `path` replaced by `text`.
fn errors(path: &str, text: &str) -> Vec<String> {
    let mut inputs = inputs();
    inputs.retain(|i| i.path != path);
    inputs.push(Input {
        path: path.to_string(),
        text: text.to_string(),
    });
    match build(inputs) {
        Ok(_) => panic!("{path} was accepted:\n{text}"),
        Err(e) => e.iter().map(SpecError::to_string).collect(),
    }
}

/// `path` with the one line containing `from` changed to contain `to`;
/// also `path:line:` of that line.
fn edit(path: &str, from: &str, to: &str) -> (String, String) {
    let text = read(path);
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(from))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 1, "`{from}` in {path}: lines {lines:?}");
    (text.replacen(from, to, 1), format!("{path}:{}:", lines[0]))
}

const GFX9: &str = "isa-spec/families/gfx9.yaml";
const GFX11: &str = "isa-spec/families/gfx11.yaml";

#[test]
fn vop3_opcode_is_bits_25_16_with_the_family_prefix() {
    let m = model();
    for t in &m.targets {
        let v3 = t.spec.encoding.vop3;
        assert_eq!(v3.op, BitField::new(25, 16), "{:?}", t.target);
        assert_eq!(v3.ident.field, BitField::new(31, 26), "{:?}", t.target);
        // GFX9 VOP3 is 110100; GFX10 on, 110101.
        let prefix = if t.family == "gfx9" { 0x34 } else { 0x35 };
        assert_eq!(v3.ident.value, prefix, "{:?}", t.target);
        assert_eq!(v3.src.map(|f| (f.hi, f.lo)), [(8, 0), (17, 9), (26, 18)]);
        // OPSEL exists on every family: true16 halves from GFX11 on, the
        // VOP3-only V_FMA_F16 on GFX9 and GFX10.
        assert!(v3.op_sel.is_some(), "{:?}", t.target);
    }
    let gfx1201 = m.target("gfx1201").unwrap().spec.encoding.vop3;
    let op_sel = gfx1201.op_sel.unwrap();
    assert_eq!((op_sel.field, op_sel.dst_bit), (BitField::new(14, 11), 3));
}

#[test]
fn vop1_and_vop2_opcode_fields() {
    let m = model();
    for t in &m.targets {
        let e = &t.spec.encoding;
        assert_eq!(e.vop1.op, BitField::new(16, 9));
        assert_eq!(
            (e.vop1.ident.field, e.vop1.ident.value),
            (BitField::new(31, 25), 0x3f)
        );
        assert_eq!(e.vop2.op, BitField::new(30, 25));
        assert_eq!(
            (e.vop2.ident.field, e.vop2.ident.value),
            (BitField::new(31, 31), 0)
        );
    }
}

#[test]
fn sdwa_dst_unused_is_word1_bits_12_11_where_there_is_sdwa() {
    let m = model();
    for t in &m.targets {
        match &t.spec.encoding.sdwa {
            Some(s) => {
                assert!(t.spec.sdwa.value, "{:?}", t.target);
                assert_eq!(s.dst_unused, BitField::new(12, 11));
                assert_eq!(s.dst_sel, BitField::new(10, 8));
                assert_eq!(s.src0_code, 0xf9);
                assert_eq!(s.must_be_zero, 1 << 22 | 1 << 30);
            }
            None => assert!(!t.spec.sdwa.value, "{:?}", t.target),
        }
    }
}

#[test]
fn operand_codes_per_family_and_gfx1250_literal64() {
    let m = model();
    let codes = |t| m.target(t).unwrap().spec.encoding.codes;
    assert_eq!(codes("gfx942").max_sgpr, 101);
    // GFX9 decodes code 125 as `null` (llvm-mc-22 --disassemble prints
    // `v_fract_f32_e32 v0, null`) but LLVM's assembler refuses the name.
    assert_eq!(codes("gfx942").sgpr_null, Some(125));
    let special = m.target("gfx942").unwrap().spec.encoding.special;
    assert_eq!(special.assembler_refuses & 1, 1, "SPECIAL_NAMES[0] is null");
    assert_eq!(
        (codes("gfx1030").m0, codes("gfx1030").sgpr_null),
        (124, Some(125))
    );
    // GFX11 swaps m0 and null.
    assert_eq!(
        (codes("gfx1100").m0, codes("gfx1100").sgpr_null),
        (125, Some(124))
    );
    // gfx1250 overrides one code and its special sources (no
    // src_lds_direct, whose code holds the 64-bit literal); everything else
    // is GFX11's.
    let gfx1201 = m.target("gfx1201").unwrap().spec.encoding;
    let gfx1250 = m.target("gfx1250").unwrap().spec.encoding;
    assert_eq!(gfx1201.codes.literal64, None);
    assert_eq!(gfx1250.codes.literal64, Some(254));
    assert_eq!(gfx1201.special.src_lds_direct, Some(254));
    assert_eq!(gfx1250.special.src_lds_direct, None);
    let mut same = gfx1250;
    same.codes.literal64 = None;
    same.special = gfx1201.special;
    assert_eq!(same, gfx1201);
    let gfx9 = m.target("gfx908").unwrap().spec.encoding;
    assert!(!gfx9.vop3_literal);
    assert_eq!(gfx9.constant_bus_limit, 1);
    assert_eq!(gfx1201.constant_bus_limit, 2);
}

#[test]
fn overlapping_fields_are_an_error() {
    let (text, at) = edit(GFX9, "omod: [28, 27]", "omod: [29, 28]");
    let e = errors(GFX9, &text);
    let (_, neg) = edit(GFX9, "neg: [31, 29]", "neg: [31, 29]");
    assert!(e[0].starts_with(&neg), "{e:?} (omod at {at})");
    assert!(
        e[0].contains("`vop3.word1.neg` (bits 31:29) overlaps `vop3.word1.omod` (bits 29:28)"),
        "{e:?}"
    );
}

#[test]
fn field_outside_the_word_is_an_error() {
    let (text, at) = edit(GFX11, "op: [30, 25]", "op: [32, 25]");
    let e = errors(GFX11, &text);
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(e[0].contains("bit 32 is outside a 32-bit word"), "{e:?}");
}

#[test]
fn reversed_range_is_an_error() {
    let (text, at) = edit(GFX11, "op: [16, 9]", "op: [9, 16]");
    let e = errors(GFX11, &text);
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(e[0].contains("`vop1.op`: [9, 16] has hi below lo"), "{e:?}");
}

#[test]
fn wrong_width_is_an_error() {
    let (text, at) = edit(GFX11, "abs: [10, 8]", "abs: [10, 9]");
    let e = errors(GFX11, &text);
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(
        e[0].contains("`vop3.word0.abs` (bits 10:9) is 2 bit(s) wide; it must be 3"),
        "{e:?}"
    );
}

#[test]
fn bit_outside_must_be_zero_is_checked_and_overlaps() {
    let (text, at) = edit(GFX9, "must_be_zero: [30, 22]", "must_be_zero: [30, 21]");
    let e = errors(GFX9, &text);
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(
        e[0].contains("overlaps `sdwa.word1.src0_abs` (bit 21)"),
        "{e:?}"
    );
}

#[test]
fn unknown_and_duplicate_layout_keys_name_file_line_column() {
    let (text, at) = edit(GFX11, "op: [16, 9]", "op: [16, 9]\n    bogus: 1");
    let line: usize = at.split(':').nth(1).unwrap().parse().unwrap();
    let e = errors(GFX11, &text);
    assert!(
        e[0].starts_with(&format!("{GFX11}:{}:5: ", line + 1)),
        "{e:?}"
    );
    assert!(e[0].contains("bogus"), "{e:?}");

    let (text, _) = edit(GFX11, "op: [16, 9]", "op: [16, 9]\n    op: [16, 9]");
    let e = errors(GFX11, &text);
    assert!(
        e[0].starts_with(&format!("{GFX11}:{}:5: ", line + 1)),
        "{e:?}"
    );
    assert!(e[0].contains("duplicate"), "{e:?}");
}

#[test]
fn field_must_be_a_bit_or_a_range() {
    let (text, at) = edit(GFX11, "op: [16, 9]", "op: [16, 9, 1]");
    let e = errors(GFX11, &text);
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(e[0].contains("[hi, lo]"), "{e:?}");
}

#[test]
fn opcode_must_fit_the_layout_field() {
    let (text, at) = edit(GFX11, "op: [30, 25]", "op: [29, 25]");
    let e = errors(GFX11, &text);
    let (_, form) = edit(
        GFX11,
        "v_ldexp_f16: {vop2: 0x3b",
        "v_ldexp_f16: {vop2: 0x3b",
    );
    assert!(e[0].starts_with(&form), "{e:?} (op at {at})");
    assert!(
        e[0].contains("opcode 0x3b does not fit the vop2 opcode field (bits 29:25)"),
        "{e:?}"
    );
}

#[test]
fn vop2_word_that_decodes_as_vop1_is_an_error() {
    let (text, at) = edit(
        GFX11,
        "v_ldexp_f16: {vop2: 0x3b, vop3: 0x13b,",
        "v_ldexp_f16: {vop2: 0x3f, vop3: 0x13f,",
    );
    let e = errors(GFX11, &text);
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(
        e[0].contains("match the vop1 ident (bits 31:25 = 0x3f)"),
        "{e:?}"
    );
}

#[test]
fn sdwa_layout_needs_sdwa_and_the_reverse() {
    let gfx11 = "isa-spec/families/gfx11.yaml";
    let sdwa = read(GFX9);
    let block: String = sdwa
        .lines()
        .skip_while(|l| *l != "encoding:")
        .skip_while(|l| !l.starts_with("  sdwa:"))
        .take_while(|l| !l.starts_with("  #") && !l.starts_with("  operand_codes"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(block.contains("dst_unused"), "{block}");
    let text = read(gfx11).replace("  operand_codes:", &format!("{block}  operand_codes:"));
    let e = errors(gfx11, &text);
    assert!(e[0].starts_with(&format!("{gfx11}:")), "{e:?}");
    assert!(
        e[0].contains("`encoding.sdwa` given but the family has `sdwa: false`"),
        "{e:?}"
    );

    let text = read(GFX9).replace(&block, "");
    let e = errors(GFX9, &text);
    assert!(
        e.contains(&"isa-spec/families/gfx9.yaml: `encoding.sdwa` (the family has `sdwa: true`) is missing".to_string()),
        "{e:?}"
    );
}

#[test]
fn colliding_operand_codes_are_an_error() {
    let path = "isa-spec/gfx1250.yaml";
    let (text, at) = edit(path, "literal64: 254", "literal64: 255");
    let e = errors(path, &text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with(&at), "{e:?}");
    assert!(
        e[0].contains("literal64 (255..=255) overlap literal"),
        "{e:?}"
    );
}

#[test]
fn missing_layout_is_an_error() {
    let text: String = read(GFX11)
        .lines()
        .take_while(|l| !l.starts_with("encoding:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let e = errors(GFX11, &text);
    assert!(
        e.contains(&"isa-spec/families/gfx11.yaml: `encoding.vop3` is missing".to_string()),
        "{e:?}"
    );
}
