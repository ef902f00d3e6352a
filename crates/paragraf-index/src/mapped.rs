//! Slices that live either in memory or in a memory-mapped index file.
//!
//! An opened index keeps its bulk data — dense vectors, heading vectors,
//! postings — in the mapped file instead of copying it onto the heap: the
//! pages are the kernel's page cache, shared by every replica that serves
//! the same immutable directory, and clean (dropped under memory pressure and
//! read again on demand) instead of anonymous memory. A freshly built index
//! holds its data in memory; both read as the same `&[T]`.
//!
//! A mapped slice needs the file's bytes to be the in-memory layout of `T`:
//! little-endian and aligned to `T`. Where that does not hold (a big-endian
//! host, an odd offset, f16 vectors) the reader decodes into memory instead.

use bytemuck::Pod;
use memmap2::Mmap;
use std::marker::PhantomData;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A read-only `[T]` in memory or in a mapped file.
pub enum Slab<T: Pod> {
    Owned(Vec<T>),
    Mapped {
        map: Arc<Mmap>,
        /// Byte range of the values in `map`.
        bytes: Range<usize>,
        _t: PhantomData<T>,
    },
}

impl<T: Pod> Slab<T> {
    /// The values at byte range `bytes` of `map`, read in place; `None` when
    /// the host is big-endian, the range is out of bounds, or it is not a
    /// whole number of aligned `T`.
    pub fn mapped(map: &Arc<Mmap>, bytes: Range<usize>) -> Option<Slab<T>> {
        if cfg!(target_endian = "big") {
            return None;
        }
        let raw = map.get(bytes.clone())?;
        bytemuck::try_cast_slice::<u8, T>(raw).ok()?;
        Some(Slab::Mapped {
            map: Arc::clone(map),
            bytes,
            _t: PhantomData,
        })
    }

    /// The byte range of `part`, a sub-slice of `map` (what a decoder read
    /// through a `&[u8]` of the whole file).
    pub fn range_in(map: &Mmap, part: &[u8]) -> Option<Range<usize>> {
        let base = map.as_ptr() as usize;
        let start = (part.as_ptr() as usize).checked_sub(base)?;
        let end = start.checked_add(part.len())?;
        (end <= map.len()).then_some(start..end)
    }

    /// Whether the values are read from a mapped file.
    pub fn is_mapped(&self) -> bool {
        matches!(self, Slab::Mapped { .. })
    }
}

impl<T: Pod> Deref for Slab<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Slab::Owned(v) => v,
            // checked in `mapped`; the map never changes
            Slab::Mapped { map, bytes, .. } => bytemuck::cast_slice(&map[bytes.clone()]),
        }
    }
}

impl<T: Pod> Default for Slab<T> {
    fn default() -> Self {
        Slab::Owned(Vec::new())
    }
}

impl<T: Pod> Clone for Slab<T> {
    fn clone(&self) -> Self {
        match self {
            Slab::Owned(v) => Slab::Owned(v.clone()),
            Slab::Mapped { map, bytes, .. } => Slab::Mapped {
                map: Arc::clone(map),
                bytes: bytes.clone(),
                _t: PhantomData,
            },
        }
    }
}

impl<T: Pod + PartialEq> PartialEq for Slab<T> {
    fn eq(&self, o: &Self) -> bool {
        **self == **o
    }
}

impl<T: Pod> std::fmt::Debug for Slab<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.is_mapped() { "mapped" } else { "owned" };
        write!(f, "Slab({kind}, {} values)", self.len())
    }
}

impl<T: Pod> From<Vec<T>> for Slab<T> {
    fn from(v: Vec<T>) -> Self {
        Slab::Owned(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn map_of(bytes: &[u8]) -> Arc<Mmap> {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        // SAFETY: a private temp file nobody else writes.
        Arc::new(unsafe { Mmap::map(&f) }.unwrap())
    }

    #[test]
    fn a_mapped_slab_reads_the_file_in_place() {
        let vals = [1.5f32, -2.0, 0.25];
        let mut bytes = vec![0u8; 4];
        bytes.extend(vals.iter().flat_map(|v| v.to_le_bytes()));
        let map = map_of(&bytes);
        let s = Slab::<f32>::mapped(&map, 4..16).unwrap();
        assert!(s.is_mapped());
        assert_eq!(&*s, &vals);
        assert_eq!(s, Slab::from(vals.to_vec()));
        assert_eq!(Slab::<u8>::range_in(&map, &map[4..10]), Some(4..10));
    }

    #[test]
    fn misaligned_or_partial_ranges_are_refused() {
        let map = map_of(&[0u8; 16]);
        assert!(Slab::<f32>::mapped(&map, 1..9).is_none());
        assert!(Slab::<f32>::mapped(&map, 0..6).is_none());
        assert!(Slab::<f32>::mapped(&map, 8..20).is_none());
        assert!(Slab::<u8>::range_in(&map, &[1, 2]).is_none());
    }
}
