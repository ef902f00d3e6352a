//! Ingest a corpus directory and save it: `cargo run --release -p paragraf-corpus --example dump_corpus -- CORPUS OUT`.
fn main() {
    let mut a = std::env::args().skip(1);
    let (Some(src), Some(out)) = (a.next(), a.next()) else {
        eprintln!("usage: dump_corpus CORPUS_DIR OUT");
        std::process::exit(2);
    };
    let t = std::time::Instant::now();
    match paragraf_corpus::ingest(std::path::Path::new(&src), &Default::default(), None) {
        Ok(c) => {
            eprintln!("{} chunks in {:?}", c.chunks.len(), t.elapsed());
            if let Err(e) = c.save(std::path::Path::new(&out)) {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
