//! Reference extraction: citations in legal text resolved to canonical norm
//! ids (`Art. 37 DSGVO`, `§ 6 BDSG`, `Anhang I CRA`).
//!
//! A hand-written scanner, not one big regex: a trigger (`§`, `§§`,
//! `Art.`/`Artikel(s)`/`Article(s)`, `Anhang`/`Anlage`/`Annex`,
//! `Erwägungsgrund`/`recital`) starts a chain of norm numbers with their
//! sub-units (`Absatz 1 Unterabsatz 1 Buchstabe f`, `13(2)(a)`, `Satz 2`),
//! lists (`15, 16 und 17`) and ranges (`45 bis 84`, `15 to 22`). After the
//! chain the designation decides the law: an EU act number (`der Verordnung
//! (EU) 2016/679` → DSGVO via the manifest's `act_numbers`), an alias (`DSGVO`,
//! `BDSG 1990`, `des Bundesdatenschutzgesetzes`, `of the AI Act`), `dieser
//! Verordnung` / `der vorliegenden Verordnung` / `this Regulation` (the
//! citing law), or nothing (the citing law). A designation naming a law
//! outside the manifest (`des Grundgesetzes`, `StGB`, `Richtlinie 95/46/EG`)
//! makes the citation unresolved; it is kept verbatim. Whether a resolved norm exists in the
//! corpus is checked later, in the graph pass.
//!
//! Sub-units are not part of the norm id: references are kept at norm level.
//! Ranges are expanded when they span at most [`MAX_RANGE`] numbers, else
//! only their ends are kept.

use crate::lawnames::LawNames;
use crate::manifest::Manifest;
use paragraf_types::NormRef;
use regex::Regex;
use std::sync::LazyLock;

/// Longest range (`§§ 45 bis 84`) expanded into single norms.
pub const MAX_RANGE: u32 = 40;

/// What [`extract_references`] found in one text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extracted {
    /// Canonical norm ids, deduplicated, sorted.
    pub resolved: Vec<NormRef>,
    /// Citations that name a law outside the manifest, verbatim, deduplicated, sorted.
    pub unresolved: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TriggerKind {
    Section,
    Article,
    Annex,
    Anlage,
    Recital,
}

static TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?P<sec>§§?)
        | \b(?P<art>Artikeln|Artikels|Artikel|Art\.|Art\b|Articles|Article)
        | \b(?P<anx>Anhängen|Anhänge|Anhangs|Anhang|Annexes|Annex|ANNEX)
        | \b(?P<anl>Anlagen|Anlage)
        | \b(?P<rec>Erwägungsgründen|Erwägungsgründe|Erwägungsgrundes|Erwägungsgrund|[Rr]ecitals|[Rr]ecital)",
    )
    .expect("trigger regex is valid")
});

/// An EU act named by its number (`Verordnung (EU) 2016/679`, `Richtlinie
/// 2014/35/EU`, `Regulation (EC) No 765/2008`): the number is group `a` or
/// `b`. Verbose syntax; [`ACT_NUMBER`] reads it at a designation's start,
/// [`act_numbers`] anywhere.
const ACT_FORM: &str = r"
        (?:(?:Delegierten\s+|Durchführungs)?(?:Verordnung|Richtlinie|Beschluss|Beschlusses|Entscheidung)
          |(?:Delegated\s+|Implementing\s+)?(?:Regulation|Directive|Decision))
        \s*
        (?:
          \((?:EU|EG|EWG|EC|EEC|Euratom|EU,\s*Euratom)\)\s*(?:Nr\.|No\.?)?\s*(?P<a>\d{1,4}/\d{1,4})
          |(?:Nr\.\s*|No\.?\s*)?(?P<b>\d{1,4}/\d{1,4})/(?:EU|EG|EWG|EC|EEC)
        )";

static ACT_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?x)^
        (?:(?:der|des|dieser|in\s+der|nach\s+der|gemäß\s+der|of|of\s+the|in|under|to)\s+)?{ACT_FORM}"
    ))
    .expect("act regex is valid")
});

static ACT_ANYWHERE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("(?x){ACT_FORM}")).expect("act regex is valid"));

/// The numbers of the EU acts `text` names, in order, as the reference
/// extractor reads them („Richtlinie 2014/35/EU“ → `2014/35`, „Verordnung
/// (EU) 2023/988“ → `2023/988`, „Verordnung (EG) Nr. 765/2008“ →
/// `765/2008`), whether or not the manifest holds the act.
pub fn act_numbers(text: &str) -> Vec<String> {
    ACT_ANYWHERE
        .captures_iter(text)
        .filter_map(|c| c.name("a").or_else(|| c.name("b")))
        .map(|m| m.as_str().to_string())
        .collect()
}

static THIS_LAW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:dieser|dieses|(?:der|des)\s+vorliegenden|this|of\s+this)\s+(?:Verordnung|Richtlinie|Gesetzes|Gesetz|Regulation|Directive|Act)\b")
        .expect("regex is valid")
});

static UNKNOWN_INSTRUMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:der|des|of\s+the|of)\s+(?:Verordnung|Richtlinie|Entscheidung|Charta|Konvention|Beschlusses|Vertrags|Vertrages|Regulation|Directive|Charter|Treaty|Convention|Decision|Protocol|TFEU|TEU|AEUV|EUV)\b",
    )
    .expect("regex is valid")
});

static DEFER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:,|und|oder|sowie|bzw\.|in\s+Verbindung\s+mit|i\.\s?V\.\s?m\.|iVm|and|or|in\s+conjunction\s+with)\s*(?:den|dem|der|die|des)?\s*(?:§|Art\b|Art\.|Artikel|Article|Anhang|Annex|Anlage)",
    )
    .expect("regex is valid")
});

static ACT_MENTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:Regulation|Directive|Verordnung|Richtlinie)\s*\((?:EU|EC|EG)\)\s*(?:No\.?|Nr\.)?\s*(\d{1,4}/\d{1,4})")
        .expect("regex is valid")
});

static THAT_LAW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:of\s+)?that\s+(?:Regulation|Directive|Decision)\b|^(?:der|des)\s+genannten\s+(?:Verordnung|Richtlinie|Gesetzes)\b",
    )
    .expect("regex is valid")
});

/// Law-designating suffixes of an unknown German law word.
const LAW_SUFFIXES: &[&str] = &[
    "gesetz",
    "gesetzes",
    "gesetzbuch",
    "gesetzbuches",
    "gesetzbuchs",
    "ordnung",
    "verordnung",
    "vertrag",
    "vertrages",
    "vertrags",
    "abkommen",
    "abkommens",
    "richtlinie",
    "grundgesetz",
    "grundgesetzes",
    "kodex",
    "kodexes",
];

/// Words after a chain that look like abbreviations but are no law.
const NOT_A_LAW: &[&str] = &[
    "EU", "EG", "EWG", "EWR", "EC", "EEA", "UN", "OECD", "IT", "KMU", "SME", "ABl", "BGBl",
];

struct Lexer<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        self.s.get(self.pos..).unwrap_or("")
    }
    fn skip_ws(&mut self) {
        let r = self.rest();
        let t = r.trim_start();
        self.pos += r.len() - t.len();
    }
    /// A norm number: digits with an optional single lower-case letter.
    fn number(&mut self) -> Option<String> {
        let r = self.rest();
        let d = r.bytes().take_while(|b| b.is_ascii_digit()).count();
        if d == 0 || d > 4 {
            return None;
        }
        let mut end = d;
        let after = &r[d..];
        let mut chars = after.chars();
        if let Some(c) = chars.next() {
            if c.is_ascii_lowercase() && !chars.next().is_some_and(|c2| c2.is_alphabetic()) {
                end += 1;
            } else if c.is_alphabetic() {
                return None; // `3D`, `5G`: not a norm number
            }
        }
        self.pos += end;
        Some(r[..end].to_string())
    }
    /// A roman numeral (annexes): I, II, IV, XIII.
    fn roman(&mut self) -> Option<String> {
        let r = self.rest();
        let n = r
            .bytes()
            .take_while(|b| matches!(b, b'I' | b'V' | b'X' | b'L'))
            .count();
        if n == 0 || n > 6 || r[n..].chars().next().is_some_and(|c| c.is_alphanumeric()) {
            return None;
        }
        self.pos += n;
        Some(r[..n].to_string())
    }
    /// `(2)`, `(a)`, `(iv)`.
    fn paren(&mut self) -> bool {
        let r = self.rest();
        if !r.starts_with('(') {
            return false;
        }
        let inner: String = r[1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if inner.is_empty() || inner.len() > 4 || !r[1 + inner.len()..].starts_with(')') {
            return false;
        }
        self.pos += inner.len() + 2;
        true
    }
    fn word(&mut self, words: &[&str]) -> Option<&'static str> {
        let r = self.rest();
        for w in words {
            if let Some(after) = r.strip_prefix(w) {
                let boundary =
                    w.ends_with('.') || !after.chars().next().is_some_and(|c| c.is_alphanumeric());
                if boundary {
                    self.pos += w.len();
                    // SAFETY of lifetime: we only use the matched literal's identity
                    return Some(static_of(w));
                }
            }
        }
        None
    }
}

fn static_of(w: &str) -> &'static str {
    match w {
        "bis" | "to" | "-" | "–" | "through" => "range",
        _ => "list",
    }
}

const QUALIFIERS: &[&str] = &[
    "Absätzen",
    "Absätze",
    "Absatzes",
    "Absatz",
    "Abs.",
    "Unterabsätze",
    "Unterabsatzes",
    "Unterabsatz",
    "UAbs.",
    "Sätzen",
    "Sätze",
    "Satzes",
    "Satz",
    "S.",
    "Halbsatz",
    "Hs.",
    "Nummern",
    "Nummer",
    "Nr.",
    "Buchstaben",
    "Buchstabe",
    "Buchst.",
    "lit.",
    "Alternative",
    "Alt.",
    "Variante",
    "Var.",
    "Ziffern",
    "Ziffer",
    "Ziff.",
    "Teil",
    "Abschnitt",
    "paragraphs",
    "paragraph",
    "para.",
    "subparagraphs",
    "subparagraph",
    "points",
    "point",
    "Part",
    "Section",
    "Punkt",
    "Nrn.",
];
const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "erster", "zweiter", "dritter",
];
const CONNECTORS: &[&str] = &[
    "und", "oder", "sowie", "bis", "u.", "and", "or", "to", "through", ",", "-", "–",
];

/// One chain: norm labels (numbers), the trigger kind, span.
struct Chain {
    kind: TriggerKind,
    numbers: Vec<String>,
    start: usize,
    end: usize,
}

fn parse_chain(
    text: &str,
    start: usize,
    after_trigger: usize,
    kind: TriggerKind,
    plural: bool,
) -> Option<Chain> {
    let mut lx = Lexer {
        s: text,
        pos: after_trigger,
    };
    lx.skip_ws();
    let first = match kind {
        TriggerKind::Annex => lx.roman().or_else(|| lx.number()),
        _ => lx.number(),
    }?;
    let mut numbers = vec![first];
    let mut in_sub = false;
    loop {
        let save = lx.pos;
        lx.skip_ws();
        // English sub-units glued to the number: 13(2)(a)
        if lx.paren() {
            while lx.paren() {}
            in_sub = true;
            continue;
        }
        if lx.word(ORDINALS).is_some() {
            lx.skip_ws();
            if lx.word(QUALIFIERS).is_some() {
                in_sub = true;
                continue;
            }
            lx.pos = save;
            break;
        }
        if lx.word(QUALIFIERS).is_some() {
            lx.skip_ws();
            if !sub_value(&mut lx) {
                lx.pos = save;
                break;
            }
            in_sub = true;
            continue;
        }
        let conn_pos = lx.pos;
        if let Some(c) = lx.word(CONNECTORS) {
            lx.skip_ws();
            if lx.word(QUALIFIERS).is_some() {
                lx.skip_ws();
                if sub_value(&mut lx) {
                    in_sub = true;
                    continue;
                }
                lx.pos = conn_pos;
                break;
            }
            if lx.paren() {
                while lx.paren() {}
                continue;
            }
            let num_start = lx.pos;
            let next = match kind {
                TriggerKind::Annex => lx.roman().or_else(|| lx.number()),
                _ => lx.number(),
            };
            match next {
                Some(n) if !in_sub || plural => {
                    if c == "range" {
                        let last = numbers.last().cloned().unwrap_or_default();
                        expand_range(&last, &n, &mut numbers);
                    } else {
                        numbers.push(n);
                    }
                    in_sub = false;
                }
                Some(_) => {
                    // value of the active sub-unit (`Absatz 4, 5 Satz 2`)
                }
                None => {
                    lx.pos = num_start;
                    // single letters after a letter qualifier: `Buchstabe b und c`
                    if in_sub && single_letter(&mut lx) {
                        continue;
                    }
                    lx.pos = conn_pos;
                    break;
                }
            }
            continue;
        }
        lx.pos = save;
        break;
    }
    Some(Chain {
        kind,
        numbers,
        start,
        end: lx.pos,
    })
}

fn single_letter(lx: &mut Lexer<'_>) -> bool {
    let r = lx.rest();
    let mut cs = r.chars();
    match (cs.next(), cs.next()) {
        (Some(c), next) if c.is_ascii_lowercase() && !next.is_some_and(|n| n.is_alphanumeric()) => {
            lx.pos += 1;
            true
        }
        _ => false,
    }
}

fn sub_value(lx: &mut Lexer<'_>) -> bool {
    if lx.number().is_some() || lx.paren() || lx.roman().is_some() {
        return true;
    }
    single_letter(lx)
}

fn expand_range(from: &str, to: &str, out: &mut Vec<String>) {
    let (Ok(a), Ok(b)) = (from.parse::<u32>(), to.parse::<u32>()) else {
        out.push(to.to_string());
        return;
    };
    if b > a && b - a <= MAX_RANGE {
        for n in a + 1..=b {
            out.push(n.to_string());
        }
    } else {
        out.push(to.to_string());
    }
}

/// How the law of a chain was designated.
enum Designation {
    /// Canonical regulation named explicitly.
    Named(String),
    /// `dieser Verordnung`, `der vorliegenden Verordnung`, `this Regulation`.
    ThisLaw,
    /// A law outside the manifest.
    Unknown,
    /// Nothing: the citing law (same-law reference).
    None,
    /// `of that Regulation`: the law named last before.
    That,
}

fn designation(
    text: &str,
    pos: usize,
    manifest: &Manifest,
    names: &LawNames,
) -> (Designation, usize) {
    let rest_full = text.get(pos..).unwrap_or("");
    let mut rest = rest_full.trim_start();
    // `Article 6(1), point (f), of this Regulation`
    if let Some(r) = rest.strip_prefix(',') {
        let r = r.trim_start();
        if r.starts_with("of ") {
            rest = r;
        }
    }
    let base = pos + (rest_full.len() - rest.len());
    if let Some(m) = ACT_NUMBER.captures(rest) {
        let end = base + m.get(0).map(|x| x.end()).unwrap_or(0);
        let num = m
            .name("a")
            .or_else(|| m.name("b"))
            .map(|x| x.as_str())
            .unwrap_or("");
        let swapped = num
            .split_once('/')
            .map(|(x, y)| format!("{y}/{x}"))
            .unwrap_or_default();
        return match manifest
            .regulation_by_act_number(num)
            .or_else(|| manifest.regulation_by_act_number(&swapped))
        {
            Some(r) => (Designation::Named(r.to_string()), end),
            None => (Designation::Unknown, end),
        };
    }
    if let Some(m) = THAT_LAW.find(rest) {
        return (Designation::That, base + m.end());
    }
    if let Some(m) = THIS_LAW.find(rest) {
        return (Designation::ThisLaw, base + m.end());
    }
    // a law's title in words (`des Strafgesetzbuchs`, `des Gesetzes gegen
    // den unlauteren Wettbewerb`), when the caller knows the titles
    if !names.is_empty() {
        let mut body = rest;
        let mut skipped = 0usize;
        for prep in ["des ", "der ", "dem ", "den ", "of the ", "of ", "the "] {
            if let Some(b) = body.strip_prefix(prep) {
                skipped = prep.len();
                body = b;
                break;
            }
        }
        if let Some((reg, len)) = names.prefix(body) {
            return (Designation::Named(reg.to_string()), base + skipped + len);
        }
    }
    if let Some(m) = UNKNOWN_INSTRUMENT.find(rest) {
        return (Designation::Unknown, base + m.end());
    }
    // optional article/preposition, then up to 4 words tried as an alias
    let mut body = rest;
    let mut skipped = 0usize;
    for prep in ["des ", "der ", "of the ", "of ", "the "] {
        if let Some(b) = body.strip_prefix(prep) {
            skipped = prep.len();
            body = b;
            break;
        }
    }
    let words: Vec<(usize, &str)> = word_spans(body, 4);
    for k in (1..=words.len()).rev() {
        let (off, w) = words[k - 1];
        let end_in_body = off + w.len();
        let phrase = &body[..end_in_body];
        let mut candidates = vec![phrase.to_string()];
        if k == 1 {
            for suf in ["es", "s"] {
                if let Some(stem) = phrase.strip_suffix(suf) {
                    candidates.push(stem.to_string());
                }
            }
        }
        for c in candidates {
            if let Some(r) = manifest.canonical_regulation(&c) {
                if k == 1 && c.len() <= 1 {
                    continue;
                }
                return (
                    Designation::Named(r.to_string()),
                    base + skipped + end_in_body,
                );
            }
        }
    }
    if let Some(&(off, w)) = words.first() {
        let law_word = |w: &str| {
            let lower = w.to_lowercase();
            w.chars().next().is_some_and(|c| c.is_uppercase())
                && LAW_SUFFIXES.iter().any(|s| lower.ends_with(s))
        };
        let looks_like_law_word = skipped > 0 && words.iter().take(3).any(|(_, w)| law_word(w));
        let uppers = w.chars().filter(|c| c.is_uppercase()).count();
        let looks_like_abbrev = skipped == 0
            && uppers >= 2
            && w.chars().count() <= 12
            && w.chars().next().is_some_and(|c| c.is_uppercase())
            && !NOT_A_LAW.contains(&w);
        if looks_like_law_word || looks_like_abbrev {
            return (Designation::Unknown, base + skipped + off + w.len());
        }
    }
    (Designation::None, pos)
}

/// Up to `n` words of `s` with their byte offsets, trailing punctuation cut.
fn word_spans(s: &str, n: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut i = 0;
    for w in s.split(' ') {
        if out.len() >= n {
            break;
        }
        if w.is_empty() || w.contains('\n') {
            break;
        }
        let t = w.trim_end_matches([',', '.', ';', ':', ')', '(', '“', '"']);
        if t.is_empty() {
            break;
        }
        out.push((i, t));
        if t.len() != w.len() {
            break; // punctuation ends the phrase
        }
        i += w.len() + 1;
    }
    out
}

fn label_of(kind: TriggerKind, number: &str) -> String {
    match kind {
        TriggerKind::Section => format!("§ {number}"),
        TriggerKind::Article => format!("Art. {number}"),
        TriggerKind::Annex => format!("Anhang {number}"),
        TriggerKind::Anlage => format!("Anlage {number}"),
        TriggerKind::Recital => format!("ErwG {number}"),
    }
}

struct Found {
    chain: Chain,
    designation: Designation,
    end: usize,
    /// No designation of its own, but a list / `in Verbindung mit` goes on
    /// with another citation whose designation applies (`§ 802g Absatz 2 und
    /// § 802h der Zivilprozessordnung`).
    defer: bool,
}

fn scan(text: &str, manifest: &Manifest, names: &LawNames) -> Vec<Found> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(caps) = TRIGGER.captures_at(text, from) {
        let m = caps
            .get(0)
            .map(|m| (m.start(), m.end()))
            .unwrap_or((from, from + 1));
        let (kind, plural) = if let Some(s) = caps.name("sec") {
            (TriggerKind::Section, s.as_str() == "§§")
        } else if let Some(a) = caps.name("art") {
            (
                TriggerKind::Article,
                matches!(a.as_str(), "Artikeln" | "Articles"),
            )
        } else if let Some(a) = caps.name("anx") {
            (
                TriggerKind::Annex,
                matches!(a.as_str(), "Anhänge" | "Anhängen" | "Annexes"),
            )
        } else if let Some(a) = caps.name("anl") {
            (TriggerKind::Anlage, a.as_str() == "Anlagen")
        } else if let Some(a) = caps.name("rec") {
            (
                TriggerKind::Recital,
                a.as_str().ends_with('e') || a.as_str().ends_with('n') || a.as_str().ends_with('s'),
            )
        } else {
            break;
        };
        match parse_chain(text, m.0, m.1, kind, plural) {
            Some(chain) => {
                let (designation, end) = designation(text, chain.end, manifest, names);
                let defer = matches!(designation, Designation::None)
                    && DEFER.is_match(text.get(chain.end..).unwrap_or(""));
                let next = end.max(chain.end).max(m.1);
                out.push(Found {
                    chain,
                    designation,
                    end: next,
                    defer,
                });
                from = next;
            }
            None => from = m.1,
        }
        if from >= text.len() {
            break;
        }
    }
    // `that Regulation` → the act named last before (a citation's
    // designation or a bare `Regulation (EU) 2016/679` mention)
    let mut last: Option<(usize, String)> = None;
    for f in out.iter_mut() {
        match &f.designation {
            Designation::Named(r) => last = Some((f.end, r.clone())),
            Designation::That => {
                let before = text.get(..f.chain.start).unwrap_or("");
                let mention = ACT_MENTION.captures_iter(before).last().and_then(|c| {
                    let m = c.get(0)?;
                    let reg = manifest.regulation_by_act_number(c.get(1)?.as_str())?;
                    Some((m.end(), reg.to_string()))
                });
                let best = match (&last, mention) {
                    (Some(a), Some(b)) => Some(if b.0 > a.0 { b.1 } else { a.1.clone() }),
                    (Some(a), None) => Some(a.1.clone()),
                    (None, Some(b)) => Some(b.1),
                    (None, None) => None,
                };
                f.designation = match best {
                    Some(r) => Designation::Named(r),
                    None => Designation::Unknown,
                }
            }
            _ => {}
        }
    }
    // deferred designations come from the next citation of the list
    for i in (0..out.len().saturating_sub(1)).rev() {
        if out[i].defer {
            let next = match &out[i + 1].designation {
                Designation::Named(r) => Some(Designation::Named(r.clone())),
                Designation::Unknown => Some(Designation::Unknown),
                _ => None,
            };
            if let Some(d) = next {
                out[i].designation = d;
            }
        }
    }
    out
}

fn verbatim(text: &str, start: usize, end: usize) -> String {
    let s = text.get(start..end).unwrap_or("");
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 160 {
        s.chars().take(160).collect()
    } else {
        s
    }
}

/// Extract the norm references of a text written in `citing_regulation`.
pub fn extract_references(text: &str, citing_regulation: &str, manifest: &Manifest) -> Extracted {
    extract_references_with(text, citing_regulation, manifest, &LawNames::new())
}

/// [`extract_references`], and a law named by its title in words
/// (`§ 202a des Strafgesetzbuchs`, `§ 3 des Gesetzes gegen den unlauteren
/// Wettbewerb`) is resolved through `names` (the laws' titles, see
/// [`LawNames`]) rather than left to the citing law or marked unknown.
pub fn extract_references_with(
    text: &str,
    citing_regulation: &str,
    manifest: &Manifest,
    names: &LawNames,
) -> Extracted {
    let mut resolved = Vec::new();
    let mut unresolved = Vec::new();
    for f in scan(text, manifest, names) {
        let reg = match &f.designation {
            Designation::Named(r) => r.clone(),
            Designation::ThisLaw | Designation::None | Designation::That => {
                citing_regulation.to_string()
            }
            Designation::Unknown => {
                unresolved.push(verbatim(text, f.chain.start, f.end));
                continue;
            }
        };
        for n in &f.chain.numbers {
            resolved.push(NormRef::new(&label_of(f.chain.kind, n), &reg));
        }
    }
    resolved.sort();
    resolved.dedup();
    unresolved.sort();
    unresolved.dedup();
    Extracted {
        resolved,
        unresolved,
    }
}

/// Explicit norm references in a user question (`Art. 37 DSGVO`, `§ 26
/// BDSG`, `GDPR Article 5`, `§ 4f BDSG 1990`) for exact lookup. Only
/// citations with a named law count; there is no citing law to fall back on.
pub fn parse_norm_query(s: &str, manifest: &Manifest) -> Vec<NormRef> {
    let mut out = Vec::new();
    for f in scan(s, manifest, &LawNames::new()) {
        let reg = match &f.designation {
            Designation::Named(r) => Some(r.clone()),
            _ => prefix_alias(s, f.chain.start, manifest),
        };
        if let Some(reg) = reg {
            for n in &f.chain.numbers {
                out.push(NormRef::new(&label_of(f.chain.kind, n), &reg));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|r| seen.insert(r.clone()));
    out
}

/// `DSGVO Art. 37`, `GDPR Article 5`: an alias right before the trigger.
fn prefix_alias(s: &str, start: usize, manifest: &Manifest) -> Option<String> {
    let before = s.get(..start)?.trim_end();
    let words: Vec<&str> = before.split_whitespace().rev().take(3).collect();
    for k in (1..=words.len()).rev() {
        let phrase: Vec<&str> = words[..k].iter().rev().copied().collect();
        let phrase = phrase.join(" ");
        let phrase = phrase.trim_matches(|c: char| c == ',' || c == '(' || c == ':');
        if let Some(r) = manifest.canonical_regulation(phrase) {
            return Some(r.to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests;
