//! The host's affinity domains: which CPUs share a NUMA node or a level of
//! cache, read from sysfs. clCreateSubDevices by affinity domain splits a
//! device's CPUs along them, and the sub-devices it makes keep their
//! workers on their own CPUs (`pin_current_thread`).

use std::sync::LazyLock;

/// One of the spec's affinity domains (NEXT_PARTITIONABLE is a search over
/// these, done by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Numa,
    /// A level of data or unified cache, 1 to 4.
    Cache(u32),
}

impl Domain {
    /// The order NEXT_PARTITIONABLE tries them in: the outermost first.
    pub const OUTERMOST_FIRST: [Domain; 5] = [
        Domain::Numa,
        Domain::Cache(4),
        Domain::Cache(3),
        Domain::Cache(2),
        Domain::Cache(1),
    ];
}

const SYS_CPU: &str = "/sys/devices/system/cpu";
const SYS_NODE: &str = "/sys/devices/system/node";

/// The CPUs this process may run on, in increasing order (read once: the
/// root device's CPUs).
pub fn process_cpus() -> &'static [usize] {
    static CPUS: LazyLock<Vec<usize>> = LazyLock::new(read_process_cpus);
    &CPUS
}

fn read_process_cpus() -> Vec<usize> {
    // SAFETY: cpu_set_t is plain data; sched_getaffinity writes at most
    // its size into it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // SAFETY: pid 0 is this thread; `set` is valid for `size` bytes.
    if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
        return Vec::new();
    }
    (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `cpu` is below CPU_SETSIZE, inside `set`.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect()
}

/// Keeps the calling thread on `cpus` (a worker of a sub-device made by
/// affinity domain). A failure leaves it where the OS puts it: the work
/// still runs, only its placement is lost.
pub fn pin_current_thread(cpus: &[usize]) {
    // SAFETY: as in read_process_cpus.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &cpu in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
        // SAFETY: `cpu` is below CPU_SETSIZE, inside `set`.
        unsafe { libc::CPU_SET(cpu, &mut set) };
    }
    // SAFETY: pid 0 is this thread; `set` is a valid cpu_set_t.
    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
}

/// Parses a sysfs CPU list such as "0-3,8,10-11".
pub fn parse_cpu_list(s: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
                if b < a {
                    return None;
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(part.parse().ok()?),
        }
    }
    Some(cpus)
}

fn read_list(path: &str) -> Option<Vec<usize>> {
    parse_cpu_list(&std::fs::read_to_string(path).ok()?)
}

/// The CPUs that share `domain` with `cpu`, or None when the host does not
/// say (no NUMA nodes in sysfs, no cache of that level).
fn sharing(domain: Domain, cpu: usize) -> Option<Vec<usize>> {
    match domain {
        // Every nodeN directory: node numbers need not be contiguous.
        Domain::Numa => std::fs::read_dir(SYS_NODE)
            .ok()?
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.strip_prefix("node")
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
            .filter_map(|e| read_list(&format!("{}/cpulist", e.path().display())))
            .find(|cpus| cpus.contains(&cpu)),
        Domain::Cache(level) => (0..16)
            .map_while(|i| {
                let dir = format!("{SYS_CPU}/cpu{cpu}/cache/index{i}");
                let read = |f: &str| std::fs::read_to_string(format!("{dir}/{f}")).ok();
                Some((read("level")?, read("type")?, dir))
            })
            .find(|(l, t, _)| l.trim() == level.to_string() && t.trim() != "Instruction")
            .and_then(|(_, _, dir)| read_list(&format!("{dir}/shared_cpu_list"))),
    }
}

/// `cpus` split along `domain`: one group per NUMA node or cache instance,
/// each group the CPUs of `cpus` in it, in the order of their first CPU.
/// None when the host does not describe that domain for every one of them.
pub fn split(domain: Domain, cpus: &[usize]) -> Option<Vec<Vec<usize>>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &cpu in cpus {
        if groups.iter().any(|g| g.contains(&cpu)) {
            continue;
        }
        let shared = sharing(domain, cpu)?;
        groups.push(
            cpus.iter()
                .copied()
                .filter(|c| shared.contains(c))
                .collect(),
        );
    }
    (!groups.is_empty()).then_some(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_read_as_sysfs_writes_them() {
        assert_eq!(
            parse_cpu_list("0-3,8,10-11\n"),
            Some(vec![0, 1, 2, 3, 8, 10, 11])
        );
        assert_eq!(parse_cpu_list("5"), Some(vec![5]));
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("x"), None);
    }

    #[test]
    fn every_cpu_lands_in_one_group_of_its_domain() {
        let cpus = process_cpus();
        assert!(!cpus.is_empty());
        for domain in Domain::OUTERMOST_FIRST {
            let Some(groups) = split(domain, cpus) else {
                continue;
            };
            let mut all: Vec<usize> = groups.concat();
            all.sort_unstable();
            assert_eq!(all, cpus, "{domain:?}: {groups:?}");
            assert!(groups.iter().all(|g| !g.is_empty()));
        }
        // Where sysfs describes caches, it has a first level for each CPU.
        if std::path::Path::new("/sys/devices/system/cpu/cpu0/cache/index0").exists() {
            assert!(split(Domain::Cache(1), cpus).is_some());
        }
    }

    #[test]
    fn a_pinned_thread_runs_on_its_cpus() {
        let last = *process_cpus().last().unwrap();
        let ran_on = std::thread::spawn(move || {
            pin_current_thread(&[last]);
            std::thread::yield_now();
            // SAFETY: sched_getcpu only reads the calling thread's CPU.
            unsafe { libc::sched_getcpu() }
        })
        .join()
        .unwrap();
        assert_eq!(ran_on, last as i32);
    }
}
