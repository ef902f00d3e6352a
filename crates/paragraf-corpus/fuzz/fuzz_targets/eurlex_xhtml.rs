//! Fuzz the EUR-Lex XHTML parser: any bytes must give Ok or a ParseError naming the file, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = paragraf_corpus::parsers::eurlex_xhtml::parse("fuzz.input", data) {
        assert_eq!(e.file, "fuzz.input");
    }
});
