//! Tests of `eurlex_xhtml`.

use super::*;

/// Hand-written: a recital with a footnote, a chapter with a two-paragraph
/// article (lettered list as tables, a nested list, a superscript), an
/// annex with a three-cell list row, footnotes, page scripts (one in the
/// head that writes markup, one whose string holds an end tag), unclosed
/// `<meta>`/`<link>` as EUR-Lex serves them.
const XHTML: &str = r##"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML//EN" "xhtml-strict.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta name='viewport' content='width=device-width'><link rel='stylesheet' href='x.css'>
<script type="text/javascript">if (a < b && c > d) { document.write("<p class='oj-ti-art'>Artikel 99</p>"); }</script><title>L_1</title></head>
<body><table><tbody><tr><td><p class="oj-hd-lg">DE</p></td><td  /></tr></tbody></table>
<div class="eli-subdivision" id="rct_1"><table width="100%"><col width="4%"/><col width="96%"/><tbody><tr><td valign="top"><p class="oj-normal">(1)</p></td>
<td valign="top"><p class="oj-normal">Zweck dieser Verordnung ist es<a id="ntc1-X" href="#ntr1-X"> (<span class="oj-super oj-note-tag">1</span>)</a>, das Funktionieren des
      Binnenmarkts zu verbessern.</p></td></tr></tbody></table></div>
<div class="eli-subdivision" id="enc_1"><div id="cpt_II"><p class="oj-ti-section-1">KAPITEL II</p>
<div class="eli-title" id="cpt_II.tit_1"><p class="oj-ti-section-2"><span class="oj-bold">VERBOTENE PRAKTIKEN IM KI-BEREICH</span></p></div>
<div class="eli-subdivision" id="art_5"><p class="oj-ti-art">Artikel 5</p><div class="eli-title" id="art_5.tit_1"><p class="oj-sti-art">Verbotene Praktiken im KI-Bereich</p></div>
<div id="005.001"><p class="oj-normal">(1)   Folgende Praktiken im KI-Bereich sind verboten:</p>
<table><col width="4%"/><col width="96%"/><tbody><tr><td valign="top"><p class="oj-normal">a)</p></td><td valign="top"><p class="oj-normal">das Inverkehrbringen eines KI-Systems gemäß Artikel 6 Absatz 2;</p></td></tr></tbody></table>
<table><tbody><tr><td valign="top"><p class="oj-normal">b)</p></td><td valign="top"><p class="oj-normal">die soziale Bewertung, die zu Folgendem führt:</p>
<table><tbody><tr><td><p class="oj-normal">i)</p></td><td><p class="oj-normal">Schlechterstellung;</p></td></tr></tbody></table></td></tr></tbody></table></div>
<div id="005.002"><p class="oj-normal">(2)   Mehr als 10<span class="oj-super">25</span> Gleitkommaoperationen.</p></div>
</div></div></div>
<div class="eli-subdivision" id="fnp_1"><div class="oj-final"><p class="oj-normal">Geschehen zu Brüssel am 13. Juni 2024.</p></div></div>
<hr class="oj-note"/><p class="oj-note"><a id="ntr1-X" href="#ntc1-X">(<span class="oj-super">1</span>)</a>  ABl. C 517 vom 22.12.2021, S. 56.</p>
<hr class="oj-doc-sep"/><div id="L_2.fmx"><div class="eli-container" id="anx_III"><p class="oj-doc-ti">ANHANG III</p><p class="oj-doc-ti">Hochrisiko-KI-Systeme gemäß Artikel 6 Absatz 2</p>
<p class="oj-normal">Als Hochrisiko-KI-Systeme gelten:</p>
<table><tbody><tr><td valign="top"  /><td valign="top"><p class="oj-normal">1.</p></td><td valign="top"><span>Biometrie (<a href="./x">ABl. L 1</a>)</span></td></tr></tbody></table></div></div>
<script src='x.js'>//</script><script type='text/javascript'>var s = "</div>";</script></body>
</html>"##;

fn find<'a>(n: &'a [RawNorm], norm: &str) -> &'a RawNorm {
    n.iter()
        .find(|x| x.norm == norm)
        .unwrap_or_else(|| panic!("{norm} missing: {n:#?}"))
}

#[test]
fn parses_recital_article_and_annex() {
    let n = parse("k.xhtml", XHTML.as_bytes()).unwrap();
    let labels: Vec<&str> = n.iter().map(|x| x.norm.as_str()).collect();
    assert_eq!(labels, vec!["ErwG 1", "Art. 5", "Anhang III"]);

    let r = find(&n, "ErwG 1");
    assert_eq!(r.kind, NormKind::Recital);
    assert_eq!(r.breadcrumb, vec!["Erwägungsgründe"]);
    assert_eq!(
        r.units[0].text,
        "(1) Zweck dieser Verordnung ist es, das Funktionieren des Binnenmarkts zu verbessern."
    );

    let a = find(&n, "Art. 5");
    assert_eq!(a.kind, NormKind::Article);
    assert_eq!(a.title, "Verbotene Praktiken im KI-Bereich");
    assert_eq!(
        a.breadcrumb,
        vec!["KAPITEL II VERBOTENE PRAKTIKEN IM KI-BEREICH"]
    );
    assert_eq!(a.hints, vec!["chapter:II"]);
    assert_eq!(a.lang, Lang::De);
    let l: Vec<_> = a.units.iter().map(|u| u.label.as_deref()).collect();
    assert_eq!(l, vec![Some("Abs. 1"), Some("Abs. 2")]);
    assert_eq!(
        a.units[0].text,
        "(1) Folgende Praktiken im KI-Bereich sind verboten:\n\
             a) das Inverkehrbringen eines KI-Systems gemäß Artikel 6 Absatz 2;\n\
             b) die soziale Bewertung, die zu Folgendem führt:\n\
             i) Schlechterstellung;"
    );
    assert_eq!(a.units[1].text, "(2) Mehr als 10^25 Gleitkommaoperationen.");

    let x = find(&n, "Anhang III");
    assert_eq!(x.kind, NormKind::Annex);
    assert_eq!(x.title, "Hochrisiko-KI-Systeme gemäß Artikel 6 Absatz 2");
    assert_eq!(x.units.len(), 1);
    assert_eq!(x.units[0].label, None);
    assert_eq!(
        x.units[0].text,
        "Als Hochrisiko-KI-Systeme gelten:\n1. Biometrie (ABl. L 1)"
    );
}

#[test]
fn scripts_footnotes_and_page_furniture_are_ignored() {
    let n = parse("k.xhtml", XHTML.as_bytes()).unwrap();
    assert!(n.iter().all(|x| x.norm != "Art. 99"));
    for x in &n {
        let t = x.full_text();
        for bad in [
            "document",
            "var s",
            "ABl. C 517",
            "Geschehen",
            "\u{E000}",
            "  ",
        ] {
            assert!(!t.contains(bad), "{bad:?} in {}: {t}", x.norm);
        }
    }
}

#[test]
fn definitions_article_has_numbered_units_and_terms() {
    let doc = r#"<html><body><div id="art_3"><p class="oj-ti-art">Artikel 3</p><div class="eli-title"><p class="oj-sti-art">Begriffsbestimmungen</p></div>
<p class="oj-normal">Für die Zwecke dieser Verordnung bezeichnet der Ausdruck</p>
<table><tbody><tr><td><p>1.</p></td><td><p>„KI-System“ ein maschinengestütztes System;</p></td></tr></tbody></table>
<table><tbody><tr><td><p>2.</p></td><td><p>„Strafverfolgungsbehörde“</p><table><tbody><tr><td><p>a)</p></td><td><p>eine Behörde oder</p></td></tr></tbody></table>
<table><tbody><tr><td><p>b)</p></td><td><p>eine andere Stelle;</p></td></tr></tbody></table></td></tr></tbody></table></div></body></html>"#;
    let n = parse("k.xhtml", doc.as_bytes()).unwrap();
    assert_eq!(n.len(), 1);
    let d = &n[0];
    assert_eq!(d.kind, NormKind::Definition);
    let l: Vec<_> = d.units.iter().map(|u| u.label.as_deref()).collect();
    assert_eq!(l, vec![None, Some("Nr. 1"), Some("Nr. 2")]);
    assert_eq!(
        d.units[1].text,
        "1. „KI-System“ ein maschinengestütztes System;"
    );
    assert_eq!(
        d.units[2].text,
        "2. „Strafverfolgungsbehörde“\na) eine Behörde oder\nb) eine andere Stelle;"
    );
    assert_eq!(
        d.hints,
        vec!["term:KI-System", "term:Strafverfolgungsbehörde"]
    );
}

#[test]
fn quoted_paragraphs_of_amended_acts_are_text() {
    let doc = r#"<html><body><div id="art_104"><p class="oj-ti-art">Artikel 104</p><div class="eli-title"><p class="oj-sti-art">Änderung der Verordnung (EU) Nr. 168/2013</p></div>
<p class="oj-normal">Artikel 22 wird wie folgt geändert:</p>
<table><tbody><tr><td><p>1.</p></td><td><p>Folgender Absatz wird angefügt:</p><div id="022.005"><p class="oj-normal">„(5)   Beim Erlass …“</p></div></td></tr></tbody></table></div></body></html>"#;
    let n = parse("k.xhtml", doc.as_bytes()).unwrap();
    assert_eq!(n[0].units.len(), 1);
    assert_eq!(n[0].units[0].label, None);
    assert_eq!(
            n[0].units[0].text,
            "Artikel 22 wird wie folgt geändert:\n1. Folgender Absatz wird angefügt:\n„(5) Beim Erlass …“"
        );
}

#[test]
fn bad_structure_is_a_positioned_error() {
    let half = &XHTML.as_bytes()[..XHTML.len() / 2];
    let e = parse("k.xhtml", half).unwrap_err();
    assert!(e.to_string().starts_with("k.xhtml at byte"), "{e}");
    assert!(e.message.contains("not closed"), "{e}");

    let cases: &[(&str, &str)] = &[
        (
            r#"<html><body><div id="art_5"><p class="oj-ti-art">Artikel 6</p><p>x</p></div></body></html>"#,
            "is not `Artikel 5`",
        ),
        (
            r#"<html><body><div id="art_5"><p>x</p></div><div id="art_5"><p>y</p></div></body></html>"#,
            "duplicate Art. 5",
        ),
        (
            r#"<html><body><div id="art_5"><p>x</p></span></div></body></html>"#,
            "</span> without an open <span>",
        ),
        (
            r#"<html><body><div id="art_5"><table><tr><td><div>x</td></tr></table></div></body></html>"#,
            "closes <div> opened at byte",
        ),
        (
            r#"<html><body><div id="art_5"><p>x</p></div><script>var a = 1;"#,
            "unterminated <script>",
        ),
        (
            r#"<html><body><div id="rct_2"><table><tr><td><p>(3)</p></td><td><p>x</p></td></tr></table></div><div id="art_1"><p>x</p></div></body></html>"#,
            "is numbered `(3)`",
        ),
        (
            r#"<html><body><p class="oj-hd-lg">EN</p><div id="art_1"><p>x</p></div></body></html>"#,
            "document language `EN`",
        ),
        (
            r#"<html><body><p>Keine Artikel</p></body></html>"#,
            "no articles",
        ),
        (&"<div>".repeat(300), "nested deeper than 256"),
        (
            r#"<html><body><div id="art_1"><p a="1></body></html>"#,
            "malformed",
        ),
    ];
    for (doc, want) in cases {
        let e = parse("k.xhtml", doc.as_bytes()).unwrap_err();
        assert_eq!(e.file, "k.xhtml");
        assert!(e.message.contains(want), "{want:?} not in {e}");
    }
    let e = parse("k.xhtml", b"<html>\xff</html>").unwrap_err();
    assert_eq!(e.to_string(), "k.xhtml at byte 6: invalid UTF-8");
}

proptest::proptest! {
    #[test]
    fn cut_or_edited_input_never_panics(cut in 0usize..4000, at in 0usize..4000, b in proptest::prelude::any::<u8>()) {
        let mut bytes = XHTML.as_bytes().to_vec();
        let at = at % bytes.len();
        bytes[at] = b;
        bytes.truncate(cut.min(bytes.len()));
        if let Err(e) = parse("k.xhtml", &bytes) {
            proptest::prop_assert_eq!(e.file, "k.xhtml");
        }
    }
}
