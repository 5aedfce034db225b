//! Emission: the validated model as Rust modules, built with `quote`,
//! parsed by `syn` and printed by `prettyplease`. The templates only wire
//! values into the emulator's types and dispatch to the hand-written
//! kernels; no float rule lives here.
//!
//! Five kinds of module come out:
//! - `instructions.rs`, from `isa-spec/instructions/valu.yaml`: the `Opcode`
//!   enum, each opcode's `OpcodeInfo` and the names not modelled;
//! - `families/<family>.rs`, once per family file: the settings a target of
//!   the family has unless its file says otherwise (`spec(target)`), and the
//!   family's encoding tables (`ENCODING`);
//! - `<target>.rs`, once per target file: `SPEC` and `ENCODING`, written as
//!   the family's with only what the target file changes;
//! - `forms.rs`: every family's and target's forms and DPP forms, each
//!   entry once, in groups the tables join ([`crate::sharing`]);
//! - `mod.rs`: the `Target` and `Family` enums, and the dispatch by target.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{quote, ToTokens};

use crate::error::Error;
use crate::header::{input_hash, render_header};
use crate::model::{
    policy_yaml_names, BitField, DppSpec, EncodingIdent, Evidence, FamilyModel, MachineEncoding,
    Model, OperandCodes, PolicyValue, Sourced, Spec, SpecialCodes, TargetModel, SPECIAL_NAMES,
};
use crate::sharing::{share, table_owner, Group, Shared, Table};

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

fn hex(v: impl Into<u32>) -> syn::LitInt {
    syn::LitInt::new(&format!("{:#x}", v.into()), Span::call_site())
}

fn int(v: impl Into<u64>) -> syn::LitInt {
    syn::LitInt::new(&v.into().to_string(), Span::call_site())
}

fn evidence(e: &Evidence) -> TokenStream {
    let source = e.source();
    match e {
        Evidence::Hw(_) => quote!(Evidence::Hw(#source)),
        Evidence::Doc(_) => quote!(Evidence::Doc(#source)),
        Evidence::Inherited(_) => quote!(Evidence::Inherited(#source)),
        Evidence::Open(_) => quote!(Evidence::Open(#source)),
    }
}

fn sourced<T: PolicyValue>(s: &Sourced<T>) -> TokenStream {
    let (value, evidence) = (s.value.tokens(), evidence(&s.evidence));
    quote!(Sourced { value: #value, evidence: #evidence })
}

fn wave_size(lanes: u32) -> TokenStream {
    let variant = ident(&format!("Wave{lanes}"));
    quote!(WaveSize::#variant)
}

/// A struct's fields as `(name, value)`, for writing it whole or as the
/// fields that differ from another value of the same type.
type Fields = Vec<(&'static str, TokenStream)>;

/// `name: value` for each field of `own` whose value differs from `base`'s.
fn changed(base: &Fields, own: &Fields) -> Vec<TokenStream> {
    base.iter()
        .zip(own)
        .filter(|((_, b), (_, o))| b.to_string() != o.to_string())
        .map(|(_, (name, value))| {
            let name = ident(name);
            quote!(#name: #value)
        })
        .collect()
}

/// `name: value` for every field.
fn all(fields: &Fields) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|(name, value)| {
            let name = ident(name);
            quote!(#name: #value)
        })
        .collect()
}

fn optional<T: PolicyValue>(o: &Option<Sourced<T>>) -> TokenStream {
    match o {
        Some(o) => {
            let o = sourced(o);
            quote!(Some(#o))
        }
        None => quote!(None),
    }
}

/// The fields of a `DppSpec`.
fn dpp_fields(d: &DppSpec) -> Fields {
    vec![
        ("controls", sourced(&d.controls)),
        ("f64_controls", sourced(&d.f64_controls)),
        ("bound_ctrl_zero", sourced(&d.bound_ctrl_zero)),
        ("fi", sourced(&d.fi)),
        ("e64_src1_scalar", sourced(&d.e64_src1_scalar)),
        ("inactive_source", sourced(&d.inactive_source)),
        ("zero_fill", sourced(&d.zero_fill)),
        ("bcast_low_rows", optional(&d.bcast_low_rows)),
        ("reserved_ctrl", sourced(&d.reserved_ctrl)),
        ("share_xmask", optional(&d.share_xmask)),
        ("mixed_halves", optional(&d.mixed_halves)),
        ("reserved_bits", sourced(&d.reserved_bits)),
    ]
}

/// The `forms.rs` constant of `owner`'s table of forms (`GFX9`) or, with
/// `prefix` `DPP_`, of DPP forms.
fn table_ident(prefix: &str, owner: &str) -> Ident {
    ident(&format!("{prefix}{}", owner.to_uppercase()))
}

/// The fields of a `TargetSpec` after `target` and `family`; its forms and
/// DPP forms are the `forms.rs` tables of `forms_owner` and `dpp_owner`.
fn spec_fields(s: &Spec, forms_owner: &str, dpp_owner: &str) -> Fields {
    let wave_sizes = s.wave.sizes.iter().map(|&l| wave_size(l));
    let sdwa_f16_output = optional(&s.sdwa_f16_output);
    let (forms, dpp_forms) = (table_ident("", forms_owner), table_ident("DPP_", dpp_owner));
    let dpp = all(&dpp_fields(&s.dpp));
    let dpp = quote!(DppSpec { #(#dpp,)* });
    vec![
        ("wave_sizes", quote!(&[#(#wave_sizes),*])),
        ("default_wave", wave_size(s.wave.default)),
        ("omod_gate", sourced(&s.omod_gate)),
        ("clamp_nan", sourced(&s.clamp_nan)),
        ("ieee_dx10_bits", sourced(&s.ieee_dx10_bits)),
        ("true16", sourced(&s.true16)),
        ("sdwa", sourced(&s.sdwa)),
        ("f16_dst_high", sourced(&s.f16_dst_high)),
        ("snan", sourced(&s.snan)),
        ("sub_nan", sourced(&s.sub_nan)),
        ("tininess", sourced(&s.tininess)),
        ("sdwa_f16_output", sdwa_f16_output),
        ("sdwa_f16_dword_dst", optional(&s.sdwa_f16_dword_dst)),
        ("sdwa_constant_sel", optional(&s.sdwa_constant_sel)),
        ("sdwa_reserved_bits", optional(&s.sdwa_reserved_bits)),
        ("aligned_vgpr_pairs", sourced(&s.aligned_vgpr_pairs)),
        ("fract_rules", evidence(&s.fract_rules.evidence)),
        ("forms", quote!(forms::#forms)),
        ("dpp", dpp),
        ("dpp_forms", quote!(forms::#dpp_forms)),
    ]
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
    let (f, v) = (field(i.field), hex(i.value));
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

/// A `SpecialCodes` value.
fn special_tokens(c: &SpecialCodes) -> TokenStream {
    let fields = [
        ("flat_scratch_lo", c.flat_scratch_lo),
        ("xnack_mask_lo", c.xnack_mask_lo),
        ("ttmp0", c.ttmp0),
        ("src_flat_scratch_base_lo", c.src_flat_scratch_base_lo),
        ("src_shared_base", c.src_shared_base),
        ("src_vccz", c.src_vccz),
        ("src_lds_direct", c.src_lds_direct),
    ]
    .map(|(name, v)| {
        let (name, v) = (ident(name), option(v));
        quote!(#name: #v)
    });
    let refuses = SPECIAL_NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| c.assembler_refuses >> i & 1 != 0)
        .map(|(_, n)| *n);
    quote!(SpecialCodes { #(#fields,)* assembler_refuses: &[#(#refuses),*] })
}

/// The fields of an `OperandCodes`.
fn code_fields(c: &OperandCodes) -> Fields {
    vec![
        ("max_sgpr", int(c.max_sgpr).into_token_stream()),
        ("vcc_lo", int(c.vcc_lo).into_token_stream()),
        ("m0", int(c.m0).into_token_stream()),
        ("null", option(c.sgpr_null)),
        ("exec_lo", int(c.exec_lo).into_token_stream()),
        ("int_zero", int(c.int_zero).into_token_stream()),
        ("float_first", int(c.float_first).into_token_stream()),
        ("literal", int(c.literal).into_token_stream()),
        ("literal64", option(c.literal64)),
        ("vgpr_first", int(c.vgpr_first).into_token_stream()),
    ]
}

/// The fields of a `FamilyEncoding` after `family`, but `codes`.
fn encoding_fields(e: &MachineEncoding) -> Fields {
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
            let marker = hex(s.src0_code);
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
            let reserved = hex(s.must_be_zero);
            quote!(Some(SdwaLayout { marker: #marker, #(#fields)* reserved: #reserved }))
        }
        None => quote!(None),
    };
    let p = &e.dpp16;
    let dpp16_fields = [
        ("src0", p.src0),
        ("ctrl", p.ctrl),
        ("bound_ctrl", p.bound_ctrl),
        ("src0_neg", p.src0_neg),
        ("src0_abs", p.src0_abs),
        ("src1_neg", p.src1_neg),
        ("src1_abs", p.src1_abs),
        ("bank_mask", p.bank_mask),
        ("row_mask", p.row_mask),
    ]
    .map(|(name, f)| {
        let (name, f) = (ident(name), field(f));
        quote!(#name: #f,)
    });
    let dpp16_marker = hex(p.src0_code);
    let dpp16_fi = match p.fi {
        Some(f) => {
            let f = field(f);
            quote!(Some(#f))
        }
        None => quote!(None),
    };
    let dpp16 = quote!(Dpp16Layout { marker: #dpp16_marker, fi: #dpp16_fi, #(#dpp16_fields)* });
    let dpp8 = match &e.dpp8 {
        Some(p) => {
            let (marker, marker_fi, src0, sel) = (
                hex(p.src0_code),
                hex(p.src0_code_fi),
                field(p.src0),
                field(p.sel),
            );
            quote!(Some(Dpp8Layout { marker: #marker, marker_fi: #marker_fi, src0: #src0, sel: #sel }))
        }
        None => quote!(None),
    };
    let (halves, vop3_literal, bus) = (
        e.true16_e32_halves,
        e.vop3_literal,
        int(e.constant_bus_limit),
    );
    vec![
        (
            "vop1",
            quote!(Vop1Layout { #v1_ident op: #v1_op, vdst: #v1_vdst, src0: #v1_src0 }),
        ),
        (
            "vop2",
            quote!(Vop2Layout { #v2_ident op: #v2_op, vdst: #v2_vdst, vsrc1: #v2_vsrc1, src0: #v2_src0 }),
        ),
        (
            "vop3",
            quote!(Vop3Layout {
                #v3_ident
                op: #v3_op,
                vdst: #v3_vdst,
                abs: #v3_abs,
                op_sel: #op_sel,
                clamp: #v3_clamp,
                src: [#(#v3_src),*],
                omod: #v3_omod,
                neg: #v3_neg,
            }),
        ),
        ("sdwa", sdwa),
        ("dpp16", dpp16),
        ("dpp8", dpp8),
        ("special", special_tokens(&e.special)),
        ("true16_e32_halves", quote!(#halves)),
        ("vop3_literal", quote!(#vop3_literal)),
        ("constant_bus_limit", quote!(#bus)),
    ]
}

fn upper(name: &impl std::fmt::Display) -> String {
    name.to_string().to_uppercase()
}

fn wave_doc(s: &Spec) -> String {
    let sizes: Vec<String> = s.wave.sizes.iter().map(|l| format!("wave{l}")).collect();
    format!(
        " Wave sizes {}, default wave{} ({}: {}).",
        sizes.join(", "),
        s.wave.default,
        s.wave.evidence.tag(),
        s.wave.evidence.source()
    )
}

/// The `TargetSpec` fields of `own` that differ from `base`'s, each as
/// [`spec_fields`] writes it (`own_fields`, `base_fields`); a changed `dpp`
/// is written as the DPP fields that differ over `base_spec.dpp`.
fn spec_changes(
    (base, base_fields): (&Spec, Fields),
    (own, mut own_fields): (&Spec, Fields),
    base_spec: &TokenStream,
) -> Vec<TokenStream> {
    if own.dpp != base.dpp {
        let dpp = changed(&dpp_fields(&base.dpp), &dpp_fields(&own.dpp));
        for (field, value) in &mut own_fields {
            if *field == "dpp" {
                *value = quote!(DppSpec { #(#dpp,)* ..#base_spec.dpp });
            }
        }
    }
    changed(&base_fields, &own_fields)
}

/// The `FamilyEncoding` fields of `own` that differ from `base`'s, the
/// operand codes written as those that differ over `module::ENCODING.codes`.
fn encoding_changes(
    base: &MachineEncoding,
    own: &MachineEncoding,
    module: &Ident,
) -> Vec<TokenStream> {
    let mut changes = changed(&encoding_fields(base), &encoding_fields(own));
    let codes = changed(&code_fields(&base.codes), &code_fields(&own.codes));
    if !codes.is_empty() {
        changes.push(quote!(codes: OperandCodes { #(#codes,)* ..#module::ENCODING.codes }));
    }
    changes
}

/// A family module's `spec(target)`: every setting of the family file, or,
/// for a family that extends `base`, `base`'s with what the file changes.
pub fn family_spec_fn(f: &FamilyModel, base: Option<&FamilyModel>) -> TokenStream {
    let family = f.family.variant_ident();
    let name = f.family.as_str();
    let own = spec_fields(&f.defaults, name, name);
    let wave = wave_doc(&f.defaults);
    let (doc, value) = match base {
        None => {
            let fields = all(&own);
            (
                format!(
                    " The facts of a {} target whose file changes nothing: `{}`.",
                    upper(&f.family),
                    f.path
                ),
                quote!(TargetSpec { target, family: Family::#family, #(#fields,)* }),
            )
        }
        Some(b) => {
            let module = b.family.module();
            let base_spec = quote!(#module::spec(target));
            let base_name = b.family.as_str();
            let changes = spec_changes(
                (&b.defaults, spec_fields(&b.defaults, base_name, base_name)),
                (&f.defaults, own),
                &base_spec,
            );
            (
                format!(
                    " The facts of a {} target whose file changes nothing: {}'s, with what `{}` changes.",
                    upper(&f.family),
                    upper(&b.family),
                    f.path
                ),
                quote!(TargetSpec { family: Family::#family, #(#changes,)* ..#base_spec }),
            )
        }
    };
    quote! {
        #[doc = #doc]
        #[doc = ""]
        #[doc = #wave]
        pub const fn spec(target: Target) -> TargetSpec {
            #value
        }
    }
}

/// A family module's `ENCODING`: every table, or, for a family that
/// extends `base`, `base`'s with what the file changes.
pub fn family_encoding_static(f: &FamilyModel, base: Option<&FamilyModel>) -> TokenStream {
    let family = f.family.variant_ident();
    let e = &f.defaults.encoding;
    let doc = format!(
        " {}'s field layouts, operand codes and limits.",
        upper(&f.family)
    );
    let value = match base {
        None => {
            let fields = all(&encoding_fields(e));
            let codes = all(&code_fields(&e.codes));
            quote!(FamilyEncoding {
                family: Family::#family,
                #(#fields,)*
                codes: OperandCodes { #(#codes,)* },
            })
        }
        Some(b) => {
            let module = b.family.module();
            let changes = encoding_changes(&b.defaults.encoding, e, &module);
            quote!(FamilyEncoding { family: Family::#family, #(#changes,)* ..#module::ENCODING })
        }
    };
    quote! {
        #[doc = #doc]
        pub static ENCODING: FamilyEncoding = #value;
    }
}

/// A target module's `SPEC`: its family's `spec(target)` with the
/// settings the target file changes.
pub fn target_spec_static(f: &FamilyModel, t: &TargetModel) -> TokenStream {
    let (module, target) = (f.family.module(), t.target.variant_ident());
    let name = f.family.as_str();
    let (forms, dpp_forms) = (
        table_owner(f, t, |s| &s.forms),
        table_owner(f, t, |s| &s.dpp_forms),
    );
    let base = quote!(#module::spec(Target::#target));
    let changes = spec_changes(
        (&f.defaults, spec_fields(&f.defaults, name, name)),
        (&t.spec, spec_fields(&t.spec, forms, dpp_forms)),
        &base,
    );
    let mut docs = vec![if changes.is_empty() {
        format!(" {}'s facts: {}'s.", t.target, upper(&f.family))
    } else {
        format!(
            " {}'s facts: {}'s, with what `isa-spec/{}.yaml` changes.",
            t.target,
            upper(&f.family),
            t.target
        )
    }];
    if t.spec.wave != f.defaults.wave {
        docs.extend([String::new(), wave_doc(&t.spec)]);
    }
    let value = if changes.is_empty() {
        base
    } else {
        quote!(TargetSpec { #(#changes,)* ..#base })
    };
    quote! {
        #(#[doc = #docs])*
        pub static SPEC: TargetSpec = #value;
    }
}

/// A target module's `ENCODING` (and, where the target file changes the
/// family's tables, the changed copy it points to).
pub fn target_encoding_statics(f: &FamilyModel, t: &TargetModel) -> TokenStream {
    let (module, target) = (f.family.module(), t.target.variant_ident());
    let own = &t.spec.encoding;
    let changes = encoding_changes(&f.defaults.encoding, own, &module);
    let literal64 = own.codes.literal64.is_some();
    let doc = format!(" {}'s encoding tables.", t.target);
    if changes.is_empty() {
        return quote! {
            #[doc = #doc]
            pub static ENCODING: TargetEncoding = TargetEncoding {
                target: Target::#target,
                family: &#module::ENCODING,
                literal64: #literal64,
            };
        };
    }
    let doc_tables = format!(
        " {}'s tables with what `isa-spec/{}.yaml` changes.",
        upper(&f.family),
        t.target
    );
    quote! {
        #[doc = #doc_tables]
        static FAMILY_ENCODING: FamilyEncoding = FamilyEncoding { #(#changes,)* ..#module::ENCODING };

        #[doc = #doc]
        pub static ENCODING: TargetEncoding = TargetEncoding {
            target: Target::#target,
            family: &FAMILY_ENCODING,
            literal64: #literal64,
        };
    }
}

/// How an owner is written in prose: `GFX9` for a family, `gfx90a` for a
/// target.
fn owner_prose(o: &crate::sharing::Owner) -> String {
    match o.family {
        None => upper(&o.name),
        Some(_) => o.name.clone(),
    }
}

/// `a`, `a and b`, `a, b and c`.
fn prose_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The constant of a group: `IN_` and the owners of the tables holding it
/// (`IN_GFX11_GFX12_GFX1250`), or `IN_EVERY_TABLE`.
fn group_ident<T>(prefix: &str, shared: &Shared<T>, g: &Group<T>) -> Ident {
    if g.tables.len() == shared.tables.len() {
        return ident(&format!("{prefix}IN_EVERY_TABLE"));
    }
    let owners: Vec<String> = g
        .tables
        .iter()
        .filter_map(|&t| shared.tables.get(t))
        .flat_map(|t| &t.owners)
        .map(|o| o.name.to_uppercase())
        .collect();
    ident(&format!("{prefix}IN_{}", owners.join("_")))
}

/// Whether group `g` is table `t`'s only part and in no other table: it is
/// then written as the table itself.
fn inlined<T>(shared: &Shared<T>, t: usize, g: usize) -> bool {
    let only = |table: &Table| table.parts == [g];
    shared.tables.get(t).is_some_and(only) && shared.groups.get(g).is_some_and(|g| g.tables == [t])
}

/// The `forms.rs` constants of one kind of entry: a table per owner (the
/// first owner's joins its groups, the others name it), then each group
/// not written as a table.
fn shared_tables<T>(
    shared: &Shared<T>,
    prefix: &str,
    what: &str,
    ty: TokenStream,
    entry: impl Fn(&T) -> TokenStream,
) -> TokenStream {
    let entries = |g: &Group<T>| {
        let e = g.entries.iter().map(&entry);
        quote!(&[#(#e),*])
    };
    let mut out = TokenStream::new();
    for (i, table) in shared.tables.iter().enumerate() {
        let Some((first, others)) = table.owners.split_first() else {
            continue;
        };
        let name = table_ident(prefix, &first.name);
        let doc = match &first.family {
            None => format!(" {}'s {what}: `{}`.", owner_prose(first), first.path),
            Some(family) => format!(
                " {}'s {what}: `{}` over {}'s.",
                first.name,
                first.path,
                upper(family)
            ),
        };
        let parts: Vec<Ident> = table
            .parts
            .iter()
            .filter_map(|&g| shared.groups.get(g).map(|g| group_ident(prefix, shared, g)))
            .collect();
        // A joined table's type gives `concat` its length.
        let (value, table_ty) = match (table.parts.as_slice(), parts.as_slice()) {
            ([], _) => (quote!(&[]), quote!(&[#ty])),
            (&[g], _) if inlined(shared, i, g) => match shared.groups.get(g) {
                Some(group) => (entries(group), quote!(&[#ty])),
                None => (quote!(&[]), quote!(&[#ty])),
            },
            (_, [one]) => (quote!(#one), quote!(&[#ty])),
            (_, many) => {
                let len = proc_macro2::Literal::usize_unsuffixed(table.len);
                (quote!(&concat(&[#(#many),*])), quote!(&[#ty; #len]))
            }
        };
        out.extend(quote! {
            #[doc = #doc]
            pub const #name: #table_ty = #value;
        });
        for o in others {
            let (alias, doc) = (
                table_ident(prefix, &o.name),
                format!(" {}'s {what}: {}'s.", owner_prose(o), owner_prose(first)),
            );
            out.extend(quote! {
                #[doc = #doc]
                pub const #alias: &[#ty] = #name;
            });
        }
    }
    for (g, group) in shared.groups.iter().enumerate() {
        if group.tables.iter().any(|&t| inlined(shared, t, g)) {
            continue;
        }
        let name = group_ident(prefix, shared, group);
        let owners: Vec<String> = group
            .tables
            .iter()
            .filter_map(|&t| shared.tables.get(t))
            .flat_map(|t| &t.owners)
            .map(owner_prose)
            .collect();
        let doc = if group.tables.len() == shared.tables.len() {
            format!(" The {what} every table above has.")
        } else {
            format!(
                " The {what} of {}, and of no other table.",
                prose_list(&owners)
            )
        };
        let value = entries(group);
        out.extend(quote! {
            #[doc = #doc]
            const #name: &[#ty] = #value;
        });
    }
    out
}

/// `forms.rs`: the forms and DPP forms of every family and of each target
/// whose forms differ from its family's, each entry once.
pub fn forms_module(model: &Model) -> Result<String, Error> {
    let forms = shared_tables(
        &share(model, |s| &s.forms),
        "",
        "forms",
        quote!(Form),
        |f| {
            let (opcode, encoding, op) = (f.instruction.opcode(), f.encoding.tokens(), hex(f.op));
            quote!(Form { opcode: #opcode, encoding: #encoding, op: #op })
        },
    );
    let dpp_forms = shared_tables(
        &share(model, |s| &s.dpp_forms),
        "DPP_",
        "DPP forms",
        quote!(DppForm),
        |f| {
            let (opcode, encoding, dpp8) = (f.instruction.opcode(), f.encoding.tokens(), f.dpp8);
            quote!(DppForm { opcode: #opcode, encoding: #encoding, dpp8: #dpp8 })
        },
    );
    let body = quote!(#forms #dpp_forms);
    let uses = imports(&body, &[]);
    let tokens = quote! {
        #![doc = " The forms and DPP forms of every family and target, each entry written once. A family's table is what its targets have unless their file changes a `forms:` line; a target whose forms differ has its own, and targets with equal tables name one. The entries are grouped by the tables that hold them (`IN_GFX11_GFX12_GFX1250`: in those and no other), and each table joins its groups at compile time, the most widely shared first: `TargetSpec::forms` and `dpp_forms` are plain slices."]
        #uses
        #body
    };
    let inputs: Vec<&str> = model.inputs.iter().map(|i| i.path.as_str()).collect();
    with_header(model, &inputs, "forms.rs", tokens)
}

/// The `Target` enum and its names.
pub fn target_enum(model: &Model) -> TokenStream {
    let variants: Vec<Ident> = model
        .targets
        .iter()
        .map(|t| t.target.variant_ident())
        .collect();
    let docs = model
        .targets
        .iter()
        .map(|t| format!(" {}: {} ({}).", t.target, t.description, upper(&t.family)));
    let names = model.targets.iter().map(|t| t.target.as_str());
    let list = model
        .targets
        .iter()
        .map(|t| t.target.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let count = proc_macro2::Literal::usize_unsuffixed(model.targets.len());
    quote! {
        /// The targets: one per `isa-spec/<target>.yaml`, in generation order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Target {
            #(#[doc = #docs] #variants,)*
        }

        impl Target {
            /// Every target, in generation order.
            pub const ALL: [Target; #count] = [#(Target::#variants),*];

            /// Every target's name, comma-separated, in [`Target::ALL`] order.
            pub const NAMES: &'static str = #list;

            /// LLVM's name for the target (`gfx1201`).
            pub const fn name(self) -> &'static str {
                match self {
                    #(Target::#variants => #names,)*
                }
            }
        }
    }
}

/// The `Family` enum and its names.
pub fn family_enum(model: &Model) -> TokenStream {
    let variants: Vec<Ident> = model
        .families
        .iter()
        .map(|f| f.family.variant_ident())
        .collect();
    let docs = model.families.iter().map(|f| {
        let targets: Vec<String> = model
            .targets_of(&f.family)
            .map(|t| format!("{} ({})", t.target, t.description))
            .collect();
        format!(" {}: {}.", upper(&f.family), targets.join(", "))
    });
    let names = model.families.iter().map(|f| f.family.as_str());
    let count = proc_macro2::Literal::usize_unsuffixed(model.families.len());
    quote! {
        /// ISA families: one per `isa-spec/families/<family>.yaml`. A family
        /// decides the encodings and what its targets share.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Family {
            #(#[doc = #docs] #variants,)*
        }

        impl Family {
            /// Every family, oldest first.
            pub const ALL: [Family; #count] = [#(Family::#variants),*];

            /// The family's name (`gfx12`).
            pub const fn name(self) -> &'static str {
                match self {
                    #(Family::#variants => #names,)*
                }
            }
        }
    }
}

/// `spec`, `encoding` and `execute` by target.
pub fn dispatch(model: &Model) -> TokenStream {
    let modules: Vec<Ident> = model.targets.iter().map(|t| t.target.module()).collect();
    let variants: Vec<Ident> = model
        .targets
        .iter()
        .map(|t| t.target.variant_ident())
        .collect();
    let arms = model.instructions.instructions.iter().map(|instruction| {
        let opcode = instruction.opcode();
        let call = instruction.execute();
        quote!(#opcode => #call)
    });
    quote! {
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

        /// Execute `instr` on `wave` as `target` does: each opcode to its
        /// kernel, which refuses a form the target does not have.
        pub fn execute(target: Target, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
            execute_spec(spec(target), wave, instr)
        }

        /// Execute `instr` on `wave` under `spec`, which need not be one of
        /// the generated ones (tests flip a policy on a copy).
        pub fn execute_spec(spec: &TargetSpec, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
            match instr.opcode {
                #(#arms,)*
            }
        }
    }
}

/// Where each emulator name a generated module may use is imported from.
const IMPORTS: &[(&str, &[&str])] = &[
    (
        "crate::asm::tables",
        &[
            "Dpp16Layout",
            "Dpp8Layout",
            "FamilyEncoding",
            "Field",
            "OpSel",
            "OperandCodes",
            "SdwaLayout",
            "SpecialCodes",
            "TargetEncoding",
            "Vop1Layout",
            "Vop2Layout",
            "Vop3Layout",
        ],
    ),
    ("crate::error", &["ExecError"]),
    ("crate::generated", &["forms"]),
    ("crate::dpp", &["DppControlKind", "DppControls"]),
    ("crate", &["exec"]),
    (
        "crate::instr",
        &[
            "Encoding",
            "Instruction",
            "NotModelled",
            "Opcode",
            "OpcodeInfo",
            "OperationKind",
            "SourceType",
        ],
    ),
    ("crate::kernels::operation", &["Fract", "Ldexp"]),
    (
        "crate::kernels",
        &[
            "ClampNan",
            "F16",
            "F32",
            "F64",
            "FormatKind",
            "OmodGate",
            "SnanPolicy",
            "SubNan",
            "Tininess",
        ],
    ),
    (
        "crate::target",
        &[
            "BoundCtrlZero",
            "concat",
            "DppBcastLowRows",
            "DppForm",
            "DppInactiveSource",
            "DppMixedHalves",
            "DppReservedBits",
            "DppReservedCtrl",
            "DppShareXmask",
            "DppSpec",
            "DppZeroFill",
            "Evidence",
            "F16DstHigh",
            "Family",
            "Form",
            "SdwaConstantSel",
            "SdwaF16DwordDst",
            "SdwaF16Output",
            "SdwaReservedBits",
            "Sourced",
            "Target",
            "TargetSpec",
            "WaveSize",
        ],
    ),
    ("crate::wave", &["Wave"]),
];

fn collect_idents(tokens: TokenStream, out: &mut Vec<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}

/// `use` items for the emulator names `body` uses, but those in `local`.
fn imports(body: &TokenStream, local: &[&str]) -> TokenStream {
    let mut used = Vec::new();
    collect_idents(body.clone(), &mut used);
    let mut by_path: BTreeMap<&str, Vec<Ident>> = BTreeMap::new();
    for (path, names) in IMPORTS {
        for name in *names {
            if !local.contains(name) && used.iter().any(|u| u == name) {
                by_path.entry(path).or_default().push(ident(name));
            }
        }
    }
    by_path
        .into_iter()
        .map(|(path, names)| {
            let path = path.split("::").map(ident);
            quote!(use #(#path)::*::{#(#names),*};)
        })
        .collect()
}

/// Input files, farthest first, as a module's doc names them:
/// "`b` over `a`", the nearest first.
fn over(inputs: &[String]) -> String {
    let named: Vec<String> = inputs.iter().rev().map(|p| format!("`{p}`")).collect();
    named.join(" over ")
}

/// A family's module, header included.
pub fn family_module(model: &Model, f: &FamilyModel) -> Result<String, Error> {
    let base = match &f.base {
        Some(b) => Some(model.family(b.as_str()).ok_or_else(|| Error::Emit {
            file: format!("families/{}.rs", f.family),
            message: format!("no family {b}"),
        })?),
        None => None,
    };
    let spec = family_spec_fn(f, base);
    let encoding = family_encoding_static(f, base);
    let body = quote!(#spec #encoding);
    let uses = imports(&body, &[]);
    let base_use = base.map(|b| {
        let module = b.family.module();
        quote!(use super::#module;)
    });
    let doc = format!(
        " {}: what every target of the family shares, generated from {}.",
        upper(&f.family),
        over(&f.inputs)
    );
    let tokens = quote! {
        #![doc = #doc]
        #uses
        #base_use
        #body
    };
    let inputs: Vec<&str> = f.inputs.iter().map(String::as_str).collect();
    with_header(model, &inputs, &format!("families/{}.rs", f.family), tokens)
}

/// A target's module, header included.
pub fn target_module(model: &Model, t: &TargetModel) -> Result<String, Error> {
    let Some(f) = model.family(t.family.as_str()) else {
        return Err(Error::Emit {
            file: format!("{}.rs", t.target),
            message: format!("no family {}", t.family),
        });
    };
    let spec = target_spec_static(f, t);
    let encoding = target_encoding_statics(f, t);
    let body = quote!(#spec #encoding);
    let uses = imports(&body, &[]);
    let family = f.family.module();
    let doc = format!(
        " {} ({}): a {} target, generated from {}.",
        t.target,
        t.description,
        upper(&f.family),
        over(&t.inputs)
    );
    let tokens = quote! {
        #![doc = #doc]
        #uses
        use super::families::#family;
        #body
    };
    let inputs: Vec<&str> = t.inputs.iter().map(String::as_str).collect();
    with_header(model, &inputs, &format!("{}.rs", t.target), tokens)
}

/// `instructions.rs`: the `Opcode` enum, one variant per entry of
/// `isa-spec/instructions/valu.yaml`, each with its `OpcodeInfo` descriptor,
/// and the mnemonics recognised but not modelled.
pub fn instructions_module(model: &Model) -> Result<String, Error> {
    let set = &model.instructions;
    let mut variants = Vec::new();
    let mut infos = Vec::new();
    for i in &set.instructions {
        let variant = ident(&i.variant());
        let doc = format!(" {}: {}.", i.mnemonic().to_uppercase(), i.doc);
        variants.push(quote!(#[doc = #doc] #variant));
        let mut sources = Vec::new();
        for s in i.sources.iter().filter(|s| s.is_explicit()) {
            sources.push(s.tokens(i.format).ok_or_else(|| Error::Emit {
                file: "instructions.rs".into(),
                message: format!(
                    "`{}`: the emulator has no operand type for `{}` sources yet",
                    i.mnemonic(),
                    s.yaml()
                ),
            })?);
        }
        let (mnemonic, operation, format, sdwa) = (
            i.mnemonic(),
            i.operation.tokens(),
            i.format.tokens(),
            i.sdwa,
        );
        let k_slot = match i.k_slot() {
            Some(k) => {
                let k = proc_macro2::Literal::usize_unsuffixed(k);
                quote!(Some(#k))
            }
            None => quote!(None),
        };
        let accumulator = i.accumulator();
        let e32 = match i.e32 {
            Some(e) => {
                let e = e.tokens();
                quote!(Some(#e))
            }
            None => quote!(None),
        };
        infos.push(quote! {
            Opcode::#variant => &OpcodeInfo {
                mnemonic: #mnemonic,
                operation: #operation,
                format: #format,
                sources: &[#(#sources),*],
                k_slot: #k_slot,
                accumulator: #accumulator,
                e32: #e32,
                sdwa: #sdwa,
            }
        });
    }
    let all = set.instructions.iter().map(|i| i.opcode());
    let count = int(set.instructions.len() as u64);
    let groups = set.not_modelled.iter().map(|n| {
        let (reason, names, prefixes) = (&n.reason, &n.names, &n.prefixes);
        quote!(NotModelled { names: &[#(#names),*], prefixes: &[#(#prefixes),*], reason: #reason })
    });
    let body = quote! {
        /// The instructions the emulator models, one per entry of
        /// `isa-spec/instructions/valu.yaml`, in its order. What each one is
        /// (operation, format, sources, e32 encoding, SDWA) is
        /// [`Opcode::info`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Opcode {
            #(#variants,)*
        }

        impl Opcode {
            /// Every opcode, in `isa-spec/instructions/valu.yaml` order.
            pub const ALL: [Opcode; #count] = [#(#all),*];

            /// The opcode's descriptor: what it computes and its operands.
            pub const fn info(self) -> &'static OpcodeInfo {
                match self {
                    #(#infos,)*
                }
            }
        }

        /// Mnemonics LLVM knows that the emulator does not model, by group,
        /// with the reason `asm` and `eval` give.
        pub const NOT_MODELLED: &[NotModelled] = &[#(#groups),*];
    };
    // `FormatKind::F16` names a variant, not the kernel format type.
    let uses = imports(&body, &["Opcode", "F16", "F32", "F64", "Fract", "Ldexp"]);
    let doc = format!(" The instruction set, generated from `{}`.", set.path);
    let tokens = quote! {
        #![doc = #doc]
        #uses
        #body
    };
    with_header(model, &[set.path.as_str()], "instructions.rs", tokens)
}

/// `mod.rs`: the modules, the `Target` and `Family` enums, the dispatch by
/// target, and the YAML names of the policy values.
pub fn mod_rs(model: &Model) -> Result<String, Error> {
    let families = model.families.iter().map(|f| f.family.module());
    let targets = model.targets.iter().map(|t| t.target.module());
    let target_enum = target_enum(model);
    let family_enum = family_enum(model);
    let dispatch = dispatch(model);
    let yaml_names = policy_yaml_names();
    let body = quote! {
        #target_enum
        #family_enum
        #dispatch
        #yaml_names
    };
    let uses = imports(&body, &["Target", "Family"]);
    let tokens = quote! {
        #![doc = " Generated from `isa-spec/`: the instruction set, the `Target` and `Family` enums, a module per family (what its targets share) and per target (`SPEC` and `ENCODING`: the family's, with what the target file changes), the form tables with every entry once (`forms`), and the dispatch by target."]
        #uses

        /// The `Opcode` enum and its descriptors (`isa-spec/instructions/valu.yaml`).
        pub mod instructions;

        /// The forms and DPP forms of every family and target, each entry once.
        pub mod forms;

        /// One module per `isa-spec/families/<family>.yaml`.
        pub mod families {
            #(pub mod #families;)*
        }

        #(pub mod #targets;)*

        #body
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
