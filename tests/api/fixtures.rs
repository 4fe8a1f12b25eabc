//! State files from the command line (docs/fixtures.md): `export` and `import` round trip, every refused
//! file names its JSON pointer and leaves the data directory as it was (kill -9 in the middle of an import
//! too), and `serve --fixture` starts preloaded.

use crate::cli::binary;
use crate::helpers::{tpp, TEST_NOW};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use xs2a_http::app::{App, AppConfig, ClockStart, DataDir};

/// A data directory holding the initialised sandbox with its clock frozen at [`TEST_NOW`].
pub fn seeded_dir(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(name);
    let app = App::build(AppConfig {
        data: DataDir::At(dir.clone()),
        clock: ClockStart::FrozenAt(TEST_NOW),
        ..AppConfig::default()
    })
    .unwrap();
    app.close().unwrap();
    drop(app);
    // The service's threads let go of the directory shortly after it closes: wait until another process
    // can open it, however long that takes (a refusal for any other reason fails at once).
    loop {
        let free = binary()
            .arg("export")
            .arg("--data")
            .arg(&dir)
            .arg("--out")
            .arg(root.join("probe.json"))
            .output()
            .unwrap();
        if free.status.success() {
            return dir;
        }
        let said = String::from_utf8_lossy(&free.stderr);
        assert!(
            said.contains("holds") || said.contains("running"),
            "export refused the directory: {said}"
        );
        // A pause between tries, so as not to spin; it bounds nothing.
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn run(command: &mut Command) -> (i32, String, String) {
    let output = command.output().expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `export --data DIR --out FILE`, asserting success; the file's bytes.
pub fn export(dir: &Path, out: &Path) -> Vec<u8> {
    let (code, _, err) = run(binary()
        .arg("export")
        .arg("--data")
        .arg(dir)
        .arg("--out")
        .arg(out));
    assert_eq!(code, 0, "{err}");
    std::fs::read(out).unwrap()
}

/// Starts `serve` with `args` (no --data: a fixture then runs in a temporary directory); the base URL.
pub fn serve(args: &[&str]) -> (Child, String) {
    let mut child = binary()
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let Some(base) = line.split_whitespace().find(|w| w.starts_with("http://")) else {
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err);
        panic!("no base URL in '{line}': {err}");
    };
    (child, base.to_owned())
}

/// A signed request to a served sandbox, dated at the sandbox clock (from /health).
pub async fn signed(base: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let client = reqwest::Client::new();
    let health: Value = client
        .get(format!("{base}/health"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let now = time::OffsetDateTime::parse(
        health["now"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
    let mut headers = axum::http::HeaderMap::new();
    if body.is_some() {
        headers.insert("content-type", "application/json".parse().unwrap());
    }
    tpp("aisp-pisp").sign(method, path, &mut headers, &bytes, now, &Default::default());
    let mut request = client.request(method.parse().unwrap(), format!("{base}{path}"));
    for (name, value) in &headers {
        request = request.header(name.as_str(), value.to_str().unwrap());
    }
    let response = request.body(bytes).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[test]
fn export_import_into_an_empty_directory_and_export_again_gives_the_same_file() {
    let root = tempfile::tempdir().unwrap();
    let dir = seeded_dir(root.path(), "data");
    let first = export(&dir, &root.path().join("state.json"));
    let head: Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(head["format"], "xs2a-sandbox/state");
    assert_eq!(head["version"], xs2a_workbench::state_file::VERSION);
    assert!(
        head["trees"]["clock"][0]["state"]
            .to_string()
            .contains("2026-06-01"),
        "{}",
        head["trees"]["clock"]
    );

    let empty = root.path().join("empty");
    let (code, out, err) = run(binary()
        .arg("import")
        .arg(root.path().join("state.json"))
        .arg("--data")
        .arg(&empty));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("imported "), "{out}");
    let second = export(&empty, &root.path().join("again.json"));
    assert!(first == second, "the second export differs from the first");
}

#[test]
fn a_merge_preview_says_what_would_change_and_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let dir = seeded_dir(root.path(), "data");
    let state: Value = serde_json::from_slice(&export(&dir, &root.path().join("s.json"))).unwrap();
    let mut customer = state["trees"]["sandbox-customers"][0].clone();
    customer["id"] = json!("0f0f0f0f-0000-4000-8000-000000000001");
    customer["customerNumber"] = json!("01010199999");
    let file = root.path().join("merge.json");
    std::fs::write(&file, json!({"format": "xs2a-sandbox/state", "version": 1, "trees": {"sandbox-customers": [customer]}}).to_string()).unwrap();
    let before = export(&dir, &root.path().join("before.json"));
    let (code, out, err) = run(binary()
        .arg("import")
        .arg(&file)
        .arg("--data")
        .arg(&dir)
        .args(["--merge", "--preview"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("sandbox-customers: 1 added, 0 changed, 0 unchanged, 0 removed"),
        "{out}"
    );
    assert!(
        export(&dir, &root.path().join("after.json")) == before,
        "a preview wrote"
    );
    let (code, out, _) = run(binary()
        .arg("import")
        .arg(&file)
        .arg("--data")
        .arg(&dir)
        .arg("--merge"));
    assert_eq!(code, 0);
    assert!(out.starts_with("imported 1 records (merge)"), "{out}");
}

/// Each bad file, the pointer its refusal names, and a word of the message.
fn bad_files(good: &Value) -> Vec<(&'static str, Vec<u8>, &'static str, &'static str)> {
    let text = good.to_string();
    let mut schema = good.clone();
    schema["trees"]["sandbox-accounts"][1]["balances"] = json!("lots");
    let mut collision = good.clone();
    let twin = collision["trees"]["sandbox-customers"][0].clone();
    collision["trees"]["sandbox-customers"]
        .as_array_mut()
        .unwrap()
        .push(twin);
    let last = collision["trees"]["sandbox-customers"]
        .as_array()
        .unwrap()
        .len()
        - 1;
    let collision_at: &'static str =
        Box::leak(format!("/trees/sandbox-customers/{last}").into_boxed_str());
    let mut missing = good.clone();
    missing["trees"]["consents"] = json!([]);
    missing["trees"]["sandbox-card-accounts"][0]["customerId"] = json!("nobody");
    let mut version = good.clone();
    version["version"] = json!(7);
    vec![
        (
            "malformed",
            b"{\"format\": \"xs2a-sandbox/state\", \"version\": 1, \"trees\": {\"clock\": [}}"
                .to_vec(),
            "/trees/clock/0",
            "not JSON",
        ),
        (
            "truncated",
            text.as_bytes()[..text.len() * 2 / 3].to_vec(),
            "/trees/",
            "truncated",
        ),
        (
            "schema-invalid",
            schema.to_string().into_bytes(),
            "/trees/sandbox-accounts/1/balances",
            "invalid type",
        ),
        (
            "unknown version",
            version.to_string().into_bytes(),
            "/version",
            "version 7 is unknown",
        ),
        (
            "colliding ids",
            collision.to_string().into_bytes(),
            collision_at,
            "same id",
        ),
        (
            "missing account",
            missing.to_string().into_bytes(),
            "/trees/sandbox-card-accounts/0/customerId",
            "nobody",
        ),
    ]
}

#[test]
fn every_refused_file_names_its_json_pointer_and_leaves_the_data_untouched() {
    let root = tempfile::tempdir().unwrap();
    let dir = seeded_dir(root.path(), "data");
    let before = export(&dir, &root.path().join("before.json"));
    let good: Value = serde_json::from_slice(&before).unwrap();
    for (name, bytes, pointer, word) in bad_files(&good) {
        let file = root.path().join(format!("{name}.json"));
        std::fs::write(&file, bytes).unwrap();
        let (code, _, err) = run(binary().arg("import").arg(&file).arg("--data").arg(&dir));
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains("refused, nothing imported"), "{name}: {err}");
        assert!(
            err.contains(&format!("at {pointer}")),
            "{name}: expected the pointer {pointer} in: {err}"
        );
        assert!(err.contains(word), "{name}: expected '{word}' in: {err}");
        let after = export(&dir, &root.path().join("after.json"));
        assert!(after == before, "{name}: the data changed");
    }
}

#[test]
fn a_merge_onto_a_different_record_is_refused_as_a_collision() {
    let root = tempfile::tempdir().unwrap();
    let dir = seeded_dir(root.path(), "data");
    let before = export(&dir, &root.path().join("before.json"));
    let good: Value = serde_json::from_slice(&before).unwrap();
    let mut account = good["trees"]["sandbox-accounts"][3].clone();
    account["name"] = json!("Another name");
    let file = root.path().join("merge.json");
    std::fs::write(&file, json!({"format": "xs2a-sandbox/state", "version": 1, "trees": {"sandbox-accounts": [account]}}).to_string()).unwrap();
    let (code, _, err) = run(binary()
        .arg("import")
        .arg(&file)
        .arg("--data")
        .arg(&dir)
        .arg("--merge"));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("at /trees/sandbox-accounts/0: the sandbox already holds a different record"),
        "{err}"
    );
    assert!(export(&dir, &root.path().join("after.json")) == before);
}

/// A state of `n` extra transactions on Kari's current account (the figures' and the crash trial's file).
pub fn big_state(good: &Value, n: usize) -> Value {
    let mut state = good.clone();
    let list = state["trees"]["sandbox-transactions"]
        .as_array_mut()
        .unwrap();
    let template = list[0].clone();
    for i in 0..n {
        let mut t = template.clone();
        t["sequence"] = json!(1_000_000 + i);
        t["id"] = json!(format!("bulk-{i}"));
        list.push(t);
    }
    state
}

/// An import stopped by kill -9 at each stage it reports (`import --stepwise`), and while its commit runs:
/// each time the directory holds the state before or the imported one, whole. No timing: the import
/// waits at each stage until told to go on, so the kills land where the test means them on any machine.
#[test]
fn an_import_killed_at_any_moment_leaves_the_old_state_or_the_new_one() {
    let root = tempfile::tempdir().unwrap();
    let dir = seeded_dir(root.path(), "data");
    let before_file = root.path().join("before.json");
    let before = export(&dir, &before_file);
    let good: Value = serde_json::from_slice(&before).unwrap();
    let big = big_state(&good, 10_000);
    let file = root.path().join("big.json");
    std::fs::write(&file, big.to_string()).unwrap();
    let expected_new = big["trees"]["sandbox-transactions"]
        .as_array()
        .unwrap()
        .len();
    let old = good["trees"]["sandbox-transactions"]
        .as_array()
        .unwrap()
        .len();
    let customers = good["trees"]["sandbox-customers"].as_array().unwrap().len();
    // The transactions the directory holds now (its customers checked whole on the way).
    let held = || {
        let state: Value =
            serde_json::from_slice(&export(&dir, &root.path().join("trial.json"))).unwrap();
        assert_eq!(
            state["trees"]["sandbox-customers"]
                .as_array()
                .unwrap()
                .len(),
            customers
        );
        state["trees"]["sandbox-transactions"]
            .as_array()
            .unwrap()
            .len()
    };
    let restore = || assert!(import_file(&dir, &before_file).wait().unwrap().success());

    // Whichever state a killed import left, it is whole; the next trial starts from the old one.
    let (mut olds, mut news) = (0, 0);
    let mut outcome = |count: usize, when: &str| match count {
        c if c == old => olds += 1,
        c if c == expected_new => {
            news += 1;
            restore();
        }
        c => panic!("{when}: {c} transactions, neither the old {old} nor the new {expected_new}"),
    };

    // Killed at a stage it reported before the commit: nothing is written.
    for stage in ["checked", "committing"] {
        let mut stepping = Stepwise::start(&dir, &file);
        stepping.go_on_until(stage);
        stepping.kill();
        assert_eq!(held(), old, "killed at stage '{stage}'");
    }
    // Killed just after the commit returned (durable once the store is closed next): either, whole.
    let mut stepping = Stepwise::start(&dir, &file);
    stepping.go_on_until("committed");
    stepping.kill();
    outcome(held(), "killed at stage 'committed'");
    // Killed while the commit runs: let it go on from "committing" and kill it at once, wherever it then
    // is. Bounded by tries, never by time.
    for trial in 0..6 {
        let mut stepping = Stepwise::start(&dir, &file);
        stepping.go_on_until("committing");
        stepping.go_on();
        stepping.kill();
        outcome(held(), &format!("killed during the commit, trial {trial}"));
    }
    // Let go to its end: the new state.
    let stepping = Stepwise::start(&dir, &file);
    stepping.go_on_to_the_end();
    assert_eq!(held(), expected_new, "an import that ran to its end");
    eprintln!(
        "kill -9 at or during the commit: {olds} times the old state, {news} times the new one"
    );
}

/// `import FILE --data DIR`, started.
fn import_file(dir: &Path, file: &Path) -> Child {
    binary()
        .arg("import")
        .arg(file)
        .arg("--data")
        .arg(dir)
        .stdout(Stdio::null())
        .spawn()
        .unwrap()
}

/// An `import --stepwise`: it says each stage it reaches and waits at it for a line on its stdin.
struct Stepwise {
    child: Child,
    stages: std::io::Lines<BufReader<std::process::ChildStdout>>,
    input: std::process::ChildStdin,
}

impl Stepwise {
    fn start(dir: &Path, file: &Path) -> Stepwise {
        let mut child = binary()
            .arg("import")
            .arg(file)
            .arg("--data")
            .arg(dir)
            .arg("--stepwise")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stages = BufReader::new(child.stdout.take().unwrap()).lines();
        let input = child.stdin.take().unwrap();
        Stepwise {
            child,
            stages,
            input,
        }
    }

    /// Lets the import go on from the stage it waits at.
    fn go_on(&mut self) {
        use std::io::Write;
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    /// Waits for the import to report `stage`, letting it go on from each stage before.
    fn go_on_until(&mut self, stage: &str) {
        loop {
            let line = self
                .stages
                .next()
                .unwrap_or_else(|| panic!("the import ended before stage '{stage}'"))
                .unwrap();
            if line == format!("stage: {stage}") {
                return;
            }
            assert!(line.starts_with("stage: "), "unexpected output: {line}");
            self.go_on();
        }
    }

    /// Lets the import go on from every stage until it exits, successfully.
    fn go_on_to_the_end(mut self) {
        while let Some(line) = self.stages.next() {
            if line.unwrap().starts_with("stage: ") {
                self.go_on();
            }
        }
        assert!(self.child.wait().unwrap().success());
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn serve_with_a_fixture_starts_preloaded_in_a_temporary_directory() {
    let root = tempfile::tempdir().unwrap();
    let dir = seeded_dir(root.path(), "data");
    let mut state: Value =
        serde_json::from_slice(&export(&dir, &root.path().join("s.json"))).unwrap();
    let customers = state["trees"]["sandbox-customers"].as_array_mut().unwrap();
    let number = customers[0]["customerNumber"].as_str().unwrap().to_owned();
    customers[0]["name"] = json!("Fixture Fiksdal");
    let file = root.path().join("fixture.json");
    std::fs::write(&file, state.to_string()).unwrap();

    let (mut child, base) = serve(&["--fixture", file.to_str().unwrap()]);
    let health: Value = reqwest::get(format!("{base}/health"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        health["now"], "2026-06-01T12:00:00Z",
        "the fixture's frozen clock"
    );
    let (status, body) = signed(&base, "GET", "/v1/sandbox/customers", None).await;
    assert_eq!(status, 200, "{body}");
    let list = body
        .as_array()
        .or(body["customers"].as_array())
        .unwrap_or_else(|| panic!("{body}"));
    let first = list
        .iter()
        .find(|c| c["customerNumber"] == number.as_str())
        .unwrap();
    assert_eq!(first["name"], "Fixture Fiksdal", "{first}");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn serve_refuses_a_bad_fixture_and_says_where() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("bad.json");
    std::fs::write(
        &file,
        r#"{"format": "xs2a-sandbox/state", "version": 99, "trees": {}}"#,
    )
    .unwrap();
    let (code, _, err) = run(binary()
        .args(["serve", "--addr", "127.0.0.1:0", "--fixture"])
        .arg(&file));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("was refused: at /version"), "{err}");
}
