//! The conformance report's question read from its query (docs/conformance.md): `tpp` (unless
//! `journey`), `since` and `until` as RFC 3339 times, and nothing else; each refusal at the parameter at
//! fault.

use super::select::Ask;
use crate::traffic::TrafficLog;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use xs2a_core::domain::refusal::{Code, CoreResult, Refusal, TppMessage};

impl Ask {
    /// The question a report's query string asks: 400 FORMAT_ERROR for a query that does not parse, an
    /// unknown parameter, a time that is not RFC 3339 or `since` after `until`; 400
    /// QUERY_PARAMETER_REQUIRED when neither `tpp` nor `journey` is given. Empty values count as absent.
    pub fn from_query(query: Option<&str>) -> CoreResult<Ask> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
            .map_err(|e| Refusal::format("(query)", format!("the query does not parse: {e}")))?;
        let mut ask = Ask::default();
        for (name, value) in pairs {
            let value = value.trim().to_owned();
            if value.is_empty() {
                continue;
            }
            match name.as_str() {
                "tpp" => ask.tpp = Some(value),
                "journey" => ask.journey = Some(value),
                "since" | "until" => {
                    let at = OffsetDateTime::parse(&value, &Rfc3339).map_err(|_| {
                        Refusal::format(
                            &name,
                            format!(
                                "{name} '{value}' is not an RFC 3339 time such as 2026-06-01T12:00:00Z"
                            ),
                        )
                    })?;
                    if name == "since" {
                        ask.since = Some(at);
                    } else {
                        ask.until = Some(at);
                    }
                }
                other => {
                    return Err(Refusal::format(
                        other,
                        format!(
                            "unknown parameter '{other}': the report takes tpp, since, until and journey"
                        ),
                    ))
                }
            }
        }
        if ask.tpp.is_none() && ask.journey.is_none() {
            return Err(Refusal::query_parameter_required("tpp").with_messages([
                TppMessage::warning(
                    Code::QueryParameterRequired,
                    Some("tpp"),
                    "Name the TPP by its certificate's organisation identifier (GET /workbench/api/conformance/tpps lists them), or a journey.",
                ),
            ]));
        }
        if let (Some(since), Some(until)) = (ask.since, ask.until) {
            if since > until {
                return Err(Refusal::format("since", "since is after until"));
            }
        }
        Ok(ask)
    }

    /// 404 RESOURCE_UNKNOWN at `journey` for a journey the traffic log does not hold.
    pub fn known_journey(&self, traffic: &TrafficLog) -> CoreResult<()> {
        match &self.journey {
            Some(journey) if traffic.journey(journey).is_none() => {
                Err(Refusal::unknown("journey", "journey", journey))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(query: &str) -> Refusal {
        Ask::from_query(Some(query)).unwrap_err()
    }

    #[test]
    fn reads_the_tpp_and_the_window() {
        let ask = Ask::from_query(Some(
            "tpp=PSDNO-FSA-1&since=2026-06-01T12:00:00Z&until=2026-06-02T12:00:00Z&journey=",
        ))
        .unwrap();
        assert_eq!(ask.tpp.as_deref(), Some("PSDNO-FSA-1"));
        assert!(ask.since.is_some() && ask.until.is_some());
        assert_eq!(ask.journey, None);
        assert!(Ask::from_query(Some("journey=payment:1")).is_ok());
    }

    #[test]
    fn refuses_what_it_cannot_read_at_the_parameter() {
        let late = refused("tpp=a&since=yesterday");
        assert_eq!((late.status(), late.code), (400, Code::FormatError));
        assert_eq!(late.path.as_deref(), Some("since"));
        let unknown = refused("tpp=a&psu=b");
        assert_eq!((unknown.status(), unknown.code), (400, Code::FormatError));
        assert_eq!(unknown.path.as_deref(), Some("psu"));
        let reversed = refused("tpp=a&since=2026-06-02T00:00:00Z&until=2026-06-01T00:00:00Z");
        assert_eq!(
            (reversed.status(), reversed.path.as_deref()),
            (400, Some("since"))
        );
        assert_eq!(reversed.text, "since is after until");
    }

    #[test]
    fn needs_a_tpp_or_a_journey() {
        let none = refused("since=2026-06-01T00:00:00Z&tpp=%20");
        assert_eq!(
            (none.status(), none.code, none.path.as_deref()),
            (400, Code::QueryParameterRequired, Some("tpp"))
        );
        assert_eq!(none.more.len(), 1);
    }
}
