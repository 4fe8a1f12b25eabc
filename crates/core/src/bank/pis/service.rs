//! The payment service: creating payments (debtor resolution, logical duplicates, fees, forced outcomes),
//! reading them, deleting them, starting their authorisation and applying a completed SCA. Execution is
//! the batch simulator's (`crate::bank::batch`); validation of the request body is `validation`'s.

use super::model::{
    Basket, DebtorAccount, ForcedOutcome, Payment, PaymentService, Remittance, ValidatedPayment,
};
use super::status::PaymentStatus;
use crate::bank::mock::model::{Account, CardAccount, Role};
use crate::bank::mock::{accounts, agreements};
use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::store::Store;
use time::{Duration, OffsetDateTime};

/// How long a logically identical payment counts as a duplicate.
pub const DUPLICATE_WINDOW: Duration = Duration::hours(24);

/// The account a payment debits: an ordinary account or a card account.
#[derive(Debug, Clone)]
pub enum Debtor {
    Account(Account),
    Card(CardAccount),
}

impl Debtor {
    pub fn id(&self) -> &str {
        match self {
            Debtor::Account(a) => &a.id,
            Debtor::Card(c) => &c.id,
        }
    }

    pub fn owner_id(&self) -> &str {
        match self {
            Debtor::Account(a) => &a.customer_id,
            Debtor::Card(c) => &c.customer_id,
        }
    }

    pub fn payments_allowed(&self) -> bool {
        match self {
            Debtor::Account(a) => a.payments_allowed,
            Debtor::Card(_) => true,
        }
    }
}

/// The sandbox account behind a validated debtor account, or 400 naming it.
pub fn resolve_debtor(store: &Store, payment: &ValidatedPayment) -> CoreResult<Debtor> {
    let debtor = &payment.orders[0].debtor_account;
    match debtor {
        DebtorAccount::Bban { bban, .. } => accounts::by_bban(store, bban)?.map(Debtor::Account).ok_or_else(|| {
            Refusal::format(
                "debtorAccount.bban",
                format!("No sandbox account has BBAN {bban}; GET /v1/sandbox/customers lists them."),
            )
        }),
        DebtorAccount::Card { identification, .. } => store
            .table::<CardAccount>()?
            .find(|c| c.related_account.as_deref() == Some(identification.as_str()))?
            .map(Debtor::Card)
            .ok_or_else(|| {
                Refusal::format(
                    "debtorAccount.other.identification",
                    format!(
                        "No sandbox card account has relatedAccount '{identification}': debtorAccount.other.identification \
                         takes the relatedAccount of the card account's details."
                    ),
                )
            }),
    }
}

/// True when the person may initiate or approve payments from the account: as its owner, or through a
/// corporate agreement that gives them REGISTER or APPROVE on it.
pub fn may_pay_from(
    store: &Store,
    customer_id: &str,
    debtor: &Debtor,
) -> CoreResult<Option<Option<String>>> {
    if debtor.owner_id() == customer_id {
        return Ok(Some(None));
    }
    for agreement in agreements::of_person(store, customer_id)? {
        let engaged = agreement.engagements.iter().any(|e| {
            e.customer_id == customer_id
                && e.account_id == debtor.id()
                && e.roles
                    .iter()
                    .any(|r| matches!(r, Role::Register | Role::Approve))
        });
        if engaged {
            return Ok(Some(Some(agreement.id)));
        }
    }
    Ok(None)
}

/// Magic values that make a payment end in a chosen state (docs/reference/payments.md): the unstructured
/// remittance text contains `SANDBOX:RJCT`, `SANDBOX:ACCP`, `SANDBOX:PDNG` or `SANDBOX:PART`.
pub fn forced_outcome(payment: &ValidatedPayment) -> Option<ForcedOutcome> {
    payment
        .orders
        .iter()
        .find_map(|order| match &order.remittance {
            Some(Remittance::Unstructured { text }) => {
                if text.contains("SANDBOX:RJCT") {
                    Some(ForcedOutcome::Rejected)
                } else if text.contains("SANDBOX:ACCP") {
                    Some(ForcedOutcome::LackingFunds)
                } else if text.contains("SANDBOX:PDNG") {
                    Some(ForcedOutcome::Pending)
                } else if text.contains("SANDBOX:PART") {
                    Some(ForcedOutcome::Partial)
                } else {
                    None
                }
            }
            _ => None,
        })
}

/// A logical duplicate: the same TPP, service, product, debtor and orders (amounts, creditors,
/// remittance, execution date) as a payment created in the last 24 hours that is not cancelled or
/// rejected. Refused unless `allowLogicalDuplicate=true`. Found through the duplicate index (one entry per
/// payment under the fingerprint of what makes two payments the same), not by scanning the payments.
fn find_duplicate(
    store: &Store,
    candidate: &Payment,
    now: OffsetDateTime,
) -> CoreResult<Option<String>> {
    let payments = store.table::<Payment>()?;
    for entry in store
        .table::<DuplicateIndexEntry>()?
        .scan_prefix(&format!("{}/", fingerprint(candidate)?))?
    {
        if now - entry.created_at >= DUPLICATE_WINDOW {
            continue;
        }
        if let Some(p) = payments.get(&entry.payment_id)? {
            if !matches!(p.status, PaymentStatus::CANC | PaymentStatus::RJCT) {
                return Ok(Some(p.id));
            }
        }
    }
    Ok(None)
}

/// What two logical duplicates share: the TPP, the debtor account and the validated request.
fn fingerprint(payment: &Payment) -> CoreResult<String> {
    use sha2::{Digest, Sha256};
    let request = serde_json::to_vec(&payment.payment).map_err(Refusal::internal)?;
    let mut hash = Sha256::new();
    hash.update(payment.tpp_id.as_bytes());
    hash.update([0]);
    hash.update(payment.debtor_account_id.as_bytes());
    hash.update([0]);
    hash.update(&request);
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// One payment in the logical-duplicate index, keyed `fingerprint/paymentId`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DuplicateIndexEntry {
    pub fingerprint: String,
    pub payment_id: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

impl crate::store::Record for DuplicateIndexEntry {
    const TREE: &'static str = "payment-duplicates";
    fn key(&self) -> String {
        format!("{}/{}", self.fingerprint, self.payment_id)
    }
}

/// What the create endpoint passes in.
pub struct CreatePayment {
    pub tpp_id: String,
    /// The PSU named by PSU-ID or X-PSU-IDENTITY; None in a single-SCA journey, where the payment's SCA
    /// identifies the PSU (and checks that they may pay from the account).
    pub customer_id: Option<String>,
    pub payment: ValidatedPayment,
    pub allow_logical_duplicate: bool,
    pub fee: Option<super::model::Money>,
    /// The fault plan's `payment-rejected` effect (docs/rehearsal.md) applies to this creation: the payment
    /// is stored already set to be rejected by the next batch run, in the same write that creates it.
    pub rejected_by_fault_plan: bool,
}

/// Creates a payment in status RCVD.
pub fn create(store: &Store, request: CreatePayment, now: OffsetDateTime) -> CoreResult<Payment> {
    let allow_logical_duplicate = request.allow_logical_duplicate;
    let payment = prepare(store, request, now)?;
    let creation = store.locks().payment_creation();
    store.atomically(|store| insert_new(store, payment, allow_logical_duplicate, now, &creation))
}

/// The payment [`create`] stores, checked against the debtor account and not yet stored.
pub fn prepare(store: &Store, request: CreatePayment, now: OffsetDateTime) -> CoreResult<Payment> {
    let debtor = resolve_debtor(store, &request.payment)?;
    let may_pay = match &request.customer_id {
        Some(customer_id) => may_pay_from(store, customer_id, &debtor)?.is_some(),
        None => true,
    };
    if !may_pay {
        return Err(Refusal::new(
            Code::ProductInvalid,
            Some("debtorAccount"),
            "The PSU may not make payments from this account: it is neither theirs nor covered by a corporate \
             agreement with REGISTER or APPROVE on it.",
        ));
    }
    if !debtor.payments_allowed() {
        return Err(Refusal::new(
            Code::ProductInvalid,
            Some("debtorAccount"),
            "The bank has removed payment permission on this account; it stays visible to account information.",
        ));
    }
    if matches!(debtor, Debtor::Card(_)) && !request.payment.product.is_domestic() {
        return Err(Refusal::new(
            Code::ProductInvalid,
            Some("debtorAccount.other"),
            format!(
                "A card account can pay only Norwegian domestic products, not {}.",
                request.payment.product.path()
            ),
        ));
    }
    let payment = Payment {
        id: uuid::Uuid::new_v4().to_string(),
        tpp_id: request.tpp_id,
        customer_id: request.customer_id.unwrap_or_default(),
        debtor_account_id: debtor.id().to_owned(),
        forced: match request.rejected_by_fault_plan {
            true => Some(ForcedOutcome::Rejected),
            false => forced_outcome(&request.payment),
        },
        payment: request.payment,
        status: PaymentStatus::RCVD,
        funds_available: None,
        fee: request.fee,
        basket_id: None,
        created_at: now,
        authorised_at: None,
        next_execution_date: None,
        executions: Vec::new(),
        history: vec![super::model::StatusChange {
            at: now,
            status: PaymentStatus::RCVD,
            reason: None,
        }],
    };
    Ok(payment)
}

/// Writes a prepared payment and its duplicate-index entry into the caller's operation, unless it is a
/// logical duplicate. The caller holds the creation lock (`_creation`) until that operation has committed,
/// so two identical requests at once cannot both pass the check.
pub fn insert_new(
    store: &Store,
    payment: Payment,
    allow_logical_duplicate: bool,
    now: OffsetDateTime,
    _creation: &std::sync::MutexGuard<'_, ()>,
) -> CoreResult<Payment> {
    if !allow_logical_duplicate {
        if let Some(existing) = find_duplicate(store, &payment, now)? {
            return Err(Refusal::conflict(
                "(body)",
                format!(
                    "This payment is a logical duplicate of payment {existing} (same debtor, creditor, amount, remittance \
                     and execution date within 24 hours). Send allowLogicalDuplicate=true to create it anyway."
                ),
            ));
        }
    }
    store.table::<Payment>()?.insert(&payment)?;
    store
        .table::<DuplicateIndexEntry>()?
        .insert(&DuplicateIndexEntry {
            fingerprint: fingerprint(&payment)?,
            payment_id: payment.id.clone(),
            created_at: now,
        })?;
    Ok(payment)
}

/// The payment with this id, made by this TPP through this service and product.
pub fn get(
    store: &Store,
    tpp_id: &str,
    service: PaymentService,
    product: super::model::PaymentProduct,
    id: &str,
) -> CoreResult<Payment> {
    store
        .table::<Payment>()?
        .get(id)?
        .filter(|p| {
            p.tpp_id == tpp_id && p.payment.service == service && p.payment.product == product
        })
        .ok_or_else(|| Refusal::unknown("paymentId", "payment", id))
}

/// The payment as the TPP may read it (GET of the payment or its status), with the bank's known issue
/// applied when the settings reproduce it: a domestic Norwegian credit transfer cannot be read before it
/// is approved.
pub fn get_readable(
    store: &Store,
    tpp_id: &str,
    service: PaymentService,
    product: super::model::PaymentProduct,
    id: &str,
) -> CoreResult<Payment> {
    let payment = get(store, tpp_id, service, product, id)?;
    let known_issue =
        super::settings::in_effect(store)?.reproduce_domestic_read_before_approval_issue;
    if known_issue
        && product == super::model::PaymentProduct::NorwegianDomesticCreditTransfers
        && payment.status == PaymentStatus::RCVD
    {
        let mut refusal = Refusal::unknown("paymentId", "approved payment", id);
        refusal.more.push(crate::domain::refusal::TppMessage::warning(
            Code::ResourceUnknown,
            Some("paymentId"),
            "Reproducing a known issue of the bank (docs/interface.md): a domestic Norwegian credit transfer cannot be read before it is approved. The sandbox \
             reproduces it; turn it off with PUT /v1/sandbox/settings {\"reproduceDomesticReadBeforeApprovalIssue\": false}.",
        ));
        return Err(refusal);
    }
    Ok(payment)
}

/// The payment with this id made by this TPP, whatever its product.
pub fn get_any(store: &Store, tpp_id: &str, id: &str) -> CoreResult<Option<Payment>> {
    Ok(store
        .table::<Payment>()?
        .get(id)?
        .filter(|p| p.tpp_id == tpp_id))
}

/// Deletes (cancels) a payment (docs/interface.md#payments): refused for PDNG with an explanatory message; unapproved
/// instant payments can be deleted; available for every product in the sandbox.
pub fn delete(store: &Store, payment: Payment, now: OffsetDateTime) -> CoreResult<Payment> {
    use PaymentStatus::*;
    // Under the run lock, against a fresh read: a run in progress must not book what is being cancelled.
    let _runs = store.locks().runs();
    let mut payment = store
        .table::<Payment>()?
        .get(&payment.id)?
        .unwrap_or(payment);
    match payment.status {
        PDNG => {
            return Err(Refusal::conflict(
                "paymentId",
                "A payment in status PDNG (pending, e.g. waiting for its execution date or for more signatures) cannot be \
                 deleted through this interface; the PSU can stop it in the bank's own channels.",
            ))
        }
        status if status.is_final() => {
            return Err(Refusal::conflict(
                "paymentId",
                format!("The payment is already {} and can no longer be deleted.", status.as_str()),
            ))
        }
        ACSP if payment.payment.service != PaymentService::PeriodicPayments => {
            return Err(Refusal::conflict("paymentId", "The payment is being settled (ACSP) and can no longer be deleted."))
        }
        _ => {}
    }
    payment.set_status(CANC, Some("deleted by the TPP".into()), now);
    store.table::<Payment>()?.insert(&payment)?;
    Ok(payment)
}

/// What the status of an authorised standing order says, for as long as it stays so (the status read's
/// `psuMessage` is the last status change's reason).
pub const STANDING_ORDER_ACCEPTED: &str = "Standing order accepted for execution and registered with the bank (ACSP). \
     The sandbox does not simulate standing-order executions (the bank's documentation: its batch runs \
     process every payment except periodic ones): no instance is booked, and the status stays ACSP until the order is deleted.";

/// Applies a completed SCA to the payments it approved: queued for the next batch run (ACTC), pending
/// until their execution date (PDNG), or, for a periodic payment, accepted and registered (ACSP, which it
/// stays: no batch run processes it). Returns the instant ones, which the caller executes at once. The
/// caller holds the run lock and an atomic operation (the completion of the SCA).
pub fn apply_authorisation(
    store: &Store,
    payment_ids: &[String],
    approver: &str,
    now: OffsetDateTime,
) -> CoreResult<Vec<String>> {
    let table = store.table::<Payment>()?;
    let mut instant = Vec::new();
    for id in payment_ids {
        let Some(mut payment) = table.get(id)? else {
            continue;
        };
        if payment.customer_id.is_empty() {
            // A single-SCA journey: the SCA identified the PSU.
            payment.customer_id = approver.to_owned();
        }
        if payment.status != PaymentStatus::RCVD {
            continue;
        }
        payment.authorised_at = Some(now);
        let today = now.date();
        let requested = payment.payment.orders[0].requested_execution_date;
        if payment.payment.service == PaymentService::PeriodicPayments {
            payment.set_status(
                PaymentStatus::ACSP,
                Some(STANDING_ORDER_ACCEPTED.into()),
                now,
            );
        } else if payment.payment.product.is_instant() {
            payment.set_status(PaymentStatus::ACTC, Some("authorised".into()), now);
            instant.push(payment.id.clone());
        } else if payment.forced == Some(ForcedOutcome::Pending)
            || requested.is_some_and(|d| d > today)
        {
            payment.set_status(
                PaymentStatus::PDNG,
                Some("waiting for the execution date".into()),
                now,
            );
        } else {
            payment.set_status(PaymentStatus::ACTC, Some("authorised".into()), now);
        }
        table.insert(&payment)?;
    }
    Ok(instant)
}

/// The baskets of a TPP.
pub fn basket(store: &Store, tpp_id: &str, id: &str) -> CoreResult<Basket> {
    store
        .table::<Basket>()?
        .get(id)?
        .filter(|b| b.tpp_id == tpp_id && !b.deleted)
        .ok_or_else(|| Refusal::unknown("basketId", "signing basket", id))
}
