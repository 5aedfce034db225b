//! `isa-spec/EVIDENCE.md`: every policy of every target with the evidence
//! behind it, and every opcode, as tables generated from the model.

use std::fmt::Write;

use crate::model::{
    Encoding, Evidence, FamilyModel, Model, Origin, PolicyValue, Sourced, TargetModel,
};

/// One table row: value, evidence and where it was written.
struct Row {
    value: String,
    evidence: Option<Evidence>,
    origin: Option<Origin>,
}

fn row<T: PolicyValue>(s: &Sourced<T>) -> Row {
    text_row(s, format!("`{}`", s.value.yaml()))
}

/// A policy that exists only with SDWA.
fn sdwa_row<T: PolicyValue>(s: &Option<Sourced<T>>) -> Row {
    match s {
        Some(s) => row(s),
        None => Row {
            value: "n/a (no SDWA)".to_string(),
            evidence: None,
            origin: None,
        },
    }
}

/// A DPP switch that exists only where it means something.
fn opt_row<T: PolicyValue>(s: &Option<Sourced<T>>) -> Row {
    match s {
        Some(s) => row(s),
        None => Row {
            value: "n/a".to_string(),
            evidence: None,
            origin: None,
        },
    }
}

type DppColumn = (&'static str, &'static str, fn(&TargetModel) -> Row);

/// The `dpp:` entries (docs/semantics.md §11).
const DPP: [DppColumn; 12] = [
    (
        "dpp.controls",
        "DPP16 controls of 16/32-bit operands",
        |t| row(&t.spec.dpp.controls),
    ),
    (
        "dpp.f64_controls",
        "DPP16 controls of 64-bit operands",
        |t| row(&t.spec.dpp.f64_controls),
    ),
    ("dpp.bound_ctrl_zero", "what `bound_ctrl:0` encodes", |t| {
        row(&t.spec.dpp.bound_ctrl_zero)
    }),
    ("dpp.fi", "the FI bit and DPP8 exist", |t| {
        row(&t.spec.dpp.fi)
    }),
    (
        "dpp.e64_src1_scalar",
        "an e64 DPP src1 may be an SGPR or inline constant",
        |t| row(&t.spec.dpp.e64_src1_scalar),
    ),
    (
        "dpp.inactive_source",
        "an in-range inactive source lane with FI = 0",
        |t| row(&t.spec.dpp.inactive_source),
    ),
    ("dpp.zero_fill", "a zero-filled src0 under NEG", |t| {
        row(&t.spec.dpp.zero_fill)
    }),
    (
        "dpp.bcast_low_rows",
        "row_bcast lanes below the broadcast row",
        |t| opt_row(&t.spec.dpp.bcast_low_rows),
    ),
    (
        "dpp.reserved_ctrl",
        "a DPP_CTRL code the target lacks, executed",
        |t| row(&t.spec.dpp.reserved_ctrl),
    ),
    ("dpp.share_xmask", "row_share/row_xmask executed", |t| {
        opt_row(&t.spec.dpp.share_xmask)
    }),
    (
        "dpp.mixed_halves",
        "true16 DPP forms mixing .l and .h",
        |t| opt_row(&t.spec.dpp.mixed_halves),
    ),
    (
        "dpp.reserved_bits",
        "DPP bits without assembler syntax",
        |t| row(&t.spec.dpp.reserved_bits),
    ),
];

fn text_row<T>(s: &Sourced<T>, value: String) -> Row {
    Row {
        value,
        evidence: Some(s.evidence.clone()),
        origin: Some(s.origin.clone()),
    }
}

type FactColumn = (&'static str, &'static str, fn(&FamilyModel) -> Row);

const FACTS: [FactColumn; 5] = [
    ("true16", "16-bit operands address register halves", |f| {
        row(&f.facts.true16)
    }),
    ("sdwa", "SDWA encodings exist", |f| row(&f.facts.sdwa)),
    ("vop3_opcode_offset", "VOP3 opcode from the e32 one", |f| {
        let o = &f.facts.vop3_opcode_offset;
        text_row(
            o,
            format!("VOP1 + {:#x}, VOP2 + {:#x}", o.value.vop1, o.value.vop2),
        )
    }),
    ("vop3_literal", "VOP3 may carry a literal dword", |f| {
        row(&f.facts.vop3_literal)
    }),
    (
        "constant_bus_limit",
        "distinct SGPRs/literals one VOP3 reads",
        |f| {
            let c = &f.facts.constant_bus_limit;
            text_row(c, format!("`{}`", c.value))
        },
    ),
];

type Column = (&'static str, &'static str, fn(&TargetModel) -> Row);

const POLICIES: [Column; 14] = [
    ("wave", "wave sizes (default first)", |t| {
        let wave = &t.spec.wave;
        let mut sizes = vec![wave.default];
        sizes.extend(wave.sizes.iter().filter(|&&s| s != wave.default));
        let sizes: Vec<String> = sizes.iter().map(|s| format!("wave{s}")).collect();
        Row {
            value: sizes.join(", "),
            evidence: Some(wave.evidence.clone()),
            origin: Some(wave.origin.clone()),
        }
    }),
    ("omod_gate", "when OMOD is effective", |t| {
        row(&t.spec.omod_gate)
    }),
    ("clamp_nan", "what CLAMP does with NaN", |t| {
        row(&t.spec.clamp_nan)
    }),
    (
        "ieee_dx10_bits",
        "MODE.IEEE and MODE.DX10_CLAMP exist",
        |t| row(&t.spec.ieee_dx10_bits),
    ),
    (
        "f16_dst_high",
        "high half of F16 destinations outside true16/SDWA",
        |t| row(&t.spec.f16_dst_high),
    ),
    ("snan", "signalling NaNs, every instruction", |t| {
        row(&t.spec.snan)
    }),
    ("sub_nan", "SUB/SUBREV of a NaN subtrahend", |t| {
        row(&t.spec.sub_nan)
    }),
    ("tininess", "when an arithmetic result is tiny", |t| {
        row(&t.spec.tininess)
    }),
    (
        "sdwa_f16_output",
        "SDWA F16 results relative to OMOD",
        |t| sdwa_row(&t.spec.sdwa_f16_output),
    ),
    (
        "sdwa_f16_dword_dst",
        "SDWA dst_sel:DWORD bits 31:16 of an F16 result",
        |t| sdwa_row(&t.spec.sdwa_f16_dword_dst),
    ),
    (
        "sdwa_constant_sel",
        "SDWA source selectors on inline constants",
        |t| sdwa_row(&t.spec.sdwa_constant_sel),
    ),
    (
        "sdwa_reserved_bits",
        "SDWA word bits that must be zero, when set",
        |t| sdwa_row(&t.spec.sdwa_reserved_bits),
    ),
    (
        "aligned_vgpr_pairs",
        "64-bit VGPR operands start at even registers",
        |t| row(&t.spec.aligned_vgpr_pairs),
    ),
    (
        "fract_rules",
        "FRACT's rules (docs/semantics.md §4)",
        |t| Row {
            value: "docs/semantics.md §4".to_string(),
            evidence: Some(t.spec.fract_rules.evidence.clone()),
            origin: Some(t.spec.fract_rules.origin.clone()),
        },
    ),
];

/// The markdown text of `isa-spec/EVIDENCE.md`.
pub fn evidence_md(model: &Model) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail; the results are ignored.
    let _ = writeln!(
        out,
        "<!-- @generated by amdgpu-valu-codegen from isa-spec/**/*.yaml. Do not edit; regenerate with `cargo xtask regen`. -->\n"
    );
    let _ = writeln!(out, "# Evidence per target and policy\n");
    let _ = writeln!(
        out,
        "Tags: **hw** measured on that hardware; **doc** AMD's ISA guide or LLVM/Mesa; \
         **inherited** measured on the named target and assumed here; **open** unknown, default taken. \
         \"Given in\" is the file the value comes from (a target file overrides its family file).\n"
    );
    let _ = writeln!(out, "## Family facts\n");
    let _ = writeln!(
        out,
        "Given once per family, in `families/<family>.yaml` or in the family file it extends (`base:`); no target file changes them.\n"
    );
    for (name, what, column) in FACTS {
        table(
            &mut out,
            name,
            what,
            "family",
            model
                .families
                .iter()
                .map(|f| (f.family.as_str(), column(f))),
        );
    }
    let _ = writeln!(out, "## Policies per target\n");
    for (name, what, column) in POLICIES {
        table(
            &mut out,
            name,
            what,
            "target",
            model.targets.iter().map(|t| (t.target.as_str(), column(t))),
        );
    }

    let _ = writeln!(out, "## DPP per target\n");
    for (name, what, column) in DPP {
        table(
            &mut out,
            name,
            what,
            "target",
            model.targets.iter().map(|t| (t.target.as_str(), column(t))),
        );
    }

    let _ = writeln!(out, "## Opcodes (llvm-mc 22)\n");
    let names: Vec<&str> = model.targets.iter().map(|t| t.target.as_str()).collect();
    let _ = writeln!(out, "| form | {} |", names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(names.len()));
    for instruction in &model.instructions.instructions {
        for encoding in Encoding::ALL {
            let cells: Vec<String> = model
                .targets
                .iter()
                .map(|t| {
                    t.spec
                        .forms
                        .iter()
                        .find(|f| f.instruction == *instruction && f.encoding == encoding)
                        .map_or("-".to_string(), |f| format!("{:#x}", f.op))
                })
                .collect();
            if cells.iter().all(|c| c == "-") {
                continue;
            }
            let _ = writeln!(
                out,
                "| {} {} | {} |",
                instruction.mnemonic(),
                encoding.yaml(),
                cells.join(" | ")
            );
        }
    }
    let _ = writeln!(out, "\n## DPP forms (llvm-mc 22)\n");
    let _ = writeln!(out, "| form | {} |", names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---|".repeat(names.len()));
    for instruction in &model.instructions.instructions {
        for (base, dpp8) in [("e32", false), ("e32", true), ("e64", false), ("e64", true)] {
            let cells: Vec<&str> = model
                .targets
                .iter()
                .map(|t| {
                    let has = t.spec.dpp_forms.iter().any(|f| {
                        f.instruction == *instruction
                            && f.dpp8 == dpp8
                            && (f.encoding == Encoding::Vop3) == (base == "e64")
                    });
                    if has {
                        "yes"
                    } else {
                        "-"
                    }
                })
                .collect();
            if cells.iter().all(|c| *c == "-") {
                continue;
            }
            let _ = writeln!(
                out,
                "| {} {base} {} | {} |",
                instruction.mnemonic(),
                if dpp8 { "dpp8" } else { "dpp16" },
                cells.join(" | ")
            );
        }
    }
    out
}

/// One `### name` table: a row per target or family.
fn table<'a>(
    out: &mut String,
    name: &str,
    what: &str,
    key: &str,
    rows: impl Iterator<Item = (&'a str, Row)>,
) {
    let _ = writeln!(out, "### `{name}`: {what}\n");
    let _ = writeln!(out, "| {key} | value | evidence | source | given in |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    for (who, r) in rows {
        let (tag, source) = match &r.evidence {
            Some(e) => (e.tag(), e.source().replace('|', "\\|")),
            None => ("-", "-".to_string()),
        };
        let given = r.origin.map_or("-".to_string(), |o| {
            o.file.trim_start_matches("isa-spec/").to_string()
        });
        let _ = writeln!(out, "| {who} | {} | {tag} | {source} | {given} |", r.value);
    }
    let _ = writeln!(out);
}
