//! Pure, deterministic ranking: query analysis, fusion, authority rerank, control diversity, supersede, assessment, explanations
