//! Early activation of published breaking changes with `x-accept-fix`
//! (docs/reference/ais-sca.md#the-rules-each-with-a-test).
//!
//! The header holds comma-separated fix names (trimmed, case-insensitive; several headers are read as one
//! list). Each known fix is active when the request names it, or when the sandbox clock is on or after
//! the day it was made the default (00:00 UTC of the date the bank made it the default,
//! docs/rehearsal.md#the-day-a-breaking-change-lands). So with the
//! clock at today's date every fix is active whatever the header says, and a trainer who moves the clock
//! back before a date sees the old behaviour unless the request names the fix:
//!
//! | fix | made default | behaviour while NOT active |
//! |---|---|---|
//! | amount-as-string | 2020-08-01 | amounts are JSON numbers (`-125.5`) instead of strings (`"-125.50"`) |
//! | cardaccount-switch-originalamount-and-transactionamount | 2024-11-13 | card transactions carry `transactionAmount` and `originalAmount` swapped (the old, wrong mapping) |
//! | longer-names | 2024-10-01 | account and card account `name` cut to 35 characters |
//! | cash-account-type-iso | 2024-11-13 | `cashAccountType` is the legacy proprietary value (see [`legacy_cash_account_type`]) |
//!
//! An unknown name is accepted and answered with a WARNING naming it, like other harmless deviations.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use std::convert::Infallible;
use time::OffsetDateTime;
use xs2a_core::domain::refusal::Code;
use xs2a_core::domain::refusal::TppMessage;
use xs2a_workbench::app_state::AppState;

use xs2a_core::domain::fix::Fix;

/// The fixes in force for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcceptedFixes(u8);

impl AcceptedFixes {
    /// Every fix active: today's behaviour.
    pub fn all() -> Self {
        AcceptedFixes(Fix::ALL.iter().fold(0, |bits, f| bits | f.bit()))
    }

    /// No fix active: the behaviour before any was published.
    pub fn none() -> Self {
        AcceptedFixes(0)
    }

    /// Reads `x-accept-fix` and the clock; unknown names come back as warnings.
    pub fn from_request(headers: &HeaderMap, now: OffsetDateTime) -> (Self, Vec<TppMessage>) {
        Self::from_request_with(headers, now, Fix::made_default)
    }

    /// As [`Self::from_request`], with the day each fix became the default given by `made_default`
    /// (a fault plan moves it: the day a breaking change lands, docs/rehearsal.md).
    pub fn from_request_with(
        headers: &HeaderMap,
        now: OffsetDateTime,
        made_default: impl Fn(Fix) -> OffsetDateTime,
    ) -> (Self, Vec<TppMessage>) {
        let mut bits = Fix::ALL
            .iter()
            .filter(|f| now >= made_default(**f))
            .fold(0, |bits, f| bits | f.bit());
        let mut unknown = Vec::new();
        let names = headers
            .get_all("x-accept-fix")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|n| !n.is_empty());
        for name in names {
            match Fix::parse(name) {
                Some(fix) => bits |= fix.bit(),
                None => unknown.push(name.to_owned()),
            }
        }
        let warnings = if unknown.is_empty() {
            Vec::new()
        } else {
            let known: Vec<&str> = Fix::ALL.iter().map(|f| f.name()).collect();
            vec![TppMessage::warning(
                Code::FormatError,
                Some("x-accept-fix"),
                format!(
                    "x-accept-fix names unknown fixes, ignored: {}. Known fixes: {}.",
                    unknown.join(", "),
                    known.join(", ")
                ),
            )]
        };
        (AcceptedFixes(bits), warnings)
    }

    pub fn is_active(self, fix: Fix) -> bool {
        self.0 & fix.bit() != 0
    }

    /// The account or card account name as this request may see it (`longer-names`).
    pub fn name(self, name: &str) -> String {
        if self.is_active(Fix::LongerNames) {
            name.to_owned()
        } else {
            name.chars().take(LEGACY_NAME_CHARS).collect()
        }
    }

    /// The cashAccountType as this request may see it (`cash-account-type-iso`).
    pub fn cash_account_type(self, iso: &str) -> String {
        if self.is_active(Fix::CashAccountTypeIso) {
            iso.to_owned()
        } else {
            legacy_cash_account_type(iso).to_owned()
        }
    }
}

/// Names were cut to this length before `longer-names` (Berlin Group's Max35Text).
pub const LEGACY_NAME_CHARS: usize = 35;

/// The proprietary cashAccountType values answered before `cash-account-type-iso`: the bank's own
/// product classes, written in capitals. Sandbox choice: the bank names no legacy values.
pub fn legacy_cash_account_type(iso: &str) -> &'static str {
    match iso {
        "CACC" | "TRAN" | "SLRY" => "CURRENT",
        "SVGS" | "SACC" | "LLSV" | "MOMA" => "SAVINGS",
        "LOAN" | "MGLD" => "LOAN",
        "CARD" => "CREDIT_CARD",
        "TAXE" => "TAX_DEDUCTION",
        "ODFT" => "OVERDRAFT",
        _ => "OTHER",
    }
}

/// The fixes of a request and the warnings about names it did not know.
#[derive(Debug, Clone)]
pub struct RequestFixes {
    pub fixes: AcceptedFixes,
    pub warnings: Vec<TppMessage>,
}

impl FromRequestParts<AppState> for RequestFixes {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let (fixes, warnings) =
            AcceptedFixes::from_request_with(&parts.headers, state.clock.now(), |fix| {
                state
                    .rehearsal
                    .fix_made_default(fix.name(), fix.made_default())
            });
        Ok(RequestFixes { fixes, warnings })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;
    use time::macros::datetime;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-accept-fix", HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn today_every_fix_is_active_without_the_header() {
        let (fixes, warnings) =
            AcceptedFixes::from_request(&HeaderMap::new(), datetime!(2026-06-01 0:00 UTC));
        assert_eq!(fixes, AcceptedFixes::all());
        assert!(warnings.is_empty());
    }

    #[test]
    fn a_fix_becomes_default_at_the_start_of_its_day() {
        let before = datetime!(2024-11-12 23:59:59 UTC);
        let on = datetime!(2024-11-13 0:00 UTC);
        let active = |at| {
            AcceptedFixes::from_request(&HeaderMap::new(), at)
                .0
                .is_active(Fix::CardAccountSwitchAmounts)
        };
        assert!(!active(before));
        assert!(active(on));
    }

    #[test]
    fn names_are_trimmed_case_insensitive_and_read_across_headers() {
        let at = datetime!(2019-01-01 0:00 UTC);
        let (fixes, warnings) = AcceptedFixes::from_request(
            &headers(&[" Amount-As-String , LONGER-NAMES", "cash-account-type-iso"]),
            at,
        );
        assert!(warnings.is_empty());
        assert!(fixes.is_active(Fix::AmountAsString));
        assert!(fixes.is_active(Fix::LongerNames));
        assert!(fixes.is_active(Fix::CashAccountTypeIso));
        assert!(!fixes.is_active(Fix::CardAccountSwitchAmounts));
    }

    #[test]
    fn unknown_names_are_accepted_with_one_warning_naming_them() {
        let (fixes, warnings) = AcceptedFixes::from_request(
            &headers(&["longer-names, no-such-fix,,other"]),
            datetime!(2024-01-01 0:00 UTC),
        );
        assert!(fixes.is_active(Fix::LongerNames));
        assert_eq!(warnings.len(), 1);
        let text = warnings[0].text.as_deref().unwrap();
        assert!(
            text.contains("no-such-fix") && text.contains("other"),
            "{text}"
        );
        assert_eq!(
            warnings[0].category,
            xs2a_core::domain::refusal::Category::Warning
        );
    }

    #[test]
    fn inactive_fixes_give_the_legacy_forms() {
        let old = AcceptedFixes::none();
        let long = "A".repeat(50);
        assert_eq!(old.name(&long).len(), 35);
        assert_eq!(AcceptedFixes::all().name(&long).len(), 50);
        assert_eq!(old.cash_account_type("CACC"), "CURRENT");
        assert_eq!(old.cash_account_type("SVGS"), "SAVINGS");
        assert_eq!(AcceptedFixes::all().cash_account_type("SVGS"), "SVGS");
    }
}
