//! The published fixes of the interface (docs/reference/ais-sca.md#the-rules-each-with-a-test, x-accept-fix: early activation by naming a fix):
//! their names and the day each became the default. `api::ais::fixes` applies them per request.

use time::macros::datetime;
use time::OffsetDateTime;

/// One published fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fix {
    AmountAsString,
    CardAccountSwitchAmounts,
    LongerNames,
    CashAccountTypeIso,
}

impl Fix {
    pub const ALL: [Fix; 4] = [
        Fix::AmountAsString,
        Fix::CardAccountSwitchAmounts,
        Fix::LongerNames,
        Fix::CashAccountTypeIso,
    ];

    /// The name as written in the header.
    pub fn name(self) -> &'static str {
        match self {
            Fix::AmountAsString => "amount-as-string",
            Fix::CardAccountSwitchAmounts => {
                "cardaccount-switch-originalamount-and-transactionamount"
            }
            Fix::LongerNames => "longer-names",
            Fix::CashAccountTypeIso => "cash-account-type-iso",
        }
    }

    /// The day the fix became the default for everyone (docs/reference/ais-sca.md, x-accept-fix).
    pub fn made_default(self) -> OffsetDateTime {
        match self {
            Fix::AmountAsString => datetime!(2020-08-01 0:00 UTC),
            Fix::CardAccountSwitchAmounts => datetime!(2024-11-13 0:00 UTC),
            Fix::LongerNames => datetime!(2024-10-01 0:00 UTC),
            Fix::CashAccountTypeIso => datetime!(2024-11-13 0:00 UTC),
        }
    }

    pub fn parse(name: &str) -> Option<Fix> {
        Fix::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name.trim()))
    }

    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The published names, each with the day it became the default, for a message that says what
    /// `x-accept-fix` may hold: `amount-as-string (the default since 2020-08-01), …`.
    pub fn published() -> String {
        Fix::ALL
            .iter()
            .map(|fix| {
                let day = fix.made_default().date();
                format!("{} (the default since {day})", fix.name())
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_list_names_every_fix_with_its_day() {
        assert_eq!(
            Fix::published(),
            "amount-as-string (the default since 2020-08-01), \
             cardaccount-switch-originalamount-and-transactionamount (the default since 2024-11-13), \
             longer-names (the default since 2024-10-01), cash-account-type-iso (the default since 2024-11-13)"
        );
    }
}
