//! German/English text analyzer shared by indexing and querying.
//!
//! Pipeline per word: lower-case → stop-word check → Snowball stemmer of the
//! text's language → umlaut/ß folding (`ä→a ö→o ü→u ß→ss`, the same folding
//! the Snowball German stemmer applies in its postlude, so stemmed and
//! unstemmed forms agree) → for German, the derivation fold
//! ([`fold_derivation`]) → for German, dictionary-driven decompounding.
//!
//! Special tokens: `§ 38`, `§§ 38`, `§38a` → `§38` / `§38a`; `Art. 37`,
//! `Artikel 37`, `Article 37` → `art37`. They are neither stemmed nor
//! stop-listed. Numbers are kept; other one-character tokens dropped.
//!
//! Decompounding: a German word of at least `compound_min_len` characters is
//! split into `head [+ s|es] + tail` where both parts (each at least
//! `compound_min_part` characters) are in the lexicon; the longest known head
//! wins and the tail may split once more. The lexicon is the corpus
//! vocabulary (words in at least `compound_min_df` German documents) plus the
//! list in `data/compound_parts_de.txt`; the index stores it so queries split
//! the same way. The full word is emitted first, then its parts.

use paragraf_types::Lang;
use rust_stemmers::{Algorithm, Stemmer};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

const STOP_DE: &str = include_str!("../data/stopwords_de.txt");
const STOP_EN: &str = include_str!("../data/stopwords_en.txt");
const COMPOUND_PARTS_DE: &str = include_str!("../data/compound_parts_de.txt");
const DERIVATION_EXCEPTIONS_DE: &str = include_str!("../data/derivation_exceptions_de.txt");
const STEM_OVERRIDES_EN: &str = include_str!("../data/stem_overrides_en.txt");

/// BM25 parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bm25Params {
    /// Term-frequency saturation (`k1`), ≥ 0. Default 1.2 (Lucene, tantivy).
    pub k1: f32,
    /// Length normalisation (`b`), 0..=1. Default 0.75 (Lucene, tantivy).
    pub b: f32,
    /// Store document lengths in the one-byte Lucene norm code (exact up to
    /// 24 tokens, then 4 significant bits) as Lucene and tantivy do; scores
    /// then equal theirs. `false` uses exact lengths. Default true.
    pub quantize_doc_len: bool,
    /// How often a chunk's norm heading counts in its BM25 text: a BM25F
    /// heading field whose term frequencies weigh this much against the
    /// body's (the index build writes the heading this often). Default
    /// [`BM25_HEADING_WEIGHT`]; 1 for indexes built before this option
    /// (their manifest lacks it).
    #[serde(default = "one")]
    pub heading_weight: u32,
}

/// `heading_weight` = 2 — a norm heading counts twice in BM25 („Recht auf
/// Löschung“ names what the norm is about; the body may use the word once
/// among many). Measured on the full e5-small index, weight 1 → 2 → 3 → 5,
/// stage full hit@1: own-heldout-2 0.733 → 0.767 → 0.767 → 0.767,
/// own-heldout-5 0.542 → 0.542 → 0.500 → 0.542, own-tuning 0.787 → 0.787 →
/// 0.787 → 0.775, golden-para 0.917 → 0.917 → 0.917 → 0.944 (hand topics
/// off 0.611 → 0.611 → 0.583 → 0.583); the clean set own-heldout-6, 1 → 2:
/// hit@5 0.800 → 0.840. Pinned by `bm25_heading_weight_default`.
pub const BM25_HEADING_WEIGHT: u32 = 2;

fn one() -> u32 {
    1
}

impl Default for Bm25Params {
    fn default() -> Self {
        Bm25Params {
            k1: 1.2,
            b: 0.75,
            quantize_doc_len: true,
            heading_weight: BM25_HEADING_WEIGHT,
        }
    }
}

/// Analyzer configuration; serialised into the index manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerConfig {
    /// Language assumed when neither the caller nor stop-word detection says otherwise.
    pub default_lang: Lang,
    /// Apply the Snowball stemmer of the text's language.
    pub stem: bool,
    /// Drop stop words (`data/stopwords_{de,en}.txt`).
    pub stopwords: bool,
    /// Split German compounds (see module docs).
    pub decompound: bool,
    /// Shortest word (in chars) considered for splitting. Default 10.
    pub compound_min_len: usize,
    /// Shortest part (in chars). Default 4.
    pub compound_min_part: usize,
    /// Minimum German document frequency for a corpus word to join the lexicon. Default 2.
    pub compound_min_df: u32,
    /// BM25 scoring parameters.
    pub bm25: Bm25Params,
    /// German: stem an infinitive with an inner `zu` as the verb without it
    /// („aufzubewahren“ → `aufbewahr`, as „aufbewahren“). Off for indexes
    /// built before this option (their manifest lacks it).
    #[serde(default)]
    pub zu_infix: bool,
    /// German: fold the stems of `-ieren` verbs and their `-isch`
    /// adjectives together ([`fold_derivation`]: „automatisiert“,
    /// „Automatisierung“, „automatisch“ → `automat`). Off for indexes built
    /// before this option (their manifest lacks it).
    #[serde(default)]
    pub derivation: bool,
    /// German decompounding: a compound's last part may be any inflection or
    /// derivation of a lexicon word — its stem is a lexicon word's stem
    /// („vollautomatisch“ → „voll“ + `automat`, with „automatisierte“ in the
    /// corpus). Off for indexes built before this option.
    #[serde(default)]
    pub stem_tails: bool,
    /// German: a noun or adjective formed from another word also emits that
    /// word's stem ([`Analyzer::derived_base`]: „Schwangerschaft“ →
    /// `schwang` as „schwanger“, „Krankheit“ → `krank`, „Haftung“ → `haft`
    /// as „haften“, „strafbar“ → `straf`), so a question's adjective or verb
    /// meets the law's noun and back. Off for indexes built before this
    /// option (their manifest lacks it).
    #[serde(default)]
    pub noun_derivation: bool,
    /// English: words the Snowball stemmer folds into an unrelated word's
    /// stem keep a stem of their own (`data/stem_overrides_en.txt`:
    /// "important" is no form of "importer"). Off for indexes built before
    /// this option (their manifest lacks it).
    #[serde(default)]
    pub stem_overrides: bool,
}

impl Default for AnalyzerConfig {
    fn default() -> Self {
        AnalyzerConfig {
            default_lang: Lang::De,
            stem: true,
            stopwords: true,
            decompound: true,
            compound_min_len: 10,
            compound_min_part: 4,
            compound_min_df: 2,
            bm25: Bm25Params::default(),
            zu_infix: true,
            derivation: true,
            stem_tails: true,
            noun_derivation: true,
            stem_overrides: true,
        }
    }
}

/// Shortest part before `-ier`/`-iert` that [`fold_derivation`] folds
/// („Tier“, „Papier“ stay as they are).
const DERIVATION_MIN_IER_BASE: usize = 4;

/// Shortest base [`fold_derivation`] leaves after dropping `-isi`: shorter
/// bases are too often other words („organisiert“ is not „Organ“,
/// „realisiert“ not „real“).
const DERIVATION_MIN_BASE: usize = 6;

/// Fold a German Snowball stem over two derivations the stemmer leaves
/// apart. The participle `-iert` and the noun's `-ier` (of `-ierung`) meet
/// the infinitive, which Snowball stems to `-i` („registriert“,
/// „Registrierung“, „registrieren“ → `registri`; the part before `-ier`
/// keeps at least [`DERIVATION_MIN_IER_BASE`] characters). A `-isi`
/// verb then meets its `-isch` adjective, whose suffix Snowball drops
/// („automatisiert“, „Automatisierung“, „automatisch“ → `automat`;
/// „anonymisiert“, „anonym“ → `anonym`) when the base keeps at least
/// [`DERIVATION_MIN_BASE`] characters. Returns a prefix of `stem`.
pub fn fold_derivation(stem: &str) -> &str {
    let chars = |s: &str| s.chars().count();
    let s = match stem
        .strip_suffix("iert")
        .or_else(|| stem.strip_suffix("ier"))
    {
        Some(b) if chars(b) >= DERIVATION_MIN_IER_BASE => &stem[..b.len() + 1],
        _ => stem,
    };
    match s.strip_suffix("isi") {
        Some(base) if chars(base) >= DERIVATION_MIN_BASE => base,
        _ => s,
    }
}

/// Shortest base [`Analyzer::derived_base`] leaves before a suffix
/// („Schwangerschaft“ → „schwanger“, „Krankheit“ → „krank“); shorter bases
/// are too often another word („Einheit“ is not „ein“, „Hoheit“ not „ho“).
const NOUN_DERIVATION_MIN_BASE: usize = 4;

/// Suffixes that form a noun or adjective from a word that keeps its
/// meaning: the quality or state („-heit“, „-keit“: „krank“ → „Krankheit“,
/// „zuverlässig“ → „Zuverlässigkeit“), the state or group („-schaft“:
/// „schwanger“ → „Schwangerschaft“, „Mitglied“ → „Mitgliedschaft“), the
/// possibility („-bar“: „Strafe“ → „strafbar“, „haften“ → „haftbar“).
/// `-ung` is handled apart: only after a verb the corpus has.
const NOUN_SUFFIXES: &[&str] = &["schaft", "heit", "keit", "bar"];

/// Shortest word [`Analyzer::verb_form_stem`] looks at („geht“, „gilt“
/// are shorter).
const VERB_FORM_MIN_LEN: usize = 5;

/// Shortest verb base [`Analyzer::verb_form_stem`] accepts („stuf“ of
/// „eingestuft“).
const VERB_FORM_MIN_BASE: usize = 3;

/// German separable verb prefixes before the participle's ge-
/// („ein-ge-stuft“, „ab-ge-lehnt“), folded.
const SEPARABLE_PREFIXES: &[&str] = &[
    "ab", "an", "auf", "aus", "bei", "dar", "ein", "fest", "her", "hin", "los", "mit", "nach",
    "vor", "weg", "zu", "zuruck", "zusammen", "um", "weiter", "frei", "offen",
];

/// Fold umlauts and ß: `ä→a ö→o ü→u ß→ss`.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'ä' => out.push('a'),
            'ö' => out.push('o'),
            'ü' => out.push('u'),
            'ß' => out.push_str("ss"),
            'Ä' => out.push('A'),
            'Ö' => out.push('O'),
            'Ü' => out.push('U'),
            'ẞ' => out.push_str("SS"),
            _ => out.push(c),
        }
    }
    out
}

/// `word stem` lines of a data file (comments and blank lines skipped).
fn word_pairs(data: &str) -> HashMap<String, String> {
    data.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .map(|(w, s)| (fold(w), fold(s.trim())))
        .collect()
}

fn word_list(data: &str) -> HashSet<String> {
    data.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(fold)
        .collect()
}

/// A raw token from the tokenizer: lower-cased text; `special` for § / Art. tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawToken {
    pub text: String,
    pub special: bool,
}

/// Split `text` into lower-cased words and § / Art. tokens.
pub fn tokenize(text: &str) -> Vec<RawToken> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let n = chars.len();
    let skip_ws = |mut j: usize| {
        while j < n && (chars[j].is_whitespace() || chars[j] == '.') {
            j += 1;
        }
        j
    };
    let read_alnum = |mut j: usize| {
        let s = j;
        while j < n && chars[j].is_alphanumeric() {
            j += 1;
        }
        (s, j)
    };
    while i < n {
        let c = chars[i];
        if c == '§' {
            let mut j = i + 1;
            while j < n && (chars[j] == '§' || chars[j].is_whitespace()) {
                j += 1;
            }
            if j < n && chars[j].is_ascii_digit() {
                let (s, e) = read_alnum(j);
                let mut t = String::from("§");
                t.extend(chars[s..e].iter().flat_map(|c| c.to_lowercase()));
                out.push(RawToken {
                    text: t,
                    special: true,
                });
                i = e;
            } else {
                i = j.max(i + 1);
            }
            continue;
        }
        if !c.is_alphanumeric() {
            i += 1;
            continue;
        }
        let (s, e) = read_alnum(i);
        let word: String = chars[s..e].iter().flat_map(|c| c.to_lowercase()).collect();
        if matches!(word.as_str(), "art" | "artikel" | "article" | "arts") {
            let j = skip_ws(e);
            if j < n && chars[j].is_ascii_digit() && j > e {
                let (s2, e2) = read_alnum(j);
                let mut t = String::from("art");
                t.extend(chars[s2..e2].iter().flat_map(|c| c.to_lowercase()));
                out.push(RawToken {
                    text: t,
                    special: true,
                });
                i = e2;
                continue;
            }
        }
        out.push(RawToken {
            text: word,
            special: false,
        });
        i = e;
    }
    out
}

/// The analyzer: configuration, stemmers, stop words and the compound lexicon.
#[derive(Clone)]
pub struct Analyzer {
    cfg: AnalyzerConfig,
    stem_de: Arc<Stemmer>,
    stem_en: Arc<Stemmer>,
    stop_de: Arc<HashSet<String>>,
    stop_en: Arc<HashSet<String>>,
    lexicon: Arc<HashSet<String>>,
    /// German stems of the lexicon's words (`stem_tails`; empty when off).
    lexicon_stems: Arc<HashSet<String>>,
    /// Lexicalised derivations whose base means something else
    /// (`data/derivation_exceptions_de.txt`: „Belegschaft“ is no „Beleg“).
    derivation_exceptions: Arc<HashSet<String>>,
    /// English word → the stem it keeps (`stem_overrides`; empty when off).
    stem_overrides_en: Arc<HashMap<String, String>>,
}

impl std::fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyzer")
            .field("cfg", &self.cfg)
            .field("lexicon", &self.lexicon.len())
            .finish()
    }
}

impl Analyzer {
    /// An analyzer with the built-in compound lexicon only.
    pub fn new(cfg: &AnalyzerConfig) -> Self {
        Self::with_lexicon(cfg, std::iter::empty::<String>())
    }

    /// An analyzer whose compound lexicon is the built-in list plus `words`
    /// (folded, lower-case).
    pub fn with_lexicon<I, S>(cfg: &AnalyzerConfig, words: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut lexicon = word_list(COMPOUND_PARTS_DE);
        lexicon.extend(words.into_iter().map(Into::into));
        let mut a = Analyzer {
            cfg: cfg.clone(),
            stem_de: Arc::new(Stemmer::create(Algorithm::German)),
            stem_en: Arc::new(Stemmer::create(Algorithm::English)),
            stop_de: Arc::new(word_list(STOP_DE)),
            stop_en: Arc::new(word_list(STOP_EN)),
            lexicon: Arc::new(lexicon),
            lexicon_stems: Arc::new(HashSet::new()),
            derivation_exceptions: Arc::new(word_list(DERIVATION_EXCEPTIONS_DE)),
            stem_overrides_en: Arc::new(if cfg.stem_overrides {
                word_pairs(STEM_OVERRIDES_EN)
            } else {
                HashMap::new()
            }),
        };
        if cfg.stem_tails && cfg.decompound && cfg.stem {
            let stems: HashSet<String> = a.lexicon.iter().map(|w| a.stem(w, Lang::De)).collect();
            a.lexicon_stems = Arc::new(stems);
        }
        a
    }

    /// Whether `tail` may end a compound: a lexicon word, or (`stem_tails`)
    /// a form of one.
    fn known_tail(&self, tail: &str) -> bool {
        self.lexicon.contains(tail)
            || (!self.lexicon_stems.is_empty()
                && self.lexicon_stems.contains(&self.stem(tail, Lang::De)))
    }

    /// The configuration.
    pub fn config(&self) -> &AnalyzerConfig {
        &self.cfg
    }

    /// The compound lexicon (built-in list ∪ corpus words), sorted.
    pub fn lexicon_sorted(&self) -> Vec<String> {
        let mut v: Vec<String> = self.lexicon.iter().cloned().collect();
        v.sort();
        v
    }

    /// Guess the language of `text` by counting German and English stop
    /// words; ties go to `default_lang`.
    pub fn detect_lang(&self, text: &str) -> Lang {
        let (mut de, mut en) = (0usize, 0usize);
        for t in tokenize(text) {
            if t.special {
                continue;
            }
            let f = fold(&t.text);
            de += usize::from(self.stop_de.contains(&f));
            en += usize::from(self.stop_en.contains(&f));
        }
        match de.cmp(&en) {
            std::cmp::Ordering::Greater => Lang::De,
            std::cmp::Ordering::Less => Lang::En,
            std::cmp::Ordering::Equal => self.cfg.default_lang,
        }
    }

    /// Analyze `text` in its detected language.
    pub fn analyze(&self, text: &str) -> Vec<String> {
        self.analyze_lang(text, self.detect_lang(text))
    }

    /// Analyze `text` as language `lang`.
    pub fn analyze_lang(&self, text: &str, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        for t in tokenize(text) {
            self.process(&t, lang, &mut out);
        }
        out
    }

    /// Turn one raw token into zero or more terms, appended to `out`.
    pub fn process(&self, t: &RawToken, lang: Lang, out: &mut Vec<String>) {
        if t.special {
            out.push(t.text.clone());
            return;
        }
        let word = &t.text;
        let is_num = word.chars().all(|c| c.is_ascii_digit());
        if is_num {
            out.push(word.clone());
            return;
        }
        if word.chars().count() < 2 {
            return;
        }
        let folded = fold(word);
        if self.cfg.stopwords {
            let stop = match lang {
                Lang::De => &self.stop_de,
                Lang::En => &self.stop_en,
            };
            if stop.contains(&folded) {
                return;
            }
        }
        let full = match paragraf_types::german::without_zu_infix(&folded) {
            Some(verb) if self.cfg.zu_infix && lang == Lang::De => self.stem(&verb, lang),
            _ => self.stem(word, lang),
        };
        out.push(full.clone());
        if self.cfg.noun_derivation && lang == Lang::De {
            if let Some(base) = self.derived_base(&folded, &full) {
                out.push(base);
            }
        }
        if self.cfg.decompound
            && lang == Lang::De
            && folded.chars().count() >= self.cfg.compound_min_len
        {
            if let Some(parts) = self.split(&folded, 2) {
                for p in parts {
                    let s = self.stem(&p, lang);
                    if s != full {
                        out.push(s);
                    }
                }
            }
        }
    }

    fn stem(&self, word: &str, lang: Lang) -> String {
        if !self.cfg.stem {
            return fold(word);
        }
        let st = match lang {
            Lang::De => &self.stem_de,
            Lang::En => {
                if let Some(own) = self.stem_overrides_en.get(word) {
                    return own.clone();
                }
                &self.stem_en
            }
        };
        let mut s = fold(&st.stem(word));
        if self.cfg.derivation && lang == Lang::De {
            // a prefix of the stem: cut in place
            let n = fold_derivation(&s).len();
            s.truncate(n);
        }
        s
    }

    /// German: the stem of the word a noun or adjective is derived from,
    /// when the stemmer leaves the two apart. `folded` is the lower-cased,
    /// umlaut-folded word, `own` its stem. [`NOUN_SUFFIXES`] are cut when
    /// at least [`NOUN_DERIVATION_MIN_BASE`] characters stay
    /// („Schwangerschaft“ → `schwang`, as „schwanger“; „Krankheit“ →
    /// `krank`; „strafbar“ → `straf`, as „Strafe“). A noun in `-ung` the
    /// stemmer keeps whole („Haftung“, „Impfung“) meets its verb only when
    /// the corpus has that verb's infinitive or third person („haften“,
    /// „haftet“ → `haft`): „Satzung“ is no form of „Satz“. Words in
    /// `data/derivation_exceptions_de.txt` („Belegschaft“, „Wirtschaft“,
    /// „vereinbar“) keep their own stem only. `None` when nothing is cut or
    /// the base's stem is the word's own.
    pub fn derived_base(&self, folded: &str, own: &str) -> Option<String> {
        if self.derivation_exceptions.contains(folded) {
            return None;
        }
        let long_enough = |b: &str| b.chars().count() >= NOUN_DERIVATION_MIN_BASE;
        let base = NOUN_SUFFIXES
            .iter()
            .find_map(|suf| folded.strip_suffix(suf).filter(|b| long_enough(b)))
            .map(str::to_string)
            .or_else(|| {
                // `-ung` the stemmer kept (it cuts it from long words only)
                if !own.ends_with("ung") {
                    return None;
                }
                let b = folded.strip_suffix("ung")?;
                let verb = ["en", "n", "et", "t"]
                    .iter()
                    .any(|end| self.lexicon.contains(&format!("{b}{end}")));
                (b.chars().count() >= VERB_FORM_MIN_BASE && verb).then(|| b.to_string())
            })?;
        let s = self.stem(&base, Lang::De);
        (s != own && s.chars().count() >= VERB_FORM_MIN_BASE).then_some(s)
    }

    /// German: the stem of the infinitive behind a participle or a finite
    /// verb form that Snowball leaves apart from it („eingestuft“ →
    /// `einstuf`, as „einstufen“ and „Einstufung“; „gespeichert“ → `speich`;
    /// „verarbeitet“ → `verarbeit`; „haftet“ → `haft`). `folded` is the
    /// lower-cased, umlaut-folded word. Only a stem some corpus word has
    /// (`stem_tails`' lexicon stems) and that differs from the word's own
    /// stem is returned; the caller passes verbs only (German nouns are
    /// capitalised: „Recht“, „Internet“ are not verb forms).
    pub fn verb_form_stem(&self, folded: &str) -> Option<String> {
        if self.lexicon_stems.is_empty() || folded.chars().count() < VERB_FORM_MIN_LEN {
            return None;
        }
        let own = self.stem(folded, Lang::De);
        let infinitive = |base: &str| {
            if base.ends_with("er") || base.ends_with("el") {
                format!("{base}n")
            } else {
                format!("{base}en")
            }
        };
        // the base of a form ending in -et / -t (`-t` after a vowel is not a verb ending)
        let base_of = |w: &str| -> Option<String> {
            let b = w.strip_suffix("et").or_else(|| {
                let b = w.strip_suffix('t')?;
                (!b.ends_with(['a', 'e', 'i', 'o', 'u'])).then_some(b)
            })?;
            (b.chars().count() >= VERB_FORM_MIN_BASE).then(|| b.to_string())
        };
        let mut candidates: Vec<String> = Vec::new();
        // participle with ge-, after a separable prefix or none
        for prefix in std::iter::once("").chain(SEPARABLE_PREFIXES.iter().copied()) {
            if let Some(rest) = folded
                .strip_prefix(prefix)
                .and_then(|r| r.strip_prefix("ge"))
            {
                if let Some(base) = base_of(rest) {
                    candidates.push(format!("{prefix}{}", infinitive(&base)));
                }
            }
        }
        // finite forms and participles without ge- (verarbeitet, haftet)
        if let Some(base) = base_of(folded) {
            candidates.push(infinitive(&base));
        }
        candidates
            .into_iter()
            .map(|c| self.stem(&c, Lang::De))
            .find(|s| *s != own && self.lexicon_stems.contains(s))
    }

    /// Split a folded word into lexicon parts (longest head first); `None`
    /// when no split exists.
    pub fn split(&self, w: &str, depth: usize) -> Option<Vec<String>> {
        let min = self.cfg.compound_min_part;
        let idx: Vec<usize> = w.char_indices().map(|(i, _)| i).collect();
        let nchars = idx.len();
        if nchars < 2 * min {
            return None;
        }
        for h in (min..=nchars - min).rev() {
            let head = &w[..idx[h]];
            if !self.lexicon.contains(head) {
                continue;
            }
            let rest = &w[idx[h]..];
            for fuge in ["", "s", "es"] {
                let Some(tail) = rest.strip_prefix(fuge) else {
                    continue;
                };
                if tail.chars().count() < min {
                    continue;
                }
                if self.known_tail(tail) {
                    return Some(vec![head.to_string(), tail.to_string()]);
                }
                if depth > 1 {
                    if let Some(mut more) = self.split(tail, depth - 1) {
                        more.insert(0, head.to_string());
                        return Some(more);
                    }
                }
            }
        }
        None
    }

    /// Whether `folded` is a stop word of `lang`.
    pub fn is_stopword(&self, folded: &str, lang: Lang) -> bool {
        match lang {
            Lang::De => self.stop_de.contains(folded),
            Lang::En => self.stop_en.contains(folded),
        }
    }
}

#[cfg(test)]
mod tests;
