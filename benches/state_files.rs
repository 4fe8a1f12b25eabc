//! Benchmark: export and import of a state file with 100,000 transactions through the real binary
//! (`xs2a-sandbox export` / `import` on a data directory on disk, process start and the final flush
//! included), and replay's own overhead per step on the canonical flows (signing, ids, comparison; the
//! sandbox's time excluded, as `replay` reports it).
//!
//! Run: `cargo bench --bench state_files` (optionally `-- --transactions 100000`). Under
//! `cargo test --all-targets` it makes a small smoke run (2,000 transactions).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
}

fn transactions() -> usize {
    let args: Vec<String> = std::env::args().collect();
    let measuring = args.iter().any(|a| a == "--bench");
    args.iter()
        .position(|a| a == "--transactions")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(if measuring { 100_000 } else { 2_000 })
}

fn run(command: &mut Command) {
    let output = command.output().expect("the binary runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn timed(what: &str, command: &mut Command) -> f64 {
    let started = Instant::now();
    run(command);
    let seconds = started.elapsed().as_secs_f64();
    println!("{what}: {seconds:.2} s");
    seconds
}

/// The canonical initial state with `n` transactions added to one account.
fn big_state(n: usize) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut state: Value =
        serde_json::from_slice(&std::fs::read(root.join("fixtures/state/initial.json")).unwrap())
            .unwrap();
    let list = state["trees"]["sandbox-transactions"]
        .as_array_mut()
        .unwrap();
    let template = list[0].clone();
    let have = list.len();
    for i in 0..n.saturating_sub(have) {
        let mut t = template.clone();
        t["sequence"] = json!(1_000_000 + i);
        t["id"] = json!(format!("bench-{i}"));
        list.push(t);
    }
    state
}

fn replay_overhead(root: &Path) {
    let mut child = binary()
        .args(["serve", "--addr", "127.0.0.1:0", "--fixture"])
        .arg(root.join("fixtures/state/initial.json"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_owned();
    for flow in ["private-ais", "corporate-ais", "straks-payment", "basket"] {
        let output = binary()
            .arg("replay")
            .arg(root.join(format!("fixtures/flows/{flow}.json")))
            .args(["--url", &base, "--cert-dir"])
            .arg(root.join("fixtures/certs/aisp-pisp"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        let overhead = text
            .lines()
            .find(|l| l.starts_with("replay overhead"))
            .unwrap_or("no overhead line");
        // A flow replayed twice on one sandbox may differ (a second consent, duplicates): the overhead is
        // what is measured here, the verdicts are the tests' business.
        println!("{flow}: {overhead}");
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn main() {
    let n = transactions();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.json");
    let state = big_state(n);
    std::fs::write(&file, serde_json::to_vec(&state).unwrap()).unwrap();
    println!(
        "state file: {} transactions, {} bytes",
        state["trees"]["sandbox-transactions"]
            .as_array()
            .unwrap()
            .len(),
        std::fs::metadata(&file).unwrap().len()
    );
    let data = dir.path().join("data");
    timed(
        "import into an empty data directory",
        binary().arg("import").arg(&file).arg("--data").arg(&data),
    );
    timed(
        "import again (replace)",
        binary().arg("import").arg(&file).arg("--data").arg(&data),
    );
    timed(
        "export",
        binary()
            .arg("export")
            .arg("--data")
            .arg(&data)
            .arg("--out")
            .arg(dir.path().join("out.json")),
    );
    replay_overhead(Path::new(env!("CARGO_MANIFEST_DIR")));
}
