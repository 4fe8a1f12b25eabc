//! Benchmark: signed-request throughput and latency over loopback against the real binary, beside the raw
//! RSA-2048 verification rate of the same key in-process; plus headless start to first answer.
//!
//! Run: `cargo bench --bench signed_requests` (optionally `-- --seconds 10 --connections 64`).
//! The server runs as its own process so its CPU time can be read from /proc and divided by the requests
//! it answered. The load generator is deliberately thin (raw HTTP/1.1 over keep-alive TCP, requests signed
//! once up front) so that it leaves as much of the 2 cores as possible to the server.
//!
//! `-- --server PATH` measures another build of the service instead of the one cargo built (the container
//! image's static binary against the glibc one: `scripts/measure-image-throughput.sh`).
//!
//! `-- --prism HOST:PORT [--prism-pid PID]` also sends the same signed request, with the same connections
//! for the same time, to a Prism mock of the service's OpenAPI document already listening there, and
//! prints its rate (and CPU per request, given its process): the comparison
//! `scripts/compare-signed-path.sh --prism` runs in alternating rounds.
//!
//! `-- --drive HOST:PORT --requests N [--health]` only sends N requests (signed GETs, or `/health`) one
//! after another over one connection to a server already running, and exits: what
//! `scripts/count-instructions.sh` uses to count a running server's instructions per request under
//! callgrind, where time is meaningless but instruction counts do not depend on the machine's load.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};

#[path = "signed_requests/process.rs"]
mod process;
use process::{cpu_time, memory, memory_field, ThreadUsage};

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
    let certificate = xs2a_core::signing::certificate::TppCertificate::from_der(&der).unwrap();
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

/// The service's binary: `--server PATH`, or the one cargo built beside this benchmark.
fn server_binary() -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--server")
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_xs2a-sandbox").to_owned())
}

fn start_server(data: &std::path::Path, extra: &[&str]) -> (Child, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new(server_binary())
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

/// Sends `requests` requests one after another over one keep-alive connection; each must answer 200.
fn drive(authority: &str, requests: u64, health: bool) {
    use std::io::{Read, Write};
    let request = if health {
        health_request(authority)
    } else {
        signed_request(&credentials(), authority)
    };
    let mut stream = std::net::TcpStream::connect(authority).expect("connects");
    stream.set_nodelay(true).unwrap();
    let mut buffer = Vec::with_capacity(16384);
    let mut chunk = [0u8; 16384];
    for _ in 0..requests {
        stream.write_all(&request).unwrap();
        buffer.clear();
        let length = loop {
            let n = stream.read(&mut chunk).expect("read");
            assert!(n > 0, "server closed the connection");
            buffer.extend_from_slice(&chunk[..n]);
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buffer[..end]).to_ascii_lowercase();
                assert!(head.starts_with("http/1.1 200"), "{head}");
                let body: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .map(|v| v.trim().parse().unwrap())
                    .expect("content-length");
                break end + 4 + body;
            }
        };
        while buffer.len() < length {
            let n = stream.read(&mut chunk).expect("read body");
            assert!(n > 0);
            buffer.extend_from_slice(&chunk[..n]);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--drive") {
        let requests = args
            .iter()
            .position(|a| a == "--requests")
            .and_then(|i| args.get(i + 1)?.parse().ok())
            .unwrap_or(1000);
        drive(
            &args[at + 1],
            requests,
            args.iter().any(|a| a == "--health"),
        );
        return;
    }
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
    println!("server: {}", server_binary());
    println!(
        "traffic log: {}, change journal: {}",
        if options.no_traffic { "off" } else { "on" },
        if options.no_journal { "off" } else { "on" }
    );
    let (mut server, authority, _) = start_server(data.path(), extra);
    println!(
        "server memory at start: VmRSS {} MB",
        memory_field(server.id(), "VmRSS:")
    );
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
            no_journal: options.no_journal,
        },
    ));
    let cpu_before = cpu_time(server.id());
    let threads_before = ThreadUsage::read(server.id());
    let started = Instant::now();
    let (count, mut latencies) = runtime.block_on(load(authority, request, &options));
    let wall = started.elapsed();
    let signed_rate = count as f64 / wall.as_secs_f64();
    let cpu = cpu_time(server.id()) - cpu_before;
    let threads = ThreadUsage::read(server.id()).describe_since(&threads_before, count);
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
    println!("{threads}");

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
    println!("{}", memory(server.id()));
    // What stays resident once the load is over: the figure of "idle RSS" (docs/performance.md).
    std::thread::sleep(Duration::from_secs(IDLE_SECONDS));
    println!(
        "server memory idle {IDLE_SECONDS} s after the load: VmRSS {} MB",
        memory_field(server.id(), "VmRSS:")
    );
    server.kill().unwrap();
    server.wait().unwrap();
    if let Some(prism) = prism_target() {
        against_prism(&runtime, &prism, &credentials, &options, signed_rate);
    }
}

/// How long the server is left alone after the load before its idle memory is read.
const IDLE_SECONDS: u64 = 3;

/// `--prism HOST:PORT` and `--prism-pid PID`, when given.
fn prism_target() -> Option<(String, Option<u32>)> {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let authority = value("--prism")?;
    Some((authority, value("--prism-pid").and_then(|p| p.parse().ok())))
}

/// The same signed GET against a Prism mock (which checks the request against the document but verifies
/// no signature), with the same connections for the same time: its rate, its CPU per request when its
/// process is known, and the sandbox's rate as a multiple of it.
fn against_prism(
    runtime: &tokio::runtime::Runtime,
    (authority, pid): &(String, Option<u32>),
    credentials: &SigningCredentials,
    options: &Options,
    sandbox_rate: f64,
) {
    let request = signed_request(credentials, authority);
    let cpu_before = pid.map(cpu_time);
    let started = Instant::now();
    let (count, _) = runtime.block_on(load(authority.clone(), request, options));
    let rate = count as f64 / started.elapsed().as_secs_f64();
    let cpu = match (pid, cpu_before) {
        (Some(pid), Some(before)) => format!(
            ", server CPU {:.1} µs per request",
            (cpu_time(*pid) - before).as_secs_f64() / count as f64 * 1e6
        ),
        _ => String::new(),
    };
    println!(
        "Prism mock, the same signed GET, {} connections, {} s: {count} requests, {rate:.0}/s{cpu}",
        options.connections, options.seconds
    );
    println!(
        "the sandbox's signed rate against Prism's: {:.1} x",
        sandbox_rate / rate
    );
}
