//! The published fixes of the interface (SPEC.md, Versioning: early activation with `x-accept-fix`):
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

    /// SPEC.md, Versioning: the day the fix became the default for everyone.
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
}
