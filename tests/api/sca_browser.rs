//! The authorisation pages in a real headless browser (Debian's chromium, driven through chromedriver
//! with a minimal W3C WebDriver client): the PSU switches to Norwegian, types a national identity number,
//! clicks through method, context and consent, and the browser ends up at the TPP's redirect URI with
//! psu-id. This proves the pages work without JavaScript in the browser PSUs and trainers really use.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (CI installs them); without them the test
//! fails and says so, rather than passing without having run.

use crate::helpers::spawn_app;
use crate::sca_pages::{kari, param, start_sca};
use reqwest::Url;
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
/// The W3C name of the key that holds an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// chromedriver as a child process, killed when dropped (also when the test panics).
struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn child_is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Starts chromedriver on a free port and waits until it is ready.
    async fn start() -> Driver {
        for binary in [CHROMEDRIVER, CHROMIUM] {
            assert!(
                Path::new(binary).exists(),
                "{binary} is missing: this test drives a real headless browser. Install it with \
                 `apt-get install -y chromium chromium-driver` (CI installs both packages)."
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let mut driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let client = reqwest::Client::new();
        // Until it says it is ready, however long a loaded machine takes to start it (no deadline: a
        // driver that never starts leaves the test to the run's own limit).
        loop {
            let ready = client
                .get(format!("{}/status", driver.base))
                .send()
                .await
                .ok()
                .map(|r| r.json::<Value>());
            if let Some(body) = ready {
                if body.await.is_ok_and(|b| b["value"]["ready"] == true) {
                    return driver;
                }
            }
            assert!(
                driver.child_is_running(),
                "chromedriver exited before it became ready"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// One browser session.
struct Browser {
    client: reqwest::Client,
    session: String,
    driver: String,
}

impl Browser {
    async fn open(driver: &Driver, profile: &Path) -> Browser {
        let client = reqwest::Client::new();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                         "--disable-dev-shm-usage", format!("--user-data-dir={}", profile.display())],
            },
        }}});
        let response: Value = client
            .post(format!("{}/session", driver.base))
            .json(&capabilities)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session = response["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {response}"))
            .to_owned();
        Browser {
            client,
            session,
            driver: driver.base.clone(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/session/{}{path}", self.driver, self.session)
    }

    async fn command(&self, path: &str, body: Value) -> Value {
        let response: Value = self
            .client
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(
            response["value"]["error"].is_null(),
            "{path}: {}",
            response["value"]
        );
        response["value"].clone()
    }

    async fn read(&self, path: &str) -> String {
        let response: Value = self
            .client
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        response["value"].as_str().unwrap_or_default().to_owned()
    }

    async fn go(&self, url: &str) {
        self.command("/url", json!({"url": url})).await;
    }

    /// The element matching `css`, waiting for the page that has it (however long it takes; where it
    /// waits is said every hundred looks, for a run that hangs).
    async fn find(&self, css: &str) -> String {
        for looks in 1.. {
            let response: Value = self
                .client
                .post(self.url("/element"))
                .json(&json!({"using": "css selector", "value": css}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if let Some(id) = response["value"][ELEMENT_KEY].as_str() {
                return id.to_owned();
            }
            if looks % 100 == 0 {
                eprintln!(
                    "still no element {css} on {}: {}",
                    self.read("/url").await,
                    response["value"]
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        unreachable!()
    }

    async fn click(&self, css: &str) {
        let element = self.find(css).await;
        self.command(&format!("/element/{element}/click"), json!({}))
            .await;
    }

    async fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css).await;
        self.command(&format!("/element/{element}/value"), json!({"text": text}))
            .await;
    }

    /// Waits until the page title contains `text`.
    async fn wait_for_title(&self, text: &str) {
        for looks in 1.. {
            let title = self.read("/title").await;
            if title.contains(text) {
                return;
            }
            if looks % 100 == 0 {
                eprintln!("the title is still '{title}', waiting for '{text}'");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn close(self) {
        let _ = self.client.delete(self.url("")).send().await;
    }
}

#[tokio::test]
async fn sca_browser_a_psu_clicks_through_the_pages_in_headless_chromium_back_to_the_tpp() {
    let driver = Driver::start().await;
    let profile = tempfile::tempdir().unwrap();
    let app = spawn_app().await;
    // The TPP's redirect URI: the sandbox's own health probe, so the browser's last URL is real.
    let tpp_redirect = format!("{}/health?tpp=acme", app.base);
    let started = start_sca(&app, "/v1/accounts", &tpp_redirect, &[]).await;

    let browser = Browser::open(&driver, profile.path()).await;
    browser.go(&started.page).await;
    browser.wait_for_title("Identify yourself").await;
    browser.click("#lang-switch").await;
    browser.wait_for_title("Identifiser deg").await;

    browser.type_into("#nationalId", &kari()).await;
    browser.click("#identify-submit").await;
    browser.wait_for_title("Velg innloggingsmetode").await;
    browser.click("#method-HA2").await;
    browser.wait_for_title("Hvem opptrer du for?").await;
    browser.click("#context-PRIVATE").await;
    browser.click("#context-submit").await;
    browser.wait_for_title("Velg kontoer").await;
    browser.click("input[name=account]").await;
    browser.click("#consent-submit").await;

    // Until the browser is back at the TPP (the pages redirect it; no deadline).
    let landed = loop {
        let url = browser.read("/url").await;
        if url.contains("psu-id=") {
            break url;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    browser.close().await;

    assert!(landed.starts_with(&tpp_redirect), "{landed}");
    let params: Vec<(String, String)> = Url::parse(&landed)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    assert_eq!(param(&params, "tpp"), Some("acme"));
    uuid::Uuid::parse_str(param(&params, "psu-id").unwrap()).unwrap();
    assert_eq!(param(&params, "tpp-session-id"), Some("s-1"));
    assert_eq!(param(&params, "context"), Some("PRIVATE"));
    drop(driver);
}
