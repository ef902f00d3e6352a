//! The source manifest (`sources.toml`): which file is which regulation, with
//! class, role defaults and role rules, jurisdiction, domains, status and
//! successor, EU act numbers and aliases. Checked-in data, embedded in the
//! binary ([`Manifest::builtin`]) and loadable from a user path
//! ([`Manifest::load`]). Unknown fields are errors that name the field.

use crate::error::CorpusError;
use crate::norm_order::cmp_norms;
use crate::parsers::SourceFormat;
use crate::raw::{NormKind, RawNorm};
use paragraf_types::{Domain, Jurisdiction, Lang, SourceClass, SourceRole, Status};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The manifest shipped with Paragraf.
pub const BUILTIN_TOML: &str = include_str!("../sources.toml");

/// One canonical regulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegulationEntry {
    /// Canonical short name (`DSGVO`, `BDSG 1990`, `NIST SP 800-53`).
    pub name: String,
    /// Other names resolving to it (`GDPR`, `DS-GVO`).
    #[serde(default)]
    pub aliases: Vec<String>,
    pub title: String,
    pub jurisdiction: Jurisdiction,
    pub domains: Vec<Domain>,
    pub status: Status,
    #[serde(default)]
    pub valid_from: Option<String>,
    #[serde(default)]
    pub valid_to: Option<String>,
    #[serde(default)]
    pub supersedes: Option<String>,
    #[serde(default)]
    pub superseded_by: Option<String>,
    /// Official URL.
    #[serde(default)]
    pub url: Option<String>,
    /// EU act numbers (`2016/679`) and CELEX ids (`32016R0679`).
    #[serde(default)]
    pub act_numbers: Vec<String>,
}

/// One source file (or a glob of files) of the corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceEntry {
    /// Path glob relative to the corpus root (`*`, `?`).
    pub path: String,
    pub format: SourceFormat,
    /// Canonical regulation; omitted for mapping files.
    #[serde(default)]
    pub regulation: Option<String>,
    pub lang: Lang,
    pub source_class: SourceClass,
    pub default_role: SourceRole,
    /// URL of this file's official source when it differs from the regulation's.
    #[serde(default)]
    pub url: Option<String>,
    /// Why the file yields no citable units, when it does not.
    #[serde(default)]
    pub note: Option<String>,
}

/// A named, data-driven role rule. All given conditions must hold; a list
/// condition holds when any entry matches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleRule {
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Norm kinds the rule applies to.
    #[serde(default)]
    pub kinds: Vec<NormKind>,
    /// Canonical regulations the rule applies to.
    #[serde(default)]
    pub regulations: Vec<String>,
    /// Norm labels: exact (`Anhang I`) or a sub-label of it (`Anhang I Teil 1`).
    #[serde(default)]
    pub norms: Vec<String>,
    /// Inclusive natural-order range of labels `[from, to]`.
    #[serde(default)]
    pub norm_range: Option<[String; 2]>,
    /// Case-insensitive substrings of the norm title.
    #[serde(default)]
    pub title_keywords: Vec<String>,
    /// Case-insensitive substrings of any parser hint (`part:guidance`).
    #[serde(default)]
    pub hints: Vec<String>,
    /// Source classes of the file.
    #[serde(default)]
    pub source_classes: Vec<SourceClass>,
    /// Role assigned when the rule fires.
    pub role: SourceRole,
    /// Source class override (recitals → `recital`).
    #[serde(default)]
    pub source_class: Option<SourceClass>,
}

/// A ranking scope hint for a range of norms (e.g. BDSG §§ 45–84).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScopeHint {
    pub regulation: String,
    pub from: String,
    pub to: String,
    pub hint: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestFile {
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    regulation: Vec<RegulationEntry>,
    #[serde(default)]
    source: Vec<SourceEntry>,
    #[serde(default)]
    role_rule: Vec<RoleRule>,
    #[serde(default)]
    scope_hint: Vec<ScopeHint>,
}

/// Result of applying the role rules to one norm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleDecision {
    pub role: SourceRole,
    pub source_class: SourceClass,
    /// Name of the rule that fired, or `default`.
    pub rule: String,
}

/// The loaded source manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// Where it came from (`builtin` or the path).
    pub origin: String,
    pub ignore: Vec<String>,
    pub regulations: Vec<RegulationEntry>,
    pub sources: Vec<SourceEntry>,
    pub role_rules: Vec<RoleRule>,
    pub scope_hints: Vec<ScopeHint>,
    alias_index: HashMap<String, usize>,
    act_index: HashMap<String, usize>,
}

/// A provision number as the official sites write it in addresses: digits,
/// then at most a few letters (`38`, `4f`, `202a`) or a Roman numeral
/// (`III`, for annexes).
fn is_provision_number(n: &str) -> bool {
    let digits = n.chars().take_while(char::is_ascii_digit).count();
    let rest = &n[digits..];
    if digits > 0 {
        rest.len() <= 2 && rest.chars().all(|c| c.is_ascii_lowercase())
    } else {
        !rest.is_empty() && rest.len() <= 6 && rest.chars().all(|c| "IVXLC".contains(c))
    }
}

/// Alias key: lower-case letters and digits only (`DS-GVO` → `dsgvo`).
pub fn alias_key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

impl Manifest {
    /// The manifest embedded in the binary (`crates/paragraf-corpus/sources.toml`).
    pub fn builtin() -> Result<Manifest, CorpusError> {
        Manifest::from_toml_str(BUILTIN_TOML, "builtin sources.toml")
    }

    /// Load a manifest from a TOML file.
    pub fn load(path: &Path) -> Result<Manifest, CorpusError> {
        let s = std::fs::read_to_string(path).map_err(|e| CorpusError::io(path, e))?;
        Manifest::from_toml_str(&s, &path.display().to_string())
    }

    /// Parse and validate manifest TOML; `origin` names it in errors.
    pub fn from_toml_str(s: &str, origin: &str) -> Result<Manifest, CorpusError> {
        let err = |message: String| CorpusError::Manifest {
            file: origin.to_string(),
            message,
        };
        let f: ManifestFile =
            toml::from_str(s).map_err(|e| err(e.to_string().trim_end().to_string()))?;
        let mut alias_index = HashMap::new();
        let mut act_index = HashMap::new();
        for (i, r) in f.regulation.iter().enumerate() {
            for a in std::iter::once(&r.name).chain(r.aliases.iter()) {
                let k = alias_key(a);
                if k.is_empty() {
                    return Err(err(format!("regulation `{}`: empty alias", r.name)));
                }
                if let Some(j) = alias_index.insert(k, i) {
                    if j != i {
                        return Err(err(format!(
                            "alias `{a}` of regulation `{}` already names `{}`",
                            r.name, f.regulation[j].name
                        )));
                    }
                }
            }
            for n in &r.act_numbers {
                act_index.insert(n.to_ascii_uppercase(), i);
            }
        }
        let m = Manifest {
            origin: origin.to_string(),
            ignore: f.ignore,
            regulations: f.regulation,
            sources: f.source,
            role_rules: f.role_rule,
            scope_hints: f.scope_hint,
            alias_index,
            act_index,
        };
        let known = |name: &str| m.regulations.iter().any(|r| r.name == name);
        for r in &m.regulations {
            for (field, v) in [
                ("supersedes", &r.supersedes),
                ("superseded_by", &r.superseded_by),
            ] {
                if let Some(v) = v {
                    if !known(v) && !v.starts_with("OWASP") {
                        return Err(err(format!(
                            "regulation `{}`: field `{field}` names unknown regulation `{v}`",
                            r.name
                        )));
                    }
                }
            }
            if r.status == Status::Superseded && r.superseded_by.is_none() {
                return Err(err(format!(
                    "regulation `{}`: status superseded needs field `superseded_by`",
                    r.name
                )));
            }
        }
        for s in &m.sources {
            match &s.regulation {
                Some(reg) if !known(reg) => {
                    return Err(err(format!(
                        "source `{}`: field `regulation` names unknown regulation `{reg}`",
                        s.path
                    )))
                }
                None if !s.format.is_mapping() => {
                    return Err(err(format!(
                        "source `{}`: missing field `regulation`",
                        s.path
                    )))
                }
                _ => {}
            }
        }
        for r in &m.role_rules {
            for reg in &r.regulations {
                if !known(reg) {
                    return Err(err(format!(
                        "role_rule `{}`: field `regulations` names unknown regulation `{reg}`",
                        r.name
                    )));
                }
            }
        }
        Ok(m)
    }

    /// Canonical regulation name for an alias (case-insensitive, ignoring
    /// spaces, `-`, `_`, `.`): `GDPR` → `DSGVO`, `AI Act` → `KI-VO`.
    pub fn canonical_regulation(&self, alias: &str) -> Option<&str> {
        self.alias_index
            .get(&alias_key(alias))
            .map(|&i| self.regulations[i].name.as_str())
    }

    /// The regulation entry of a canonical name.
    pub fn regulation(&self, name: &str) -> Option<&RegulationEntry> {
        self.regulations.iter().find(|r| r.name == name)
    }

    /// Canonical regulation of an EU act number (`2016/679`) or CELEX id.
    pub fn regulation_by_act_number(&self, number: &str) -> Option<&str> {
        self.act_index
            .get(&number.trim().to_ascii_uppercase())
            .map(|&i| self.regulations[i].name.as_str())
    }

    /// The official address of one provision (`norm` as the corpus labels
    /// it: `§ 38`, `§ 4f`, `Art. 37`, `ErwG 97`, `Anhang III`) of a
    /// regulation: the per-§ page of gesetze-im-internet.de
    /// (`…/bdsg_2018/__38.html`, `__4f.html`; the law's slug is the one in
    /// the regulation's `url`), the article's, recital's or annex's anchor
    /// on EUR-Lex where the regulation's source file carries those anchors
    /// (EUR-Lex XHTML: `#art_37`, `#rct_97`, `#anx_III`), else the
    /// regulation's own `url`. `None` when the regulation has no `url`.
    pub fn norm_url(&self, regulation: &str, norm: &str) -> Option<String> {
        let base = self.regulation(regulation)?.url.clone()?;
        let norm = norm.trim();
        const GII: &str = "https://www.gesetze-im-internet.de/";
        if let Some(slug) = base.strip_prefix(GII) {
            let slug = slug.trim_end_matches('/');
            let section = norm
                .strip_prefix('§')
                .map(str::trim)
                .filter(|n| is_provision_number(n));
            return Some(match section {
                Some(n) if !slug.is_empty() && !slug.contains('/') => {
                    format!("{GII}{slug}/__{}.html", n.to_ascii_lowercase())
                }
                _ => base,
            });
        }
        let anchored = self.sources.iter().any(|s| {
            s.regulation.as_deref() == Some(regulation) && s.format == SourceFormat::EurlexXhtml
        });
        if anchored && !base.contains('#') {
            let anchor = [("Art.", "art_"), ("ErwG", "rct_"), ("Anhang", "anx_")]
                .iter()
                .find_map(|(label, id)| {
                    let n = norm.strip_prefix(label)?.trim();
                    is_provision_number(n).then(|| format!("#{id}{n}"))
                });
            if let Some(a) = anchor {
                return Some(format!("{base}{a}"));
            }
        }
        Some(base)
    }

    /// Position of a regulation in the manifest (sort order of chunks).
    pub fn regulation_rank(&self, name: &str) -> usize {
        self.regulations
            .iter()
            .position(|r| r.name == name)
            .unwrap_or(usize::MAX)
    }

    /// Domains of a regulation (empty when unknown).
    pub fn domains(&self, regulation: &str) -> &[Domain] {
        self.regulation(regulation)
            .map(|r| r.domains.as_slice())
            .unwrap_or(&[])
    }

    /// Jurisdiction of a regulation.
    pub fn jurisdiction(&self, regulation: &str) -> Option<Jurisdiction> {
        self.regulation(regulation).map(|r| r.jurisdiction)
    }

    /// Status of a regulation.
    pub fn status(&self, regulation: &str) -> Option<Status> {
        self.regulation(regulation).map(|r| r.status)
    }

    /// Source class of a regulation's main source (first source entry).
    pub fn source_class(&self, regulation: &str) -> Option<SourceClass> {
        self.sources
            .iter()
            .find(|s| s.regulation.as_deref() == Some(regulation))
            .map(|s| s.source_class)
    }

    /// Whether a corpus-relative path is ignored by rule (README, LICENSE,
    /// `*.meta.json`, `scale/`, `eval/`).
    pub fn is_ignored(&self, rel: &str) -> bool {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.ignore
            .iter()
            .any(|g| glob_match(g, rel) || (!g.contains('/') && glob_match(g, name)))
    }

    /// The source entry matching a corpus-relative path (first match).
    pub fn source_for(&self, rel: &str) -> Option<&SourceEntry> {
        self.sources.iter().find(|s| glob_match(&s.path, rel))
    }

    /// Apply the role rules to a norm of a source.
    pub fn decide_role(
        &self,
        norm: &RawNorm,
        regulation: &str,
        source: &SourceEntry,
    ) -> RoleDecision {
        for r in &self.role_rules {
            if rule_matches(r, norm, regulation, source) {
                return RoleDecision {
                    role: r.role,
                    source_class: r.source_class.unwrap_or(source.source_class),
                    rule: r.name.clone(),
                };
            }
        }
        RoleDecision {
            role: source.default_role,
            source_class: source.source_class,
            rule: "default".into(),
        }
    }

    /// Scope hints that apply to a norm (`BDSG Teil 3 (§§ 45–84) …`).
    pub fn scope_hints_for(&self, regulation: &str, norm: &str) -> Vec<&str> {
        self.scope_hints
            .iter()
            .filter(|h| h.regulation == regulation && in_range(norm, &h.from, &h.to))
            .map(|h| h.hint.as_str())
            .collect()
    }
}

fn in_range(norm: &str, from: &str, to: &str) -> bool {
    same_prefix(norm, from) && cmp_norms(norm, from).is_ge() && cmp_norms(norm, to).is_le()
}

fn same_prefix(a: &str, b: &str) -> bool {
    a.chars()
        .take_while(|c| !c.is_ascii_digit())
        .collect::<String>()
        == b.chars()
            .take_while(|c| !c.is_ascii_digit())
            .collect::<String>()
}

fn rule_matches(r: &RoleRule, n: &RawNorm, regulation: &str, s: &SourceEntry) -> bool {
    if !r.kinds.is_empty() && !r.kinds.contains(&n.kind) {
        return false;
    }
    if !r.regulations.is_empty() && !r.regulations.iter().any(|x| x == regulation) {
        return false;
    }
    if !r.source_classes.is_empty() && !r.source_classes.contains(&s.source_class) {
        return false;
    }
    if !r.norms.is_empty()
        && !r.norms.iter().any(|x| {
            n.norm == *x
                || n.norm
                    .strip_prefix(x.as_str())
                    .is_some_and(|t| t.starts_with(' '))
        })
    {
        return false;
    }
    if let Some([from, to]) = &r.norm_range {
        if !in_range(&n.norm, from, to) {
            return false;
        }
    }
    if !r.title_keywords.is_empty() {
        let t = n.title.to_lowercase();
        if !r
            .title_keywords
            .iter()
            .any(|k| t.contains(&k.to_lowercase()))
        {
            return false;
        }
    }
    if !r.hints.is_empty() {
        let hs: Vec<String> = n.hints.iter().map(|h| h.to_lowercase()).collect();
        if !r.hints.iter().any(|k| {
            let k = k.to_lowercase();
            hs.iter().any(|h| h.contains(&k))
        }) {
            return false;
        }
    }
    true
}

/// Glob match with `*` (any run, also across `/`) and `?` (one char).
pub fn glob_match(pattern: &str, s: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = s.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let (mut star, mut mark) = (None::<usize>, 0usize);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(sp) = star {
            pi = sp + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m() -> Manifest {
        Manifest::builtin().expect("builtin manifest parses")
    }

    fn norm(kind: NormKind, label: &str, title: &str) -> RawNorm {
        RawNorm {
            kind,
            norm: label.into(),
            title: title.into(),
            breadcrumb: vec![],
            units: vec![],
            lang: Lang::De,
            framework: None,
            hints: vec![],
        }
    }

    #[test]
    fn aliases_resolve_case_insensitively() {
        let m = m();
        assert_eq!(m.canonical_regulation("GDPR"), Some("DSGVO"));
        assert_eq!(m.canonical_regulation("ds-gvo"), Some("DSGVO"));
        assert_eq!(m.canonical_regulation("AI Act"), Some("KI-VO"));
        assert_eq!(m.canonical_regulation("AI_ACT"), Some("KI-VO"));
        assert_eq!(m.canonical_regulation("BDSG-alt"), Some("BDSG 1990"));
        assert_eq!(m.canonical_regulation("TTDSG"), Some("TDDDG"));
        assert_eq!(m.canonical_regulation("Cybersecurity_Act"), Some("CSA"));
        assert_eq!(m.canonical_regulation("nope"), None);
        assert_eq!(m.regulation_by_act_number("2022/2555"), Some("NIS2"));
        assert_eq!(m.regulation_by_act_number("32024r2847"), Some("CRA"));
    }

    #[test]
    fn superseded_laws_have_successors() {
        let m = m();
        for (old, new) in [
            ("BDSG 1990", "BDSG"),
            ("BSIG 2009", "BSIG"),
            ("TMG", "DDG"),
            ("TTDSG 2021", "TDDDG"),
        ] {
            let r = m.regulation(old).unwrap();
            assert_eq!(r.status, Status::Superseded);
            assert_eq!(r.superseded_by.as_deref(), Some(new));
        }
    }

    #[test]
    fn every_design_name_is_a_regulation() {
        let m = m();
        for n in [
            "DSGVO",
            "BDSG",
            "TDDDG",
            "BSIG",
            "BSI-KritisV",
            "KRITISDachG",
            "DDG",
            "ProdHaftG",
            "ProdSG",
            "HinSchG",
            "GeschGehG",
            "TKG",
            "BetrVG",
            "AGG",
            "ArbSchG",
            "UWG",
            "HGB",
            "AO",
            "GwG",
            "KUG",
            "EGovG",
            "NIS2",
            "CRA",
            "KI-VO",
            "MVO",
            "PLD",
            "ePrivacy-RL",
            "DORA",
            "Data Act",
            "CSA",
            "RED",
            "GPSR",
            "JI-RL",
            "revDSG",
            "UK GDPR",
            "BDSG 1990",
            "BSIG 2009",
            "TMG",
            "TTDSG 2021",
            "NIST SP 800-53",
            "NIST SP 800-82",
            "OWASP ASVS",
            "BSI GS++",
        ] {
            assert!(m.regulation(n).is_some(), "{n}");
        }
    }

    #[test]
    fn role_rules_fire_with_names() {
        let m = m();
        let src = m.source_for("eu/de/dsgvo.formex.xml").unwrap().clone();
        let d = m.decide_role(&norm(NormKind::Recital, "ErwG 1", ""), "DSGVO", &src);
        assert_eq!(
            (d.role, d.source_class, d.rule.as_str()),
            (SourceRole::Interpretation, SourceClass::Recital, "recital")
        );
        let d = m.decide_role(
            &norm(NormKind::Article, "Art. 4", "Begriffsbestimmungen"),
            "DSGVO",
            &src,
        );
        assert_eq!(d.role, SourceRole::Definition);
        let d = m.decide_role(
            &norm(
                NormKind::Article,
                "Art. 33",
                "Meldung von Verletzungen des Schutzes",
            ),
            "DSGVO",
            &src,
        );
        assert_eq!(d.role, SourceRole::ProceduralRequirement);
        let d = m.decide_role(
            &norm(
                NormKind::Article,
                "Art. 83",
                "Allgemeine Bedingungen für die Verhängung von Geldbußen",
            ),
            "DSGVO",
            &src,
        );
        assert_eq!((d.role, d.rule.as_str()), (SourceRole::Sanction, "fines"));
        let d = m.decide_role(
            &norm(NormKind::Article, "Art. 37", "Benennung"),
            "DSGVO",
            &src,
        );
        assert_eq!(
            (d.role, d.rule.as_str()),
            (SourceRole::Obligation, "default")
        );
        let cra = m
            .source_for("eu/en-annexes/cra-annexes.json")
            .unwrap()
            .clone();
        let d = m.decide_role(&norm(NormKind::Annex, "Anhang I", "ESSENTIAL"), "CRA", &cra);
        assert_eq!(d.role, SourceRole::OperationalRequirement);
        let d = m.decide_role(
            &norm(NormKind::Annex, "Anhang II", "INFORMATION"),
            "CRA",
            &cra,
        );
        assert_ne!(d.rule, "essential_requirements_annex");
    }

    #[test]
    fn bdsg_part_3_scope_hint() {
        let m = m();
        assert_eq!(m.scope_hints_for("BDSG", "§ 45").len(), 1);
        assert_eq!(m.scope_hints_for("BDSG", "§ 84").len(), 1);
        assert!(m.scope_hints_for("BDSG", "§ 38").is_empty());
        assert!(m.scope_hints_for("BDSG", "§ 85").is_empty());
    }

    #[test]
    fn unknown_field_is_named() {
        let e = Manifest::from_toml_str("[[regulation]]\nname='X'\ntitle='x'\njurisdiction='DE'\ndomains=[]\nstatus='in_force'\ncolour='red'\n", "t.toml").unwrap_err();
        let s = e.to_string();
        assert!(s.contains("t.toml") && s.contains("colour"), "{s}");
    }

    #[test]
    fn globs_and_ignores() {
        assert!(glob_match(
            "mappings/iso27001-*.json",
            "mappings/iso27001-gdpr.json"
        ));
        assert!(!glob_match(
            "mappings/iso27001-*.json",
            "mappings/nist-csf-gdpr.json"
        ));
        let m = m();
        assert!(m.is_ignored("README.md"));
        assert!(m.is_ignored("de/gii/bdsg_2018.meta.json"));
        assert!(m.is_ignored("scale/gii-all-federal-law.tar.zst"));
        assert!(m.is_ignored("eu/en/LICENSE-Apache-2.0.txt"));
        assert!(!m.is_ignored("de/gii/bdsg_2018.xml"));
    }

    #[test]
    fn norm_url_points_at_the_provision_where_the_site_has_an_address() {
        let m = m();
        let url = |r: &str, n: &str| m.norm_url(r, n).unwrap_or_default();
        // gesetze-im-internet.de: one page per §, lettered §§ in lower case
        assert_eq!(
            url("BDSG", "§ 38"),
            "https://www.gesetze-im-internet.de/bdsg_2018/__38.html"
        );
        assert_eq!(
            url("HGB", "§ 267"),
            "https://www.gesetze-im-internet.de/hgb/__267.html"
        );
        assert_eq!(
            url("BDSG", "§ 4f"),
            "https://www.gesetze-im-internet.de/bdsg_2018/__4f.html"
        );
        // no § page for anything else: the law's page
        assert_eq!(
            url("BDSG", "Anlage"),
            "https://www.gesetze-im-internet.de/bdsg_2018/"
        );
        // EUR-Lex: the XHTML source carries art_/rct_/anx_ anchors
        assert_eq!(
            url("KI-VO", "Art. 5"),
            "https://eur-lex.europa.eu/eli/reg/2024/1689/oj#art_5"
        );
        assert_eq!(
            url("KI-VO", "ErwG 27"),
            "https://eur-lex.europa.eu/eli/reg/2024/1689/oj#rct_27"
        );
        assert_eq!(
            url("KI-VO", "Anhang III"),
            "https://eur-lex.europa.eu/eli/reg/2024/1689/oj#anx_III"
        );
        // Formex / JSON sources show no anchors: the act's page
        assert_eq!(
            url("DSGVO", "Art. 37"),
            "https://eur-lex.europa.eu/eli/reg/2016/679/oj"
        );
        assert_eq!(m.norm_url("no such law", "§ 1"), None);
    }
}
