//! Human-readable output: the results table, the assessment block, the answer.

use paragraf_types::{Assessment, SearchResponse, SearchResult};
use std::fmt::Write;

fn trunc(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Flags column: superseded, foreign, control, language.
fn flags(r: &SearchResult) -> String {
    let mut f = Vec::new();
    if r.status == paragraf_types::Status::Superseded {
        f.push(match &r.superseded_by {
            Some(s) => format!("abgelöst→{s}"),
            None => "abgelöst".to_string(),
        });
    }
    if !r.jurisdiction.is_home() {
        f.push(r.jurisdiction.to_string());
    }
    if r.lang != paragraf_types::Lang::De {
        f.push(r.lang.to_string());
    }
    if let Some(fw) = &r.framework {
        f.push(fw.framework_id.clone());
    }
    f.join(" ")
}

/// The ranked results as a table.
pub fn results_table(results: &[SearchResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:>3}  {:<30} {:<16} {:<40} {:>6} {:>6}  Hinweise",
        "#", "Norm", "Regelung", "Klasse/Rolle", "Score", "Sem."
    );
    for r in results {
        let _ = writeln!(
            s,
            "{:>3}  {:<30} {:<16} {:<40} {:>6.3} {:>6.3}  {}",
            r.rank,
            trunc(&r.citation, 30),
            trunc(&r.regulation, 16),
            trunc(&format!("{}/{}", r.source_class, r.source_role), 40),
            r.score,
            r.raw_semantic,
            flags(r)
        );
        if !r.title.is_empty() {
            let _ = writeln!(s, "     {}", trunc(&r.title, 100));
        }
    }
    s
}

/// The assessment block (06/07).
pub fn assessment_block(a: &Assessment) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Bewertung");
    let _ = writeln!(
        s,
        "  Primärnorm:        {} ({})",
        a.primary_norm.as_deref().unwrap_or("–"),
        a.primary_regulation.as_deref().unwrap_or("–")
    );
    let connected: Vec<&str> = a.connected_norms.iter().map(|n| n.as_str()).collect();
    let _ = writeln!(
        s,
        "  Verbundene Normen: {}",
        if connected.is_empty() {
            "–".into()
        } else {
            connected.join(", ")
        }
    );
    let _ = writeln!(
        s,
        "  Cross-Regime:      {}",
        if a.cross_regime { "ja" } else { "nein" }
    );
    let _ = writeln!(s, "  Winner-Margin:     {:.3}", a.winner_margin);
    let _ = writeln!(
        s,
        "  Human Review:      {}",
        if a.human_review_flag {
            format!("JA – {}", a.human_review_reasons.join(" "))
        } else {
            "nein".into()
        }
    );
    if !a.score_reasoning.is_empty() {
        let _ = writeln!(s, "  Begründung:        {}", a.score_reasoning);
    }
    if !a.controls.is_empty() {
        let _ = writeln!(s, "  Controls:");
        for c in a.controls.iter().take(12) {
            let norms: Vec<&str> = c.norms.iter().map(|n| n.as_str()).collect();
            let _ = writeln!(
                s,
                "    {} {} – {} ({})",
                c.framework_id,
                c.control_id,
                c.control_name,
                norms.join(", ")
            );
        }
    }
    if !a.evidence.is_empty() {
        let _ = writeln!(s, "  Nachweise:");
        for e in a.evidence.iter().take(12) {
            let _ = writeln!(
                s,
                "    {}: {} (Aufbewahrung: {})",
                e.norm, e.artifact_name, e.retention_period
            );
        }
    }
    s
}

/// What the question analysis found, for `search --explain`: language and
/// intents, the signals that fired (topics, headings, defined terms, laws),
/// and the terms lexical retrieval searched — own, translated, synonyms.
pub fn analysis_text(q: &paragraf_engine::QueryAnalysis) -> String {
    let mut s = String::from("Frageanalyse\n");
    let mut intents = Vec::new();
    for (on, name) in [
        (q.definition_intent, "Begriff"),
        (q.control_intent, "Maßnahmen"),
        (q.guidance_intent, "Auslegung"),
        (q.historical, "historisch"),
        (q.law_enforcement, "Strafverfolgung"),
    ] {
        if on {
            intents.push(name);
        }
    }
    let _ = writeln!(
        s,
        "  Sprache {} · Absicht {}",
        q.lang,
        if intents.is_empty() {
            "–".to_string()
        } else {
            intents.join(", ")
        }
    );
    for sig in &q.signals {
        let _ = writeln!(s, "  {:<18} {} ({})", sig.feature, sig.detail, sig.signal);
    }
    for m in &q.heading_matches {
        let _ = writeln!(
            s,
            "  {:<18} {}: {} [{}] Abdeckung {:.2}",
            "heading",
            m.norm,
            m.heading,
            m.terms.join(" "),
            m.coverage
        );
    }
    for (label, terms) in [
        ("Suchterme", &q.query_terms),
        ("übersetzt", &q.translated_terms),
        ("Synonyme", &q.synonym_terms),
    ] {
        if !terms.is_empty() {
            let _ = writeln!(s, "  {:<18} {}", label, terms.join(" "));
        }
    }
    s
}

/// Results, optional breakdowns, the assessment and timings.
pub fn response_text(r: &SearchResponse, explain: bool) -> String {
    let mut s = results_table(&r.results);
    if explain {
        for res in &r.results {
            let _ = writeln!(s, "\n#{} {}", res.rank, res.citation);
            s.push_str(&paragraf_engine::explain_table(res));
        }
    }
    s.push('\n');
    s.push_str(&assessment_block(&r.assessment));
    if let Some(a) = &r.answer {
        let _ = writeln!(
            s,
            "\nAntwort{}",
            if a.abstained {
                " (Enthaltung)"
            } else if a.extractive {
                " (Auszug aus den Quellen)"
            } else {
                ""
            }
        );
        if let Some(w) = &a.review_warning {
            let _ = writeln!(s, "Hinweis: {w}");
        }
        let _ = writeln!(s, "{}", a.text);
        if !a.evidence.is_empty() {
            let _ = writeln!(s, "Belegstellen:");
            for (i, e) in a.evidence.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "  [{}] {}{}",
                    i + 1,
                    e.pinpoint,
                    e.url
                        .as_deref()
                        .map(|u| format!(" – {u}"))
                        .unwrap_or_default()
                );
            }
        }
        if !a.citations.is_empty() {
            let _ = writeln!(s, "Belegt durch: {}", a.citations.join(", "));
        }
        if !a.removed_citations.is_empty() {
            let _ = writeln!(s, "Entfernte Zitate:");
            for rc in &a.removed_citations {
                let _ = writeln!(s, "  {} – {}", rc.text, rc.reason);
            }
        }
        if let Some(e) = &a.error {
            let _ = writeln!(s, "Fehler: {e}");
        }
    }
    let t: Vec<String> = r
        .timings_ms
        .iter()
        .map(|(k, v)| format!("{k} {v:.1}"))
        .collect();
    let _ = writeln!(s, "\nZeiten (ms): {}", t.join(", "));
    s
}
