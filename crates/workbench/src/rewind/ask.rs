//! The rewind operations' queries read (docs/rewind.md): the parameters an operation takes, each at most
//! once; a timeline entry as a whole number; a position, before or after (after by default); and a
//! restart's pace. Each refusal names the parameter at fault.

use super::point::Position;
use std::time::Duration;
use xs2a_core::domain::refusal::{CoreResult, Refusal};

/// A query's parameters, checked against the names an operation takes.
#[derive(Debug)]
pub struct Query(Vec<(String, String)>);

impl Query {
    /// The query `raw`: 400 FORMAT_ERROR when it does not parse, or at a parameter the operation does
    /// not take (`allowed`) or given more than once.
    pub fn parse(raw: Option<&str>, allowed: &[&str]) -> CoreResult<Query> {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(raw.unwrap_or("")).map_err(|e| {
                Refusal::format("(query)", format!("the query string is not valid: {e}"))
            })?;
        for (i, (name, _)) in pairs.iter().enumerate() {
            if !allowed.contains(&name.as_str()) {
                return Err(Refusal::format(
                    name,
                    format!(
                        "unknown query parameter; this operation takes {}",
                        allowed.join(", ")
                    ),
                ));
            }
            if pairs[..i].iter().any(|(n, _)| n == name) {
                return Err(Refusal::format(name, "given more than once"));
            }
        }
        Ok(Query(pairs))
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position `name` gives: after when absent; 400 FORMAT_ERROR for anything but before or after.
    pub fn position(&self, name: &str) -> CoreResult<Position> {
        match self.value(name) {
            None | Some("after") => Ok(Position::After),
            Some("before") => Ok(Position::Before),
            Some(other) => Err(Refusal::format(
                name,
                format!("'{other}' is not a position: before or after"),
            )),
        }
    }

    /// The timeline entry `name` gives: 400 QUERY_PARAMETER_REQUIRED when absent, 400 FORMAT_ERROR when
    /// not a whole number.
    pub fn entry(&self, name: &str) -> CoreResult<u64> {
        let text = self
            .value(name)
            .ok_or_else(|| Refusal::query_parameter_required(name))?;
        text.parse().map_err(|_| {
            Refusal::format(
                name,
                format!("'{text}' is not a timeline entry id (a whole number)"),
            )
        })
    }
}

/// A restart's pause between re-run steps: 800 ms by default, at most 10 s (400 FORMAT_ERROR at
/// `paceMs` beyond), so that a room can follow without the restart running for ever.
pub fn restart_pace(pace_ms: Option<u64>) -> CoreResult<Duration> {
    let pace = pace_ms.unwrap_or(800);
    if pace > 10_000 {
        return Err(Refusal::format("paceMs", "paceMs is 0 to 10000"));
    }
    Ok(Duration::from_millis(pace))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_core::domain::refusal::Code;

    fn refused<T: std::fmt::Debug>(result: CoreResult<T>) -> (u16, Code, Option<String>) {
        let refusal = result.unwrap_err();
        (refusal.status(), refusal.code, refusal.path)
    }

    #[test]
    fn reads_an_entry_and_its_position() {
        let query = Query::parse(Some("to=12&position=before"), &["to", "position"]).unwrap();
        assert_eq!(query.entry("to").unwrap(), 12);
        assert_eq!(query.position("position").unwrap(), Position::Before);
        let bare = Query::parse(None, &["to", "position"]).unwrap();
        assert_eq!(bare.position("position").unwrap(), Position::After);
    }

    #[test]
    fn refuses_unknown_and_repeated_parameters() {
        let format = (400, Code::FormatError);
        let unknown = refused(Query::parse(Some("to=1&at=2"), &["to"]));
        assert_eq!((unknown.0, unknown.1), format);
        assert_eq!(unknown.2.as_deref(), Some("at"));
        let twice = refused(Query::parse(Some("to=1&to=2"), &["to"]));
        assert_eq!(
            (twice.0, twice.1, twice.2.as_deref()),
            (400, Code::FormatError, Some("to"))
        );
    }

    #[test]
    fn refuses_a_missing_or_malformed_entry_and_a_bad_position() {
        let query =
            Query::parse(Some("to=x&position=middle"), &["to", "position", "from"]).unwrap();
        assert_eq!(
            refused(query.entry("from")),
            (400, Code::QueryParameterRequired, Some("from".to_owned()))
        );
        assert_eq!(
            refused(query.entry("to")),
            (400, Code::FormatError, Some("to".to_owned()))
        );
        assert_eq!(
            refused(query.position("position")),
            (400, Code::FormatError, Some("position".to_owned()))
        );
    }

    #[test]
    fn bounds_a_restart_pace() {
        assert_eq!(restart_pace(None).unwrap(), Duration::from_millis(800));
        assert_eq!(restart_pace(Some(10_000)).unwrap(), Duration::from_secs(10));
        assert_eq!(
            refused(restart_pace(Some(10_001))),
            (400, Code::FormatError, Some("paceMs".to_owned()))
        );
    }
}
