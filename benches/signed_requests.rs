//! Benchmark: signed-request throughput and latency over loopback against the real binary, beside the raw
//! RSA-2048 verification rate of the same key in-process; plus headless start to first answer.
//!
//! Run: `cargo bench --bench signed_requests` (optionally `-- --seconds 10 --connections 64`).
//! The server runs as its own process so its CPU time can be read from /proc and divided by the requests
//! it answered. The load generator is deliberately thin (raw HTTP/1.1 over keep-alive TCP, requests signed
//! once up front) so that it leaves as much of the 2 cores as possible to the server.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use xs2a_sandbox::signing::signer::{SignOptions, SigningCredentials};

struct Options {
    seconds: u64,
    connections: usize,
    /// Pass `--no-traffic` to the server (to compare the request path with and without the traffic log).
    no_traffic: bool,
    /// Pass `--no-journal` (to compare with and without the change journal, docs/rewind.md).
    no_journal: bool,
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    // `cargo bench` passes --bench; `cargo test --all-targets` does not: then a one-second smoke run
    // checks that the benchmark still works without spending CI time on measuring.
    let measuring = args.iter().any(|a| a == "--bench");
    Options {
        seconds: value("--seconds", if measuring { 8 } else { 1 }),
        connections: value("--connections", if measuring { 64 } else { 4 }) as usize,
        no_traffic: args.iter().any(|a| a == "--no-traffic"),
        no_journal: args.iter().any(|a| a == "--no-journal"),
    }
}

fn credentials() -> SigningCredentials {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp-pisp");
    SigningCredentials::from_dir(&dir).expect("fixture credentials")
}

/// Raw RSA-2048 PKCS#1 v1.5 SHA-256 verifications per second on one core, with ring (what the gate uses).
fn raw_verify_rate(credentials: &SigningCredentials) -> f64 {
    let message =
        b"(request-target): get /v1/sandbox/customers\ndate: Sun, 22 Nov 2026 10:00:00 GMT";
    let signature = credentials.sign_bytes(message);
    let der = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        credentials.certificate_header(),
    )
    .unwrap();
    let certificate = xs2a_sandbox::signing::certificate::TppCertificate::from_der(&der).unwrap();
    let key = ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        certificate.rsa_public_key.unwrap(),
    );
    let started = Instant::now();
    let mut count = 0u64;
    while started.elapsed() < Duration::from_secs(2) {
        for _ in 0..100 {
            key.verify(message, &signature).expect("verifies");
        }
        count += 100;
    }
    count as f64 / started.elapsed().as_secs_f64()
}

fn start_server(data: &std::path::Path, extra: &[&str]) -> (Child, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(extra)
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
    let authority = base.trim_start_matches("http://").to_owned();
    // First answer: any HTTP response on the socket.
    loop {
        if let Ok(mut stream) = std::net::TcpStream::connect(&authority) {
            use std::io::{Read, Write};
            stream
                .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut buffer = [0u8; 64];
            if stream.read(&mut buffer).unwrap_or(0) > 0 {
                break;
            }
        }
    }
    (child, authority, started.elapsed())
}

/// The server process's user + system CPU time, from /proc/<pid>/stat.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("linux /proc");
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    let per_second = 100; // USER_HZ on Linux
    Duration::from_millis(ticks * 1000 / per_second)
}

/// The unsigned readiness probe: the cost of the HTTP stack alone, for comparison.
fn health_request(authority: &str) -> Vec<u8> {
    format!("GET /health HTTP/1.1\r\nHost: {authority}\r\n\r\n").into_bytes()
}

fn signed_request(credentials: &SigningCredentials, authority: &str) -> Vec<u8> {
    let mut headers = axum::http::HeaderMap::new();
    let path = "/v1/sandbox/customers";
    credentials.sign(
        "GET",
        path,
        &mut headers,
        b"",
        time::OffsetDateTime::now_utc(),
        &SignOptions::default(),
    );
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\n");
    for (name, value) in &headers {
        request.push_str(&format!("{}: {}\r\n", name, value.to_str().unwrap()));
    }
    request.push_str("\r\n");
    request.into_bytes()
}

/// Reads one HTTP/1.1 response with Content-Length; returns its status.
async fn read_response(stream: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> u16 {
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
            return head[9..12].parse().unwrap();
        }
    }
}

async fn load(authority: String, request: Vec<u8>, options: &Options) -> (u64, Vec<Duration>) {
    let deadline = Instant::now() + Duration::from_secs(options.seconds);
    let mut tasks = Vec::new();
    for _ in 0..options.connections {
        let authority = authority.clone();
        let request = request.clone();
        tasks.push(tokio::spawn(async move {
            let mut stream = tokio::net::TcpStream::connect(&authority).await.unwrap();
            stream.set_nodelay(true).unwrap();
            let mut buffer = Vec::with_capacity(16384);
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let sent = Instant::now();
                stream.write_all(&request).await.unwrap();
                let status = read_response(&mut stream, &mut buffer).await;
                assert_eq!(status, 200, "{}", String::from_utf8_lossy(&buffer));
                latencies.push(sent.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    (all.len() as u64, all)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let options = options();
    let credentials = credentials();
    let verify_rate = raw_verify_rate(&credentials);
    println!(
        "raw RSA-2048 verify (ring, 1 core): {verify_rate:.0}/s = {:.1} µs each",
        1e6 / verify_rate
    );

    let data = tempfile::tempdir().unwrap();
    let mut starts = Vec::new();
    for _ in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let (mut child, _, elapsed) = start_server(dir.path(), &[]);
        starts.push(elapsed);
        child.kill().unwrap();
        child.wait().unwrap();
    }
    starts.sort();
    println!(
        "headless start to first answer: median {:.1} ms (of 5, fresh data dir each)",
        starts[2].as_secs_f64() * 1e3
    );

    let mut extra: Vec<&str> = Vec::new();
    if options.no_traffic {
        extra.push("--no-traffic");
    }
    if options.no_journal {
        extra.push("--no-journal");
    }
    let extra = &extra[..];
    println!(
        "traffic log: {}, change journal: {}",
        if options.no_traffic { "off" } else { "on" },
        if options.no_journal { "off" } else { "on" }
    );
    let (mut server, authority, _) = start_server(data.path(), extra);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let request = signed_request(&credentials, &authority);
    let (authority_for_health, authority_copy) = (authority.clone(), authority.clone());
    // Warm up: the first request parses and chain-checks the certificate (then cached).
    runtime.block_on(load(
        authority.clone(),
        request.clone(),
        &Options {
            seconds: 1,
            connections: 4,
            no_traffic: options.no_traffic,
        },
    ));
    let cpu_before = cpu_time(server.id());
    let started = Instant::now();
    let (count, mut latencies) = runtime.block_on(load(authority, request, &options));
    let wall = started.elapsed();
    let cpu = cpu_time(server.id()) - cpu_before;
    latencies.sort();
    let per_request = cpu.as_secs_f64() / count as f64;
    println!(
        "GET /v1/sandbox/customers, signed, {} connections, {} s: {count} requests, {:.0}/s",
        options.connections,
        options.seconds,
        count as f64 / wall.as_secs_f64()
    );
    println!(
        "latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.50).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    );
    println!(
        "server CPU per request: {:.1} µs = {:.2} x one raw verify",
        per_request * 1e6,
        per_request * verify_rate
    );

    let cpu_before = cpu_time(server.id());
    let started = Instant::now();
    let (count, mut latencies) = runtime.block_on(load(
        authority_for_health,
        health_request(&authority_copy),
        &options,
    ));
    let wall = started.elapsed();
    let floor = (cpu_time(server.id()) - cpu_before).as_secs_f64() / count as f64;
    latencies.sort();
    println!(
        "for comparison, unsigned GET /health on the same stack: {:.0}/s, p99 {:.2} ms, server CPU {:.1} µs per request",
        count as f64 / wall.as_secs_f64(),
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        floor * 1e6
    );
    server.kill().unwrap();
    server.wait().unwrap();
}
