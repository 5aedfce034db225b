//! The DPP lines of `cargo xtask fixtures`: every
//! DPP form, control kind, mask, bound_ctrl, fi, modifier, true16 half and
//! rejection, the same list for every target; and the DPP words LLVM
//! decodes but no assembler line produces (the disassembly-only fixture).

/// (mnemonic, width, is LDEXP) of the six instructions.
const OPS: [(&str, u32, bool); 6] = [
    ("v_fract_f16", 16, false),
    ("v_fract_f32", 32, false),
    ("v_fract_f64", 64, false),
    ("v_ldexp_f16", 16, true),
    ("v_ldexp_f32", 32, true),
    ("v_ldexp_f64", 64, true),
];

fn regs(width: u32) -> (&'static str, &'static str) {
    if width == 64 {
        ("v[2:3]", "v[4:5]")
    } else {
        ("v1", "v2")
    }
}

fn line(op: (&str, u32, bool), suffix: &str, d: &str, s0: &str, s1: &str, rest: &str) -> String {
    let mut l = format!("{}{suffix} {d}, {s0}", op.0);
    if op.2 {
        l.push_str(", ");
        l.push_str(s1);
    }
    if !rest.is_empty() {
        l.push(' ');
        l.push_str(rest);
    }
    l
}

/// Every DPP line, in a fixed order.
pub fn dpp_lines() -> Vec<String> {
    let mut out = Vec::new();
    let f32 = OPS[1];
    let f16 = OPS[0];
    let l16 = OPS[3];
    let l32 = OPS[4];
    // 1. Forms: every instruction, mnemonic suffix and control family.
    for op in OPS {
        let (d, s0) = regs(op.1);
        for suffix in ["_dpp", "_e32_dpp", "_e64_dpp", "", "_e32", "_e64"] {
            for ctrl in [
                "quad_perm:[3,2,1,0]",
                "row_newbcast:1",
                "row_share:2 row_mask:0x3 bank_mask:0xc bound_ctrl:1",
                "dpp8:[7,6,5,4,3,2,1,0]",
            ] {
                out.push(line(op, suffix, d, s0, "v3", ctrl));
            }
        }
        out.push(line(op, "_dpp", d, s0, "v3", ""));
        out.push(line(op, "_e64_dpp", d, s0, "v3", ""));
    }
    // 2. Every control kind and its range, on e32 FRACT_F32, and some on
    // LDEXP_F16 e32 and LDEXP_F32 (e64 only).
    let ctrls = [
        "quad_perm:[0,1,2,3]",
        "quad_perm:[3,3,3,3]",
        "quad_perm:[0,0,0,0]",
        "quad_perm:[1,0,3,2]",
        "quad_perm:[0,1,2,4]",
        "quad_perm:[0,1,2]",
        "quad_perm:[-1,0,0,0]",
        "quad_perm:0",
        "row_shl:1",
        "row_shl:15",
        "row_shl:0",
        "row_shl:16",
        "row_shl:1+2",
        "row_shl:0x2",
        "row_shr:1",
        "row_shr:15",
        "row_shr:0",
        "row_ror:1",
        "row_ror:15",
        "row_ror:16",
        "wave_shl:1",
        "wave_rol:1",
        "wave_shr:1",
        "wave_ror:1",
        "wave_shl:2",
        "wave_ror:0",
        "row_mirror",
        "row_half_mirror",
        "row_mirror:1",
        "row_bcast:15",
        "row_bcast:31",
        "row_bcast:7",
        "row_newbcast:0",
        "row_newbcast:15",
        "row_newbcast:16",
        "row_share:0",
        "row_share:15",
        "row_share:16",
        "row_share:-1",
        "row_xmask:0",
        "row_xmask:9",
        "row_xmask:15",
        "row_xmask:16",
        "dpp8:[0,1,2,3,4,5,6,7]",
        "dpp8:[7,0,6,1,5,2,4,3]",
        "dpp8:[1,1,1,1,1,1,1,1]",
        "dpp8:[0,1,2,3,4,5,6,8]",
        "dpp8:[0,1,2,3,4,5,6]",
        "QUAD_PERM:[0,1,2,3]",
        "row_foo:1",
    ];
    for c in ctrls {
        out.push(line(f32, "_dpp", "v0", "v1", "", c));
    }
    for c in [
        "quad_perm:[2,3,0,1]",
        "row_shr:3",
        "row_ror:7",
        "wave_rol:1",
        "row_mirror",
        "row_bcast:31",
        "row_newbcast:3",
        "row_share:3",
        "row_xmask:3",
        "dpp8:[1,0,3,2,5,4,7,6]",
    ] {
        out.push(line(l16, "_dpp", "v0", "v1", "v2", c));
        out.push(line(l32, "", "v0", "v1", "v2", c));
        out.push(line(f16, "_e64_dpp", "v0", "v1", "", c));
    }
    // 3. Masks, bound_ctrl and fi, with LLVM's defaults and quirks.
    let q = "quad_perm:[0,1,2,3]";
    for m in [
        "row_mask:0x0",
        "row_mask:0x5 bank_mask:0xa",
        "row_mask:0xf bank_mask:0xf",
        "row_mask:0x10",
        "bank_mask:0x10",
        "row_mask:0x1f bank_mask:0x1f",
        "row_mask:-1",
        "row_mask:5 bank_mask:0b11",
        "row_mask:1.0",
        "bank_mask:0x3",
        "bank_mask:0x3 row_mask:0x5",
        "row_mask:0x1 row_mask:0x2",
        "bound_ctrl:0",
        "bound_ctrl:1",
        "bound_ctrl:2",
        "bound_ctrl:-1",
        "row_mask:0x3 bank_mask:0xc bound_ctrl:0",
        "fi:0",
        "fi:1",
        "fi:2",
        "fi:3",
        "fi:-1",
        "bound_ctrl:1 fi:1",
        "fi:1 bound_ctrl:1",
        "row_mask:0x2 bank_mask:0x4 bound_ctrl:1 fi:1",
        "bound_ctrl",
        "row_mask",
    ] {
        out.push(line(f32, "_dpp", "v0", "v1", "", &format!("{q} {m}")));
        out.push(line(
            l16,
            "_e64_dpp",
            "v0",
            "v1",
            "v2",
            &format!("row_xmask:1 {m}"),
        ));
    }
    for m in [
        "fi:0",
        "fi:1",
        "fi:2",
        "fi:-2",
        "row_mask:0xf",
        "bank_mask:0x1",
        "bound_ctrl:1",
        "bound_ctrl:0",
    ] {
        out.push(line(
            f32,
            "",
            "v0",
            "v1",
            "",
            &format!("dpp8:[1,0,3,2,5,4,7,6] {m}"),
        ));
    }
    out.push(line(f32, "_dpp", "v0", "v1", "", "row_mask:0xf"));
    out.push(line(f32, "", "v0", "v1", "", "row_mask:0xf bank_mask:0xf"));
    out.push(line(f32, "", "v0", "v1", "", "fi:1"));
    out.push(line(f32, "_dpp", "v0", "v1", "", "row_shl:1 row_shl:2"));
    out.push(line(
        f32,
        "_dpp",
        "v0",
        "v1",
        "",
        "row_shl:1 dpp8:[0,1,2,3,4,5,6,7]",
    ));
    out.push(line(f32, "_dpp", "v0", "v1", "", "row_mask:0xf row_shl:1"));
    // 4. Source and output modifiers in each form.
    for op in [f16, f32, l16, l32, OPS[2]] {
        let (d, s0) = regs(op.1);
        let d = if op.1 == 64 { "v[0:1]" } else { d };
        let ctrl = if op.1 == 64 {
            "row_newbcast:1"
        } else {
            "row_shr:1"
        };
        for suffix in ["_dpp", "_e64_dpp", ""] {
            for src in [
                format!("-{s0}"),
                format!("|{s0}|"),
                format!("-|{s0}|"),
                format!("neg({s0})"),
                format!("abs({s0})"),
                format!("sext({s0})"),
            ] {
                out.push(line(op, suffix, d, &src, "v3", ctrl));
            }
            for m in ["clamp", "mul:2", "mul:4", "div:2", "clamp div:2"] {
                out.push(line(op, suffix, d, s0, "v3", &format!("{m} {ctrl}")));
            }
            out.push(line(op, suffix, d, s0, "v3", &format!("{ctrl} clamp")));
            if op.1 != 64 {
                out.push(line(
                    op,
                    suffix,
                    d,
                    &format!("-{s0}"),
                    "v3",
                    "dpp8:[0,1,2,3,4,5,6,7]",
                ));
                out.push(line(
                    op,
                    suffix,
                    d,
                    &format!("|{s0}|"),
                    "v3",
                    "dpp8:[7,6,5,4,3,2,1,0] fi:1",
                ));
                out.push(line(
                    op,
                    suffix,
                    d,
                    s0,
                    "v3",
                    "clamp mul:2 dpp8:[0,1,2,3,4,5,6,7]",
                ));
            }
            if op.2 {
                for s1 in ["-v3", "|v3|", "sext(v3)", "neg(v3)"] {
                    out.push(line(op, suffix, d, s0, s1, ctrl));
                }
            }
        }
    }
    // 5. Operands: src0 must be a VGPR; src1 per form; register ranges.
    for op in [f16, f32, l16, l32] {
        for suffix in ["_dpp", "_e64_dpp"] {
            for s0 in [
                "s2", "1.0", "0x1234", "v255", "v127", "v128", "vcc_lo", "v[2:3]", "lit(1)",
            ] {
                out.push(line(op, suffix, "v1", s0, "v3", "row_shl:1"));
            }
            for d in ["v255", "v128", "s1"] {
                out.push(line(op, suffix, d, "v2", "v3", "row_shl:1"));
            }
            if op.2 {
                for s1 in [
                    "s3", "vcc_lo", "m0", "exec_lo", "null", "4", "-1", "1.0", "0x1234", "v255",
                    "v128", "lit(4)",
                ] {
                    out.push(line(op, suffix, "v1", "v2", s1, "row_shl:1"));
                    out.push(line(op, suffix, "v1", "v2", s1, "dpp8:[0,1,2,3,4,5,6,7]"));
                }
            }
        }
    }
    for (d, s) in [
        ("v[0:1]", "v[2:3]"),
        ("v[1:2]", "v[2:3]"),
        ("v[0:1]", "v[3:4]"),
        ("v[254:255]", "v[254:255]"),
    ] {
        out.push(format!("v_fract_f64_dpp {d}, {s} row_newbcast:15"));
    }
    // 6. True16 halves: e32 (bit 7) and e64 (op_sel).
    for suffix in ["_dpp", "_e64_dpp", ""] {
        for (d, s) in [
            ("v0.l", "v1.l"),
            ("v0.h", "v1.l"),
            ("v0.l", "v1.h"),
            ("v0.h", "v1.h"),
            ("v127.h", "v127.h"),
            ("v128.l", "v1.l"),
            ("v0.l", "v128.h"),
            ("v200.h", "v255.h"),
            ("v0", "v1.h"),
        ] {
            out.push(line(f16, suffix, d, s, "", "row_ror:4"));
            out.push(line(f16, suffix, d, s, "", "dpp8:[7,6,5,4,3,2,1,0]"));
        }
        for (d, s, s1) in [
            ("v0.l", "v1.l", "v2.l"),
            ("v0.h", "v1.h", "v2.l"),
            ("v0.l", "-v1.h", "v2.h"),
            ("v0.h", "v1.l", "v2.h"),
            ("v0.l", "v1.l", "v128.h"),
            ("v0.h", "v1.h", "s3"),
        ] {
            out.push(line(l16, suffix, d, s, s1, "row_half_mirror"));
        }
        out.push(line(
            f16,
            suffix,
            "v0.h",
            "v1.h",
            "",
            "op_sel:[1,1] row_shl:2",
        ));
        out.push(line(f16, suffix, "v0", "v1", "", "op_sel:[1,1] row_shl:2"));
        out.push(line(
            l16,
            suffix,
            "v0.h",
            "v1.h",
            "v2.l",
            "op_sel:[1,0,1] row_shl:2",
        ));
        out.push(line(
            f16,
            suffix,
            "v0.h",
            "-|v1.h|",
            "",
            "op_sel:[1,1] clamp div:2 row_xmask:3 row_mask:0x3 bank_mask:0xc bound_ctrl:1 fi:1",
        ));
    }
    out
}

/// DPP machine code that no assembler line produces: every DPP_CTRL value
/// class (reserved codes, other families' controls), the bits LLVM drops,
/// src1 bits, DPP8 markers, VOP3 src0 0x1FA. Each as `[0x..,..]`.
pub fn dpp_words() -> Vec<String> {
    let mut out = Vec::new();
    let e32 = |w0: u32, w1: u32| {
        let b: Vec<String> = [w0, w1]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .map(|x| format!("{x:#04x}"))
            .collect();
        format!("[{}]", b.join(","))
    };
    // VOP1 FRACT_F32 (GFX10+ op 0x20; GFX9 op 0x1b) with each control code
    // of interest, BC and FI.
    let codes: [u32; 24] = [
        0x000, 0x0e4, 0x100, 0x101, 0x110, 0x11f, 0x120, 0x12f, 0x130, 0x131, 0x134, 0x138, 0x13c,
        0x140, 0x141, 0x142, 0x143, 0x144, 0x150, 0x15f, 0x160, 0x16f, 0x170, 0x1ff,
    ];
    for vop1 in [0x7e00_40fau32, 0x7e00_36fa, 0x7e00_64fa, 0x7e00_7cfa] {
        // src0 v1, or the pair v[2:3] for the F64 opcodes.
        let src = if matches!(vop1, 0x7e00_64fa | 0x7e00_7cfa) {
            2
        } else {
            1
        };
        for code in codes {
            out.push(e32(vop1, 0xff00_0000 | src | code << 8));
        }
        // Reserved bit 17, FI (bit 18), BC, src0 ABS/NEG, src1 bits, masks 0.
        for bits in [
            0x0002_0000u32,
            0x0004_0000,
            0x0008_0000,
            0x0030_0000,
            0x0040_0000,
            0x00c0_0000,
        ] {
            out.push(e32(vop1, 0xff00_e400 | src | bits));
        }
        out.push(e32(vop1, 0x0000_e400 | src));
    }
    // VOP2 LDEXP_F16 (GFX10+ 0x3b, GFX9 0x33) with src1 bits and a
    // reserved control.
    for vop2 in [0x7600_04fau32, 0x6600_04fa] {
        for bits in [0u32, 0x0040_0000, 0x0080_0000, 0x00c0_0000, 0x0006_0000] {
            out.push(e32(vop2, 0xff00_e401 | bits));
        }
        out.push(e32(vop2, 0xff01_7101));
    }
    // DPP8 markers on VOP1 and VOP2 (GFX9: invalid).
    for w0 in [0x7e00_40e9u32, 0x7e00_40ea, 0x7e00_36e9, 0x7600_04ea] {
        out.push(e32(w0, 0xfac6_8801));
    }
    // VOP3 (GFX11+ encoding): DPP16 with bits 20-23 and 17, DPP8, and a
    // 9-bit src0 of 0x1FA (v250, not DPP); a truncated DPP word.
    let vop3 = |w0: u32, w1: u32, w2: Option<u32>| {
        let mut ws = vec![w0, w1];
        ws.extend(w2);
        let b: Vec<String> = ws
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .map(|x| format!("{x:#04x}"))
            .collect();
        format!("[{}]", b.join(","))
    };
    for bits in [0u32, 0x00f0_0000, 0x0002_0000, 0x0004_0000] {
        out.push(vop3(0xd71c_0000, 0x0002_04fa, Some(0xff00_e401 | bits)));
    }
    out.push(vop3(0xd71c_0000, 0x0002_04fa, Some(0xff01_3001)));
    // src1 s2 (dpp.e64_src1_scalar) and an inline constant.
    out.push(vop3(0xd71c_0000, 0x0000_04fa, Some(0xff00_e401)));
    out.push(vop3(0xd71c_0000, 0x0001_08fa, Some(0xff00_e401)));
    out.push(vop3(0xd5df_c900, 0x3800_00fa, Some(0x3c0d_6301)));
    out.push(vop3(0xd5a0_0000, 0x0000_01fa, None));
    out.push(vop3(0xd5a0_0000, 0x0000_00e9, Some(0xfac6_8801)));
    out.push(vop3(0xd5a0_0000, 0x0000_00ea, Some(0x0500_0001)));
    out
}
