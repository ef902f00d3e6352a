//! HNSW dense index and inverted index (BM25 + learned sparse), persisted
