//! The desktop program as a user meets it, tested from outside as a process on a real X display (Xvfb in
//! CI): `--version`; the first start on an empty data directory, live on the Sandbox data screen; SIGTERM
//! ends it within about a second while the window follows the event stream; a second launch brings the
//! running window forward instead of starting another app; the window's size and position are kept
//! between launches. The app is `XS2A_DESKTOP_BIN` (the release build, or the installed package's binary:
//! scripts/test-package.sh runs these against `/usr/bin/xs2a-desktop`). All but `--version` need a display
//! and are ignored in a plain `cargo test`: scripts/test-desktop.sh runs them under
//! `dbus-run-session xvfb-run` (the single-instance lock is a D-Bus name). Each launch gets its own HOME.
//! Screenshots go to `XS2A_SCREENSHOTS` when set.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a launch may take to show live data (a cold start under a loaded CI machine).
const READY_WITHIN: Duration = Duration::from_secs(90);

fn app_binary() -> PathBuf {
    std::env::var_os("XS2A_DESKTOP_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_xs2a-desktop")))
}

/// A HOME of its own: the app's data, config (the window's place) and caches land there.
struct Home(tempfile::TempDir);

impl Home {
    fn new() -> Home {
        let home = Home(tempfile::tempdir().expect("temporary HOME"));
        for dir in [".local/share", ".config", ".cache", "runtime"] {
            std::fs::create_dir_all(home.path().join(dir)).unwrap();
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let runtime = home.path().join("runtime");
            std::fs::set_permissions(runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        home
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn data_dir(&self) -> PathBuf {
        self.path().join(".local/share/no.sandbox.xs2a.workbench")
    }

    fn window_state(&self) -> PathBuf {
        self.path()
            .join(".config/no.sandbox.xs2a.workbench/.window-state.json")
    }
}

/// A running app (or a finished one) whose stdout and stderr go to a file the test reads as it goes.
struct App {
    child: Child,
    log: PathBuf,
}

impl App {
    fn launch(home: &Home, name: &str) -> App {
        let log = home.path().join(format!("{name}.log"));
        let out = File::create(&log).unwrap();
        let child = Command::new(app_binary())
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join(".local/share"))
            .env("XDG_CONFIG_HOME", home.path().join(".config"))
            .env("XDG_CACHE_HOME", home.path().join(".cache"))
            .env("XDG_RUNTIME_DIR", home.path().join("runtime"))
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .expect("the app starts");
        App { child, log }
    }

    fn output(&self) -> String {
        let mut text = String::new();
        if let Ok(mut file) = File::open(&self.log) {
            let _ = file.read_to_string(&mut text);
        }
        text
    }

    /// Waits for a line containing `needle`; the whole line.
    fn wait_for(&mut self, needle: &str, within: Duration) -> String {
        let start = Instant::now();
        loop {
            if let Some(line) = self.output().lines().find(|l| l.contains(needle)) {
                return line.to_owned();
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the app ended ({status}) before printing '{needle}':\n{}",
                    self.output()
                );
            }
            assert!(
                start.elapsed() < within,
                "no '{needle}' within {within:?}:\n{}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the window shows live data; the screen it shows.
    fn wait_ready(&mut self) -> String {
        let line = self.wait_for("xs2a-desktop: ready after", READY_WITHIN);
        println!("{line}");
        line.split(" ms on ").nth(1).unwrap_or_default().to_owned()
    }

    /// `http://127.0.0.1:PORT`, as the app announces it.
    fn base_url(&mut self) -> String {
        let line = self.wait_for("sandbox listening on ", READY_WITHIN);
        line.rsplit(' ').next().unwrap().to_owned()
    }

    /// The tokenised workbench URL the app prints.
    fn workbench_url(&mut self) -> String {
        let line = self.wait_for("workbench: ", READY_WITHIN);
        line.trim_start_matches("workbench: ").to_owned()
    }

    /// Sends SIGTERM and waits for the process to be gone; how long that took.
    fn terminate(&mut self) -> Duration {
        let asked = Instant::now();
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = self.wait_exit(Duration::from_secs(30));
        let took = asked.elapsed();
        assert!(
            status.success(),
            "SIGTERM should end the app cleanly: {status}\n{}",
            self.output()
        );
        took
    }

    fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if start.elapsed() > within {
                let _ = self.child.kill();
                panic!("still running after {within:?}:\n{}", self.output());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn xdotool(args: &[&str]) -> String {
    let output = Command::new("xdotool")
        .args(args)
        .output()
        .expect("xdotool is installed (apt-get install xdotool)");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// The visible windows whose title contains `title`.
fn windows_named(title: &str) -> Vec<String> {
    xdotool(&["search", "--onlyvisible", "--name", &regex_escape(title)])
        .lines()
        .map(str::to_owned)
        .collect()
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let special = ".^$*+?()[]{}|\\".contains(c);
            special
                .then_some('\\')
                .into_iter()
                .chain(std::iter::once(c))
        })
        .collect()
}

/// The one visible main window of the app serving `base_url` (its title names the address).
fn main_window(base_url: &str) -> String {
    let start = Instant::now();
    loop {
        let found = windows_named(base_url);
        if found.len() == 1 {
            return found[0].clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "expected one window titled with {base_url}, found {found:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// (x, y, width, height) as `xdotool getwindowgeometry --shell` reports them.
fn geometry(window: &str) -> (i64, i64, i64, i64) {
    let text = xdotool(&["getwindowgeometry", "--shell", window]);
    let value = |key: &str| -> i64 {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {key} in {text}"))
    };
    (value("X"), value("Y"), value("WIDTH"), value("HEIGHT"))
}

fn screenshot(name: &str) {
    let Some(dir) = std::env::var_os("XS2A_SCREENSHOTS") else {
        return;
    };
    let path = Path::new(&dir).join(format!("{name}.png"));
    let _ = Command::new("import")
        .args(["-window", "root"])
        .arg(&path)
        .status();
    println!("screenshot: {}", path.display());
}

/// Opens the workbench's event stream over a plain connection, as the window's page does, and reads until
/// the stream says it is connected.
fn open_event_stream(workbench_url: &str) -> std::net::TcpStream {
    let rest = workbench_url.trim_start_matches("http://");
    let (authority, query) = rest.split_once('/').unwrap();
    let token = query.split("token=").nth(1).unwrap();
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    write!(
        stream,
        "GET /workbench/api/events?token={token} HTTP/1.1\r\nHost: {authority}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 512];
    while !String::from_utf8_lossy(&seen).contains(": connected") {
        let n = stream.read(&mut buf).expect("the event stream answers");
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200"));
    stream
}

#[test]
fn version_is_printed_without_a_window() {
    let output = Command::new(app_binary())
        .arg("--version")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!("xs2a-desktop {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn the_version_is_the_same_in_the_crates_and_the_tauri_configuration() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("tauri.conf.json")).unwrap())
            .unwrap();
    assert_eq!(config["version"], env!("CARGO_PKG_VERSION"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!("\nversion = \"{}\"\n", env!("CARGO_PKG_VERSION"))),
        "the service's Cargo.toml has another version than the desktop app"
    );
}

#[test]
#[ignore = "needs a display and the release app: scripts/test-desktop.sh"]
fn first_start_is_live_on_sandbox_data_and_sigterm_ends_it_within_a_second() {
    let home = Home::new();
    let mut app = App::launch(&home, "first");
    let screen = app.wait_ready();
    assert_eq!(
        screen, "Sandbox data",
        "the first start opens on the Sandbox data screen"
    );
    let base = app.base_url();
    assert!(home.data_dir().join("instance.json").exists());
    main_window(&base);
    screenshot("desktop-first-start");

    // The window's page follows the event stream (the ready line needs it "Live"); one more stream, held
    // here, makes sure a stream is open whatever the page does.
    let mut stream = open_event_stream(&app.workbench_url());
    let took = app.terminate();
    println!("SIGTERM with the event streams open: the process was gone after {took:?}");
    assert!(
        took < Duration::from_secs(3),
        "SIGTERM took {took:?} (the app should end within about a second, as a window close does)"
    );
    assert!(
        !home.data_dir().join("instance.json").exists(),
        "the store was not closed cleanly"
    );
    // The held stream was ended by the server, not cut: its chunked body's last chunk arrived.
    let mut rest = Vec::new();
    let _ = stream.read_to_end(&mut rest);
    assert!(
        String::from_utf8_lossy(&rest).contains("0\r\n\r\n"),
        "{}",
        String::from_utf8_lossy(&rest)
    );
}

#[test]
#[ignore = "needs a display, a D-Bus session bus and the release app: scripts/test-desktop.sh"]
fn a_second_launch_brings_the_running_window_forward() {
    assert!(
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
        "the single-instance lock is a D-Bus name: run under dbus-run-session"
    );
    let home = Home::new();
    let mut first = App::launch(&home, "first");
    first.wait_ready();
    let base = first.base_url();
    main_window(&base);

    let started = Instant::now();
    let mut second = App::launch(&home, "second");
    let status = second.wait_exit(Duration::from_secs(30));
    println!(
        "the second launch ended after {:?}: {status}",
        started.elapsed()
    );
    assert!(status.success(), "{}", second.output());
    assert!(
        !second.output().contains("sandbox listening"),
        "the second launch started a service of its own:\n{}",
        second.output()
    );
    first.wait_for(
        "a second launch (0 argument(s)) brought this window forward",
        Duration::from_secs(10),
    );
    assert_eq!(
        windows_named("xs2a-sandbox workbench").len(),
        1,
        "one workbench window"
    );
    screenshot("desktop-second-launch");
    first.terminate();
}

#[test]
#[ignore = "needs a display, xdotool and the release app: scripts/test-desktop.sh"]
fn the_window_keeps_its_size_and_position_between_launches() {
    let home = Home::new();
    let mut app = App::launch(&home, "first");
    app.wait_ready();
    let window = main_window(&app.base_url());
    let before = geometry(&window);
    let wanted = (60, 40, 1000, 640);
    assert_ne!(
        before, wanted,
        "the first window already has the wanted geometry"
    );
    xdotool(&["windowsize", &window, "1000", "640"]);
    xdotool(&["windowmove", &window, "60", "40"]);
    let start = Instant::now();
    while geometry(&window) != wanted {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the window did not take {wanted:?}: {:?}",
            geometry(&window)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Tauri learns the new geometry from the X server's events; give them a moment to arrive.
    std::thread::sleep(Duration::from_millis(500));
    app.terminate();
    let saved = std::fs::read_to_string(home.window_state()).expect("the window state was saved");
    let saved: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(
        (&saved["main"]["width"], &saved["main"]["height"]),
        (&serde_json::json!(1000), &serde_json::json!(640)),
        "{saved}"
    );

    let mut again = App::launch(&home, "second");
    again.wait_ready();
    let window = main_window(&again.base_url());
    let after = geometry(&window);
    println!("first launch {before:?}, moved to {wanted:?}, second launch {after:?}");
    assert_eq!(after, wanted, "the second launch opened elsewhere");
    again.terminate();
}
