//! Metadata filters on chunks. Each list restricts one field; an empty list
//! admits every value; all non-empty lists must match (AND across fields,
//! OR within a field).

use paragraf_types::{Chunk, Jurisdiction, Lang, SourceClass, SourceRole, Status};
use serde::{Deserialize, Serialize};

/// A metadata filter applied to dense, BM25 and sparse search.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Filter {
    /// Canonical regulation names (`DSGVO`, `BDSG`).
    pub regulations: Vec<String>,
    pub jurisdictions: Vec<Jurisdiction>,
    pub classes: Vec<SourceClass>,
    pub roles: Vec<SourceRole>,
    pub statuses: Vec<Status>,
    pub langs: Vec<Lang>,
}

impl Filter {
    /// True when no field is restricted.
    pub fn is_empty(&self) -> bool {
        self.regulations.is_empty()
            && self.jurisdictions.is_empty()
            && self.classes.is_empty()
            && self.roles.is_empty()
            && self.statuses.is_empty()
            && self.langs.is_empty()
    }

    /// Whether `c` passes every restricted field.
    pub fn matches(&self, c: &Chunk) -> bool {
        fn ok<T: PartialEq>(list: &[T], v: &T) -> bool {
            list.is_empty() || list.contains(v)
        }
        (self.regulations.is_empty() || self.regulations.iter().any(|r| r == &c.regulation))
            && ok(&self.jurisdictions, &c.jurisdiction)
            && ok(&self.classes, &c.source_class)
            && ok(&self.roles, &c.source_role)
            && ok(&self.statuses, &c.status)
            && ok(&self.langs, &c.lang)
    }

    /// A doc-id predicate over `chunks` (doc id = position), for the search
    /// functions; `None` when the filter is empty.
    pub fn predicate<'a>(&'a self, chunks: &'a [Chunk]) -> Option<impl Fn(u32) -> bool + 'a> {
        if self.is_empty() {
            return None;
        }
        Some(move |d: u32| chunks.get(d as usize).is_some_and(|c| self.matches(c)))
    }
}
