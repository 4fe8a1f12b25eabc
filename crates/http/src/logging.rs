//! The service's log: where it goes and how much of it, the same for the CLI and the desktop shell.

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::prelude::*;

/// Logs to stderr at the level XS2A_LOG asks (warn by default), with colours only on a terminal.
///
/// XS2A_LOG is a level (`info`) or comma-separated `target=level` pairs (`xs2a_workbench=debug,warn`):
/// read here into tracing-subscriber's `Targets`, not its `EnvFilter`, whose span and field filters
/// nobody here uses and whose regular-expression engine was a quarter of a megabyte of the shipped
/// binary (docs/desktop.md, "Sizes"). A value it cannot read is said on stderr, and the default kept.
pub fn init_tracing() {
    use std::io::IsTerminal;
    let setting = std::env::var("XS2A_LOG").ok();
    let filter = match filter(setting.as_deref()) {
        Ok(filter) => filter,
        Err(problem) => {
            eprintln!("XS2A_LOG: {problem}; logging warnings");
            warnings()
        }
    };
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(std::io::stderr().is_terminal())
                .with_writer(std::io::stderr),
        )
        .with(filter)
        .try_init();
}

fn warnings() -> Targets {
    Targets::new().with_default(LevelFilter::WARN)
}

/// What XS2A_LOG asks for (unset or blank: warnings only). Each comma-separated part, spaces around
/// it ignored, is a level (the default for every target) or `target=level`; anything else is refused
/// rather than read as a target name, so a misspelt level does not silence the log.
fn filter(setting: Option<&str>) -> Result<Targets, String> {
    let parts: Vec<&str> = setting
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    if parts.is_empty() {
        return Ok(warnings());
    }
    let mut targets = Targets::new();
    for part in parts {
        targets = match part.split_once('=') {
            None => targets.with_default(level(part)?),
            Some((target, wanted)) => {
                let target = target.trim();
                if target.is_empty() {
                    return Err(format!("{part:?} names no target before '='"));
                }
                targets.with_target(target, level(wanted.trim())?)
            }
        };
    }
    Ok(targets)
}

fn level(text: &str) -> Result<LevelFilter, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a level (error, warn, info, debug, trace or off)"))
}

#[cfg(test)]
mod tests {
    use super::filter;
    use tracing::Level;

    #[test]
    fn the_log_shows_warnings_unless_asked_for_more() {
        for unset in [None, Some(""), Some("  "), Some(" , ")] {
            let targets = filter(unset).unwrap();
            assert!(targets.would_enable("xs2a_http::api", &Level::WARN));
            assert!(!targets.would_enable("xs2a_http::api", &Level::INFO));
        }
    }

    #[test]
    fn a_level_or_per_target_levels_are_read_as_the_docs_write_them() {
        // docs/reference/clock-and-service.md and docs/fixtures.md.
        let everything_at_info = filter(Some("info")).unwrap();
        assert!(everything_at_info.would_enable("xs2a_http::api::gate", &Level::INFO));
        assert!(!everything_at_info.would_enable("xs2a_http::api::gate", &Level::DEBUG));

        // The import's phases are a debug event of the workbench crate's state-file importer.
        let import_phases = filter(Some("xs2a_workbench=debug")).unwrap();
        assert!(import_phases.would_enable("xs2a_workbench::state_file::import", &Level::DEBUG));
        assert!(!import_phases.would_enable("xs2a_http::api", &Level::ERROR));

        let mixed = filter(Some("xs2a_workbench=debug, warn,")).unwrap();
        assert!(mixed.would_enable("xs2a_workbench::state_file", &Level::DEBUG));
        assert!(mixed.would_enable("sled", &Level::WARN));
        assert!(!mixed.would_enable("sled", &Level::INFO));

        let silent = filter(Some("off")).unwrap();
        assert!(!silent.would_enable("xs2a_http", &Level::ERROR));
    }

    #[test]
    fn a_setting_it_cannot_read_is_refused_and_says_which_part() {
        for (setting, named) in [
            ("xs2a_workbench=loud", "\"loud\""),
            ("warning", "\"warning\""),
            ("info,=debug", "\"=debug\""),
        ] {
            let problem = filter(Some(setting)).unwrap_err();
            assert!(problem.contains(named), "{setting}: {problem}");
        }
    }
}
