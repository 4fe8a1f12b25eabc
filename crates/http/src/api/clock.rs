//! `GET|PUT /v1/sandbox/clock`: read, set, advance, freeze or release the sandbox's one clock.
//!
//! PUT takes exactly one of `{"now": "<RFC 3339>"}`, `{"advance": "<ISO 8601 duration, e.g. PT1H, P1DT2H>"}`
//! or `{"mode": "real" | "frozen"}` and answers with the new reading.

use super::json::JsonBody;
use crate::api::error::{ApiError, ApiResult};
use crate::api::openapi::routes::Routes;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use time::{Duration, OffsetDateTime};
use xs2a_core::bank::clock_control::{self, ClockChange};
use xs2a_core::domain::clock::ClockReading;
use xs2a_workbench::app_state::AppState;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ClockChangeBody {
    #[serde(default, with = "time::serde::rfc3339::option")]
    now: Option<OffsetDateTime>,
    advance: Option<String>,
    mode: Option<String>,
}

async fn read(State(state): State<AppState>) -> Json<ClockReading> {
    Json(state.clock.reading())
}

async fn change(
    State(state): State<AppState>,
    JsonBody(change): JsonBody<ClockChangeBody>,
) -> ApiResult<Json<ClockReading>> {
    let change = match (change.now, change.advance, change.mode) {
        (Some(now), None, None) => ClockChange::SetTo(now),
        (None, Some(duration), None) => ClockChange::Advance(
            parse_iso_duration(&duration).map_err(|reason| ApiError::format("advance", reason))?,
        ),
        (None, None, Some(mode)) => match mode.as_str() {
            "real" => ClockChange::Real,
            "frozen" => ClockChange::Freeze,
            _ => {
                return Err(ApiError::format(
                    "mode",
                    format!("mode must be 'real' or 'frozen'; got '{mode}'"),
                ))
            }
        },
        _ => {
            return Err(ApiError::format(
                "(body)",
                "give exactly one of now (RFC 3339), advance (ISO 8601 duration such as PT1H) or mode (real|frozen)",
            ))
        }
    };
    let change = move || clock_control::change(&state, change);
    let reading = tokio::task::spawn_blocking(xs2a_core::domain::cause::carry(change))
        .await
        .map_err(|e| ApiError::internal(format!("clock change panicked: {e}")))??;
    Ok(Json(reading))
}

/// Parses an ISO 8601 duration of days, hours, minutes and seconds (`P1D`, `PT90M`, `-PT1H`, `P2DT3H4M5S`).
pub fn parse_iso_duration(text: &str) -> Result<Duration, String> {
    let hint = || format!("'{text}' is not an ISO 8601 duration like PT1H, P1D or P2DT3H30M");
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let rest = rest.strip_prefix('P').ok_or_else(hint)?;
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) if !t.is_empty() => (d, Some(t)),
        Some(_) => return Err(hint()),
        None => (rest, None),
    };
    let mut total = Duration::ZERO;
    let mut read = |part: &str, units: &[(char, i64)]| -> Result<(), String> {
        let mut number = String::new();
        let mut allowed = units.iter();
        for c in part.chars() {
            if c.is_ascii_digit() {
                number.push(c);
                continue;
            }
            let seconds = allowed
                .find(|(unit, _)| *unit == c)
                .map(|(_, s)| *s)
                .ok_or_else(hint)?;
            let n: i64 = number.parse().map_err(|_| hint())?;
            let part = Duration::seconds(n.checked_mul(seconds).ok_or_else(hint)?);
            total = total.checked_add(part).ok_or_else(hint)?;
            number.clear();
        }
        if number.is_empty() {
            Ok(())
        } else {
            Err(hint())
        }
    };
    read(date_part, &[('W', 604_800), ('D', 86_400)])?;
    if let Some(time_part) = time_part {
        read(time_part, &[('H', 3600), ('M', 60), ('S', 1)])?;
    }
    if date_part.is_empty() && time_part.is_none() {
        return Err(hint());
    }
    Ok(if negative { -total } else { total })
}

/// These routes (relative to /v1, served with the controls), each with its OpenAPI description.
pub fn routes() -> Routes {
    use crate::api::openapi::headers::SIGNED;
    Routes::new()
        .get("/sandbox/clock", read, |op| {
            op.tag("Control")
                .summary("The sandbox clock")
                .params(SIGNED)
                .operator()
                .answers::<ClockReading>(200, "The reading")
                .refusals(&[400, 401])
        })
        .put("/sandbox/clock", change, |op| {
            op.tag("Control")
                .summary("Set, advance, freeze or release the clock")
                .description("Exactly one of `now` (RFC 3339), `advance` (ISO 8601 duration, e.g. PT1H) or `mode` (real, frozen).")
                .params(SIGNED)
                .operator()
                .body::<ClockChangeBody>(true)
                .answers::<ClockReading>(200, "The new reading")
                .refusals(&[400, 401, 413, 415])
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_durations_parse() {
        assert_eq!(parse_iso_duration("PT1H").unwrap(), Duration::hours(1));
        assert_eq!(parse_iso_duration("P1D").unwrap(), Duration::days(1));
        assert_eq!(
            parse_iso_duration("P2DT3H30M5S").unwrap(),
            Duration::seconds(2 * 86400 + 3 * 3600 + 30 * 60 + 5)
        );
        assert_eq!(
            parse_iso_duration("-PT90M").unwrap(),
            -Duration::minutes(90)
        );
        for bad in [
            "",
            "P",
            "PT",
            "1H",
            "PT1D",
            "P1H",
            "PTH",
            "P99999999999999999D",
        ] {
            assert!(parse_iso_duration(bad).is_err(), "{bad}");
        }
    }
}
