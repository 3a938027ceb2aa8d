//! Large documents named on the command line, mapped into memory rather
//! than read, and the bus error that a file cut short meanwhile raises,
//! turned into a message.
//!
//! Why map: reading a large page copies it out of the page cache into as
//! much fresh memory, whose every page the kernel must fault in and
//! clear; a map hands out the page cache itself.
//!
//! Why only named files, as ripgrep does: a file that shrinks while it is
//! mapped raises `SIGBUS` when its lost tail is touched, which stops the
//! whole run. That risk is worth taking for the few large files a user
//! names, not for every file of a tree being rebuilt. The handler here
//! says which file it was and exits with status 2; `--no-mmap` reads every
//! file instead.

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};

/// Files smaller than this are read: below it, the map's own system calls
/// and faults cost about what the read's copy does.
pub const MAP_ABOVE: u64 = 1 << 20;

/// A file's bytes, mapped. Dropping it unmaps them.
pub struct Mapped {
    map: memmap2::Mmap,
    slot: usize,
}

impl Mapped {
    /// Maps `file`, of `len` bytes, at `path`; `None` when it cannot be
    /// mapped (too many maps live at once, or the kernel refused), and the
    /// caller reads it instead.
    pub fn new(file: &File, len: u64, path: &Path) -> Option<Mapped> {
        let len = usize::try_from(len).ok()?;
        // SAFETY: the map is read only, and private. Another process
        // that writes the file meanwhile changes bytes under the slice,
        // which can only garble this file's links: nothing here trusts a
        // byte read twice to be the same. One that truncates it makes
        // the lost tail raise SIGBUS, which `on_bus_error` reports.
        let map = unsafe {
            memmap2::MmapOptions::new().len(len).populate().map(file)
        }
        .ok()?;
        let slot = bus_error::register(&map, path)?;
        Some(Mapped { map, slot })
    }
}

impl Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        bus_error::unregister(self.slot);
    }
}

/// Opens the file at `path` and maps it when it is a regular file of at
/// least [`MAP_ABOVE`] and at most `max` bytes; `None` leaves it to be
/// read (an error to open it included: the read reports it).
pub fn map_file(path: &Path, max: u64) -> io::Result<Option<Mapped>> {
    let fits = |len: u64| (MAP_ABOVE..=max).contains(&len);
    // The size first, by path: a small file is opened once, by the read.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() || !fits(meta.len()) {
        return Ok(None);
    }
    let file = File::open(path)?;
    // Its size again, from the file opened: it may have changed between.
    let len = file.metadata()?.len();
    if !fits(len) {
        return Ok(None);
    }
    Ok(Mapped::new(&file, len, path))
}

/// The live maps, for the bus error handler to tell a file cut short from
/// a bus error of some other cause.
mod bus_error {
    use super::*;

    /// One map: its address range and the message that names its file.
    /// Never freed once published (a few bytes per named file): the
    /// handler may be reading it when the slot is cleared.
    struct Region {
        start: usize,
        end: usize,
        message: Box<[u8]>,
    }

    /// How many maps may be live at once; a file that finds no free slot
    /// is read instead.
    const SLOTS: usize = 16;

    static LIVE: [AtomicPtr<Region>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];

    /// Publishes `map`'s range; its slot, or `None` when all are taken or
    /// the handler could not be installed.
    pub fn register(map: &memmap2::Mmap, path: &Path) -> Option<usize> {
        if !install() {
            return None;
        }
        let start = map.as_ptr() as usize;
        let message = format!(
            "uriscan: {}: the file was cut short while it was read (a bus \
             error on its memory map), and the run stops. Run again, or \
             with --no-mmap.\n",
            path.display()
        );
        let region = Box::into_raw(Box::new(Region {
            start,
            end: start + map.len(),
            message: message.into_bytes().into_boxed_slice(),
        }));
        for (i, slot) in LIVE.iter().enumerate() {
            if slot
                .compare_exchange(
                    std::ptr::null_mut(),
                    region,
                    Ordering::AcqRel,
                    Ordering::Relaxed,
                )
                .is_ok()
            {
                return Some(i);
            }
        }
        // SAFETY: `region` came from `Box::into_raw` just above and was
        // never published.
        drop(unsafe { Box::from_raw(region) });
        None
    }

    /// Clears a slot when its map is dropped. The region is leaked, not
    /// freed: see [`Region`].
    pub fn unregister(slot: usize) {
        LIVE[slot].store(std::ptr::null_mut(), Ordering::Release);
    }

    /// The action SIGBUS had before ours, to hand a bus error that is not
    /// ours back to (Rust's runtime has its own, for stack overflows).
    #[cfg(target_os = "linux")]
    static PREVIOUS: std::sync::OnceLock<libc::sigaction> =
        std::sync::OnceLock::new();

    /// Installs the handler once; whether it is installed.
    #[cfg(target_os = "linux")]
    fn install() -> bool {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: `sigaction` is given a zeroed struct filled in as
            // POSIX says, and a handler that calls only async-signal-safe
            // functions (`write`, `_exit`, `sigaction`).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_bus_error as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0 {
                    let _ = PREVIOUS.set(previous);
                }
            }
        });
        PREVIOUS.get().is_some()
    }

    /// Without a handler to report a bus error, nothing is mapped.
    #[cfg(not(target_os = "linux"))]
    fn install() -> bool {
        false
    }

    /// On a bus error in a live map: its message, and exit status 2. Else
    /// the previous action is put back and the fault, taken again on
    /// return, goes to it.
    #[cfg(target_os = "linux")]
    extern "C" fn on_bus_error(
        _signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel hands a valid `siginfo_t` to an SA_SIGINFO
        // handler; a published region is never freed.
        unsafe {
            let addr = (*info).si_addr() as usize;
            for slot in &LIVE {
                let region = slot.load(Ordering::Acquire);
                if let Some(r) = region.as_ref()
                    && (r.start..r.end).contains(&addr)
                {
                    libc::write(2, r.message.as_ptr().cast(), r.message.len());
                    libc::_exit(2);
                }
            }
            if let Some(previous) = PREVIOUS.get() {
                libc::sigaction(libc::SIGBUS, previous, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    /// Set in the child process that [`cut_short_file_is_reported`]
    /// starts: the path of the file to map and cut.
    const CHILD: &str = "URISCAN_TEST_MAPPED_CHILD";

    /// A map is the file's bytes; a small file is left to be read.
    #[test]
    fn maps_large_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big");
        let bytes: Vec<u8> =
            (0..MAP_ABOVE as usize + 7).map(|i| (i % 251) as u8).collect();
        std::fs::write(&big, &bytes).unwrap();
        let map = map_file(&big, u64::MAX).unwrap().unwrap();
        assert_eq!(&map[..], &bytes[..]);
        assert!(map_file(&big, MAP_ABOVE).unwrap().is_none());
        let small = dir.path().join("small");
        std::fs::write(&small, b"<a href=x>").unwrap();
        assert!(map_file(&small, u64::MAX).unwrap().is_none());
        assert!(map_file(&dir.path().join("none"), u64::MAX).is_err());
    }

    /// Maps the file `CHILD` names, cuts it short, and reads its lost
    /// tail: run only in the child, where the handler must exit with 2.
    #[test]
    fn child_cuts_its_map_short() {
        let Some(path) = std::env::var_os(CHILD) else { return };
        let path = std::path::PathBuf::from(path);
        let map = map_file(&path, u64::MAX).unwrap().unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(0)
            .unwrap();
        let last = map[map.len() - 1];
        // Not reached: the read above raises SIGBUS.
        panic!("read {last} past the end of a cut file");
    }

    /// A file cut short while mapped stops the run with its path and
    /// status 2, not a bare "Bus error".
    #[test]
    fn cut_short_file_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cut.html");
        let mut f = File::create(&path).unwrap();
        f.write_all(&vec![b'x'; MAP_ABOVE as usize * 2]).unwrap();
        drop(f);
        // The child test by its path in whichever crate includes this
        // file (the binary, and the floor example by `#[path]`).
        let here = module_path!().split_once("::").map_or("", |p| p.1);
        let child = format!("{here}::child_cuts_its_map_short");
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", &child])
            .args(["--nocapture", "--test-threads", "1"])
            .env(CHILD, &path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "uriscan: {}: the file was cut short while it was read",
                path.display()
            )),
            "{stderr}"
        );
    }
}
