//! NIST catalogues: SP 800-53 Rev. 5 as TSV and the SP 800-82 Rev. 3 OT
//! overlay as JSON.
//!
//! SP 800-53 TSV columns (found by header name, positional fallback):
//! `Control Identifier`, `Control (or Control Enhancement) Name`,
//! `Control (or Control Enhancement)`, `Discussion`, `Related Controls`;
//! fields may be double-quoted with embedded newlines and `""` escapes. Per
//! row with control text: one [`NormKind::Control`] norm (`norm: "AC-2(1)"`,
//! framework `NIST-SP-800-53r5`, family = the letter prefix `AC`; units = one
//! per top-level item `a.`, `b.` labelled `lit. a`, or one unlabelled unit;
//! hints `related:AC-3`, `parent:AC-2` for enhancements) and, when a
//! discussion is present, one [`NormKind::ControlGuidance`] norm
//! `"AC-2(1) Discussion"` (hint `part:guidance`). Rows without control text
//! and discussion are the controls withdrawn in Rev. 5; they carry no text and
//! are skipped.
//!
//! SP 800-82 overlay JSON: a list of `{control_id, family, family_name,
//! title, ot_discussion, content}`; `content` is a flattened markdown table of
//! the OT baselines followed by `OT Discussion: …`. Per entry one
//! [`NormKind::Control`] norm, framework `NIST-SP-800-82r3`, with units
//! `OT-Diskussion` (the OT discussion, tables removed) and `Baselines` (one
//! line per control/enhancement row of the table: `AC-3(11) …: LOW –, MOD –,
//! HIGH Add`), hints `baseline:LOW|MOD|HIGH` for the control's own row.

use super::eu_json::text;
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::{Framework, Lang};
use regex::Regex;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::LazyLock;

/// Official SP 800-53 Rev. 5 family names, for breadcrumbs.
const FAMILIES: &[(&str, &str)] = &[
    ("AC", "Access Control"),
    ("AT", "Awareness and Training"),
    ("AU", "Audit and Accountability"),
    ("CA", "Assessment, Authorization, and Monitoring"),
    ("CM", "Configuration Management"),
    ("CP", "Contingency Planning"),
    ("IA", "Identification and Authentication"),
    ("IR", "Incident Response"),
    ("MA", "Maintenance"),
    ("MP", "Media Protection"),
    ("PE", "Physical and Environmental Protection"),
    ("PL", "Planning"),
    ("PM", "Program Management"),
    ("PS", "Personnel Security"),
    ("PT", "PII Processing and Transparency"),
    ("RA", "Risk Assessment"),
    ("SA", "System and Services Acquisition"),
    ("SC", "System and Communications Protection"),
    ("SI", "System and Information Integrity"),
    ("SR", "Supply Chain Risk Management"),
];

static CONTROL_ID_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([A-Z]{2})-(\d{1,3})(?:\s?\((\d{1,3})\))?$").expect("static regex")
});

/// Parses the SP 800-53 Rev. 5 TSV (see the module docs).
pub fn parse_tsv(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let s = super::text::utf8(file, bytes)?;
    let rows = tsv_rows(file, s)?;
    let Some((header, body)) = rows.split_first() else {
        return Err(ParseError::new(
            file,
            Some("line 1".into()),
            "empty TSV file",
        ));
    };
    let col = |pred: &dyn Fn(&str) -> bool, default: usize| {
        header
            .1
            .iter()
            .position(|h| pred(&h.to_lowercase()))
            .unwrap_or(default)
    };
    let c_id = col(&|h| h.contains("identifier"), 0);
    let c_name = col(&|h| h.contains("name"), 1);
    let c_text = col(
        &|h| h.starts_with("control") && !h.contains("name") && !h.contains("identifier"),
        2,
    );
    let c_disc = col(&|h| h.contains("discussion"), 3);
    let c_rel = col(&|h| h.contains("related"), 4);
    if !header
        .1
        .iter()
        .any(|h| h.to_lowercase().contains("identifier"))
    {
        return Err(ParseError::new(
            file,
            Some("line 1".into()),
            "missing header row (expected a `Control Identifier` column)",
        ));
    }
    let mut out = Vec::with_capacity(body.len() * 2);
    for (line, row) in body {
        let get = |i: usize| row.get(i).map(String::as_str).unwrap_or("");
        let id_raw = get(c_id).trim();
        if id_raw.is_empty() && row.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let caps = CONTROL_ID_RE.captures(id_raw).ok_or_else(|| {
            ParseError::new(
                file,
                Some(format!("line {line}")),
                format!("malformed control id {id_raw:?}"),
            )
        })?;
        let family = caps[1].to_string();
        let base = format!("{}-{}", &caps[1], &caps[2]);
        let id = match caps.get(3) {
            Some(e) => format!("{base}({})", e.as_str()),
            None => base.clone(),
        };
        let control_text = get(c_text).trim();
        let discussion = get(c_disc).trim();
        if control_text.is_empty() && discussion.is_empty() {
            continue; // withdrawn in Rev. 5
        }
        let title = text::clean_line(get(c_name));
        let mut breadcrumb = vec![match FAMILIES.iter().find(|(f, _)| *f == family) {
            Some((f, n)) => format!("{f} {n}"),
            None => family.clone(),
        }];
        let mut hints = Vec::new();
        if id != base {
            hints.push(format!("parent:{base}"));
            let parent_title = title.split(" | ").next().unwrap_or("").trim();
            breadcrumb.push(format!("{base} {parent_title}").trim().to_string());
        }
        for r in get(c_rel)
            .split([',', ';'])
            .map(str::trim)
            .filter(|r| !r.is_empty())
        {
            hints.push(format!("related:{}", r.replace(' ', "")));
        }
        let framework = Framework {
            framework_id: "NIST-SP-800-53r5".into(),
            framework_control_id: id.clone(),
            framework_family: family.clone(),
        };
        if !control_text.is_empty() {
            out.push(RawNorm {
                kind: NormKind::Control,
                norm: id.clone(),
                title: title.clone(),
                breadcrumb: breadcrumb.clone(),
                units: lettered_units(control_text),
                lang: Lang::En,
                framework: Some(framework.clone()),
                hints,
            });
        }
        if !discussion.is_empty() {
            out.push(RawNorm {
                kind: NormKind::ControlGuidance,
                norm: format!("{id} Discussion"),
                title,
                breadcrumb,
                units: vec![RawUnit {
                    label: None,
                    text: text::clean_text(discussion),
                }],
                lang: Lang::En,
                framework: Some(framework),
                hints: vec!["part:guidance".into(), format!("control:{id}")],
            });
        }
    }
    Ok(out)
}

/// Splits control text into `lit. a`, `lit. b` units at top-level `a.` lines.
fn lettered_units(s: &str) -> Vec<RawUnit> {
    static TOP_RE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^([a-z])\. ").expect("static regex"));
    let mut units: Vec<RawUnit> = Vec::new();
    let mut label: Option<String> = None;
    let mut lines: Vec<String> = Vec::new();
    for l in s.lines().map(text::clean_line).filter(|l| !l.is_empty()) {
        if let Some(c) = TOP_RE.captures(&l) {
            if label.is_some() || !lines.is_empty() {
                units.push(RawUnit {
                    label: label.take(),
                    text: lines.join("\n"),
                });
                lines.clear();
            }
            label = Some(format!("lit. {}", &c[1]));
        }
        lines.push(l);
    }
    if label.is_some() || !lines.is_empty() {
        units.push(RawUnit {
            label,
            text: lines.join("\n"),
        });
    }
    units
}

/// Tab-separated rows with RFC 4180 quoting; each row with its 1-based start
/// line.
fn tsv_rows(file: &str, s: &str) -> Result<Vec<(usize, Vec<String>)>, ParseError> {
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut line = 1usize;
    let mut row_line = 1usize;
    let mut quoted = false;
    let mut quote_line = 0usize;
    let mut at_field_start = true;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push('\n');
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if at_field_start => {
                quoted = true;
                quote_line = line;
                at_field_start = false;
            }
            '\t' => {
                row.push(std::mem::take(&mut field));
                at_field_start = true;
            }
            '\r' => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push((row_line, std::mem::take(&mut row)));
                line += 1;
                row_line = line;
                at_field_start = true;
            }
            _ => {
                field.push(c);
                at_field_start = false;
            }
        }
    }
    if quoted {
        return Err(ParseError::new(
            file,
            Some(format!("line {quote_line}")),
            "unterminated quoted field (truncated file?)",
        ));
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push((row_line, row));
    }
    Ok(rows)
}

#[derive(Deserialize)]
struct OtEntry<'a> {
    #[serde(borrow)]
    control_id: Cow<'a, str>,
    #[serde(borrow, default)]
    family: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    family_name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    ot_discussion: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    content: Option<Cow<'a, str>>,
}

/// Parses the SP 800-82 Rev. 3 OT overlay JSON (see the module docs).
pub fn parse_82_json(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let entries: Vec<OtEntry<'_>> =
        serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let mut out = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let id_raw = e.control_id.trim();
        let caps = CONTROL_ID_RE.captures(id_raw).ok_or_else(|| {
            ParseError::new(
                file,
                Some(format!("$[{i}].control_id")),
                format!("malformed control id {id_raw:?}"),
            )
        })?;
        let id = match caps.get(3) {
            Some(x) => format!("{}-{}({})", &caps[1], &caps[2], x.as_str()),
            None => format!("{}-{}", &caps[1], &caps[2]),
        };
        let family = e
            .family
            .as_deref()
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .unwrap_or(&caps[1])
            .to_string();
        let family_name = text::clean_line(e.family_name.as_deref().unwrap_or(""));
        let content = e.content.as_deref().unwrap_or("");
        let mut discussion = ot_discussion_text(e.ot_discussion.as_deref().unwrap_or(""));
        if discussion.is_empty() {
            if let Some(pos) = content.find("OT Discussion:") {
                discussion = ot_discussion_text(&content[pos + "OT Discussion:".len()..]);
            }
        }
        if discussion.is_empty() && content.contains("No OT Discussion for this control") {
            // The source states it explicitly; keep that statement.
            discussion = "No OT Discussion for this control.".to_string();
        }
        let table_end = content.find("OT Discussion:").unwrap_or(content.len());
        let rows = baseline_rows(&content[..table_end], &id);
        let mut hints = Vec::new();
        if let Some((_, _, Some(levels))) = rows.iter().find(|(rid, _, _)| *rid == id) {
            for (name, v) in ["LOW", "MOD", "HIGH"].iter().zip(levels.iter()) {
                if !v.is_empty() {
                    hints.push(format!("baseline:{name}"));
                }
            }
        }
        let mut units = Vec::new();
        if !discussion.is_empty() {
            units.push(RawUnit {
                label: Some("OT-Diskussion".into()),
                text: discussion,
            });
        }
        if !rows.is_empty() {
            let lines: Vec<String> = rows
                .iter()
                .map(|(rid, name, lv)| match lv {
                    Some(lv) => {
                        let v = |s: &String| {
                            if s.is_empty() {
                                "–".to_string()
                            } else {
                                s.clone()
                            }
                        };
                        format!(
                            "{rid} {name}: LOW {}, MOD {}, HIGH {}",
                            v(&lv[0]),
                            v(&lv[1]),
                            v(&lv[2])
                        )
                    }
                    None => format!("{rid} {name}: no baseline allocation"),
                })
                .collect();
            units.push(RawUnit {
                label: Some("Baselines".into()),
                text: lines.join("\n"),
            });
        }
        if units.is_empty() {
            units.push(RawUnit {
                label: None,
                text: String::new(),
            });
        }
        out.push(RawNorm {
            kind: NormKind::Control,
            norm: id.clone(),
            title: text::clean_line(e.title.as_deref().unwrap_or("")),
            breadcrumb: vec![format!("{family} {family_name}").trim().to_string()],
            units,
            lang: Lang::En,
            framework: Some(Framework {
                framework_id: "NIST-SP-800-82r3".into(),
                framework_control_id: id,
                framework_family: family,
            }),
            hints,
        });
    }
    Ok(out)
}

/// OT discussion prose: cut at the first embedded table (which belongs to the
/// next control in the extracted source), markup removed.
fn ot_discussion_text(s: &str) -> String {
    let cut = s.find("| ").or_else(|| s.find(" |")).unwrap_or(s.len());
    text::strip_markup(s[..cut].trim())
}

/// Rows `(id, name, [LOW, MOD, HIGH])` of a flattened baseline table that
/// belong to control `id` (its own row and its enhancements).
fn baseline_rows(table: &str, id: &str) -> Vec<(String, String, Option<[String; 3]>)> {
    let base = id.split('(').next().unwrap_or(id);
    let cells: Vec<String> = table.split('|').map(text::strip_markup).collect();
    let mut rows: Vec<(String, String, Option<[String; 3]>)> = Vec::new();
    let valid =
        |v: &str| v.is_empty() || matches!(v, "Select" | "Add" | "Remove" | "Added" | "Removed");
    let mut i = 0;
    while i < cells.len() {
        if let Some(c) = CONTROL_ID_RE.captures(&cells[i]) {
            let rid = match c.get(3) {
                Some(e) => format!("{}-{}({})", &c[1], &c[2], e.as_str()),
                None => format!("{}-{}", &c[1], &c[2]),
            };
            let rbase = format!("{}-{}", &c[1], &c[2]);
            let name = cells.get(i + 1).cloned().unwrap_or_default();
            let fresh = rbase == base && !name.is_empty() && !rows.iter().any(|r| r.0 == rid);
            if fresh && i + 4 < cells.len() {
                let lv = [
                    cells[i + 2].clone(),
                    cells[i + 3].clone(),
                    cells[i + 4].clone(),
                ];
                if lv.iter().all(|v| valid(v)) {
                    rows.push((rid, name, Some(lv)));
                    i += 5;
                    continue;
                }
            }
            // A row without baseline columns (program management controls
            // are not allocated to baselines).
            if fresh
                && cells.get(i + 2).is_none_or(|c| c.is_empty() || !valid(c))
                && !name.contains("CONTROL")
            {
                rows.push((rid, name, None));
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_quotes_and_newlines() {
        let rows = tsv_rows("t", "a\tb\n\"x\ty\n\"\"q\"\"\"\tz\n").unwrap_or_default();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].1, vec!["x\ty\n\"q\"".to_string(), "z".to_string()]);
        assert!(tsv_rows("t", "a\t\"open").is_err());
    }

    #[test]
    fn baseline_table_rows() {
        let t = "| CNTL | NAME | | | |---| | AC-3 | Access Enforcement | Select | Select | Select | | AC-3<br>(11) | RESTRICT | | | Add | | AC-4 | Other | Select | | |";
        let rows = baseline_rows(t, "AC-3");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].0, "AC-3(11)");
        assert_eq!(rows[1].2.as_ref().map(|l| l[2].as_str()), Some("Add"));
        let pm = baseline_rows("| CNTL | CONTROL NAME | |---| | NO. | Control Enhancement Name | | PM-1 | Program Plan | No OT", "PM-1");
        assert_eq!(
            pm,
            vec![("PM-1".to_string(), "Program Plan".to_string(), None)]
        );
    }
}
