//! The shared form tables of `generated/forms.rs` against the real
//! `isa-spec/`: each entry is written once, and joining a table's groups
//! gives back exactly the forms its family or target has.

use amdgpu_valu_codegen::model::{Model, Spec};
use amdgpu_valu_codegen::sharing::{share, table_owner, Shared};
use amdgpu_valu_codegen::{load, workspace_root};

fn model() -> Model {
    load(&workspace_root()).unwrap_or_else(|e| panic!("{e}"))
}

/// The entries of the table named `owner`, joined from its groups.
fn joined<T: Clone>(shared: &Shared<T>, owner: &str) -> Vec<T> {
    let table = shared
        .tables
        .iter()
        .find(|t| t.owners.iter().any(|o| o.name == owner))
        .unwrap_or_else(|| panic!("no table names {owner}"));
    let entries: Vec<T> = table
        .parts
        .iter()
        .flat_map(|&g| shared.groups[g].entries.clone())
        .collect();
    assert_eq!(entries.len(), table.len, "{owner}");
    entries
}

/// Every family's and target's entries are its table's, as a set and in
/// number, and no entry is written twice.
fn check<T: Clone + PartialEq + std::fmt::Debug>(m: &Model, entries: impl Fn(&Spec) -> &[T]) {
    let shared = share(m, &entries);
    let same = |owner: &str, spec: &Spec| {
        let (want, got) = (entries(spec), joined(&shared, owner));
        assert_eq!(want.len(), got.len(), "{owner}");
        assert!(want.iter().all(|e| got.contains(e)), "{owner}");
    };
    for f in &m.families {
        same(f.family.as_str(), &f.defaults);
        for t in m.targets_of(&f.family) {
            same(table_owner(f, t, &entries), &t.spec);
        }
    }
    let all: Vec<&T> = shared.groups.iter().flat_map(|g| &g.entries).collect();
    for (i, e) in all.iter().enumerate() {
        assert!(!all[..i].contains(e), "{e:?} is written twice");
    }
}

#[test]
fn joined_tables_are_every_target_s_forms_each_written_once() {
    let m = model();
    check(&m, |s| &s.forms);
    check(&m, |s| &s.dpp_forms);
}

#[test]
fn equal_tables_are_one_and_only_differing_targets_have_their_own() {
    let m = model();
    let shared = share(&m, |s| &s.forms);
    let owners: Vec<Vec<&str>> = shared
        .tables
        .iter()
        .map(|t| t.owners.iter().map(|o| o.name.as_str()).collect())
        .collect();
    // gfx942.yaml and gfx950.yaml change the same `forms:` lines; gfx908's
    // `v_fract_f64` line changes only its DPP forms.
    assert!(owners.contains(&vec!["gfx942", "gfx950"]), "{owners:?}");
    assert!(owners.iter().all(|o| !o.contains(&"gfx908")), "{owners:?}");
    let dpp = share(&m, |s| &s.dpp_forms);
    let dpp_owners: Vec<Vec<&str>> = dpp
        .tables
        .iter()
        .map(|t| t.owners.iter().map(|o| o.name.as_str()).collect())
        .collect();
    assert!(
        dpp_owners.contains(&vec!["gfx11", "gfx12"]),
        "{dpp_owners:?}"
    );
    assert!(dpp_owners.contains(&vec!["gfx908"]), "{dpp_owners:?}");
}
