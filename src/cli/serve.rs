//! `xs2a-sandbox serve`: opens the store, builds the gate's trust store, binds, prints the base URL and
//! serves until SIGINT/SIGTERM.

use crate::clock::Clock;
use crate::signing::signer::SigningCredentials;
use crate::signing::trust::TrustStore;
use crate::signing::verifier::Verifier;
use crate::state::{AppState, Settings};
use crate::store::Store;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port. Loopback by default.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Data directory (default: the platform's data directory, e.g. ~/.local/share/xs2a-sandbox).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Keep nothing: use a temporary store deleted at exit.
    #[arg(long, conflicts_with = "data")]
    pub ephemeral: bool,
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
}

pub fn run(args: ServeArgs) -> Result<ExitCode, String> {
    init_tracing();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    runtime.block_on(serve(args))?;
    Ok(ExitCode::SUCCESS)
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("XS2A_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// The default data directory.
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("xs2a-sandbox")
}

/// The state `serve` runs with: store, clock, trust store and the bank's credentials.
pub fn build_state(args: &ServeArgs) -> Result<AppState, String> {
    let store = if args.ephemeral {
        Store::temporary()
    } else {
        let dir = args.data.clone().unwrap_or_else(default_data_dir);
        Store::open(&dir)
    }
    .map_err(|e| format!("cannot open the data store: {e}"))?;
    let clock = match &args.frozen_clock {
        Some(text) => Clock::frozen(super::parse_time(text)?),
        None => Clock::real(),
    };
    let mut trust = TrustStore::with_bundled_test_ca();
    for path in &args.trust_ca {
        let pem = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        trust
            .add_pem(&pem)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let bank = SigningCredentials::from_pem(
        crate::fixtures::BANK_CERT_PEM,
        crate::fixtures::BANK_KEY_PEM,
    )?;
    let state = AppState {
        store,
        clock: Arc::new(clock),
        verifier: Arc::new(Verifier::new(trust)),
        settings: Arc::new(Settings {
            sign_responses: args.sign_responses,
        }),
        bank: Some(Arc::new(bank)),
        events: Default::default(),
    };
    crate::startup::prepare(&state).map_err(|e| format!("cannot prepare the sandbox: {e}"))?;
    Ok(state)
}

async fn serve(args: ServeArgs) -> Result<(), String> {
    let state = build_state(&args)?;
    // The initial sandbox state is on disk before the first request can see it.
    state
        .store
        .make_durable()
        .await
        .map_err(|e| format!("cannot write the data store: {e}"))?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let wait_for_stop = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };

    let stop_signal = crate::server::shutdown_signal();
    let mut tasks = tokio::task::JoinSet::new();
    if args.tls {
        let (cert, key) = match (&args.tls_cert, &args.tls_key) {
            (Some(cert), Some(key)) => (
                std::fs::read_to_string(cert).map_err(|e| format!("{}: {e}", cert.display()))?,
                std::fs::read_to_string(key).map_err(|e| format!("{}: {e}", key.display()))?,
            ),
            _ => (
                crate::fixtures::SERVER_CERT_PEM.to_owned(),
                crate::fixtures::SERVER_KEY_PEM.to_owned(),
            ),
        };
        let config = crate::server::tls_config(&cert, &key)?;
        let tls_listener = tokio::net::TcpListener::bind(args.tls_addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.tls_addr))?;
        let tls_bound = tls_listener.local_addr().map_err(|e| e.to_string())?;
        tasks.spawn(crate::server::serve_tls(
            tls_listener,
            state.clone(),
            config,
            wait_for_stop(stop_rx.clone()),
        ));
        println!("xs2a-sandbox listening on http://{bound} and https://{tls_bound}");
    } else {
        println!("xs2a-sandbox listening on http://{bound}");
    }
    tasks.spawn(crate::server::serve(
        listener,
        state.clone(),
        wait_for_stop(stop_rx),
    ));
    use std::io::Write;
    let _ = std::io::stdout().flush();

    tokio::select! {
        () = stop_signal => {
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
    state
        .store
        .make_durable()
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}
