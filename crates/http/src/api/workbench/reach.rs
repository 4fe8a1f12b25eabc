//! Which peers count as "this machine" for the workbench: on a computer, the loopback peers; in a
//! container, whoever arrives through the port the container publishes (docs/reference/access.md, "In a
//! container"). Kept apart from the checks in `access`, which ask it about the peer and keep the host-name
//! rule (a DNS-rebinding page cannot pose as this machine) in both cases.

use axum::extract::{ConnectInfo, Request};
use std::net::SocketAddr;

/// Where the workbench's users are, as the service was started (`serve --container`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WorkbenchReach {
    /// On this computer: the peer must be a loopback address.
    #[default]
    ThisMachine,
    /// In a container: a browser on the host reaches the service through the published port, and the
    /// peer's address is the port publisher's (the container network's gateway, a user-space proxy, a
    /// desktop VM's), never loopback, so it says nothing. The operator credential (the API) and the
    /// loopback host name (every page) still hold.
    PublishedPort,
}

impl WorkbenchReach {
    /// True when a request from `peer` may reach the workbench.
    pub fn admits_peer(self, peer: Option<SocketAddr>) -> bool {
        match self {
            WorkbenchReach::ThisMachine => peer.is_some_and(|peer| peer.ip().is_loopback()),
            WorkbenchReach::PublishedPort => true,
        }
    }

    /// The reach a request was served under (the server marks every request; none: this machine).
    pub fn of(request: &Request) -> WorkbenchReach {
        request
            .extensions()
            .get::<WorkbenchReach>()
            .copied()
            .unwrap_or_default()
    }

    /// The peer a request came from.
    pub fn peer(request: &Request) -> Option<SocketAddr> {
        request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| *peer)
    }

    /// Where the workbench may be opened from, for a refusal's text.
    pub fn where_from(self) -> &'static str {
        match self {
            WorkbenchReach::ThisMachine => "only from this machine (loopback)",
            WorkbenchReach::PublishedPort => {
                "only through the container's published port, as http://127.0.0.1:<port> or \
                 http://localhost:<port> on the host that publishes it"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::StatusCode;
    use tower::ServiceExt;

    /// Asks `path` of the whole service served with `reach`, as `peer` asking for `host`, with the
    /// operator credential or not: the status and the first message's code.
    async fn ask(
        reach: WorkbenchReach,
        peer: &str,
        host: &str,
        path: &str,
        with_token: bool,
    ) -> (StatusCode, String) {
        let app = crate::app::App::build(crate::app::AppConfig::default()).unwrap();
        let router = crate::api::router(app.state().clone()).layer(axum::Extension(reach));
        let mut request = axum::http::Request::get(path).header("host", host);
        if with_token {
            request = request.header("authorization", format!("Bearer {}", app.operator_token()));
        }
        let mut request = request.body(Body::empty()).unwrap();
        let peer: SocketAddr = peer.parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        let response = router.oneshot(request).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        let code = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v["tppMessages"][0]["code"].as_str().map(str::to_owned))
            .unwrap_or_default();
        (status, code)
    }

    const GATEWAY: &str = "10.88.0.1:41000";
    const SESSION: &str = "/workbench/api/session";

    #[tokio::test]
    async fn through_a_published_port_the_host_opens_the_workbench_with_the_credential() {
        let published = WorkbenchReach::PublishedPort;
        let (status, _) = ask(published, GATEWAY, "127.0.0.1:8080", SESSION, true).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = ask(published, GATEWAY, "localhost:8080", "/workbench/", false).await;
        assert_ne!(status, StatusCode::FORBIDDEN);
        // The credential is still needed for the API.
        let (status, code) = ask(published, GATEWAY, "127.0.0.1:8080", SESSION, false).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::UNAUTHORIZED, "FORBIDDEN")
        );
    }

    #[tokio::test]
    async fn through_a_published_port_another_host_name_is_refused() {
        // A DNS-rebinding page, or a client on the network naming the host's address.
        for host in ["evil.example:8080", "192.0.2.7:8080"] {
            for path in [SESSION, "/workbench/"] {
                let (status, code) =
                    ask(WorkbenchReach::PublishedPort, GATEWAY, host, path, true).await;
                assert_eq!(
                    (status, code.as_str()),
                    (StatusCode::FORBIDDEN, "FORBIDDEN"),
                    "{host}{path}"
                );
            }
        }
    }

    #[tokio::test]
    async fn on_a_computer_a_peer_from_elsewhere_is_refused_even_with_the_credential() {
        let (status, code) = ask(
            WorkbenchReach::ThisMachine,
            GATEWAY,
            "127.0.0.1:8080",
            SESSION,
            true,
        )
        .await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::FORBIDDEN, "FORBIDDEN")
        );
        let (status, _) = ask(
            WorkbenchReach::ThisMachine,
            "127.0.0.1:41000",
            "127.0.0.1:8080",
            SESSION,
            true,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
    }

    #[test]
    fn a_computer_admits_loopback_peers_and_a_container_the_port_publisher() {
        let loopback: SocketAddr = "127.0.0.1:50000".parse().unwrap();
        let gateway: SocketAddr = "10.88.0.1:50000".parse().unwrap();
        assert!(WorkbenchReach::ThisMachine.admits_peer(Some(loopback)));
        assert!(!WorkbenchReach::ThisMachine.admits_peer(Some(gateway)));
        assert!(!WorkbenchReach::ThisMachine.admits_peer(None));
        assert!(WorkbenchReach::PublishedPort.admits_peer(Some(gateway)));
    }
}
