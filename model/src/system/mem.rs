//! Lazily allocated memories: an SBUF whose partitions are allocated on first
//! write (reads of an untouched partition return zeros), and a sparse paged
//! RAM for descriptor rings. A 64-die system therefore costs memory only for
//! the bytes it touches.

use rustc_hash::FxHashMap as HashMap;

use crate::datapath::ZeroedBuf;
use crate::pair::sram::{WordStore, WORD_BYTES};
use crate::udma::beat::{Beat, ZERO};

use super::topology::SBUF_PARTITIONS;
use super::{ReduceFn, SystemError};

/// One core's SBUF: 128 partitions of `bytes_per_partition`. The bytes are
/// one contiguous [`ZeroedBuf`] (huge-page advised), reserved on the first write; a
/// partition counts as allocated (and reads other than zero) from its first
/// write on.
pub struct Sbuf {
    bytes_per_partition: u32,
    mem: Option<ZeroedBuf>,
    touched: Vec<bool>,
}

impl std::fmt::Debug for Sbuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sbuf")
            .field("bytes_per_partition", &self.bytes_per_partition)
            .field("allocated_bytes", &self.allocated_bytes())
            .finish()
    }
}

impl Clone for Sbuf {
    /// A copy of the written partitions (untouched ones stay unbacked).
    fn clone(&self) -> Self {
        let mut c = Sbuf::new(self.bytes_per_partition);
        for p in 0..SBUF_PARTITIONS as u8 {
            if let Some(b) = self.part(p) {
                if let Some(d) = c.part_mut(p) {
                    d.copy_from_slice(b);
                }
            }
        }
        c
    }
}

impl Sbuf {
    /// An SBUF with no partition allocated.
    pub fn new(bytes_per_partition: u32) -> Self {
        Self {
            bytes_per_partition,
            mem: None,
            touched: vec![false; usize::from(SBUF_PARTITIONS)],
        }
    }

    /// Bytes per partition.
    pub fn bytes_per_partition(&self) -> u32 {
        self.bytes_per_partition
    }

    /// Bytes of the partitions written so far.
    pub fn allocated_bytes(&self) -> u64 {
        self.touched.iter().filter(|&&t| t).count() as u64 * u64::from(self.bytes_per_partition)
    }

    /// The byte range of partition `p` in the region.
    fn span(&self, p: u8) -> std::ops::Range<usize> {
        let bpp = self.bytes_per_partition as usize;
        usize::from(p) * bpp..(usize::from(p) + 1) * bpp
    }

    /// Partition `p`'s bytes, if it was ever written (`None` = all zero, or
    /// no such partition).
    pub(crate) fn part(&self, p: u8) -> Option<&[u8]> {
        if !self.touched.get(usize::from(p)).copied().unwrap_or(false) {
            return None;
        }
        let r = self.span(p);
        self.mem.as_ref().map(|m| &m[r])
    }

    /// Partition `p`'s bytes, marking it written (`None`: no such partition).
    pub(crate) fn partition_mut(&mut self, p: u8) -> Option<&mut [u8]> {
        self.part_mut(p)
    }

    fn part_mut(&mut self, p: u8) -> Option<&mut [u8]> {
        *self.touched.get_mut(usize::from(p))? = true;
        let r = self.span(p);
        let n = self.bytes_per_partition as usize * usize::from(SBUF_PARTITIONS);
        let m = self.mem.get_or_insert_with(|| ZeroedBuf::zeroed(n));
        Some(&mut m[r])
    }

    /// Partition `src` (if written) and partition `dst` (marked written) of
    /// this SBUF at once; `src != dst`.
    pub(crate) fn two_parts(&mut self, src: u8, dst: u8) -> (Option<&[u8]>, Option<&mut [u8]>) {
        let src_live = src != dst && self.part(src).is_some();
        if self.part_mut(dst).is_none() {
            return (None, None);
        }
        let (rs, rd) = (self.span(src), self.span(dst));
        let Some(m) = self.mem.as_mut() else {
            return (None, None);
        };
        let b: &mut [u8] = m;
        if rs.start < rd.start {
            let (lo, hi) = b.split_at_mut(rd.start);
            let s = src_live.then(|| &lo[rs]);
            (s, Some(&mut hi[..rd.end - rd.start]))
        } else {
            let (lo, hi) = b.split_at_mut(rs.start);
            let s = src_live.then(|| &hi[..rs.end - rs.start]);
            (s, Some(&mut lo[rd]))
        }
    }

    /// Check that `[offset, offset+len)` lies in partition `partition`.
    pub fn check(&self, partition: u8, offset: u64, len: u64) -> Result<(), SystemError> {
        let bpp = self.bytes_per_partition;
        if u16::from(partition) >= SBUF_PARTITIONS
            || offset.checked_add(len).is_none_or(|e| e > u64::from(bpp))
        {
            return Err(SystemError::SbufRange {
                partition,
                offset,
                len,
                bytes_per_partition: bpp,
            });
        }
        Ok(())
    }

    /// Read bytes (zeros where never written).
    pub fn read(&self, partition: u8, offset: u64, out: &mut [u8]) -> Result<(), SystemError> {
        self.check(partition, offset, out.len() as u64)?;
        match self.part(partition) {
            Some(p) => out.copy_from_slice(&p[offset as usize..offset as usize + out.len()]),
            None => out.fill(0),
        }
        Ok(())
    }

    /// The bytes of a range, if the partition is allocated (`None` = all zero).
    pub fn slice(
        &self,
        partition: u8,
        offset: u64,
        len: u64,
    ) -> Result<Option<&[u8]>, SystemError> {
        self.check(partition, offset, len)?;
        Ok(self
            .part(partition)
            .map(|p| &p[offset as usize..(offset + len) as usize]))
    }

    /// Mutable bytes of a range, allocating the partition.
    pub fn slice_mut(
        &mut self,
        partition: u8,
        offset: u64,
        len: u64,
    ) -> Result<&mut [u8], SystemError> {
        self.check(partition, offset, len)?;
        let bytes_per_partition = self.bytes_per_partition;
        let p = self.part_mut(partition).ok_or(SystemError::SbufRange {
            partition,
            offset,
            len,
            bytes_per_partition,
        })?;
        Ok(&mut p[offset as usize..(offset + len) as usize])
    }

    /// Write bytes.
    pub fn write(&mut self, partition: u8, offset: u64, data: &[u8]) -> Result<(), SystemError> {
        self.slice_mut(partition, offset, data.len() as u64)?
            .copy_from_slice(data);
        Ok(())
    }

    /// The address of partition `partition`'s bytes, allocating it when
    /// `alloc` (else `None` for an untouched partition, which reads as
    /// zeros). For the fast executor's batched moves (`system::fast`),
    /// which write disjoint ranges of several partitions from several
    /// threads; the region is not moved or freed while the address is in use.
    pub(crate) fn part_ptr(&mut self, partition: u8, alloc: bool) -> Option<*mut u8> {
        if alloc {
            self.part_mut(partition).map(|p| p.as_mut_ptr())
        } else {
            self.part(partition)?;
            let r = self.span(partition);
            self.mem.as_mut().map(|m| m[r].as_mut_ptr())
        }
    }

    /// A digest-friendly image: every partition's bytes (zeros if untouched).
    pub fn image(&self) -> Vec<u8> {
        let bpp = self.bytes_per_partition as usize;
        let mut v = Vec::with_capacity(bpp * usize::from(SBUF_PARTITIONS));
        for p in 0..SBUF_PARTITIONS as u8 {
            match self.part(p) {
                Some(b) => v.extend_from_slice(b),
                None => v.resize(v.len() + bpp, 0),
            }
        }
        v
    }

    /// Whether two SBUFs hold the same bytes (untouched = zero).
    pub fn same_bytes(&self, other: &Sbuf) -> bool {
        if self.bytes_per_partition != other.bytes_per_partition {
            return false;
        }
        (0..SBUF_PARTITIONS as u8).all(|p| match (self.part(p), other.part(p)) {
            (Some(a), Some(b)) => a == b,
            (Some(x), None) | (None, Some(x)) => x.iter().all(|&v| v == 0),
            (None, None) => true,
        })
    }
}

/// A receive range of a reducing leg in flight: S2M writes landing in
/// partitions `parts` at bytes `bytes` of each are folded with `f` instead of
/// copied (the system model's reducing receive, docs/system.md).
#[derive(Clone)]
pub struct RxReduce {
    /// Partitions `[start, end)`.
    pub parts: (u8, u16),
    /// Byte range `[start, end)` inside each partition.
    pub bytes: (u64, u64),
    /// `None`: a later plain-copy leg into the same range (it wins).
    pub f: Option<ReduceFn>,
}

/// The SBUF as the word array of the core's SBUF `axi4_sram` FSM
/// ([`crate::pair::sram::Sram`]) in cycle mode: word `w` ([`WORD_BYTES`]
/// bytes, one beat of the core's data bus) is byte `WORD_BYTES × w` of the
/// partitions' windows laid end to end (the interconnect's SBUF word index:
/// partition `p`'s window at `p × win_bytes`, its byte `r` at SBUF offset
/// `win_base + r`, `CoreParams::sbuf_win_base` / `sbuf_part_bytes`). Reads
/// of an untouched partition are zero; a write allocates it. Writes inside a
/// range of `reduce` (the last matching entry wins) fold each strobed byte
/// run with the leg's reduce function; its error is kept in `err`.
pub struct SbufWords<'a> {
    pub sbuf: &'a mut Sbuf,
    /// First SBUF offset of each partition's window.
    pub win_base: u32,
    /// Bytes of each partition's window.
    pub win_bytes: u32,
    pub reduce: &'a [RxReduce],
    pub err: &'a mut Option<String>,
}

impl SbufWords<'_> {
    /// (partition, SBUF offset) of word `word`'s first byte.
    fn at(&self, word: u32) -> (u64, u64) {
        let a = u64::from(word) * u64::from(WORD_BYTES);
        let w = u64::from(self.win_bytes);
        (a / w, a % w + u64::from(self.win_base))
    }
}

impl WordStore for SbufWords<'_> {
    fn words(&self) -> u32 {
        (u64::from(self.win_bytes) * u64::from(SBUF_PARTITIONS) / u64::from(WORD_BYTES)) as u32
    }

    fn read(&self, word: u32) -> Beat {
        let (p, o) = self.at(word);
        let o = o as usize;
        let mut b = ZERO;
        if let Some(w) = u8::try_from(p)
            .ok()
            .and_then(|p| self.sbuf.part(p))
            .and_then(|part| part.get(o..o + WORD_BYTES as usize))
        {
            for (d, c) in b.iter_mut().zip(w.chunks_exact(8)) {
                *d = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            }
        }
        b
    }

    fn write(&mut self, word: u32, data: &Beat, strb: u64) {
        if strb == 0 {
            return;
        }
        let (p, o) = self.at(word);
        let Ok(p) = u8::try_from(p) else {
            return;
        };
        let n = WORD_BYTES as usize;
        let Ok(dst) = self.sbuf.slice_mut(p, o, n as u64) else {
            return;
        };
        let mut src = [0u8; WORD_BYTES as usize];
        for (c, d) in src.chunks_exact_mut(8).zip(data) {
            c.copy_from_slice(&d.to_le_bytes());
        }
        let mut i = 0usize;
        while i < n {
            if strb >> i & 1 == 0 {
                i += 1;
                continue;
            }
            let s = i;
            while i < n && strb >> i & 1 != 0 {
                i += 1;
            }
            let (lo, hi) = (o + s as u64, o + i as u64);
            let f = self
                .reduce
                .iter()
                .rev()
                .find(|r| {
                    u16::from(p) >= u16::from(r.parts.0)
                        && u16::from(p) < r.parts.1
                        && lo >= r.bytes.0
                        && hi <= r.bytes.1
                })
                .and_then(|r| r.f.as_ref());
            match f {
                Some(f) => {
                    if let Err(e) = f(&mut dst[s..i], &src[s..i]) {
                        self.err.get_or_insert(e);
                    }
                }
                None => dst[s..i].copy_from_slice(&src[s..i]),
            }
        }
    }
}

/// The descriptor RAM as the word array of the core's descriptor
/// `axi4_sram` FSM in cycle mode (word `w` = byte `WORD_BYTES × w` of the RAM).
pub struct DescWords<'a>(pub &'a mut SparseMem);

impl WordStore for DescWords<'_> {
    fn words(&self) -> u32 {
        (super::map::CORE_DESC_BYTES / u64::from(WORD_BYTES)) as u32
    }

    fn read(&self, word: u32) -> Beat {
        let mut b = [0u8; WORD_BYTES as usize];
        self.0.read(word * WORD_BYTES, &mut b);
        let mut w = ZERO;
        for (d, c) in w.iter_mut().zip(b.chunks_exact(8)) {
            *d = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        }
        w
    }

    fn write(&mut self, word: u32, data: &Beat, strb: u64) {
        let mut b = [0u8; WORD_BYTES as usize];
        if strb != crate::pair::sram::STRB_ALL {
            self.0.read(word * WORD_BYTES, &mut b);
        }
        for (k, c) in b.chunks_exact_mut(8).enumerate() {
            let old = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            let mask = crate::pair::sram::strb_mask(strb >> (8 * k));
            c.copy_from_slice(&((old & !mask) | (data[k] & mask)).to_le_bytes());
        }
        self.0.write(word * WORD_BYTES, &b);
    }
}

/// Page size of [`SparseMem`].
pub const PAGE: usize = 4096;

/// A sparse byte-addressed RAM of 4 KiB pages (zeros where never written).
#[derive(Debug, Clone, Default)]
pub struct SparseMem {
    pages: HashMap<u32, Box<[u8; PAGE]>>,
}

impl SparseMem {
    /// Read `out.len()` bytes at `addr`.
    pub fn read(&self, addr: u32, out: &mut [u8]) {
        let mut a = addr as usize;
        let mut done = 0;
        while done < out.len() {
            let (pg, off) = ((a / PAGE) as u32, a % PAGE);
            let n = (PAGE - off).min(out.len() - done);
            match self.pages.get(&pg) {
                Some(p) => out[done..done + n].copy_from_slice(&p[off..off + n]),
                None => out[done..done + n].fill(0),
            }
            done += n;
            a += n;
        }
    }

    /// Write `data` at `addr`.
    pub fn write(&mut self, addr: u32, data: &[u8]) {
        let mut a = addr as usize;
        let mut done = 0;
        while done < data.len() {
            let (pg, off) = ((a / PAGE) as u32, a % PAGE);
            let n = (PAGE - off).min(data.len() - done);
            let p = self
                .pages
                .entry(pg)
                .or_insert_with(|| Box::new([0u8; PAGE]));
            p[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
            a += n;
        }
    }

    /// Read a little-endian u32.
    pub fn read_u32(&self, addr: u32) -> u32 {
        let mut b = [0u8; 4];
        self.read(addr, &mut b);
        u32::from_le_bytes(b)
    }

    /// Bytes allocated.
    pub fn allocated_bytes(&self) -> u64 {
        (self.pages.len() * PAGE) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sbuf_is_lazy_and_reads_zero_until_written() {
        let mut s = Sbuf::new(1024);
        assert_eq!(s.allocated_bytes(), 0);
        let mut b = [1u8; 8];
        s.read(5, 0, &mut b).unwrap();
        assert_eq!(b, [0; 8]);
        s.write(5, 1016, &[9; 8]).unwrap();
        assert_eq!(s.allocated_bytes(), 1024);
        s.read(5, 1016, &mut b).unwrap();
        assert_eq!(b, [9; 8]);
        assert!(s.write(5, 1017, &[9; 8]).is_err());
        assert!(s.read(128, 0, &mut b).is_err());
        assert!(Sbuf::new(1024).same_bytes(&Sbuf::new(1024)));
        assert!(!s.same_bytes(&Sbuf::new(1024)));
    }

    /// `two_parts` hands out the right partitions whichever lies lower in
    /// the region, reads an unwritten source as absent, and marks only the
    /// destination written.
    #[test]
    fn two_parts_are_the_named_partitions_in_either_order() {
        let mut s = Sbuf::new(4096);
        s.write(2, 0, &[7; 16]).unwrap();
        s.write(9, 100, &[5; 16]).unwrap();
        for (src, dst, want) in [(2u8, 9u8, 7u8), (9, 2, 0)] {
            let (a, b) = s.two_parts(src, dst);
            let (a, b) = (a.unwrap(), b.unwrap());
            assert_eq!((a.len(), b.len()), (4096, 4096));
            assert_eq!(a[..16], [if src == 2 { 7 } else { 0 }; 16]);
            b[200..216].copy_from_slice(&a[..16]);
            assert_eq!(s.slice(dst, 200, 16).unwrap().unwrap(), &[want; 16]);
        }
        let (a, b) = s.two_parts(40, 41);
        assert!(a.is_none(), "an unwritten source partition reads as absent");
        assert!(b.is_some());
        assert_eq!(s.allocated_bytes(), 3 * 4096, "partitions 2, 9 and 41");
        assert!(s.two_parts(1, 128).1.is_none(), "no partition 128");
    }

    /// A clone carries the written partitions' bytes and nothing else, and
    /// is independent of the original.
    #[test]
    fn a_clone_holds_the_written_partitions_only() {
        let mut s = Sbuf::new(2048);
        s.write(127, 2040, &[3; 8]).unwrap();
        let mut c = s.clone();
        assert!(c.same_bytes(&s));
        assert_eq!(c.allocated_bytes(), 2048);
        assert_eq!(c.image(), s.image());
        c.write(0, 0, &[1]).unwrap();
        assert!(!c.same_bytes(&s));
        assert_eq!(s.slice(0, 0, 1).unwrap(), None);
        assert_eq!(s.part_ptr(5, false), None);
        assert!(s.part_ptr(5, true).is_some());
        assert_eq!(s.allocated_bytes(), 2 * 2048);
    }

    #[test]
    fn sparse_mem_spans_pages() {
        let mut m = SparseMem::default();
        let data: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
        m.write(4090, &data);
        let mut out = vec![0u8; 10_000];
        m.read(4090, &mut out);
        assert_eq!(out, data);
        assert_eq!(m.allocated_bytes(), 4 * PAGE as u64);
        assert_eq!(m.read_u32(1 << 20), 0);
    }
}
