//! Small German text helpers shared by query analysis (lexicon
//! patterns) and the index analyzer: the `zu` inside an infinitive and the
//! `ge` inside a past participle of a separable verb; and a law title split
//! at its parentheses (the corpus's law names, the rank crate's title variants).

/// Separable verb prefixes that take the `zu` of an infinitive inside the
/// word („aufzubewahren“, „bereitzustellen“, „einzuholen“).
pub const SEPARABLE_PREFIXES: &[&str] = &[
    "zurueck", "zusammen", "heraus", "vorher", "bereit", "offen", "wieder", "weiter", "nach",
    "fest", "frei", "fort", "hin", "her", "vor", "weg", "mit", "ein", "aus", "auf", "ab", "an",
    "bei", "dar", "los", "um", "durch",
];

/// The infinitive without its inner `zu` („aufzubewahren“ → „aufbewahren“,
/// „mitzuteilen“ → „mitteilen“) of a lower-case, umlaut-folded token, so
/// every form of the verb meets one stem. `None` when `tok` has no such
/// `zu`; the rest must keep at least five letters and end in `n` (so
/// „abzug“, „anzug“, „vorzug“, „zuzahlung“ stay as they are).
pub fn without_zu_infix(tok: &str) -> Option<String> {
    SEPARABLE_PREFIXES.iter().find_map(|p| {
        let rest = tok.strip_prefix(p)?.strip_prefix("zu")?;
        (rest.chars().count() >= 5 && rest.ends_with('n')).then(|| format!("{p}{rest}"))
    })
}

/// The verb without the `ge` of its past participle, for separable verbs
/// („weitergegeben“ → „weitergeben“, „ausgewertet“ → „auswertet“,
/// „eingewilligt“ → „einwilligt“, „hochgeladen“ is not covered: `hoch` is
/// no prefix of the list), so a lexicon pattern on the verb's stem
/// (`weitergeb*`, `auswert*`, `einwillig*`) meets the participle. `None`
/// when `tok` has no such `ge`; the rest must keep at least four letters
/// and end like a participle (`t`, `en` and their inflections), so
/// „angebot“, „ausgang“, „eingabe“ stay as they are.
pub fn without_ge_infix(tok: &str) -> Option<String> {
    const ENDINGS: &[&str] = &[
        "t", "te", "ten", "ter", "tes", "tem", "en", "ene", "enen", "ener", "enes", "enem",
    ];
    SEPARABLE_PREFIXES.iter().find_map(|p| {
        let rest = tok.strip_prefix(p)?.strip_prefix("ge")?;
        (rest.chars().count() >= 4 && ENDINGS.iter().any(|e| rest.ends_with(e)))
            .then(|| format!("{p}{rest}"))
    })
}

/// A law's title split into the text outside parentheses and each
/// top-level parenthesis's content (nested ones stay inside their outer
/// part): „Gesetz zum Elterngeld (Bundeselterngeld- und Elternzeitgesetz -
/// BEEG)“ → („Gesetz zum Elterngeld “, [„Bundeselterngeld- und
/// Elternzeitgesetz - BEEG“]).
pub fn split_parenthesized(title: &str) -> (String, Vec<String>) {
    let mut outer = String::new();
    let mut inner: Vec<String> = Vec::new();
    let mut depth = 0usize;
    for ch in title.chars() {
        match ch {
            '(' => {
                depth += 1;
                if depth == 1 {
                    inner.push(String::new());
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {
                if let Some(last) = inner.last_mut() {
                    last.push(ch);
                }
            }
            _ => outer.push(ch),
        }
    }
    (outer, inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_ge_of_separable_participles() {
        for (form, verb) in [
            ("weitergegeben", "weitergeben"),
            ("weitergegebenen", "weitergebenen"),
            ("ausgewertet", "auswertet"),
            ("eingewilligt", "einwilligt"),
            ("abgelehnt", "ablehnt"),
            ("aufgezeichnet", "aufzeichnet"),
            ("festgelegten", "festlegten"),
            ("vorgesehen", "vorsehen"),
        ] {
            assert_eq!(without_ge_infix(form).as_deref(), Some(verb), "{form}");
        }
        for keep in [
            "angebot",
            "ausgang",
            "eingabe",
            "aufgabe",
            "weitergeben",
            "gegeben",
            "abgabe",
        ] {
            assert_eq!(without_ge_infix(keep), None, "{keep}");
        }
    }

    #[test]
    fn inner_zu_of_separable_verbs() {
        assert_eq!(
            without_zu_infix("aufzubewahren").as_deref(),
            Some("aufbewahren")
        );
        assert_eq!(
            without_zu_infix("mitzuteilen").as_deref(),
            Some("mitteilen")
        );
        assert_eq!(
            without_zu_infix("durchzufuehren").as_deref(),
            Some("durchfuehren")
        );
        assert_eq!(
            without_zu_infix("bereitzustellen").as_deref(),
            Some("bereitstellen")
        );
        assert_eq!(without_zu_infix("einzuholen").as_deref(), Some("einholen"));
        for keep in [
            "abzug",
            "anzug",
            "vorzug",
            "aufzug",
            "zuzahlung",
            "auf",
            "vorzugsweise",
            "aufbewahren",
        ] {
            assert_eq!(without_zu_infix(keep), None, "{keep}");
        }
    }

    #[test]
    fn a_title_splits_at_its_parentheses() {
        let (outer, inner) = split_parenthesized("Gesetz über X (Kurzgesetz - KG) (Y (Z))");
        assert_eq!(outer, "Gesetz über X  ");
        assert_eq!(inner, vec!["Kurzgesetz - KG", "Y Z"]);
    }
}
