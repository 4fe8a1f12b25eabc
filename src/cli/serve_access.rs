//! `serve`'s access settings as arguments: where it listens, which mode it runs in, where the operator
//! credential comes from, and the URLs it prints, on a computer and in the container image
//! (docs/reference/access.md, "In a container"). Apart from `serve` itself so that the rules are read in
//! one place and tested without starting a service.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use xs2a_core::bank::state::AccessMode;

/// The port the service listens on unless told otherwise (and the one the image publishes).
pub const DEFAULT_PORT: u16 = 8080;

/// `--mode`'s words.
pub fn parse_mode(text: &str) -> Result<AccessMode, String> {
    match text {
        "loopback" => Ok(AccessMode::Loopback),
        "shared" => Ok(AccessMode::Shared),
        other => Err(format!("'{other}' is not a mode: loopback or shared")),
    }
}

/// Where to listen: `--addr`, or `--port` on the default interface, or the default port on it. The
/// default interface is loopback on a computer and every interface in a container, whose port is
/// reached only through what the container publishes.
pub fn listen_addr(addr: Option<SocketAddr>, port: Option<u16>, container: bool) -> SocketAddr {
    let interface = if container {
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    } else {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    };
    match (addr, port) {
        (Some(addr), _) => addr,
        (None, port) => SocketAddr::new(interface, port.unwrap_or(DEFAULT_PORT)),
    }
}

/// The access mode: as asked (`--mode`, `--shared`), else loopback on a loopback address and shared on
/// any other. Loopback mode on another address opens the bank-side controls to every client that can
/// reach the port, so it is refused outside a container, where only the host's loopback (a port
/// published on 127.0.0.1) or a CI job's own service network reach it.
pub fn access_mode(
    asked: Option<AccessMode>,
    shared: bool,
    addr: SocketAddr,
    container: bool,
) -> Result<AccessMode, String> {
    let mode = match (asked, shared) {
        (Some(mode), _) => mode,
        (None, true) => AccessMode::Shared,
        (None, false) if addr.ip().is_loopback() => AccessMode::Loopback,
        (None, false) => AccessMode::Shared,
    };
    if mode == AccessMode::Loopback && !addr.ip().is_loopback() && !container {
        return Err(format!(
            "loopback mode on {addr} would open the bank-side controls to every client that reaches it; \
             listen on 127.0.0.1, or run in the container image (--container) with its port published \
             only on the host's 127.0.0.1"
        ));
    }
    Ok(mode)
}

/// Where the operator credential came from: how the workbench line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    /// Made at this start, or given on the command line or in `XS2A_OPERATOR_TOKEN`: printed.
    Printed,
    /// Read from a file (a mounted secret): a secret stays out of the log, the line names the file.
    File(String),
}

/// The operator credential in `path` (a mounted secret): its text without the line end; an empty or
/// unreadable file is an error that names it.
pub fn read_token_file(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read the operator token file {}: {e}",
            path.display()
        )
    })?;
    let token = text.trim_end_matches(['\n', '\r']);
    if token.trim().is_empty() {
        return Err(format!(
            "the operator token file {} is empty",
            path.display()
        ));
    }
    Ok(token.to_owned())
}

/// The base URL a user opens: `--public-url` as given, else the bound address, where an "every
/// interface" address (which no browser opens) becomes the loopback address of the same port.
pub fn reachable_url(bound: SocketAddr, public_url: Option<&str>) -> String {
    if let Some(url) = public_url {
        return url.trim_end_matches('/').to_owned();
    }
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => format!("http://127.0.0.1:{}", bound.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("http://[::1]:{}", bound.port()),
        _ => format!("http://{bound}"),
    }
}

/// The first line `serve` prints: the URL to use, and the address bound when that is another.
pub fn listening_line(reachable: &str, bound: SocketAddr, tls: Option<SocketAddr>) -> String {
    let mut line = format!("xs2a-sandbox listening on {reachable}");
    if let Some(tls) = tls {
        line.push_str(&format!(" and https://{tls}"));
    }
    if reachable != format!("http://{bound}") {
        line.push_str(&format!(" (bound to {bound})"));
    }
    line
}

/// The workbench's line: its URL with the operator credential, or, for a credential from a file, the
/// URL with a placeholder that says where the credential is.
pub fn workbench_line(reachable: &str, token: &str, source: &TokenSource) -> String {
    match source {
        TokenSource::Printed => format!("workbench: {reachable}/workbench/?token={token}"),
        TokenSource::File(path) => {
            format!("workbench: {reachable}/workbench/?token=<the operator token in {path}>")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_container_listens_on_every_interface_and_a_computer_on_loopback() {
        assert_eq!(listen_addr(None, None, false), at("127.0.0.1:8080"));
        assert_eq!(listen_addr(None, None, true), at("0.0.0.0:8080"));
        assert_eq!(listen_addr(None, Some(9000), true), at("0.0.0.0:9000"));
        assert_eq!(
            listen_addr(Some(at("127.0.0.1:1")), None, true),
            at("127.0.0.1:1")
        );
    }

    #[test]
    fn the_mode_follows_the_address_unless_asked_and_loopback_elsewhere_needs_a_container() {
        let any = at("0.0.0.0:8080");
        let local = at("127.0.0.1:8080");
        assert_eq!(
            access_mode(None, false, local, false),
            Ok(AccessMode::Loopback)
        );
        assert_eq!(access_mode(None, false, any, true), Ok(AccessMode::Shared));
        assert_eq!(
            access_mode(None, true, local, false),
            Ok(AccessMode::Shared)
        );
        assert_eq!(
            access_mode(Some(AccessMode::Loopback), false, any, true),
            Ok(AccessMode::Loopback)
        );
        let refused = access_mode(Some(AccessMode::Loopback), false, any, false).unwrap_err();
        assert!(refused.contains("--container"), "{refused}");
        assert!(parse_mode("open").is_err());
    }

    #[test]
    fn the_printed_url_is_one_a_browser_opens() {
        assert_eq!(
            reachable_url(at("0.0.0.0:8080"), None),
            "http://127.0.0.1:8080"
        );
        assert_eq!(reachable_url(at("[::]:8080"), None), "http://[::1]:8080");
        assert_eq!(reachable_url(at("127.0.0.1:5"), None), "http://127.0.0.1:5");
        assert_eq!(
            reachable_url(at("0.0.0.0:8080"), Some("http://127.0.0.1:18080/")),
            "http://127.0.0.1:18080"
        );
        assert_eq!(
            listening_line("http://127.0.0.1:8080", at("0.0.0.0:8080"), None),
            "xs2a-sandbox listening on http://127.0.0.1:8080 (bound to 0.0.0.0:8080)"
        );
        assert_eq!(
            listening_line("http://127.0.0.1:5", at("127.0.0.1:5"), None),
            "xs2a-sandbox listening on http://127.0.0.1:5"
        );
    }

    #[test]
    fn a_token_from_a_file_is_read_whole_and_never_printed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "s3cret-token\n").unwrap();
        assert_eq!(read_token_file(&path).unwrap(), "s3cret-token");
        std::fs::write(&path, "\n").unwrap();
        assert!(read_token_file(&path).unwrap_err().contains("is empty"));
        assert!(read_token_file(&dir.path().join("none"))
            .unwrap_err()
            .contains("cannot read the operator token file"));
        let line = workbench_line(
            "http://127.0.0.1:8080",
            "s3cret-token",
            &TokenSource::File("/run/secrets/token".into()),
        );
        assert!(!line.contains("s3cret-token"), "{line}");
        assert!(line.contains("/run/secrets/token"), "{line}");
    }
}
