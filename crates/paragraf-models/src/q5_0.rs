//! Q5_0 weight matrices on the CPU with an AVX-512 VNNI kernel, as candle
//! quantized storage.
//!
//! llama.cpp's k-quant mixes fall back to Q5_0 for matrices whose rows are not
//! a multiple of 256 values (Q4_K_M of Qwen2.5-0.5B: every matrix that reads
//! the 896-wide hidden state, about half the bytes read per token). candle
//! 0.11 has only a scalar dot product for Q5_0, which made prefill a third of
//! llama.cpp's speed. [`Q5_0Matrix`] implements candle's `QuantizedType`, so a
//! `QMatMul` over it runs this kernel and nothing else changes: the
//! activations are quantized to Q8_0 per row (as llama.cpp does), each block's
//! 5-bit weights are expanded to bytes 0..31 and multiplied with `vpdpbusd`,
//! and the offset of 16 is taken off through the activation block's sum.
//! Weights stay in Q5_0's 22 bytes per 32 values.
//!
//! Q8_0 matrices stay candle's: the same kernel on them (bytes + 128) was
//! slower than candle's AVX2 dot product for the 151,936-row output layer
//! (decode 33 vs 38 tok/s, alternated runs, 2026-12-05).
//!
//! Without AVX-512 VNNI the loader does not use this type (see
//! [`available`]); the matrices are then widened to Q8_0 (`gguf_widen`).

use candle_core::quantized::{GgmlDType, QTensor, QuantizedType};
use candle_core::{CpuStorage, Device, Result, Tensor};
use half::f16;

/// Values per block (Q5_0, and the activations' Q8_0).
const QK: usize = 32;
/// Weight rows and activation rows of one kernel tile.
const TILE: usize = 4;

/// Bytes per Q5_0 block: f16 scale, 32 high bits, 16 bytes of nibbles.
const BLOCK_BYTES: usize = 22;

/// One Q5_0 block's scale and its 32 signed values `q - 16`.
fn block_values(blk: &[u8]) -> (f32, [i32; QK]) {
    let d = f16::from_le_bytes([blk[0], blk[1]]).to_f32();
    let qh = u32::from_le_bytes([blk[2], blk[3], blk[4], blk[5]]);
    let mut v = [0i32; QK];
    for j in 0..QK / 2 {
        let lo = (blk[6 + j] & 0x0f) as i32 | ((((qh >> j) & 1) << 4) as i32);
        let hi = (blk[6 + j] >> 4) as i32 | ((((qh >> (j + 16)) & 1) << 4) as i32);
        v[j] = lo - 16;
        v[j + QK / 2] = hi - 16;
    }
    (d, v)
}

/// Whether this CPU runs the kernel (AVX-512 F/BW/VL + VNNI).
pub(crate) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512vnni")
            && is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A Q5_0 matrix: `n` rows of `k` values, row after row, in GGUF's bytes.
pub(crate) struct Q5_0Matrix {
    bytes: Vec<u8>,
}

impl Q5_0Matrix {
    /// Wraps GGUF Q5_0 bytes of an `n × k` matrix (`k` a multiple of 32).
    pub(crate) fn new(bytes: Vec<u8>) -> Self {
        Self { bytes }
    }

    /// A `QTensor` of `dims` over these bytes, for `QMatMul::from_qtensor`.
    pub(crate) fn into_qtensor(self, dims: &[usize]) -> Result<QTensor> {
        QTensor::new(
            candle_core::quantized::QStorage::Cpu(Box::new(self)),
            dims.to_vec(),
        )
    }
}

/// Activations quantized to Q8_0, row after row: signed bytes, each block's
/// scale (rounded through f16, as llama.cpp stores it) and the block's sum.
struct Q8Rows {
    q: Vec<i8>,
    d: Vec<f32>,
    sum: Vec<i32>,
}

fn quantize_rows(lhs: &[f32], k: usize) -> Q8Rows {
    let blocks = lhs.len() / QK;
    let mut out = Q8Rows {
        q: vec![0; lhs.len()],
        d: Vec::with_capacity(blocks),
        sum: Vec::with_capacity(blocks),
    };
    debug_assert!(k.is_multiple_of(QK));
    for (x, q) in lhs.chunks_exact(QK).zip(out.q.chunks_exact_mut(QK)) {
        let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
        let d = amax / 127.0;
        let id = if d > 0.0 { 1.0 / d } else { 0.0 };
        let mut s = 0i32;
        for (qi, xi) in q.iter_mut().zip(x) {
            *qi = (xi * id).round() as i8;
            s += *qi as i32;
        }
        out.d.push(f16::from_f32(d).to_f32());
        out.sum.push(s);
    }
    out
}

/// The reference the kernel is tested against: one weight row times one
/// quantized activation row, in plain arithmetic.
fn dot_scalar(w: &[u8], xq: &[i8], xd: &[f32]) -> f32 {
    let mut acc = 0f32;
    for (b, blk) in w.chunks_exact(BLOCK_BYTES).enumerate() {
        let (dw, v) = block_values(blk);
        let x = &xq[b * QK..(b + 1) * QK];
        let s: i32 = v.iter().zip(x).map(|(w, x)| w * *x as i32).sum();
        acc += dw * xd[b] * s as f32;
    }
    acc
}

#[cfg(target_arch = "x86_64")]
mod vnni {
    use super::{BLOCK_BYTES, QK, TILE};
    use std::arch::x86_64::*;

    /// How far ahead in a weight row the kernel asks for the cache line:
    /// with four rows read side by side the hardware prefetcher falls behind
    /// (decode 31 → 39 tok/s on Qwen2.5-0.5B, 2 cores).
    const PREFETCH_BYTES: usize = 384;

    #[target_feature(enable = "avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")]
    unsafe fn hsum(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_movehdup_ps(s));
        _mm_cvtss_f32(s)
    }

    /// One block's 32 weights as bytes `q` = value + 16, and its scale.
    #[target_feature(enable = "avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")]
    unsafe fn expand(blk: *const u8) -> (__m256i, f32) {
        let d = half::f16::from_bits(u16::from_le_bytes([*blk, *blk.add(1)])).to_f32();
        let qh = (blk.add(2) as *const u32).read_unaligned();
        let qs = _mm_loadu_si128(blk.add(6) as *const __m128i);
        let nib = _mm256_and_si256(
            _mm256_set_m128i(_mm_srli_epi16(qs, 4), qs),
            _mm256_set1_epi8(0x0f),
        );
        // bytes 0..31: the low nibbles, then the high ones, each with its
        // fifth bit from qh
        (_mm256_or_si256(nib, _mm256_maskz_set1_epi8(qh, 0x10)), d)
    }

    /// `out[w][x] = row_w · act_x` for `RW` consecutive weight rows from `w`
    /// and `RX` consecutive activation rows from block `x0`: each expanded
    /// weight block serves `RX` rows, each activation block `RW` rows, and
    /// the `RW·RX` sums are independent chains.
    ///
    /// # Safety
    /// The CPU has the enabled features (`super::available`); `w` points at
    /// `RW` rows of `kb` blocks (`row_bytes` apart); `xq`, `xd`,
    /// `xs` hold the blocks `x0 .. x0 + RX·kb`.
    // the tile's accumulators are indexed [weight row][activation row]
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    #[target_feature(enable = "avx2,fma,avx512f,avx512bw,avx512vl,avx512vnni")]
    pub(super) unsafe fn tile<const RW: usize, const RX: usize>(
        w: *const u8,
        row_bytes: usize,
        kb: usize,
        xq: *const i8,
        xd: *const f32,
        xs: *const i32,
        x0: usize,
        out: &mut [[f32; TILE]; TILE],
    ) {
        let mut acc = [[_mm256_setzero_ps(); RX]; RW];
        for b in 0..kb {
            let mut wv = [_mm256_setzero_si256(); RW];
            let mut dw = [0f32; RW];
            for r in 0..RW {
                let blk = w.add(r * row_bytes + b * BLOCK_BYTES);
                _mm_prefetch::<_MM_HINT_T0>(blk.add(PREFETCH_BYTES) as *const i8);
                (wv[r], dw[r]) = expand(blk);
            }
            for x in 0..RX {
                let xb = x0 + x * kb + b;
                let xv = _mm256_loadu_si256(xq.add(xb * QK) as *const __m256i);
                // the weights' offset of 16 over 8 lanes: 2 · Σx per lane
                let off = _mm256_set1_epi32(2 * *xs.add(xb));
                let dx = *xd.add(xb);
                for r in 0..RW {
                    let dp = _mm256_dpbusd_epi32(_mm256_setzero_si256(), wv[r], xv);
                    let dp = _mm256_cvtepi32_ps(_mm256_sub_epi32(dp, off));
                    acc[r][x] = _mm256_fmadd_ps(dp, _mm256_set1_ps(dw[r] * dx), acc[r][x]);
                }
            }
        }
        for r in 0..RW {
            for x in 0..RX {
                out[r][x] = hsum(acc[r][x]);
            }
        }
    }
}

impl Q5_0Matrix {
    /// `dst[i, j] = lhs_i · row_j` for an `m × k` `lhs` and `n` rows.
    fn matmul(&self, (m, k, n): (usize, usize, usize), lhs: &[f32], dst: &mut [f32]) -> Result<()> {
        if !k.is_multiple_of(QK) || self.bytes.len() != n * k / QK * BLOCK_BYTES {
            candle_core::bail!(
                "Q5_0 matmul: a {n}×{k} matrix does not match its {} bytes",
                self.bytes.len()
            )
        }
        if lhs.len() != m * k || dst.len() < m * n {
            candle_core::bail!("Q5_0 matmul: operands do not fit ({m}, {k}, {n})")
        }
        let kb = k / QK;
        let x = quantize_rows(lhs, k);
        // candle's own pool, as its matmuls use: a second pool would spin
        // against it for the same cores. Each range of weight rows writes
        // only its own columns of `dst`.
        let dst_at = dst.as_mut_ptr() as usize;
        candle_core::utils::barrier_pool().execute_chunked(n.div_ceil(TILE), |tiles| {
            let rows = tiles.start * TILE..(tiles.end * TILE).min(n);
            // SAFETY: `dst` holds m·n values (checked above) and the pool
            // hands each tile of rows to exactly one range.
            unsafe { self.rows_times_acts(rows, (m, kb, n), &x, dst_at) };
        });
        Ok(())
    }

    /// Weight rows `rows` against all `m` activation rows, in tiles of up
    /// to `TILE × TILE`, written to `dst` (`m × n`) through `dst_at`.
    ///
    /// # Safety
    /// `dst_at` points at `m·n` floats of which no other caller writes the
    /// columns `rows`; `x` holds `m` rows of `kb` blocks.
    unsafe fn rows_times_acts(
        &self,
        rows: std::ops::Range<usize>,
        (m, kb, n): (usize, usize, usize),
        x: &Q8Rows,
        dst_at: usize,
    ) {
        let row_bytes = kb * BLOCK_BYTES;
        let put = |i: usize, j: usize, v: f32| *(dst_at as *mut f32).add(i * n + j) = v;
        #[cfg(target_arch = "x86_64")]
        if available_cached() {
            let mut out = [[0f32; TILE]; TILE];
            let (xq, xd, xs) = (x.q.as_ptr(), x.d.as_ptr(), x.sum.as_ptr());
            let mut j = rows.start;
            while j < rows.end {
                let tw = if rows.end - j >= TILE { TILE } else { 1 };
                let w = self.bytes.as_ptr().add(j * row_bytes);
                let mut i = 0;
                while i < m {
                    let tx = if m - i >= TILE { TILE } else { 1 };
                    let a = (w, row_bytes, kb, xq, xd, xs, i * kb);
                    match (tw, tx) {
                        (TILE, TILE) => tile::<TILE, TILE>(a, &mut out),
                        (TILE, _) => tile::<TILE, 1>(a, &mut out),
                        (_, TILE) => tile::<1, TILE>(a, &mut out),
                        _ => tile::<1, 1>(a, &mut out),
                    }
                    for (r, row) in out.iter().enumerate().take(tw) {
                        for (c, v) in row.iter().enumerate().take(tx) {
                            put(i + c, j + r, *v);
                        }
                    }
                    i += tx;
                }
                j += tw;
            }
            return;
        }
        for j in rows {
            let w = &self.bytes[j * row_bytes..(j + 1) * row_bytes];
            for i in 0..m {
                let (a, b) = (i * kb, (i + 1) * kb);
                put(i, j, dot_scalar(w, &x.q[a * QK..b * QK], &x.d[a..b]));
            }
        }
    }

    fn dequantize_into(&self, bytes: &[u8], out: &mut [f32]) {
        for (blk, ys) in bytes
            .chunks_exact(BLOCK_BYTES)
            .zip(out.chunks_exact_mut(QK))
        {
            let (d, v) = block_values(blk);
            for (y, q) in ys.iter_mut().zip(v) {
                *y = q as f32 * d;
            }
        }
    }
}

/// The kernel's tile with its pointer arguments as one tuple.
///
/// # Safety
/// As `vnni::tile`.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::type_complexity)]
unsafe fn tile<const RW: usize, const RX: usize>(
    (w, row_bytes, kb, xq, xd, xs, x0): (
        *const u8,
        usize,
        usize,
        *const i8,
        *const f32,
        *const i32,
        usize,
    ),
    out: &mut [[f32; TILE]; TILE],
) {
    vnni::tile::<RW, RX>(w, row_bytes, kb, xq, xd, xs, x0, out)
}

fn available_cached() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(available)
}

impl QuantizedType for Q5_0Matrix {
    fn dtype(&self) -> GgmlDType {
        GgmlDType::Q5_0
    }

    fn matmul_t(&self, mkn: (usize, usize, usize), lhs: &[f32], dst: &mut [f32]) -> Result<()> {
        self.matmul(mkn, lhs, dst)
    }

    fn matmul_t_f16(&self, mkn: (usize, usize, usize), lhs: &[f16], dst: &mut [f16]) -> Result<()> {
        let lhs: Vec<f32> = lhs.iter().map(|v| v.to_f32()).collect();
        let mut out = vec![0f32; dst.len()];
        self.matmul(mkn, &lhs, &mut out)?;
        for (d, v) in dst.iter_mut().zip(out) {
            *d = f16::from_f32(v);
        }
        Ok(())
    }

    fn embedding(&self, ids: &[u32], rows: usize, hidden: usize) -> Result<CpuStorage> {
        let row_bytes = hidden / QK * BLOCK_BYTES;
        let mut out = vec![0f32; ids.len() * hidden];
        for (id, ys) in ids.iter().zip(out.chunks_exact_mut(hidden)) {
            let id = *id as usize;
            if id >= rows || !hidden.is_multiple_of(QK) {
                candle_core::bail!("Q5_0 embedding: row {id} of {rows} (hidden {hidden})")
            }
            self.dequantize_into(&self.bytes[id * row_bytes..(id + 1) * row_bytes], ys);
        }
        Ok(CpuStorage::F32(out))
    }

    fn dequantize(&self, elem_count: usize) -> Result<CpuStorage> {
        let mut out = vec![0f32; elem_count];
        self.dequantize_into(&self.bytes, &mut out);
        Ok(CpuStorage::F32(out))
    }

    fn storage_size_in_bytes(&self) -> usize {
        self.bytes.len()
    }

    fn as_ptr(&self) -> *const u8 {
        self.bytes.as_ptr()
    }

    fn block_size(&self) -> usize {
        QK
    }

    fn from_float(&mut self, xs: &[f32]) {
        // candle's own quantizer; the bytes are GGUF's layout
        if let Ok(q) = Tensor::from_slice(xs, xs.len(), &Device::Cpu)
            .and_then(|t| QTensor::quantize(&t, GgmlDType::Q5_0))
            .and_then(|q| q.data().map(|d| d.into_owned()))
        {
            self.bytes = q;
        }
    }

    fn from_float_imatrix(&mut self, xs: &[f32], _imatrix_weights: &[f32], _n_per_row: usize) {
        self.from_float(xs)
    }

    fn size(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(n: usize, k: usize, seed: u32) -> (QTensor, Vec<u8>) {
        let vals: Vec<f32> = (0..n * k)
            .map(|i| {
                let h = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 8;
                (h % 2001) as f32 / 1000.0 - 1.0
            })
            .collect();
        let t = Tensor::from_vec(vals, (n, k), &Device::Cpu).unwrap();
        let q = QTensor::quantize(&t, GgmlDType::Q5_0).unwrap();
        let bytes = q.data().unwrap().into_owned();
        (q, bytes)
    }

    /// The matmul equals the plain-arithmetic reference on every tile the
    /// dispatch takes (1–7 activation rows, 130 weight rows: full tiles and
    /// tails both ways), and stays within quantization error of candle's own
    /// matmul on the same weights. The dispatch takes the VNNI kernel where
    /// the CPU has AVX-512 VNNI and the scalar loop elsewhere (an AMD EPYC
    /// with AVX2 only, 2026-12-06): the test checks the path this CPU runs,
    /// and its messages name it.
    #[test]
    fn kernel_matches_the_reference_and_candle() {
        let path = if available() {
            "VNNI kernel"
        } else {
            "scalar loop"
        };
        let (n, k) = (130, 96);
        {
            let (q, bytes) = matrix(n, k, 7);
            let ours = Q5_0Matrix::new(bytes.clone());
            let bb = BLOCK_BYTES;
            let theirs = candle_core::quantized::QMatMul::from_qtensor(q).unwrap();
            for m in 1..=7 {
                let lhs: Vec<f32> = (0..m * k)
                    .map(|i| ((i * 37 % 101) as f32 - 50.0) / 25.0)
                    .collect();
                let mut got = vec![0f32; m * n];
                ours.matmul((m, k, n), &lhs, &mut got).unwrap();
                let x = quantize_rows(&lhs, k);
                let kb = k / QK;
                for i in 0..m {
                    for j in 0..n {
                        let w = &bytes[j * kb * bb..(j + 1) * kb * bb];
                        let want =
                            dot_scalar(w, &x.q[i * k..(i + 1) * k], &x.d[i * kb..(i + 1) * kb]);
                        let g = got[i * n + j];
                        assert!(
                            (g - want).abs() <= 1e-4 * (1.0 + want.abs()),
                            "{path}, m={m} ({i},{j}): {g} vs {want}"
                        );
                    }
                }
                let t = Tensor::from_vec(lhs.clone(), (m, k), &Device::Cpu).unwrap();
                let want: Vec<f32> = candle_core::Module::forward(&theirs, &t)
                    .unwrap()
                    .flatten_all()
                    .unwrap()
                    .to_vec1()
                    .unwrap();
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        (g - w).abs() <= 2e-3 * (1.0 + w.abs()),
                        "{path}, m={m}: {g} vs candle {w}"
                    );
                }
            }
        }
    }

    /// Through candle's `QMatMul` the wrapped storage answers like the
    /// matrix it holds; dequantize gives candle's values exactly.
    #[test]
    fn qmatmul_runs_the_kernel_and_values_round_trip() {
        let (n, k) = (64, 64);
        {
            let (q, bytes) = matrix(n, k, 3);
            let want = q.dequantize(&Device::Cpu).unwrap().flatten_all().unwrap();
            let want = want.to_vec1::<f32>().unwrap();
            let ours = Q5_0Matrix::new(bytes).into_qtensor(&[n, k]).unwrap();
            let got = ours
                .dequantize(&Device::Cpu)
                .unwrap()
                .flatten_all()
                .unwrap();
            assert_eq!(want, got.to_vec1::<f32>().unwrap());
            let mm = candle_core::quantized::QMatMul::from_qtensor(ours).unwrap();
            let x = Tensor::from_vec(want[..k].to_vec(), (1, k), &Device::Cpu).unwrap();
            let y: Vec<f32> = candle_core::Module::forward(&mm, &x)
                .unwrap()
                .flatten_all()
                .unwrap()
                .to_vec1()
                .unwrap();
            // row 0 against itself is its squared norm
            let self_dot: f32 = want[..k].iter().map(|v| v * v).sum();
            assert!(
                (y[0] - self_dot).abs() < 0.02 * self_dot,
                "{} vs {self_dot}",
                y[0]
            );
        }
    }
}
