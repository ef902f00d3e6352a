//! The passes of [`super::analyze_query_with`], in the order they run: each
//! reads the question's tokens and the lexicon and adds its features (with
//! the signal that fired them) to the [`QueryAnalysis`].

use super::date::parse_as_of_date;
use super::{ActiveScopeRule, AsOf, QueryAnalysis, DEFAULT_JURISDICTIONS};
use crate::lexicon::{HeadingIntent, Lexicon, RegulationEntry, ScopeWhen};
use crate::text::{first_match, first_match_beside, norm_key, tokens_with_variants, Pattern};
use paragraf_types::{Jurisdiction, Lang, NormRef};
use std::collections::BTreeSet;

/// What the passes share: the question, its tokens, the lexicon, and what
/// one pass leaves for a later one.
pub(super) struct Passes<'a> {
    query: &'a str,
    toks: Vec<String>,
    lex: &'a Lexicon,
    hand_topics: bool,
    /// Jurisdictions named by a law's name, a reference or a country.
    named_juris: Vec<Jurisdiction>,
    /// Keys of the norms already in `topic_norms` (each once).
    norm_keys: BTreeSet<String>,
    /// A quoted law name after a definition frame, or two laws compared
    /// (signal, words): the purpose intent reads it.
    quoted_law: Option<(String, String)>,
    /// Per token of `toks`, whether it names a law (an alias match): the
    /// topics read no sign wholly inside a name under scope or application
    /// intent.
    name_toks: Vec<bool>,
    /// The signs of application and scope intent (`heading_intent`), read
    /// once: the topics need them before `heading_intents` records them.
    application_sign: Option<(String, String)>,
    scope_sign: Option<(String, String)>,
}

impl<'a> Passes<'a> {
    pub(super) fn new(query: &'a str, lex: &'a Lexicon, hand_topics: bool) -> Self {
        let toks = tokens_with_variants(query);
        Passes {
            query,
            application_sign: heading_intent(&lex.application_intent, &toks),
            scope_sign: heading_intent(&lex.scope_intent, &toks),
            toks,
            lex,
            hand_topics,
            named_juris: Vec::new(),
            norm_keys: BTreeSet::new(),
            quoted_law: None,
            name_toks: Vec::new(),
        }
    }

    /// Adds `n` to the question's topic norms unless it is there already.
    fn push_topic_norm(&mut self, q: &mut QueryAnalysis, n: NormRef) {
        if self.norm_keys.insert(norm_key(n.as_str())) {
            q.topic_norms.push(n);
        }
    }

    /// Language: marker words; umlauts/ß count for German.
    pub(super) fn language(&self, q: &mut QueryAnalysis) {
        let (lex, toks) = (self.lex, &self.toks);
        let de = lex.lang_de.iter().filter(|p| p.matches(toks)).count()
            + usize::from(self.query.chars().any(|c| "äöüÄÖÜß".contains(c))) * 2;
        let en = lex.lang_en.iter().filter(|p| p.matches(toks)).count();
        q.lang = if en > de { Lang::En } else { Lang::De };
        q.push(
            "language",
            "marker_words",
            format!("{} (de {de}, en {en})", q.lang),
        );
    }

    /// Regulations named in the question, and those of explicit references.
    pub(super) fn regulations(&mut self, q: &mut QueryAnalysis, explicit_refs: &[NormRef]) {
        let (lex, toks) = (self.lex, &self.toks);
        let named: Vec<(&RegulationEntry, &Pattern, String)> = lex
            .regulations
            .iter()
            .filter_map(|r| first_match(&r.aliases, toks).map(|(p, words)| (r, p, words)))
            .collect();
        for (r, p, words) in &named {
            // a name inside a longer name of another law is that law's („gdpr“
            // in „UK GDPR“): it names its own law only where it also stands alone
            if named
                .iter()
                .any(|(o, _, longer)| o.name != r.name && inside_only(toks, words, longer))
            {
                continue;
            }
            q.regulations.push(r.name.clone());
            q.push("regulation", &p.source, format!("{} ({words})", r.name));
            q.law_names.push(words.clone());
            self.name_toks.resize(toks.len(), false);
            for at in p.spans(toks) {
                self.name_toks[at..at + p.token_count()].fill(true);
            }
            if r.jurisdiction != Jurisdiction::Int {
                push_unique(&mut self.named_juris, r.jurisdiction);
            }
        }
        for nr in explicit_refs {
            if !q.explicit_refs.contains(nr) {
                q.explicit_refs.push(nr.clone());
                q.push("explicit_ref", "citation_parser", nr.as_str());
            }
            if let Some(r) = lex.regulation_of_norm(nr) {
                if push_unique(&mut q.regulations, r.name.clone()) {
                    q.push("regulation", "explicit_ref", format!("{} ({nr})", r.name));
                }
                if r.jurisdiction != Jurisdiction::Int {
                    push_unique(&mut self.named_juris, r.jurisdiction);
                }
            }
        }
    }

    /// Domains: lexicon signals, then the domains of named regulations.
    pub(super) fn domains(&self, q: &mut QueryAnalysis) {
        let lex = self.lex;
        for d in &lex.domains {
            let kept: Vec<String>;
            let toks: &[String] = if d.except.is_empty() {
                &self.toks
            } else {
                kept = self
                    .toks
                    .iter()
                    .map(|t| {
                        let one = std::slice::from_ref(t);
                        if d.except.iter().any(|e| e.matches(one)) {
                            String::new() // matches no pattern token
                        } else {
                            t.clone()
                        }
                    })
                    .collect();
                &kept
            };
            if let Some((p, words)) = first_match(&d.signals, toks) {
                if push_unique(&mut q.domains, d.domain) {
                    q.push("domain", &p.source, format!("{} ({words})", d.domain));
                }
            } else if let Some(src) = together_match(&d.together, toks) {
                if push_unique(&mut q.domains, d.domain) {
                    q.push("domain", &src, d.domain.as_str());
                }
            }
        }
        for name in q.regulations.clone() {
            if let Some(r) = lex.regulation(&name) {
                for d in &r.domains {
                    if push_unique(&mut q.domains, *d) {
                        q.push("domain", &format!("regulation:{name}"), d.as_str());
                    }
                }
            }
        }
    }

    /// Jurisdictions: named countries and named regulations; default DE/EU.
    pub(super) fn jurisdictions(&mut self, q: &mut QueryAnalysis) {
        for j in &self.lex.jurisdictions {
            if let Some((p, words)) = first_match(&j.signals, &self.toks) {
                push_unique(&mut self.named_juris, j.code);
                q.push("jurisdiction", &p.source, format!("{} ({words})", j.code));
            }
        }
        let mut named_juris = std::mem::take(&mut self.named_juris);
        if named_juris.is_empty() {
            q.jurisdictions = DEFAULT_JURISDICTIONS.to_vec();
            q.push("jurisdiction", "default", "DE, EU");
        } else {
            q.jurisdiction_named = true;
            // DE and EU are one home: naming either (DSGVO, BDSG) keeps both.
            if named_juris.iter().any(|j| j.is_home()) {
                push_unique(&mut named_juris, Jurisdiction::De);
                push_unique(&mut named_juris, Jurisdiction::Eu);
            }
            named_juris.sort();
            q.jurisdictions = named_juris;
        }
    }

    /// Control, guidance, law-enforcement and third-country intents.
    pub(super) fn intents(&self, q: &mut QueryAnalysis) {
        let (lex, toks) = (self.lex, &self.toks);
        if let Some((p, words)) = first_match(&lex.control_intent, toks) {
            q.control_intent = true;
            q.push("control_intent", &p.source, words);
        }
        // an authority the question reports to („beim BSI melden“) is no
        // source of guidance: its name does not count as a guidance signal
        let addressed: Vec<&str> = lex
            .guidance_addressed
            .iter()
            .filter(|(p, _)| p.matches(toks))
            .map(|(_, s)| s.as_str())
            .collect();
        let guidance = lex
            .guidance_intent
            .iter()
            .filter(|p| !addressed.contains(&p.source.as_str()))
            .find_map(|p| first_match(std::slice::from_ref(p), toks));
        if let Some((p, words)) = guidance {
            q.guidance_intent = true;
            q.push("guidance_intent", &p.source, words);
        }
        if let Some((p, words)) = first_match(&lex.law_enforcement, toks) {
            q.law_enforcement = true;
            q.push("law_enforcement", &p.source, words);
        }
        if let Some((p, words)) = first_match(&lex.third_country, toks) {
            q.third_country = true;
            q.push("third_country", &p.source, words);
        }
    }

    /// Historical question and as-of date or version.
    pub(super) fn as_of(&self, q: &mut QueryAnalysis) {
        let (lex, toks) = (self.lex, &self.toks);
        if let Some((p, words)) = first_match(&lex.historical, toks) {
            q.historical = true;
            q.push("historical", &p.source, words);
        }
        let version = q
            .regulations
            .iter()
            .find(|n| lex.regulation(n).is_some_and(|r| r.historical))
            .cloned();
        let date = parse_as_of_date(toks);
        if let Some((range, words)) = &date {
            q.push(
                "as_of",
                "date",
                format!("[{}, {}) ({words})", range.from, range.until),
            );
        }
        if let Some(v) = &version {
            q.push("as_of", "historical_version", v.clone());
        }
        if date.is_some() || version.is_some() {
            q.historical = true;
            q.as_of = Some(AsOf {
                date: date.map(|d| d.0),
                version,
            });
        }
    }

    /// The lexicon's hand topics (none when hand topics are off): their
    /// canonical norms, and the domains of those norms.
    pub(super) fn topics(&mut self, q: &mut QueryAnalysis) {
        let lex = self.lex;
        // a question whom a law covers or when it applies asks for the law's
        // own norm on that: the law's name names the law, not a topic of its
        // subject („Für wen gilt das Geschäftsgeheimnisgesetz?“ is no question
        // what a trade secret is); what a law regulates its subject does answer
        // (the heading intents are recorded later; their signs are read here)
        let own_norm = self.scope_sign.is_some() || self.application_sign.is_some();
        let toks = &self.toks;
        let no_names: &[bool] = &[];
        let names = if own_norm {
            &self.name_toks[..]
        } else {
            no_names
        };
        let topics = if self.hand_topics {
            lex.topics.as_slice()
        } else {
            &[]
        };
        let mut fired: Vec<(usize, String)> = Vec::new();
        for (ti, t) in topics.iter().enumerate() {
            let Some((p, words)) = first_match_beside(&t.signals, toks, names) else {
                continue;
            };
            if !t.require.is_empty() && first_match(&t.require, toks).is_none() {
                continue;
            }
            if first_match(&t.unless, toks).is_some() {
                continue;
            }
            if let Some(d) = t.when_domain {
                if !q.domains.contains(&d) {
                    continue;
                }
            }
            match t.scope {
                Some(ScopeWhen::General) if q.law_enforcement => continue,
                Some(ScopeWhen::LawEnforcement) if !q.law_enforcement => continue,
                _ => {}
            }
            fired.push((ti, format!("{} ({words})", p.source)));
        }
        let suppressed: BTreeSet<&str> = fired
            .iter()
            .flat_map(|(ti, _)| lex.topics[*ti].suppresses.iter().map(String::as_str))
            .collect();
        for (ti, sig) in fired {
            let t = &lex.topics[ti];
            if suppressed.contains(t.id.as_str()) {
                continue;
            }
            q.topics.push(t.id.clone());
            for n in &t.norms {
                self.push_topic_norm(q, n.clone());
            }
            let list: Vec<&str> = t.norms.iter().map(NormRef::as_str).collect();
            q.push("topic", &sig, format!("{} → {}", t.id, list.join(", ")));
            // a fired topic names the field the question is about: the domains
            // of its canonical norms join the question's (a bank's automated
            // credit refusal is a data-protection question too, so Art. 22 DSGVO
            // is not off-domain beside the GwG)
            for &d in &t.domains {
                if push_unique(&mut q.domains, d) {
                    q.push("domain", &format!("topic:{}", t.id), d.as_str());
                }
            }
        }
    }

    /// Categories a law defines, named by an instance: the law's words for
    /// the category are searched too (with hand topics off as well: they are
    /// the law's own words); with hand topics its norms get topicGain.
    pub(super) fn categories(&mut self, q: &mut QueryAnalysis) {
        let lex = self.lex;
        for c in &lex.categories {
            let Some((p, words)) = first_match(&c.instances, &self.toks) else {
                continue;
            };
            if first_match(&c.unless, &self.toks).is_some() {
                continue;
            }
            q.categories.push(c.id.clone());
            for t in &c.terms {
                if !q.category_terms.contains(t) {
                    q.category_terms.push(t.clone());
                }
            }
            let terms: Vec<&str> = c.terms.iter().map(|(_, t)| t.as_str()).collect();
            q.push(
                "category",
                &format!("{} ({})", c.id, c.defined_in),
                format!("{} ({words}) → {}", p.source, terms.join(", ")),
            );
            if self.hand_topics {
                for n in &c.norms {
                    self.push_topic_norm(q, n.clone());
                }
            }
            // the law that defines the category names the question's field:
            // a colleague's state of health is a data-protection question too
            if let Some(r) = lex.regulation_of_norm(&c.defined_in) {
                for &d in &r.domains {
                    if push_unique(&mut q.domains, d) {
                        q.push("domain", &format!("category:{}", c.id), d.as_str());
                    }
                }
            }
        }
    }

    /// Abbreviations of terms of art („DSFA“, "DPIA"): the law's words for
    /// them are searched too (with hand topics off as well: they are the
    /// law's own words), and the law that uses them names the question's
    /// field, as a category's law does.
    pub(super) fn abbreviations(&mut self, q: &mut QueryAnalysis) {
        let table = crate::abbreviations::abbreviations();
        for a in crate::abbreviations::abbreviations_in(self.query, table) {
            let term = (a.lang, a.words.clone());
            if !q.abbreviation_terms.contains(&term) {
                q.abbreviation_terms.push(term);
            }
            q.push(
                "abbreviation",
                &a.short,
                format!("{} ({} {})", a.words, a.norm, a.law),
            );
            if let Some(r) = self.lex.regulation(&a.law) {
                for &d in &r.domains {
                    if push_unique(&mut q.domains, d) {
                        q.push("domain", &format!("abbreviation:{}", a.short), d.as_str());
                    }
                }
            }
        }
    }

    /// A question about a jurisdiction whose law keeps another law's
    /// numbering (the UK GDPR the GDPR's) or has a concordance with it (the
    /// revDSG): the topics' norms of that law have twins there.
    pub(super) fn twin_norms(&mut self, q: &mut QueryAnalysis) {
        if !q.jurisdiction_named || q.jurisdictions.iter().any(|j| j.is_home()) {
            return;
        }
        let juris = q.jurisdictions.clone();
        let lex = self.lex;
        for r in lex
            .regulations
            .iter()
            .filter(|r| juris.contains(&r.jurisdiction))
        {
            // the other law, and per label of it this law's labels
            let (like, pairs): (&String, Option<&[(String, String)]>) =
                match (&r.numbered_like, &r.concordance) {
                    (Some(like), _) => (like, None),
                    (None, Some((like, pairs))) => (like, Some(pairs)),
                    (None, None) => continue,
                };
            let mut twins: Vec<NormRef> = Vec::new();
            for label in q
                .topic_norms
                .iter()
                .filter(|n| n.is_of(like))
                .filter_map(|n| n.0.strip_suffix(like.as_str()))
                .map(str::trim_end)
            {
                match pairs {
                    None => twins.push(NormRef::new(label, &r.name)),
                    Some(pairs) => twins.extend(
                        pairs
                            .iter()
                            .filter(|(a, _)| a == label)
                            .map(|(_, b)| NormRef::new(b, &r.name)),
                    ),
                }
            }
            let list: Vec<&str> = twins.iter().map(NormRef::as_str).collect();
            if !twins.is_empty() {
                q.push(
                    "twin_norms",
                    &r.name,
                    format!("{like} → {}", list.join(", ")),
                );
            }
            for n in twins {
                self.push_topic_norm(q, n);
            }
        }
    }

    /// Definition intent → the definitions norms of the named regulations
    /// (else of the question's domains). A quoted term after a definition
    /// frame is one too; a law's name there, quoted or alone, is left for
    /// the purpose intent.
    pub(super) fn definition_intent(&mut self, q: &mut QueryAnalysis) {
        let lex = self.lex;
        {
            let written = as_written(self.query, &self.toks);
            q.frame_words = words_after_frame(&self.toks, lex).map(|w| written(&w));
            if q.frame_words.is_none() {
                q.classified_words = super::classify::classified_words(&self.toks, lex)
                    .iter()
                    .map(|w| written(w))
                    .collect();
            }
        }
        let quoted = quoted_term(self.query, lex);
        self.quoted_law = quoted
            .as_ref()
            .filter(|(_, _, law)| *law)
            .map(|(frame, term, _)| ("quoted_frames".to_string(), format!("{frame} „{term}“")));
        // a quoted term that names no law is the thing the question asks about
        let quoted_thing = quoted
            .filter(|(_, _, law)| !law)
            .map(|(frame, term, _)| (frame, term));
        // a law's bare name after the frame, unquoted, asks the same as a
        // quoted one: what the law is about
        if self.quoted_law.is_none() {
            self.quoted_law = law_named_after_frame(&self.toks, lex);
            if self.quoted_law.is_some() {
                return;
            }
        }
        // the difference between two laws is what each is about
        let compared = first_match(&lex.definition_compare, &self.toks)
            .map(|(p, words)| (p.source.clone(), words));
        // a comparison names two things after its frame, not one phrase
        // ("What is the difference between a provider and a deployer?")
        if compared.is_some() {
            q.frame_words = None;
        }
        if let Some(c) = compared.as_ref().filter(|_| q.regulations.len() >= 2) {
            self.quoted_law.get_or_insert_with(|| c.clone());
            return;
        }
        let definition = first_match(&lex.definition_intent, &self.toks)
            .map(|(p, words)| (p.source.clone(), words))
            .or(compared)
            .or_else(|| {
                quoted_thing
                    .as_ref()
                    .map(|(frame, term)| ("quoted_frames".to_string(), format!("{frame} „{term}“")))
            });
        let Some((source, words)) = definition else {
            return;
        };
        q.definition_intent = true;
        q.quoted_term = quoted_thing.map(|(_, term)| term);
        let mut defs: Vec<NormRef> = q
            .regulations
            .iter()
            .filter_map(|n| lex.regulation(n))
            .filter_map(|r| r.definitions.as_ref().map(|d| NormRef::new(d, &r.name)))
            .collect();
        if defs.is_empty() {
            defs = lex
                .domains
                .iter()
                .filter(|d| q.domains.contains(&d.domain))
                .flat_map(|d| d.definitions.iter().cloned())
                .collect();
        }
        let list: Vec<&str> = defs.iter().map(NormRef::as_str).collect();
        q.push(
            "definition_intent",
            &source,
            format!("{words} → {}", list.join(", ")),
        );
        for n in defs {
            self.push_topic_norm(q, n);
        }
    }

    /// The intents read from the laws' headings: application (when the
    /// named law starts to apply), scope (whom or what it covers), purpose
    /// (what it is about) — never with definition intent: „gilt als“ asks
    /// what a word means.
    pub(super) fn heading_intents(&mut self, q: &mut QueryAnalysis) {
        if q.definition_intent {
            return;
        }
        let (lex, toks) = (self.lex, &self.toks);
        // a place beyond the law's territory: „Wann gilt die DSGVO außerhalb
        // Europas?“ asks whom it reaches, not since when
        // — or a third country named („Gilt die DSGVO für US-Firmen?“):
        // the law's reach over it, not the matters it covers
        let beyond = first_match(&lex.scope_intent.narrow_when, toks)
            .map(|(p, words)| (p.source.clone(), words))
            .or_else(|| {
                let s = q.signals.iter().find(|s| s.feature == "third_country")?;
                Some((s.signal.clone(), s.detail.clone()))
            });
        let application = self.application_sign.clone();
        let scope = self.scope_sign.clone();
        let scope = match (scope, &application, &beyond) {
            (None, Some(app), Some(_)) => Some(app.clone()),
            (scope, _, _) => scope,
        };
        let application = application.filter(|_| beyond.is_none());
        if let Some((source, words)) = application {
            q.application_intent = true;
            q.push("application_intent", &source, words);
            // „Bis wann muss die Richtlinie umgesetzt werden?“ asks for a
            // date, not for measures
            if q.control_intent {
                q.control_intent = false;
                q.push("control_intent_set_aside", "application_intent", source);
            }
        }
        if let Some((source, words)) = scope {
            q.scope_intent = true;
            q.push("scope_intent", &source, words);
            if let Some((source, words)) = beyond {
                q.scope_narrowed = true;
                q.push("scope_narrowed", &source, words);
            }
        }
        // a quoted law's name after a definition frame asks the same
        let purpose = heading_intent(&lex.purpose_intent, toks).or_else(|| self.quoted_law.take());
        if let Some((source, words)) = purpose {
            q.purpose_intent = true;
            q.push("purpose_intent", &source, words);
        }
    }

    /// Exception intent (when a rule does not apply) and consequence intent
    /// (what follows from breaking the law; a question what a fine means is
    /// one too: „Was ist ein Bußgeld nach DSGVO?“ asks for the fines norm).
    pub(super) fn exception_and_consequence(&self, q: &mut QueryAnalysis) {
        let (lex, toks) = (self.lex, &self.toks);
        if let Some((p, words)) = first_match(&lex.exception_intent, toks) {
            q.exception_intent = true;
            q.push("exception_intent", &p.source, words);
        }
        // a kind's word in a law's name names the law („Who does the
        // Product Liability Directive apply to?“ asks no liability question)
        let kinds: Vec<(&str, String)> = lex
            .consequence_kinds
            .iter()
            .filter_map(|k| {
                first_match_beside(&k.signals, toks, &self.name_toks)
                    .map(|(_, w)| (k.id.as_str(), w))
            })
            .collect();
        let consequence = heading_intent(&lex.consequence_intent, toks).or_else(|| {
            let unless = lex
                .consequence_intent
                .unless
                .iter()
                .any(|p| p.matches(toks));
            kinds
                .first()
                .filter(|_| !unless)
                .map(|(id, w)| (format!("consequence_kind:{id}"), w.clone()))
        });
        if let Some((source, words)) = consequence {
            q.consequence_intent = true;
            q.consequence_kinds = kinds.iter().map(|(id, _)| id.to_string()).collect();
            q.push("consequence_intent", &source, words);
            // „Welche Strafen drohen bei fehlenden Maßnahmen?“ asks for the
            // sanction, not for measures
            if q.control_intent {
                q.control_intent = false;
                q.push("control_intent_set_aside", "consequence_intent", source);
            }
        }
    }

    /// Answer types: the kind of fact the question asks for (a question
    /// feature like an intent, not a hand topic: it names no norm).
    pub(super) fn answer_types(&self, q: &mut QueryAnalysis) {
        for (kind, pats) in &self.lex.answer_types {
            if let Some((p, words)) = first_match(pats, &self.toks) {
                q.answer_types.push(*kind);
                q.push(
                    "answer_type",
                    &p.source,
                    format!("{} ({words})", kind.as_str()),
                );
            }
        }
    }

    /// Duty intent: the question asks who must do what or what someone is
    /// obliged to („Wer muss sich eintragen?“, „Welche Pflichten …“, "who
    /// must"); the caller marks the candidate norms headed as a duty.
    pub(super) fn duty_intent(&self, q: &mut QueryAnalysis) {
        if let Some((p, words)) = first_match(&self.lex.duty_intent.signals, &self.toks) {
            q.duty_intent = true;
            q.push("duty_intent", &p.source, words);
        }
    }

    /// The scope rules active for this question.
    pub(super) fn scope_rules(&self, q: &mut QueryAnalysis) {
        for s in &self.lex.scope_rules {
            let active = match s.penalise_when {
                ScopeWhen::General => !q.law_enforcement,
                ScopeWhen::LawEnforcement => q.law_enforcement,
            };
            if active {
                q.scope_rules.push(ActiveScopeRule {
                    regulation: s.regulation.clone(),
                    range: s.range,
                    reason: s.reason.clone(),
                });
            }
            // the other side of a rule for general questions: a law-enforcement
            // question is about the norms such a rule keeps away from the others
            if let (ScopeWhen::General, true, Some(text)) =
                (s.penalise_when, q.law_enforcement, &s.in_scope)
            {
                q.scope_matches.push(ActiveScopeRule {
                    regulation: s.regulation.clone(),
                    range: s.range,
                    reason: text.clone(),
                });
            }
        }
    }
}

/// Whether a heading intent fires: one of its signals, or a `together` group
/// whole, and none of its `unless` patterns (the signal's source and words).
fn heading_intent(intent: &HeadingIntent, toks: &[String]) -> Option<(String, String)> {
    if intent.unless.iter().any(|p| p.matches(toks)) {
        return None;
    }
    first_match(&intent.signals, toks)
        .map(|(p, words)| (p.source.clone(), words))
        .or_else(|| {
            together_match(&intent.together, toks).map(|src| (src.clone(), src.replace(" + ", " ")))
        })
}

/// The first `together` group whose patterns all match, as `a + b` (the
/// signal recorded for it).
fn together_match(groups: &[Vec<Pattern>], toks: &[String]) -> Option<String> {
    groups
        .iter()
        .find(|g| !g.is_empty() && g.iter().all(|p| p.matches(toks)))
        .map(|g| {
            let src: Vec<&str> = g.iter().map(|p| p.source.as_str()).collect();
            src.join(" + ")
        })
}

fn push_unique<T: PartialEq>(v: &mut Vec<T>, x: T) -> bool {
    if v.contains(&x) {
        false
    } else {
        v.push(x);
        true
    }
}

/// Whether every occurrence of the words `short` in `toks` lies inside an
/// occurrence of the longer words `long` (both as matched, space-separated).
fn inside_only(toks: &[String], short: &str, long: &str) -> bool {
    if long.split(' ').count() <= short.split(' ').count() {
        return false;
    }
    let text = format!(" {} ", toks.join(" "));
    let count = |w: &str| text.matches(&format!(" {w} ")).count();
    let inner = format!(" {long} ").matches(&format!(" {short} ")).count();
    inner > 0 && count(short) <= count(long) * inner
}

/// Opening and closing quotation marks of German, English, French/Swiss
/// typography and ASCII.
const OPENING_QUOTES: &[char] = &['„', '“', '"', '«', '»', '‘', '‚', '‹', '›'];
const CLOSING_QUOTES: &[char] = &['“', '”', '"', '»', '«', '’', '‘', '‹', '›'];
/// The longest quoted term read as a term of art (words).
const QUOTED_TERM_MAX_WORDS: usize = 6;

/// The question's own tokens (before the variants `tokens_with_variants`
/// appends) that follow a definition frame of `quoted_frames`, with the
/// frame.
fn split_at_frame<'t>(
    toks: &'t [String],
    lex: &'t Lexicon,
) -> Option<(&'t [String], &'t [String])> {
    let toks = toks.split(String::is_empty).next().unwrap_or_default();
    let frame = lex.quoted_frames.iter().find(|f| toks.starts_with(f))?;
    Some((frame, &toks[frame.len()..]))
}

/// A word between a frame and its term: the lexicon's fillers (articles,
/// „mit dem“), and "EU" before an EU act's name ("the EU Data Act").
fn is_frame_filler(w: &str, lex: &Lexicon) -> bool {
    w == "eu" || lex.quoted_fillers.iter().any(|f| f == w)
}

/// A question that is a definition frame and a law's name and nothing else,
/// unquoted: „Was ist das Hinweisgeberschutzgesetz?“, "What is the EU Law
/// Enforcement Directive?" (fillers skipped). Returns (signal, words) for
/// the purpose intent.
fn law_named_after_frame(toks: &[String], lex: &Lexicon) -> Option<(String, String)> {
    let (frame, rest) = split_at_frame(toks, lex)?;
    let rest = &rest[rest.iter().take_while(|w| is_frame_filler(w, lex)).count()..];
    let (_, words) = lex
        .regulations
        .iter()
        .find_map(|r| first_match(&r.aliases, rest))?;
    // the name is all that follows: "What is a processor under the GDPR?"
    // asks what a word of the law means
    (words.split(' ').count() == rest.len()).then(|| {
        (
            "quoted_frames".to_string(),
            format!("{} {words}", frame.join(" ")),
        )
    })
}

/// Words of the question's tokens as the question writes them, lower case
/// but not folded („bevollmächtigter“, not „bevollmaechtigter“): the caller
/// analyses them like the law's text, whose umlauts its analyzer folds its
/// own way. `toks` are the question's tokens (`tokens_with_variants`), whose
/// words stand where the written ones do.
fn as_written<'a>(query: &str, toks: &'a [String]) -> impl Fn(&str) -> String + 'a {
    let written = crate::text::lower_tokens(query);
    let main = toks.split(String::is_empty).next().unwrap_or_default();
    move |words: &str| {
        words
            .split(' ')
            .map(|w| match main.iter().position(|t| t == w) {
                Some(i) if i < written.len() => written[i].clone(),
                _ => w.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The words after a bare definition frame, fillers and the name of a law
/// taken out ([`QueryAnalysis::frame_words`]): „Was sind Gesundheitsdaten?“
/// → "gesundheitsdaten", "What is profiling under the GDPR?" → "profiling
/// under"; "What does X mean" loses its "mean". `None` without a frame or
/// with nothing after it. Only a term a law defines makes them a
/// definition question (the engine's defined terms): a bare „Was ist“ also
/// opens „Was ist bei einer Datenpanne zu tun?“.
fn words_after_frame(toks: &[String], lex: &Lexicon) -> Option<String> {
    let (frame, rest) = split_at_frame(toks, lex)?;
    let mut rest = rest.to_vec();
    super::classify::drop_law_names(&mut rest, lex);
    // "What does profiling mean?": the verb closes the frame
    let closes_frame = |w: &String| frame.last().is_some_and(|f| f == "does") && w == "mean";
    rest.retain(|w| !is_frame_filler(w, lex) && !closes_frame(w));
    // "What is the definition of …?", „Was ist die Bedeutung von …?“: the
    // term follows the word for its meaning
    if let [head, link, ..] = rest.as_slice() {
        let meaning = ["definition", "meaning", "bedeutung", "begriff"];
        let of = ["of", "von", "des", "der", "eines", "einer"];
        if meaning.contains(&head.as_str()) && of.contains(&link.as_str()) {
            rest.drain(..2);
        }
    }
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// A question that asks what a quoted term means: the words before the
/// first quotation mark are a definition frame of the lexicon
/// (`quoted_frames`: „Was ist“, „Wer ist“, "What is"), optionally followed by
/// fillers (articles, „mit dem“), and the quote holds a term of at most
/// `QUOTED_TERM_MAX_WORDS` words („Was ist eine „wesentliche
/// Einrichtung“?“, "What is a ‘connected product’?", „Was ist mit dem
/// «Bearbeitungsverzeichnis» gemeint?“). Quotation marks are how people
/// name a term of art; a quote elsewhere in a question („Was ist bei einer
/// „Datenpanne“ zu tun?“) is no such frame. Returns the frame, the term and
/// whether the term names a law (then the question asks what the law is
/// about: "What is “Law Enforcement Directive”?").
fn quoted_term(query: &str, lex: &Lexicon) -> Option<(String, String, bool)> {
    let open = query.find(OPENING_QUOTES)?;
    let rest = &query[open..];
    let first = rest.chars().next()?;
    let inner = &rest[first.len_utf8()..];
    let close = inner.find(CLOSING_QUOTES)?;
    let term = inner[..close].trim();
    let words = term.split_whitespace().count();
    if words == 0 || words > QUOTED_TERM_MAX_WORDS {
        return None;
    }
    let mut before = crate::text::tokens(&query[..open], false);
    while before
        .last()
        .is_some_and(|w| lex.quoted_fillers.contains(w))
    {
        before.pop();
    }
    let frame = lex.quoted_frames.iter().find(|f| **f == before)?;
    let term_toks = tokens_with_variants(term);
    let names_law = lex
        .regulations
        .iter()
        .any(|r| first_match(&r.aliases, &term_toks).is_some());
    Some((frame.join(" "), term.to_string(), names_law))
}
