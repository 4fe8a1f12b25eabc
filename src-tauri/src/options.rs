//! What the user can fix when starting the app: the port (`--port N` or `XS2A_DESKTOP_PORT`; otherwise the
//! OS picks a free one) and the data directory (`--data DIR` or `XS2A_DESKTOP_DATA`, `--ephemeral`;
//! otherwise the app's data directory), and `--version` / `--help`, answered before any window opens.
//! Unknown arguments are ignored, because WebDriver and desktop launchers add their own.

use std::path::PathBuf;
use xs2a_http::app::DataDir;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub port: Option<u16>,
    pub data: Option<PathBuf>,
    pub ephemeral: bool,
    /// `--version` / `-V`: print the version and exit.
    pub version: bool,
    /// `--help` / `-h`: print the usage and exit.
    pub help: bool,
}

/// What `--help` prints.
pub const USAGE: &str = "\
Usage: xs2a-desktop [--port N] [--data DIR | --ephemeral] [--version] [--help]

The xs2a-sandbox workbench: a desktop window over the embedded sandbox service.

  --port N       serve on 127.0.0.1:N (default: a free port; env XS2A_DESKTOP_PORT)
  --data DIR     keep the sandbox's data in DIR (default: the app's data directory; env XS2A_DESKTOP_DATA)
  --ephemeral    keep nothing (a temporary store)
  -V, --version  print the version
  -h, --help     print this help

A second launch on the same data directory brings the running window forward.
The headless service and its CLI (sign, cert, verify, ...) are `xs2a-sandbox`.";

fn port(text: &str) -> Result<u16, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a port number (0-65535)"))
}

impl Options {
    /// From the command line (without the program name) and the environment; arguments win.
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Options, String> {
        let mut options = Options {
            port: env("XS2A_DESKTOP_PORT")
                .filter(|v| !v.is_empty())
                .map(|v| port(&v))
                .transpose()?,
            data: env("XS2A_DESKTOP_DATA")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            ..Options::default()
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
                None => (arg, None),
            };
            let mut value = |name: &str| {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match name.as_str() {
                "--port" => options.port = Some(port(&value("--port")?)?),
                "--data" => options.data = Some(PathBuf::from(value("--data")?)),
                "--ephemeral" => options.ephemeral = true,
                "--version" | "-V" => options.version = true,
                "--help" | "-h" => options.help = true,
                _ => {}
            }
        }
        Ok(options)
    }

    /// Where the sandbox keeps its data, given the app's own data directory.
    pub fn data_dir(&self, app_data_dir: PathBuf) -> DataDir {
        match (&self.data, self.ephemeral) {
            (_, true) => DataDir::Ephemeral,
            (Some(dir), false) => DataDir::At(dir.clone()),
            (None, false) => DataDir::At(app_data_dir),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str], env: &[(&str, &str)]) -> Result<Options, String> {
        Options::parse(args.iter().map(|a| a.to_string()), |name| {
            env.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn the_os_picks_the_port_unless_one_is_fixed() {
        assert_eq!(parse(&[], &[]).unwrap().port, None);
        assert_eq!(parse(&["--port", "8080"], &[]).unwrap().port, Some(8080));
        assert_eq!(parse(&["--port=9000"], &[]).unwrap().port, Some(9000));
        assert_eq!(
            parse(&[], &[("XS2A_DESKTOP_PORT", "7000")]).unwrap().port,
            Some(7000)
        );
        assert_eq!(
            parse(&["--port", "1"], &[("XS2A_DESKTOP_PORT", "7000")])
                .unwrap()
                .port,
            Some(1)
        );
        assert!(parse(&["--port", "http"], &[]).is_err());
        assert!(parse(&["--port"], &[]).is_err());
    }

    #[test]
    fn foreign_arguments_are_ignored() {
        assert_eq!(
            parse(&["--automation", "-psn_0_1"], &[]).unwrap(),
            Options::default()
        );
    }

    #[test]
    fn version_and_help_are_asked_for_by_their_usual_names() {
        assert!(parse(&["--version"], &[]).unwrap().version);
        assert!(parse(&["-V"], &[]).unwrap().version);
        assert!(parse(&["--help"], &[]).unwrap().help);
        assert!(parse(&["-h"], &[]).unwrap().help);
        assert!(!parse(&[], &[]).unwrap().version);
        assert!(USAGE.contains("--ephemeral") && USAGE.contains("--version"));
    }

    #[test]
    fn data_lives_in_the_app_data_directory_by_default() {
        let app_dir = PathBuf::from("/home/u/.local/share/app");
        assert_eq!(
            parse(&[], &[]).unwrap().data_dir(app_dir.clone()),
            DataDir::At(app_dir.clone())
        );
        assert_eq!(
            parse(&["--data", "/tmp/d"], &[])
                .unwrap()
                .data_dir(app_dir.clone()),
            DataDir::At("/tmp/d".into())
        );
        assert_eq!(
            parse(&["--ephemeral"], &[]).unwrap().data_dir(app_dir),
            DataDir::Ephemeral
        );
    }
}
