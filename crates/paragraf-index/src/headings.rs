//! Heading vectors: one embedding per norm heading and language.
//!
//! A norm's heading („Videoüberwachung öffentlich zugänglicher Räume“,
//! "Reporting obligations of manufacturers") names its subject in the law's
//! own words. Embedded on its own — not diluted by the norm's text — it is
//! the dense counterpart of the heading field of a BM25F index: a question
//! that names the subject in other words ("Kameras im Laden") meets the
//! heading's vector even when no word is shared, and across languages.
//!
//! The set is small (one entry per norm and language, ~12k for the full
//! corpus), so it is searched exactly: every score is the cosine of the
//! question vector with every heading, deterministic by construction.

use crate::dense::{dot, normalize};
use crate::error::IndexError;
use crate::mapped::Slab;
use paragraf_types::Lang;
use serde::{Deserialize, Serialize};

/// One heading of a norm in one language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadingEntry {
    /// The norm identity shared by its language variants (`Art. 17 DSGVO`).
    pub norm: String,
    pub lang: Lang,
    /// The text that was embedded (see the engine's `heading_text`).
    pub text: String,
}

/// The heading vectors of an index, L2-normalised, in entry order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeadingVectors {
    entries: Vec<HeadingEntry>,
    dim: usize,
    vectors: Slab<f32>,
}

impl HeadingVectors {
    /// Entries and their vectors (`entries.len() × dim` values, row-major);
    /// every row is normalised.
    pub fn new(
        entries: Vec<HeadingEntry>,
        mut vectors: Vec<f32>,
        dim: usize,
    ) -> Result<HeadingVectors, IndexError> {
        if dim == 0 && !entries.is_empty() {
            return Err(IndexError::InvalidInput(
                "heading vectors with dimension 0".into(),
            ));
        }
        if vectors.len() != entries.len() * dim {
            return Err(IndexError::InvalidInput(format!(
                "{} heading entries but {} values for dimension {dim}",
                entries.len(),
                vectors.len()
            )));
        }
        if dim > 0 {
            for row in vectors.chunks_exact_mut(dim) {
                normalize(row);
            }
        }
        Self::normalised(entries, vectors.into(), dim)
    }

    /// Entries and vectors that are already normalised (as an index stores
    /// them; a mapped file is read in place).
    pub fn normalised(
        entries: Vec<HeadingEntry>,
        vectors: Slab<f32>,
        dim: usize,
    ) -> Result<HeadingVectors, IndexError> {
        if vectors.len() != entries.len() * dim {
            return Err(IndexError::InvalidInput(format!(
                "{} heading entries but {} values for dimension {dim}",
                entries.len(),
                vectors.len()
            )));
        }
        Ok(HeadingVectors {
            entries,
            dim,
            vectors,
        })
    }

    /// Number of headings.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the index holds no heading vectors.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Vector dimension (0 when empty).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The entries, in vector order.
    pub fn entries(&self) -> &[HeadingEntry] {
        &self.entries
    }

    /// All vectors, row-major.
    pub fn vectors(&self) -> &[f32] {
        &self.vectors
    }

    /// Whether the vectors are read from a mapped file.
    pub fn vectors_mapped(&self) -> bool {
        self.vectors.is_mapped()
    }

    /// Cosine of `query` (normalised) with every heading, in entry order.
    pub fn scores(&self, query: &[f32]) -> Vec<f32> {
        if self.dim == 0 || query.len() != self.dim {
            return vec![0.0; self.entries.len()];
        }
        self.vectors
            .chunks_exact(self.dim)
            .map(|v| dot(v, query))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: &str) -> HeadingEntry {
        HeadingEntry {
            norm: n.into(),
            lang: Lang::De,
            text: n.into(),
        }
    }

    #[test]
    fn rows_are_normalised_and_scored_in_order() {
        let h =
            HeadingVectors::new(vec![entry("a"), entry("b")], vec![3.0, 4.0, 0.0, 2.0], 2).unwrap();
        let s = h.scores(&[0.0, 1.0]);
        assert!((s[0] - 0.8).abs() < 1e-6, "{s:?}");
        assert!((s[1] - 1.0).abs() < 1e-6, "{s:?}");
    }

    #[test]
    fn a_wrong_shape_is_refused() {
        let e = HeadingVectors::new(vec![entry("a")], vec![1.0; 3], 2).unwrap_err();
        assert!(e.to_string().contains("1 heading entries"), "{e}");
    }

    #[test]
    fn a_query_of_another_dimension_scores_zero() {
        let h = HeadingVectors::new(vec![entry("a")], vec![1.0, 0.0], 2).unwrap();
        assert_eq!(h.scores(&[1.0, 0.0, 0.0]), vec![0.0]);
    }
}
