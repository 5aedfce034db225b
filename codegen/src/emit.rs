//! Emission: the validated model as Rust modules, built with `quote`,
//! parsed by `syn` and printed by `prettyplease`. The templates only wire
//! values into `TargetSpec` and dispatch to the hand-written kernels; no
//! float rule lives here.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::error::Error;
use crate::header::{input_hash, render_header};
use crate::model::{BitField, EncodingIdent, Evidence, Model, PolicyValue, Sourced, TargetModel};

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

fn hex(op: u16) -> syn::LitInt {
    syn::LitInt::new(&format!("{op:#x}"), Span::call_site())
}

fn evidence(e: &Evidence) -> TokenStream {
    let variant = ident(match e {
        Evidence::Hw(_) => "Hw",
        Evidence::Doc(_) => "Doc",
        Evidence::Inherited(_) => "Inherited",
        Evidence::Open(_) => "Open",
    });
    let source = e.source();
    quote!(Evidence::#variant(#source))
}

fn value<T: PolicyValue>(v: T) -> TokenStream {
    match (T::RUST_TYPE, v.rust()) {
        ("bool", "true") => quote!(true),
        ("bool", _) => quote!(false),
        (ty, variant) => {
            let (ty, variant) = (ident(ty), ident(variant));
            quote!(#ty::#variant)
        }
    }
}

fn sourced<T: PolicyValue>(s: &Sourced<T>) -> TokenStream {
    let (value, evidence) = (value(s.value), evidence(&s.evidence));
    quote!(Sourced { value: #value, evidence: #evidence })
}

fn wave_size(lanes: u32) -> TokenStream {
    let variant = ident(&format!("Wave{lanes}"));
    quote!(WaveSize::#variant)
}

/// `pub static SPEC: TargetSpec = ...;` for one target.
pub fn spec_static(t: &TargetModel) -> TokenStream {
    let target = ident(&t.target.variant());
    let family = ident(&t.family.variant());
    let wave_sizes = t.wave.sizes.iter().map(|&s| wave_size(s));
    let default_wave = wave_size(t.wave.default);
    let omod_gate = sourced(&t.omod_gate);
    let clamp_nan = sourced(&t.clamp_nan);
    let ieee_dx10_bits = sourced(&t.ieee_dx10_bits);
    let true16 = sourced(&t.true16);
    let sdwa = sourced(&t.sdwa);
    let f16_dst_high = sourced(&t.f16_dst_high);
    let snan = sourced(&t.snan);
    let sdwa_f16_output = match &t.sdwa_f16_output {
        Some(s) => {
            let s = sourced(s);
            quote!(Some(#s))
        }
        None => quote!(None),
    };
    let aligned_vgpr_pairs = sourced(&t.aligned_vgpr_pairs);
    let fract_rules = evidence(&t.fract_rules.evidence);
    let forms = t.forms.iter().map(|f| {
        let (opcode, encoding, op) = (
            ident(f.instruction.variant()),
            ident(f.encoding.variant()),
            hex(f.op),
        );
        quote!(Form { opcode: Opcode::#opcode, encoding: Encoding::#encoding, op: #op })
    });
    let sizes = t
        .wave
        .sizes
        .iter()
        .map(|s| format!("wave{s}"))
        .collect::<Vec<_>>()
        .join(", ");
    let doc_what = format!(
        " {} ({}, {}): facts from `isa-spec/`.",
        t.target.name(),
        t.description,
        t.family.name().to_uppercase()
    );
    let doc_wave = format!(
        " Wave sizes {sizes}, default wave{} ({}: {}).",
        t.wave.default,
        t.wave.evidence.tag(),
        t.wave.evidence.source()
    );
    quote! {
        #[doc = #doc_what]
        #[doc = ""]
        #[doc = #doc_wave]
        pub static SPEC: TargetSpec = TargetSpec {
            target: Target::#target,
            family: Family::#family,
            wave_sizes: &[#(#wave_sizes),*],
            default_wave: #default_wave,
            omod_gate: #omod_gate,
            clamp_nan: #clamp_nan,
            ieee_dx10_bits: #ieee_dx10_bits,
            true16: #true16,
            sdwa: #sdwa,
            f16_dst_high: #f16_dst_high,
            snan: #snan,
            sdwa_f16_output: #sdwa_f16_output,
            aligned_vgpr_pairs: #aligned_vgpr_pairs,
            fract_rules: #fract_rules,
            forms: &[#(#forms),*],
        };
    }
}

fn hex32(v: u32) -> syn::LitInt {
    syn::LitInt::new(&format!("{v:#x}"), Span::call_site())
}

fn int(v: impl Into<u64>) -> syn::LitInt {
    syn::LitInt::new(&v.into().to_string(), Span::call_site())
}

fn field(f: BitField) -> TokenStream {
    if f.hi == f.lo {
        let bit = int(f.lo);
        quote!(Field::bit(#bit))
    } else {
        let (hi, lo) = (int(f.hi), int(f.lo));
        quote!(Field::bits(#hi, #lo))
    }
}

fn ident_fields(i: EncodingIdent) -> TokenStream {
    let (f, v) = (field(i.field), hex32(i.value));
    quote!(encoding: #f, encoding_value: #v,)
}

fn option(v: Option<u32>) -> TokenStream {
    match v {
        Some(v) => {
            let v = int(v);
            quote!(Some(#v))
        }
        None => quote!(None),
    }
}

/// `pub static FAMILY_ENCODING: FamilyEncoding` (the family's layouts with
/// the target's overrides) and `pub static ENCODING: TargetEncoding`.
pub fn encoding_statics(t: &TargetModel) -> TokenStream {
    let e = &t.encoding;
    let family = ident(&t.family.variant());
    let target = ident(&t.target.variant());

    let v1 = &e.vop1;
    let (v1_ident, v1_op, v1_vdst, v1_src0) = (
        ident_fields(v1.ident),
        field(v1.op),
        field(v1.vdst),
        field(v1.src0),
    );
    let v2 = &e.vop2;
    let (v2_ident, v2_op, v2_vdst, v2_vsrc1, v2_src0) = (
        ident_fields(v2.ident),
        field(v2.op),
        field(v2.vdst),
        field(v2.vsrc1),
        field(v2.src0),
    );
    let v3 = &e.vop3;
    let (v3_ident, v3_op, v3_vdst, v3_abs, v3_clamp, v3_omod, v3_neg) = (
        ident_fields(v3.ident),
        field(v3.op),
        field(v3.vdst),
        field(v3.abs),
        field(v3.clamp),
        field(v3.omod),
        field(v3.neg),
    );
    let v3_src = v3.src.map(field);
    let op_sel = match v3.op_sel {
        Some(s) => {
            let (f, dst) = (field(s.field), int(s.dst_bit));
            quote!(Some(OpSel { field: #f, dst_bit: #dst }))
        }
        None => quote!(None),
    };
    let sdwa = match &e.sdwa {
        Some(s) => {
            let marker = hex32(s.src0_code);
            let fields = [
                ("src0", s.src0),
                ("dst_sel", s.dst_sel),
                ("dst_unused", s.dst_unused),
                ("clamp", s.clamp),
                ("omod", s.omod),
                ("src0_sel", s.src0_sel),
                ("src0_sext", s.src0_sext),
                ("src0_neg", s.src0_neg),
                ("src0_abs", s.src0_abs),
                ("src0_sgpr", s.src0_sgpr),
                ("src1_sel", s.src1_sel),
                ("src1_sext", s.src1_sext),
                ("src1_neg", s.src1_neg),
                ("src1_abs", s.src1_abs),
                ("src1_sgpr", s.src1_sgpr),
            ]
            .map(|(name, f)| {
                let (name, f) = (ident(name), field(f));
                quote!(#name: #f,)
            });
            let reserved = hex32(s.must_be_zero);
            quote!(Some(SdwaLayout { marker: #marker, #(#fields)* reserved: #reserved }))
        }
        None => quote!(None),
    };
    let c = &e.codes;
    let (max_sgpr, vcc_lo, m0, exec_lo, int_zero, float_first, literal, vgpr_first) = (
        int(c.max_sgpr),
        int(c.vcc_lo),
        int(c.m0),
        int(c.exec_lo),
        int(c.int_zero),
        int(c.float_first),
        int(c.literal),
        int(c.vgpr_first),
    );
    let (null, literal64) = (option(c.sgpr_null), option(c.literal64));
    let (halves, vop3_literal, bus) = (
        e.true16_e32_halves,
        e.vop3_literal,
        int(e.constant_bus_limit),
    );
    let has_literal64 = c.literal64.is_some();
    let doc_family = format!(
        " {}'s field layouts and operand codes: {}'s, with any entry `isa-spec/{}.yaml` overrides.",
        t.target.name(),
        t.family.name().to_uppercase(),
        t.target.name(),
    );
    let doc_target = format!(" {}'s encoding tables.", t.target.name());
    quote! {
        #[doc = #doc_family]
        pub static FAMILY_ENCODING: FamilyEncoding = FamilyEncoding {
            family: Family::#family,
            vop1: Vop1Layout { #v1_ident op: #v1_op, vdst: #v1_vdst, src0: #v1_src0 },
            vop2: Vop2Layout { #v2_ident op: #v2_op, vdst: #v2_vdst, vsrc1: #v2_vsrc1, src0: #v2_src0 },
            vop3: Vop3Layout {
                #v3_ident
                op: #v3_op,
                vdst: #v3_vdst,
                abs: #v3_abs,
                op_sel: #op_sel,
                clamp: #v3_clamp,
                src: [#(#v3_src),*],
                omod: #v3_omod,
                neg: #v3_neg,
            },
            sdwa: #sdwa,
            codes: OperandCodes {
                max_sgpr: #max_sgpr,
                vcc_lo: #vcc_lo,
                m0: #m0,
                null: #null,
                exec_lo: #exec_lo,
                int_zero: #int_zero,
                float_first: #float_first,
                literal: #literal,
                literal64: #literal64,
                vgpr_first: #vgpr_first,
            },
            true16_e32_halves: #halves,
            vop3_literal: #vop3_literal,
            constant_bus_limit: #bus,
        };

        #[doc = #doc_target]
        pub static ENCODING: TargetEncoding = TargetEncoding {
            target: Target::#target,
            family: &FAMILY_ENCODING,
            literal64: #has_literal64,
        };
    }
}

/// `pub fn execute(...)`: each form of the target to its kernel, anything
/// else to `ExecError::FormNotOnTarget`.
pub fn execute_fn(t: &TargetModel) -> TokenStream {
    let mut arms = Vec::new();
    for (instruction, _, _) in crate::model::Instruction::TABLE {
        let encodings: Vec<Ident> = t
            .forms
            .iter()
            .filter(|f| f.instruction == instruction)
            .map(|f| ident(f.encoding.variant()))
            .collect();
        if encodings.is_empty() {
            continue;
        }
        let opcode = ident(instruction.variant());
        let operation = ident(instruction.operation());
        let format = ident(instruction.format());
        arms.push(quote! {
            (Opcode::#opcode, #(Encoding::#encodings)|*) => exec::execute::<#operation, #format>(&SPEC, wave, instr)
        });
    }
    let name = t.target.name();
    let doc = format!(" Execute `instr` on `wave` as {name} does.");
    quote! {
        #[doc = #doc]
        pub fn execute(wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
            match (instr.opcode, instr.encoding) {
                #(#arms,)*
                (opcode, encoding) => Err(ExecError::FormNotOnTarget { target: #name, opcode, encoding }),
            }
        }
    }
}

/// One target's module, header included.
pub fn target_module(model: &Model, t: &TargetModel) -> Result<String, Error> {
    let spec = spec_static(t);
    let encoding = encoding_statics(t);
    let execute = execute_fn(t);
    let sdwa_output = t.sdwa_f16_output.as_ref().map(|_| quote!(SdwaF16Output,));
    let sdwa_import = t.encoding.sdwa.as_ref().map(|_| quote!(SdwaLayout,));
    let op_sel_import = t.encoding.vop3.op_sel.as_ref().map(|_| quote!(OpSel,));
    let doc = format!(
        " {}: the target's facts and its instruction dispatch, generated from `isa-spec/`.",
        t.target.name()
    );
    let tokens = quote! {
        #![doc = #doc]

        use crate::asm::tables::{
            FamilyEncoding, Field, #op_sel_import OperandCodes, #sdwa_import TargetEncoding, Vop1Layout,
            Vop2Layout, Vop3Layout,
        };
        use crate::error::ExecError;
        use crate::exec;
        use crate::instr::{Encoding, Instruction, Opcode};
        use crate::kernels::wave::{Fract, Ldexp};
        use crate::kernels::{ClampNan, OmodGate, SnanPolicy, F16, F32, F64};
        use crate::target::{Evidence, F16DstHigh, Family, Form, #sdwa_output Sourced, Target, TargetSpec, WaveSize};
        use crate::wave::Wave;

        #spec

        #encoding

        #execute
    };
    let inputs: Vec<&str> = t.inputs.iter().map(String::as_str).collect();
    with_header(model, &inputs, &format!("{}.rs", t.target.name()), tokens)
}

/// `mod.rs`: the modules, `spec(target)` and `execute(target, ...)`.
pub fn mod_rs(model: &Model) -> Result<String, Error> {
    let modules: Vec<Ident> = model
        .targets
        .iter()
        .map(|t| ident(t.target.name()))
        .collect();
    let variants: Vec<Ident> = model
        .targets
        .iter()
        .map(|t| ident(&t.target.variant()))
        .collect();
    let tokens = quote! {
        #![doc = " Per-target modules generated from `isa-spec/`: each holds the target's `SPEC`, its encoding tables (`ENCODING`) and `execute`."]

        use crate::asm::tables::TargetEncoding;
        use crate::error::ExecError;
        use crate::instr::Instruction;
        use crate::target::{Target, TargetSpec};
        use crate::wave::Wave;

        #(pub mod #modules;)*

        /// The facts of `target`.
        pub fn spec(target: Target) -> &'static TargetSpec {
            match target {
                #(Target::#variants => &#modules::SPEC,)*
            }
        }

        /// The encoding tables of `target`.
        pub fn encoding(target: Target) -> &'static TargetEncoding {
            match target {
                #(Target::#variants => &#modules::ENCODING,)*
            }
        }

        /// Execute `instr` on `wave` as `target` does.
        pub fn execute(target: Target, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
            match target {
                #(Target::#variants => #modules::execute(wave, instr),)*
            }
        }
    };
    let inputs: Vec<&str> = model.inputs.iter().map(|i| i.path.as_str()).collect();
    with_header(model, &inputs, "mod.rs", tokens)
}

/// Pretty-print `tokens` as a file, with a blank line between items
/// (consecutive `use` and `mod` declarations stay together).
pub fn pretty(file: &str, tokens: TokenStream) -> Result<String, Error> {
    let parsed: syn::File = syn::parse2(tokens).map_err(|e| Error::Emit {
        file: file.to_string(),
        message: e.to_string(),
    })?;
    let mut out = String::new();
    let mut previous: Option<std::mem::Discriminant<syn::Item>> = None;
    for (i, item) in parsed.items.iter().enumerate() {
        let kind = std::mem::discriminant(item);
        let grouped =
            matches!(item, syn::Item::Use(_) | syn::Item::Mod(_)) && previous == Some(kind);
        if i > 0 && !grouped {
            out.push('\n');
        }
        let attrs = if i == 0 {
            parsed.attrs.clone()
        } else {
            Vec::new()
        };
        let single = syn::File {
            shebang: None,
            attrs,
            items: vec![item.clone()],
        };
        out.push_str(&prettyplease::unparse(&single));
        previous = Some(kind);
    }
    Ok(out)
}

fn with_header(
    model: &Model,
    inputs: &[&str],
    file: &str,
    tokens: TokenStream,
) -> Result<String, Error> {
    let body = pretty(file, tokens)?;
    let texts = inputs
        .iter()
        .map(|p| (*p, model.input(p).map_or(&[][..], |i| i.text.as_bytes())));
    Ok(format!(
        "{}\n{body}",
        render_header(inputs, &input_hash(texts))
    ))
}
