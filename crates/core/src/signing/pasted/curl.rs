//! A curl command as the request curl would send: the method, the URL's path and query, the headers and
//! the body, read the way curl reads its options (`-d` implies POST and a form Content-Type, several `-d`
//! are joined with `&`, `-G` moves the data into the query). Options that only change what curl does
//! with the answer are passed over; a body or headers that live in a file are refused, saying why —
//! above all `-d @file`, which drops the file's line ends, the usual cause of a Digest that does not match.

use super::raw::{header_name, header_value};
use super::{Form, PastedRequest};
use http::HeaderMap;

/// Options curl takes without an argument that do not change the request.
const FLAGS: &[&str] = &[
    "-s",
    "--silent",
    "-S",
    "--show-error",
    "-v",
    "--verbose",
    "-i",
    "--include",
    "-k",
    "--insecure",
    "-L",
    "--location",
    "--compressed",
    "-f",
    "--fail",
    "--fail-with-body",
    "-N",
    "--no-buffer",
    "--http1.1",
    "--http1.0",
    "--http2",
    "-g",
    "--globoff",
    "-#",
    "--progress-bar",
    "-q",
    "--no-progress-meter",
    "-O",
    "--remote-name",
];

/// Options curl takes with an argument that do not change the request (output, TLS, timing).
const WITH_ARGUMENT: &[&str] = &[
    "-o",
    "--output",
    "-w",
    "--write-out",
    "-m",
    "--max-time",
    "--connect-timeout",
    "--cacert",
    "--capath",
    "--cert",
    "-E",
    "--key",
    "--retry",
    "--resolve",
    "-x",
    "--proxy",
    "--limit-rate",
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--retry-delay",
    "--retry-max-time",
];

/// How a data option treats its argument.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Data {
    /// `-d`, `--data`, `--data-ascii`: `@file` is read with its line ends dropped.
    Ascii,
    /// `--data-binary`: `@file` is read byte for byte.
    Binary,
    /// `--data-raw`: never a file.
    Raw,
    /// `--json`: as binary, plus JSON Content-Type and Accept.
    Json,
}

fn data_option(name: &str) -> Option<Data> {
    Some(match name {
        "-d" | "--data" | "--data-ascii" => Data::Ascii,
        "--data-binary" => Data::Binary,
        "--data-raw" => Data::Raw,
        "--json" => Data::Json,
        _ => return None,
    })
}

/// Whether `text` is a curl command (after a shell prompt, if one was copied with it).
pub fn is_curl(text: &str) -> bool {
    let command = strip_prompt(text.trim_start());
    let first = command.split_whitespace().next().unwrap_or("");
    first == "curl" || first.ends_with("/curl") || first.eq_ignore_ascii_case("curl.exe")
}

fn strip_prompt(text: &str) -> &str {
    text.strip_prefix("$ ")
        .or_else(|| text.strip_prefix("% "))
        .unwrap_or(text)
}

/// The request a curl command sends.
pub fn parse(text: &str) -> Result<PastedRequest, String> {
    let (words, ended_by) = super::shell_words::split(strip_prompt(text.trim_start()))?;
    let mut notes = Vec::new();
    if let Some(c) = ended_by {
        notes.push(format!(
            "Only the curl command was read: what follows '{c}' is the shell's, not the request's."
        ));
    }
    let mut method: Option<String> = None;
    let mut url: Option<String> = None;
    let mut headers = HeaderMap::new();
    let mut data: Vec<String> = Vec::new();
    let mut json = false;
    let mut get = false;
    let mut head = false;
    for (name, value) in options(words.into_iter().skip(1))? {
        let Some(name) = name else {
            match &url {
                None => url = Some(value.unwrap_or_default()),
                Some(first) => {
                    return Err(format!(
                        "the command names two URLs ({first} and {}): paste one request",
                        value.unwrap_or_default()
                    ))
                }
            }
            continue;
        };
        let value = || {
            value
                .clone()
                .ok_or_else(|| format!("curl's {name} needs a value"))
        };
        match name.as_str() {
            "-X" | "--request" => method = Some(value()?),
            "--url" => url = Some(value()?),
            "-H" | "--header" => add_header(&mut headers, &value()?)?,
            "-A" | "--user-agent" => add_header(&mut headers, &format!("User-Agent: {}", value()?))?,
            "-e" | "--referer" => add_header(&mut headers, &format!("Referer: {}", value()?))?,
            "-b" | "--cookie" => add_header(&mut headers, &format!("Cookie: {}", value()?))?,
            "-G" | "--get" => get = true,
            "-I" | "--head" => head = true,
            name if data_option(name).is_some() => {
                let kind = data_option(name).expect("matched");
                let text = value()?;
                if text.starts_with('@') && kind != Data::Raw {
                    return Err(body_in_file(name, &text, kind));
                }
                json |= kind == Data::Json;
                data.push(text);
            }
            name if FLAGS.contains(&name) || WITH_ARGUMENT.contains(&name) => {}
            "-u" | "--user" => notes.push(
                "curl -u adds an Authorization header, which the bank's interface does not read; left out here."
                    .to_owned(),
            ),
            other => {
                return Err(format!(
                    "curl's option {other} is not understood here: paste the raw HTTP request instead (curl -v \
                     shows it), or leave the option out"
                ))
            }
        }
    }
    let url = url.ok_or("the curl command names no URL")?;
    let mut target = super::path_and_query(&url)?;
    let mut body = data.join("&").into_bytes();
    if get && !body.is_empty() {
        target.push(if target.contains('?') { '&' } else { '?' });
        target.push_str(&String::from_utf8_lossy(&body));
        body.clear();
    }
    if json {
        set_if_absent(&mut headers, "content-type", "application/json");
        set_if_absent(&mut headers, "accept", "application/json");
    } else if !body.is_empty() && !headers.contains_key("content-type") {
        headers.insert(
            "content-type",
            http::HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        notes.push(
            "curl -d sends Content-Type: application/x-www-form-urlencoded unless told otherwise, and the bank \
             refuses a body that is not JSON: add -H 'Content-Type: application/json'."
                .to_owned(),
        );
    }
    let method = match method {
        Some(method) => method,
        None if head => "HEAD".to_owned(),
        None if !body.is_empty() => "POST".to_owned(),
        None => "GET".to_owned(),
    };
    Ok(PastedRequest {
        form: Form::Curl,
        method,
        target,
        headers,
        body,
        notes,
    })
}

/// One of the command's words after `curl`, read: (option, its value); a URL is (None, Some(url)).
type CurlOption = (Option<String>, Option<String>);

/// The command's words after `curl` as (option, value) pairs. Short options may be bundled (`-sS`) or
/// carry their value attached (`-XPOST`); long ones may use `=`.
fn options(words: impl Iterator<Item = String>) -> Result<Vec<CurlOption>, String> {
    let takes_value = |name: &str| {
        matches!(
            name,
            "-X" | "--request"
                | "--url"
                | "-H"
                | "--header"
                | "-A"
                | "--user-agent"
                | "-e"
                | "--referer"
                | "-b"
                | "--cookie"
                | "-u"
                | "--user"
        ) || data_option(name).is_some()
            || WITH_ARGUMENT.contains(&name)
    };
    let mut out = Vec::new();
    let mut words = words.peekable();
    while let Some(word) = words.next() {
        if word == "--" {
            out.extend(words.by_ref().map(|url| (None, Some(url))));
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (format!("--{name}"), Some(value.to_owned())),
                None => (word.clone(), None),
            };
            let value = if takes_value(&name) {
                attached.or_else(|| words.next())
            } else {
                None
            };
            out.push((Some(name), value));
        } else if word.len() > 1 && word.starts_with('-') {
            // Short options: each letter, until one that takes a value takes the rest (or the next word).
            let letters: Vec<char> = word[1..].chars().collect();
            for (i, letter) in letters.iter().enumerate() {
                let name = format!("-{letter}");
                if takes_value(&name) {
                    let rest: String = letters[i + 1..].iter().collect();
                    let value = if rest.is_empty() {
                        words.next()
                    } else {
                        Some(rest)
                    };
                    out.push((Some(name), value));
                    break;
                }
                out.push((Some(name), None));
            }
        } else {
            out.push((None, Some(word)));
        }
    }
    Ok(out)
}

/// `-H 'Name: value'`; `-H 'Name:'` removes a header curl would add (nothing to do here), `-H 'Name;'`
/// sends it empty.
fn add_header(headers: &mut HeaderMap, line: &str) -> Result<(), String> {
    if let Some(file) = line.strip_prefix('@') {
        return Err(format!(
            "-H @{file} reads the headers from a file, which is not in the paste: paste the file's lines as \
             -H options, or the raw HTTP request"
        ));
    }
    if let Some(name) = line.strip_suffix(';').filter(|n| !n.contains(':')) {
        headers.append(header_name(name)?, http::HeaderValue::from_static(""));
        return Ok(());
    }
    let (name, value) = line
        .split_once(':')
        .ok_or_else(|| format!("-H '{line}' is not a header: write it as 'Name: value'"))?;
    if value.trim().is_empty() {
        return Ok(());
    }
    headers.append(header_name(name)?, header_value(name, value)?);
    Ok(())
}

fn set_if_absent(headers: &mut HeaderMap, name: &'static str, value: &'static str) {
    if !headers.contains_key(name) {
        headers.insert(name, http::HeaderValue::from_static(value));
    }
}

/// Why a body read from a file cannot be checked, and for `-d @file` what curl does to it.
fn body_in_file(option: &str, argument: &str, kind: Data) -> String {
    let file = &argument[1..];
    let missing = format!(
        "{option} {argument} sends the file {file}, which is not in the paste: paste the raw HTTP request \
         instead (curl -v --trace-ascii - shows the bytes sent)"
    );
    if kind == Data::Ascii {
        format!(
            "{missing}. Note: {option} @file drops the file's line ends (CR and LF) before sending, so a Digest \
             computed over the file as saved does not match what the bank receives; send it with \
             --data-binary @{file}, which sends the bytes unchanged."
        )
    } else {
        format!("{missing}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signed_post_reads_as_curl_sends_it() {
        let parsed = parse(
            "curl -sS -X POST 'http://127.0.0.1:8080/v1/payments/x?y=1' \\\n  -H 'Date: Mon, 01 Jun 2026 12:00:00 GMT' \\\n  -H \"Content-Type: application/json\" --data-binary '{\"a\":\n1}'",
        )
        .unwrap();
        assert_eq!(parsed.method, "POST");
        assert_eq!(parsed.target, "/v1/payments/x?y=1");
        assert_eq!(parsed.headers["date"], "Mon, 01 Jun 2026 12:00:00 GMT");
        assert_eq!(parsed.body, b"{\"a\":\n1}");
        assert!(parsed.notes.is_empty(), "{:?}", parsed.notes);
    }

    #[test]
    fn curl_defaults_are_applied_as_curl_applies_them() {
        let form = parse("curl http://h/v1/x -d a=1 -d b=2").unwrap();
        assert_eq!(
            (form.method.as_str(), form.body.as_slice()),
            ("POST", &b"a=1&b=2"[..])
        );
        assert_eq!(
            form.headers["content-type"],
            "application/x-www-form-urlencoded"
        );
        assert!(form.notes[0].contains("Content-Type: application/json"));
        let get = parse("$ curl -G --data-raw limit=1 --url http://h/v1/x").unwrap();
        assert_eq!(
            (get.method.as_str(), get.target.as_str()),
            ("GET", "/v1/x?limit=1")
        );
        let bundled = parse("curl -sSXDELETE -HX-Request-ID:1 h/v1/x").unwrap();
        assert_eq!(
            (bundled.method.as_str(), bundled.target.as_str()),
            ("DELETE", "/v1/x")
        );
        assert_eq!(bundled.headers["x-request-id"], "1");
        let json = parse("curl --json '{}' http://h/v1/x").unwrap();
        assert_eq!(json.headers["content-type"], "application/json");
    }

    #[test]
    fn a_body_or_headers_in_a_file_are_refused_saying_why() {
        let refusal = parse("curl -d @payment.json http://h/v1/x").unwrap_err();
        assert!(refusal.contains("drops the file's line ends"), "{refusal}");
        assert!(refusal.contains("--data-binary @payment.json"), "{refusal}");
        let binary = parse("curl --data-binary @p.json http://h/v1/x").unwrap_err();
        assert!(
            binary.contains("not in the paste") && !binary.contains("drops"),
            "{binary}"
        );
        assert!(parse("curl -H @headers.txt http://h/v1/x")
            .unwrap_err()
            .contains("-H @headers.txt"));
        assert!(parse("curl --frobnicate http://h")
            .unwrap_err()
            .contains("--frobnicate"));
        assert!(parse("curl -s").unwrap_err().contains("no URL"));
    }

    #[test]
    fn only_curl_commands_are_taken_for_curl() {
        assert!(is_curl("  curl http://x") && is_curl("$ curl x") && is_curl("/usr/bin/curl x"));
        assert!(!is_curl("GET /v1/x HTTP/1.1") && !is_curl("curly"));
    }
}
