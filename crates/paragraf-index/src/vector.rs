//! Vector arithmetic of the index (defined once in `paragraf_types::vector`).

pub use paragraf_types::vector::{dot, normalize};
