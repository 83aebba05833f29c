//! Compiled code per kernel: the back end's object for one part of a
//! program (one kernel's entries and what they reach, see
//! llvm_inprocess.cpp's `ferrocl_llvm_split_kernels`), kept in memory for
//! the life of the process and in the on-disk cache under `objects/`,
//! keyed by the part's bitcode. Rebuilding a program after an edit to one
//! kernel then runs the back end, the longest step of a build, for that
//! kernel only; the front end and the passes that need the whole program
//! still run.
//!
//! A key covers all that the object depends on besides the part: the
//! caller hashes the compiler's environment (driver.rs `environment_key`)
//! and the back end's arguments into it. An entry is never wrong, only
//! absent: a file that cannot be read or written is a miss.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// At most this many bytes of objects stay in memory; the oldest go first.
const MEMORY_BYTES: usize = 64 << 20;

/// The objects in memory, and their keys oldest first.
#[derive(Default)]
struct Memory {
    objects: HashMap<u128, Arc<[u8]>>,
    order: VecDeque<u128>,
    bytes: usize,
}

fn memory() -> MutexGuard<'static, Memory> {
    static MEMORY: OnceLock<Mutex<Memory>> = OnceLock::new();
    // A poisoned lock only means a panic elsewhere; the map is whole.
    MEMORY
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The file of the object with `key` in the cache directory `dir`.
fn file(dir: &Path, key: u128) -> PathBuf {
    dir.join("objects").join(format!("{key:032x}.o"))
}

/// The object with `key`, from memory or else from `dir`.
pub fn find(dir: &Path, key: u128) -> Option<Arc<[u8]>> {
    if let Some(o) = memory().objects.get(&key) {
        return Some(o.clone());
    }
    let bytes: Arc<[u8]> = std::fs::read(file(dir, key)).ok()?.into();
    // An empty or cut file is no object; the linker would say so too late.
    if !is_elf(&bytes) {
        return None;
    }
    remember(key, bytes.clone());
    Some(bytes)
}

/// Keeps the object `bytes` under `key`, in memory and in `dir`.
pub fn keep(dir: &Path, key: u128, bytes: &[u8]) {
    remember(key, bytes.into());
    let path = file(dir, key);
    let Some(parent) = path.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    // Written whole under a temporary name, then renamed: readers never
    // see half a file.
    let tmp = parent.join(format!(".{key:032x}.{}.tmp", std::process::id()));
    if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, &path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

fn remember(key: u128, bytes: Arc<[u8]>) {
    let mut m = memory();
    if bytes.len() > MEMORY_BYTES || m.objects.contains_key(&key) {
        return;
    }
    m.bytes += bytes.len();
    m.objects.insert(key, bytes);
    m.order.push_back(key);
    while m.bytes > MEMORY_BYTES {
        let Some(old) = m.order.pop_front() else {
            break;
        };
        if let Some(o) = m.objects.remove(&old) {
            m.bytes -= o.len();
        }
    }
}

/// Whether `bytes` starts as an ELF file does.
fn is_elf(bytes: &[u8]) -> bool {
    bytes.len() > 64 && bytes.starts_with(b"\x7fELF")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_objects_are_found_in_memory_and_on_disk() {
        let dir = std::env::temp_dir().join(format!("ferrocl-objects-{}", std::process::id()));
        let mut object = b"\x7fELF".to_vec();
        object.resize(100, 7);
        let key = 0x1234_5678_9abc_def0_u128 << 64 | std::process::id() as u128;
        assert!(find(&dir, key).is_none());
        keep(&dir, key, &object);
        assert_eq!(find(&dir, key).as_deref(), Some(&object[..]));
        // From the disk alone (another process).
        memory().objects.remove(&key);
        assert_eq!(find(&dir, key).as_deref(), Some(&object[..]));
        // A damaged file is a miss.
        memory().objects.remove(&key);
        std::fs::write(file(&dir, key), b"\x7fEL").unwrap();
        assert!(find(&dir, key).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
