//! Facts about the machine the device reports: cores, memory, caches, CPU
//! name. Read once from the OS; every number the device reports comes from
//! here, none is invented.

use std::sync::LazyLock;

pub struct HostFacts {
    pub cores: u32,
    pub memory_bytes: u64,
    pub cpu_name: String,
    pub cpu_vendor: String,
    pub cache_line: u32,
    /// The last level of data cache the cores share (bytes).
    pub global_cache: u64,
    /// The first-level data cache (bytes), the natural local memory size.
    pub l1_data_cache: u64,
    /// A core's own second-level cache (bytes): what local memory fits in.
    pub l2_cache: u64,
    pub clock_mhz: u32,
    /// The CPU has fused multiply-add (fma flag in /proc/cpuinfo).
    pub has_fma: bool,
    pub page_size: usize,
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

/// Sizes in sysfs read like "48K" or "2048K" or "32M".
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "K" => n << 10,
        "M" => n << 20,
        "G" => n << 30,
        _ => n,
    })
}

fn cpuinfo_field(cpuinfo: &str, key: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

fn caches() -> (u32, u64, u64, u64) {
    let mut line = 64;
    let mut l1d = 32 << 10;
    let mut l2 = 256 << 10;
    let mut largest = 0;
    for i in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let Some(kind) = read(&format!("{dir}/type")) else {
            break;
        };
        let size = read(&format!("{dir}/size"))
            .and_then(|s| parse_size(&s))
            .unwrap_or(0);
        let level = read(&format!("{dir}/level")).unwrap_or_default();
        if let Some(l) = read(&format!("{dir}/coherency_line_size")).and_then(|s| s.parse().ok()) {
            line = l;
        }
        if kind == "Data" && level == "1" && size > 0 {
            l1d = size;
        }
        if level == "2" && size > 0 {
            l2 = size;
        }
        if kind != "Instruction" {
            largest = largest.max(size);
        }
    }
    (line, l1d, l2, largest.max(l1d))
}

impl HostFacts {
    /// CL_DEVICE_MAX_MEM_ALLOC_SIZE: half of memory, at least the 128 MiB
    /// floor the spec sets for a full profile device.
    pub fn max_mem_alloc(&self) -> u64 {
        (self.memory_bytes / 2).max(128 << 20)
    }
}

pub static HOST: LazyLock<HostFacts> = LazyLock::new(|| {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let memory_bytes = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| cpuinfo_field(&m, "MemTotal"))
        .and_then(|v| v.trim_end_matches(" kB").trim().parse::<u64>().ok())
        .map_or(1 << 30, |kb| kb * 1024);
    let (cache_line, l1_data_cache, l2_cache, global_cache) = caches();
    let clock_mhz = read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
        .and_then(|khz| khz.parse::<u64>().ok())
        .map(|khz| (khz / 1000) as u32)
        .or_else(|| {
            cpuinfo_field(&cpuinfo, "cpu MHz")
                .and_then(|m| m.parse::<f64>().ok())
                .map(|m| m as u32)
        })
        .unwrap_or(1000);
    let has_fma =
        cpuinfo_field(&cpuinfo, "flags").is_some_and(|f| f.split_whitespace().any(|w| w == "fma"));
    // SAFETY: sysconf has no preconditions.
    let page_size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
    HostFacts {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        memory_bytes,
        cpu_name: cpuinfo_field(&cpuinfo, "model name").unwrap_or_else(|| "CPU".into()),
        cpu_vendor: cpuinfo_field(&cpuinfo, "vendor_id").unwrap_or_else(|| "unknown".into()),
        cache_line,
        global_cache,
        l1_data_cache,
        l2_cache,
        clock_mhz,
        has_fma,
        page_size,
    }
});

/// Monotonic nanoseconds: the device and host timer, and profiling clock.
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: ts is a valid timespec to write to.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}
