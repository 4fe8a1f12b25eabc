//! Benchmark: durable writes per second with 1, 8 and 64 concurrent writers against the real binary on a
//! data directory on disk. Every answer counted is a 201, which means the write is on disk (group commit:
//! one flush makes every pending write durable and releases all the waiting requests).
//!
//! Run: `cargo bench --bench durable_writes` (optionally `-- --seconds 10`). Each writer keeps one
//! keep-alive connection and posts one transaction to a seeded account over and over (the same signed
//! request: a transaction batch is appended, not deduplicated, so each post is a new record). Under
//! `cargo test --all-targets` it makes a one-second smoke run.
//!
//! The change journal's cost (docs/rewind.md): each count of writers is measured with the journal and
//! without it (`serve --no-journal`), alternately, twice each, and the ratio of the medians printed, so
//! that the load of other processes falls on both alike.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};

fn seconds() -> u64 {
    let args: Vec<String> = std::env::args().collect();
    let measuring = args.iter().any(|a| a == "--bench");
    args.iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(if measuring { 8 } else { 1 })
}

fn start_server(data: &std::path::Path, journal: bool) -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data);
    if !journal {
        command.arg("--no-journal");
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("base URL")
        .to_owned();
    (child, base.trim_start_matches("http://").to_owned())
}

/// One signed request as raw HTTP/1.1 bytes.
fn signed(method: &str, path: &str, body: &[u8], authority: &str) -> Vec<u8> {
    let credentials = SigningCredentials::from_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp-pisp"),
    )
    .expect("fixture credentials");
    let mut headers = axum::http::HeaderMap::new();
    credentials.sign(
        method,
        path,
        &mut headers,
        body,
        time::OffsetDateTime::now_utc(),
        &SignOptions::default(),
    );
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {authority}\r\n");
    for (name, value) in &headers {
        request.push_str(&format!("{}: {}\r\n", name, value.to_str().unwrap()));
    }
    if !body.is_empty() {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// Reads one HTTP/1.1 response with Content-Length; returns its status and body.
async fn read_response(stream: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> (u16, usize) {
    buffer.clear();
    let mut chunk = [0u8; 16384];
    loop {
        let n = stream.read(&mut chunk).await.expect("read");
        assert!(n > 0, "server closed the connection");
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = std::str::from_utf8(&buffer[..end])
                .unwrap()
                .to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse().unwrap())
                .unwrap_or(0);
            while buffer.len() < end + 4 + length {
                let n = stream.read(&mut chunk).await.expect("read body");
                assert!(n > 0);
                buffer.extend_from_slice(&chunk[..n]);
            }
            return (head[9..12].parse().unwrap(), end + 4);
        }
    }
}

/// The seeded accounts' ids, read once through the API.
async fn account_ids(authority: &str) -> Vec<String> {
    let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
    stream
        .write_all(&signed("GET", "/v1/sandbox/customers", b"", authority))
        .await
        .unwrap();
    let mut buffer = Vec::new();
    let (status, body_at) = read_response(&mut stream, &mut buffer).await;
    assert_eq!(status, 200);
    let customers: serde_json::Value = serde_json::from_slice(&buffer[body_at..]).unwrap();
    customers
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["accounts"].as_array().cloned().unwrap_or_default())
        .filter_map(|a| {
            a.as_str()
                .map(str::to_owned)
                .or(a["id"].as_str().map(str::to_owned))
        })
        .collect()
}

/// Durable writes per second and the p99 latency with `writers` connections for `seconds`.
async fn measure(writers: usize, seconds: u64, journal: bool) -> (f64, Duration) {
    let data = tempfile::tempdir().unwrap();
    let (mut server, authority) = start_server(data.path(), journal);
    let accounts = account_ids(&authority).await;
    assert!(!accounts.is_empty(), "the seed has accounts");
    let body = br#"[{"amount":-1250,"currency":"NOK","bookingDate":"2026-06-01","valueDate":"2026-06-01","remittanceInformationUnstructured":"bench","creditorName":"Benk","debtorName":"Benk"}]"#;
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..writers {
        let path = format!(
            "/v1/sandbox/accounts/{}/transactions",
            accounts[w % accounts.len()]
        );
        let request = signed("POST", &path, body, &authority);
        let authority = authority.clone();
        tasks.push(tokio::spawn(async move {
            let mut stream = tokio::net::TcpStream::connect(&authority).await.unwrap();
            stream.set_nodelay(true).unwrap();
            let mut buffer = Vec::with_capacity(16384);
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let sent = Instant::now();
                stream.write_all(&request).await.unwrap();
                let (status, _) = read_response(&mut stream, &mut buffer).await;
                assert_eq!(status, 201, "{}", String::from_utf8_lossy(&buffer));
                latencies.push(sent.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    let wall = started.elapsed();
    server.kill().unwrap();
    server.wait().unwrap();
    all.sort();
    let p99 = all[((all.len() as f64 - 1.0) * 0.99).round() as usize];
    (all.len() as f64 / wall.as_secs_f64(), p99)
}

fn main() {
    let seconds = seconds();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    for writers in [1, 8, 64] {
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            for journal in [true, false] {
                let (rate, p99) = runtime.block_on(measure(writers, seconds, journal));
                println!(
                    "durable writes (POST a transaction, 201 after flush), {writers:>2} writers, {seconds} s, journal {}: {rate:.0}/s, p99 {:.1} ms",
                    if journal { "on " } else { "off" },
                    p99.as_secs_f64() * 1e3
                );
                if journal {
                    with.push(rate)
                } else {
                    without.push(rate)
                }
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (v[0] + v[v.len() - 1]) / 2.0
        };
        let (on, off) = (median(&mut with), median(&mut without));
        println!(
            "  {writers:>2} writers: with the journal {on:.0}/s, without {off:.0}/s: ratio {:.3} (cost {:.1} %)",
            on / off,
            (1.0 - on / off) * 100.0
        );
    }
}
