//! What the benchmark reads of the server's process from /proc: its CPU time, the CPU and context
//! switches of each of its threads, and its memory.

use std::time::Duration;

/// The server process's user + system CPU time, from /proc/<pid>/stat.
pub fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("linux /proc");
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    let per_second = 100; // USER_HZ on Linux
    Duration::from_millis(ticks * 1000 / per_second)
}

/// CPU time and context switches of the server's threads, summed by thread name (digits dropped, so
/// that the runtime's workers count as one): where the CPU per request goes, and how often threads were
/// switched out, waiting (voluntary) or preempted (involuntary).
#[derive(Default, Clone)]
pub struct ThreadUsage {
    /// Name → (user ticks, system ticks, voluntary switches, involuntary switches).
    by_name: std::collections::BTreeMap<String, [u64; 4]>,
}

impl ThreadUsage {
    pub fn read(pid: u32) -> ThreadUsage {
        let mut usage = ThreadUsage::default();
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return usage;
        };
        for task in tasks.flatten() {
            let dir = task.path();
            let (Ok(stat), Ok(status)) = (
                std::fs::read_to_string(dir.join("stat")),
                std::fs::read_to_string(dir.join("status")),
            ) else {
                continue;
            };
            let name: String = stat[stat.find('(').unwrap() + 1..stat.rfind(')').unwrap()]
                .trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')
                .to_owned();
            let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..]
                .split_whitespace()
                .collect();
            let switches = |key: &str| -> u64 {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(key))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0)
            };
            let entry = usage.by_name.entry(name).or_default();
            entry[0] += fields[11].parse::<u64>().unwrap_or(0);
            entry[1] += fields[12].parse::<u64>().unwrap_or(0);
            entry[2] += switches("voluntary_ctxt_switches:");
            entry[3] += switches("nonvoluntary_ctxt_switches:");
        }
        usage
    }

    /// One line per request: µs of CPU by thread name (of it in the kernel), and switches.
    pub fn describe_since(&self, before: &ThreadUsage, requests: u64) -> String {
        let tick_us = 1e6 / 100.0; // USER_HZ
        let per = |v: u64| v as f64 / requests as f64;
        let mut parts = Vec::new();
        let mut switches = [0u64; 2];
        for (name, now) in &self.by_name {
            let then = before.by_name.get(name).copied().unwrap_or_default();
            let d: Vec<u64> = (0..4).map(|i| now[i].saturating_sub(then[i])).collect();
            switches[0] += d[2];
            switches[1] += d[3];
            if d[0] + d[1] > 0 {
                parts.push(format!(
                    "{name} {:.1} (kernel {:.1})",
                    per(d[0] + d[1]) * tick_us,
                    per(d[1]) * tick_us
                ));
            }
        }
        format!(
            "µs per request by thread: {}; context switches per request: {:.2} waiting, {:.2} preempted",
            parts.join(", "),
            per(switches[0]),
            per(switches[1])
        )
    }
}

/// The server's resident memory now and at its peak (VmRSS, VmHWM), after the load: what an allocator
/// keeps, and what a container's memory limit must allow.
pub fn memory(pid: u32) -> String {
    format!(
        "server memory after the load: VmRSS {} MB, peak VmHWM {} MB",
        memory_field(pid, "VmRSS:"),
        memory_field(pid, "VmHWM:")
    )
}

/// One of /proc/PID/status's memory fields, in MB.
pub fn memory_field(pid: u32, name: &str) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse::<f64>().ok())
        .map_or_else(|| "?".to_owned(), |kb| format!("{:.1}", kb / 1024.0))
}
