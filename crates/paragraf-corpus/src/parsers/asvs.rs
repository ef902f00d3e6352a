//! OWASP ASVS flat JSON (`controls/owasp-asvs-*.flat.json`): `{requirements:
//! [{chapter_id, chapter_name, section_id, section_name, req_id,
//! req_description, L | level1/level2/level3, cwe?, nist?}]}` (a bare list is
//! accepted too). Version 4.0.3 is the German translation, 5.0.0 English.
//!
//! Per requirement one [`NormKind::Control`] norm: `norm` = `req_id`
//! (`V2.4.1`), title = section name, breadcrumb `[V2 Chapter, V2.4 Section]`,
//! framework `OWASP-ASVS-<version>` (version from the file name, else from the
//! data: `L` → 5.0.0, `level1..3` → 4.0.3), family = `chapter_id`; hints
//! `level:L1` (the lowest level that requires it; 4.0.3 marks levels with ✓
//! or a level-specific value), `cwe:<n>`, `nist:<ref>`. Entries marked
//! `[GELÖSCHT, …]` / `[DELETED, …]` are withdrawn requirements without text and
//! are skipped. Language: `-de.` / `-en.` in the file name, else detected from
//! the text (`Prüfen Sie` → de).

use super::eu_json::text;
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::{Framework, Lang};
use regex::Regex;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::LazyLock;

#[derive(Deserialize)]
#[serde(untagged)]
enum Doc<'a> {
    Wrapped {
        #[serde(borrow)]
        requirements: Vec<Req<'a>>,
    },
    List(#[serde(borrow)] Vec<Req<'a>>),
}

#[derive(Deserialize)]
struct Req<'a> {
    #[serde(borrow, default)]
    chapter_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    chapter_name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    section_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    section_name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    req_id: Cow<'a, str>,
    #[serde(borrow)]
    req_description: Cow<'a, str>,
    #[serde(default, rename = "L")]
    level: Option<Level>,
    #[serde(borrow, default)]
    level1: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    level2: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    level3: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    cwe: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    nist: Option<Cow<'a, str>>,
}

/// `L` is a string (`"2"`) in the corpus; a number is accepted too.
#[derive(Deserialize)]
#[serde(untagged)]
enum Level {
    Num(u64),
    Str(String),
}

/// Parses one ASVS flat JSON file (see the module docs).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let doc: Doc<'_> = match serde_json::from_slice(bytes) {
        Ok(d) => d,
        Err(e) => {
            // The untagged enum hides the position of data errors: re-parse
            // as the wrapped form to report line/column.
            #[derive(Deserialize)]
            struct Strict<'a> {
                #[serde(borrow)]
                #[allow(dead_code)]
                requirements: Vec<Req<'a>>,
            }
            let err = serde_json::from_slice::<Strict<'_>>(bytes)
                .err()
                .unwrap_or(e);
            return Err(text::json_error(file, &err));
        }
    };
    let reqs = match doc {
        Doc::Wrapped { requirements } => requirements,
        Doc::List(l) => l,
    };
    let name = file.rsplit('/').next().unwrap_or(file).to_lowercase();
    static VERSION_RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(\d+\.\d+\.\d+)").expect("static regex"));
    let version = match VERSION_RE.captures(&name) {
        Some(c) => c[1].to_string(),
        None if reqs.iter().any(|r| r.level.is_some()) => "5.0.0".into(),
        None if reqs.iter().any(|r| r.level1.is_some()) => "4.0.3".into(),
        None => {
            return Err(ParseError::new(
                file,
                None,
                "cannot tell the ASVS version (not in file name, no level fields)",
            ))
        }
    };
    let lang = if name.contains("-de.") || name.contains("_de.") {
        Lang::De
    } else if name.contains("-en.") || name.contains("_en.") {
        Lang::En
    } else if reqs
        .iter()
        .take(20)
        .any(|r| r.req_description.contains("Prüfen Sie"))
    {
        Lang::De
    } else {
        Lang::En
    };
    let framework_id = format!("OWASP-ASVS-{version}");
    let mut out = Vec::with_capacity(reqs.len());
    for (i, r) in reqs.iter().enumerate() {
        let id = r.req_id.trim();
        if id.is_empty() {
            return Err(ParseError::new(
                file,
                Some(format!("$.requirements[{i}].req_id")),
                "empty req_id",
            ));
        }
        let desc = text::strip_markup(&r.req_description);
        let upper = desc.to_uppercase();
        if desc.is_empty() || upper.starts_with("[GELÖSCHT") || upper.starts_with("[DELETED") {
            continue;
        }
        let chapter = r
            .chapter_id
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| id.split('.').next().unwrap_or(id).to_string());
        let section_id = r.section_id.as_deref().map(str::trim).unwrap_or("");
        let section_name = text::clean_line(r.section_name.as_deref().unwrap_or(""));
        let mut breadcrumb = vec![format!(
            "{chapter} {}",
            text::clean_line(r.chapter_name.as_deref().unwrap_or(""))
        )
        .trim()
        .to_string()];
        if !section_id.is_empty() || !section_name.is_empty() {
            breadcrumb.push(format!("{section_id} {section_name}").trim().to_string());
        }
        let mut hints = Vec::new();
        let min_level = match &r.level {
            Some(Level::Num(n)) => Some(*n),
            Some(Level::Str(s)) => s.trim().trim_start_matches(['L', 'l']).parse().ok(),
            None => [&r.level1, &r.level2, &r.level3]
                .iter()
                .position(|l| l.as_deref().is_some_and(|v| !v.trim().is_empty()))
                .map(|p| p as u64 + 1),
        };
        if let Some(l) = min_level {
            hints.push(format!("level:L{l}"));
        }
        if let Some(c) = r.cwe.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            for c in c.split([',', ' ']).filter(|c| !c.is_empty()) {
                hints.push(format!("cwe:{c}"));
            }
        }
        if let Some(n) = r.nist.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            for n in n.split([',', ' ']).filter(|c| !c.is_empty()) {
                hints.push(format!("nist:{n}"));
            }
        }
        out.push(RawNorm {
            kind: NormKind::Control,
            norm: id.to_string(),
            title: section_name,
            breadcrumb,
            units: vec![RawUnit {
                label: None,
                text: desc,
            }],
            lang,
            framework: Some(Framework {
                framework_id: framework_id.clone(),
                framework_control_id: id.to_string(),
                framework_family: chapter,
            }),
            hints,
        });
    }
    Ok(out)
}
