//! The service's log: where it goes and how much of it, the same for the CLI and the desktop shell.

use tracing_subscriber::filter::Targets;
use tracing_subscriber::prelude::*;

/// Logs to stderr at the level XS2A_LOG asks (warn by default), with colours only on a terminal.
///
/// XS2A_LOG is a level (`info`) or comma-separated `target=level` pairs (`xs2a_sandbox=trace,warn`):
/// tracing-subscriber's `Targets`, not its `EnvFilter`, whose span and field filters nobody here uses and
/// whose regular-expression engine was a quarter of a megabyte of the shipped binary
/// (docs/desktop.md, "Sizes"). A value it cannot read is said on stderr, and the default kept.
pub fn init_tracing() {
    use std::io::IsTerminal;
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(std::io::stderr().is_terminal())
                .with_writer(std::io::stderr),
        )
        .with(filter(std::env::var("XS2A_LOG").ok().as_deref()))
        .try_init();
}

/// What XS2A_LOG asks for, or warnings only.
fn filter(setting: Option<&str>) -> Targets {
    let default = || Targets::new().with_default(tracing::Level::WARN);
    match setting.map(str::trim).filter(|s| !s.is_empty()) {
        None => default(),
        Some(text) => text.parse().unwrap_or_else(|error| {
            eprintln!(
                "XS2A_LOG={text:?} is not a level or target=level list ({error}); logging warnings"
            );
            default()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::filter;
    use tracing::Level;

    #[test]
    fn the_log_shows_warnings_unless_asked_for_more() {
        for unset in [None, Some(""), Some("  ")] {
            let targets = filter(unset);
            assert!(targets.would_enable("xs2a_http::api", &Level::WARN));
            assert!(!targets.would_enable("xs2a_http::api", &Level::INFO));
        }
    }

    #[test]
    fn a_level_or_per_target_levels_are_read_as_the_docs_write_them() {
        // docs/reference/clock-and-service.md and docs/fixtures.md.
        let everything_at_info = filter(Some("info"));
        assert!(everything_at_info.would_enable("xs2a_http::api::gate", &Level::INFO));
        assert!(!everything_at_info.would_enable("xs2a_http::api::gate", &Level::DEBUG));

        let one_crate_traced = filter(Some("xs2a_sandbox=trace"));
        assert!(one_crate_traced.would_enable("xs2a_sandbox::cli::import", &Level::TRACE));
        assert!(!one_crate_traced.would_enable("xs2a_http::api", &Level::ERROR));

        let mixed = filter(Some("xs2a_sandbox=trace,warn"));
        assert!(mixed.would_enable("xs2a_sandbox::cli", &Level::TRACE));
        assert!(mixed.would_enable("sled", &Level::WARN));
        assert!(!mixed.would_enable("sled", &Level::INFO));
    }

    #[test]
    fn a_setting_it_cannot_read_keeps_warnings() {
        let targets = filter(Some("xs2a_sandbox=loud"));
        assert!(targets.would_enable("xs2a_sandbox", &Level::WARN));
        assert!(!targets.would_enable("xs2a_sandbox", &Level::INFO));
    }
}
