//! The first step of a query: the question analysed — the lexicon's
//! features, then the law's own words (headings, defined terms, law titles),
//! the norms the question's intent asks for first, and a rule before its
//! exceptions.

use crate::{lawwords, Engine, QueryAnalysis};
use paragraf_index::Analyzer;
use paragraf_rank::{
    analyze_query_with, definition_topics_set_aside, exceptions_set_aside, keep_asked_terms,
    keep_definition_answers, keep_meant_laws, keep_named_law_titles, meant_definitions,
    HeadingMatch, QueryTerms,
};
use paragraf_rank::{LawMatch, Lexicon};
use paragraf_types::{Lang, NormRef};

impl Engine {
    /// Analyse a question (no retrieval).
    pub fn analyze(&self, query: &str) -> QueryAnalysis {
        self.analyze_with(query, true)
    }

    /// Analyse a question: the lexicon's features (hand topics only when
    /// `hand_topics`), then the law's own words — the question's analysed
    /// terms and their translations (`BilingualTerms`) against the norm
    /// headings, and under definition intent against the defined terms.
    pub fn analyze_with(&self, query: &str, hand_topics: bool) -> QueryAnalysis {
        let refs: Vec<NormRef> = paragraf_corpus::parse_norm_query(query, &self.manifest)
            .into_iter()
            .filter(|r| self.by_norm.contains_key(r))
            .collect();
        let mut q = analyze_query_with(query, &refs, self.lexicon, hand_topics);
        // a question whom a law covers, when it applies, what follows from
        // breaking it or what it is for reads its frame as that intent's
        // ("Who is subject to the AI Act?" asks no definition of "subject")
        let own_norm_intent =
            q.scope_intent || q.application_intent || q.consequence_intent || q.purpose_intent;
        let after_frame = if q.definition_intent || own_norm_intent {
            None
        } else {
            self.defined_term_after_frame(&mut q)
        };
        // a yes/no question whose predicate a law defines (no frame words)
        let classifies = q.frame_words.is_none() && after_frame.is_some();
        // the asked term of art only holds a category's instance word in its
        // name („biometrische Identifizierung“ is no special category of
        // data): the category steps aside
        if q.definition_intent && !q.categories.is_empty() {
            let asked = q.quoted_term.as_deref().or(q.frame_words.as_deref());
            let whole = after_frame
                .or_else(|| asked.and_then(|w| self.whole_defined_term(w, q.lang, &q.regulations)));
            if let Some(m) = whole {
                q.drop_categories(self.lexicon, &m.heading);
            }
        }
        let terms = self.question_words(query, &q);
        let mut all = terms.own.clone();
        all.extend(terms.translated.iter().cloned());
        let regulation_of = |n: &NormRef| self.regulation_of(n).map(str::to_string);
        let regime_of = |r: &str| self.lexicon.regime_of(r).to_string();
        let lift = |term: &str, laws: &[&str]| {
            self.law_lift
                .lift(&self.index.inverted, &self.index.chunks, term, laws)
        };
        let mut laws = self.law_titles.matches(&terms.heading, &lift, &self.params);
        self.glossary_laws(&mut laws, &terms.own, q.lang);
        let analyzer = self.index.inverted.analyzer();
        let name_terms: Vec<String> = q
            .law_names
            .iter()
            .flat_map(|w| analyzer.analyze_lang(w, q.lang))
            .collect();
        keep_named_law_titles(&mut laws, &q.regulations, &regime_of, &name_terms);
        // a question that names its law by title means a norm of that law:
        // a heading of another law that shares its words is incidental;
        // likewise a law named by its name or abbreviation
        let named = q.regulations.clone();
        let keep_named = |matches: &mut Vec<HeadingMatch>| {
            keep_meant_laws(matches, &laws, &named, &regulation_of, &regime_of)
        };
        // the question's own words name the term; their translations only
        // when its own words name none („connected product“ is the Data
        // Act's, not the ProdSG's „Produkt“ reached through `product`)
        let mut defined = if !q.definition_intent {
            Vec::new()
        } else {
            meant_definitions(
                self.defined.matches(&terms.own, &q.regulations),
                || self.defined.matches(&all, &q.regulations),
                &keep_named,
            )
        };
        if let Some(asked) = q.quoted_term.as_deref().or(q.frame_words.as_deref()) {
            let asked = self.index.inverted.analyzer().analyze_lang(asked, q.lang);
            keep_asked_terms(&mut defined, &asked);
        }
        // the defined term only qualifies what the question asks about
        // („Was ist ein Auftragsverarbeitungsvertrag?“, "What is a data
        // processing agreement?"): no law defines that, as no law defines
        // the word of a question below
        if let Some(head) = self.unheld_frame_head(&q, &defined) {
            q.set_definition_head(&head);
            defined.clear();
        }
        let mut headings = self
            .headings
            .matches(&self.heading_terms(query, &q, &terms), &self.params);
        // a heading that is the word its norm defines („Hersteller“, § 4
        // ProdHaftG) names the question's subject only when the question
        // asks what the word means
        if !q.definition_intent {
            headings.retain(|m| !self.self_defining.contains(&m.norm));
        }
        let is_definitions = |n: &NormRef| self.is_definitions_norm(n);
        let aside =
            definition_topics_set_aside(&defined, &q.topic_norms, &regulation_of, &is_definitions);
        q.set_aside_topic_norms(&aside, "defined_term");
        // a definition question about a word no law defines: the definitions
        // norm its domain suggested is only a guess („Was bedeutet
        // „angemessen“ bei TOM?“, "What is a reportable DORA incident?"); the
        // norms the question's words reach answer it
        if q.definition_intent && defined.is_empty() {
            let guess: Vec<NormRef> = q
                .topic_norms
                .iter()
                .filter(|n| is_definitions(n))
                .cloned()
                .collect();
            q.set_aside_topic_norms(&guess, "no_defined_term");
        }
        let defining: Vec<String> = defined
            .iter()
            .filter_map(|m| regulation_of(&m.norm))
            .collect();
        q.add_defining_law_domains(&defining, self.lexicon);
        // the law's definition of the asked term states the kind of fact
        // asked for (`answerTypeGain`), above the norms that use the term
        // more often („Pflichten der Verwalter quelloffener Software“ for
        // "What is an open-source software steward?"); a yes/no question
        // whether something is a defined term asks whether, and its other
        // words may be defined terms too ("Is your Annex III AI System
        // High-Risk": Art. 6 KI-VO, not the definition of an AI system)
        if !classifies {
            let definitions = defined.iter().map(|m| (m.norm.clone(), None)).collect();
            q.add_intent_answer_norms(paragraf_rank::AnswerType::Definition, definitions);
        }
        keep_definition_answers(&defined, &mut headings, &regulation_of, &is_definitions);
        let mut matches = defined;
        matches.extend(headings);
        keep_named(&mut matches);
        if own_norm_intent {
            matches = self.intent_norms_first(&mut q, matches, &laws);
        }
        if !q.exception_intent && !self.exceptions.is_empty() {
            self.rules_before_exceptions(&mut q, &mut matches);
        }
        q.add_heading_matches(matches);
        q.add_law_matches(laws);
        q.set_query_terms(all, terms.translated);
        q.set_synonym_terms(terms.synonyms);
        q
    }

    /// A law's official term in the wording of the language the corpus does
    /// not hold it in names that law as its title would ("Who keeps the
    /// transparency register?" → GwG; [`lawwords::mark_glossary_laws`]):
    /// added to the title matches, which keep their one order
    /// ([`paragraf_rank::LawTitleTable::keep_best`]).
    fn glossary_laws(&self, laws: &mut Vec<LawMatch>, own: &[String], lang: Lang) {
        let named = self.bilingual.named_laws(own, lang);
        if named.is_empty() {
            return;
        }
        for (l, words) in named {
            if laws.iter().any(|m| m.regulation == l.law) {
                continue;
            }
            laws.push(LawMatch {
                regulation: l.law.clone(),
                title: l.term.clone(),
                terms: words.to_vec(),
                lift: l.lift,
            });
        }
        self.law_titles.keep_best(laws, &self.params);
    }

    /// The question's terms for heading matching. A question that asks for
    /// duties asks for the norm the law heads as the duty: its words meet
    /// the heading's other words ("What must importers do under the CRA?",
    /// "What responsibilities do importers have …?" → "Obligations of
    /// importers", not "Cases in which obligations of manufacturers apply to
    /// importers"), so the duty words of the lexicon's duty headings
    /// (`[duty_intent] headings`, their stars dropped, analysed in both
    /// languages: „Pflichten“, "obligations") count as the question's.
    fn heading_terms(
        &self,
        query: &str,
        q: &QueryAnalysis,
        terms: &lawwords::QuestionTerms,
    ) -> QueryTerms {
        let mut heading = terms.heading.clone();
        if q.duty_intent && self.lexicon.heading_names_duty(query) {
            for t in &self.duty_words {
                if !heading.full.contains(t) {
                    heading.full.push(t.clone());
                }
            }
        }
        heading
    }

    /// A bare definition frame and a term a law defines, nothing else but
    /// the law's name: „Was sind Gesundheitsdaten?“, "What is profiling
    /// under the GDPR?" ask what the term means, as a quoted term does.
    /// Likewise a yes/no question whose predicate is a term a law defines,
    /// whole: „Ist … eine Auftragsverarbeitung?“, "Is an IP address personal
    /// data?" ([`QueryAnalysis::classified_words`], longest first).
    /// Returns the defined term found.
    fn defined_term_after_frame(&self, q: &mut QueryAnalysis) -> Option<HeadingMatch> {
        let (signal, candidates) = match &q.frame_words {
            Some(words) => ("defined_term_after_frame", vec![words.clone()]),
            None => ("classification_frame", q.classified_words.clone()),
        };
        for words in candidates {
            if let Some(m) = self.whole_defined_term(&words, q.lang, &q.regulations) {
                q.set_definition_intent(signal, m.heading.clone());
                return Some(m);
            }
        }
        None
    }

    /// The defined term (of `regulations`, any law when empty) that holds
    /// every analysed term of `words`.
    fn whole_defined_term(
        &self,
        words: &str,
        lang: Lang,
        regulations: &[String],
    ) -> Option<HeadingMatch> {
        let terms = self.index.inverted.analyzer().analyze_lang(words, lang);
        if terms.is_empty() {
            return None;
        }
        self.defined
            .matches(&terms, regulations)
            .into_iter()
            .find(|m| terms.iter().all(|t| m.terms.contains(t)))
    }

    /// The head of the phrase after a definition frame when the words meet
    /// the question's defined-term matches (`defined`) but none of them
    /// holds the head: the question asks what another thing is, which the
    /// defined term only qualifies (the processor's contract, not the
    /// processor; [`lawwords::unheld_head`]).
    fn unheld_frame_head(&self, q: &QueryAnalysis, defined: &[HeadingMatch]) -> Option<String> {
        let words = q.frame_words.as_deref().filter(|_| !defined.is_empty())?;
        let held: Vec<String> = defined.iter().flat_map(|m| m.terms.clone()).collect();
        let analyzer = self.index.inverted.analyzer();
        // a head no norm uses ("What is a trade secret anyway?") names
        // nothing of the law's
        lawwords::unheld_head(analyzer, words, q.lang, &self.bilingual, &held)
            .filter(|head| self.index.inverted.doc_freq(head) > 0)
    }

    /// The question's analysed terms and their translations, with the law's
    /// own words for what the question names in other words: for a country
    /// the corpus has no law of („Drittland“, "third country"), for a
    /// category named by an instance („Impfstatus“ → „Gesundheitsdaten“),
    /// for a term named by its abbreviation („DSFA“).
    fn question_words(&self, query: &str, q: &QueryAnalysis) -> lawwords::QuestionTerms {
        let analyzer = self.index.inverted.analyzer();
        let mut terms =
            lawwords::question_terms(analyzer, query, q.lang, &self.bilingual, &self.synonyms);
        let third_country = q.third_country.then_some(&self.lexicon.third_country_terms);
        let named = q.category_terms.iter().chain(&q.abbreviation_terms);
        for (lang, text) in third_country.into_iter().flatten().chain(named) {
            for t in analyzer.analyze_lang(text, *lang) {
                if !terms.own.contains(&t) {
                    terms.own.push(t.clone());
                }
                if !terms.heading.full.contains(&t) {
                    terms.heading.full.push(t);
                }
            }
        }
        terms
    }

    /// A question about when its law starts to apply, whom it covers, what
    /// follows a breach or what the law is for: the law's own norm on that
    /// (headed „Inkrafttreten“, "Entry into force", „Anwendungsbereich“, …)
    /// first, then `matches`.
    fn intent_norms_first(
        &self,
        q: &mut QueryAnalysis,
        mut matches: Vec<HeadingMatch>,
        laws: &[LawMatch],
    ) -> Vec<HeadingMatch> {
        let regulation_of = |n: &NormRef| self.regulation_of(n).map(str::to_string);
        let mut named = q.regulations.clone();
        for l in laws {
            if !named.contains(&l.regulation) {
                named.push(l.regulation.clone());
            }
        }
        let mut first = Vec::new();
        if q.application_intent {
            // no law named: the laws whose headings the question meets
            // („Ab wann gelten die Pflichten für Hochrisiko-KI?“)
            let mut laws_of = named.clone();
            if laws_of.is_empty() {
                for r in matches.iter().filter_map(|m| regulation_of(&m.norm)) {
                    if !laws_of.contains(&r) {
                        laws_of.push(r);
                    }
                }
            }
            let app = &self.lexicon.application_intent;
            first =
                self.headings
                    .intent_matches(&laws_of, &app.headings, &app.fallback_headings, None);
            q.application_norms = first.iter().map(|m| m.norm.clone()).collect();
        }
        // scope: only a law the question names (a duty's heading names
        // the duty's law, not a question about its scope)
        if q.scope_intent {
            let scope = &self.lexicon.scope_intent;
            // beyond the law's territory: its territorial scope norm, the
            // general scope norms for a law without one
            let (headings, fallback) = if q.scope_narrowed {
                (&scope.narrow_headings, &scope.headings)
            } else {
                (&scope.headings, &scope.fallback_headings)
            };
            for m in self.headings.intent_matches(
                &named,
                headings,
                fallback,
                Some(paragraf_rank::constants::SCOPE_NORMS_PER_LAW),
            ) {
                if !first.iter().any(|f| f.norm == m.norm) {
                    first.push(m);
                }
            }
        }
        if q.consequence_intent {
            let consequences = self.consequence_norms_first(q, &named, &matches, &mut first);
            // the duty whose breach is asked about steps aside as its topic
            // norms do, named by a heading too („Ist es strafbar, wenn man
            // kein Impressum hat?“: § 33 DDG, not § 5 DDG); the consequence
            // norms stand in `first` already
            if !consequences.is_empty() {
                matches.clear();
            }
        }
        // purpose: the named law's norm on its subject matter and aims
        if q.purpose_intent {
            let purpose = &self.lexicon.purpose_intent;
            for law in &named {
                let law = std::slice::from_ref(law);
                let mut found = self.headings.intent_matches(
                    law,
                    &purpose.headings,
                    &purpose.fallback_headings,
                    Some(1),
                );
                // a law with no norm so headed says what it governs up
                // front: its first norm (§ 1 ProdHaftG „Haftung“, § 1
                // BDSG „Anwendungsbereich des Gesetzes“)
                if found.is_empty() {
                    found.extend(self.first_norm(&law[0]));
                }
                for m in found {
                    if !first.iter().any(|f| f.norm == m.norm) {
                        first.push(m);
                    }
                }
            }
        }
        first.append(&mut matches);
        first
    }

    /// The lowest-numbered article or section of `law` with a heading, as
    /// a match quoting it (no annex, no recital).
    fn first_norm(&self, law: &str) -> Option<HeadingMatch> {
        let number = |h: &paragraf_rank::Heading| {
            let n = h.norm.as_str();
            let numbered = n.starts_with("§ ") || n.starts_with("Art. ");
            numbered.then(|| paragraf_rank::norm_number(n)).flatten()
        };
        let h = self
            .headings
            .headings()
            .iter()
            .filter(|h| h.norm.is_of(law))
            .filter_map(|h| number(h).map(|n| (n, h)))
            .min_by(|(a, x), (b, y)| a.cmp(b).then_with(|| x.norm.cmp(&y.norm)))?
            .1;
        Some(HeadingMatch {
            norm: h.norm.clone(),
            heading: format!("Überschrift „{}“", h.text),
            terms: vec!["first norm".into()],
            coverage: 1.0,
            weight: 0.0,
        })
    }

    /// Consequence: the named laws' sanction and liability norms; no law
    /// named: the laws of the question's topics and headings („Was droht,
    /// wenn wir keinen Datenschutzbeauftragten benennen?“ → the DSGVO's and
    /// BDSG's). Per law and kind (fines, criminal, damages; every kind when
    /// the question names none) the lowest-numbered norm so headed: the
    /// general one (Art. 99 KI-VO, not its fines for Union bodies). The
    /// duty whose breach is asked about steps aside; the norms put first
    /// are returned.
    fn consequence_norms_first(
        &self,
        q: &mut QueryAnalysis,
        named: &[String],
        matches: &[HeadingMatch],
        first: &mut Vec<HeadingMatch>,
    ) -> Vec<NormRef> {
        let regulation_of = |n: &NormRef| self.regulation_of(n).map(str::to_string);
        let mut laws_of = named.to_vec();
        if laws_of.is_empty() {
            let topic_laws = q.topic_norms.iter().filter_map(&regulation_of);
            let heading_laws = matches.iter().filter_map(|m| regulation_of(&m.norm));
            for r in topic_laws.chain(heading_laws) {
                if !laws_of.contains(&r) {
                    laws_of.push(r);
                }
            }
        }
        // a German question about a directive asks after the German law
        // that transposes it, which binds whoever breaks the duty: first
        let mut primary = laws_of.first().cloned();
        if q.lang == Lang::De {
            let transposing = |laws: &[String]| {
                crate::statements::transposing_laws(
                    &self.manifest,
                    self.lexicon,
                    &self.transpositions,
                    laws,
                )
            };
            if let Some(t) = primary
                .as_ref()
                .and_then(|p| transposing(std::slice::from_ref(p)).into_iter().next())
            {
                primary = Some(t);
            }
            laws_of.extend(transposing(&laws_of));
        }
        let kinds = &self.lexicon.consequence_kinds;
        // the question names the kinds it asks about
        let asked = !q.consequence_kinds.is_empty();
        // each norm with the kind of fact its kind states (the stand-in's
        // for a norm found through it)
        let mut consequences: Vec<(NormRef, Option<paragraf_rank::AnswerType>)> = Vec::new();
        for kind in kinds
            .iter()
            .filter(|k| !asked || q.consequence_kinds.contains(&k.id))
        {
            let stand_in = kind
                .stands_in
                .as_deref()
                .and_then(|id| kinds.iter().find(|k| k.id == id));
            for law in &laws_of {
                let (mut found, mut states) =
                    (self.consequence_norm(law, kind, asked), kind.states);
                if found.is_empty() {
                    if let Some(other) = stand_in {
                        (found, states) = (self.consequence_norm(law, other, asked), other.states);
                    }
                }
                for m in found {
                    if !first.iter().any(|f| f.norm == m.norm) {
                        consequences.push((m.norm.clone(), states));
                        first.push(m);
                    }
                }
            }
        }
        if !consequences.is_empty() {
            let duties: Vec<NormRef> = q
                .topic_norms
                .iter()
                .filter(|n| !consequences.iter().any(|(c, _)| c == *n))
                .cloned()
                .collect();
            q.set_aside_topic_norms(&duties, "consequence_intent");
            // the first law's state the kind of fact asked for
            // (`answerTypeGain`): the question's own words name the duty,
            // not the sanction. Not the other laws' (a question on the
            // DSGVO's fines is not answered by the BDSG's criminal
            // provisions)
            let answers = consequences
                .iter()
                .filter(|(n, _)| self.regulation_of(n) == primary.as_deref())
                .cloned()
                .collect();
            q.add_intent_answer_norms(paragraf_rank::AnswerType::Consequence, answers);
        }
        consequences.into_iter().map(|(n, _)| n).collect()
    }

    /// The norm of `law` that states consequences of `kind`: its
    /// lowest-numbered norm so headed, else the first norm of its section so
    /// headed (the revDSG's Art. 60 under "Criminal Provisions"), else —
    /// when the question names the kind (`asked`: „Wer haftet …?“) — the
    /// first norm whose text states it (§ 38 BSIG, `statements`). A duty
    /// norm that states a liability in a sentence is no answer to what
    /// follows from breaking the law in general: its fines are.
    fn consequence_norm(
        &self,
        law: &str,
        kind: &paragraf_rank::lexicon::ConsequenceKind,
        asked: bool,
    ) -> Vec<HeadingMatch> {
        let law = [law.to_string()];
        let own = self
            .headings
            .intent_matches(&law, &kind.headings, &[], Some(1));
        if !own.is_empty() {
            return own;
        }
        let section = self
            .sections
            .intent_matches(&law, &kind.headings, &[], Some(1));
        if !section.is_empty() || !asked {
            return section;
        }
        self.statements
            .get(&law[0], kind)
            .cloned()
            .into_iter()
            .collect()
    }

    /// A norm that excepts or restricts another steps aside for its rule
    /// unless the question asks for exceptions (§ 23 KUG for § 22; § 34
    /// BDSG for Art. 15 DSGVO); a topic's exception without its rule in the
    /// same law brings the rule in.
    fn rules_before_exceptions(&self, q: &mut QueryAnalysis, matches: &mut Vec<HeadingMatch>) {
        let regulation_of = |n: &NormRef| self.regulation_of(n).map(str::to_string);
        let mut present = q.topic_norms.clone();
        present.extend(matches.iter().map(|m| m.norm.clone()));
        let aside =
            exceptions_set_aside(&present, &self.exceptions, &q.regulations, &regulation_of);
        if !aside.is_empty() {
            q.set_aside_topic_norms(&aside, "exception_of_rule");
            matches.retain(|m| !aside.contains(&m.norm));
        }
        // a topic's exception without its rule in the same law: the rule
        // joins, named by the exception's own words (§ 23 KUG opens
        // „Ohne die nach § 22 erforderliche Einwilligung“)
        let mut rules: Vec<HeadingMatch> = Vec::new();
        for b in q.topic_norms.iter().filter(|b| !aside.contains(b)) {
            let Some(a) = self.exceptions.get(b) else {
                continue;
            };
            let same_law = regulation_of(a).is_some() && regulation_of(a) == regulation_of(b);
            if present.contains(a) || !same_law || !self.by_norm.contains_key(a) {
                continue;
            }
            if !rules.iter().any(|m| m.norm == *a) {
                rules.push(HeadingMatch {
                    norm: a.clone(),
                    heading: format!("Regel, von der {b} abweicht"),
                    terms: Vec::new(),
                    coverage: 1.0,
                    weight: 0.0,
                });
            }
        }
        if !rules.is_empty() {
            let moved: Vec<NormRef> = present
                .iter()
                .filter(|b| {
                    self.exceptions
                        .get(*b)
                        .is_some_and(|a| rules.iter().any(|m| m.norm == *a))
                })
                .cloned()
                .collect();
            q.set_aside_topic_norms(&moved, "exception_of_rule");
            matches.retain(|m| !moved.contains(&m.norm));
            matches.extend(rules);
        }
    }
}

/// The duty words of the lexicon's duty headings (`[duty_intent]
/// headings`, stars dropped), analysed as German and as English words.
pub(crate) fn duty_heading_terms(lexicon: &Lexicon, analyzer: &Analyzer) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in &lexicon.duty_intent.headings {
        let word = p.source.replace('*', "");
        for lang in [Lang::De, Lang::En] {
            for t in analyzer.analyze_lang(&word, lang) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// Whether a duty heading names the question's subject beside its duty: a
/// term of the heading (`title`, analysed as `lang`) that is no duty word
/// (`duty_words`, [`duty_heading_terms`]) is one of the question's
/// (`query_terms`). „Transparenzpflichten …“ shares „Transparenz“ with a
/// question about the transparency register; „Pflichten der Händler“ shares
/// only the duty.
pub(crate) fn duty_heading_names_subject(
    analyzer: &Analyzer,
    title: &str,
    lang: Lang,
    duty_words: &[String],
    query_terms: &[String],
) -> bool {
    analyzer
        .analyze_lang(title, lang)
        .iter()
        .any(|t| !duty_words.contains(t) && query_terms.contains(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use paragraf_index::AnalyzerConfig;
    use paragraf_rank::BilingualTerms;

    #[test]
    fn the_duty_words_of_duty_headings_in_both_languages() {
        let analyzer = Analyzer::new(&AnalyzerConfig::default());
        let terms = duty_heading_terms(Lexicon::builtin(), &analyzer);
        let has = |w: &str, lang| {
            let t = analyzer.analyze_lang(w, lang);
            t.iter().all(|t| terms.contains(t))
        };
        // „Pflichten der Händler“, "Obligations of importers" hold them
        assert!(has("Pflichten", Lang::De), "{terms:?}");
        assert!(has("obligations", Lang::En), "{terms:?}");
        assert!(has("duties", Lang::En), "{terms:?}");
        assert!(!has("Einführer", Lang::De), "{terms:?}");
    }

    /// Own phrasings (the analyzer here splits no compounds; on the index
    /// „Transparenzpflichten …“ meets the transparency register of
    /// "Who is affected by the obligations of the transparency register?",
    /// schindhelm.com, and „… Schulungspflicht …“ the NIS2 training of a
    /// tuning page's question).
    #[test]
    fn a_duty_heading_answers_when_it_names_the_questions_subject() {
        let analyzer = Analyzer::new(&AnalyzerConfig::default());
        let duty = duty_heading_terms(Lexicon::builtin(), &analyzer);
        let names = |title: &str, question: &str, lang: Lang| {
            let q = analyzer.analyze_lang(question, lang);
            duty_heading_names_subject(&analyzer, title, lang, &duty, &q)
        };
        assert!(names(
            "Pflichten der Händler",
            "Welche Pflichten hat ein Händler?",
            Lang::De
        ));
        assert!(names(
            "Obligations of distributors",
            "What must a distributor check before selling a product?",
            Lang::En
        ));
        // a duty on another subject: only the duty word in common
        assert!(!names(
            "Pflichten der Einführer",
            "Welche Pflichten hat ein Händler?",
            Lang::De
        ));
        assert!(!names(
            "Obligations of importers",
            "What are the obligations of a distributor?",
            Lang::En
        ));
    }

    #[test]
    fn the_head_of_the_phrase_after_the_frame_is_what_a_definition_question_asks() {
        let analyzer = Analyzer::new(&AnalyzerConfig::default());
        let table = BilingualTerms::builtin();
        let held = |text: &str, lang| analyzer.analyze_lang(text, lang);
        let head = |text: &str, lang, defined: &str| {
            lawwords::unheld_head(&analyzer, text, lang, table, &held(defined, lang))
        };
        let stem = |w: &str, lang| held(w, lang).pop();
        // the defined term only qualifies the head: the contract, the record
        assert_eq!(
            head("data processing agreement", Lang::En, "processing"),
            stem("agreement", Lang::En)
        );
        assert_eq!(
            head("record of processing activities", Lang::En, "processing"),
            stem("record", Lang::En)
        );
        assert_eq!(
            head(
                "Vertrag zur Auftragsverarbeitung",
                Lang::De,
                "Auftragsverarbeitung"
            ),
            stem("Vertrag", Lang::De)
        );
        // the head is the defined term: a definition question as before
        assert_eq!(
            head("personal data breach", Lang::En, "personal data breach"),
            None
        );
        assert_eq!(head("Gesundheitsdaten", Lang::De, "Gesundheitsdaten"), None);
        // met only through the table: "secret" is „Geschäftsgeheimnis“'s
        assert_eq!(
            lawwords::unheld_head(
                &analyzer,
                "trade secret",
                Lang::En,
                table,
                &held("Geschäftsgeheimnis Geschäft Geheimnis", Lang::De)
            ),
            None
        );
        // words that do not meet the defined term ask nothing of it
        assert_eq!(head("cookie banner", Lang::En, "processing"), None);
    }
}
