//! Answer types: the kind of fact a question asks for, and whether a norm's
//! text states one (`answerTypeGain`).
//!
//! A question that asks „bis wann“, „wie hoch ist das Bußgeld“, „ab welchem
//! Alter“ or „ab wie vielen Beschäftigten“ is answered by the norm that
//! states a deadline, an amount, an age or a head count, not by the norm
//! that names the question's subject: § 1 ProdHaftG makes the manufacturer
//! liable, § 12 ProdHaftG says when the claim lapses; Art. 5 KI-VO forbids a
//! practice, Art. 99 KI-VO sets the fine. The question side is lexicon data
//! (`[answer_type]` in `lexicon/query.toml`, a signal per fired type); the
//! text side is [`states`], a scan of the text's tokens for a number (digits
//! or a number word) next to a unit of the asked kind.
//!
//! The evidence extractor of the engine scores pinpoint units with its own,
//! looser cues (any „wann“, a reporting duty, an exception); ranking needs
//! the strict form: a question that asks for a number, a norm that states
//! one of that kind.

use serde::{Deserialize, Serialize};

/// The kind of fact a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerType {
    /// A deadline or a period: „bis wann“, „wie lange“, "how quickly".
    Deadline,
    /// A sum of money or a percentage: „wie hoch“, "maximum fine".
    Amount,
    /// An age: „ab welchem Alter“, "how old".
    Age,
    /// A head count: „ab wie vielen Beschäftigten“, "how many employees".
    Threshold,
    /// What follows from breaking a law — a fine, a criminal provision,
    /// damages: „was droht“, "what are the penalties". The question side is
    /// the consequence intent, the norm side its heading (the engine's
    /// consequence norms); no text scan states it.
    Consequence,
    /// What a term of art means: „was ist ein …“, "what is a …" about a
    /// term a law defines. The question side is the definition intent, the
    /// norm side the law's definition of the term (the engine's defined
    /// terms); no text scan states it.
    Definition,
    /// A fee, or that something is free of charge: „was kostet“,
    /// „Gebühr“, "free of charge", "fees" — answered by the norm that
    /// charges or waives one (§ 24 GwG „Gebühren und Auslagen“, Art. 12
    /// Abs. 5 DSGVO „unentgeltlich“), not by the norm that names the
    /// service the question is about.
    Charge,
}

impl AnswerType {
    /// The name used in the lexicon and in signals.
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerType::Deadline => "deadline",
            AnswerType::Amount => "amount",
            AnswerType::Age => "age",
            AnswerType::Threshold => "threshold",
            AnswerType::Consequence => "consequence",
            AnswerType::Definition => "definition",
            AnswerType::Charge => "charge",
        }
    }

    /// German object phrase for explanations („nennt eine Frist“).
    pub fn label_de(self) -> &'static str {
        match self {
            AnswerType::Deadline => "eine Frist",
            AnswerType::Amount => "einen Betrag",
            AnswerType::Age => "ein Alter",
            AnswerType::Threshold => "eine Schwelle (Personenzahl)",
            AnswerType::Consequence => "eine Rechtsfolge (Sanktion, Haftung)",
            AnswerType::Definition => "die Begriffsbestimmung",
            AnswerType::Charge => "eine Gebühr oder Unentgeltlichkeit",
        }
    }
}

/// Units of time, folded lower case, as a word or the end of a compound
/// („Werktagen“, „Kalenderjahres“; [`is_time_unit`]).
const TIME_UNITS: &[&str] = &[
    "stunde", "stunden", "tag", "tage", "tagen", "tages", "woche", "wochen", "monat", "monate",
    "monaten", "monats", "jahr", "jahre", "jahren", "jahres", "hour", "hours", "day", "days",
    "week", "weeks", "month", "months", "year", "years",
];

/// [`is_time_unit`] of a folded token.
fn is_folded_time_unit(w: &str) -> bool {
    TIME_UNITS
        .iter()
        .any(|u| w == *u || (w.len() > u.len() + 3 && w.ends_with(u)))
}

/// Whether a word (any case, umlauts or not) is a unit of time or a
/// compound that ends in one („Werktagen“). Shared with the engine's
/// evidence cues.
pub fn is_time_unit(word: &str) -> bool {
    is_folded_time_unit(&fold_word(word))
}

/// Currency and share units after (or, `eur`, before) a number.
const MONEY_UNITS: &[&str] = &[
    "euro",
    "eur",
    "prozent",
    "millionen",
    "million",
    "millions",
    "milliarden",
    "billion",
];

/// Words (folded) that charge or waive a fee: the noun of a charge, or
/// „unentgeltlich“ / "free of charge" ([`scan`]; "charge" alone only as
/// the object of "free of" or "a/any/reasonable", never "in charge of").
const CHARGE_WORDS: &[&str] = &[
    "unentgeltlich",
    "kostenlos",
    "kostenfrei",
    "gebuehr",
    "gebuehren",
    "entgelt",
    "entgelte",
    "entgelts",
    "fee",
    "fees",
];
/// Compound endings of a charge („Verwaltungsgebühren“, „Nutzungsentgelt“).
const CHARGE_ENDS: &[&str] = &["gebuehr", "gebuehren", "entgelt", "entgelte"];

/// Words that count people after a number (prefixes; „Personen“ itself
/// is a whole word: „personenbezogen“ counts nobody).
const PERSON_PREFIXES: &[&str] = &[
    "beschaeftigt",
    "arbeitnehm",
    "mitarbeit",
    "wahlberechtigt",
    "employee",
    "worker",
];
/// Whole words that count people after a number.
const PERSON_WORDS: &[&str] = &["personen", "persons", "people", "staff"];

/// Words before a number that make it a reference to a provision, not a
/// quantity („Artikel 9 Absatz 1“, "point (a) of Article 6(1)").
const REFERENCE_WORDS: &[&str] = &[
    "artikel",
    "art",
    "absatz",
    "abs",
    "satz",
    "nummer",
    "nr",
    "nrn",
    "buchstabe",
    "lit",
    "paragraph",
    "paragraf",
    "kapitel",
    "abschnitt",
    "anhang",
    "teil",
    "article",
    "articles",
    "point",
    "points",
    "chapter",
    "section",
    "annex",
    "part",
    "subparagraph",
    "richtlinie",
    "verordnung",
    "directive",
    "regulation",
    "eu",
    "eg",
    "ewg",
];

/// Number words (folded). „ein“/"one"/"a" count only before a unit of time
/// („eines Monats“), see [`is_number`].
const NUMBER_WORDS: &[&str] = &[
    "zwei", "drei", "vier", "fuenf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwoelf",
    "zwanzig", "dreissig", "vierzig", "fuenfzig", "sechzig", "siebzig", "achtzig", "neunzig",
    "hundert", "tausend", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "fifteen", "sixteen", "eighteen", "twenty", "thirty", "forty", "fifty",
    "sixty", "hundred", "thousand",
];

/// Indefinite articles that mean "one" before a unit of time (folded).
pub const ONE_WORDS: &[&str] = &[
    "ein", "eine", "einem", "einen", "einer", "eines", "one", "a",
];

/// Whether a word (any case, umlauts or not) is a number: digits, a number
/// word, or a German compound number („sechzehn“, „fünfzigtausend“,
/// „zweihundertfünfzig“). Shared with the engine's evidence cues.
pub fn is_number(word: &str) -> bool {
    is_folded_number(&fold_word(word))
}

/// The lexicon's folding of one word (lower case, ä → ae, …).
fn fold_word(word: &str) -> String {
    crate::text::tokens(word, false).concat()
}

/// [`is_number`] of a folded token.
fn is_folded_number(t: &str) -> bool {
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    NUMBER_WORDS.contains(&t)
        || (t.len() > 4
            && ["zehn", "zig", "hundert", "tausend", "ssig"]
                .iter()
                .any(|s| t.ends_with(s))
            && NUMBER_WORDS.iter().any(|w| t.starts_with(w)))
}

/// Folded tokens of a text (the lexicon's normalisation) in one buffer,
/// each with whether it is part of a list label or ordinal („1.“, „(2)“,
/// „a)“, „16.“): such a number counts items, not days, euros or people.
/// One pass and two allocations per text: the scan runs over every chunk of
/// the candidate norms.
struct Tokens {
    buf: String,
    /// (start, end) of each token in `buf`, and whether it is a label.
    spans: Vec<(usize, usize, bool)>,
}

impl Tokens {
    fn new(text: &str) -> Tokens {
        let mut buf = String::with_capacity(text.len() + text.len() / 8);
        let mut spans = Vec::with_capacity(text.len() / 6);
        for word in text.split_whitespace() {
            let w = word.trim_end_matches([',', ';', ':']);
            let inner = w.trim_start_matches('(').trim_end_matches(['.', ')']);
            let label = inner.len() < w.len()
                && !inner.is_empty()
                && (inner.bytes().all(|b| b.is_ascii_digit())
                    || (inner.chars().count() == 1 && inner.chars().all(char::is_alphabetic)));
            let mut start = buf.len();
            for ch in word.chars() {
                if ch.is_alphanumeric() {
                    for lc in ch.to_lowercase() {
                        crate::text::push_folded(lc, &mut buf);
                    }
                } else {
                    if buf.len() > start {
                        spans.push((start, buf.len(), label));
                    }
                    start = buf.len();
                }
            }
            if buf.len() > start {
                spans.push((start, buf.len(), label));
            }
        }
        Tokens { buf, spans }
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    /// Token `i`, or "" past the end.
    fn at(&self, i: usize) -> &str {
        self.spans.get(i).map_or("", |&(a, b, _)| &self.buf[a..b])
    }

    fn is_label(&self, i: usize) -> bool {
        self.spans.get(i).is_some_and(|s| s.2)
    }
}

impl AnswerType {
    /// This type's bit in a [`stated_mask`].
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Whether `text` states a fact of `kind` (see the module docs).
pub fn states(text: &str, kind: AnswerType) -> bool {
    stated_mask(text) & kind.bit() != 0
}

/// Every type `text` states, one bit each ([`AnswerType::bit`]): one scan
/// of the text for every text-stated type, so a caller can keep the result per text.
pub fn stated_mask(text: &str) -> u8 {
    scan(text, &Tokens::new(text))
}

/// The answer types of `asked` that `text` states.
pub fn stated(text: &str, asked: &[AnswerType]) -> Vec<AnswerType> {
    let mask = stated_mask(text);
    asked
        .iter()
        .copied()
        .filter(|k| mask & k.bit() != 0)
        .collect()
}

/// One pass over the tokens for every text-stated type (bits of [`AnswerType::bit`]);
/// what a token is — a number, a quantity, a unit of time — is decided once.
fn scan(text: &str, toks: &Tokens) -> u8 {
    let n = toks.len();
    let at = |i: usize| toks.at(i);
    let number: Vec<bool> = (0..n).map(|i| is_folded_number(at(i))).collect();
    // a number that is no reference to another provision: the word before
    // it (and before the numbers and letters of its reference chain,
    // "Article 6(1) point (f)") is no reference word; nor a list label
    let quantity: Vec<bool> = (0..n)
        .map(|i| {
            if !number[i] || toks.is_label(i) {
                return false;
            }
            let mut j = i;
            while j > 0 && (number[j - 1] || at(j - 1).len() == 1) {
                j -= 1;
            }
            j == 0 || !REFERENCE_WORDS.contains(&at(j - 1))
        })
        .collect();
    let unit: Vec<bool> = (0..n).map(|i| is_folded_time_unit(at(i))).collect();
    let q = |i: usize| quantity.get(i).copied().unwrap_or(false);
    let u = |i: usize| unit.get(i).copied().unwrap_or(false);
    let num = |i: usize| number.get(i).copied().unwrap_or(false);
    let mut mask = 0u8;
    for i in 0..n {
        let t = at(i);
        // „72 Stunden“, „eines Monats“, „zehn Jahre“, "five working days"
        // (the unit at most two tokens after a number), „unverzüglich“
        if ((q(i) || ONE_WORDS.contains(&t)) && (u(i + 1) || (q(i) && u(i + 2))))
            || t == "unverzueglich"
            || (t == "undue" && at(i + 1) == "delay")
        {
            mask |= AnswerType::Deadline.bit();
        }
        if (q(i) && MONEY_UNITS.contains(&at(i + 1)))
            || (t == "eur" && num(i + 1))
            || (q(i) && at(i + 1) == "per" && at(i + 2) == "cent")
        {
            mask |= AnswerType::Amount.bit();
        }
        if t.starts_with("lebensjahr")
            || (t == "years" && at(i + 1) == "of" && at(i + 2) == "age")
            || (t == "age" && at(i + 1) == "of" && num(i + 2))
            || (q(i) && at(i + 1) == "jahre" && at(i + 2) == "alt")
        {
            mask |= AnswerType::Age.bit();
        }
        if q(i)
            && (1..=4).any(|k| {
                let w = at(i + k);
                PERSON_WORDS.contains(&w) || PERSON_PREFIXES.iter().any(|p| w.starts_with(p))
            })
        {
            mask |= AnswerType::Threshold.bit();
        }
        if CHARGE_WORDS.contains(&t)
            || (t.len() > 9 && CHARGE_ENDS.iter().any(|e| t.ends_with(e)))
            || (t == "charges" && at(i.wrapping_sub(1)) != "in")
            || (t == "charge"
                && ["of", "a", "any", "reasonable", "no"].contains(&at(i.wrapping_sub(1))))
        {
            mask |= AnswerType::Charge.bit();
        }
    }
    if percent_sign(text) {
        mask |= AnswerType::Amount.bit();
    }
    mask
}

/// A digit followed by `%` (the token split drops the sign).
fn percent_sign(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'%'
            && b[..i]
                .iter()
                .rev()
                .find(|&&x| x != b' ')
                .is_some_and(u8::is_ascii_digit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_are_a_number_and_a_unit_of_time() {
        for t in [
            "Die Meldung erfolgt binnen 72 Stunden nach Bekanntwerden.",
            "Die Unterlagen sind zehn Jahre aufzubewahren.",
            "Die Frist beträgt einen Monat.",
            "innerhalb eines Monats nach Eingang des Antrags",
            "Der Verantwortliche unterrichtet die Person unverzüglich.",
            "without undue delay and, where feasible, not later than 72 hours",
            "for a period of at least five years",
        ] {
            assert!(states(t, AnswerType::Deadline), "{t}");
        }
        for t in [
            "Die Meldung enthält eine Beschreibung der Art der Verletzung.",
            "Artikel 6 Absatz 1 gilt entsprechend.",
            "eine Person, die ein Produkt herstellt",
        ] {
            assert!(!states(t, AnswerType::Deadline), "{t}");
        }
    }

    #[test]
    fn amounts_are_money_or_a_share() {
        for t in [
            "mit Geldbußen von bis zu 20 000 000 EUR",
            "bis zu 4 % des gesamten weltweit erzielten Jahresumsatzes",
            "fines of up to EUR 35 000 000",
            "bis zu einem Höchstbetrag von 85 Millionen Euro",
            "mit einer Geldbuße bis zu fünfzigtausend Euro",
        ] {
            assert!(states(t, AnswerType::Amount), "{t}");
        }
        // the Union is no currency, an article number no amount
        for t in [
            "nach Artikel 83 der Europäischen Union",
            "im Sinne der Verordnung (EU) 2016/679",
        ] {
            assert!(!states(t, AnswerType::Amount), "{t}");
        }
    }

    #[test]
    fn ages_and_head_counts() {
        assert!(states(
            "wenn das Kind das sechzehnte Lebensjahr vollendet hat",
            AnswerType::Age
        ));
        assert!(states(
            "where the child is below the age of 16 years",
            AnswerType::Age
        ));
        assert!(!states("das Kind und seine Eltern", AnswerType::Age));
        for t in [
            "soweit sie in der Regel mindestens 20 Personen ständig beschäftigen",
            "in Betrieben mit in der Regel mindestens fünf ständigen wahlberechtigten Arbeitnehmern",
            "enterprises which employ fewer than 250 persons",
        ] {
            assert!(states(t, AnswerType::Threshold), "{t}");
        }
        assert!(!states(
            "eine Person, die Daten verarbeitet",
            AnswerType::Threshold
        ));
        // a reference number is no head count
        for t in [
            "nach Artikel 9 Absatz 1 personenbezogene Daten",
            "gemäß Absatz 2 betroffene Personen",
            "Article 6(1) point (f) persons concerned",
            "Beschäftigte im Sinne dieses Gesetzes sind:\n1. Arbeitnehmerinnen und Arbeitnehmer",
            "(2) Personen, die an der Verarbeitung beteiligt sind",
        ] {
            assert!(!states(t, AnswerType::Threshold), "{t}");
        }
    }

    #[test]
    fn a_charge_is_a_fee_or_its_waiver() {
        for t in [
            "Für die Nutzung des Transparenzregisters werden Gebühren und Auslagen erhoben.",
            "Informationen gemäß den Artikeln 13 und 14 werden unentgeltlich zur Verfügung gestellt.",
            "the controller may charge a reasonable fee based on administrative costs",
            "providers shall not impose any switching charges on the customer",
            "Das Nutzungsentgelt richtet sich nach der Dauer.",
        ] {
            assert!(states(t, AnswerType::Charge), "{t}");
        }
        for t in [
            "the person in charge of the processing",
            "Die Kosten der Umsetzung trägt der Betreiber.",
            "consent freely given",
        ] {
            assert!(!states(t, AnswerType::Charge), "{t}");
        }
    }

    #[test]
    fn stated_keeps_only_the_asked_types() {
        let t = "binnen 72 Stunden; Geldbuße bis zu 10 000 000 EUR";
        assert_eq!(stated(t, &[AnswerType::Age]), vec![]);
        assert_eq!(
            stated(t, &[AnswerType::Deadline, AnswerType::Amount]),
            vec![AnswerType::Deadline, AnswerType::Amount]
        );
    }
}
