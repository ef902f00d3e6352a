//! Comparing the outputs of one model on two devices or in two dtypes (the
//! GPU kit's parity part): cosine, largest difference, greedy choices.

/// Index of the largest value; ties go to the lowest index, NaN never wins.
pub fn argmax(v: &[f32]) -> u32 {
    let mut best = 0usize;
    for (i, &x) in v.iter().enumerate() {
        if x > v[best] || v[best].is_nan() {
            best = i;
        }
    }
    best as u32
}

/// Gap between the largest and the second-largest value (how close a greedy
/// choice was to flipping); 0 for fewer than two values.
pub fn top2_gap(v: &[f32]) -> f32 {
    let (mut a, mut b) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
    for &x in v {
        if x > a {
            b = a;
            a = x;
        } else if x > b {
            b = x;
        }
    }
    if b.is_finite() {
        a - b
    } else {
        0.0
    }
}

/// Cosine similarity in f64; 0 when either vector is zero or the lengths
/// differ (a shape mismatch must not read as agreement).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let (mut ab, mut aa, mut bb) = (0f64, 0f64, 0f64);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (x as f64, y as f64);
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa == 0.0 || bb == 0.0 {
        0.0
    } else {
        ab / (aa.sqrt() * bb.sqrt())
    }
}

/// Largest absolute difference; infinite when the lengths differ.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b)
        .map(|(&x, &y)| (x as f64 - y as f64).abs())
        .fold(0.0, f64::max)
}

/// Sparse weights `(token, weight)` as a dense vector over the union of the
/// tokens of both sides, so that a token one side drops counts as a
/// difference.
pub fn sparse_pair(a: &[(u32, f32)], b: &[(u32, f32)]) -> (Vec<f32>, Vec<f32>) {
    let mut keys: Vec<u32> = a.iter().chain(b).map(|&(t, _)| t).collect();
    keys.sort_unstable();
    keys.dedup();
    let get = |s: &[(u32, f32)], k: u32| {
        s.iter()
            .find(|&&(t, _)| t == k)
            .map(|&(_, w)| w)
            .unwrap_or(0.0)
    };
    (
        keys.iter().map(|&k| get(a, k)).collect(),
        keys.iter().map(|&k| get(b, k)).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_see_differences_and_mismatches() {
        assert_eq!(argmax(&[0.1, 0.5, 0.5, -1.0]), 1);
        assert_eq!(argmax(&[f32::NAN, 0.2]), 1);
        assert!((top2_gap(&[0.1, 0.5, 0.4]) - 0.1).abs() < 1e-6);
        assert!((cosine(&[1.0, 0.0], &[1.0, 0.0]) - 1.0).abs() < 1e-12);
        assert!(cosine(&[1.0, 0.0], &[0.0, 1.0]).abs() < 1e-12);
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), 0.0);
        assert_eq!(max_abs_diff(&[1.0, 2.0], &[1.5, 2.0]), 0.5);
        assert!(max_abs_diff(&[1.0], &[]).is_infinite());
        let (a, b) = sparse_pair(&[(3, 0.5), (7, 0.2)], &[(3, 0.5)]);
        assert_eq!(a, vec![0.5, 0.2]);
        assert_eq!(b, vec![0.5, 0.0]);
    }
}
