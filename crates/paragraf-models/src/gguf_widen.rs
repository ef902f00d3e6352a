//! Q5_0 weights read as Q8_0 on the CPU, losslessly.
//!
//! llama.cpp's k-quant mixes fall back to Q5_0 for matrices whose rows are not
//! a multiple of 256 values (Q4_K_M of Qwen2.5-0.5B: every matrix that reads
//! the 896-wide hidden state). candle 0.11 has no SIMD dot product for Q5_0;
//! its scalar one took 70 % of a decode step. A Q5_0 value is `(q - 16) · d`
//! with a 5-bit `q`; Q8_0 stores `q8 · d` with an 8-bit `q8`, so the same
//! scale and `q8 = q - 16` give exactly the same weights, for which candle
//! has AVX2 / AVX-512 VNNI kernels. The price is 34 instead of 22 bytes per 32
//! weights of those matrices; the GPU kernels handle Q5_0 and keep it.
//!
//! [`widen_q5_0`] changes the tensor table of a parsed GGUF and returns a
//! reader that serves the widened tensors from memory and every other byte
//! from the file, so only the widened tensors are held twice while loading.

use candle_core::quantized::gguf_file::Content;
use candle_core::quantized::GgmlDType;
use std::io::{self, Read, Seek, SeekFrom};

/// Bytes of one Q5_0 block: f16 scale, 32 high bits, 16 bytes of nibbles.
const Q5_0_BLOCK_BYTES: usize = 22;
/// Bytes of one Q8_0 block: f16 scale, 32 signed bytes.
const Q8_0_BLOCK_BYTES: usize = 34;
/// Values per block in both formats.
const BLOCK_VALUES: usize = 32;

/// Rewrites Q5_0 blocks as Q8_0 blocks with the same values.
pub(crate) fn q5_0_to_q8_0(src: &[u8]) -> Vec<u8> {
    let blocks = src.len() / Q5_0_BLOCK_BYTES;
    let mut out = Vec::with_capacity(blocks * Q8_0_BLOCK_BYTES);
    for b in src.chunks_exact(Q5_0_BLOCK_BYTES) {
        out.extend_from_slice(&b[0..2]); // the f16 scale, unchanged
        let qh = u32::from_le_bytes([b[2], b[3], b[4], b[5]]);
        let qs = &b[6..22];
        let mut q8 = [0u8; BLOCK_VALUES];
        for j in 0..BLOCK_VALUES / 2 {
            let lo = (qs[j] & 0x0f) | ((((qh >> j) & 1) as u8) << 4);
            let hi = (qs[j] >> 4) | ((((qh >> (j + 16)) & 1) as u8) << 4);
            q8[j] = (lo as i8 - 16) as u8;
            q8[j + BLOCK_VALUES / 2] = (hi as i8 - 16) as u8;
        }
        out.extend_from_slice(&q8);
    }
    out
}

/// Where a span of the rewritten tensor data comes from.
enum Source {
    /// Bytes at this offset of the original file.
    File(u64),
    /// The widened tensor with this index in [`WidenedReader::widened`].
    Memory(usize),
}

struct Segment {
    start: u64,
    len: u64,
    source: Source,
}

/// The tensor data of a GGUF after [`widen_q5_0`]: tensors at their new
/// offsets, widened ones from memory, the rest read through from the file.
pub(crate) struct WidenedReader<R> {
    inner: R,
    segments: Vec<Segment>,
    widened: Vec<Vec<u8>>,
    pos: u64,
}

/// Widens every Q5_0 tensor of `ct` to Q8_0 (see the module docs). Returns
/// `None`, leaving `ct` as it was, when the file has no Q5_0 tensor.
pub(crate) fn widen_q5_0<R: Read + Seek>(
    ct: &mut Content,
    mut file: R,
) -> io::Result<Option<WidenedReader<R>>> {
    if !ct
        .tensor_infos
        .values()
        .any(|i| i.ggml_dtype == GgmlDType::Q5_0)
    {
        return Ok(None);
    }
    let mut names: Vec<String> = ct.tensor_infos.keys().cloned().collect();
    // file order, ties by name: the new layout is deterministic
    names.sort_by(|a, b| {
        ct.tensor_infos[a]
            .offset
            .cmp(&ct.tensor_infos[b].offset)
            .then_with(|| a.cmp(b))
    });
    let (mut segments, mut widened) = (Vec::new(), Vec::new());
    let mut next = 0u64;
    for name in &names {
        let info = ct.tensor_infos.get_mut(name).expect("name from the map");
        let blocks = info.shape.elem_count() / info.ggml_dtype.block_size();
        let bytes = (blocks * info.ggml_dtype.type_size()) as u64;
        let file_at = ct.tensor_data_offset + info.offset;
        let (len, source) = if info.ggml_dtype == GgmlDType::Q5_0 {
            let mut raw = vec![0u8; bytes as usize];
            file.seek(SeekFrom::Start(file_at))?;
            file.read_exact(&mut raw)?;
            widened.push(q5_0_to_q8_0(&raw));
            info.ggml_dtype = GgmlDType::Q8_0;
            (
                (blocks * Q8_0_BLOCK_BYTES) as u64,
                Source::Memory(widened.len() - 1),
            )
        } else {
            (bytes, Source::File(file_at))
        };
        info.offset = next;
        segments.push(Segment {
            start: next,
            len,
            source,
        });
        // keep candle's 32-byte alignment of tensor data
        next = (next + len).div_ceil(32) * 32;
    }
    ct.tensor_data_offset = 0;
    Ok(Some(WidenedReader {
        inner: file,
        segments,
        widened,
        pos: 0,
    }))
}

impl<R: Read + Seek> Read for WidenedReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let at = self
            .segments
            .partition_point(|s| s.start + s.len <= self.pos);
        let Some(seg) = self.segments.get(at).filter(|s| s.start <= self.pos) else {
            // alignment padding or past the end: zeros, as in a GGUF file
            let n = match self.segments.get(at) {
                Some(s) => ((s.start - self.pos) as usize).min(buf.len()),
                None => 0,
            };
            buf[..n].fill(0);
            self.pos += n as u64;
            return Ok(n);
        };
        let within = self.pos - seg.start;
        let n = ((seg.len - within) as usize).min(buf.len());
        match seg.source {
            Source::Memory(i) => {
                let from = within as usize;
                buf[..n].copy_from_slice(&self.widened[i][from..from + n]);
            }
            Source::File(off) => {
                self.inner.seek(SeekFrom::Start(off + within))?;
                self.inner.read_exact(&mut buf[..n])?;
            }
        }
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R> Seek for WidenedReader<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let end = self.segments.last().map(|s| s.start + s.len).unwrap_or(0);
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => end.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::quantized::{GgmlDType, QTensor};
    use candle_core::{Device, Tensor};

    /// Values on Q5_0's grid (`(q - 16) · d`) quantize to Q5_0 exactly, and
    /// the widened Q8_0 blocks dequantize to the very same values.
    #[test]
    fn widened_blocks_hold_the_same_values() {
        let d = 0.037f32;
        let vals: Vec<f32> = (0..256)
            .map(|i| (((i * 7 + i / 32) % 32) as f32 - 16.0) * d)
            .collect();
        let t = Tensor::from_vec(vals, (4, 64), &Device::Cpu).unwrap();
        let q5 = QTensor::quantize(&t, GgmlDType::Q5_0).unwrap();
        let want = q5.dequantize(&Device::Cpu).unwrap().flatten_all().unwrap();
        let raw = q5.data().unwrap();
        let wide = q5_0_to_q8_0(&raw);
        assert_eq!(wide.len(), 8 * Q8_0_BLOCK_BYTES);
        let q8 = QTensor::new(
            candle_core::quantized::QStorage::from_data(
                std::borrow::Cow::Owned(wide),
                &Device::Cpu,
                GgmlDType::Q8_0,
            )
            .unwrap(),
            (4, 64),
        )
        .unwrap();
        let got = q8.dequantize(&Device::Cpu).unwrap().flatten_all().unwrap();
        let (want, got) = (
            want.to_vec1::<f32>().unwrap(),
            got.to_vec1::<f32>().unwrap(),
        );
        assert_eq!(want, got);
        assert!(
            want.iter().any(|v| *v < -15.0 * d),
            "the grid's low end is covered"
        );
    }

    /// The reader serves widened tensors from memory, the rest from the
    /// file, zero padding between them, at the offsets the table now names.
    #[test]
    fn reader_serves_the_new_layout() {
        let mut r = WidenedReader {
            inner: io::Cursor::new((0u8..100).collect::<Vec<u8>>()),
            segments: vec![
                Segment {
                    start: 0,
                    len: 10,
                    source: Source::File(50),
                },
                Segment {
                    start: 32,
                    len: 4,
                    source: Source::Memory(0),
                },
            ],
            widened: vec![vec![200, 201, 202, 203]],
            pos: 0,
        };
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!(all.len(), 36);
        assert_eq!(&all[..10], &(50u8..60).collect::<Vec<u8>>()[..]);
        assert!(all[10..32].iter().all(|b| *b == 0));
        assert_eq!(&all[32..], &[200, 201, 202, 203]);
        r.seek(SeekFrom::Start(5)).unwrap();
        let mut two = [0u8; 2];
        r.read_exact(&mut two).unwrap();
        assert_eq!(two, [55, 56]);
    }
}
