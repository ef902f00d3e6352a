//! Rendering of an [`EvalReport`]: JSON (round-trips), Markdown, a
//! hand-written SVG chart and a plain-text terminal table.

use crate::error::EvalError;
use crate::format::{load_json, md_escape, parse_json, pretty_json};
use crate::run::{EvalReport, Rate, StageReport};
use std::fmt::Write as _;
use std::path::Path;

/// `0.825` → `0.825`; `None` → `–`.
fn f3(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"))
}

fn rate(r: &Rate) -> String {
    match r.rate() {
        Some(v) => format!("{v:.3} ({}/{})", r.passed, r.total),
        None => "–".to_string(),
    }
}

fn ms(x: Option<f64>) -> String {
    x.map_or_else(|| "–".to_string(), crate::format::fmt_num)
}

/// Escape text for SVG/XML.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl EvalReport {
    /// Pretty JSON of the whole report (per-question results included).
    pub fn to_json(&self) -> String {
        pretty_json(self)
    }

    /// Parse a report written by [`EvalReport::to_json`]; `source` names it
    /// in errors.
    pub fn from_json(text: &str, source: &str) -> Result<EvalReport, EvalError> {
        parse_json(text, source)
    }

    /// Read a saved report.
    pub fn load(path: &Path) -> Result<EvalReport, EvalError> {
        load_json(path)
    }

    /// Write `<stem>.json`, `<stem>.md` (with the chart linked) and
    /// `<stem>.svg` into `dir` (created when missing); returns the paths.
    pub fn write_files(
        &self,
        dir: &Path,
        stem: &str,
    ) -> Result<Vec<std::path::PathBuf>, EvalError> {
        std::fs::create_dir_all(dir).map_err(|e| EvalError::write(dir, e))?;
        let svg_name = format!("{stem}.svg");
        let files = [
            (format!("{stem}.json"), self.to_json()),
            (format!("{stem}.md"), self.to_markdown_with_chart(&svg_name)),
            (svg_name.clone(), self.to_svg_chart()),
        ];
        let mut out = Vec::new();
        for (name, body) in files {
            let p = dir.join(name);
            std::fs::write(&p, body).map_err(|e| EvalError::write(&p, e))?;
            out.push(p);
        }
        Ok(out)
    }

    /// The stage named `name`.
    pub fn stage(&self, name: &str) -> Option<&StageReport> {
        self.stages.iter().find(|s| s.stage == name)
    }

    /// The `full` stage, else the last one (the usual ablation order ends with it).
    pub fn final_stage(&self) -> Option<&StageReport> {
        self.stage(crate::run::DEFAULT_STAGE)
            .or_else(|| self.stages.last())
    }

    fn check_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .stages
            .iter()
            .flat_map(|s| s.aggregate.checks.keys().cloned())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Markdown report: run metadata, rank metrics per stage, check pass
    /// rates per stage, the final stage per category, answer metrics (when
    /// generating), latency, every question per stage and the failures of
    /// the final stage with what was seen.
    pub fn to_markdown(&self) -> String {
        self.render_markdown(None)
    }

    /// [`EvalReport::to_markdown`] with the chart embedded as an image link
    /// to `chart_file` (relative to the Markdown file).
    pub fn to_markdown_with_chart(&self, chart_file: &str) -> String {
        self.render_markdown(Some(chart_file))
    }

    fn render_markdown(&self, chart: Option<&str>) -> String {
        let mut s = String::new();
        self.md_header(&mut s, chart);
        self.md_retrieval(&mut s);
        if self.meta.generate {
            self.md_answers(&mut s);
        }
        self.md_latency(&mut s);
        self.md_per_question(&mut s);
        self.md_failures(&mut s);
        s
    }

    /// Run metadata and the chart link.
    fn md_header(&self, s: &mut String, chart: Option<&str>) {
        let m = &self.meta;
        let _ = writeln!(s, "# Evaluation report — {}\n", md_escape(&m.label));
        let _ = writeln!(s, "- created: {} ({:.1} s wall)", m.created_utc, m.wall_s);
        let _ = writeln!(s, "- machine: {}", m.machine.describe());
        let _ = writeln!(
            s,
            "- questions: {}, stages: {}, generate: {}, threads: {}, paragraf-eval {}",
            m.queries,
            m.stages.join(" → "),
            m.generate,
            m.threads,
            m.eval_version
        );
        s.push_str("- hit@1 counts the top distinct norm or the assessment's primary norm (hit@N where `hit_at` says); MRR and nDCG are @10 over distinct norms; rank metrics use the questions with expected norms\n\n");
        if let Some(c) = chart {
            let _ = writeln!(s, "![hit@1 per stage and pass rate per category]({c})\n");
        }
    }

    /// Rank metrics per stage and language, check pass rates, the final
    /// stage per category.
    fn md_retrieval(&self, s: &mut String) {
        s.push_str("## Retrieval per stage\n\n| stage | scored | hit@1 | hit@5 | MRR@10 | nDCG@10 | checks all | passed | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for st in &self.stages {
            let a = &st.aggregate;
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                md_escape(&st.stage),
                a.scored,
                f3(a.hit_at_1),
                f3(a.hit_at_5),
                f3(a.mrr_at_10),
                f3(a.ndcg_at_10),
                rate(&a.checks_all),
                rate(&a.passed),
                a.errors
            );
        }

        if self.stages.iter().any(|st| st.aggregate.misses.total > 0) {
            s.push_str("\n## Where the misses lie\n\nQuestions whose primary hit failed: the first norm of an expected norm's law (law found, another norm first); the expected norm lower in the returned list, or not in it.\n\n| stage | misses | law found first | expected lower in the list | not in the list |\n|---|---:|---:|---:|---:|\n");
            for st in &self.stages {
                let m = &st.aggregate.misses;
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} |",
                    md_escape(&st.stage),
                    m.total,
                    m.law_first,
                    m.in_list,
                    m.absent
                );
            }
        }

        if self.stages.iter().any(|st| st.by_lang.len() > 1) {
            s.push_str("\n## Retrieval per question language\n\n| stage | lang | scored | hit@1 | hit@5 | MRR@10 | passed |\n|---|---|---:|---:|---:|---:|---:|\n");
            for st in &self.stages {
                for (lang, a) in &st.by_lang {
                    let _ = writeln!(
                        s,
                        "| {} | {} | {} | {} | {} | {} | {} |",
                        md_escape(&st.stage),
                        md_escape(lang),
                        a.scored,
                        f3(a.hit_at_1),
                        f3(a.hit_at_5),
                        f3(a.mrr_at_10),
                        rate(&a.passed),
                    );
                }
            }
        }

        let names = self.check_names();
        if !names.is_empty() {
            s.push_str("\n## Expect checks (pass rate, passed/applicable)\n\n| check |");
            for st in &self.stages {
                let _ = write!(s, " {} |", md_escape(&st.stage));
            }
            s.push_str("\n|---|");
            for _ in &self.stages {
                s.push_str("---:|");
            }
            s.push('\n');
            for n in &names {
                let _ = write!(s, "| {n} |");
                for st in &self.stages {
                    let r = st.aggregate.checks.get(n).copied().unwrap_or_default();
                    let _ = write!(s, " {} |", rate(&r));
                }
                s.push('\n');
            }
        }

        if let Some(fin) = self.final_stage() {
            let _ = writeln!(
                s,
                "\n## Per category (stage `{}`)\n\n| category | questions | passed | hit@1 |\n|---|---:|---:|---:|",
                md_escape(&fin.stage)
            );
            for (cat, c) in &fin.aggregate.categories {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} |",
                    md_escape(cat),
                    c.queries,
                    rate(&c.passed),
                    rate(&c.hit_at_1)
                );
            }
        }
    }

    /// Answer metrics, the gate and generation, abstentions by reason.
    fn md_answers(&self, s: &mut String) {
        s.push_str("\n## Answers\n\n| stage | answer-fact recall (facts) | supported sentences | own-words statements supported (n) | pinpoint accuracy | answered | abstained | abstention P | abstention R |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for st in &self.stages {
            if let Some(a) = st.aggregate.answer.as_ref().filter(|a| a.answered > 0) {
                let _ = writeln!(
                    s,
                    "| {} | {} ({}) | {} | {} ({}) | {} | {} | {} | {} | {} |",
                    md_escape(&st.stage),
                    f3(a.answer_fact_recall),
                    a.facts_total,
                    f3(a.supported_sentence_precision),
                    f3(a.own_sentence_precision),
                    a.own_sentences,
                    f3(a.pinpoint_accuracy),
                    a.answered,
                    a.abstained,
                    f3(a.abstention_precision),
                    f3(a.abstention_recall),
                );
            }
        }
        s.push_str("\n*answer-fact recall*: deciding facts (thresholds, deadlines, amounts of the `*.answers.jsonl` file) the answer text states ÷ all facts. *supported sentences*: statements of non-abstaining answers that cite an evidence unit `[n]` whose text holds every number of the statement and at least half of its longer words (checked here, independently of the gate). *own-words statements*: the same over the statements that are not a verbatim quote „…“ of a unit — what the answer model wrote and the gate kept. *pinpoint accuracy*: evidence units that belong to an expected norm ÷ all evidence units.\n");
        s.push_str("\n### Gate and generation\n\n| stage | answered | abstained | of which before generation | extractive | grounded answers | citations kept | abstention P | P before generation | abstention R | cites expected | mean chars | mean tokens | tok/s | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for st in &self.stages {
            if let Some(a) = st.aggregate.answer.as_ref().filter(|a| a.answered > 0) {
                let _ = writeln!(
                    s,
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    md_escape(&st.stage),
                    a.answered,
                    a.abstained,
                    a.abstained_before_generation,
                    a.extractive_answers,
                    f3(a.grounded_answers),
                    f3(a.citation_validity),
                    f3(a.abstention_precision),
                    f3(a.retrieval_abstention_precision),
                    f3(a.abstention_recall),
                    f3(a.cites_expected),
                    ms(a.mean_answer_chars),
                    ms(a.mean_generated_tokens),
                    ms(a.tokens_per_s),
                    a.errors
                );
            }
        }
        s.push_str("\n*grounded answers*: share of non-abstaining answers whose every final citation names a retrieved result (checked here, independently of the engine's gate). *citations kept*: final citations ÷ (final + removed); the final ones include the gate's attributions of unmarked sentences and the sources an extractive answer quotes. *before generation*: abstentions decided by retrieval (no model call); the others come after generation (the model declined, or no statement was supported by a binding source while the assessment asked for human review). *extractive*: answers that quote their sources because the model's text held no statement backed by a binding source (counted as answers, not abstentions).\n");
        for st in &self.stages {
            if let Some(a) = st
                .aggregate
                .answer
                .as_ref()
                .filter(|a| !a.abstain_reasons.is_empty())
            {
                let reasons: Vec<String> = a
                    .abstain_reasons
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect();
                let _ = writeln!(
                    s,
                    "\nAbstentions by reason ({}): {}.",
                    md_escape(&st.stage),
                    reasons.join(", ")
                );
            }
        }
    }

    /// Latency per stage.
    fn md_latency(&self, s: &mut String) {
        s.push_str("\n## Latency per stage (ms, wall clock per question)\n\n| stage | mean | p50 | p95 | max | pipeline p50 |\n|---|---:|---:|---:|---:|---|\n");
        for st in &self.stages {
            let l = &st.aggregate.latency;
            let pipe: Vec<String> = l
                .timings_p50_ms
                .iter()
                .map(|(k, v)| format!("{k} {}", crate::format::fmt_num(*v)))
                .collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                md_escape(&st.stage),
                ms(l.mean_ms),
                ms(l.p50_ms),
                ms(l.p95_ms),
                ms(l.max_ms),
                pipe.join(", ")
            );
        }
    }

    /// Every question per stage: ✓/✗ and the top norm.
    fn md_per_question(&self, s: &mut String) {
        // Per question: one column per stage with ✓/✗ and the top norm.
        s.push_str("\n## Per question\n\n✓ = passed (primary hit and all checks), ✗ = failed; the cell shows the top distinct norm and the rank of the first expected one.\n\n| id | category | expected |");
        for st in &self.stages {
            let _ = write!(s, " {} |", md_escape(&st.stage));
        }
        s.push_str("\n|---|---|---|");
        for _ in &self.stages {
            s.push_str("---|");
        }
        s.push('\n');
        if let Some(first) = self.stages.first() {
            for (qi, q) in first.queries.iter().enumerate() {
                let expected = if q.expect_any.is_empty() {
                    "(checks only)".to_string()
                } else {
                    q.expect_any.join(", ")
                };
                let _ = write!(
                    s,
                    "| {} | {} | {} |",
                    md_escape(&q.id),
                    md_escape(&q.category),
                    md_escape(&expected)
                );
                for st in &self.stages {
                    let cell = st.queries.get(qi).map_or_else(String::new, |r| {
                        let mark = if r.passed { "✓" } else { "✗" };
                        let top = r.top.first().map_or("–", String::as_str);
                        let rank = r
                            .first_relevant_rank
                            .map_or_else(String::new, |k| format!(" (#{k})"));
                        let err = if r.error.is_some() { " error" } else { "" };
                        // The assessment's primary norm when it differs from the top result.
                        let primary = r
                            .primary
                            .as_deref()
                            .filter(|p| Some(*p) != r.top.first().map(String::as_str))
                            .map_or_else(String::new, |p| format!(" · primary {}", md_escape(p)));
                        format!("{mark} {}{rank}{primary}{err}", md_escape(top))
                    });
                    let _ = write!(s, " {cell} |");
                }
                s.push('\n');
            }
        }
    }

    /// The failures of the final stage with what was seen.
    fn md_failures(&self, s: &mut String) {
        if let Some(fin) = self.final_stage() {
            let failed: Vec<_> = fin.queries.iter().filter(|r| !r.passed).collect();
            let _ = writeln!(
                s,
                "\n## Failures at stage `{}` ({})\n",
                md_escape(&fin.stage),
                failed.len()
            );
            for r in failed {
                let _ = writeln!(s, "- **{}** {}", md_escape(&r.id), md_escape(&r.query));
                if let Some(e) = &r.error {
                    let _ = writeln!(s, "  - error: {}", md_escape(e));
                }
                if !r.expect_any.is_empty() {
                    let _ = writeln!(
                        s,
                        "  - expected {} (hit@{}: {}); top: {}; primary: {}",
                        r.expect_any.join(", "),
                        r.hit_n,
                        r.hit_at_1.unwrap_or(false),
                        r.top.join(", "),
                        r.primary.as_deref().unwrap_or("–")
                    );
                }
                for c in r.checks.iter().filter(|c| !c.passed) {
                    let _ = writeln!(s, "  - {} failed: {}", c.name, md_escape(&c.detail));
                }
            }
        }
    }

    /// Plain-text table for the terminal: one row per stage.
    pub fn print_table(&self) -> String {
        let head = [
            "stage", "scored", "hit@1", "hit@5", "MRR@10", "nDCG@10", "checks", "passed", "p50 ms",
            "errors",
        ];
        let mut rows: Vec<Vec<String>> = vec![head.iter().map(|h| h.to_string()).collect()];
        let row = |label: String, a: &crate::run::Aggregate| {
            vec![
                label,
                a.scored.to_string(),
                f3(a.hit_at_1),
                f3(a.hit_at_5),
                f3(a.mrr_at_10),
                f3(a.ndcg_at_10),
                format!("{}/{}", a.checks_all.passed, a.checks_all.total),
                format!("{}/{}", a.passed.passed, a.passed.total),
                ms(a.latency.p50_ms),
                a.errors.to_string(),
            ]
        };
        for st in &self.stages {
            rows.push(row(st.stage.clone(), &st.aggregate));
            if st.by_lang.len() > 1 {
                for (lang, a) in &st.by_lang {
                    rows.push(row(format!("  {} [{lang}]", st.stage), a));
                }
            }
        }
        let widths: Vec<usize> = (0..head.len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut s = format!("{} — {} questions\n", self.meta.label, self.meta.queries);
        for (i, r) in rows.iter().enumerate() {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (v, w))| {
                    let pad = w.saturating_sub(v.chars().count());
                    if c == 0 {
                        format!("{v}{}", " ".repeat(pad))
                    } else {
                        format!("{}{v}", " ".repeat(pad))
                    }
                })
                .collect();
            s.push_str(line.join("  ").trim_end());
            s.push('\n');
            if i == 0 {
                let total: usize = widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
                s.push_str(&"-".repeat(total));
                s.push('\n');
            }
        }
        s
    }

    /// SVG (no dependencies): hit@1 and hit@5 per stage as horizontal bars,
    /// then the pass rate per category of the final stage.
    pub fn to_svg_chart(&self) -> String {
        const W: f64 = 760.0;
        const LABEL_W: f64 = 190.0;
        const BAR_W: f64 = 440.0;
        const ROW: f64 = 26.0;
        let stage_rows = self.stages.len();
        let cats: Vec<(String, Rate)> = self
            .final_stage()
            .map(|f| {
                f.aggregate
                    .categories
                    .iter()
                    .map(|(k, c)| (k.clone(), c.passed))
                    .collect()
            })
            .unwrap_or_default();
        let top1 = 70.0;
        let h1 = stage_rows as f64 * ROW;
        let top2 = top1 + h1 + 70.0;
        let height = top2 + cats.len() as f64 * ROW + 40.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{height}\" viewBox=\"0 0 {W} {height}\" font-family=\"sans-serif\" font-size=\"13\">"
        );
        let _ = writeln!(
            s,
            "<rect width=\"{W}\" height=\"{height}\" fill=\"#ffffff\"/>"
        );
        let _ = writeln!(
            s,
            "<text x=\"16\" y=\"26\" font-size=\"16\" font-weight=\"bold\">{}</text>",
            xml(&format!(
                "{} — {} questions",
                self.meta.label, self.meta.queries
            ))
        );
        let _ = writeln!(
            s,
            "<text x=\"16\" y=\"{}\" font-weight=\"bold\">hit@1 (dark) and hit@5 (light) per stage</text>",
            top1 - 14.0
        );
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" fill=\"#1f5fa8\"/><text x=\"{}\" y=\"{}\">hit@1</text><rect x=\"{}\" y=\"{}\" width=\"14\" height=\"10\" fill=\"#9cc3ea\"/><text x=\"{}\" y=\"{}\">hit@5</text>",
            W - 160.0, top1 - 24.0, W - 142.0, top1 - 14.0,
            W - 90.0, top1 - 24.0, W - 72.0, top1 - 14.0
        );
        axis(&mut s, LABEL_W, BAR_W, top1, h1);
        for (i, st) in self.stages.iter().enumerate() {
            let y = top1 + i as f64 * ROW;
            let h1v = st.aggregate.hit_at_1.unwrap_or(0.0);
            let h5v = st.aggregate.hit_at_5.unwrap_or(0.0);
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                LABEL_W - 8.0,
                y + 17.0,
                xml(&st.stage)
            );
            let _ = writeln!(
                s,
                "<rect x=\"{LABEL_W}\" y=\"{}\" width=\"{:.1}\" height=\"18\" fill=\"#9cc3ea\"/>",
                y + 4.0,
                h5v * BAR_W
            );
            let _ = writeln!(
                s,
                "<rect x=\"{LABEL_W}\" y=\"{}\" width=\"{:.1}\" height=\"10\" fill=\"#1f5fa8\"/>",
                y + 8.0,
                h1v * BAR_W
            );
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\">{} / {}</text>",
                LABEL_W + BAR_W + 8.0,
                y + 17.0,
                f3(st.aggregate.hit_at_1),
                f3(st.aggregate.hit_at_5)
            );
        }
        let stage_name = self.final_stage().map_or("–", |f| f.stage.as_str());
        let _ = writeln!(
            s,
            "<text x=\"16\" y=\"{}\" font-weight=\"bold\">{}</text>",
            top2 - 14.0,
            xml(&format!(
                "pass rate per category (stage {stage_name}; hit and all checks)"
            ))
        );
        axis(&mut s, LABEL_W, BAR_W, top2, cats.len() as f64 * ROW);
        for (i, (cat, r)) in cats.iter().enumerate() {
            let y = top2 + i as f64 * ROW;
            let v = r.rate().unwrap_or(0.0);
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                LABEL_W - 8.0,
                y + 17.0,
                xml(cat)
            );
            let _ = writeln!(
                s,
                "<rect x=\"{LABEL_W}\" y=\"{}\" width=\"{:.1}\" height=\"16\" fill=\"#2e8b57\"/>",
                y + 5.0,
                v * BAR_W
            );
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\">{:.2} ({}/{})</text>",
                LABEL_W + BAR_W + 8.0,
                y + 17.0,
                v,
                r.passed,
                r.total
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Grid lines at 0, .25, .5, .75, 1 with labels under the plot.
fn axis(s: &mut String, x0: f64, w: f64, top: f64, h: f64) {
    for i in 0..=4 {
        let f = f64::from(i) / 4.0;
        let x = x0 + f * w;
        let _ = writeln!(
            s,
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{}\" stroke=\"#dddddd\"/>",
            top + h
        );
        let _ = writeln!(
            s,
            "<text x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#666666\">{f:.2}</text>",
            top + h + 14.0
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::run::{run_eval, EvalOutput, RunConfig};

    #[test]
    fn empty_golden_set_renders() {
        let never = |_: &str, _: &str| -> Result<EvalOutput, String> { Err("unreachable".into()) };
        let cfg = RunConfig {
            label: "empty".into(),
            stages: vec![],
            generate: true,
            threads: 1,
        };
        let rep = run_eval(&[], &never, &cfg, None);
        let a = &rep.stages[0].aggregate;
        assert_eq!((a.queries, a.scored, a.errors), (0, 0, 0));
        assert_eq!(a.hit_at_1, None);
        assert_eq!(a.latency.p50_ms, None);
        let ans = a.answer.as_ref().unwrap();
        assert_eq!((ans.citation_validity, ans.tokens_per_s), (None, None));
        let md = rep.to_markdown();
        assert!(
            md.contains("| full | 0 | – | – | – | – | – | – | 0 |"),
            "{md}"
        );
        assert!(md.contains("## Failures at stage `full` (0)"));
        let svg = rep.to_svg_chart();
        assert!(svg.contains(">full</text>") && svg.ends_with("</svg>\n"));
        assert!(rep.print_table().contains("full"));
    }

    #[test]
    fn xml_and_markdown_escaping() {
        assert_eq!(super::xml("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        assert_eq!(crate::format::md_escape("a|b\nc"), "a\\|b c");
    }
}
