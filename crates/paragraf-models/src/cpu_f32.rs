//! The encoder's CPU kernels in f32 (issue 38: the encoder against PyTorch
//! on the same cores): dense layers with bias and activation, and
//! self-attention straight from the fused QKV projection.
//!
//! candle's path splits `[B·L, 3H]` into heads with three transposed copies,
//! runs one small GEMM per (sequence, head) with its own thread dispatch,
//! adds a mask bias and softmaxes over padded keys, then transposes back.
//! Here each (sequence, head) is one task: `Q·Kᵀ` read in place with the
//! strides of the QKV buffer (the scale folded into the GEMM), a softmax
//! over the sequence's real tokens only, and `P·V` written straight into its
//! columns of the `[B·L, H]` context. Padded keys get weight exactly 0, as
//! the -1e9 bias gave them; rows of padding stay 0 (nothing reads them:
//! pooling, heads and the next layer's keys skip them).

use candle_core::{DType, Device, Storage, Tensor};
use gemm::{gemm, Parallelism};
use rayon::prelude::*;

/// The activation a dense layer applies after its bias.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Act {
    GeluErf,
    GeluTanh,
    Relu,
}

/// A raw pointer the tasks share; each writes disjoint elements.
#[derive(Clone, Copy)]
struct Out(*mut f32);
// SAFETY: tasks write disjoint (row, column) ranges of the buffer, which
// outlives the parallel loop.
unsafe impl Send for Out {}
unsafe impl Sync for Out {}

impl Out {
    /// The pointer, taken through a method so that a closure captures the
    /// whole (`Send`) wrapper, not its raw field.
    /// (The callers' unsafe blocks keep every offset inside the buffer.)
    fn at(self, offset: usize) -> *mut f32 {
        self.0.wrapping_add(offset)
    }
}

/// Attention context `[B·L, H]` from `qkv` (`[B·L, 3H]`, f32, CPU; rows of
/// sequence `b` are `b·L .. b·L + L`, of which the first `lens[b]` are real).
pub(crate) fn attention(
    qkv: &Tensor,
    b: usize,
    l: usize,
    lens: &[usize],
    heads: usize,
    head_dim: usize,
    scale: f32,
) -> candle_core::Result<Tensor> {
    let hidden = heads * head_dim;
    let qkv = qkv.contiguous()?;
    if qkv.dims() != [b * l, 3 * hidden] || qkv.dtype() != DType::F32 || lens.len() != b {
        candle_core::bail!(
            "fused attention: qkv {:?} {:?} does not match {b}×{l} tokens of width {}",
            qkv.dims(),
            qkv.dtype(),
            3 * hidden
        );
    }
    let (storage, layout) = qkv.storage_and_layout();
    let data = match &*storage {
        Storage::Cpu(c) => &c.as_slice::<f32>()?[layout.start_offset()..],
        _ => candle_core::bail!("fused attention runs on the CPU"),
    };
    let mut ctx = vec![0f32; b * l * hidden];
    let out = Out(ctx.as_mut_ptr());
    let row = 3 * hidden;
    (0..b * heads).into_par_iter().for_each(|task| {
        let (s, h) = (task / heads, task % heads);
        let n = lens[s].min(l);
        if n == 0 {
            return;
        }
        let base = s * l * row + h * head_dim;
        let (q, k, v) = (
            data[base..].as_ptr(),
            data[base + hidden..].as_ptr(),
            data[base + 2 * hidden..].as_ptr(),
        );
        let mut p = vec![0f32; n * n];
        // SAFETY: every pointer and stride stays inside its buffer: q, k
        // and v read rows s·L .. s·L + n of width head_dim at their column
        // offsets of the QKV buffer, p is n × n, and the context rows of
        // sequence s, columns h·d .. (h+1)·d, belong to this task alone.
        unsafe {
            // p = scale · Q Kᵀ  (gemm: dst = alpha·dst + beta·lhs·rhs)
            gemm(
                n,
                n,
                head_dim,
                p.as_mut_ptr(),
                1,
                n as isize,
                false,
                q,
                1,
                row as isize,
                k,
                row as isize,
                1,
                0.0,
                scale,
                false,
                false,
                false,
                Parallelism::None,
            );
        }
        for r in p.chunks_exact_mut(n) {
            softmax_in_place(r);
        }
        // SAFETY: as above.
        unsafe {
            gemm(
                n,
                head_dim,
                n,
                out.at(s * l * hidden + h * head_dim),
                1,
                hidden as isize,
                false,
                p.as_ptr(),
                1,
                n as isize,
                v,
                1,
                row as isize,
                0.0,
                1.0,
                false,
                false,
                false,
                Parallelism::None,
            );
        }
    });
    drop(storage);
    Tensor::from_vec(ctx, (b * l, hidden), &Device::Cpu)
}

/// `act(x · Wt + b)` on the CPU in f32, `x` `[N, in]`, `wt` `[in, out]`.
/// The output columns are split over the current rayon pool's threads (one
/// single-threaded GEMM each, bias pre-filled and accumulated into), so a
/// query's small GEMMs cost one fork-join instead of gemm's own dispatch,
/// and the activation runs on each thread's columns while they are in
/// cache. Inside an embedding worker (a one-thread pool) it is one GEMM.
pub(crate) fn dense(
    x: &Tensor,
    wt: &Tensor,
    bias: Option<&Tensor>,
    act: Option<Act>,
) -> candle_core::Result<Tensor> {
    let x = x.contiguous()?;
    let (m, k) = x.dims2()?;
    let (k2, n) = wt.dims2()?;
    if k != k2 || !wt.is_contiguous() {
        candle_core::bail!(
            "dense: x {:?} does not match weight {:?}",
            x.dims(),
            wt.dims()
        );
    }
    let mut out = vec![0f32; m * n];
    let read_dst = match bias {
        Some(b) => {
            let b = b.to_vec1::<f32>()?;
            if b.len() != n {
                candle_core::bail!("dense: bias of {} for {n} outputs", b.len());
            }
            for row in out.chunks_exact_mut(n) {
                row.copy_from_slice(&b);
            }
            true
        }
        None => false,
    };
    {
        let (xs, xl) = x.storage_and_layout();
        let (ws, wl) = wt.storage_and_layout();
        let (xd, wd) = match (&*xs, &*ws) {
            (Storage::Cpu(a), Storage::Cpu(w)) => (
                &a.as_slice::<f32>()?[xl.start_offset()..],
                &w.as_slice::<f32>()?[wl.start_offset()..],
            ),
            _ => candle_core::bail!("dense: CPU tensors expected"),
        };
        if xd.len() < m * k || wd.len() < k * n {
            candle_core::bail!("dense: storage shorter than its shape");
        }
        // column chunks, multiples of 16 (one AVX-512 register of f32)
        let threads = rayon::current_num_threads().max(1);
        let chunk = n.div_ceil(threads).div_ceil(16) * 16;
        let dst = Out(out.as_mut_ptr());
        (0..n.div_ceil(chunk)).into_par_iter().for_each(|c| {
            let c0 = c * chunk;
            let nc = chunk.min(n - c0);
            // SAFETY: x is m × k and wt k × n (checked above); this task
            // reads columns c0 .. c0 + nc of wt and writes the same columns
            // of the m × n output, which no other task touches.
            unsafe {
                gemm(
                    m,
                    nc,
                    k,
                    dst.at(c0),
                    1,
                    n as isize,
                    read_dst,
                    xd.as_ptr(),
                    1,
                    k as isize,
                    wd.as_ptr().add(c0),
                    1,
                    n as isize,
                    1.0,
                    1.0,
                    false,
                    false,
                    false,
                    Parallelism::None,
                );
            }
            if let Some(act) = act {
                for r in 0..m {
                    // SAFETY: as above, this task's columns of row r.
                    let row = unsafe { std::slice::from_raw_parts_mut(dst.at(r * n + c0), nc) };
                    activate(row, act);
                }
            }
        });
    }
    Tensor::from_vec(out, (m, n), &Device::Cpu)
}

/// The encoder's activations, in place, matching candle's element functions.
fn activate(v: &mut [f32], act: Act) {
    match act {
        Act::GeluErf => {
            for x in v {
                *x = 0.5 * *x * (1.0 + erf(*x * std::f32::consts::FRAC_1_SQRT_2));
            }
        }
        Act::GeluTanh => {
            for x in v {
                let u = 0.797_884_6_f32 * (*x + 0.044715 * *x * *x * *x);
                *x = 0.5 * *x * (1.0 + u.tanh());
            }
        }
        Act::Relu => {
            for x in v {
                *x = x.max(0.0);
            }
        }
    }
}

/// erf for f32 as `1 - erfc` with Numerical Recipes' `erfcc` (Chebyshev fit
/// of erfc, fractional error below 1.2e-7) in f32 arithmetic with the
/// vectorisable [`exp`]: absolute error below 4e-7 (the test pins it against
/// candle's libm erf), and GELU's loop vectorises (issue 38).
#[inline(always)]
fn erf(x: f32) -> f32 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t * exp(-z * z - 1.265_512_2
        + t * (1.000_023_7
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_204
                                + t * (1.488_515_9 + t * (-0.822_152_2 + t * 0.170_872_77)))))))));
    (1.0 - r).copysign(x)
}

/// Numerically stable softmax of one row. The exponentials go through
/// [`exp`], which the compiler vectorises: a 512-token sequence takes 3.1
/// million of them per layer, a quarter of the pass with a scalar `expf`.
fn softmax_in_place(r: &mut [f32]) {
    let max = r.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    for x in r.iter_mut() {
        *x = exp(*x - max);
    }
    let sum: f32 = r.iter().sum();
    let inv = 1.0 / sum;
    for x in r.iter_mut() {
        *x *= inv;
    }
}

/// eˣ for f32 in straight-line arithmetic (no table, no branch), so that a
/// loop over a slice vectorises: x = n·ln 2 + r with |r| ≤ ln 2 / 2 (ln 2
/// split in two parts for exactness), eʳ by Cephes' `expf` polynomial
/// (relative error ~1 ulp), times 2ⁿ built in the exponent bits. Inputs
/// below -87.3 give e^-87.3 ≈ 1.2e-38 rather than a subnormal or 0, and
/// above 88.7 e^88.7; softmax only feeds it values ≤ 0.
#[inline(always)]
fn exp(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let x = x.clamp(-87.3, 88.7);
    let n = (x * LOG2E).round_ties_even();
    let r = x - n * LN2_HI - n * LN2_LO;
    let mut p = 1.987_569_1e-4_f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 0.166_666_65;
    p = p * r + 0.5;
    let y = p * r * r + r + 1.0;
    f32::from_bits(((n as i32 + 127) as u32) << 23) * y
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Tensor};

    /// The fused dense layer equals candle's matmul + bias + activation.
    #[test]
    fn dense_matches_matmul_bias_and_activation() -> candle_core::Result<()> {
        let (m, k, n) = (5usize, 24usize, 40usize);
        let mut rng = crate::encoder::SplitMix(3);
        let x = Tensor::from_vec(rng.normal_vec(m * k, 1.0), (m, k), &Device::Cpu)?;
        let wt = Tensor::from_vec(rng.normal_vec(k * n, 0.5), (k, n), &Device::Cpu)?;
        let b = Tensor::from_vec(rng.normal_vec(n, 1.0), n, &Device::Cpu)?;
        let lin = x.matmul(&wt)?.broadcast_add(&b)?;
        for (act, want) in [
            (None, lin.clone()),
            (Some(Act::GeluErf), lin.gelu_erf()?),
            (Some(Act::GeluTanh), lin.gelu()?),
            (Some(Act::Relu), lin.relu()?),
        ] {
            let got = dense(&x, &wt, Some(&b), act)?;
            let d = (got - want)?.abs()?.max_all()?.to_scalar::<f32>()?;
            assert!(d < 1e-5, "{act:?}: max |diff| {d}");
        }
        let no_bias = dense(&x, &wt, None, None)?;
        let d = (no_bias - x.matmul(&wt)?)?
            .abs()?
            .max_all()?
            .to_scalar::<f32>()?;
        assert!(d < 1e-5);
        Ok(())
    }

    /// The vectorisable exp within 2 ulp-ish (3e-7 relative) of the
    /// library's over the range softmax and GELU use.
    #[test]
    fn exp_matches_the_library() {
        for i in -87_000..=20_000 {
            let x = i as f32 * 1e-3;
            let (g, w) = (exp(x), x.exp());
            assert!(((g - w) / w).abs() < 3e-7, "exp({x}) = {g}, libm {w}");
        }
        assert!(exp(-1000.0) > 0.0 && exp(-1000.0) < 1e-37);
    }

    /// erf within 4e-7 of candle's (libm's; ~3 ulp of f32 near 1) on a grid over the range GELU sees.
    #[test]
    fn erf_matches_libm() -> candle_core::Result<()> {
        let xs: Vec<f32> = (-6000..=6000).map(|i| i as f32 * 1e-3).collect();
        let want = Tensor::new(&xs[..], &Device::Cpu)?
            .erf()?
            .to_vec1::<f32>()?;
        for (x, w) in xs.iter().zip(want) {
            let g = erf(*x);
            assert!((g - w).abs() < 4e-7, "erf({x}) = {g}, libm {w}");
        }
        Ok(())
    }

    /// The fused kernel equals candle's composed attention (split heads,
    /// QKᵀ·scale + mask bias, softmax, ·V) on real rows, with padding.
    #[test]
    fn fused_attention_matches_composed_ops() -> candle_core::Result<()> {
        let (b, l, heads, d) = (3usize, 7usize, 4usize, 8usize);
        let hidden = heads * d;
        let lens = [7usize, 3, 5];
        let mut rng = crate::encoder::SplitMix(7);
        let qkv = Tensor::from_vec(
            rng.normal_vec(b * l * 3 * hidden, 1.0),
            (b * l, 3 * hidden),
            &Device::Cpu,
        )?;
        let scale = 1.0 / (d as f32).sqrt();
        let got = attention(&qkv, b, l, &lens, heads, d, scale)?;
        let mut mask = Vec::new();
        for &n in &lens {
            mask.extend((0..l).map(|j| if j < n { 0f32 } else { -1e9 }));
        }
        let bias = Tensor::from_vec(mask, (b, 1, 1, l), &Device::Cpu)?;
        let split = |i: usize| {
            qkv.narrow(1, i * hidden, hidden)?
                .reshape((b, l, heads, d))?
                .transpose(1, 2)?
                .contiguous()
        };
        let (q, k, v) = (split(0)?, split(1)?, split(2)?);
        let p = candle_nn::ops::softmax_last_dim(
            &(q.matmul(&k.t()?)? * scale as f64)?.broadcast_add(&bias)?,
        )?;
        let want = p.matmul(&v)?.transpose(1, 2)?.reshape((b * l, hidden))?;
        let (got, want) = (got.to_vec2::<f32>()?, want.to_vec2::<f32>()?);
        for (s, &n) in lens.iter().enumerate() {
            for r in 0..l {
                let (g, w) = (&got[s * l + r], &want[s * l + r]);
                for (x, y) in g.iter().zip(w) {
                    if r < n {
                        assert!((x - y).abs() < 1e-5, "seq {s} row {r}: {x} vs {y}");
                    } else {
                        assert_eq!(*x, 0.0, "padding rows stay 0");
                    }
                }
            }
        }
        Ok(())
    }
}
