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
}

impl AnswerType {
    /// Every type, in lexicon order.
    pub const ALL: [AnswerType; 4] = [
        AnswerType::Deadline,
        AnswerType::Amount,
        AnswerType::Age,
        AnswerType::Threshold,
    ];

    /// The name used in the lexicon and in signals.
    pub fn as_str(self) -> &'static str {
        match self {
            AnswerType::Deadline => "deadline",
            AnswerType::Amount => "amount",
            AnswerType::Age => "age",
            AnswerType::Threshold => "threshold",
        }
    }

    /// German object phrase for explanations („nennt eine Frist“).
    pub fn label_de(self) -> &'static str {
        match self {
            AnswerType::Deadline => "eine Frist",
            AnswerType::Amount => "einen Betrag",
            AnswerType::Age => "ein Alter",
            AnswerType::Threshold => "eine Schwelle (Personenzahl)",
        }
    }
}

/// Units of time, folded lower case (German inflections, English).
const TIME_UNITS: &[&str] = &[
    "stunde",
    "stunden",
    "tag",
    "tage",
    "tagen",
    "tages",
    "werktag",
    "werktage",
    "werktagen",
    "arbeitstag",
    "arbeitstage",
    "arbeitstagen",
    "kalendertag",
    "kalendertage",
    "kalendertagen",
    "woche",
    "wochen",
    "monat",
    "monate",
    "monaten",
    "monats",
    "jahr",
    "jahre",
    "jahren",
    "jahres",
    "kalenderjahr",
    "kalenderjahre",
    "kalenderjahren",
    "kalenderjahres",
    "hour",
    "hours",
    "day",
    "days",
    "working",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
];

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

/// Indefinite articles that mean "one" before a unit of time.
const ONE_WORDS: &[&str] = &[
    "ein", "eine", "einem", "einen", "einer", "eines", "one", "a",
];

/// Whether a folded token is a number: digits, a number word, or a German
/// compound number („sechzehn“, „fuenfzigtausend“, „zweihundertfuenfzig“).
fn is_number(t: &str) -> bool {
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

/// Folded tokens of a text (the lexicon's normalisation), each with
/// whether it is part of a list label or ordinal („1.“, „(2)“, „a)“,
/// „16.“): such a number counts items, not days, euros or people.
fn text_tokens(text: &str) -> (Vec<String>, Vec<bool>) {
    let mut toks = Vec::new();
    let mut labels = Vec::new();
    for word in text.split_whitespace() {
        let w = word.trim_end_matches([',', ';', ':']);
        let inner = w.trim_start_matches('(').trim_end_matches(['.', ')']);
        let label = inner.len() < w.len()
            && !inner.is_empty()
            && (inner.bytes().all(|b| b.is_ascii_digit())
                || (inner.chars().count() == 1 && inner.chars().all(char::is_alphabetic)));
        for t in crate::text::tokens(word, false) {
            toks.push(t);
            labels.push(label);
        }
    }
    (toks, labels)
}

/// Whether `text` states a fact of `kind` (see the module docs).
pub fn states(text: &str, kind: AnswerType) -> bool {
    let (toks, labels) = text_tokens(text);
    states_tokens(text, &toks, &labels, kind)
}

/// The answer types of `asked` that `text` states.
pub fn stated(text: &str, asked: &[AnswerType]) -> Vec<AnswerType> {
    if asked.is_empty() {
        return Vec::new();
    }
    let (toks, labels) = text_tokens(text);
    asked
        .iter()
        .copied()
        .filter(|&k| states_tokens(text, &toks, &labels, k))
        .collect()
}

fn states_tokens(text: &str, toks: &[String], labels: &[bool], kind: AnswerType) -> bool {
    let at = |i: usize| toks.get(i).map(String::as_str).unwrap_or("");
    // a number that is no reference to another provision: the word before
    // it (and before the numbers and letters of its reference chain,
    // "Article 6(1) point (f)") is no reference word
    let quantity = |i: usize| {
        if !is_number(at(i)) || labels.get(i).copied().unwrap_or(false) {
            return false;
        }
        let mut j = i;
        while j > 0 && (is_number(at(j - 1)) || at(j - 1).len() == 1) {
            j -= 1;
        }
        j == 0 || !REFERENCE_WORDS.contains(&at(j - 1))
    };
    let n = toks.len();
    match kind {
        // „72 Stunden“, „eines Monats“, „zehn Jahre“, "five working days"
        // (the unit at most two tokens after a number), „unverzüglich“
        AnswerType::Deadline => (0..n).any(|i| {
            let t = at(i);
            ((quantity(i) || ONE_WORDS.contains(&t))
                && (TIME_UNITS.contains(&at(i + 1))
                    || (quantity(i) && TIME_UNITS.contains(&at(i + 2)))))
                || t == "unverzueglich"
                || (t == "undue" && at(i + 1) == "delay")
        }),
        AnswerType::Amount => {
            (0..n).any(|i| {
                (quantity(i) && MONEY_UNITS.contains(&at(i + 1)))
                    || (at(i) == "eur" && is_number(at(i + 1)))
                    || (quantity(i) && at(i + 1) == "per" && at(i + 2) == "cent")
            }) || percent_sign(text)
        }
        AnswerType::Age => (0..n).any(|i| {
            let t = at(i);
            t.starts_with("lebensjahr")
                || (t == "years" && at(i + 1) == "of" && at(i + 2) == "age")
                || (t == "age" && at(i + 1) == "of" && is_number(at(i + 2)))
                || (quantity(i) && at(i + 1) == "jahre" && at(i + 2) == "alt")
        }),
        AnswerType::Threshold => (0..n).any(|i| {
            quantity(i)
                && (1..=4).any(|k| {
                    let w = at(i + k);
                    PERSON_WORDS.contains(&w) || PERSON_PREFIXES.iter().any(|p| w.starts_with(p))
                })
        }),
    }
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
    fn stated_keeps_only_the_asked_types() {
        let t = "binnen 72 Stunden; Geldbuße bis zu 10 000 000 EUR";
        assert_eq!(stated(t, &[AnswerType::Age]), vec![]);
        assert_eq!(
            stated(t, &[AnswerType::Deadline, AnswerType::Amount]),
            vec![AnswerType::Deadline, AnswerType::Amount]
        );
    }
}
