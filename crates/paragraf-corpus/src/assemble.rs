//! From parsed norms to the chunks of the data model: every field of a
//! chunk (ids, citation, class and role, metadata, references), corpus
//! order, the norm graph (`references_in`) and the labels of control
//! mappings.

use crate::chunking::chunk_units;
use crate::manifest::{Manifest, SourceEntry};
use crate::norm_order::norm_key;
use crate::raw::RawNorm;
use crate::refs::extract_references;
use paragraf_types::{Chunk, ChunkId, NormRef, SourceClass, SourceRole, Status};
use std::collections::{BTreeSet, HashMap, HashSet};

/// `"32"` → `Art. 32`, `"21(2)"` → `Art. 21`, `"Annex I"` → `Anhang I`,
/// `"Recital 26"` → `ErwG 26`, `"Article 5"` → `Art. 5`.
pub fn mapping_label(s: &str) -> Option<String> {
    let s = s.trim();
    let num = |t: &str| -> Option<String> {
        let t = t.trim();
        let d: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        if d.is_empty() {
            return None;
        }
        let rest = &t[d.len()..];
        let suffix: String = rest
            .chars()
            .take(1)
            .filter(|c| c.is_ascii_lowercase())
            .collect();
        let after = rest.get(suffix.len()..).unwrap_or("");
        if after.chars().next().is_some_and(|c| c.is_alphanumeric()) {
            return None;
        }
        Some(format!("{d}{suffix}"))
    };
    if let Some(rest) = s
        .strip_prefix("Annex ")
        .or_else(|| s.strip_prefix("Anhang "))
    {
        let r: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        return (!r.is_empty()).then(|| format!("Anhang {r}"));
    }
    if let Some(rest) = s
        .strip_prefix("Recital ")
        .or_else(|| s.strip_prefix("ErwG "))
    {
        return num(rest).map(|n| format!("ErwG {n}"));
    }
    for p in ["Article ", "Art. ", "Art "] {
        if let Some(rest) = s.strip_prefix(p) {
            return num(rest).map(|n| format!("Art. {n}"));
        }
    }
    num(s).map(|n| format!("Art. {n}"))
}

/// Turn one parsed norm into its chunks with every field of the data model.
pub fn build_chunks(
    norm: &RawNorm,
    regulation: &str,
    src: &SourceEntry,
    rel: &str,
    manifest: &Manifest,
    max_tokens: usize,
) -> Vec<Chunk> {
    let reg = manifest.regulation(regulation);
    let decision = manifest.decide_role(norm, regulation, src);
    let parts = chunk_units(&norm.units, max_tokens);
    let n_parts = parts.len() as u32;
    let mut used = HashSet::new();
    let mut out = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let mut sub = if n_parts > 1 {
            Some(p.subunit(i))
        } else {
            None
        };
        let mut id = ChunkId::new(regulation, &norm.norm, sub.as_deref(), norm.lang);
        let mut k = 2;
        while !used.insert(id.clone()) {
            let s = format!("{}.{k}", p.subunit(i));
            id = ChunkId::new(regulation, &norm.norm, Some(&s), norm.lang);
            sub = Some(s);
            k += 1;
        }
        let _ = sub;
        let citation = match (n_parts > 1).then(|| p.label_range()).flatten() {
            Some(range) => format!("{} {} {}", norm.norm, range, regulation),
            None => format!("{} {}", norm.norm, regulation),
        };
        let ex = extract_references(&p.text, regulation, manifest);
        out.push(Chunk {
            id,
            regulation: regulation.to_string(),
            norm: norm.norm.clone(),
            citation,
            title: norm.title.clone(),
            breadcrumb: norm.breadcrumb.clone(),
            text: p.text.clone(),
            lang: norm.lang,
            jurisdiction: reg
                .map(|r| r.jurisdiction)
                .unwrap_or(paragraf_types::Jurisdiction::De),
            source_class: decision.source_class,
            source_role: decision.role,
            role_rule: decision.rule.clone(),
            domains: reg.map(|r| r.domains.clone()).unwrap_or_default(),
            status: reg.map(|r| r.status).unwrap_or(Status::InForce),
            valid_from: reg.and_then(|r| r.valid_from.clone()),
            valid_to: reg.and_then(|r| r.valid_to.clone()),
            superseded_by: reg.and_then(|r| r.superseded_by.clone()),
            references_out: ex.resolved,
            references_in: Vec::new(),
            unresolved_references: ex.unresolved,
            framework: norm.framework.clone(),
            source_file: rel.to_string(),
            part: i as u32,
            parts: n_parts,
        });
    }
    out
}

/// Deterministic order: manifest regulation order, language (de first), norm
/// natural order, part, id.
pub fn sort_chunks(chunks: &mut [Chunk], manifest: &Manifest) {
    let rank: HashMap<&str, usize> = manifest
        .regulations
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    chunks.sort_by_cached_key(|c| {
        (
            rank.get(c.regulation.as_str())
                .copied()
                .unwrap_or(usize::MAX),
            c.regulation.clone(),
            c.lang,
            norm_key(&c.norm),
            c.norm.clone(),
            c.part,
            c.id.clone(),
        )
    });
}

/// The graph pass: keep only references to norms that exist in the corpus
/// (the rest become unresolved), drop self-references, and fill
/// `references_in` as the norm-level inverse of `references_out`.
pub fn build_graph(chunks: &mut [Chunk]) {
    let existing: HashSet<NormRef> = chunks.iter().map(|c| c.norm_ref()).collect();
    let mut incoming: HashMap<NormRef, BTreeSet<NormRef>> = HashMap::new();
    for c in chunks.iter_mut() {
        let me = c.norm_ref();
        let mut keep = Vec::with_capacity(c.references_out.len());
        for r in std::mem::take(&mut c.references_out) {
            if r == me {
                continue;
            }
            if existing.contains(&r) {
                keep.push(r);
            } else {
                c.unresolved_references.push(r.0);
            }
        }
        keep.sort();
        keep.dedup();
        c.unresolved_references.sort();
        c.unresolved_references.dedup();
        for r in &keep {
            incoming.entry(r.clone()).or_default().insert(me.clone());
        }
        c.references_out = keep;
    }
    for c in chunks.iter_mut() {
        c.references_in = incoming
            .get(&c.norm_ref())
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
    }
}

/// Role/class helpers for callers that want the control pool.
pub fn is_control_chunk(c: &Chunk) -> bool {
    c.source_role.in_control_pool()
        || c.source_class == SourceClass::ControlStandard
        || c.source_role == SourceRole::ControlStandard
}

#[cfg(test)]
mod tests {
    use super::*;
    use paragraf_types::Lang;

    #[test]
    fn mapping_labels() {
        assert_eq!(mapping_label("32").as_deref(), Some("Art. 32"));
        assert_eq!(mapping_label("21(2)").as_deref(), Some("Art. 21"));
        assert_eq!(mapping_label("4a").as_deref(), Some("Art. 4a"));
        assert_eq!(mapping_label("Annex III").as_deref(), Some("Anhang III"));
        assert_eq!(mapping_label("Recital 26").as_deref(), Some("ErwG 26"));
        assert_eq!(mapping_label("Article 5").as_deref(), Some("Art. 5"));
        assert_eq!(mapping_label("whatever"), None);
    }

    fn chunk(reg: &str, norm: &str, refs: &[&str]) -> Chunk {
        let mut c = Chunk::new(reg, norm, String::new(), Lang::De, "x");
        c.references_out = refs.iter().map(|r| NormRef(r.to_string())).collect();
        c
    }

    #[test]
    fn graph_inverts_and_checks_existence() {
        let mut cs = vec![
            chunk(
                "BDSG",
                "§ 38",
                &["Art. 37 DSGVO", "§ 38 BDSG", "Art. 999 DSGVO"],
            ),
            chunk("DSGVO", "Art. 37", &[]),
        ];
        build_graph(&mut cs);
        assert_eq!(cs[0].references_out, vec![NormRef("Art. 37 DSGVO".into())]);
        assert_eq!(
            cs[0].unresolved_references,
            vec!["Art. 999 DSGVO".to_string()]
        );
        assert_eq!(cs[1].references_in, vec![NormRef("§ 38 BDSG".into())]);
        assert!(cs[0].references_in.is_empty());
    }
}
