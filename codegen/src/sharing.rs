//! The form tables as `generated/forms.rs` writes them: every entry once.
//!
//! Each family has a table of forms and one of DPP forms: what its targets
//! have unless their file changes a `forms:` line. A target whose forms
//! differ from its family's has its own table. Tables with the same entries
//! are one table under several names (gfx942's and gfx950's). The entries of
//! the distinct tables are grouped by the set of tables that hold them; each
//! group is written once, and each table joins the groups it is in, the most
//! widely shared first. The groups come from comparing the merged tables, so
//! no list of what families share is written anywhere.

use crate::model::{FamilyModel, Model, Spec, TargetModel};

/// One kind of table entry, `Form` or `DppForm`, across every family and
/// target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shared<T> {
    /// The distinct tables, in generation order (a family, then its targets
    /// that have their own).
    pub tables: Vec<Table>,
    /// The groups, the most widely shared first.
    pub groups: Vec<Group<T>>,
}

/// One distinct table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The family and target names whose table this is, in generation
    /// order; the first one holds the value, the others name it.
    pub owners: Vec<Owner>,
    /// The groups it joins (indices into [`Shared::groups`]), in order.
    pub parts: Vec<usize>,
    /// Its number of entries.
    pub len: usize,
}

/// A family or target that has a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    /// `gfx9` or `gfx90a`.
    pub name: String,
    /// Its family's name, `None` for a family.
    pub family: Option<String>,
    /// The file its `forms:` come from.
    pub path: String,
}

/// Entries held by the same set of tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group<T> {
    /// The tables that hold them (indices into [`Shared::tables`]),
    /// ascending.
    pub tables: Vec<usize>,
    /// The entries, in the order the tables list them.
    pub entries: Vec<T>,
}

/// The name of the table a target's `entries` are in: its own where they
/// differ from its family's, else its family's.
pub fn table_owner<'a, T: PartialEq>(
    f: &'a FamilyModel,
    t: &'a TargetModel,
    entries: impl Fn(&Spec) -> &[T],
) -> &'a str {
    if entries(&t.spec) == entries(&f.defaults) {
        f.family.as_str()
    } else {
        t.target.as_str()
    }
}

/// The tables of `entries` (a spec's forms or DPP forms) for every family
/// and target of `model`, each entry once.
pub fn share<T: Clone + PartialEq>(model: &Model, entries: impl Fn(&Spec) -> &[T]) -> Shared<T> {
    // Every family's table and every target's own, in generation order.
    let mut named: Vec<(Owner, &[T])> = Vec::new();
    for f in &model.families {
        named.push((
            Owner {
                name: f.family.to_string(),
                family: None,
                path: f.path.clone(),
            },
            entries(&f.defaults),
        ));
        for t in model.targets_of(&f.family) {
            if table_owner(f, t, &entries) == t.target.as_str() {
                let path = t.inputs.last().cloned().unwrap_or_default();
                let owner = Owner {
                    name: t.target.to_string(),
                    family: Some(f.family.to_string()),
                    path,
                };
                named.push((owner, entries(&t.spec)));
            }
        }
    }
    // Equal tables are one.
    let mut tables: Vec<(Vec<Owner>, &[T])> = Vec::new();
    for (owner, list) in named {
        match tables.iter_mut().find(|(_, l)| *l == list) {
            Some((owners, _)) => owners.push(owner),
            None => tables.push((vec![owner], list)),
        }
    }
    // Each entry with the tables that hold it, in order of first appearance
    // (every table lists its entries in instruction order).
    let mut held: Vec<(T, Vec<usize>)> = Vec::new();
    for (i, (_, list)) in tables.iter().enumerate() {
        for e in *list {
            match held.iter_mut().find(|(x, _)| x == e) {
                Some((_, ts)) => ts.push(i),
                None => held.push((e.clone(), vec![i])),
            }
        }
    }
    let mut groups: Vec<Group<T>> = Vec::new();
    for (e, ts) in held {
        match groups.iter_mut().find(|g| g.tables == ts) {
            Some(g) => g.entries.push(e),
            None => groups.push(Group {
                tables: ts,
                entries: vec![e],
            }),
        }
    }
    // The most widely shared first; then by the tables that hold them.
    groups.sort_by(|a, b| {
        b.tables
            .len()
            .cmp(&a.tables.len())
            .then_with(|| a.tables.cmp(&b.tables))
    });
    let tables = tables
        .into_iter()
        .enumerate()
        .map(|(i, (owners, list))| Table {
            owners,
            parts: (0..groups.len())
                .filter(|&g| groups[g].tables.contains(&i))
                .collect(),
            len: list.len(),
        })
        .collect();
    Shared { tables, groups }
}
