//! `xs2a-sandbox serve`: builds the service through [`App`], binds, prints the base URL, the mode and the
//! workbench's tokenised URL, and serves until SIGINT/SIGTERM.

use super::serve_access::{self, TokenSource};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use xs2a_core::bank::state::AccessMode;
use xs2a_http::api::limits::Limits;
use xs2a_http::api::workbench::reach::WorkbenchReach;
use xs2a_http::app::{App, AppConfig, ClockStart, DataDir};

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port. Default 127.0.0.1:8080 (0.0.0.0:8080 with
    /// --container).
    #[arg(long)]
    pub addr: Option<SocketAddr>,
    /// Port to listen on (shorthand for --addr 127.0.0.1:PORT, or 0.0.0.0:PORT with --container).
    #[arg(long, conflicts_with = "addr")]
    pub port: Option<u16>,
    /// Run as the container image does (docs/install.md): listen on every interface (the port to
    /// publish), let the workbench be opened through the published port from the host's 127.0.0.1, and
    /// print the URLs as the host reaches them. Shared mode unless --mode loopback.
    #[arg(long, env = "XS2A_CONTAINER", action = clap::ArgAction::SetTrue,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub container: bool,
    /// loopback or shared (docs/reference/access.md). Default: loopback on a loopback address, shared on
    /// any other (so in a container). Loopback on another address needs --container: a port published
    /// only on the host's 127.0.0.1, or a CI job's own service.
    #[arg(long, env = "XS2A_MODE", value_name = "loopback|shared", value_parser = serve_access::parse_mode, conflicts_with = "shared")]
    pub mode: Option<AccessMode>,
    /// The URL clients reach the service at, printed instead of the listening address (a container's
    /// published port: http://127.0.0.1:18080).
    #[arg(long, env = "XS2A_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,
    /// Data directory (default: the platform's data directory, e.g. ~/.local/share/xs2a-sandbox).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Keep nothing: use a temporary store deleted at exit.
    #[arg(long, conflicts_with = "data")]
    pub ephemeral: bool,
    /// Shared mode: bank-side controls need the operator credential and the bundled test CA is not
    /// trusted unless --trust-test-ca. The default when --addr is not a loopback address.
    #[arg(long)]
    pub shared: bool,
    /// Trust the bundled test CA even in shared mode (its private key is public).
    #[arg(long)]
    pub trust_test_ca: bool,
    /// The operator credential (default: a fresh random one, printed at start).
    #[arg(long, env = "XS2A_OPERATOR_TOKEN", hide_env_values = true)]
    pub operator_token: Option<String>,
    /// Read the operator credential from FILE (a mounted secret); it is then never printed.
    #[arg(
        long,
        env = "XS2A_OPERATOR_TOKEN_FILE",
        value_name = "FILE",
        conflicts_with = "operator_token"
    )]
    pub operator_token_file: Option<PathBuf>,
    /// Trust TPP certificates issued by this CA (PEM), besides the bundled test CA. Repeatable.
    #[arg(long = "trust-ca", value_name = "PEM")]
    pub trust_ca: Vec<PathBuf>,
    /// Also serve HTTPS (TLS 1.2/1.3) with a certificate for localhost from the test CA.
    #[arg(long)]
    pub tls: bool,
    /// Address for HTTPS.
    #[arg(long, default_value = "127.0.0.1:8443", requires = "tls")]
    pub tls_addr: SocketAddr,
    /// TLS certificate (PEM) instead of the bundled one.
    #[arg(long, requires_all = ["tls", "tls_key"])]
    pub tls_cert: Option<PathBuf>,
    /// TLS private key (PEM) for --tls-cert.
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Sign response bodies with the bank's test certificate (Digest, Signature, ASPSP-Signature-Certificate).
    #[arg(long)]
    pub sign_responses: bool,
    /// Start with the clock frozen at this time (RFC 3339), for reproducible runs.
    #[arg(long, value_name = "TIME")]
    pub frozen_clock: Option<String>,
    /// The largest request body accepted, in bytes (413 beyond).
    #[arg(long, default_value_t = Limits::default().max_body_bytes)]
    pub max_body_bytes: usize,
    /// The largest header value accepted, in bytes (431 beyond).
    #[arg(long, default_value_t = Limits::default().max_header_value_bytes)]
    pub max_header_value_bytes: usize,
    /// The largest header section accepted, in bytes (431 beyond).
    #[arg(long, default_value_t = Limits::default().max_header_bytes)]
    pub max_header_bytes: usize,
    /// Seconds a client may take to send its request headers.
    #[arg(long, default_value_t = Limits::default().header_read_timeout.as_secs())]
    pub header_timeout: u64,
    /// Seconds a client may take to send the body it announced.
    #[arg(long, default_value_t = Limits::default().body_read_timeout.as_secs())]
    pub body_timeout: u64,
    /// Do not record traffic (the inspector and the flow view then stay empty).
    #[arg(long)]
    pub no_traffic: bool,
    /// Keep no change journal: no state changes per exchange, no rewind (docs/rewind.md). What it
    /// recorded before is dropped, since what happens meanwhile is not seen.
    #[arg(long)]
    pub no_journal: bool,
    /// The most exchanges and events the traffic log keeps, oldest pruned first (default 100000; kept in
    /// the data directory once set).
    #[arg(long)]
    pub traffic_max_entries: Option<u64>,
    /// The most bytes the traffic log keeps, oldest pruned first (default 268435456 = 256 MiB).
    #[arg(long)]
    pub traffic_max_bytes: Option<u64>,
    /// Start from this state file (docs/fixtures.md), replacing the stored state; without --data, in a
    /// temporary data directory.
    #[arg(long, value_name = "FILE")]
    pub fixture: Option<PathBuf>,
    /// At shutdown, write the exchanges served meanwhile to FILE as a recorded flow (for `replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Seconds an idle keep-alive connection stays open.
    #[arg(long, default_value_t = Limits::default().idle_timeout.as_secs())]
    pub idle_timeout: u64,
    /// Play the bank as its sandbox or as production runs it (docs/rehearsal.md); kept in the data
    /// directory. Without it, as stored (sandbox on a fresh machine).
    #[arg(long, value_name = "sandbox|production", value_parser = xs2a_core::bank::rehearsal::Profile::parse)]
    pub profile: Option<xs2a_core::bank::rehearsal::Profile>,
    /// Replace the stored fault plan with this one (docs/rehearsal.md; fixtures/schema/fault-plan.schema.json).
    #[arg(long, value_name = "FILE")]
    pub faults: Option<PathBuf>,
}

pub fn run(args: ServeArgs) -> Result<ExitCode, String> {
    xs2a_http::logging::init_tracing();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(serve(args))?;
    Ok(ExitCode::SUCCESS)
}

/// The default data directory: `xs2a-sandbox` under the platform's local data directory.
pub fn default_data_dir() -> PathBuf {
    xs2a_core::platform::dirs::data_root()
        .unwrap_or_else(std::env::temp_dir)
        .join("xs2a-sandbox")
}

impl ServeArgs {
    /// The address to listen on, `--port` and `--container` applied.
    pub fn listen_addr(&self) -> SocketAddr {
        serve_access::listen_addr(self.addr, self.port, self.container)
    }

    /// The operator credential given (`--operator-token`, its variable, or a file); `None`: a fresh one.
    fn operator_token(&self) -> Result<Option<String>, String> {
        match &self.operator_token_file {
            Some(path) => serve_access::read_token_file(path).map(Some),
            None => Ok(self.operator_token.clone()),
        }
    }

    /// How the workbench line shows the operator credential.
    fn token_source(&self) -> TokenSource {
        match &self.operator_token_file {
            Some(path) => TokenSource::File(path.display().to_string()),
            None => TokenSource::Printed,
        }
    }

    /// The service's configuration from the arguments.
    pub fn config(&self) -> Result<AppConfig, String> {
        let addr = self.listen_addr();
        let access = serve_access::access_mode(self.mode, self.shared, addr, self.container)?;
        let mut trust_ca_pems = Vec::new();
        for path in &self.trust_ca {
            trust_ca_pems.push(
                std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            );
        }
        Ok(AppConfig {
            data: if self.ephemeral || (self.fixture.is_some() && self.data.is_none()) {
                DataDir::Ephemeral
            } else {
                DataDir::At(self.data.clone().unwrap_or_else(default_data_dir))
            },
            access,
            trust_ca_pems,
            trust_test_ca: self.trust_test_ca.then_some(true),
            sign_responses: self.sign_responses,
            clock: match &self.frozen_clock {
                Some(text) => ClockStart::FrozenAt(super::parse_time(text)?),
                None => ClockStart::AsStored,
            },
            limits: Limits {
                max_body_bytes: self.max_body_bytes,
                max_header_value_bytes: self.max_header_value_bytes,
                max_header_bytes: self.max_header_bytes,
                header_read_timeout: Duration::from_secs(self.header_timeout),
                body_read_timeout: Duration::from_secs(self.body_timeout),
                idle_timeout: Duration::from_secs(self.idle_timeout),
            },
            operator_token: self.operator_token()?,
            traffic: xs2a_workbench::traffic::store::TrafficOverrides {
                enabled: self.no_traffic.then_some(false),
                max_entries: self.traffic_max_entries,
                max_bytes: self.traffic_max_bytes,
            },
            fixture: self.fixture.clone(),
            store_cache_bytes: None,
            // Without the traffic log there is no timeline to return to, and nothing would cap the
            // journal: `--no-traffic` turns it off too (docs/rewind.md).
            journal: !self.no_journal && !self.no_traffic,
            profile: self.profile,
            faults: match &self.faults {
                Some(path) => Some(
                    std::fs::read(path)
                        .map_err(|e| format!("cannot read {}: {e}", path.display()))
                        .and_then(|bytes| xs2a_core::bank::rehearsal::plan::Plan::from_json(&bytes))
                        .map_err(|e| format!("{}: {e}", path.display()))?,
                ),
                None => None,
            },
            workbench_reach: if self.container {
                WorkbenchReach::PublishedPort
            } else {
                WorkbenchReach::ThisMachine
            },
        })
    }
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let addr = args.listen_addr();
    let app = App::build(args.config()?)?;
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let wait_for_stop = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let stop_signal = xs2a_http::api::server::shutdown_signal();
    let base = serve_access::reachable_url(bound, args.public_url.as_deref());
    let tls_listener = match args.tls {
        true => Some(
            tokio::net::TcpListener::bind(args.tls_addr)
                .await
                .map_err(|e| format!("cannot listen on {}: {e}", args.tls_addr))?,
        ),
        false => None,
    };
    let tls_bound = match &tls_listener {
        Some(tls) => Some(tls.local_addr().map_err(|e| e.to_string())?),
        None => None,
    };
    let mode = match app.access() {
        AccessMode::Loopback => {
            "one developer's machine: every signed TPP may use the bank-side controls"
        }
        AccessMode::Shared => "bank-side controls need the operator credential",
    };
    // One write, and errors ignored: whoever started us may read the first line and close the pipe.
    use std::io::Write;
    let _ = write!(
        std::io::stdout().lock(),
        "{}\nmode: {} ({mode})\n{}\n",
        serve_access::listening_line(&base, bound, tls_bound),
        app.access().as_str(),
        serve_access::workbench_line(&base, app.operator_token(), &args.token_source()),
    );
    let _ = std::io::stdout().flush();
    app.announce(&base);

    let record_after = app.state().traffic.last_given();
    let app = std::sync::Arc::new(app);
    let mut tasks = tokio::task::JoinSet::new();
    if let Some(tls_listener) = tls_listener {
        let (cert, key) = match (&args.tls_cert, &args.tls_key) {
            (Some(cert), Some(key)) => (
                std::fs::read_to_string(cert).map_err(|e| format!("{}: {e}", cert.display()))?,
                std::fs::read_to_string(key).map_err(|e| format!("{}: {e}", key.display()))?,
            ),
            _ => (
                xs2a_core::signing::test_credentials::SERVER_CERT_PEM.to_owned(),
                xs2a_core::signing::test_credentials::SERVER_KEY_PEM.to_owned(),
            ),
        };
        let config = xs2a_http::api::server::tls_config(&cert, &key)?;
        let tls_app = app.clone();
        let stop = wait_for_stop(stop_rx.clone());
        tasks.spawn(async move { tls_app.serve_tls(tls_listener, config, stop).await });
    }
    let http_app = app.clone();
    let stop = wait_for_stop(stop_rx);
    tasks.spawn(async move { http_app.serve(listener, stop).await });

    let mut asked_to_stop = None;
    tokio::select! {
        () = stop_signal => {
            asked_to_stop = Some(std::time::Instant::now());
            eprintln!("xs2a-sandbox: shutting down");
            let _ = stop_tx.send(true);
        }
        Some(ended) = tasks.join_next() => {
            let _ = stop_tx.send(true);
            ended.map_err(|e| e.to_string())?.map_err(|e| e.to_string())?;
        }
    }
    while let Some(ended) = tasks.join_next().await {
        ended
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
    }
    if let Some(path) = &args.record {
        write_recording(&app, record_after, path, args.fixture.as_deref())?;
    }
    app.close()?;
    // What a container's stop waits for, measured (docs/install.md): every write on disk, the store closed.
    if let Some(asked) = asked_to_stop {
        eprintln!(
            "xs2a-sandbox: stopped, the store closed, {} ms after the stop signal",
            asked.elapsed().as_millis()
        );
    }
    Ok(())
}

/// Writes the exchanges served since `after` as a flow file (`--record`).
fn write_recording(
    app: &App,
    after: u64,
    path: &std::path::Path,
    fixture: Option<&std::path::Path>,
) -> Result<(), String> {
    let traffic = &app.state().traffic;
    if !traffic.settle(Duration::from_secs(5)) {
        eprintln!(
            "xs2a-sandbox: the traffic log is behind; the recording may miss the last exchanges"
        );
    }
    let mut flow = xs2a_workbench::flow::from_traffic::since(traffic, after).map_err(|e| e.text)?;
    // The state the recording starts from: the fixture this run was started with, named as the flow
    // file's readers find it (beside the recording: its file name; elsewhere: its absolute path).
    flow.state = fixture.map(|fixture| state_reference(fixture, path));
    std::fs::write(path, flow.to_bytes())
        .map_err(|e| format!("cannot write the recording {}: {e}", path.display()))?;
    eprintln!(
        "xs2a-sandbox: recorded {} steps to {}",
        flow.steps.len(),
        path.display()
    );
    Ok(())
}

/// How a flow file at `flow` names the state file `state`: by file name when both are in one directory,
/// else by absolute path.
pub fn state_reference(state: &std::path::Path, flow: &std::path::Path) -> String {
    let absolute =
        |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let state_abs = absolute(state);
    let flow_dir = flow
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map(absolute)
        .unwrap_or_else(|| absolute(std::path::Path::new(".")));
    match (state_abs.parent(), state_abs.file_name()) {
        (Some(dir), Some(name)) if dir == flow_dir => name.to_string_lossy().into_owned(),
        _ => state_abs.to_string_lossy().into_owned(),
    }
}
