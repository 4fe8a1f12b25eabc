//! How a payment is stored: under its id, in a compact form (`crate::store::codec`) of about a quarter of its
//! JSON, decoded without field names. The status is the record's second byte, so a batch run can pass over final payments
//! without decoding them ([`stored_status`]). Payments stored as JSON by earlier versions are read as
//! they are ([`decode`] takes both forms).

use super::model::{
    Address, CreditorAccount, DebtorAccount, Execution, ForcedOutcome, Frequency, Money, Payment,
    PaymentOrder, PaymentProduct, PaymentService, Remittance, Schedule, StatusChange,
    StructuredReference, ValidatedPayment,
};
use super::status::PaymentStatus;
use crate::store::codec::{is_json, DecodeError, Reader, Writer};
use crate::store::migrate::{Migrating, MigrationError};
use crate::store::{Record, StoreError};

/// The first byte of a payment in its compact form.
pub const FORMAT: u8 = 1;

/// Stable numbers for the enums (the order of their declarations is not a format).
const STATUSES: [PaymentStatus; 11] = [
    PaymentStatus::RCVD,
    PaymentStatus::PDNG,
    PaymentStatus::ACTC,
    PaymentStatus::ACCP,
    PaymentStatus::ACWC,
    PaymentStatus::ACWP,
    PaymentStatus::ACSP,
    PaymentStatus::ACSC,
    PaymentStatus::RJCT,
    PaymentStatus::CANC,
    PaymentStatus::PART,
];
const SERVICES: [PaymentService; 3] = [
    PaymentService::Payments,
    PaymentService::PeriodicPayments,
    PaymentService::BulkPayments,
];
const FREQUENCIES: [Frequency; 8] = [
    Frequency::Daily,
    Frequency::Weekly,
    Frequency::EveryTwoWeeks,
    Frequency::Monthly,
    Frequency::EveryTwoMonths,
    Frequency::Quarterly,
    Frequency::SemiAnnual,
    Frequency::Annual,
];
const FORCED: [ForcedOutcome; 4] = [
    ForcedOutcome::Rejected,
    ForcedOutcome::LackingFunds,
    ForcedOutcome::Pending,
    ForcedOutcome::Partial,
];

fn number<T: PartialEq + Copy>(all: &[T], value: T) -> u8 {
    all.iter().position(|v| *v == value).expect("listed") as u8
}

fn from_number<T: Copy>(all: &[T], n: u8, what: &str) -> Result<T, DecodeError> {
    all.get(usize::from(n))
        .copied()
        .ok_or_else(|| format!("{n} is not a {what}"))
}

impl Record for Payment {
    const TREE: &'static str = "payments";
    fn key(&self) -> String {
        self.id.clone()
    }

    /// The compact form: a batch run reads and writes payments by the hundred thousand.
    fn to_stored(&self) -> Result<Vec<u8>, StoreError> {
        Ok(encode(self))
    }

    fn from_stored(bytes: &[u8]) -> Result<Self, StoreError> {
        decode(bytes).map_err(|reason| StoreError::Damaged {
            tree: Self::TREE,
            reason,
        })
    }
}

/// The data directory's format 2 (`crate::bank::migrations`): payments and account transactions stored as JSON
/// until then are stored again in their compact forms. (The payment bookings' blocks are new in format 2:
/// bookings stored one by one before stay where they are and are listed as before.)
pub fn migrate(migrating: &Migrating) -> Result<(), MigrationError> {
    migrating.reencode::<Payment>()?;
    migrating.reencode::<crate::bank::mock::model::Transaction>()?;
    Ok(())
}

/// The compact bytes of a payment.
pub fn encode(p: &Payment) -> Vec<u8> {
    let mut w = Writer::new(FORMAT, 320 + 96 * p.payment.orders.len());
    w.u8(number(&STATUSES, p.status));
    w.id(&p.id);
    w.str(&p.tpp_id);
    w.id(&p.customer_id);
    w.id(&p.debtor_account_id);
    validated(&mut w, &p.payment);
    w.opt_bool(p.funds_available);
    w.option(p.fee.as_ref(), money);
    w.option(p.forced, |w, f| w.u8(number(&FORCED, f)));
    w.opt_id(p.basket_id.as_deref());
    w.instant(p.created_at);
    w.opt_instant(p.authorised_at);
    w.opt_date(p.next_execution_date);
    w.list(&p.executions, |w, e| {
        w.instant(e.at);
        w.u64(e.order as u64);
        w.u8(number(&STATUSES, e.status));
        w.opt_str(e.reason.as_deref());
        w.opt_id(e.transaction_id.as_deref());
    });
    w.list(&p.history, |w, h| {
        w.instant(h.at);
        w.u8(number(&STATUSES, h.status));
        w.opt_str(h.reason.as_deref());
    });
    w.finish()
}

fn money(w: &mut Writer, m: &Money) {
    w.decimal(m.amount);
    w.currency(m.currency);
}

fn validated(w: &mut Writer, v: &ValidatedPayment) {
    w.u8(number(&SERVICES, v.service));
    w.u8(number(&PaymentProduct::ALL, v.product));
    w.list(&v.orders, order);
    w.option(v.schedule.as_ref(), |w, s| {
        w.date(s.start_date);
        w.opt_date(s.end_date);
        w.u8(number(&FREQUENCIES, s.frequency));
        w.option(s.day_of_execution, Writer::u8);
    });
    w.opt_bool(v.batch_booking_preferred);
}

fn order(w: &mut Writer, o: &PaymentOrder) {
    money(w, &o.instructed_amount);
    w.str(&o.creditor_name);
    w.opt_str(o.creditor_account.bban.as_deref());
    w.opt_str(o.creditor_account.iban.as_deref());
    w.currency(o.creditor_account.currency);
    let a = &o.creditor_address;
    w.opt_str(a.street.as_deref());
    w.opt_str(a.building_number.as_deref());
    w.opt_str(a.postal_code.as_deref());
    w.opt_str(a.town_name.as_deref());
    w.opt_country(a.country);
    w.opt_str(o.creditor_agent.as_deref());
    match &o.debtor_account {
        DebtorAccount::Bban { bban, currency } => {
            w.u8(0);
            w.str(bban);
            w.currency(*currency);
        }
        DebtorAccount::Card {
            identification,
            currency,
        } => {
            w.u8(1);
            w.str(identification);
            w.currency(*currency);
        }
    }
    w.opt_str(o.ultimate_debtor.as_deref());
    w.opt_str(o.purpose_code.as_deref());
    w.option(o.remittance.as_ref(), |w, r| match r {
        Remittance::Unstructured { text } => {
            w.u8(0);
            w.str(text);
        }
        Remittance::Structured {
            references,
            as_array,
        } => {
            w.u8(1);
            w.list(references, |w, r| {
                w.str(&r.reference);
                w.opt_str(r.reference_type.as_deref());
                w.opt_str(r.reference_issuer.as_deref());
            });
            w.bool(*as_array);
        }
    });
    w.opt_date(o.requested_execution_date);
    w.opt_str(o.service_level.as_deref());
}

/// A stored payment, in either form.
pub fn decode(bytes: &[u8]) -> Result<Payment, DecodeError> {
    if is_json(bytes) {
        return serde_json::from_slice(bytes).map_err(|e| e.to_string());
    }
    let mut r = Reader::new(bytes, FORMAT)?;
    let status = read_status(&mut r)?;
    let payment = Payment {
        id: r.id()?,
        tpp_id: r.str()?,
        customer_id: r.id()?,
        debtor_account_id: r.id()?,
        payment: read_validated(&mut r)?,
        status,
        funds_available: r.opt_bool()?,
        fee: r.option(read_money)?,
        forced: r.option(|r| from_number(&FORCED, r.u8()?, "forced outcome"))?,
        basket_id: r.opt_id()?,
        created_at: r.instant()?,
        authorised_at: r.opt_instant()?,
        next_execution_date: r.opt_date()?,
        executions: r.list(|r| {
            Ok(Execution {
                at: r.instant()?,
                order: r.usize()?,
                status: read_status(r)?,
                reason: r.opt_str()?,
                transaction_id: r.opt_id()?,
            })
        })?,
        history: r.list(|r| {
            Ok(StatusChange {
                at: r.instant()?,
                status: read_status(r)?,
                reason: r.opt_str()?,
            })
        })?,
    };
    r.end()?;
    Ok(payment)
}

/// The status of a stored payment without decoding the rest: the compact form's second byte. None for
/// a JSON record (the caller decodes it).
pub fn stored_status(bytes: &[u8]) -> Option<PaymentStatus> {
    match bytes {
        [FORMAT, n, ..] => STATUSES.get(usize::from(*n)).copied(),
        _ => None,
    }
}

fn read_status(r: &mut Reader) -> Result<PaymentStatus, DecodeError> {
    from_number(&STATUSES, r.u8()?, "payment status")
}

fn read_money(r: &mut Reader) -> Result<Money, DecodeError> {
    Ok(Money {
        amount: r.decimal()?,
        currency: r.currency()?,
    })
}

fn read_validated(r: &mut Reader) -> Result<ValidatedPayment, DecodeError> {
    Ok(ValidatedPayment {
        service: from_number(&SERVICES, r.u8()?, "payment service")?,
        product: from_number(&PaymentProduct::ALL, r.u8()?, "payment product")?,
        orders: r.list(read_order)?,
        schedule: r.option(|r| {
            Ok(Schedule {
                start_date: r.date()?,
                end_date: r.opt_date()?,
                frequency: from_number(&FREQUENCIES, r.u8()?, "frequency")?,
                day_of_execution: r.option(Reader::u8)?,
            })
        })?,
        batch_booking_preferred: r.opt_bool()?,
    })
}

fn read_order(r: &mut Reader) -> Result<PaymentOrder, DecodeError> {
    Ok(PaymentOrder {
        instructed_amount: read_money(r)?,
        creditor_name: r.str()?,
        creditor_account: CreditorAccount {
            bban: r.opt_str()?,
            iban: r.opt_str()?,
            currency: r.currency()?,
        },
        creditor_address: Address {
            street: r.opt_str()?,
            building_number: r.opt_str()?,
            postal_code: r.opt_str()?,
            town_name: r.opt_str()?,
            country: r.opt_country()?,
        },
        creditor_agent: r.opt_str()?,
        debtor_account: match r.u8()? {
            0 => DebtorAccount::Bban {
                bban: r.str()?,
                currency: r.currency()?,
            },
            1 => DebtorAccount::Card {
                identification: r.str()?,
                currency: r.currency()?,
            },
            other => return Err(format!("{other} is not a debtor account kind")),
        },
        ultimate_debtor: r.opt_str()?,
        purpose_code: r.opt_str()?,
        remittance: r.option(|r| match r.u8()? {
            0 => Ok(Remittance::Unstructured { text: r.str()? }),
            1 => Ok(Remittance::Structured {
                references: r.list(|r| {
                    Ok(StructuredReference {
                        reference: r.str()?,
                        reference_type: r.opt_str()?,
                        reference_issuer: r.opt_str()?,
                    })
                })?,
                as_array: r.bool()?,
            }),
            other => Err(format!("{other} is not a remittance kind")),
        })?,
        requested_execution_date: r.opt_date()?,
        service_level: r.opt_str()?,
    })
}

#[cfg(test)]
mod tests;
