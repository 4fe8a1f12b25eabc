//! `xs2a-sandbox conformance --tpp ORGID [--since T] [--until T] [--journey J] [--flow FILE]
//! [--data DIR | --url URL --token T] [--json OUT] [--junit OUT] [--html OUT]`: grades a TPP app's traffic
//! against the bank's rules (docs/conformance.md) — from a running sandbox's workbench API, from a data
//! directory no sandbox holds, or from a recorded flow file — prints one line per rule and writes the
//! report as JSON, JUnit and HTML. Exit code 0 without a FAILED rule, 1 with one, 2 when it cannot grade.

use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use time::OffsetDateTime;
use xs2a_workbench::conformance::model::Report;
use xs2a_workbench::conformance::select::{self, Ask};
use xs2a_workbench::outbound::client::Client;

#[derive(Debug, Args)]
pub struct ConformanceArgs {
    /// The TPP: its certificate's organisation identifier (e.g. PSDNO-FSA-9C2C0A).
    #[arg(long, value_name = "ORGID")]
    pub tpp: Option<String>,
    /// Only exchanges at or after this sandbox-clock time (RFC 3339 or RFC 7231).
    #[arg(long, value_name = "TIME", value_parser = super::parse_time)]
    pub since: Option<OffsetDateTime>,
    /// Only exchanges at or before this sandbox-clock time.
    #[arg(long, value_name = "TIME", value_parser = super::parse_time)]
    pub until: Option<OffsetDateTime>,
    /// Only this journey's exchanges (e.g. payment:3f2…).
    #[arg(long)]
    pub journey: Option<String>,
    /// Grade a recorded flow file instead of the traffic log (no sandbox needed).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["data", "url", "since", "until", "journey"])]
    pub flow: Option<PathBuf>,
    /// Read the traffic log of this data directory (no sandbox may be serving it).
    #[arg(long, value_name = "DIR", conflicts_with = "url")]
    pub data: Option<PathBuf>,
    /// Ask a running sandbox (its workbench API) for the report.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// The operator token `serve` printed (with --url).
    #[arg(
        long,
        env = "XS2A_OPERATOR_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// Write the report as JSON (fixtures/schema/conformance-report.schema.json).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as JUnit XML: one test case per rule.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the report as one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

pub fn run(args: ConformanceArgs) -> Result<ExitCode, String> {
    xs2a_http::logging::init_tracing();
    let report = if let Some(flow) = &args.flow {
        from_flow(flow, args.tpp.clone())?
    } else {
        let ask = Ask {
            tpp: args.tpp.clone(),
            since: args.since,
            until: args.until,
            journey: args.journey.clone(),
        };
        if ask.tpp.is_none() && ask.journey.is_none() {
            return Err("name the TPP with --tpp ORGID (its certificate's organisationIdentifier), or a --journey".into());
        }
        match &args.url {
            Some(url) => from_service(url, args.token.as_deref(), &ask)?,
            None => from_data(
                &args
                    .data
                    .clone()
                    .unwrap_or_else(super::serve::default_data_dir),
                &ask,
            )?,
        }
    };
    write_outputs(&args, &report)?;
    print!("{}", describe(&report));
    Ok(if report.counts.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn from_flow(path: &Path, tpp: Option<String>) -> Result<Report, String> {
    let flow = super::replay::read_flow(path)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (selection, about) = select::from_flow(&flow, &name, tpp);
    Ok(xs2a_workbench::conformance::grade(
        &selection,
        about,
        OffsetDateTime::now_utc(),
    ))
}

fn from_data(dir: &Path, ask: &Ask) -> Result<Report, String> {
    if !dir.is_dir() {
        return Err(format!("{} is not a data directory", dir.display()));
    }
    let store = super::import::open_store(dir)?;
    let clock = xs2a_core::domain::clock::Clock::real();
    xs2a_core::bank::clock_control::restore(&store, &clock).map_err(|e| e.to_string())?;
    let events = xs2a_core::bank::events::Events::default();
    let log = xs2a_workbench::traffic::TrafficLog::start(store.clone(), &events)
        .map_err(|e| format!("cannot read the traffic log: {e}"))?;
    let (selection, about) = select::from_log(&log, ask).map_err(|e| e.to_string())?;
    let report = xs2a_workbench::conformance::grade(&selection, about, clock.now());
    drop(log);
    store.close().map_err(|e| e.to_string())?;
    Ok(report)
}

fn from_service(url: &str, token: Option<&str>, ask: &Ask) -> Result<Report, String> {
    let token = token.ok_or("--url needs the operator token: --token or XS2A_OPERATOR_TOKEN")?;
    let mut query: Vec<(&str, String)> = Vec::new();
    let format = |t: OffsetDateTime| {
        t.format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default()
    };
    if let Some(tpp) = &ask.tpp {
        query.push(("tpp", tpp.clone()));
    }
    if let Some(since) = ask.since {
        query.push(("since", format(since)));
    }
    if let Some(until) = ask.until {
        query.push(("until", format(until)));
    }
    if let Some(journey) = &ask.journey {
        query.push(("journey", journey.clone()));
    }
    let query = serde_urlencoded::to_string(&query).map_err(|e| e.to_string())?;
    let mut headers = hyper::HeaderMap::new();
    headers.insert(
        hyper::header::AUTHORIZATION,
        format!("Bearer {token}")
            .parse()
            .map_err(|_| "the token is not a header value".to_owned())?,
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let mut client = Client::new(url)?;
    let answer = runtime.block_on(client.send(
        "GET",
        &format!("/workbench/api/conformance?{query}"),
        &headers,
        Vec::new(),
    ))?;
    if answer.status != 200 {
        return Err(format!(
            "the sandbox answered {}: {}",
            answer.status,
            answer.text()
        ));
    }
    serde_json::from_slice(&answer.body)
        .map_err(|e| format!("the sandbox's report does not parse: {e}"))
}

fn write_outputs(args: &ConformanceArgs, report: &Report) -> Result<(), String> {
    let write = |path: &Path, text: String| {
        super::import::write_atomically(path, text.as_bytes())?;
        eprintln!("wrote {}", path.display());
        Ok::<(), String>(())
    };
    if let Some(path) = &args.json {
        let mut text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
        text.push('\n');
        write(path, text)?;
    }
    if let Some(path) = &args.junit {
        write(path, xs2a_workbench::conformance::junit::report(report))?;
    }
    if let Some(path) = &args.html {
        write(path, xs2a_workbench::conformance::html::report(report))?;
    }
    Ok(())
}

/// One line per rule, then the counts.
pub fn describe(report: &Report) -> String {
    let mut text = String::new();
    if let Some(tpp) = &report.selection.tpp {
        text.push_str(&format!(
            "Conformance of {} {}: {} exchanges ({} to the bank)\n",
            tpp.organisation_id,
            tpp.name,
            report.selection.exchanges,
            report.selection.bank_exchanges
        ));
    }
    for result in report.results() {
        text.push_str(&format!(
            "{:<13} {} {}: {}\n",
            result.verdict.label(),
            result.id,
            result.title,
            result.summary
        ));
    }
    for note in &report.notes {
        text.push_str(&format!("note: {note}\n"));
    }
    let c = report.counts;
    text.push_str(&format!(
        "Rules: PASSED {}, FAILED {}, WARNING {}, REVIEW {}, NOT EXERCISED {}. Overall {}.\n",
        c.passed,
        c.failed,
        c.warning,
        c.review,
        c.not_exercised,
        report.verdict.label()
    ));
    text
}
