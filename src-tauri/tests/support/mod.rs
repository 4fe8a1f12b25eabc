//! What the real-window tests share: the app started by tauri-driver and WebKitWebDriver under Xvfb with a
//! HOME of its own, a fantoccini client over it, and queries that find elements as a person does (role and
//! accessible name, label), like Testing Library and Playwright in ui/e2e. Each test file includes it with
//! `mod support;` and uses what it needs.
#![allow(dead_code)]

use fantoccini::elements::Element;
use fantoccini::wd::WindowHandle;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::future::Future;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long one step may take to show its result (the Playwright test allows 15 s).
pub const STEP: Duration = Duration::from_secs(20);

/// Finds elements as a person does, by role and accessible name or by label, like Testing Library and
/// Playwright (a small subset: explicit roles, the implicit roles the workbench uses, names from
/// aria-label, aria-labelledby, <label>, <caption>, <legend> and text). The match is tagged with a
/// `data-wd` attribute so that WebDriver can then find it by CSS and act on it natively.
const QUERIES: &str = r#"
const [kind, within, role, name, exact, nth] = arguments;
// Text as an accessible name has it: without aria-hidden parts (a tab's shortcut digit, icons).
const text = (el) => {
  if (!el) return "";
  let copy = el;
  if (el.querySelector && el.querySelector("[aria-hidden=true]")) {
    copy = el.cloneNode(true);
    copy.querySelectorAll("[aria-hidden=true]").forEach((hidden) => hidden.remove());
  }
  return (copy.textContent || "").replace(/\s+/g, " ").trim();
};
const implicit = (el) => {
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute("type") || "text").toLowerCase();
  if (tag === "button") return "button";
  if (tag === "a" && el.hasAttribute("href")) return "link";
  if (tag === "select") return el.multiple ? "listbox" : "combobox";
  if (tag === "textarea") return "textbox";
  if (tag === "input") return { checkbox: "checkbox", radio: "radio", submit: "button", button: "button" }[type] || "textbox";
  if (tag === "form" && (el.getAttribute("aria-label") || el.getAttribute("aria-labelledby"))) return "form";
  if (tag === "section" && (el.getAttribute("aria-label") || el.getAttribute("aria-labelledby"))) return "region";
  return { table: "table", tr: "row", ul: "list", ol: "list", li: "listitem", details: "group", fieldset: "group",
           article: "article", dialog: "dialog", option: "option", h1: "heading", h2: "heading", h3: "heading",
           h4: "heading" }[tag] || null;
};
const roleOf = (el) => el.getAttribute("role") || implicit(el);
const labelOf = (el) => {
  if (el.getAttribute("aria-label")) return el.getAttribute("aria-label").trim();
  const by = el.getAttribute("aria-labelledby");
  if (by) return by.split(/\s+/).map((id) => text(document.getElementById(id))).join(" ").trim();
  if (el.id) {
    const label = document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    if (label) return text(label);
  }
  const wrapping = el.closest("label");
  if (wrapping) return text(wrapping);
  return null;
};
const nameOf = (el) => {
  const label = labelOf(el);
  if (label !== null) return label;
  const tag = el.tagName.toLowerCase();
  if (tag === "table" && el.caption) return text(el.caption);
  if (tag === "fieldset" && el.querySelector("legend")) return text(el.querySelector("legend"));
  if (el.getAttribute("title")) return el.getAttribute("title");
  return text(el);
};
const matches = (candidate) => {
  if (name === null || name === "") return true;
  if (name.startsWith("/")) return new RegExp(name.slice(1, name.lastIndexOf("/")), name.slice(name.lastIndexOf("/") + 1)).test(candidate);
  return exact ? candidate === name : candidate.toLowerCase().includes(name.toLowerCase());
};
const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
const root = within ? document.querySelector(`[data-wd="${within}"]`) : document;
if (!root) return null;
let found;
if (kind === "role") {
  found = [...root.querySelectorAll("*")].filter((el) => roleOf(el) === role && matches(nameOf(el)));
} else {
  // Form controls first; then, as Playwright's getByLabel does, any element named by aria-label(ledby).
  const labelled = (selector) => [...root.querySelectorAll(selector)]
    .filter((el) => { const l = labelOf(el); return l !== null && matches(l); });
  found = labelled("input, select, textarea, [role=textbox], [role=combobox], [contenteditable=true]");
  if (!found.length) found = labelled("[aria-label], [aria-labelledby]");
}
const visible = found.filter(shown);
const el = (visible.length ? visible : found)[nth];
if (!el) return null;
if (!el.dataset.wd) el.dataset.wd = String(Math.random()).slice(2);
return el.dataset.wd;
"#;

/// Where a query looks: the whole page or inside an element found before.
#[derive(Clone, Debug, Default)]
pub struct Scope(pub Option<String>);

/// The test's view of the window: a WebDriver client and a name for the step it is on.
pub struct Window {
    pub client: Client,
    pub shots: PathBuf,
}

/// Polls `probe` until it answers `Some`, for at most `limit`.
pub async fn eventually<T, F, Fut>(what: &str, limit: Duration, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let until = Instant::now() + limit;
    loop {
        if let Some(value) = probe().await {
            return value;
        }
        if Instant::now() > until {
            panic!("timed out after {limit:?} waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

impl Window {
    pub async fn query(
        &self,
        kind: &str,
        scope: &Scope,
        role: &str,
        name: &str,
        exact: bool,
        nth: usize,
    ) -> Option<(Scope, Element)> {
        let args = vec![
            json!(kind),
            json!(scope.0),
            json!(role),
            json!(name),
            json!(exact),
            json!(nth),
        ];
        let tag = self.client.execute(QUERIES, args).await.ok()?;
        let tag = tag.as_str()?.to_owned();
        let element = self
            .client
            .find(Locator::Css(&format!("[data-wd=\"{tag}\"]")))
            .await
            .ok()?;
        Some((Scope(Some(tag)), element))
    }

    /// The `nth` element with this role and name (`/regex/` or text) inside `scope`, waited for.
    pub async fn role_nth(
        &self,
        scope: &Scope,
        role: &str,
        name: &str,
        nth: usize,
    ) -> (Scope, Element) {
        let what = format!("{role} \"{name}\" #{nth} in {scope:?}");
        eventually(&what, STEP, || {
            self.query("role", scope, role, name, true, nth)
        })
        .await
    }

    pub async fn role(&self, scope: &Scope, role: &str, name: &str) -> (Scope, Element) {
        self.role_nth(scope, role, name, 0).await
    }

    pub async fn label(&self, scope: &Scope, label: &str) -> Element {
        let what = format!("the field labelled \"{label}\" in {scope:?}");
        eventually(&what, STEP, || {
            self.query("label", scope, "", label, true, 0)
        })
        .await
        .1
    }

    pub async fn has_label(&self, scope: &Scope, label: &str) -> Option<Element> {
        self.query("label", scope, "", label, true, 0)
            .await
            .map(|(_, e)| e)
    }

    pub async fn click(&self, scope: &Scope, role: &str, name: &str) {
        let (_, element) = self.role(scope, role, name).await;
        element
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {role} \"{name}\": {e}"));
    }

    pub async fn fill(&self, scope: &Scope, label: &str, value: &str) {
        let field = self.label(scope, label).await;
        field
            .clear()
            .await
            .unwrap_or_else(|e| panic!("clear \"{label}\": {e}"));
        // WebKitWebDriver refuses to send no keys ("Missing text parameter"): clearing is the whole fill.
        if !value.is_empty() {
            field
                .send_keys(value)
                .await
                .unwrap_or_else(|e| panic!("type into \"{label}\": {e}"));
        }
    }

    pub async fn value(&self, element: &Element) -> String {
        element
            .prop("value")
            .await
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Chooses the option of a <select> whose text is `option` (or ends with it, with `suffix`).
    pub async fn select(&self, scope: &Scope, label: &str, option: &str, suffix: bool) -> bool {
        let select = self.label(scope, label).await;
        let value = self
            .client
            .execute(
                "const [select, option, suffix] = arguments;\
                 const o = [...select.options].find((o) => suffix ? o.textContent.trim().endsWith(option) \
                   : (o.textContent.trim() === option || o.value === option));\
                 return o ? o.value : null;",
                vec![
                    serde_json::to_value(&select).unwrap(),
                    json!(option),
                    json!(suffix),
                ],
            )
            .await
            .unwrap();
        let Some(value) = value.as_str() else {
            return false;
        };
        select.select_by_value(value).await.unwrap();
        true
    }

    /// The visible text of an element.
    pub async fn text(&self, element: &Element) -> String {
        element.text().await.unwrap_or_default()
    }

    /// Waits until the element found by role and name contains `expected` (`/regex/` or text).
    pub async fn expect_text(
        &self,
        scope: &Scope,
        role: &str,
        name: &str,
        expected: &str,
    ) -> String {
        let what = format!("{role} \"{name}\" to contain \"{expected}\"");
        eventually(&what, STEP, || async {
            let (_, element) = self.query("role", scope, role, name, true, 0).await?;
            let text = self.text(&element).await;
            let found = match expected.strip_prefix('/') {
                Some(re) => regex_lite(re, &text),
                None => text.contains(expected),
            };
            found.then_some(text)
        })
        .await
    }

    /// Switches screen by its tab and answers the screen's panel.
    pub async fn show(&self, screen: &str) -> Scope {
        let (_, tab) = self.role(&Scope::default(), "tab", screen).await;
        tab.click().await.unwrap();
        eventually(&format!("the {screen} tab selected"), STEP, || async {
            (tab.attr("aria-selected").await.ok()??.as_str() == "true").then_some(())
        })
        .await;
        let id = tab.attr("aria-controls").await.unwrap().unwrap();
        let panel = self.client.find(Locator::Id(&id)).await.unwrap();
        let tag = format!("panel-{id}");
        self.client
            .execute(
                "arguments[0].dataset.wd = arguments[1];",
                vec![serde_json::to_value(&panel).unwrap(), json!(tag)],
            )
            .await
            .unwrap();
        Scope(Some(tag))
    }

    pub async fn snap(&self, name: &str) {
        std::fs::create_dir_all(&self.shots).unwrap();
        // Let the code editors lay out (CodeMirror measures on the next animation frames).
        tokio::time::sleep(Duration::from_millis(300)).await;
        match self.client.screenshot().await {
            Ok(png) => std::fs::write(self.shots.join(format!("desktop-{name}.png")), png).unwrap(),
            Err(e) => eprintln!("screenshot {name} failed: {e}"),
        }
    }

    /// Goes through the bank's pages in the app's SCA window as the PSU (national identity number, a
    /// method, private person, Approve) until they end at the workbench's callback, then comes back to the
    /// `main` window. `before` are the window handles from before the SCA window was asked for.
    pub async fn approve_in_sca_pages(
        &self,
        main: WindowHandle,
        before: &[WindowHandle],
        national_id: &str,
        shot: Option<&str>,
    ) {
        // The SCA window is a second webview of the app (the open_sca_window command), not a popup; the
        // first time it appears as a new window handle, later it is the same window on a new page.
        let sca = eventually("the SCA window", STEP, || async {
            let handles = self.client.windows().await.ok()?;
            handles
                .iter()
                .find(|h| **h != main && (!before.contains(h) || before.len() > 1))
                .cloned()
        })
        .await;
        self.client.switch_to_window(sca).await.unwrap();
        // A reused SCA window still shows the last callback until the command has navigated it.
        eventually("the SCA window on the bank's pages", STEP, || async {
            let url = self.client.current_url().await.ok()?;
            (!url.path().starts_with("/workbench/callback")).then_some(())
        })
        .await;
        let page = Scope::default();
        let mut done = false;
        for _ in 0..24 {
            let url = self.client.current_url().await.unwrap();
            if url.path().starts_with("/workbench/callback") {
                done = true;
                break;
            }
            if let Some(id) = self.has_label(&page, "National identity number").await {
                if id.is_displayed().await.unwrap_or(false) {
                    id.clear().await.unwrap();
                    id.send_keys(national_id).await.unwrap();
                    self.click(&page, "button", "Continue").await;
                    continue;
                }
            }
            if let Some((_, method)) = self
                .query("role", &page, "button", "/HA2|biometrics/", true, 0)
                .await
            {
                method.click().await.unwrap();
                continue;
            }
            if let Some((_, privately)) = self
                .query("role", &page, "radio", "/private person/", true, 0)
                .await
            {
                privately.click().await.unwrap();
                self.click(&page, "button", "Continue").await;
                continue;
            }
            let mut acted = false;
            for name in ["Approve", "Confirm"] {
                if let Some((_, button)) = self.query("role", &page, "button", name, true, 0).await
                {
                    if let Some(shot) = shot {
                        self.snap(shot).await;
                    }
                    button.click().await.unwrap();
                    acted = true;
                    break;
                }
            }
            if !acted {
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        }
        assert!(
            done,
            "the SCA pages did not end at the workbench callback; last page {}",
            self.client.current_url().await.unwrap()
        );
        self.expect_text(&page, "heading", "", "SCA finished").await;
        self.client.switch_to_window(main).await.unwrap();
    }
}

/// A regular expression match for the few patterns the test uses (`A|B`, literal text).
pub fn regex_lite(pattern: &str, text: &str) -> bool {
    let pattern = pattern.trim_end_matches('/');
    pattern
        .split('|')
        .any(|alternative| text.contains(alternative))
}

pub fn mod11(digits: &[u32], weights: &[u32]) -> Option<u32> {
    let sum: u32 = digits.iter().zip(weights).map(|(d, w)| d * w).sum();
    match 11 - sum % 11 {
        11 => Some(0),
        10 => None,
        check => Some(check),
    }
}

pub const K1: [u32; 9] = [3, 7, 6, 1, 8, 9, 4, 5, 2];
pub const K2: [u32; 10] = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

pub fn digits(text: &str) -> Vec<u32> {
    text.chars().map(|c| c.to_digit(10).unwrap()).collect()
}

/// A synthetic national identity number (1 March 1990, month + 80) with valid check digits.
pub fn synthetic_national_id() -> String {
    (100..500)
        .find_map(|individual| {
            let mut base = digits(&format!("018390{individual:03}"));
            base.push(mod11(&base, &K1)?);
            base.push(mod11(&base, &K2)?);
            Some(base.iter().map(|d| d.to_string()).collect())
        })
        .unwrap()
}

/// A BBAN in the sandbox bank's range with a valid check digit.
pub fn bban(start: u32) -> String {
    (start..start + 1000)
        .find_map(|n| {
            let mut base = digits(&format!("120{n:07}"));
            base.push(mod11(&base, &K2)?);
            Some(base.iter().map(|d| d.to_string()).collect())
        })
        .unwrap()
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn app_binary() -> PathBuf {
    if let Some(bin) = std::env::var_os("XS2A_DESKTOP_BIN") {
        return PathBuf::from(bin);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join("target"));
    target.join("release").join("xs2a-desktop")
}

/// tauri-driver, stopped with SIGTERM when dropped: SIGKILL would orphan WebKitWebDriver on its port.
pub struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts tauri-driver with HOME and XDG_* in `home`, so the app keeps its data (and WebKit and Mesa their
/// caches) there.
pub fn start_driver(home: &Path, port: u16, log: &Path) -> Driver {
    start_driver_with(home, port, log, &[])
}

/// As `start_driver`, with more environment for the app (WebKitWebDriver passes its own on to it).
pub fn start_driver_with(home: &Path, port: u16, log: &Path, env: &[(&str, String)]) -> Driver {
    for dir in [".local/share", ".config", ".cache", "runtime"] {
        std::fs::create_dir_all(home.join(dir)).unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ =
            std::fs::set_permissions(home.join("runtime"), std::fs::Permissions::from_mode(0o700));
    }
    let log = std::fs::File::create(log).unwrap();
    let driver = std::env::var("TAURI_DRIVER").unwrap_or_else(|_| "tauri-driver".into());
    let child = Command::new(driver)
        .args([
            "--port",
            &port.to_string(),
            "--native-port",
            &free_port().to_string(),
        ])
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("XDG_RUNTIME_DIR", home.join("runtime"))
        // WebKitWebDriver's screenshots never answer when the page renders without WebKit's DMA-BUF
        // renderer, which the app turns off to save memory unless this is set (src-tauri/src/memory.rs);
        // with it the page looks the same. A test may still override it through `env`.
        .env("WEBKIT_DISABLE_DMABUF_RENDERER", "0")
        .envs(env.iter().map(|(name, value)| (name, value)))
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .stdin(Stdio::null())
        .spawn()
        .expect("tauri-driver starts (cargo install tauri-driver --locked --version ^2)");
    Driver(child)
}

pub async fn connect(port: u16, app: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("wry"));
    caps.insert(
        "tauri:options".into(),
        json!({ "application": app.display().to_string() }),
    );
    let url = format!("http://127.0.0.1:{port}");
    let mut last = String::new();
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        match ClientBuilder::native()
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("no WebDriver session on {url}: {last}");
}

/// Sums `Pss` of `/proc/PID/smaps_rollup` over the process and its descendants (kB), with a breakdown.
pub fn whole_app_pss(pid: u32) -> (u64, String) {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| {
            let child: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).ok()?;
            // The command name is in parentheses and may hold spaces: the fields after it are fixed.
            let after = &stat[stat.rfind(')')? + 2..];
            let parent = after.split(' ').nth(1)?.parse().ok()?;
            Some((child, parent))
        })
        .collect();
    let mut tree = vec![pid];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    let mut total = 0;
    let mut detail = Vec::new();
    for p in tree {
        let rollup = std::fs::read_to_string(format!("/proc/{p}/smaps_rollup")).unwrap_or_default();
        let kb: u64 = rollup
            .lines()
            .find_map(|l| l.strip_prefix("Pss:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0);
        let name = std::fs::read_to_string(format!("/proc/{p}/comm")).unwrap_or_default();
        total += kb;
        detail.push(format!("{} {} MB", name.trim(), kb / 1024));
    }
    (total, detail.join(", "))
}

/// The instance note the service writes into its data directory while it serves.
pub fn instance_file(home: &Path) -> PathBuf {
    home.join(".local/share/no.sandbox.xs2a.workbench/instance.json")
}
