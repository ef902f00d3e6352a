//! `index build --scale` on a small archive packed like the federal-law one
//! (tar.zst of gii XML): one law the fixture corpus holds (BDSG, which must
//! not be shadowed) and one it does not (a small test law), with the real
//! multilingual-e5-small embedder. Needs the test models
//! (`PARAGRAF_TEST_MODELS`, set by scripts/test.sh).

use paragraf_engine::{build_index, BuildOptions, Engine, EngineOptions, SearchOptions};
use paragraf_models::{DeviceChoice, Registry, ResolveOptions};
use std::path::{Path, PathBuf};

mod support;
use support::{fixture_build, fixture_corpus, models_dir};

/// A law the fixture corpus does not hold, in the archive's gii layout.
const TEST_LAW: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<dokumente doknr="BJNR999990001"><norm doknr="BJNR999990001"><metadaten><jurabk>ErhUrlG</jurabk><amtabk>ErhUrlG</amtabk><langue>Gesetz über den Erholungsurlaub der Arbeitnehmer in Versuchsbetrieben</langue><kurzue>Erholungsurlaubsgesetz</kurzue></metadaten><textdaten><text format="XML"><Content><P></P></Content></text></textdaten></norm>
<norm doknr="BJNR999990001BJNE000100000"><metadaten><jurabk>ErhUrlG</jurabk><enbez>§ 1</enbez><titel format="parat">Anspruch auf Erholungsurlaub</titel></metadaten><textdaten><text format="XML"><Content><P>Jede Arbeitnehmerin und jeder Arbeitnehmer eines Versuchsbetriebs hat in jedem Kalenderjahr Anspruch auf bezahlten Erholungsurlaub.</P></Content></text></textdaten></norm>
<norm doknr="BJNR999990001BJNE000200000"><metadaten><jurabk>ErhUrlG</jurabk><enbez>§ 2</enbez><titel format="parat">Dauer des Erholungsurlaubs</titel></metadaten><textdaten><text format="XML"><Content><P>Der Erholungsurlaub beträgt jährlich mindestens dreißig Werktage. Als Werktage gelten alle Kalendertage, die nicht Sonn- oder gesetzliche Feiertage sind.</P></Content></text></textdaten></norm>
</dokumente>
"#;

/// The first result of `law` within the top `n`; fails with the list.
fn result_of<'a>(
    out: &'a paragraf_engine::SearchOutcome,
    law: &str,
    n: usize,
) -> &'a paragraf_types::SearchResult {
    let results = &out.response.results;
    results
        .iter()
        .take(n)
        .find(|r| r.regulation == law)
        .unwrap_or_else(|| {
            let cited: Vec<_> = results.iter().map(|r| &r.citation).collect();
            panic!("{law} not in the top {n}: {cited:?}")
        })
}

fn pack_archive(dir: &Path) -> PathBuf {
    let path = dir.join("archive.tar.zst");
    let f = std::fs::File::create(&path).unwrap();
    let enc = zstd::stream::write::Encoder::new(f, 3)
        .unwrap()
        .auto_finish();
    let mut tar = tar::Builder::new(enc);
    let bdsg = std::fs::read(fixture_corpus().join("de/gii/bdsg_2018.xml")).unwrap();
    for (name, bytes) in [
        ("./BJNR209710017.xml", &bdsg[..]),
        ("./BJNR999990001.xml", TEST_LAW.as_bytes()),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, bytes).unwrap();
    }
    tar.finish().unwrap();
    drop(tar);
    path
}

#[test]
fn the_archive_joins_as_a_lexical_tier_without_shadowing_the_curated_law() {
    let Some(models) = models_dir() else {
        paragraf_types::inputs::input_missing("PARAGRAF_TEST_MODELS with multilingual-e5-small");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let archive = pack_archive(tmp.path());
    let out = tmp.path().join("index");
    let resolve = ResolveOptions {
        model_dir: Some(models.clone()),
        allow_download: false,
    };
    let report = build_index(
        &BuildOptions {
            scale: Some(archive),
            ..fixture_build(out.clone(), models.clone())
        },
        &|_| {},
    )
    .expect("scale build");
    let m = paragraf_engine::index_manifest(&out).unwrap();
    let tier = m.scale.clone().expect("the manifest records the tier");
    assert_eq!((tier.archive_files, tier.laws), (2, 1), "{tier:?}");
    assert!(tier.chunks >= 2 && tier.chunks == report.chunks - m.counts.vectors);
    assert!(m.counts.headings > 0, "--scale embeds the headings");
    let engine = Engine::open(EngineOptions {
        index_dir: out,
        registry: Registry::builtin(),
        resolve,
        device: DeviceChoice::Cpu,
        answer_model: None,
        // the fixture corpus holds 33 German chunks, the test law 2 of them:
        // no law's lift can exceed N/n_L = 16.5 here, so the law-title
        // threshold is set for this corpus (the default, 30, is for corpora
        // of thousands of chunks; pinned in rank's tests/constants.rs)
        params: paragraf_engine::ParamsSource::Given(Box::new(
            paragraf_rank::RankParams::default()
                .overlay(&serde_json::json!({"lawTitleMinLift": 8.0}))
                .unwrap(),
        )),
        warm_up: false,
        query_batch_max: None,
        query_cache_entries: 0,
    })
    .unwrap();
    // the curated BDSG is the only BDSG: no archive copy, no duplicate id
    let chunks = engine.chunks();
    let embedded = m.counts.vectors;
    assert!(chunks[..embedded].iter().all(|c| c.regulation != "ErhUrlG"));
    assert!(chunks[embedded..].iter().all(|c| c.regulation == "ErhUrlG"));
    let mut ids: Vec<&str> = chunks.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "chunk ids are unique");
    // the archive's law is found, and says which tier it came from
    let out = engine
        .search(
            "Wie viele Werktage Erholungsurlaub bekommt ein Arbeitnehmer im Versuchsbetrieb mindestens?",
            &SearchOptions::default(),
        )
        .unwrap();
    let hit = result_of(&out, "ErhUrlG", 3);
    assert!(
        hit.explanation.iter().any(|t| t.name == "lexicalTier"),
        "{:?}",
        hit.explanation
    );
    // the index keeps the law's titles; a question in other words that
    // holds the subject of its short title („Erholungsurlaub“) names it
    let laws = &engine.index().extras.laws;
    let titles = &laws
        .iter()
        .find(|l| l.regulation == "ErhUrlG")
        .expect("the archive law's titles are stored")
        .titles;
    assert!(
        titles.iter().any(|t| t == "Erholungsurlaubsgesetz"),
        "{titles:?}"
    );
    assert!(
        laws.iter().any(|l| l.regulation == "BDSG"),
        "curated titles too"
    );
    let out = engine
        .search(
            "Steht Beschäftigten bezahlter Erholungsurlaub zu, und ab wann?",
            &SearchOptions::default(),
        )
        .unwrap();
    let named = result_of(&out, "ErhUrlG", 10);
    let gain = named
        .explanation
        .iter()
        .find(|t| t.name == "lawTitleGain")
        .unwrap_or_else(|| {
            panic!(
                "{:?}\nlaws {:?}\nterms {:?}",
                named.explanation, out.analysis.law_matches, out.analysis.query_terms
            )
        });
    assert!(gain.reason.contains("Erholungsurlaub"), "{}", gain.reason);
    // a question about the curated laws still finds them first
    let out = engine
        .search(
            "Wann muss ein Datenschutzbeauftragter benannt werden?",
            &SearchOptions::default(),
        )
        .unwrap();
    let top = &out.response.results[0];
    assert!(
        ["BDSG", "DSGVO"].contains(&top.regulation.as_str()),
        "{}",
        top.citation
    );
}
