//! The one deterministic random generator of the workspace (SplitMix64):
//! synthetic vectors for the index benches, random weights of the real
//! model architectures for speed figures and tests. candle's CPU device
//! cannot be seeded and `rand`'s `StdRng` promises no stable stream across
//! versions; these figures and tests need the same numbers on every run.

/// SplitMix64 (Steele, Lea, Flood 2014) over a 64-bit state.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1) (24 bits).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in (0, 1] (24 bits; safe under a logarithm).
    pub fn next_f32_nonzero(&mut self) -> f32 {
        ((self.next_u64() >> 40) as f32 + 1.0) / (1u64 << 24) as f32
    }

    /// One standard normal sample (Box–Muller, the cosine half).
    pub fn normal(&mut self) -> f32 {
        let u1 = self.next_f32().max(1e-7);
        let u2 = self.next_f32();
        (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
    }

    /// `n` normal samples with standard deviation `std` (Box–Muller, both
    /// halves of each pair).
    pub fn normal_vec(&mut self, n: usize, std: f32) -> Vec<f32> {
        let mut v = Vec::with_capacity(n + 1);
        while v.len() < n {
            let (u1, u2) = (self.next_f32_nonzero(), self.next_f32_nonzero());
            let r = (-2.0 * u1.ln()).sqrt() * std;
            let a = std::f32::consts::TAU * u2;
            v.push(r * a.cos());
            v.push(r * a.sin());
        }
        v.truncate(n);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // reference values of SplitMix64 seeded with 0
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn samples_are_in_range_and_reproducible() {
        let mut a = SplitMix64(42);
        let mut b = SplitMix64(42);
        for _ in 0..1000 {
            let (x, y) = (a.next_f32(), a.next_f32_nonzero());
            assert!((0.0..1.0).contains(&x) && y > 0.0 && y <= 1.0);
            b.next_f32();
            b.next_f32_nonzero();
        }
        assert_eq!(a.normal_vec(5, 0.02), b.normal_vec(5, 0.02));
        let v = SplitMix64(1).normal_vec(20_000, 1.0);
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / v.len() as f32;
        assert!(
            mean.abs() < 0.03 && (var - 1.0).abs() < 0.05,
            "{mean} {var}"
        );
    }
}
