//! The transport's limits over real sockets, plain and TLS: header sizes (431 in the usual body), body
//! size (413), and the clocks — a client that dribbles its headers, one that sends less body than it
//! announced, and an idle keep-alive connection are all disconnected while other clients are served.
//! Short timeouts keep these fast; the assertions are "was disconnected" (read until the server closes,
//! however long a loaded machine takes) and lower bounds ("not before the timeout"), never an upper bound
//! on time.

use crate::helpers::{fixture_dir, spawn_app_with, test_config, TestApp};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use xs2a_http::api::limits::Limits;
use xs2a_http::app::AppConfig;

/// Timeouts of one second, sizes small enough to reach with a few headers (a signed request's
/// certificate header alone is about 1.3 KB).
fn short_limits() -> Limits {
    Limits {
        max_body_bytes: 1024,
        max_header_value_bytes: 2048,
        max_header_bytes: 8192,
        header_read_timeout: Duration::from_secs(1),
        body_read_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
    }
}

async fn spawn_limited() -> TestApp {
    spawn_app_with(AppConfig {
        limits: short_limits(),
        ..test_config()
    })
    .await
}

fn addr(app: &TestApp) -> String {
    app.base.trim_start_matches("http://").to_owned()
}

/// Reads until the server closes the connection: what it sent, and that it closed (a server that never
/// closes leaves the test to the run's own limit, rather than failing a slow machine at a guessed time).
async fn read_until_closed(stream: &mut (impl AsyncRead + Unpin)) -> (String, bool) {
    let mut received = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return (String::from_utf8_lossy(&received).into_owned(), true),
            Ok(n) => received.extend_from_slice(&buffer[..n]),
        }
    }
}

/// While a slow client is being handled, other clients are answered.
async fn others_are_served(app: &TestApp) {
    let response = app
        .client
        .get(format!("{}/health", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

/// Sends the head of a request one byte at a time, every 200 ms, for as long as the server listens;
/// returns how many bytes went out before the connection was cut.
async fn dribble_headers(stream: &mut (impl AsyncWrite + Unpin)) -> usize {
    let head = format!(
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: {}\r\n\r\n",
        "a".repeat(200)
    );
    for (sent, byte) in head.bytes().enumerate() {
        if stream.write_all(&[byte]).await.is_err() || stream.flush().await.is_err() {
            return sent;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    head.len()
}

#[tokio::test]
async fn a_header_value_over_the_limit_is_431_naming_the_header() {
    let app = spawn_limited().await;
    let response = app
        .get("/v1/sandbox/customers")
        .header("X-Filler", &"a".repeat(2049))
        .send()
        .await;
    response.assert_refused(431, "FORMAT_ERROR", Some("x-filler"));
    assert!(response.text().contains("2048"), "{}", response.text());
}

#[tokio::test]
async fn a_header_section_over_the_limit_is_431_bad_request() {
    let app = spawn_limited().await;
    let mut request = app.get("/health").unsigned();
    for i in 0..9 {
        request = request.header(&format!("X-Filler-{i}"), &"a".repeat(1000));
    }
    let response = request.send().await;
    response.assert_refused(431, "BAD_REQUEST", None);
    assert!(response.text().contains("8192"), "{}", response.text());
}

#[tokio::test]
async fn a_head_beyond_the_hard_limit_is_a_bare_431_from_the_http_layer() {
    let app = spawn_limited().await;
    let mut request = app.get("/health").unsigned();
    for i in 0..30 {
        request = request.header(&format!("X-Filler-{i}"), &"a".repeat(1000));
    }
    let response = request.send().await;
    assert_eq!(response.status, 431);
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_whether_announced_or_chunked() {
    let app = spawn_limited().await;
    let response = app
        .request(axum::http::Method::PUT, "/v1/tpp-dialogue/contact")
        .raw_body(&[b' '; 1025], "application/json")
        .send()
        .await;
    assert_eq!(
        (response.status, response.code()),
        (413, "BAD_REQUEST"),
        "{}",
        response.body
    );

    let mut stream = TcpStream::connect(addr(&app)).await.unwrap();
    let chunk = "a".repeat(600);
    let request = format!(
        "PUT /v1/tpp-dialogue/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n258\r\n{chunk}\r\n258\r\n{chunk}\r\n0\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let (answer, closed) = read_until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("\"tppMessages\""), "{answer}");
    assert!(closed);
}

#[tokio::test]
async fn a_client_that_dribbles_its_headers_is_disconnected_while_others_are_served() {
    let app = spawn_limited().await;
    let mut slow = TcpStream::connect(addr(&app)).await.unwrap();
    let dribbling = tokio::spawn(async move {
        let sent = dribble_headers(&mut slow).await;
        let (answer, closed) = read_until_closed(&mut slow).await;
        (sent, answer, closed)
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    others_are_served(&app).await;
    let (sent, answer, closed) = dribbling.await.unwrap();
    assert!(closed, "the slow client was not disconnected");
    assert!(!answer.contains("200 OK"), "{answer}");
    assert!(sent < 100, "{sent} bytes went out before the cut");
}

#[tokio::test]
async fn a_body_shorter_than_its_content_length_is_cut_off_with_408_while_others_are_served() {
    let app = spawn_limited().await;
    let mut watch = app.watch_traffic();
    let mut short = TcpStream::connect(addr(&app)).await.unwrap();
    short
        .write_all(
            b"PUT /v1/tpp-dialogue/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 100\r\n\r\n{\"email\":",
        )
        .await
        .unwrap();
    let waiting = tokio::spawn(async move { read_until_closed(&mut short).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    others_are_served(&app).await;
    let (answer, closed) = waiting.await.unwrap();
    assert!(closed, "the short body held the connection: {answer}");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 1 s"), "{answer}");
    // How much arrived, of how much, and what: the client learns what its proxy cut.
    assert!(
        answer.contains(
            r#"9 bytes of the 100 Content-Length announced arrived, starting '{\"email\":'"#
        ),
        "{answer}"
    );

    // The inspector shows it, as every request on the port (issue 32): a TPP behind a proxy that kept an
    // old Content-Length sees why it got no answer — from when the request began, for as long as the
    // server waited, with the bytes that did arrive.
    let logged = watch.exchange(&app, |s| s.status == 408).await;
    assert_eq!(logged["method"], "PUT", "{logged}");
    assert_eq!(logged["path"], "/v1/tpp-dialogue/contact");
    let waited = logged["durationMs"].as_u64().unwrap();
    assert!(
        waited >= 1000,
        "the 408 waited the body timeout, not {waited} ms"
    );
    let at = time::OffsetDateTime::parse(
        logged["at"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    // The test clock is frozen: the request began the wait before the clock's instant.
    assert!(
        at <= crate::helpers::TEST_NOW - time::Duration::seconds(1),
        "recorded at {at}, when the 408 was sent rather than when the request began"
    );
    assert_eq!(logged["request"]["body"], "{\"email\":", "{logged}");
    assert_eq!(logged["request"]["bodyBytes"], 9, "{logged}");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_idle_timeout() {
    let app = spawn_limited().await;
    let mut stream = TcpStream::connect(addr(&app)).await.unwrap();
    let request = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    // Within the timeout the connection serves request after request.
    for _ in 0..3 {
        stream.write_all(request).await.unwrap();
        let mut buffer = [0u8; 1024];
        let n = stream.read(&mut buffer).await.unwrap();
        assert!(String::from_utf8_lossy(&buffer[..n]).starts_with("HTTP/1.1 200"));
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let started = Instant::now();
    let (rest, closed) = read_until_closed(&mut stream).await;
    assert!(closed && rest.is_empty(), "{rest}");
    assert!(started.elapsed() >= Duration::from_millis(500));
}

#[tokio::test]
async fn over_tls_a_client_that_dribbles_its_headers_is_disconnected_too() {
    let app = spawn_limited().await;
    let port = app.serve_tls().await;

    let ca = std::fs::read(fixture_dir("ca").join("cert.pem")).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_pemfile::certs(&mut ca.as_slice()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let client = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(client));
    let tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let mut tls = connector
        .connect("localhost".try_into().unwrap(), tcp)
        .await
        .expect("the TLS handshake succeeds");
    let sent = dribble_headers(&mut tls).await;
    let (answer, closed) = read_until_closed(&mut tls).await;
    assert!(closed, "the slow TLS client was not disconnected");
    assert!(!answer.contains("200 OK"), "{answer}");
    assert!(sent < 100, "{sent} bytes went out before the cut");
}

#[tokio::test]
async fn the_serve_flags_set_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, base) = crate::cli::start_server(
        &dir.path().join("data"),
        &["--max-body-bytes", "100", "--idle-timeout", "1"],
    );
    let client = reqwest::Client::new();
    let response = client
        .put(format!("{base}/v1/tpp-dialogue/contact"))
        .header("Content-Type", "application/json")
        .body(vec![b' '; 101])
        .send()
        .await
        .unwrap();
    // (A 400 here means the binary is not this build's: CARGO_BIN_EXE is shared by a target dir.)
    assert_eq!(response.status(), 413, "{}", response.text().await.unwrap());
    let mut stream = TcpStream::connect(base.trim_start_matches("http://"))
        .await
        .unwrap();
    let (_, closed) = read_until_closed(&mut stream).await;
    assert!(closed, "the idle connection was not closed");
    server.kill().unwrap();
    server.wait().unwrap();
}

#[tokio::test]
async fn an_event_stream_is_a_request_under_way_and_outlives_the_idle_timeout() {
    let app = spawn_limited().await;
    let mut headers = axum::http::HeaderMap::new();
    crate::helpers::tpp("aisp-pisp").sign(
        "GET",
        "/v1/sandbox/events",
        &mut headers,
        b"",
        app.state.clock.now(),
        &Default::default(),
    );
    let mut response = app
        .client
        .get(format!("{}/v1/sandbox/events", app.base))
        .headers(headers)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let until = tokio::time::Instant::now() + Duration::from_millis(2500);
    loop {
        match tokio::time::timeout_at(until, response.chunk()).await {
            Err(_) => break,
            Ok(Ok(Some(_))) => continue,
            Ok(ended) => panic!("the event stream ended under the idle timeout: {ended:?}"),
        }
    }
}

#[tokio::test]
async fn handlers_still_learn_the_peer_address() {
    use axum::extract::ConnectInfo;
    let router = axum::Router::new().route(
        "/peer",
        axum::routing::get(
            |ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>| async move { peer.to_string() },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let (stream, peer) = listener.accept().await.unwrap();
        xs2a_http::api::connection::serve_connection(
            stream,
            router,
            short_limits(),
            graceful.watcher(),
            peer,
        )
        .await;
    });
    let mut client = TcpStream::connect(addr).await.unwrap();
    let me = client.local_addr().unwrap().to_string();
    client
        .write_all(b"GET /peer HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let (answer, _) = read_until_closed(&mut client).await;
    assert!(answer.ends_with(&me), "{answer}");
}
