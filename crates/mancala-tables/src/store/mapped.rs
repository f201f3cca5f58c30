//! A table file mapped into memory, whose reads can be made to survive a change of the file
//! in place.
//!
//! Tables are written under another name and renamed into place, so a file that is open is
//! never changed by this program. An operator can change one all the same: `truncate` it, or
//! `cp` another file over it (which truncates it, then writes). A read of a mapped page that
//! the file no longer holds is then a `SIGBUS`, which ends the process: a server that has had
//! its tables open for days dies without a word. A read of a page that was overwritten gives
//! the new file's bytes, which are not the values of the table that was opened.
//!
//! So a reader that must stay up ([`crate::Watching::On`]: the oracle, and through it the
//! web server and the commands that answer questions) has its maps *watched*: their address
//! ranges are listed where a `SIGBUS` handler, installed at the first watch, can find them.
//! On a fault inside a watched map the handler puts zero-filled anonymous pages in place of
//! the whole map and marks it, and the read that faulted, done again, reads 0 (as does every
//! later read: nothing is taken from the changed file any more). A fault anywhere else goes
//! to the handler that was there before (the standard library's, which tells a stack
//! overflow, or the default action), as if this one did not exist. A reader checks its
//! tables after each answer ([`crate::Tables::unchanged`]): a marked map, a header that is no
//! longer the one read at opening, or a headerless (published) file whose size or time
//! stamps changed, is [`crate::FileError::Changed`], and the answer is not given. The hot
//! path (a probe is one byte read from the map) is untouched.
//!
//! A map that is not watched (the builder's, the verifier's) faults as before: a process
//! that writes what it reads must not go on from zeros.

use memmap2::Mmap;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A read-only map of a whole file, watched or not.
pub(crate) struct FileMap {
    /// Declared first, so dropped first: the map leaves the list before it is unmapped, so
    /// the handler never acts on an address range that may already be someone else's.
    watch: Option<Watch>,
    map: Mmap,
}

impl FileMap {
    /// Pages read in from disk through the map then come into the page cache as 2 MB folios,
    /// which this and every later process maps whole (one fault and one TLB entry each instead
    /// of 512): a search's probes land at random in gigabytes of tables. A kernel that cannot
    /// do it for files refuses the advice, and nothing changes.
    pub(crate) fn new(map: Mmap) -> FileMap {
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        FileMap { watch: None, map }
    }

    /// Makes a fault inside this map (its file truncated under it) read zeros and mark it,
    /// instead of ending the process. `false` if it cannot be watched (no room left in the
    /// list, or a platform without the handler): it then faults as any map does.
    pub(crate) fn watch(&mut self) -> bool {
        if self.watch.is_none() && !self.map.is_empty() {
            self.watch = Watch::new(self.map.as_ptr() as usize, self.map.len());
        }
        self.watch.is_some()
    }

    /// Is the map watched?
    pub(crate) fn watched(&self) -> bool {
        self.watch.is_some()
    }

    /// Did a read of this map fault since it was watched (its file was cut short under it)?
    /// Its bytes are then zeros.
    pub(crate) fn faulted(&self) -> bool {
        self.watch.as_ref().is_some_and(Watch::faulted)
    }

    /// The map itself, for advice to the kernel.
    pub(crate) fn map(&self) -> &Mmap {
        &self.map
    }

    /// Reads the whole file into memory through the map, in order, `step` bytes at a time,
    /// calling `done` with the bytes read after each step; false if it stopped short. A reader
    /// that will probe the file at random later (a server after a reboot) then finds every
    /// page in the page cache instead of waiting on the disk once a probe, and where the
    /// kernel maps files in huge pages the pages come in as 2 MB folios (see [`FileMap::new`]).
    ///
    /// The kernel is asked to populate each step (`MADV_POPULATE_READ`, Linux 5.14 and
    /// later), which answers an error, never a fault, for pages the file no longer has: the
    /// reading then stops. Where the advice is unknown, the pages of a watched map are touched
    /// one by one instead (a file cut short meanwhile then turns the whole map into zeros and
    /// marks it, as any read of it would); an unwatched map is left alone, since a touch past
    /// the end of its file would end the process.
    pub(crate) fn warm(&self, step: usize, done: &mut dyn FnMut(u64)) -> bool {
        let page = page_size();
        let step = step.max(page) / page * page;
        let mut at = 0;
        while at < self.map.len() {
            let len = step.min(self.map.len() - at);
            #[cfg(target_os = "linux")]
            let populated = match self
                .map
                .advise_range(memmap2::Advice::PopulateRead, at, len)
            {
                Ok(()) => true,
                Err(e) if e.raw_os_error() == Some(libc::EINVAL) => false,
                // Cut short (EFAULT), unreadable (EIO), interrupted: stop here.
                Err(_) => return false,
            };
            #[cfg(not(target_os = "linux"))]
            let populated = false;
            if !populated {
                if !self.watched() {
                    return false;
                }
                for i in (at..at + len).step_by(page) {
                    // SAFETY: `i` is inside the map, which is watched: a fault there (its file
                    // cut short) is handled, not fatal. A volatile read is not optimised away.
                    unsafe { std::ptr::read_volatile(self.map.as_ptr().add(i)) };
                }
                if self.faulted() {
                    return false;
                }
            }
            at += len;
            done(len as u64);
        }
        true
    }
}

/// The size of a memory page.
fn page_size() -> usize {
    // SAFETY: `sysconf` only reads a system setting.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size)
        .ok()
        .filter(|&s| s > 0)
        .unwrap_or(4096)
}

impl Deref for FileMap {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

/// Address ranges watched at most at once. Each open tier of a reader takes one: a server
/// keeps at most 16 rule sets open, each with a reader and a searcher over at most ~50 tiers
/// (1,600), and opens one more set at a time while it lists its sets for a page or reads
/// them into memory at its start.
const SLOTS: usize = 4096;

/// One watched range: `start` is 0 while the slot is free. A slot is claimed through `used`,
/// then `len` is set, then `start` (so the handler, which reads `start` first, sees a whole
/// entry); it is freed in the other order.
struct Slot {
    used: AtomicBool,
    start: AtomicUsize,
    len: AtomicUsize,
    /// Set by the handler when it replaced the range; cleared when the slot is claimed.
    faulted: AtomicBool,
}

#[allow(clippy::declare_interior_mutable_const)]
const FREE: Slot = Slot {
    used: AtomicBool::new(false),
    start: AtomicUsize::new(0),
    len: AtomicUsize::new(0),
    faulted: AtomicBool::new(false),
};

static SLOT: [Slot; SLOTS] = [FREE; SLOTS];

/// A range in the list, taken out when dropped.
struct Watch {
    slot: usize,
}

impl Watch {
    fn new(start: usize, len: usize) -> Option<Watch> {
        if !handler::install() {
            return None;
        }
        let slot = SLOT.iter().position(|s| {
            s.used
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        })?;
        let s = &SLOT[slot];
        s.faulted.store(false, Ordering::Release);
        s.len.store(len, Ordering::Release);
        s.start.store(start, Ordering::Release);
        Some(Watch { slot })
    }

    fn faulted(&self) -> bool {
        SLOT[self.slot].faulted.load(Ordering::Acquire)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let s = &SLOT[self.slot];
        s.start.store(0, Ordering::Release);
        s.len.store(0, Ordering::Release);
        s.used.store(false, Ordering::Release);
    }
}

/// The slot whose range holds `addr`, if any (read by the handler: atomics only).
fn slot_of(addr: usize) -> Option<&'static Slot> {
    SLOT.iter().find(|s| {
        let start = s.start.load(Ordering::Acquire);
        start != 0 && addr >= start && addr - start < s.len.load(Ordering::Acquire)
    })
}

#[cfg(any(target_os = "linux", target_os = "macos", target_os = "freebsd"))]
mod handler {
    use super::slot_of;
    use std::sync::atomic::Ordering;
    use std::sync::OnceLock;

    /// What handled `SIGBUS` before this module's handler: called for faults outside the
    /// watched ranges.
    struct Previous(libc::sigaction);
    // SAFETY: a plain record of a handler's address and flags, read only once set.
    unsafe impl Send for Previous {}
    unsafe impl Sync for Previous {}

    static PREVIOUS: OnceLock<Option<Previous>> = OnceLock::new();

    /// Installs the handler once; `false` if the system refused it.
    pub(super) fn install() -> bool {
        PREVIOUS
            .get_or_init(|| {
                // SAFETY: `sigaction` with valid pointers; the old action is read before the
                // new one is set, so that the handler finds it from its first fault on.
                unsafe {
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut old) != 0 {
                        return None;
                    }
                    let mut new: libc::sigaction = std::mem::zeroed();
                    new.sa_sigaction = on_sigbus as *const () as usize;
                    new.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                    libc::sigemptyset(&mut new.sa_mask);
                    let previous = Previous(old);
                    if libc::sigaction(libc::SIGBUS, &new, std::ptr::null_mut()) != 0 {
                        return None;
                    }
                    Some(previous)
                }
            })
            .is_some()
    }

    #[cfg(target_os = "linux")]
    const NORESERVE: libc::c_int = libc::MAP_NORESERVE;
    #[cfg(not(target_os = "linux"))]
    const NORESERVE: libc::c_int = 0;

    /// The handler. Inside a watched range: zero pages over the whole range (so the faulting
    /// read, done again, and every later one read 0), the range marked, and return. Elsewhere:
    /// the previous handler.
    extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid `siginfo_t` to an `SA_SIGINFO` handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        if let Some(slot) = slot_of(addr) {
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Acquire);
            // SAFETY: the range is a read-only map this process made and still holds (a
            // watch leaves the list before its map is unmapped); putting anonymous pages at
            // its place changes what it reads, nothing else. `mmap` is a plain system call.
            let p = unsafe {
                libc::mmap(
                    start as *mut libc::c_void,
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED | NORESERVE,
                    -1,
                    0,
                )
            };
            if p != libc::MAP_FAILED {
                slot.faulted.store(true, Ordering::Release);
                return;
            }
        }
        previous(sig, info, ctx);
    }

    /// Hands a fault that is not in a watched range to what handled `SIGBUS` before; with
    /// the default action, puts it back and returns, so that the read faults again and the
    /// process ends as it would have without this module.
    fn previous(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let Some(Some(Previous(old))) = PREVIOUS.get() else {
            return default(sig);
        };
        let h = old.sa_sigaction;
        if h == libc::SIG_DFL || h == libc::SIG_IGN {
            return default(sig);
        }
        // SAFETY: `h` is the address of the handler that was installed for `SIGBUS`, with
        // the signature its flags say.
        unsafe {
            if old.sa_flags & libc::SA_SIGINFO != 0 {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(h);
                f(sig, info, ctx);
            } else {
                let f: extern "C" fn(libc::c_int) = std::mem::transmute(h);
                f(sig);
            }
        }
    }

    fn default(sig: libc::c_int) {
        // SAFETY: `sigaction` with valid pointers, async-signal-safe.
        unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigemptyset(&mut dfl.sa_mask);
            libc::sigaction(sig, &dfl, std::ptr::null_mut());
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "freebsd")))]
mod handler {
    /// No handler here: maps are not watched and fault as any map does.
    pub(super) fn install() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A watched map of a file cut short under it reads zeros where the file is gone and is
    /// marked; the process goes on. (Without the watch, the read below ends the test process
    /// with SIGBUS.)
    #[test]
    fn a_watched_map_survives_its_file_cut_short() {
        let dir = std::env::temp_dir().join(format!("mancala-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t");
        let mut f = std::fs::File::create(&path).unwrap();
        f.write_all(&vec![7u8; 3 * 4096 + 10]).unwrap();
        drop(f);
        let file = std::fs::File::open(&path).unwrap();
        let mut m = FileMap::new(unsafe { Mmap::map(&file) }.unwrap());
        assert!(m.watch());
        assert_eq!(m[3 * 4096 + 5], 7);
        assert!(!m.faulted());
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100)
            .unwrap();
        let last = std::hint::black_box(&m[..])[3 * 4096 + 5];
        assert_eq!(last, 0);
        assert!(m.faulted());
        assert_eq!(m[50], 0, "the whole map reads zeros once it faulted");
        // A second watched map of the same file is watched afresh.
        let mut m2 = FileMap::new(unsafe { Mmap::map(&file) }.unwrap());
        assert!(m2.watch());
        assert!(!m2.faulted());
        drop((m, m2));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
