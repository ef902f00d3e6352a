//! Golden questions (`../shared/eval/golden-dev.jsonl`): one JSON object a
//! line, parsed strictly — an unknown field is an error that names the line
//! and the field, so a typo in a check never silently disables it.

use crate::error::EvalError;
use crate::metrics::split_norm_ref;
use paragraf_types::{Jurisdiction, SourceRole};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Top-level fields of a golden line.
const TOP_FIELDS: &[&str] = &["id", "query", "expect_any", "expect"];
const TOP_FIELDS_TEXT: &str = "id, query, expect_any, expect";
/// Fields of `expect`.
const EXPECT_FIELDS: &[&str] = &[
    "control_intent",
    "top10_regulation_any",
    "cross_regime",
    "human_review",
    "abstain",
    "jurisdiction",
    "historical",
    "scope",
    "role",
    "hit_at",
];
const EXPECT_FIELDS_TEXT: &str = "control_intent, top10_regulation_any, cross_regime, \
human_review, abstain, jurisdiction, historical, scope, role, hit_at";

/// One golden question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoldenQuery {
    /// Stable id, e.g. `dev-001`.
    pub id: String,
    /// The question as a user asks it.
    pub query: String,
    /// Acceptable primary norms, `"<norm> <regulation>"` (canonical names).
    /// Empty for questions scored only by their `expect` checks.
    pub expect_any: Vec<String>,
    /// Behaviour checks; all optional.
    #[serde(default)]
    pub expect: Expect,
    /// The deciding facts of the answer (from a `*.answers.jsonl` file, see
    /// [`attach_answer_facts`]): each fact a list of alternative spellings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answer_facts: Vec<Vec<String>>,
}

/// Behaviour checks of a golden question (see `../shared/eval/README.md`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The question asks for measures: top 10 must hold ≥ 2 distinct
    /// control-pool roles and one of `top10_regulation_any`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_intent: Option<bool>,
    /// Regulations of which at least one must appear in the top 10.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top10_regulation_any: Vec<String>,
    /// `assessment.cross_regime` must equal this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_regime: Option<bool>,
    /// `assessment.human_review_flag` must equal this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_review: Option<bool>,
    /// Nothing in the corpus answers it: human review flagged and (when
    /// generating) the answer abstains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstain: Option<bool>,
    /// Jurisdiction query analysis must detect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jurisdiction: Option<Jurisdiction>,
    /// Whether query analysis must detect a historical / as-of intent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historical: Option<bool>,
    /// Scope query analysis must detect, e.g. `law_enforcement`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Source role the top result must have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<SourceRole>,
    /// Score this question at hit@N instead of hit@1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_at: Option<usize>,
}

impl Expect {
    /// Whether no check is set.
    pub fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

impl GoldenQuery {
    /// Report category: the regulation of the first expected norm
    /// (`DSGVO`, `BDSG 1990`), or for questions without expected norms the
    /// first behaviour check they carry (`control_intent`, `cross_regime`,
    /// `abstain`, …), or `other`.
    pub fn category(&self) -> String {
        if let Some((_, reg)) = self.expect_any.first().and_then(|e| split_norm_ref(e)) {
            return reg;
        }
        let e = &self.expect;
        let named = [
            ("control_intent", e.control_intent.is_some()),
            ("abstain", e.abstain.is_some()),
            ("cross_regime", e.cross_regime.is_some()),
            ("jurisdiction", e.jurisdiction.is_some()),
            ("historical", e.historical.is_some()),
            ("scope", e.scope.is_some()),
            ("role", e.role.is_some()),
            ("human_review", e.human_review.is_some()),
        ];
        named
            .iter()
            .find(|(_, set)| *set)
            .map_or_else(|| "other".to_string(), |(n, _)| (*n).to_string())
    }

    /// N of the primary hit: `expect.hit_at` or 1.
    pub fn hit_n(&self) -> usize {
        self.expect.hit_at.unwrap_or(1)
    }
}

/// The answer-facts file that belongs to a golden file: `x.jsonl` →
/// `x.answers.jsonl` beside it.
pub fn answers_path(golden: &Path) -> std::path::PathBuf {
    let stem = golden
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("golden");
    golden.with_file_name(format!("{stem}.answers.jsonl"))
}

/// Attach answer facts (`{"id": …, "answer_facts": [["20 Personen", …], …]}`
/// per line) to the golden questions with the same id. Errors name the file
/// and line: invalid JSON, a missing id or facts, an id not in the golden set.
pub fn attach_answer_facts(
    golden: &mut [GoldenQuery],
    text: &str,
    source: &str,
) -> Result<usize, EvalError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Line {
        id: String,
        answer_facts: Vec<Vec<String>>,
    }
    let mut n = 0;
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let bad = |message: String| EvalError::GoldenLine {
            path: source.to_string(),
            line: i + 1,
            message,
        };
        let l: Line = serde_json::from_str(raw.trim()).map_err(|e| bad(e.to_string()))?;
        let q = golden
            .iter_mut()
            .find(|q| q.id == l.id)
            .ok_or_else(|| bad(format!("id `{}` is not in the golden set", l.id)))?;
        q.answer_facts = l.answer_facts;
        n += 1;
    }
    Ok(n)
}

/// Read and parse a golden JSONL file (see [`parse_golden`]).
pub fn load_golden(path: &Path) -> Result<Vec<GoldenQuery>, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| EvalError::io(path, e))?;
    parse_golden(&text, &path.display().to_string())
}

/// Parse golden JSONL text; `source` names the input in errors. Blank lines
/// are skipped. Errors name the 1-based line: invalid JSON, a non-object,
/// unknown fields (with their dotted path), missing or mistyped fields, an
/// empty id or query, an expected norm without regulation, `hit_at` 0, and
/// duplicate ids.
pub fn parse_golden(text: &str, source: &str) -> Result<Vec<GoldenQuery>, EvalError> {
    let mut out = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        let bad = |message: String| EvalError::GoldenLine {
            path: source.to_string(),
            line,
            message,
        };
        let value: serde_json::Value =
            serde_json::from_str(trimmed).map_err(|e| bad(e.to_string()))?;
        let obj = value
            .as_object()
            .ok_or_else(|| bad("expected a JSON object".into()))?;
        for key in obj.keys() {
            if !TOP_FIELDS.contains(&key.as_str()) {
                return Err(EvalError::UnknownField {
                    path: source.to_string(),
                    line,
                    field: key.clone(),
                    known: TOP_FIELDS_TEXT,
                });
            }
        }
        if let Some(exp) = obj.get("expect") {
            let exp = exp
                .as_object()
                .ok_or_else(|| bad("`expect` must be an object".into()))?;
            for key in exp.keys() {
                if !EXPECT_FIELDS.contains(&key.as_str()) {
                    return Err(EvalError::UnknownField {
                        path: source.to_string(),
                        line,
                        field: format!("expect.{key}"),
                        known: EXPECT_FIELDS_TEXT,
                    });
                }
            }
        }
        let q: GoldenQuery = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        if q.id.trim().is_empty() {
            return Err(bad("`id` is empty".into()));
        }
        if q.query.trim().is_empty() {
            return Err(bad("`query` is empty".into()));
        }
        for e in &q.expect_any {
            if split_norm_ref(e).is_none() {
                return Err(bad(format!(
                    "`expect_any` entry `{e}` is not `<norm> <regulation>`"
                )));
            }
        }
        if q.expect.hit_at == Some(0) {
            return Err(bad("`expect.hit_at` must be at least 1".into()));
        }
        if let Some(&first) = seen.get(&q.id) {
            return Err(EvalError::DuplicateId {
                path: source.to_string(),
                line,
                id: q.id,
                first,
            });
        }
        seen.insert(q.id.clone(), line);
        out.push(q);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_shapes() {
        let text = r#"{"id":"a","query":"Q?","expect_any":["Art. 37 DSGVO","§ 38 BDSG"]}

{"id":"b","query":"R?","expect_any":[],"expect":{"control_intent":true,"top10_regulation_any":["OWASP ASVS"]}}
{"id":"c","query":"S?","expect_any":["Art. 22 revDSG"],"expect":{"jurisdiction":"CH","role":"definition","hit_at":3}}"#;
        let g = parse_golden(text, "t.jsonl").unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].category(), "DSGVO");
        assert!(g[0].expect.is_empty());
        assert_eq!(g[1].category(), "control_intent");
        assert_eq!(g[1].expect.top10_regulation_any, vec!["OWASP ASVS"]);
        assert_eq!(g[2].expect.jurisdiction, Some(Jurisdiction::Ch));
        assert_eq!(g[2].expect.role, Some(SourceRole::Definition));
        assert_eq!(g[2].hit_n(), 3);
        assert_eq!(g[0].hit_n(), 1);
    }

    #[test]
    fn unknown_top_level_field_names_line_and_field() {
        let text = "{\"id\":\"a\",\"query\":\"Q\",\"expect_any\":[]}\n{\"id\":\"b\",\"query\":\"Q\",\"expect_any\":[],\"expected\":1}";
        let e = parse_golden(text, "g.jsonl").unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.starts_with("g.jsonl:2: unknown field `expected`"),
            "{msg}"
        );
    }

    #[test]
    fn unknown_expect_field_is_dotted() {
        let text = r#"{"id":"a","query":"Q","expect_any":[],"expect":{"hit_at5":2}}"#;
        let msg = parse_golden(text, "g").unwrap_err().to_string();
        assert!(msg.contains("g:1: unknown field `expect.hit_at5`"), "{msg}");
    }

    #[test]
    fn bad_lines_name_their_line() {
        let ok = r#"{"id":"a","query":"Q","expect_any":[]}"#;
        let cases = [
            ("{not json", "invalid golden query"),
            ("[1,2]", "expected a JSON object"),
            (r#"{"id":"x","query":"Q"}"#, "missing field `expect_any`"),
            (
                r#"{"id":"x","query":"Q","expect_any":"Art. 1 DSGVO"}"#,
                "invalid type",
            ),
            (r#"{"id":" ","query":"Q","expect_any":[]}"#, "`id` is empty"),
            (
                r#"{"id":"x","query":"","expect_any":[]}"#,
                "`query` is empty",
            ),
            (
                r#"{"id":"x","query":"Q","expect_any":["DSGVO"]}"#,
                "not `<norm> <regulation>`",
            ),
            (
                r#"{"id":"x","query":"Q","expect_any":[],"expect":{"hit_at":0}}"#,
                "at least 1",
            ),
            (
                r#"{"id":"x","query":"Q","expect_any":[],"expect":{"jurisdiction":"FR"}}"#,
                "unknown variant",
            ),
            (
                r#"{"id":"x","query":"Q","expect_any":[],"expect":{"role":"law"}}"#,
                "unknown variant",
            ),
            (
                r#"{"id":"x","query":"Q","expect_any":[],"expect":[]}"#,
                "must be an object",
            ),
        ];
        for (bad, want) in cases {
            let text = format!("{ok}\n\n{bad}\n");
            let msg = parse_golden(&text, "f").unwrap_err().to_string();
            assert!(msg.starts_with("f:3:"), "{bad}: {msg}");
            assert!(msg.contains(want), "{bad}: {msg}");
        }
    }

    #[test]
    fn duplicate_ids_are_rejected() {
        let text = "{\"id\":\"a\",\"query\":\"Q\",\"expect_any\":[]}\n{\"id\":\"a\",\"query\":\"R\",\"expect_any\":[]}";
        let msg = parse_golden(text, "f").unwrap_err().to_string();
        assert!(
            msg.contains("f:2: duplicate id `a` (first used on line 1)"),
            "{msg}"
        );
    }

    #[test]
    fn empty_input_is_empty_set() {
        assert!(parse_golden("", "f").unwrap().is_empty());
        assert!(parse_golden("\n  \n", "f").unwrap().is_empty());
    }

    #[test]
    fn missing_file_names_path() {
        let msg = load_golden(Path::new("/nonexistent/golden.jsonl"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("/nonexistent/golden.jsonl"), "{msg}");
    }
}
