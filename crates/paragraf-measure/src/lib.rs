//! Measurements over the engine, beside the binary: `paragraf bench` (model
//! candidates, search latency, our side of the same-run peer comparisons)
//! and the GPU kit's parts (`paragraf gpu-check`). They live here, not in
//! the engine, so the pipeline does not depend on the eval crate's tables
//! and statistics.

pub mod bench;
pub mod gpu_check;
