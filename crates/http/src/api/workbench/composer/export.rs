//! Copy as curl, and as a script: shell text that runs exactly as copied, from any directory, on any
//! machine with the `xs2a-sandbox` command. The placeholders are filled from the persona now (what the
//! preview shows is what runs); the persona's certificate and key (test credentials) are written by
//! here-documents into a temporary directory removed at exit; `xs2a-sandbox sign` signs at every run (a
//! fresh Date, valid 60 s, and a fresh X-Request-ID), and curl is called only when signing succeeded —
//! the text stops at the first failing command and exits non-zero, so an unsigned request is never sent.

use crate::api::error::ApiResult;
use serde::{Deserialize, Serialize};
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::composer::draft::{self, Draft, OmittedHeader, Resolved, SIGNING_HEADERS};
use xs2a_workbench::own_state::personas::{self, StoredPersona};

/// Which text to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// A command to paste into a shell (a subshell: `( … )`).
    Curl,
    /// A bash script file.
    Script,
}

/// `POST /workbench/api/compose/export`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExportRequest {
    pub draft: Draft,
    pub format: ExportFormat,
}

/// A draft as shell text.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportText {
    pub text: String,
    /// Headers of the draft the text does not send (a placeholder the persona has no value for yet, or a
    /// header `xs2a-sandbox sign` makes afresh at every run), and why.
    pub omitted: Vec<OmittedHeader>,
}

/// Quotes a word for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The draft as shell text of `format`.
pub fn export(state: &AppState, request: &ExportRequest) -> ApiResult<ExportText> {
    let persona = personas::get(&state.store, &request.draft.persona_id)?;
    let mut resolved = draft::resolve(&state.base_url(), &request.draft, &persona, "draft.")?;
    let (signed_afresh, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut resolved.headers)
        .into_iter()
        .partition(|(name, _)| SIGNING_HEADERS.contains(&name.to_ascii_lowercase().as_str()));
    resolved.headers = kept;
    resolved
        .omitted
        .extend(signed_afresh.into_iter().map(|(header, _)| OmittedHeader {
            header,
            reason: "left out: xs2a-sandbox sign makes it afresh at every run".to_owned(),
        }));
    let base = state.base_url();
    let text = match request.format {
        ExportFormat::Curl => curl(&resolved, &base, &persona),
        ExportFormat::Script => script(&resolved, &base, &persona),
    };
    Ok(ExportText {
        text,
        omitted: resolved.omitted,
    })
}

/// The lines both forms share: credentials into a temporary directory, the body into a file (the Digest
/// is over its exact bytes), signing into a header file, then curl with those headers.
fn steps(resolved: &Resolved, base: &str, url: &str, persona: &StoredPersona) -> String {
    let mut text = String::from("dir=$(mktemp -d)\ntrap 'rm -rf \"$dir\"' EXIT\n");
    text.push_str(&format!(
        "cat > \"$dir/cert.pem\" <<'PEM'\n{}\nPEM\ncat > \"$dir/key.pem\" <<'PEM'\n{}\nPEM\n",
        persona.certificate_pem.trim(),
        persona.private_key_pem.trim()
    ));
    // Dated in the sandbox clock's time (as `replay` does), so a frozen or moved clock accepts it.
    text.push_str(&format!(
        "now=$(curl -fsS {})\nnow=${{now#*\\\"now\\\":\\\"}}\nnow=${{now%%\\\"*}}\n",
        quote(&format!("{base}/health"))
    ));
    let method = &resolved.method;
    let mut sign = vec![
        "xs2a-sandbox sign --cert-dir \"$dir\" --at \"$now\"".to_owned(),
        format!("-X {method}"),
        format!("--url {}", quote(url)),
    ];
    for (name, value) in &resolved.headers {
        sign.push(format!("-H {}", quote(&format!("{name}: {value}"))));
    }
    let mut curl = vec![
        "curl -sS".to_owned(),
        format!("-X {method}"),
        "-H @\"$dir/headers.txt\"".to_owned(),
    ];
    if let Some(body) = &resolved.body {
        text.push_str(&format!(
            "printf '%s' {} > \"$dir/body.json\"\n",
            quote(body)
        ));
        sign.push("--data-file \"$dir/body.json\"".to_owned());
        let typed = resolved
            .headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
        if !typed {
            curl.push("-H 'Content-Type: application/json'".to_owned());
        }
        curl.push("--data-binary @\"$dir/body.json\"".to_owned());
    }
    curl.push(quote(url));
    text.push_str(&sign.join(" \\\n  "));
    text.push_str(" > \"$dir/headers.txt\"\n");
    text.push_str(&curl.join(" \\\n  "));
    text.push('\n');
    text
}

/// The comment lines that open both forms.
fn heading(resolved: &Resolved, persona: &StoredPersona) -> String {
    let mut text = format!(
        "# {} {} as persona '{}', made by the xs2a-sandbox workbench.\n\
         # Needs the xs2a-sandbox command on PATH. Signs afresh at every run, dated by the sandbox's clock\n\
         # (GET /health), as a Date is valid for 60 s.\n\
         # TEST credentials only.\n",
        resolved.method,
        resolved.path_and_query,
        persona.name.replace('\n', " ")
    );
    for omitted in &resolved.omitted {
        text.push_str(&format!("# {} {}\n", omitted.header, omitted.reason));
    }
    text
}

/// The form to paste into a shell: a subshell that stops at the first failing command.
pub fn curl(resolved: &Resolved, base: &str, persona: &StoredPersona) -> String {
    let url = format!("{base}{}", resolved.path_and_query);
    format!(
        "{}(\nset -eu\n{})\n",
        heading(resolved, persona),
        steps(resolved, base, &url, persona)
    )
}

/// The script file form.
pub fn script(resolved: &Resolved, base: &str, persona: &StoredPersona) -> String {
    let url = format!("{base}{}", resolved.path_and_query);
    format!(
        "#!/usr/bin/env bash\n{}set -euo pipefail\n{}",
        heading(resolved, persona),
        steps(resolved, base, &url, persona)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_workbench::own_state::personas::Source;

    fn persona() -> StoredPersona {
        StoredPersona {
            id: "bundled-aisp".into(),
            name: "P".into(),
            source: Source::Bundled,
            certificate_pem: "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----".into(),
            private_key_pem: "-----BEGIN PRIVATE KEY-----\nY\n-----END PRIVATE KEY-----".into(),
            psu_id: None,
            psu_corporate_id: None,
            tpp_session_id: None,
        }
    }

    fn resolved() -> Resolved {
        Resolved {
            method: "POST".into(),
            path_and_query: "/v1/x".into(),
            headers: vec![("PSU-ID".into(), "it's".into())],
            body: Some("{\"a\":1}".into()),
            omitted: vec![OmittedHeader {
                header: "PSU-Corporate-ID".into(),
                reason: "left out: no value".into(),
            }],
        }
    }

    #[test]
    fn curl_is_a_subshell_that_stops_at_a_failed_signing_and_quotes_safely() {
        let text = curl(&resolved(), "http://127.0.0.1:1", &persona());
        assert!(text.contains("\n(\nset -eu\n"), "{text}");
        assert!(text.ends_with(")\n"), "{text}");
        assert!(text.contains(r"-H 'PSU-ID: it'\''s'"), "{text}");
        assert!(text.contains("-----BEGIN PRIVATE KEY-----\nY\n"), "{text}");
        assert!(
            text.contains("# PSU-Corporate-ID left out: no value"),
            "{text}"
        );
        assert!(!text.contains("fixtures/certs"), "{text}");
        // curl reads the headers sign wrote to a file: no pipe whose failure could be lost.
        let sign = text.find("xs2a-sandbox sign").unwrap();
        let curl = text.find("curl -sS").unwrap();
        assert!(sign < curl && !text.contains('|'), "{text}");
        // Dated by the sandbox's clock.
        assert!(
            text.contains("now=$(curl -fsS 'http://127.0.0.1:1/health')\n"),
            "{text}"
        );
        assert!(text.contains("--at \"$now\""), "{text}");
        assert!(text.contains("--url 'http://127.0.0.1:1/v1/x'"), "{text}");
    }

    #[test]
    fn the_script_is_bash_with_pipefail_and_the_exact_body() {
        let text = script(&resolved(), "http://127.0.0.1:1", &persona());
        assert!(text.starts_with("#!/usr/bin/env bash\n"));
        assert!(text.contains("set -euo pipefail\n"));
        assert!(text.contains("printf '%s' '{\"a\":1}' > \"$dir/body.json\""));
        assert!(text.contains("--data-file \"$dir/body.json\""));
        assert!(text.contains("-H 'Content-Type: application/json'"));
    }
}
