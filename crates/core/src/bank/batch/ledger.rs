//! The run's in-memory ledger: every sandbox account and card account loaded once, the funds rule, and
//! bookings that move balances and record transactions (`bookings`). A run works on this copy and writes
//! each touched account once at the end, which is what makes a run over 100 000 payments cheap.
//!
//! Funds rule (ACCP is used for a payment whose funds are lacking, docs/reference/payments.md#sca-states-batch-runs):
//! - ordinary account: the `interimAvailable` balance (else `closingBooked`, `expected`, `interimBooked`,
//!   in that order; zero when it has none) plus the credit line, unless that balance says
//!   `creditLimitIncluded: true`;
//! - card account: the credit limit plus the booked balance (`interimBooked`, else `closingBooked`; negative
//!   while the card is in use); a card with no booked balance uses its `interimAvailable` as it is (card
//!   available balances already include the limit).
//!
//! Booking moves every balance entry of the debtor down and every balance entry of a sandbox creditor up by
//! the same amount, and records a transaction on each side. No fees are booked: the sandbox charges none,
//! so a debit and its credit are always equal and money is conserved among sandbox accounts (per balance
//! type both accounts carry; the seeded accounts all carry closingBooked, interimBooked and interimAvailable).

use super::bookings::Bookings;
use crate::bank::mock::model::{
    Account, AccountRef, AccountStatus, Balance, BalanceType, CardAccount, Customer,
};
use crate::bank::mock::transaction_codec::TransactionFields;
use crate::bank::pis::model::{
    CreditorAccount, DebtorAccount, Payment, PaymentOrder, PaymentProduct, Remittance,
};
use crate::domain::{Bban, Currency, Iban};
use crate::store::Store;
use rust_decimal::Decimal;
use std::collections::{HashMap, HashSet};
use time::Date;

/// The account a payment debits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Debtor {
    Account(String),
    Card(String),
}

/// Everything a run reads and changes besides the payments.
pub struct Ledger {
    accounts: HashMap<String, Account>,
    by_bban: HashMap<String, String>,
    cards: HashMap<String, CardAccount>,
    names: HashMap<String, String>,
    touched_accounts: HashSet<String>,
    touched_cards: HashSet<String>,
    /// The transactions booked so far in this run.
    bookings: Bookings,
}

/// What a run's ledger writes: the touched accounts and card accounts, and the bookings.
pub struct LedgerWrites {
    pub accounts: Vec<Account>,
    pub cards: Vec<CardAccount>,
    pub bookings: Bookings,
}

/// The order in which a funds balance is chosen for an ordinary account.
const FUNDS_BALANCES: [BalanceType; 4] = [
    BalanceType::InterimAvailable,
    BalanceType::ClosingBooked,
    BalanceType::Expected,
    BalanceType::InterimBooked,
];

fn balance<'a>(balances: &'a [Balance], types: &[BalanceType]) -> Option<&'a Balance> {
    types
        .iter()
        .find_map(|t| balances.iter().find(|b| b.balance_type == *t))
}

fn shift(balances: &mut [Balance], by: Decimal) {
    // `minor_units` looks the code up in the currency list: once per currency, not per balance (a run
    // shifts hundreds of thousands of balances).
    let mut units: Option<(Currency, u32)> = None;
    for b in balances {
        let currency = b.balance_amount.currency;
        let scale = match units {
            Some((known, scale)) if known == currency => scale,
            _ => {
                let scale = currency.minor_units();
                units = Some((currency, scale));
                scale
            }
        };
        b.balance_amount.amount += by;
        b.balance_amount.amount.rescale(scale);
    }
}

/// Both forms of a Norwegian account number; the IBAN stays empty for a BBAN that does not check.
fn reference_for_bban(bban: &str) -> AccountRef {
    AccountRef {
        iban: Bban::parse(bban)
            .map(|b| Iban::from_norwegian_bban(&b).as_str().to_owned())
            .unwrap_or_default(),
        bban: bban.to_owned(),
    }
}

/// The BBAN a creditor account names: its `bban`, or the BBAN inside a Norwegian IBAN.
pub fn creditor_bban(account: &CreditorAccount) -> Option<String> {
    if let Some(bban) = &account.bban {
        return Some(bban.chars().filter(|c| c.is_ascii_digit()).collect());
    }
    let iban = Iban::parse(account.iban.as_deref()?).ok()?;
    (iban.country() == "NO").then(|| iban.bban_part().to_owned())
}

impl Ledger {
    /// Loads every account, card account and customer name once.
    pub fn load(store: &Store) -> Result<Ledger, crate::domain::refusal::Refusal> {
        let accounts: HashMap<String, Account> = store
            .table::<Account>()?
            .list()?
            .into_iter()
            .map(|a| (a.id.clone(), a))
            .collect();
        let by_bban = accounts
            .values()
            .map(|a| (a.bban.clone(), a.id.clone()))
            .collect();
        let cards = store
            .table::<CardAccount>()?
            .list()?
            .into_iter()
            .map(|c| (c.id.clone(), c))
            .collect();
        let names = store
            .table::<Customer>()?
            .list()?
            .into_iter()
            .map(|c| (c.id, c.name))
            .collect();
        let cards: HashMap<String, CardAccount> = cards;
        let bookings = Bookings::load(store, accounts.keys().chain(cards.keys()))?;
        Ok(Ledger {
            accounts,
            by_bban,
            cards,
            names,
            touched_accounts: HashSet::new(),
            touched_cards: HashSet::new(),
            bookings,
        })
    }

    /// The debtor of a payment: the stored `debtor_account_id` when it still exists, else (card payments)
    /// the card account whose `relatedAccount` the payment names, else (ordinary) the account by BBAN.
    pub fn debtor(&self, payment: &Payment) -> Option<Debtor> {
        let id = &payment.debtor_account_id;
        if self.accounts.contains_key(id) {
            return Some(Debtor::Account(id.clone()));
        }
        if self.cards.contains_key(id) {
            return Some(Debtor::Card(id.clone()));
        }
        match &payment.payment.orders.first()?.debtor_account {
            DebtorAccount::Card { identification, .. } => self
                .cards
                .values()
                .filter(|c| c.related_account.as_deref() == Some(identification.as_str()))
                .min_by(|a, b| a.id.cmp(&b.id))
                .map(|c| Debtor::Card(c.id.clone())),
            DebtorAccount::Bban { bban, .. } => {
                self.by_bban.get(bban).map(|id| Debtor::Account(id.clone()))
            }
        }
    }

    /// The debtor account's currency.
    pub fn currency(&self, debtor: &Debtor) -> Currency {
        match debtor {
            Debtor::Account(id) => self.accounts[id].currency,
            Debtor::Card(id) => self.cards[id].currency,
        }
    }

    /// Why the bank would refuse any payment from this account now, if it would.
    pub fn refusal(&self, debtor: &Debtor) -> Option<String> {
        let status_refusal = |status: AccountStatus| match status {
            AccountStatus::Enabled => None,
            AccountStatus::Blocked => Some("the debtor account is blocked".to_owned()),
            AccountStatus::Deleted => Some("the debtor account is deleted".to_owned()),
        };
        const NO_PERMISSION: &str = "the bank removed payment permission on the account";
        match debtor {
            Debtor::Account(id) => {
                let account = &self.accounts[id];
                if !account.payments_allowed {
                    return Some(NO_PERMISSION.to_owned());
                }
                status_refusal(account.status)
            }
            Debtor::Card(id) => {
                let card = &self.cards[id];
                let settles_against = card
                    .related_account
                    .as_ref()
                    .and_then(|bban| self.by_bban.get(bban))
                    .map(|id| &self.accounts[id]);
                if settles_against.is_some_and(|a| !a.payments_allowed) {
                    return Some(NO_PERMISSION.to_owned());
                }
                status_refusal(card.status)
            }
        }
    }

    /// The funds the debtor may spend now (see the module documentation).
    pub fn funds(&self, debtor: &Debtor) -> Decimal {
        match debtor {
            Debtor::Account(id) => {
                let account = &self.accounts[id];
                let chosen = balance(&account.balances, &FUNDS_BALANCES);
                let base = chosen.map_or(Decimal::ZERO, |b| b.balance_amount.amount);
                let included = chosen.is_some_and(|b| b.credit_limit_included == Some(true));
                let credit = match (&account.credit_line, included) {
                    (Some(line), false) => line.amount,
                    _ => Decimal::ZERO,
                };
                base + credit
            }
            Debtor::Card(id) => {
                let card = &self.cards[id];
                let limit = card
                    .credit_limit
                    .as_ref()
                    .map_or(Decimal::ZERO, |l| l.amount);
                match balance(
                    &card.balances,
                    &[BalanceType::InterimBooked, BalanceType::ClosingBooked],
                ) {
                    Some(booked) => limit + booked.balance_amount.amount,
                    None => balance(&card.balances, &[BalanceType::InterimAvailable])
                        .map_or(limit, |b| b.balance_amount.amount),
                }
            }
        }
    }

    /// The sandbox account a creditor account names, when it is one in the order's currency.
    fn creditor(&self, order: &PaymentOrder) -> Option<&Account> {
        let bban = creditor_bban(&order.creditor_account)?;
        let account = &self.accounts[self.by_bban.get(&bban)?];
        (account.currency == order.instructed_amount.currency).then_some(account)
    }

    /// The debtor's side of a booking: its id, (IBAN, BBAN) and owner's name, borrowed; a card account
    /// books under its own id with the account it settles against.
    fn debtor_side<'a>(
        accounts: &'a HashMap<String, Account>,
        cards: &'a HashMap<String, CardAccount>,
        names: &'a HashMap<String, String>,
        debtor: &Debtor,
        card_settles_against: &'a AccountRef,
    ) -> (&'a str, (&'a str, &'a str), &'a str) {
        match debtor {
            Debtor::Account(id) => {
                let a = &accounts[id];
                let owner = names.get(&a.customer_id).unwrap_or(&a.name);
                (&a.id, (&a.iban, &a.bban), owner)
            }
            Debtor::Card(id) => {
                let c = &cards[id];
                let owner = names.get(&c.customer_id).unwrap_or(&c.name);
                let reference = (
                    card_settles_against.iban.as_str(),
                    card_settles_against.bban.as_str(),
                );
                (&c.id, reference, owner)
            }
        }
    }

    /// The account a card debtor settles against, in both forms (empty for an ordinary account).
    fn settles_against(&self, debtor: &Debtor) -> AccountRef {
        let related = match debtor {
            Debtor::Card(id) => self.cards[id].related_account.as_deref(),
            Debtor::Account(_) => None,
        };
        related.map(reference_for_bban).unwrap_or(AccountRef {
            iban: String::new(),
            bban: String::new(),
        })
    }

    fn shift_debtor(&mut self, debtor: &Debtor, by: Decimal) {
        match debtor {
            Debtor::Account(id) => {
                shift(
                    &mut self.accounts.get_mut(id).expect("resolved").balances,
                    by,
                );
                self.touched_accounts.insert(id.clone());
            }
            Debtor::Card(id) => {
                shift(&mut self.cards.get_mut(id).expect("resolved").balances, by);
                self.touched_cards.insert(id.clone());
            }
        }
    }

    /// Books one order: the debtor's balances down, a sandbox creditor's up, a credit transaction on the
    /// creditor and (unless `debit` is false: bulk batch booking debits once for all) a debit transaction
    /// on the debtor. Returns the id of the debit, if one was made.
    pub fn book(
        &mut self,
        payment: &Payment,
        order: &PaymentOrder,
        debtor: &Debtor,
        on: Date,
        debit: bool,
    ) -> Option<String> {
        let amount = order.instructed_amount.amount;
        let currency = order.instructed_amount.currency;
        let scale = currency.minor_units();
        self.shift_debtor(debtor, -amount);
        let creditor_id = self.creditor(order).map(|a| a.id.clone());
        if let Some(id) = &creditor_id {
            shift(
                &mut self.accounts.get_mut(id).expect("found").balances,
                amount,
            );
            self.touched_accounts.insert(id.clone());
        }
        let external = match creditor_id {
            Some(_) => None,
            None => Some(external_reference(&order.creditor_account)),
        };
        let settles_against = self.settles_against(debtor);
        let remittance = remittance_text(order)
            .unwrap_or_else(|| format!("Betaling til {}", order.creditor_name));
        let code = transaction_code(payment.payment.product);
        let Ledger {
            accounts,
            cards,
            names,
            bookings,
            ..
        } = self;
        let (debtor_id, debtor_account, debtor_name) =
            Self::debtor_side(accounts, cards, names, debtor, &settles_against);
        let creditor_account = match (&creditor_id, &external) {
            (Some(id), _) => (accounts[id].iban.as_str(), accounts[id].bban.as_str()),
            (None, Some(r)) => (r.iban.as_str(), r.bban.as_str()),
            (None, None) => unreachable!("one or the other"),
        };
        let mut booking = TransactionFields {
            amount: minor(amount, scale),
            currency,
            booking_date: on,
            value_date: on,
            remittance_information_unstructured: &remittance,
            creditor_name: &order.creditor_name,
            creditor_account,
            debtor_name,
            debtor_account,
            bank_transaction_code: code.credit,
            ultimate_debtor: order.ultimate_debtor.as_deref().unwrap_or(debtor_name),
            ultimate_creditor: &order.creditor_name,
            purpose_code: order.purpose_code.as_deref().unwrap_or("OTHR"),
        };
        if let Some(id) = &creditor_id {
            bookings.record(id, &booking);
        }
        debit.then(|| {
            booking.amount = minor(-amount, scale);
            booking.bank_transaction_code = code.debit;
            bookings.record(debtor_id, &booking).to_string()
        })
    }

    /// One debit of `total` for a bulk payment booked as a batch (`batchBookingPreferred`); the balances
    /// were already moved order by order. Returns its id.
    pub fn book_bulk_debit(
        &mut self,
        payment: &Payment,
        debtor: &Debtor,
        total: Decimal,
        currency: Currency,
        orders: usize,
        on: Date,
    ) -> String {
        let settles_against = self.settles_against(debtor);
        let code = transaction_code(payment.payment.product);
        let remittance = format!("Massebetaling {} ({orders} betalinger)", payment.id);
        let clearing = crate::bank::mock::transactions::clearing_account();
        let Ledger {
            accounts,
            cards,
            names,
            bookings,
            ..
        } = self;
        let (debtor_id, debtor_account, debtor_name) =
            Self::debtor_side(accounts, cards, names, debtor, &settles_against);
        bookings
            .record(
                debtor_id,
                &TransactionFields {
                    amount: minor(-total, currency.minor_units()),
                    currency,
                    booking_date: on,
                    value_date: on,
                    remittance_information_unstructured: &remittance,
                    creditor_name: "Flere mottakere",
                    creditor_account: (&clearing.iban, &clearing.bban),
                    debtor_name,
                    debtor_account,
                    bank_transaction_code: code.debit,
                    ultimate_debtor: debtor_name,
                    ultimate_creditor: "Flere mottakere",
                    purpose_code: "OTHR",
                },
            )
            .to_string()
    }

    /// What the run writes: the accounts and card accounts whose balances it changed (the only ones
    /// written back), and the bookings.
    pub fn into_writes(mut self) -> LedgerWrites {
        let accounts = self
            .touched_accounts
            .iter()
            .filter_map(|id| self.accounts.remove(id))
            .collect();
        let cards = self
            .touched_cards
            .iter()
            .filter_map(|id| self.cards.remove(id))
            .collect();
        LedgerWrites {
            accounts,
            cards,
            bookings: self.bookings,
        }
    }
}
/// The ISO 20022 bank transaction codes of a product's credit transfers, on the debtor's side (issued,
/// ICDT) and the creditor's (received, RCDT).
struct TransactionCode {
    debit: &'static str,
    credit: &'static str,
}

fn transaction_code(product: PaymentProduct) -> TransactionCode {
    let (debit, credit) = match product {
        PaymentProduct::NorwegianDomesticCreditTransfers
        | PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks => {
            ("PMNT-ICDT-DMCT", "PMNT-RCDT-DMCT")
        }
        PaymentProduct::SepaCreditTransfers => ("PMNT-ICDT-ESCT", "PMNT-RCDT-ESCT"),
        PaymentProduct::CrossBorderCreditTransfers => ("PMNT-ICDT-XBCT", "PMNT-RCDT-XBCT"),
    };
    TransactionCode { debit, credit }
}

/// An amount with exactly the currency's minor units (`scale`), as transactions store it.
fn minor(amount: Decimal, scale: u32) -> Decimal {
    let mut amount = amount;
    amount.rescale(scale);
    amount
}

/// A creditor outside the sandbox, in both forms where they can be derived.
fn external_reference(account: &CreditorAccount) -> AccountRef {
    match (&account.iban, creditor_bban(account)) {
        (Some(iban), bban) => AccountRef {
            iban: iban.clone(),
            bban: bban.unwrap_or_default(),
        },
        (None, Some(bban)) => reference_for_bban(&bban),
        (None, None) => AccountRef {
            iban: String::new(),
            bban: String::new(),
        },
    }
}

/// The text the transaction lists as remittance: free text, or the structured references (KID) joined.
fn remittance_text(order: &PaymentOrder) -> Option<String> {
    let text = match order.remittance.as_ref()? {
        Remittance::Unstructured { text } => text.clone(),
        Remittance::Structured { references, .. } => references
            .iter()
            .map(|r| match &r.reference_type {
                Some(t) => format!("{t} {}", r.reference),
                None => r.reference.clone(),
            })
            .collect::<Vec<_>>()
            .join(", "),
    };
    Some(text.chars().take(140).collect())
}
