//! Tests of `lexicon`.

use super::*;

#[test]
fn builtin_lexicon_parses() {
    let lex = Lexicon::from_toml_str(BUILTIN_TOML).unwrap();
    assert!(lex.topics.len() >= 60, "broad topic table");
    assert!(lex.regulation("DSGVO").is_some());
    // seed 05 controlIntentSignals: exactly 16 signals
    assert_eq!(lex.control_intent.len(), 16);
}

#[test]
fn every_topic_and_scope_norm_names_a_known_regulation() {
    let lex = Lexicon::builtin();
    for t in &lex.topics {
        for n in &t.norms {
            let r = lex.regulation_of_norm(n);
            assert!(r.is_some(), "topic {}: {n} names no known regulation", t.id);
            let label = &n.0[..n.0.len() - r.unwrap().name.len()];
            assert!(
                ["Art. ", "§ ", "Anhang "]
                    .iter()
                    .any(|p| label.starts_with(p))
                    && label.ends_with(' '),
                "topic {}: `{n}` is not `<norm> <regulation>`",
                t.id
            );
        }
    }
    for s in &lex.scope_rules {
        assert!(lex.regulation(&s.regulation).is_some(), "{}", s.regulation);
    }
    for d in &lex.domains {
        for n in &d.definitions {
            assert!(lex.regulation_of_norm(n).is_some(), "{n}");
        }
    }
}

#[test]
fn bad_pattern_names_the_field() {
    let mut s = BUILTIN_TOML.to_string();
    s = s.replacen("\"control\", \"controls\"", "\"con*trol\", \"controls\"", 1);
    let e = Lexicon::from_toml_str(&s).unwrap_err().to_string();
    assert!(
        e.contains("control_intent.signals") && e.contains("con*trol"),
        "{e}"
    );
}

#[test]
fn a_stand_in_names_a_kind_that_exists() {
    let s = BUILTIN_TOML.replacen("stands_in = \"criminal\"", "stands_in = \"crimnal\"", 1);
    assert_ne!(s, BUILTIN_TOML);
    let e = Lexicon::from_toml_str(&s).unwrap_err().to_string();
    assert!(e.contains("stands_in") && e.contains("crimnal"), "{e}");
}

#[test]
fn bad_toml_is_an_error_not_a_panic() {
    assert!(Lexicon::from_toml_str("[language\n").is_err());
    assert!(Lexicon::from_toml_str("").is_err());
}

#[test]
fn longest_regulation_suffix_wins() {
    let lex = Lexicon::builtin();
    let r = lex
        .regulation_of_norm(&NormRef("§ 4f BDSG 1990".into()))
        .unwrap();
    assert_eq!(r.name, "BDSG 1990");
    let r = lex
        .regulation_of_norm(&NormRef("§ 38 BDSG".into()))
        .unwrap();
    assert_eq!(r.name, "BDSG");
}
