//! `xs2a-sandbox import FILE --data DIR [--merge] [--preview]`: loads a state file into a data directory
//! (not served at the moment), replacing its state or merging into it, all or nothing. `--preview` says
//! what would change and writes nothing. A refused file is reported with the JSON pointer at fault, exit
//! code 1, and the data directory as it was.

use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use xs2a_core::store::{Store, StoreError};
use xs2a_workbench::state_file::{Mode, Preview};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The state file (as written by `export` or the workbench).
    pub file: PathBuf,
    /// The data directory (default: the platform's data directory, as `serve` uses).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Add the file's records to the state instead of replacing it (ids already taken by a different
    /// record are refused).
    #[arg(long)]
    pub merge: bool,
    /// Only say what would change.
    #[arg(long)]
    pub preview: bool,
    /// Print each stage the import reaches (`stage: checked`, `stage: committing`, `stage: committed`)
    /// and wait for a line on stdin before going on: the kill -9 trials stop an import at a stage it
    /// reports instead of at a guessed time. Hidden: a tool for tests, not for users.
    #[arg(long, hide = true)]
    pub stepwise: bool,
}

/// Opens a data directory's store, saying plainly when a sandbox serves it.
pub fn open_store(dir: &Path) -> Result<Store, String> {
    Store::open(dir, xs2a_core::bank::migrations::active()).map_err(|error| match error {
        StoreError::Locked(_) => format!(
            "a running sandbox holds {}; stop it first (or use the workbench's import while it runs)",
            dir.display()
        ),
        other => format!("cannot open the data store: {other}"),
    })
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a reader never sees half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The preview as lines of text, one changed tree a line.
pub fn describe(preview: &Preview) -> String {
    let mut text = format!(
        "{} records ({}):\n",
        preview.records,
        match preview.mode {
            Mode::Replace => "replace",
            Mode::Merge => "merge",
        }
    );
    for (tree, c) in &preview.trees {
        text.push_str(&format!(
            "  {tree}: {} added, {} changed, {} unchanged, {} removed\n",
            c.added, c.changed, c.unchanged, c.removed
        ));
    }
    text
}

/// Says the stage reached on stdout and waits for a line on stdin (`--stepwise`).
fn wait_at(stage: xs2a_workbench::state_file::ImportStage) {
    use std::io::{BufRead, Write};
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "stage: {}", stage.name());
    let _ = out.flush();
    let _ = std::io::stdin().lock().read_line(&mut String::new());
}

pub fn run(args: ImportArgs) -> Result<ExitCode, String> {
    xs2a_http::logging::init_tracing();
    let bytes = std::fs::read(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let dir = args.data.unwrap_or_else(super::serve::default_data_dir);
    let mode = if args.merge {
        Mode::Merge
    } else {
        Mode::Replace
    };
    let store = open_store(&dir)?;
    let outcome = if args.preview {
        xs2a_workbench::state_file::preview(&store, &bytes, mode)
    } else if args.stepwise {
        xs2a_workbench::state_file::import_reporting(&store, &bytes, mode, &mut wait_at)
    } else {
        xs2a_workbench::state_file::import(&store, &bytes, mode)
    };
    store.close().map_err(|e| e.to_string())?;
    match outcome {
        Ok(preview) => {
            let verb = if args.preview {
                "would import"
            } else {
                "imported"
            };
            print!("{verb} {}", describe(&preview));
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!(
                "xs2a-sandbox: {} refused, nothing imported: {error}",
                args.file.display()
            );
            Ok(ExitCode::from(1))
        }
    }
}
