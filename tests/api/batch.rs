//! The batch simulator over HTTP: payments seeded straight into the store (as the payment service stores
//! them after authorisation), runs triggered with POST /v1/sandbox/batch-runs or by moving the clock, and
//! the effects read back through the sandbox endpoints and the store.

use crate::helpers::{spawn_app, tpp, TestApp, TEST_NOW};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use std::str::FromStr;
use time::macros::date;
use time::OffsetDateTime;
use xs2a_core::bank::mock::model::{Account, BalanceType, CardAccount};
use xs2a_core::bank::pis::model::{
    Address, CreditorAccount, DebtorAccount, ForcedOutcome, Frequency, Money, Payment,
    PaymentOrder, PaymentProduct, PaymentService, Remittance, Schedule, ValidatedPayment,
};
use xs2a_core::bank::pis::status::PaymentStatus;
use xs2a_core::domain::Currency;
use xs2a_core::signing::signer::SignOptions;

fn amount(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

/// The seeded accounts: [0..2) corporations' operating/tax, then persons' current/savings, in seed order.
fn accounts(app: &TestApp) -> Vec<Account> {
    let mut all = app.state.store.table::<Account>().unwrap().list().unwrap();
    all.sort_by(|a, b| a.bban.cmp(&b.bban));
    all
}

/// A person's current account (lowest BBANs belong to the persons' current accounts: 1205 10 ...).
pub(crate) fn current(app: &TestApp) -> Account {
    accounts(app)
        .into_iter()
        .find(|a| a.cash_account_type == "CACC" && a.bban.starts_with("120510"))
        .unwrap()
}

pub(crate) fn savings(app: &TestApp) -> Account {
    accounts(app)
        .into_iter()
        .find(|a| a.cash_account_type == "SVGS")
        .unwrap()
}

pub(crate) fn balance(account: &Account, balance_type: BalanceType) -> Decimal {
    account
        .balances
        .iter()
        .find(|b| b.balance_type == balance_type)
        .unwrap()
        .balance_amount
        .amount
}

pub(crate) fn reload(app: &TestApp, account: &Account) -> Account {
    app.state
        .store
        .table::<Account>()
        .unwrap()
        .get(&account.id)
        .unwrap()
        .unwrap()
}

/// The sum of every balance entry of every sandbox account and card account.
pub(crate) fn money_in_the_sandbox(app: &TestApp) -> Decimal {
    let store = &app.state.store;
    let accounts: Decimal = store
        .table::<Account>()
        .unwrap()
        .list()
        .unwrap()
        .iter()
        .flat_map(|a| a.balances.clone())
        .map(|b| b.balance_amount.amount)
        .sum();
    let cards: Decimal = store
        .table::<CardAccount>()
        .unwrap()
        .list()
        .unwrap()
        .iter()
        .flat_map(|c| c.balances.clone())
        .map(|b| b.balance_amount.amount)
        .sum();
    accounts + cards
}

fn order(debtor: &Account, creditor_bban: &str, sum: &str) -> PaymentOrder {
    PaymentOrder {
        instructed_amount: Money {
            amount: amount(sum),
            currency: Currency::NOK,
        },
        creditor_name: "Mottaker Testesen".to_owned(),
        creditor_account: CreditorAccount {
            bban: Some(creditor_bban.to_owned()),
            iban: None,
            currency: Currency::NOK,
        },
        creditor_address: Address::default(),
        creditor_agent: None,
        debtor_account: DebtorAccount::Bban {
            bban: debtor.bban.clone(),
            currency: Currency::NOK,
        },
        ultimate_debtor: None,
        purpose_code: None,
        remittance: Some(Remittance::Unstructured {
            text: "Test av batch".to_owned(),
        }),
        requested_execution_date: None,
        service_level: None,
    }
}

fn payment(
    id: &str,
    debtor: &Account,
    service: PaymentService,
    orders: Vec<PaymentOrder>,
    status: PaymentStatus,
) -> Payment {
    Payment {
        id: id.to_owned(),
        tpp_id: "PSDNO-FSA-TEST".to_owned(),
        customer_id: debtor.customer_id.clone(),
        debtor_account_id: debtor.id.clone(),
        payment: ValidatedPayment {
            service,
            product: PaymentProduct::NorwegianDomesticCreditTransfers,
            orders,
            schedule: None,
            batch_booking_preferred: None,
        },
        status,
        funds_available: None,
        fee: None,
        forced: None,
        basket_id: None,
        created_at: TEST_NOW,
        authorised_at: Some(TEST_NOW),
        next_execution_date: None,
        executions: Vec::new(),
        history: Vec::new(),
    }
}

pub(crate) fn single(id: &str, debtor: &Account, creditor: &Account, sum: &str) -> Payment {
    payment(
        id,
        debtor,
        PaymentService::Payments,
        vec![order(debtor, &creditor.bban, sum)],
        PaymentStatus::ACTC,
    )
}

pub(crate) fn seed(app: &TestApp, payment: &Payment) {
    app.state
        .store
        .table::<Payment>()
        .unwrap()
        .insert(payment)
        .unwrap();
}

pub(crate) fn stored(app: &TestApp, id: &str) -> Payment {
    app.state
        .store
        .table::<Payment>()
        .unwrap()
        .get(id)
        .unwrap()
        .unwrap()
}

pub(crate) async fn run_now(app: &TestApp) -> Value {
    let response = app.post("/v1/sandbox/batch-runs", &json!({})).send().await;
    assert_eq!(response.status, 201, "{}", response.body);
    response.body
}

pub(crate) async fn set_clock(app: &TestApp, body: Value) {
    app.put("/v1/sandbox/clock", &body).send().await.assert_ok();
}

#[tokio::test]
async fn a_run_books_an_approved_payment_with_transactions_on_both_sides() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    seed(&app, &single("p-1", &from, &to, "100.00"));

    let run = run_now(&app).await;
    assert_eq!(run["trigger"], "Manual");
    assert_eq!(run["processed"], 1);
    assert_eq!(
        run["outcomes"][0],
        json!({"paymentId": "p-1", "before": "ACTC", "after": "ACSC", "fundsAvailable": true})
    );

    let paid = stored(&app, "p-1");
    assert_eq!(paid.status, PaymentStatus::ACSC);
    assert_eq!(paid.funds_available, Some(true));
    let transaction_id = paid.executions[0].transaction_id.clone().expect("booked");

    let debits = app
        .get(&format!("/v1/sandbox/accounts/{}/transactions", from.id))
        .send()
        .await;
    debits.assert_ok();
    let debit = debits
        .body
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == transaction_id.as_str())
        .expect("listed");
    assert_eq!(debit["amount"], -10000);
    assert_eq!(debit["creditorName"], "Mottaker Testesen");
    assert_eq!(debit["creditorAccount"]["bban"], to.bban.as_str());
    assert_eq!(debit["remittanceInformationUnstructured"], "Test av batch");
    assert_eq!(debit["bookingDate"], "2026-06-01");
    let credits = app
        .get(&format!("/v1/sandbox/accounts/{}/transactions", to.id))
        .send()
        .await;
    assert!(credits
        .body
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["amount"] == 10000 && t["debtorAccount"]["bban"] == from.bban.as_str()));

    for balance_type in [BalanceType::InterimAvailable, BalanceType::ClosingBooked] {
        assert_eq!(
            balance(&reload(&app, &from), balance_type),
            balance(&from, balance_type) - amount("100")
        );
        assert_eq!(
            balance(&reload(&app, &to), balance_type),
            balance(&to, balance_type) + amount("100")
        );
    }
    let again = run_now(&app).await;
    assert_eq!(
        again["processed"], 0,
        "a booked payment is not booked twice"
    );
}

#[tokio::test]
async fn lacking_funds_wait_in_accp_and_are_rejected_at_the_days_last_run() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    seed(&app, &single("poor", &from, &to, "999999.00"));

    let run = run_now(&app).await;
    assert_eq!(run["outcomes"][0]["after"], "ACCP");
    assert_eq!(run["outcomes"][0]["fundsAvailable"], false);
    assert_eq!(run["outcomes"][0]["reason"], "AM04 insufficient funds");
    assert_eq!(stored(&app, "poor").status, PaymentStatus::ACCP);

    set_clock(&app, json!({"now": "2026-06-01T14:30:00Z"})).await;
    assert_eq!(
        stored(&app, "poor").status,
        PaymentStatus::ACCP,
        "the 14:00 run retries"
    );

    set_clock(&app, json!({"now": "2026-06-01T18:00:00Z"})).await;
    let rejected = stored(&app, "poor");
    assert_eq!(rejected.status, PaymentStatus::RJCT);
    assert_eq!(rejected.funds_available, Some(false));
    assert_eq!(
        rejected.history.last().unwrap().reason.as_deref(),
        Some("AM04 insufficient funds")
    );
    assert_eq!(
        balance(&reload(&app, &from), BalanceType::InterimAvailable),
        balance(&from, BalanceType::InterimAvailable)
    );
}

#[tokio::test]
async fn a_future_dated_payment_waits_in_pdng_until_its_date() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    let mut later = single("later", &from, &to, "10.00");
    later.payment.orders[0].requested_execution_date = Some(date!(2026 - 06 - 03));
    later.status = PaymentStatus::PDNG;
    seed(&app, &later);

    assert_eq!(run_now(&app).await["processed"], 0);
    set_clock(&app, json!({"advance": "P1D"})).await;
    assert_eq!(stored(&app, "later").status, PaymentStatus::PDNG);
    set_clock(&app, json!({"advance": "P1D"})).await;
    let paid = stored(&app, "later");
    assert_eq!(paid.status, PaymentStatus::ACSC);
    assert_eq!(
        paid.executions[0].at,
        OffsetDateTime::new_utc(date!(2026 - 06 - 03), time::macros::time!(05:00))
    );
}

#[tokio::test]
async fn money_is_conserved_over_a_day_of_runs() {
    let app = spawn_app().await;
    let all = accounts(&app);
    let before = money_in_the_sandbox(&app);
    for (i, from) in all.iter().enumerate() {
        let to = &all[(i + 1) % all.len()];
        seed(
            &app,
            &single(&format!("c-{i}"), from, to, &format!("{}.25", 100 + i * 37)),
        );
    }
    seed(&app, &single("too-much", &all[0], &all[1], "99999999.00"));
    set_clock(&app, json!({"advance": "P1D"})).await;
    assert_eq!(money_in_the_sandbox(&app), before);
    let statuses: Vec<_> = (0..all.len())
        .map(|i| stored(&app, &format!("c-{i}")).status)
        .collect();
    assert!(
        statuses.iter().all(|s| *s == PaymentStatus::ACSC),
        "{statuses:?}"
    );
    assert_eq!(stored(&app, "too-much").status, PaymentStatus::RJCT);
}

#[tokio::test]
async fn forced_outcomes_reject_hold_and_partially_book() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    let mut rejected = single("forced-rjct", &from, &to, "1.00");
    rejected.forced = Some(ForcedOutcome::Rejected);
    seed(&app, &rejected);
    let mut held = single("forced-pdng", &from, &to, "1.00");
    held.forced = Some(ForcedOutcome::Pending);
    seed(&app, &held);
    let orders = (0..3)
        .map(|i| order(&from, &to.bban, &format!("{}.00", i + 1)))
        .collect();
    let mut bulk = payment(
        "forced-part",
        &from,
        PaymentService::BulkPayments,
        orders,
        PaymentStatus::ACTC,
    );
    bulk.forced = Some(ForcedOutcome::Partial);
    seed(&app, &bulk);

    run_now(&app).await;
    assert_eq!(stored(&app, "forced-rjct").status, PaymentStatus::RJCT);
    assert_eq!(stored(&app, "forced-pdng").status, PaymentStatus::PDNG);
    let part = stored(&app, "forced-part");
    assert_eq!(part.status, PaymentStatus::PART);
    let statuses: Vec<_> = part
        .executions
        .iter()
        .map(|e| (e.order, e.status))
        .collect();
    assert_eq!(
        statuses,
        [
            (0, PaymentStatus::ACSC),
            (1, PaymentStatus::RJCT),
            (2, PaymentStatus::RJCT)
        ]
    );
    assert_eq!(
        balance(&reload(&app, &from), BalanceType::InterimAvailable),
        balance(&from, BalanceType::InterimAvailable) - amount("1.00")
    );

    set_clock(&app, json!({"advance": "P3D"})).await;
    assert_eq!(
        stored(&app, "forced-pdng").status,
        PaymentStatus::PDNG,
        "held while forced"
    );
}

#[tokio::test]
async fn a_bulk_short_of_funds_books_what_fits_at_the_last_run() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    let available = balance(&from, BalanceType::InterimAvailable);
    let orders = vec![
        order(&from, &to.bban, "100.00"),
        order(&from, &to.bban, &(available).to_string()),
        order(&from, &to.bban, "200.00"),
    ];
    seed(
        &app,
        &payment(
            "bulk",
            &from,
            PaymentService::BulkPayments,
            orders,
            PaymentStatus::ACTC,
        ),
    );
    run_now(&app).await;
    assert_eq!(stored(&app, "bulk").status, PaymentStatus::ACCP);
    set_clock(&app, json!({"now": "2026-06-01T18:00:00Z"})).await;
    let bulk = stored(&app, "bulk");
    assert_eq!(bulk.status, PaymentStatus::PART);
    let booked: Vec<_> = bulk
        .executions
        .iter()
        .filter(|e| e.status == PaymentStatus::ACSC)
        .map(|e| e.order)
        .collect();
    assert_eq!(booked, [0, 2]);
}

#[tokio::test]
async fn removed_payment_permission_rejects_the_payment() {
    let app = spawn_app().await;
    let (mut from, to) = (current(&app), savings(&app));
    from.payments_allowed = false;
    app.state
        .store
        .table::<Account>()
        .unwrap()
        .insert(&from)
        .unwrap();
    seed(&app, &single("no-permission", &from, &to, "1.00"));
    run_now(&app).await;
    let rejected = stored(&app, "no-permission");
    assert_eq!(rejected.status, PaymentStatus::RJCT);
    assert_eq!(
        rejected.history.last().unwrap().reason.as_deref(),
        Some("the bank removed payment permission on the account")
    );
}

/// Every transaction of every sandbox account, as stored: one by one, and the payment bookings kept in
/// one block per run and account.
fn all_transactions(app: &TestApp) -> Vec<xs2a_core::bank::mock::model::Transaction> {
    let store = &app.state.store;
    let blocks = store
        .table::<xs2a_core::bank::mock::booking_blocks::BookingBlock>()
        .unwrap()
        .list()
        .unwrap();
    store
        .table::<xs2a_core::bank::mock::model::Transaction>()
        .unwrap()
        .list()
        .unwrap()
        .into_iter()
        .chain(blocks.into_iter().flat_map(|b| b.transactions))
        .collect()
}

/// docs/interface.md#payments: the simulated batch runs process every payment but periodic ones. A
/// standing order accepted for execution (ACSP) is left alone by a manual run, by the scheduled runs of
/// 100 days (past its end date) and by the day's last run, while a payment beside it is booked.
#[tokio::test]
async fn batch_runs_leave_a_periodic_payment_and_the_accounts_untouched() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    let mut standing = payment(
        "standing",
        &from,
        PaymentService::PeriodicPayments,
        vec![order(&from, &to.bban, "50.00")],
        PaymentStatus::ACSP,
    );
    standing.payment.schedule = Some(Schedule {
        start_date: TEST_NOW.date(),
        end_date: Some(date!(2026 - 08 - 31)),
        frequency: Frequency::Daily,
        day_of_execution: None,
    });
    seed(&app, &standing);
    let accounts_before = accounts(&app);
    let transactions_before = all_transactions(&app);

    let run = run_now(&app).await;
    assert_eq!(run["processed"], 0, "{run}");
    assert_eq!(stored(&app, "standing"), standing);
    set_clock(&app, json!({"advance": "P100D"})).await;
    assert_eq!(
        stored(&app, "standing"),
        standing,
        "500 scheduled runs, the last of them past the end date, leave the standing order as it was"
    );
    assert_eq!(accounts(&app), accounts_before, "no balance moved");
    assert_eq!(
        all_transactions(&app),
        transactions_before,
        "nothing booked"
    );

    // The same runs still book an ordinary payment from the same account.
    seed(&app, &single("beside", &from, &to, "5.00"));
    run_now(&app).await;
    assert_eq!(stored(&app, "beside").status, PaymentStatus::ACSC);
    assert_eq!(
        all_transactions(&app).len(),
        transactions_before.len() + 2,
        "the ordinary payment's debit and credit, seen where the check above looked"
    );
    assert_eq!(stored(&app, "standing"), standing);
    let runs = app
        .state
        .store
        .table::<xs2a_core::bank::batch::BatchRun>()
        .unwrap()
        .list()
        .unwrap();
    assert!(runs.len() > 500, "{} runs", runs.len());
    assert!(
        runs.iter()
            .flat_map(|r| &r.outcomes)
            .all(|o| o.payment_id != "standing"),
        "no run has an outcome for the standing order"
    );
}

#[tokio::test]
async fn batch_runs_are_listed_newest_first_with_the_next_scheduled_times() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    seed(&app, &single("listed", &from, &to, "5.00"));
    let made = run_now(&app).await;
    let listing = app.get("/v1/sandbox/batch-runs").send().await;
    listing.assert_ok();
    assert_eq!(listing.body["runs"][0]["id"], made["id"]);
    assert_eq!(
        listing.body["runs"][0]["outcomes"][0]["paymentId"],
        "listed"
    );
    assert_eq!(
        listing.body["scheduled"],
        json!([
            "2026-06-01T14:00:00Z",
            "2026-06-01T18:00:00Z",
            "2026-06-02T05:00:00Z",
            "2026-06-02T08:00:00Z",
            "2026-06-02T11:00:00Z"
        ])
    );
    set_clock(&app, json!({"advance": "PT6H"})).await;
    let listing = app.get("/v1/sandbox/batch-runs?limit=2").send().await;
    let times: Vec<_> = listing.body["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["at"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(times, ["2026-06-01T18:00:00Z", "2026-06-01T14:00:00Z"]);
    assert_eq!(listing.body["runs"][0]["trigger"], "Scheduled");
    app.get("/v1/sandbox/batch-runs?limit=0")
        .send()
        .await
        .assert_refused(400, "FORMAT_ERROR", Some("limit"));
}

#[tokio::test]
async fn an_instant_payment_is_executed_at_once_or_rejected_for_lack_of_funds() {
    let app = spawn_app().await;
    let (from, to) = (current(&app), savings(&app));
    let mut instant = single("instant", &from, &to, "20.00");
    instant.payment.product = PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks;
    seed(&app, &instant);
    let (store, events) = (&app.state.store, &app.state.events);
    let paid = xs2a_core::bank::batch::execute_now(store, events, "instant", TEST_NOW).unwrap();
    assert_eq!(paid.status, PaymentStatus::ACSC);
    let mut poor = single("instant-poor", &from, &to, "9999999.00");
    poor.payment.product = PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks;
    seed(&app, &poor);
    let rejected =
        xs2a_core::bank::batch::execute_now(store, events, "instant-poor", TEST_NOW).unwrap();
    assert_eq!(
        (rejected.status, rejected.funds_available),
        (PaymentStatus::RJCT, Some(false))
    );
}

#[tokio::test]
async fn the_event_stream_delivers_a_batch_run() {
    let app = spawn_app().await;
    let path = "/v1/sandbox/events";
    let mut headers = axum::http::HeaderMap::new();
    headers.insert(
        "x-request-id",
        "7f3e1a2b-0000-4000-8000-000000000001".parse().unwrap(),
    );
    tpp("aisp-pisp").sign(
        "GET",
        path,
        &mut headers,
        b"",
        app.state.clock.now(),
        &SignOptions::default(),
    );
    let mut response = app
        .client
        .get(format!("{}{path}", app.base))
        .headers(headers)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut seen = String::new();
    let read_until = |needle: &'static str| needle;
    // The stream is open once its first comment arrives; then a run is published to it.
    while !seen.contains(read_until(": connected")) {
        let chunk = response.chunk().await.unwrap().unwrap();
        seen.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    run_now(&app).await;
    while !seen.contains("\n\n") || !seen.contains("event: batch.run") {
        let chunk = response.chunk().await.unwrap().unwrap();
        seen.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    let data = seen
        .split("event: batch.run\ndata: ")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    let event: Value = serde_json::from_str(data).unwrap();
    assert_eq!(event["kind"], "batch.run");
    assert_eq!(event["data"]["trigger"], "Manual");
}
