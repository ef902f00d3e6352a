//! BSI Grundschutz++ catalogues in OSCAL JSON (`controls/*.oscal.json`:
//! the kernel, the method catalogue and the draft minimum standard TLS),
//! German.
//!
//! Walk: `catalog.groups[]` (recursively) → `controls[]` (recursively, the
//! sub-controls `ASST.1.1.1` of `ASST.1.1`), in file order. Per control:
//! - one [`NormKind::Control`] norm: `norm` = control id (for the TLS draft,
//!   whose controls reuse kernel ids, the catalogue's own `label` prop such as
//!   `VER.1`, with hint `oscal-id:KONF.2.2`), text = the `statement` part's
//!   prose (the MUSS/SOLLTE sentence) with `{{ insert: param, … }}` replaced by
//!   the parameter's values or label; breadcrumb = group titles (and the parent
//!   control for sub-controls); framework `BSI-GS++` (`BSI-MST-TLS` for the
//!   TLS draft), family = the outermost group id; hints `modal_verb:MUSS`,
//!   `sec_level:…`, `effort_level:…`, `tags:…`, `related:<id>` /
//!   `required:<id>` from links, `parent:<id>` for sub-controls;
//! - when it has a `guidance` part, one [`NormKind::ControlGuidance`] norm
//!   `"<id> Umsetzungshinweise"` with the same framework fields and hint
//!   `part:guidance` (role rule: implementation_guidance).

use super::eu_json::text;
use crate::raw::{NormKind, ParseError, RawNorm, RawUnit};
use paragraf_types::{Framework, Lang};
use regex::Regex;
use serde::Deserialize;
use std::borrow::Cow;
use std::sync::LazyLock;

#[derive(Deserialize)]
struct Doc<'a> {
    #[serde(borrow)]
    catalog: Catalog<'a>,
}

#[derive(Deserialize)]
struct Catalog<'a> {
    #[serde(borrow, default)]
    metadata: Option<Metadata<'a>>,
    #[serde(borrow, default)]
    groups: Vec<Group<'a>>,
    #[serde(borrow, default)]
    controls: Vec<Control<'a>>,
}

#[derive(Deserialize)]
struct Metadata<'a> {
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Group<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    groups: Vec<Group<'a>>,
    #[serde(borrow, default)]
    controls: Vec<Control<'a>>,
}

#[derive(Deserialize)]
struct Control<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow, default)]
    title: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    props: Vec<Prop<'a>>,
    #[serde(borrow, default)]
    params: Vec<Param<'a>>,
    #[serde(borrow, default)]
    parts: Vec<Part<'a>>,
    #[serde(borrow, default)]
    links: Vec<Link<'a>>,
    #[serde(borrow, default)]
    controls: Vec<Control<'a>>,
}

#[derive(Deserialize)]
struct Prop<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    value: Cow<'a, str>,
}

#[derive(Deserialize)]
struct Param<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow, default)]
    label: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    values: Vec<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    prose: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    props: Vec<Prop<'a>>,
    #[serde(borrow, default)]
    parts: Vec<Part<'a>>,
}

#[derive(Deserialize)]
struct Link<'a> {
    #[serde(borrow)]
    href: Cow<'a, str>,
    #[serde(borrow, default)]
    rel: Option<Cow<'a, str>>,
}

struct Ctx<'f> {
    file: &'f str,
    framework_id: &'static str,
    use_label: bool,
}

/// Parses one BSI OSCAL catalogue (see the module docs).
pub fn parse(file: &str, bytes: &[u8]) -> Result<Vec<RawNorm>, ParseError> {
    let doc: Doc<'_> = serde_json::from_slice(bytes).map_err(|e| text::json_error(file, &e))?;
    let name = file.rsplit('/').next().unwrap_or(file).to_lowercase();
    let title = doc
        .catalog
        .metadata
        .as_ref()
        .and_then(|m| m.title.as_deref())
        .unwrap_or("")
        .to_lowercase();
    let is_tls = name.contains("mindeststandard")
        || name.contains("-tls")
        || title.contains("mindeststandard");
    let ctx = Ctx {
        file,
        framework_id: if is_tls { "BSI-MST-TLS" } else { "BSI-GS++" },
        use_label: is_tls,
    };
    let mut out = Vec::new();
    for (i, c) in doc.catalog.controls.iter().enumerate() {
        control(
            &ctx,
            c,
            "",
            &[],
            None,
            &format!("$.catalog.controls[{i}]"),
            &mut out,
        )?;
    }
    for (i, g) in doc.catalog.groups.iter().enumerate() {
        group(
            &ctx,
            g,
            None,
            &[],
            &format!("$.catalog.groups[{i}]"),
            &mut out,
        )?;
    }
    if out.is_empty() {
        return Err(ParseError::new(
            file,
            Some("$.catalog".into()),
            "catalogue contains no controls",
        ));
    }
    Ok(out)
}

fn group(
    ctx: &Ctx<'_>,
    g: &Group<'_>,
    family: Option<&str>,
    crumbs: &[String],
    path: &str,
    out: &mut Vec<RawNorm>,
) -> Result<(), ParseError> {
    let family = family.unwrap_or(g.id.trim());
    let mut crumbs = crumbs.to_vec();
    let t = text::clean_line(g.title.as_deref().unwrap_or(""));
    crumbs.push(if t.is_empty() {
        g.id.trim().to_string()
    } else {
        t
    });
    for (i, c) in g.controls.iter().enumerate() {
        control(
            ctx,
            c,
            family,
            &crumbs,
            None,
            &format!("{path}.controls[{i}]"),
            out,
        )?;
    }
    for (i, sub) in g.groups.iter().enumerate() {
        group(
            ctx,
            sub,
            Some(family),
            &crumbs,
            &format!("{path}.groups[{i}]"),
            out,
        )?;
    }
    Ok(())
}

fn control(
    ctx: &Ctx<'_>,
    c: &Control<'_>,
    family: &str,
    crumbs: &[String],
    parent: Option<&str>,
    path: &str,
    out: &mut Vec<RawNorm>,
) -> Result<(), ParseError> {
    let oscal_id = c.id.trim();
    if oscal_id.is_empty() {
        return Err(ParseError::new(
            ctx.file,
            Some(format!("{path}.id")),
            "control without id",
        ));
    }
    let label = c
        .props
        .iter()
        .find(|p| p.name == "label")
        .map(|p| p.value.trim())
        .filter(|v| !v.is_empty());
    let id = match (ctx.use_label, label) {
        (true, Some(l)) => l,
        _ => oscal_id,
    };
    let family = if family.is_empty() {
        id.split('.').next().unwrap_or(id)
    } else {
        family
    };
    let title = text::clean_line(c.title.as_deref().unwrap_or(""));
    let statement = c
        .parts
        .iter()
        .find(|p| p.name == "statement")
        .ok_or_else(|| {
            ParseError::new(
                ctx.file,
                Some(format!("{path}.parts")),
                format!("control {oscal_id} has no statement part"),
            )
        })?;
    let mut hints = Vec::new();
    if id != oscal_id {
        hints.push(format!("oscal-id:{oscal_id}"));
    }
    if let Some(p) = parent {
        hints.push(format!("parent:{p}"));
    }
    for p in statement.props.iter().filter(|p| p.name == "modal_verb") {
        hints.push(format!("modal_verb:{}", p.value.trim()));
    }
    for p in c
        .props
        .iter()
        .filter(|p| matches!(p.name.as_ref(), "sec_level" | "effort_level" | "tags"))
    {
        hints.push(format!("{}:{}", p.name, p.value.trim()));
    }
    for l in &c.links {
        if let Some(target) = l.href.trim().strip_prefix('#') {
            hints.push(format!(
                "{}:{}",
                l.rel.as_deref().unwrap_or("related").trim(),
                target
            ));
        }
    }
    let framework = Framework {
        framework_id: ctx.framework_id.to_string(),
        framework_control_id: id.to_string(),
        framework_family: family.to_string(),
    };
    out.push(RawNorm {
        kind: NormKind::Control,
        norm: id.to_string(),
        title: title.clone(),
        breadcrumb: crumbs.to_vec(),
        units: vec![RawUnit {
            label: None,
            text: part_text(statement, &c.params),
        }],
        lang: Lang::De,
        framework: Some(framework.clone()),
        hints,
    });
    if let Some(g) = c.parts.iter().find(|p| p.name == "guidance") {
        let t = part_text(g, &c.params);
        if !t.is_empty() {
            out.push(RawNorm {
                kind: NormKind::ControlGuidance,
                norm: format!("{id} Umsetzungshinweise"),
                title: title.clone(),
                breadcrumb: crumbs.to_vec(),
                units: vec![RawUnit {
                    label: None,
                    text: t,
                }],
                lang: Lang::De,
                framework: Some(framework),
                hints: vec!["part:guidance".into(), format!("control:{id}")],
            });
        }
    }
    let mut sub_crumbs = crumbs.to_vec();
    sub_crumbs.push(if title.is_empty() {
        id.to_string()
    } else {
        format!("{id} {title}")
    });
    for (i, s) in c.controls.iter().enumerate() {
        control(
            ctx,
            s,
            family,
            &sub_crumbs,
            Some(id),
            &format!("{path}.controls[{i}]"),
            out,
        )?;
    }
    Ok(())
}

/// Prose of a part and its sub-parts, parameters inserted, markup removed.
fn part_text(p: &Part<'_>, params: &[Param<'_>]) -> String {
    let mut lines = Vec::new();
    collect_prose(p, params, &mut lines);
    lines.join("\n")
}

fn collect_prose(p: &Part<'_>, params: &[Param<'_>], lines: &mut Vec<String>) {
    if let Some(prose) = p.prose.as_deref() {
        for l in insert_params(prose, params).split('\n') {
            let l = text::strip_markup(l);
            if !l.is_empty() {
                lines.push(l);
            }
        }
    }
    for sub in &p.parts {
        collect_prose(sub, params, lines);
    }
}

/// Replaces `{{ insert: param, id }}` by the parameter's values (joined by
/// `, `) or label; unknown parameters keep their id in angle brackets.
fn insert_params<'s>(prose: &'s str, params: &[Param<'_>]) -> Cow<'s, str> {
    static INSERT_RE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\{\{\s*insert:\s*param,\s*([^\s}]+)\s*\}\}").expect("static regex")
    });
    if !prose.contains("{{") {
        return Cow::Borrowed(prose);
    }
    INSERT_RE.replace_all(prose, |c: &regex::Captures<'_>| {
        let id = &c[1];
        match params.iter().find(|p| p.id == id) {
            Some(p) if !p.values.is_empty() => p
                .values
                .iter()
                .map(|v| v.trim())
                .collect::<Vec<_>>()
                .join(", "),
            Some(p) => p.label.as_deref().map(str::trim).unwrap_or(id).to_string(),
            None => format!("<{id}>"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_inserted() {
        let params = vec![
            Param {
                id: "a-prm1".into(),
                label: Some("regelmäßig".into()),
                values: vec![],
            },
            Param {
                id: "b".into(),
                label: Some("x".into()),
                values: vec!["TLS 1.3".into()],
            },
        ];
        assert_eq!(
            insert_params("prüfen {{ insert: param, a-prm1 }} mit {{insert: param, b}} und {{ insert: param, c }}", &params),
            "prüfen regelmäßig mit TLS 1.3 und <c>"
        );
    }
}
