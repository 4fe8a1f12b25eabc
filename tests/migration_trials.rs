//! Kill -9 trials of a data directory migration. The real binary migrates a copy of the stored 0.1.0 data
//! directory to a test-only format one above this build's (`XS2A_TEST_MIGRATION=1`) and is killed with
//! SIGKILL, once at each step of the migration (`XS2A_TEST_MIGRATION_PAUSE=<step>` holds it there) and then
//! at random moments of it, found from the trials' outcomes until kills on both sides of the commit point
//! are seen (bounded by tries, not by a time measured beforehand). After each kill:
//! - before the commit point (the rename of `DIR`), `DIR` is the old directory and the build without the
//!   test migration serves it as it was;
//! - whatever the moment, the build with it starts, finishes or redoes the migration, and serves the
//!   migrated directory with every customer and payment there, the old one kept beside it.
//!
//! Run alone with `cargo test --test migration_trials -- --nocapture`; `XS2A_CRASH_SEED=<n>` replays the
//! random series.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use xs2a_core::store::format::APP_VERSION;
use xs2a_core::store::migrate::{self, fixture};

/// The steps a migration can be held at, in order; the commit point is between "ready" and "moved".
const STEPS: &[&str] = &[
    "locked",
    "copied",
    "test-migration-sandbox-customers",
    "MIGRATED",
    "ready",
    "moved",
    "swapped",
];
const COMMITTED_FROM: usize = 5;

/// The format the test migration makes: one above this build's.
fn test_format() -> u32 {
    xs2a_core::bank::migrations::current() + 1
}

fn binary(dir: &Path, with_test_migration: bool) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"));
    command
        .args(["serve", "--port", "0", "--data"])
        .arg(dir)
        .env("HOME", dir.parent().unwrap())
        .env_remove("XS2A_TEST_MIGRATION_PAUSE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if with_test_migration {
        command.env("XS2A_TEST_MIGRATION", "1");
    } else {
        command.env_remove("XS2A_TEST_MIGRATION");
    }
    command
}

/// The lines a child writes on one of its pipes, as they come.
fn lines(pipe: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    rx
}

/// The line that says `what`, however long the binary takes to write it (it failing first is caught:
/// the wait looks whether it still runs every tenth of a second, without a deadline).
fn wait_for(rx: &mpsc::Receiver<String>, what: &str, child: &mut Child) -> String {
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(line) if line.contains(what) => return line,
            Ok(_) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some(status) = child.try_wait().unwrap() {
                    panic!("the binary ended ({status}) before '{what}'");
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("the binary closed its output before '{what}'")
            }
        }
    }
}

fn kill(mut child: Child) {
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}

/// Starts the binary on `dir`, reads every customer and payment through the workbench API, and stops it
/// cleanly; the ids, sorted.
fn served_ids(dir: &Path, with_test_migration: bool) -> (Vec<String>, Vec<String>) {
    let mut child = binary(dir, with_test_migration).spawn().unwrap();
    let out = lines(child.stdout.take().unwrap());
    let err = lines(child.stderr.take().unwrap());
    let first = wait_for(&out, "listening on", &mut child);
    let base = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_owned();
    let workbench = wait_for(&out, "workbench:", &mut child);
    let token = workbench.rsplit("token=").next().unwrap().to_owned();
    let client = reqwest::blocking::Client::new();
    let get = |path: &str| -> Value {
        client
            .get(format!("{base}/workbench/api{path}"))
            .bearer_auth(&token)
            .send()
            .unwrap()
            .json()
            .unwrap()
    };
    let customers = sorted_ids(&get("/sandbox/customers"), "id");
    let payments = sorted_ids(&get("/sandbox/payments?limit=1000"), "paymentId");
    let session = get("/session");
    assert_eq!(
        session["dataFormat"]["version"],
        if with_test_migration {
            test_format()
        } else {
            xs2a_core::bank::migrations::current()
        }
    );
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(status.success(), "a clean stop: {status}");
    drop(err);
    (customers, payments)
}

/// The ids the script made, from the fixture's expected.json.
fn expected_ids(version: &str) -> (Vec<String>, Vec<String>) {
    let expected: Value = serde_json::from_slice(
        &std::fs::read(fixture::root().join(version).join("expected.json")).unwrap(),
    )
    .unwrap();
    (
        sorted_ids(&expected["customers"], "id"),
        sorted_ids(&expected["payments"], "paymentId"),
    )
}

/// The string member `key` of every item of `list`, sorted.
fn sorted_ids(list: &Value, key: &str) -> Vec<String> {
    let mut ids: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item[key].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

/// After a kill: the build with the test migration serves the migrated directory with everything in it,
/// the old directory kept beside it, no copy left.
fn check_recovered(dir: &Path, expected: &(Vec<String>, Vec<String>), trial: &str) {
    assert_eq!(
        &served_ids(dir, true),
        expected,
        "{trial}: everything served"
    );
    assert_eq!(migrate::format_of(dir).unwrap(), test_format(), "{trial}");
    let backup = dir.with_file_name(format!("data.before-{APP_VERSION}"));
    assert_eq!(
        migrate::format_of(&backup).unwrap(),
        1,
        "{trial}: the old directory is kept"
    );
    assert!(
        !dir.with_file_name("data.migrating").exists(),
        "{trial}: no copy left"
    );
}

#[test]
fn a_migration_killed_at_any_step_leaves_the_old_or_the_new_directory_usable() {
    let version = "0.1.0";
    let expected = expected_ids(version);
    let root = tempfile::tempdir().unwrap();
    for (n, step) in STEPS.iter().enumerate() {
        let step = step.replace("MIGRATED", &format!("migrated-{}", test_format()));
        let trial = format!("killed at '{step}'");
        let work = root.path().join(format!("step-{n}"));
        std::fs::create_dir(&work).unwrap();
        let dir = fixture::unpack(version, &work).unwrap();
        let mut child = binary(&dir, true)
            .env("XS2A_TEST_MIGRATION_PAUSE", &step)
            .spawn()
            .unwrap();
        let _out = lines(child.stdout.take().unwrap());
        let err = lines(child.stderr.take().unwrap());
        wait_for(&err, &format!("migration paused at {step}"), &mut child);
        kill(child);
        if n < COMMITTED_FROM {
            assert_eq!(
                migrate::format_of(&dir).unwrap(),
                1,
                "{trial}: the old directory"
            );
            assert_eq!(
                served_ids(&dir, false),
                expected,
                "{trial}: the build without the migration serves the old directory"
            );
        } else {
            assert!(
                dir.with_file_name(format!("data.before-{APP_VERSION}"))
                    .exists(),
                "{trial}: past the commit point"
            );
        }
        check_recovered(&dir, &expected, &trial);
        println!("{trial}: recovered");
        std::fs::remove_dir_all(&work).unwrap();
    }
}

#[test]
fn a_migration_killed_at_random_moments_is_finished_or_redone() {
    let seed = std::env::var("XS2A_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    println!("migration trials, XS2A_CRASH_SEED={seed}");
    let mut random = seed;
    let mut below = |n: u64| {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random % n.max(1)
    };
    let version = "0.1.0";
    let expected = expected_ids(version);
    let root = tempfile::tempdir().unwrap();
    // The kill delays are found from the trials' own outcomes, not from a start timed beforehand (which a
    // loaded machine makes wrong by the time the trials run): after a kill before the commit point the
    // next delay doubles, after one past it it halves, each spread from half to one and a half times that.
    // The trials go on until kills on both sides of the commit point are seen, bounded by tries.
    let mut next = Duration::from_millis(20);
    let (mut before_commit, mut past_commit) = (0, 0);
    for n in 0..24 {
        if n >= 8 && before_commit > 0 && past_commit > 0 {
            break;
        }
        let work = root.path().join(format!("random-{n}"));
        std::fs::create_dir(&work).unwrap();
        let dir = fixture::unpack(version, &work).unwrap();
        let micros = next.as_micros() as u64;
        let delay = Duration::from_micros(micros / 2 + below(micros + 1));
        let mut child = binary(&dir, true).spawn().unwrap();
        std::thread::sleep(delay);
        child.kill().unwrap();
        child.wait().unwrap();
        if dir
            .with_file_name(format!("data.before-{APP_VERSION}"))
            .exists()
        {
            past_commit += 1;
            next = (next / 2).max(Duration::from_millis(1));
        } else {
            before_commit += 1;
            next *= 2;
        }
        let copy = if dir.with_file_name("data.migrating").exists() {
            ", a copy under way"
        } else {
            ""
        };
        let state = if dir.exists() {
            format!("format {}{copy}", migrate::format_of(&dir).unwrap())
        } else {
            format!("moved away{copy}")
        };
        let trial = format!("killed after {delay:?} ({state})");
        check_recovered(&dir, &expected, &trial);
        println!("{trial}: recovered");
        std::fs::remove_dir_all(&work).unwrap();
    }
    println!("{before_commit} kills before the commit point, {past_commit} past it");
    assert!(
        before_commit > 0 && past_commit > 0,
        "the kills did not fall on both sides of the commit point: {before_commit} before, {past_commit} past"
    );
}
