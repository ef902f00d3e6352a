//! Parsers for the official source formats, source manifest, chunking, reference extraction, norm graph
