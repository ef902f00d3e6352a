//! Memory of a process from `/proc/<pid>/status` (Linux): the one reader
//! every report uses (bench tables, the scale ingest, the load driver).
//! `None` where the file does not exist.

/// Value in kB of a `Key:   123 kB` line of a `/proc` status-style file.
pub fn parse_kb_field(text: &str, key: &str) -> Option<f64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        if k.trim() != key {
            return None;
        }
        v.split_whitespace().next()?.parse::<f64>().ok()
    })
}

fn status_kib(path: &str, key: &str) -> Option<u64> {
    let s = std::fs::read_to_string(path).ok()?;
    parse_kb_field(&s, key).map(|kb| kb as u64)
}

/// Resident set size of this process now (`VmRSS`), KiB.
pub fn rss_kib() -> Option<u64> {
    status_kib("/proc/self/status", "VmRSS")
}

/// Resident anonymous memory of this process now (`RssAnon`: heap and
/// copies, what only this process can use), KiB.
pub fn rss_anon_kib() -> Option<u64> {
    status_kib("/proc/self/status", "RssAnon")
}

/// Resident file-backed memory of this process now (`RssFile`: mapped
/// files such as an index's vectors and postings — page cache that
/// processes mapping the same files share and the kernel can drop), KiB.
pub fn rss_file_kib() -> Option<u64> {
    status_kib("/proc/self/status", "RssFile")
}

/// Peak resident set size of this process (`VmHWM`), KiB.
pub fn peak_rss_kib() -> Option<u64> {
    status_kib("/proc/self/status", "VmHWM")
}

/// Threads of this process now (`Threads`).
pub fn threads() -> Option<u64> {
    status_kib("/proc/self/status", "Threads")
}

/// Open file descriptors of this process now (entries of `/proc/self/fd`).
pub fn open_fds() -> Option<u64> {
    std::fs::read_dir("/proc/self/fd")
        .ok()
        .map(|d| d.count() as u64)
}

/// Resident set size of process `pid` now (`VmRSS`), KiB.
pub fn rss_kib_of(pid: u32) -> Option<u64> {
    status_kib(&format!("/proc/{pid}/status"), "VmRSS")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kb_fields_parse() {
        assert_eq!(parse_kb_field("VmHWM:\t  2048 kB\n", "VmHWM"), Some(2048.0));
        assert_eq!(parse_kb_field("VmRSS: 1 kB", "VmHWM"), None);
        assert_eq!(parse_kb_field("VmHWM: x kB", "VmHWM"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_a_resident_set() {
        let now = rss_kib().expect("VmRSS on Linux");
        let peak = peak_rss_kib().expect("VmHWM on Linux");
        assert!(now > 0 && peak >= now, "rss {now} peak {peak}");
        assert_eq!(rss_kib_of(std::process::id()).map(|k| k > 0), Some(true));
        assert!(threads().is_some_and(|t| t >= 1));
        assert!(open_fds().is_some_and(|n| n >= 3), "stdin, stdout, stderr");
    }
}
