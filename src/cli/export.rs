//! `xs2a-sandbox export --data DIR --out FILE`: writes the state of a data directory (not served at the
//! moment: sled allows one process per directory) as a state file (docs/fixtures.md).

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The data directory (default: the platform's data directory, as `serve` uses).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The state file to write; `-` for standard output.
    #[arg(long, default_value = "-")]
    pub out: PathBuf,
}

pub fn run(args: ExportArgs) -> Result<ExitCode, String> {
    xs2a_http::logging::init_tracing();
    let dir = args.data.unwrap_or_else(super::serve::default_data_dir);
    if !dir.is_dir() {
        return Err(format!("{} is not a data directory", dir.display()));
    }
    let store = super::import::open_store(&dir)?;
    let bytes = xs2a_workbench::state_file::export(&store).map_err(|e| e.to_string())?;
    store.close().map_err(|e| e.to_string())?;
    if args.out.as_os_str() == "-" {
        use std::io::Write;
        std::io::stdout()
            .write_all(&bytes)
            .map_err(|e| format!("cannot write the state: {e}"))?;
    } else {
        super::import::write_atomically(&args.out, &bytes)?;
        eprintln!("wrote {} ({} bytes)", args.out.display(), bytes.len());
    }
    Ok(ExitCode::SUCCESS)
}
