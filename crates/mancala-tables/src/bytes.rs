//! Tier-sized byte arrays.

use std::sync::atomic::{AtomicI8, AtomicU8};

/// A zeroed byte array in anonymous memory, backed by huge pages where the kernel allows:
/// the solver's random accesses then miss the TLB far less often.
pub struct Bytes {
    map: memmap2::MmapMut,
    len: usize,
}

impl Bytes {
    /// `n` zeroed bytes, or an error of kind [`std::io::ErrorKind::OutOfMemory`] if the
    /// memory cannot be had (an address-space limit such as `ulimit -v`, or no overcommit):
    /// a tier's arrays are the biggest allocations, and their failure is the caller's error
    /// to report, not a panic.
    pub(crate) fn zeroed(n: usize) -> std::io::Result<Bytes> {
        let map = memmap2::MmapMut::map_anon(n.max(1)).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                format!(
                    "{} MB of memory could not be had ({e})",
                    n.div_ceil(1 << 20)
                ),
            )
        })?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Bytes { map, len: n })
    }

    /// A copy of `src`, copied in parallel runs in order (each run's source pages are read
    /// ahead as one stream). An error if the memory cannot be had.
    pub(crate) fn copy_of(src: &[u8]) -> std::io::Result<Bytes> {
        use rayon::prelude::*;
        const RUN: usize = 1 << 24;
        let mut copy = Bytes::zeroed(src.len())?;
        copy.bytes_mut()
            .par_chunks_mut(RUN)
            .zip(src.par_chunks(RUN))
            .for_each(|(to, from)| to.copy_from_slice(from));
        Ok(copy)
    }

    /// The bytes as atomics, for the parallel phases.
    pub(crate) fn atomic_bytes(&mut self) -> &[AtomicU8] {
        atomic(self.bytes_mut())
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map[..self.len]
    }

    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.bytes()
    }
}

/// `bytes` as atomics, for the parallel phases.
pub(crate) fn atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    let ptr = bytes.as_mut_ptr() as *const AtomicU8;
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and the exclusive
    // borrow of `bytes` keeps every other access out for the slice's lifetime.
    unsafe { std::slice::from_raw_parts(ptr, bytes.len()) }
}

/// `bytes` as signed atomics, for the parallel phases.
pub(crate) fn atomic_signed(bytes: &mut [u8]) -> &[AtomicI8] {
    let ptr = bytes.as_mut_ptr() as *const AtomicI8;
    // SAFETY: as for `atomic`: AtomicI8 has the size, alignment and bit validity of u8.
    unsafe { std::slice::from_raw_parts(ptr, bytes.len()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Memory that cannot be had is an error of kind `OutOfMemory` that says how much, not a
    /// panic (more than any address space: 2^62 bytes).
    #[test]
    fn memory_that_cannot_be_had_is_an_error() {
        let e = Bytes::zeroed(1 << 62)
            .err()
            .expect("2^62 bytes are refused");
        assert_eq!(e.kind(), std::io::ErrorKind::OutOfMemory);
        assert!(
            e.to_string().starts_with("4398046511104 MB of memory"),
            "{e}"
        );
        let small = Bytes::zeroed(3).unwrap();
        assert_eq!(small.bytes(), &[0, 0, 0]);
    }
}
