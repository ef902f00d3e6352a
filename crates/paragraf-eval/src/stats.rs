//! Small descriptive statistics: percentiles, medians and a repeated-run
//! summary with a "within noise" comparison.

use serde::{Deserialize, Serialize};

/// The `p`-th percentile (`0.0..=100.0`) of `samples` by linear interpolation
/// between closest ranks (the R-7 / numpy default). Non-finite samples are
/// ignored; `None` when no finite sample is left.
pub fn percentile(samples: &[f64], p: f64) -> Option<f64> {
    let mut v: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let p = p.clamp(0.0, 100.0) / 100.0;
    let pos = p * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    Some(v[lo] + (v[hi] - v[lo]) * frac)
}

/// The median (50th percentile) of the finite samples.
pub fn median(samples: &[f64]) -> Option<f64> {
    percentile(samples, 50.0)
}

/// The arithmetic mean of the finite samples.
pub fn mean(samples: &[f64]) -> Option<f64> {
    let v: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        None
    } else {
        Some(v.iter().sum::<f64>() / v.len() as f64)
    }
}

/// Summary of repeated measurements of one quantity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// Interquartile range (p75 − p25): the spread used as noise.
    pub iqr: f64,
    /// The raw samples, in measurement order.
    pub samples: Vec<f64>,
}

impl Stat {
    /// Summarise the finite samples; `None` when there is none.
    pub fn from_samples(samples: &[f64]) -> Option<Stat> {
        let finite: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
        let median = median(&finite)?;
        let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let max = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let iqr = percentile(&finite, 75.0)? - percentile(&finite, 25.0)?;
        Some(Stat {
            median,
            min,
            max,
            iqr,
            samples: finite,
        })
    }

    /// A single measurement.
    pub fn single(x: f64) -> Stat {
        Stat {
            median: x,
            min: x,
            max: x,
            iqr: 0.0,
            samples: vec![x],
        }
    }
}

/// Relative difference of two values, `(b − a) / |a|`; `None` when `a` is 0.
pub fn rel_diff(a: f64, b: f64) -> Option<f64> {
    if a == 0.0 || !a.is_finite() || !b.is_finite() {
        None
    } else {
        Some((b - a) / a.abs())
    }
}

/// Whether two repeated-run summaries agree within noise: their medians
/// differ by at most `rel_tol` of the larger median, or by no more than the
/// larger interquartile range of the two runs.
pub fn within_noise(a: &Stat, b: &Stat, rel_tol: f64) -> bool {
    let diff = (a.median - b.median).abs();
    let scale = a.median.abs().max(b.median.abs());
    diff <= rel_tol * scale || diff <= a.iqr.max(b.iqr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate() {
        let v = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(median(&v), Some(2.5));
        assert_eq!(percentile(&v, 0.0), Some(1.0));
        assert_eq!(percentile(&v, 100.0), Some(4.0));
        // pos = 0.95 * 3 = 2.85 → 3 + 0.85 * (4 − 3)
        assert!((percentile(&v, 95.0).unwrap() - 3.85).abs() < 1e-12);
        assert_eq!(median(&[7.0]), Some(7.0));
        assert_eq!(median(&[1.0, 2.0, 100.0]), Some(2.0));
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[f64::NAN]), None);
        assert_eq!(median(&[f64::NAN, 5.0, f64::INFINITY]), Some(5.0));
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        // ties
        assert_eq!(median(&[2.0, 2.0, 2.0, 5.0]), Some(2.0));
        assert_eq!(percentile(&[3.0, 3.0], 95.0), Some(3.0));
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn stat_summary() {
        let s = Stat::from_samples(&[10.0, 12.0, 11.0, 30.0, 9.0]).unwrap();
        assert_eq!(s.median, 11.0);
        assert_eq!(s.min, 9.0);
        assert_eq!(s.max, 30.0);
        // sorted 9 10 11 12 30: p25 = 10, p75 = 12
        assert_eq!(s.iqr, 2.0);
        assert!(Stat::from_samples(&[]).is_none());
        assert_eq!(Stat::single(3.0).iqr, 0.0);
    }

    #[test]
    fn noise_rule() {
        let a = Stat::from_samples(&[100.0, 101.0, 99.0]).unwrap();
        let b = Stat::from_samples(&[104.0, 103.0, 105.0]).unwrap();
        assert!(within_noise(&a, &b, 0.05)); // 4 % apart
        assert!(!within_noise(&a, &b, 0.02));
        // a wide spread absorbs a larger difference
        let c = Stat::from_samples(&[80.0, 100.0, 120.0, 140.0]).unwrap();
        let d = Stat::single(130.0);
        assert!(within_noise(&c, &d, 0.0));
        assert_eq!(rel_diff(100.0, 110.0), Some(0.1));
        assert_eq!(rel_diff(0.0, 1.0), None);
    }
}
