//! The `paragraf` binary: parses flags and calls [`paragraf::run`].

fn main() {
    std::process::exit(paragraf::run());
}
