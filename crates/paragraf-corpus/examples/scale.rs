//! Scale benchmark: `cargo run --release -p paragraf-corpus --example scale -- [ARCHIVE]`
//! streams the archive of all federal laws through parsing + chunking and
//! prints the figures as JSON (default archive: `../shared/corpus/scale/…`).

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/corpus/scale/gii-all-federal-law.tar.zst"
        )
        .to_string()
    });
    match paragraf_corpus::scale::ingest_archive(std::path::Path::new(&path), &Default::default()) {
        Ok(r) => println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default()),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
