//! The stored mock data: what a customer, account, card account, transaction and agreement is.
//!
//! These records are the contract with the areas that read them later (account information, payments,
//! SCA). Fields are camelCase JSON in sled; amounts are decimal strings with exactly the currency's minor
//! units, dates are `YYYY-MM-DD`. Keys are chosen so that prefix scans list in the order the API needs.

use crate::domain::{Amount, Currency};
use crate::store::Record;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::Date;

time::serde::format_description!(iso_date, Date, "[year]-[month]-[day]");

/// `Option<Date>` as `YYYY-MM-DD` or absent.
mod iso_date_opt {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use time::Date;

    #[derive(Serialize, Deserialize)]
    struct Wrapped(#[serde(with = "super::iso_date")] Date);

    pub fn serialize<S: Serializer>(date: &Option<Date>, s: S) -> Result<S::Ok, S::Error> {
        date.map(Wrapped).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Date>, D::Error> {
        Ok(Option::<Wrapped>::deserialize(d)?.map(|w| w.0))
    }
}

/// Writes a date as the API does: `YYYY-MM-DD`.
pub fn format_date(date: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    )
}

/// Whether a customer is a person or an organisation; decides the form of the customer number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CustomerType {
    /// A person; the customer number is an 11-digit national identity number.
    Private,
    /// An organisation; the customer number is a 9-digit organisation number.
    Corporate,
}

/// A bank customer of the sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Customer {
    pub id: String,
    /// National identity number (private) or organisation number (corporate); unique.
    pub customer_number: String,
    pub name: String,
    #[serde(rename = "type")]
    pub customer_type: CustomerType,
}

/// Keyed by customer number: it is what every sandbox request names, and the key makes it unique.
impl Record for Customer {
    const TREE: &'static str = "sandbox-customers";
    fn key(&self) -> String {
        self.customer_number.clone()
    }
}

/// An amount with its currency, as stored: the decimal carries exactly the currency's minor units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Money {
    /// Serialised as a string (`"-125.50"`), like every amount of the regular API.
    pub amount: Decimal,
    pub currency: Currency,
}

impl Money {
    /// The amount rescaled to the currency's minor units, so `"10"` NOK is stored as `10.00`.
    pub fn from_amount(amount: &Amount) -> Money {
        let mut value = amount.value();
        value.rescale(amount.currency().minor_units());
        Money {
            amount: value,
            currency: amount.currency(),
        }
    }

    /// The amount as a count of minor units (øre for NOK), the form the bank's int32 fields carry
    /// (docs/reference/mock-data.md#choices-where-the-banks-documentation-is-open).
    pub fn minor_units(&self) -> i64 {
        let mut value = self.amount;
        value.rescale(self.currency.minor_units());
        i64::try_from(value.mantissa()).unwrap_or(if value.is_sign_negative() {
            i64::MIN
        } else {
            i64::MAX
        })
    }

    pub fn is_negative(&self) -> bool {
        self.amount.is_sign_negative() && !self.amount.is_zero()
    }
}

/// The Berlin Group 1.3 balance types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum BalanceType {
    ClosingBooked,
    Expected,
    OpeningBooked,
    InterimAvailable,
    InterimBooked,
    ForwardAvailable,
    NonInvoiced,
}

impl BalanceType {
    pub const ALL: [BalanceType; 7] = [
        BalanceType::ClosingBooked,
        BalanceType::Expected,
        BalanceType::OpeningBooked,
        BalanceType::InterimAvailable,
        BalanceType::InterimBooked,
        BalanceType::ForwardAvailable,
        BalanceType::NonInvoiced,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BalanceType::ClosingBooked => "closingBooked",
            BalanceType::Expected => "expected",
            BalanceType::OpeningBooked => "openingBooked",
            BalanceType::InterimAvailable => "interimAvailable",
            BalanceType::InterimBooked => "interimBooked",
            BalanceType::ForwardAvailable => "forwardAvailable",
            BalanceType::NonInvoiced => "nonInvoiced",
        }
    }

    pub fn parse(text: &str) -> Option<BalanceType> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }
}

/// One balance of an account or card account (Berlin Group 1.3 `balance`). Its currency always equals
/// the account's (docs/interface.md#mock-data-v1sandbox: balance-type currencies always equal the account currency).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    pub balance_type: BalanceType,
    pub balance_amount: Money,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_limit_included: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "iso_date_opt"
    )]
    pub reference_date: Option<Date>,
}

/// Berlin Group 1.3 `accountStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AccountStatus {
    Enabled,
    Deleted,
    Blocked,
}

impl AccountStatus {
    pub fn parse(text: &str) -> Option<AccountStatus> {
        match text {
            "enabled" => Some(AccountStatus::Enabled),
            "deleted" => Some(AccountStatus::Deleted),
            "blocked" => Some(AccountStatus::Blocked),
            _ => None,
        }
    }
}

/// A mock (ordinary) account. `id` is the `mockAccountId` of the sandbox paths and the `resourceId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    pub id: String,
    /// The owner's [`Customer::id`].
    pub customer_id: String,
    /// The owner's customer number, kept so readers need no second lookup.
    pub customer_number: String,
    /// 11 digits without separators; unique.
    pub bban: String,
    /// The Norwegian IBAN of `bban`.
    pub iban: String,
    pub currency: Currency,
    /// Up to 70 characters (x-accept-fix `longer-names`, now the default).
    pub name: String,
    pub product: String,
    /// ISO 20022 ExternalCashAccountType1Code (`cash-account-type-iso`, now the default), e.g. CACC, SVGS.
    pub cash_account_type: String,
    pub status: AccountStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_line: Option<Money>,
    /// As given when created; transactions posted later do not move them.
    pub balances: Vec<Balance>,
    /// The bank may remove payment permission (docs/reference/payments.md#endpoints-and-products) on an account that
    /// stays visible to account information. False once the sandbox's payment-permission switch turned it off.
    #[serde(default = "payments_allowed_by_default")]
    pub payments_allowed: bool,
}

fn payments_allowed_by_default() -> bool {
    true
}

impl Record for Account {
    const TREE: &'static str = "sandbox-accounts";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// A mock card account. `id` is the `mockCardAccountId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardAccount {
    pub id: String,
    pub customer_id: String,
    pub customer_number: String,
    /// As given, e.g. `5555 55** **** 1234`; unique once spaces are removed.
    pub masked_pan: String,
    pub currency: Currency,
    pub name: String,
    pub product: String,
    pub status: AccountStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_limit: Option<Money>,
    /// The BBAN of the owner's account this card settles against. Payments from a card account name it in
    /// `debtorAccount.other.identification` (docs/reference/payments.md#validation-duplicates-fees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related_account: Option<String>,
    pub balances: Vec<Balance>,
}

impl Record for CardAccount {
    const TREE: &'static str = "sandbox-card-accounts";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// An account reference of a transaction party: both forms are always filled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountRef {
    pub iban: String,
    pub bban: String,
}

/// Where a transaction came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TransactionSource {
    /// Initialisation's seed.
    Seed,
    /// POST /v1/sandbox/accounts/{mockAccountId}/transactions.
    Sandbox,
    /// A payment executed by the sandbox's batch runs.
    Payment,
}

/// A booked transaction of a mock account. Every field the sandbox listing returns is filled. Its key and
/// stored form (`Record`) are in `super::transaction_codec`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transaction {
    /// Stable: booked transaction ids are (docs/reference/ais-sca.md#endpoints).
    pub id: String,
    pub account_id: String,
    /// 1, 2, 3 ... per account in the order transactions were recorded; breaks booking-date ties.
    pub sequence: u64,
    /// Signed: negative is a debit of this account.
    pub amount: Money,
    #[serde(with = "iso_date")]
    pub booking_date: Date,
    #[serde(with = "iso_date")]
    pub value_date: Date,
    pub remittance_information_unstructured: String,
    pub creditor_name: String,
    pub creditor_account: AccountRef,
    pub debtor_name: String,
    pub debtor_account: AccountRef,
    /// ISO 20022 Domain-Family-SubFamily, 4 to 14 characters.
    pub bank_transaction_code: String,
    pub ultimate_debtor: String,
    pub ultimate_creditor: String,
    pub purpose_code: String,
    pub source: TransactionSource,
}

impl Transaction {
    /// `<accountId>/<bookingDate>/<sequence>`: a prefix scan on `<accountId>/` lists by booking date, then
    /// by the order of recording.
    pub fn key_for(account_id: &str, booking_date: Date, sequence: u64) -> String {
        format!("{account_id}/{}/{sequence:012}", format_date(booking_date))
    }
}

/// A transaction of a mock account that is not booked yet: the same fields, its `booking_date` the date
/// it is expected to book. Kept in a tree of its own, so that everything reading booked transactions
/// (balances, batch runs) never sees it, and numbered on its own (`sequence`, `id`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingTransaction(pub Transaction);

impl Record for PendingTransaction {
    const TREE: &'static str = "sandbox-pending-transactions";
    fn key(&self) -> String {
        self.0.key()
    }
}

/// Booked or not yet booked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CardTransactionStatus {
    Booked,
    Pending,
}

/// A transaction of a mock card account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardTransaction {
    /// The `cardTransactionId`: given by the client or derived; unique per card account.
    pub id: String,
    pub card_account_id: String,
    pub sequence: u64,
    pub status: CardTransactionStatus,
    /// Always present for booked transactions; pending ones may have none yet.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "iso_date_opt"
    )]
    pub booking_date: Option<Date>,
    #[serde(with = "iso_date")]
    pub transaction_date: Date,
    /// In the card account's currency (x-accept-fix `cardaccount-switch-originalamount-and-transactionamount`,
    /// now the default).
    pub transaction_amount: Money,
    /// In the currency the card was used in; equals `transaction_amount` for domestic use.
    pub original_amount: Money,
    /// ISO 18245, four digits.
    pub merchant_category_code: String,
}

impl CardTransaction {
    /// The date listings filter and sort by: the booking date, or the transaction date while pending.
    pub fn listing_date(&self) -> Date {
        self.booking_date.unwrap_or(self.transaction_date)
    }

    pub fn key_for(card_account_id: &str, date: Date, sequence: u64) -> String {
        format!("{card_account_id}/{}/{sequence:012}", format_date(date))
    }
}

impl Record for CardTransaction {
    const TREE: &'static str = "sandbox-card-transactions";
    fn key(&self) -> String {
        Self::key_for(&self.card_account_id, self.listing_date(), self.sequence)
    }
}

/// What a person may do with an account under a corporate agreement.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Role {
    /// See the account, its balances and transactions.
    View,
    /// Register (create) payments from the account.
    Register,
    /// Approve (sign) payments from the account.
    Approve,
}

impl Role {
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "VIEW" => Some(Role::View),
            "REGISTER" => Some(Role::Register),
            "APPROVE" => Some(Role::Approve),
            _ => None,
        }
    }
}

/// One person's roles on one account of the agreement's owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Engagement {
    pub customer_id: String,
    /// The person's national identity number.
    pub customer_number: String,
    pub account_id: String,
    pub iban: String,
    pub bban: String,
    pub roles: Vec<Role>,
}

/// A corporate agreement: the context a person acts in for a corporation. Its `id` is what the
/// PSU-Corporate-ID header carries (a UUID, docs/reference/errors.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Agreement {
    pub id: String,
    pub owner_customer_id: String,
    /// The corporation's organisation number.
    pub owner: String,
    /// Unique per owner.
    pub name: String,
    pub engagements: Vec<Engagement>,
}

impl Record for Agreement {
    const TREE: &'static str = "sandbox-agreements";
    fn key(&self) -> String {
        self.id.clone()
    }
}
