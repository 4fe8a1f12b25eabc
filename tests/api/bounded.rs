//! Nothing grows without limit: 64,000 requests that each start an SCA nobody finishes (401 with a
//! scaRedirect, the largest TPP-Redirect-URI accepted) against the real binary, `xs2a-sandbox serve
//! --data DIR`, leave its data directory under 16 MB and its resident memory bounded.
//!
//! Measured honestly: the server is its own process, so its memory is read from /proc/<pid>/status
//! (VmRSS) and not mixed with the test's; the data directory's size is the disk it occupies (allocated
//! blocks, not file lengths), read after the server was stopped with kill -9 (nothing flushed at exit).
//! Memory is read every 1,000 requests after a warm-up of 2,000 (caches, allocator arenas and connection
//! buffers reach their working size).

use crate::cli::start_server;
use axum::http::{HeaderMap, HeaderValue};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use time::OffsetDateTime;
use xs2a_core::bank::sca::authorisation::Authorisation;
use xs2a_core::bank::sca::retention::MAX_PER_TPP;
use xs2a_core::store::Store;

const REQUESTS: usize = 64_000;
const WARM_UP: usize = 2_000;
const CLIENTS: usize = 8;

/// The server's resident memory in KiB.
fn rss_kib(pid: u32) -> u64 {
    status_kib(pid, "VmRSS:")
}

/// One of /proc/<pid>/status's memory fields, in KiB.
fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("{field} in /proc/<pid>/status"))
}

/// The allocator commits its arenas as they are used (src/allocator.rs): the service that has just
/// started holds about 7 MB of anonymous memory; with mimalloc's default, which commits its first 64 MiB
/// arena at once, it held about 50 MB more. Anonymous memory only (RssAnon): the binary's own pages,
/// which differ between builds, are not what this is about.
#[test]
fn a_started_service_holds_only_the_memory_it_uses() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _base) = start_server(dir.path(), &[]);
    let anonymous = status_kib(server.id(), "RssAnon:");
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        anonymous < 24 * 1024,
        "the service holds {anonymous} KiB of anonymous memory at start: the allocator committed more than it uses"
    );
}

/// The disk a directory's files occupy, in bytes.
fn disk_usage(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                disk_usage(&entry.path())
            } else {
                meta.blocks() * 512
            }
        })
        .sum()
}

/// Signed headers for an account list that starts SCA; the signature is made afresh every few
/// seconds (the Date window is 60 s), the server verifies every request in full.
fn signed_headers(redirect: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    headers.insert("tpp-session-id", HeaderValue::from_static("growth"));
    headers.insert("tpp-redirect-uri", HeaderValue::from_str(redirect).unwrap());
    headers.insert("psu-ip-address", HeaderValue::from_static("192.0.2.10"));
    crate::helpers::tpp("aisp-pisp").sign(
        "GET",
        "/v1/accounts",
        &mut headers,
        b"",
        OffsetDateTime::now_utc(),
        &Default::default(),
    );
    headers
}

/// Sends `count` requests from `CLIENTS` keep-alive clients; each must be a 401 with a scaRedirect.
async fn send_401s(base: &str, count: usize, redirect: &str) {
    let sent = Arc::new(AtomicUsize::new(0));
    let mut clients = Vec::new();
    for _ in 0..CLIENTS {
        let (base, redirect, sent) = (base.to_owned(), redirect.to_owned(), sent.clone());
        clients.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut headers = signed_headers(&redirect);
            let mut signed_at = std::time::Instant::now();
            while sent.fetch_add(1, Ordering::Relaxed) < count {
                if signed_at.elapsed() > std::time::Duration::from_secs(10) {
                    headers = signed_headers(&redirect);
                    signed_at = std::time::Instant::now();
                }
                let response = client
                    .get(format!("{base}/v1/accounts"))
                    .headers(headers.clone())
                    .send()
                    .await
                    .unwrap();
                let status = response.status();
                let body: serde_json::Value = response.json().await.unwrap();
                assert_eq!(status, 401, "{body}");
                assert!(body["_links"]["scaRedirect"]["href"].is_string(), "{body}");
            }
        }));
    }
    for client in clients {
        client.await.unwrap();
    }
}

#[tokio::test]
async fn unanswered_401s_leave_the_data_directory_small_and_memory_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // What the bank keeps is measured here: the traffic log, which records every request for the
    // inspector, is bounded by its own caps (tests/api/traffic.rs) and off for this count.
    let (mut server, base) = start_server(&data, &["--no-traffic"]);
    let pid = server.id();
    // The longest redirect URI accepted: the most each authorisation can store.
    let redirect = format!("https://tpp.example/cb?{}", "r".repeat(2048 - 23));
    assert_eq!(redirect.len(), 2048);

    send_401s(&base, WARM_UP, &redirect).await;
    // Resident memory is flat or a sawtooth: where it grows, it rises by about 0.5-2 KB a request and falls
    // back in bulk (by its shape, the storage engine's deferred reclamation; not investigated further) every
    // 7,000 to 35,000 requests depending on the machine's load; on other runs it stays within a megabyte or
    // two throughout. So one reading against another says little, and neither does a fixed swing: runs on
    // one machine went from 28 to 38 MB and back. What a leak does and a sawtooth does not: it lifts every
    // reading, so the highest of the second half (31,000 requests) stands above the highest of the first.
    // A sawtooth repeats its peaks, and one longer than a half reaches at most a few MB higher in the
    // second. 8 MB over 31,000 requests finds a leak of about 270 bytes a request or more; the cap on the
    // peak (48 MB above the warm-up) finds a faster one sooner. A slower leak is beyond a run this long.
    let warm = rss_kib(pid);
    let mut readings = Vec::new();
    for _ in 0..(REQUESTS - WARM_UP) / 1000 {
        send_401s(&base, 1000, &redirect).await;
        readings.push(rss_kib(pid));
    }
    let (first_half, second_half) = readings.split_at(readings.len() / 2);
    let first_peak = *first_half.iter().max().unwrap();
    let second_peak = *second_half.iter().max().unwrap();
    let peak = first_peak.max(second_peak);

    server.kill().unwrap();
    server.wait().unwrap();
    let size = disk_usage(&data);
    let stored = Store::open_once_released(&data, xs2a_core::bank::migrations::active(), 500)
        .unwrap()
        .table::<Authorisation>()
        .unwrap()
        .len();
    let mb = |kib: u64| kib as f64 / 1024.0;
    eprintln!(
        "after {REQUESTS} unanswered 401s: data directory {:.1} MB on disk, {stored} authorisations \
         kept; server RSS {:.1} MB after the warm-up, every 1,000 requests then (MB): {:.1?}",
        size as f64 / 1e6,
        mb(warm),
        readings.iter().map(|r| mb(*r)).collect::<Vec<_>>()
    );
    assert!(stored <= MAX_PER_TPP, "{stored} authorisations kept");
    // 64,000 requests write about 130 MB of authorisations; what stays is 200 of them (under 1 MB) and
    // the log segments the storage engine has not reclaimed yet (6.8 to 10.5 MB seen here).
    assert!(size < 16_000_000, "the data directory takes {size} bytes");
    assert!(
        second_peak < first_peak + 8 * 1024,
        "resident memory climbs: the second half's peak {second_peak} KiB against the first's {first_peak} KiB; \
         every reading: {readings:?} KiB"
    );
    assert!(
        peak < warm + 48 * 1024,
        "resident memory rose from {warm} KiB to {peak} KiB"
    );
}
