//! Crash trials: the real binary is killed with SIGKILL during batch runs, sandbox initialisation, payment
//! creation and rewinds — at delays found from the trials' own outcomes until kills both before and after
//! an operation completed are seen (bounded by tries, never by a time measured beforehand), or after a
//! counted number of acknowledged writes; each time it is restarted on the same data directory, stopped
//! cleanly, and the store is checked for what "all or nothing" promises:
//! - every acknowledged write is present;
//! - each payment is either settled with exactly its bookings or untouched;
//! - no booking exists twice, and none without the payment execution that made it;
//! - every account's balances moved by exactly the sum of its payment bookings, so money is conserved
//!   across all sandbox accounts;
//! - an initialisation happened wholly (seed state, no flows left) or not at all;
//! - a rewind (docs/rewind.md) leaves the whole state exactly as before it or exactly as after it.
//!
//! Run alone with `cargo test --test crash_trials -- --nocapture`; `XS2A_CRASH_SEED=<n>` replays a series.

use rust_decimal::Decimal;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use time::macros::datetime;
use time::OffsetDateTime;
use xs2a_core::bank::mock::booking_blocks::BookingBlock;
use xs2a_core::bank::mock::model::{Account, Customer, Transaction, TransactionSource};
use xs2a_core::bank::pis::model::{
    Address, CreditorAccount, DebtorAccount, Money, Payment, PaymentOrder, PaymentProduct,
    PaymentService, Remittance, ValidatedPayment,
};
use xs2a_core::bank::pis::status::PaymentStatus;
use xs2a_core::domain::Currency;
use xs2a_core::signing::signer::{SignOptions, SigningCredentials};
use xs2a_core::store::Store;
use xs2a_http::app::{App, AppConfig, ClockStart, DataDir};

/// The simulated instant of every trial: before the day's 11:00 run, so no scheduled run interferes.
const NOW: OffsetDateTime = datetime!(2026-06-01 10:30 UTC);
const SINGLE_PAYMENTS: usize = 200;
const BULK_PAYMENTS: usize = 6;
const ORDERS_PER_BULK: usize = 100;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xs2a-sandbox"))
}

/// A small xorshift generator: reproducible from the printed seed, no dependency needed.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Kill delays that find an operation's span from the trials' own outcomes, not from a time measured
/// beforehand (which a loaded machine makes wrong by the time the trials run): after a kill that came
/// before the operation was done the next delay doubles, after one that let it finish it halves, each
/// spread at random from half to one and a half times that. The kills close in on the moment the operation
/// completes, where the partial states are, on a machine of any speed; the trials go on until both
/// outcomes are seen, bounded by a number of tries.
struct KillDelays {
    next: Duration,
    done: u32,
    undone: u32,
}

impl KillDelays {
    fn new() -> KillDelays {
        KillDelays {
            next: Duration::from_millis(20),
            done: 0,
            undone: 0,
        }
    }

    fn delay(&self, random: &mut Random) -> Duration {
        let micros = self.next.as_micros() as u64;
        Duration::from_micros(micros / 2 + random.below(micros + 1))
    }

    /// Counts a trial's outcome and sets the next delay from it.
    fn outcome(&mut self, done: bool) {
        if done {
            self.done += 1;
            self.next = (self.next / 2).max(Duration::from_millis(1));
        } else {
            self.undone += 1;
            self.next *= 2;
        }
    }

    /// Whether at least `least` trials ran and both outcomes were seen.
    fn enough(&self, least: u32) -> bool {
        self.done + self.undone >= least && self.done > 0 && self.undone > 0
    }
}

fn order(debtor: &Account, creditor: &Account, minor: i64, note: String) -> PaymentOrder {
    PaymentOrder {
        instructed_amount: Money {
            amount: Decimal::new(minor, 2),
            currency: Currency::NOK,
        },
        creditor_name: "Mottaker Testesen".to_owned(),
        creditor_account: CreditorAccount {
            bban: Some(creditor.bban.clone()),
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
        remittance: Some(Remittance::Unstructured { text: note }),
        requested_execution_date: None,
        service_level: None,
    }
}

fn approved(
    id: String,
    debtor: &Account,
    service: PaymentService,
    orders: Vec<PaymentOrder>,
) -> Payment {
    Payment {
        id,
        tpp_id: "PSDNO-FSA-CRASH".to_owned(),
        customer_id: debtor.customer_id.clone(),
        debtor_account_id: debtor.id.clone(),
        payment: ValidatedPayment {
            service,
            product: PaymentProduct::NorwegianDomesticCreditTransfers,
            orders,
            schedule: None,
            batch_booking_preferred: None,
        },
        status: PaymentStatus::ACTC,
        funds_available: None,
        fee: None,
        forced: None,
        basket_id: None,
        created_at: NOW,
        authorised_at: Some(NOW),
        next_execution_date: None,
        executions: Vec::new(),
        history: Vec::new(),
    }
}

/// The state every trial starts from: the seed plus 200 approved payments and 6 bulk payments of 100
/// orders, all between sandbox accounts, all affordable.
fn build_pre_state(dir: &Path) {
    let app = App::build(AppConfig {
        data: DataDir::At(dir.to_owned()),
        clock: ClockStart::FrozenAt(NOW),
        ..AppConfig::default()
    })
    .unwrap();
    let store = &app.state().store;
    let mut accounts = store.table::<Account>().unwrap().list().unwrap();
    accounts.sort_by(|a, b| a.bban.cmp(&b.bban));
    let mut payments = Vec::new();
    for i in 0..SINGLE_PAYMENTS {
        let (debtor, creditor) = (
            &accounts[i % accounts.len()],
            &accounts[(i + 1) % accounts.len()],
        );
        let orders = vec![order(
            debtor,
            creditor,
            100 + i as i64,
            format!("single {i}"),
        )];
        payments.push(approved(
            format!("single-{i:04}"),
            debtor,
            PaymentService::Payments,
            orders,
        ));
    }
    for b in 0..BULK_PAYMENTS {
        let debtor = &accounts[b % accounts.len()];
        let orders = (0..ORDERS_PER_BULK)
            .map(|o| {
                let creditor = &accounts[(b + 1 + o % 3) % accounts.len()];
                order(
                    debtor,
                    creditor,
                    50 + o as i64,
                    format!("bulk {b} order {o}"),
                )
            })
            .collect();
        payments.push(approved(
            format!("bulk-{b:02}"),
            debtor,
            PaymentService::BulkPayments,
            orders,
        ));
    }
    store
        .table::<Payment>()
        .unwrap()
        .insert_many(&payments)
        .unwrap();
    app.close().unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Starts the binary on `dir`; returns it with its base URL.
fn start(dir: &Path) -> (Child, String) {
    let mut child = binary()
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(dir)
        .env("HOME", dir)
        // A known operator credential, for the workbench API (the rewind trials).
        .env("XS2A_OPERATOR_TOKEN", OPERATOR)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no base URL in '{line}' (did the server start?)"))
        .to_owned();
    (child, base)
}

/// Stops the server with SIGTERM (a clean shutdown) and waits for it.
fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    // However long it takes to finish what it was doing (a server that never stops leaves the trial to
    // the run's own limit).
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "the server stops cleanly on SIGTERM: {status}"
    );
}

fn kill(mut child: Child) {
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}

fn signed(
    client: &reqwest::blocking::Client,
    method: &str,
    base: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: &[u8],
) -> reqwest::blocking::RequestBuilder {
    let credentials = SigningCredentials::from_dir(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/certs/aisp-pisp"),
    )
    .unwrap();
    let mut headers = axum::http::HeaderMap::new();
    for (name, value) in extra {
        headers.insert(
            axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            value.parse().unwrap(),
        );
    }
    if !body.is_empty() {
        headers.insert("content-type", "application/json".parse().unwrap());
    }
    credentials.sign(
        method,
        path,
        &mut headers,
        body,
        NOW,
        &SignOptions::default(),
    );
    client
        .request(method.parse().unwrap(), format!("{base}{path}"))
        .headers(headers)
        .body(body.to_vec())
}

/// The store of a stopped server (or of a store just closed here), waiting out the moment its lock can
/// outlive it: the other trial in this process starts servers meanwhile (`Store::open_once_released`).
fn open_stopped(dir: &Path) -> Store {
    Store::open_once_released(dir, xs2a_core::bank::migrations::active(), 500)
        .expect("the store opens after a clean stop")
}

/// What the store holds, read in-process with the server stopped.
struct Snapshot {
    payments: Vec<Payment>,
    transactions: Vec<Transaction>,
    accounts: Vec<Account>,
    customers: Vec<Customer>,
}

fn snapshot(dir: &Path) -> Snapshot {
    let store = open_stopped(dir);
    let snapshot = Snapshot {
        payments: store.table::<Payment>().unwrap().list().unwrap(),
        // Seeded transactions one by one, payment bookings in one block per run and account.
        transactions: store
            .table::<Transaction>()
            .unwrap()
            .list()
            .unwrap()
            .into_iter()
            .chain(
                store
                    .table::<BookingBlock>()
                    .unwrap()
                    .list()
                    .unwrap()
                    .into_iter()
                    .flat_map(|block| block.transactions),
            )
            .collect(),
        accounts: store.table::<Account>().unwrap().list().unwrap(),
        customers: store.table::<Customer>().unwrap().list().unwrap(),
    };
    store.close().unwrap();
    snapshot
}

/// The ids of the payments some stored authorisation approves.
fn approvable(dir: &Path) -> BTreeSet<String> {
    let store = open_stopped(dir);
    let ids = store
        .table::<xs2a_core::bank::sca::authorisation::Authorisation>()
        .unwrap()
        .list()
        .unwrap()
        .into_iter()
        .flat_map(|auth| auth.payment_ids)
        .collect();
    store.close().unwrap();
    ids
}

/// Every balance entry of every account, by (account, balance type).
fn balances(accounts: &[Account]) -> BTreeMap<(String, String), Decimal> {
    accounts
        .iter()
        .flat_map(|a| {
            a.balances.iter().map(move |b| {
                (
                    (a.id.clone(), format!("{:?}", b.balance_type)),
                    b.balance_amount.amount,
                )
            })
        })
        .collect()
}

/// The checks every trial ends with (see the module documentation).
fn check_consistent(pre: &Snapshot, after: &Snapshot, trial: &str) {
    let payment_bookings: Vec<&Transaction> = after
        .transactions
        .iter()
        .filter(|t| t.source == TransactionSource::Payment)
        .collect();
    let ids: BTreeSet<&str> = payment_bookings.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids.len(),
        payment_bookings.len(),
        "{trial}: a booking id twice"
    );
    let mut referenced = 0;
    for p in &after.payments {
        let booked: Vec<_> = p
            .executions
            .iter()
            .filter(|e| e.status == PaymentStatus::ACSC)
            .collect();
        match p.status {
            PaymentStatus::ACTC | PaymentStatus::RCVD => assert!(
                p.executions.is_empty(),
                "{trial}: payment {} is {:?} but has executions",
                p.id,
                p.status
            ),
            PaymentStatus::ACSC => assert_eq!(
                booked.len(),
                p.payment.orders.len(),
                "{trial}: settled payment {} lacks bookings",
                p.id
            ),
            _ => {}
        }
        for e in booked {
            let id = e.transaction_id.as_deref().unwrap_or_else(|| {
                panic!(
                    "{trial}: payment {} has an execution without a booking",
                    p.id
                )
            });
            assert!(
                ids.contains(id),
                "{trial}: booking {id} of {} missing",
                p.id
            );
            referenced += 1;
        }
    }
    // Every creditor is a sandbox account: each booked order is one debit and one credit.
    assert_eq!(
        payment_bookings.len(),
        2 * referenced,
        "{trial}: bookings without an execution (or executions without both sides)"
    );
    let before = balances(&pre.accounts);
    let now = balances(&after.accounts);
    let mut booked_per_account: HashMap<&str, Decimal> = HashMap::new();
    for t in &payment_bookings {
        *booked_per_account.entry(t.account_id.as_str()).or_default() += t.amount.amount;
    }
    for ((account, kind), amount) in &now {
        let moved = amount
            - before
                .get(&(account.clone(), kind.clone()))
                .copied()
                .unwrap_or_default();
        let booked = booked_per_account
            .get(account.as_str())
            .copied()
            .unwrap_or_default();
        assert_eq!(
            moved, booked,
            "{trial}: {kind} of account {account} moved by {moved}, its bookings sum to {booked}"
        );
    }
    let total = |b: &BTreeMap<(String, String), Decimal>| b.values().copied().sum::<Decimal>();
    assert_eq!(total(&before), total(&now), "{trial}: money is conserved");
}

/// A batch run killed after `delay`: whether it was done.
fn trial_batch_run(
    pre_dir: &Path,
    pre: &Snapshot,
    work: &Path,
    delay: Duration,
    trial: &str,
) -> bool {
    copy_dir(pre_dir, work);
    let (server, base) = start(work);
    let client = reqwest::blocking::Client::new();
    let request = signed(&client, "POST", &base, "/v1/sandbox/batch-runs", &[], b"{}");
    let sender = std::thread::spawn(move || request.send().map(|r| r.status().as_u16()));
    std::thread::sleep(delay);
    kill(server);
    let acknowledged = sender.join().unwrap().ok() == Some(201);
    let (server, _) = start(work);
    stop(server);
    let after = snapshot(work);
    check_consistent(pre, &after, trial);
    let settled = after
        .payments
        .iter()
        .filter(|p| p.status != PaymentStatus::ACTC)
        .count();
    assert!(
        settled == 0 || settled == after.payments.len(),
        "{trial}: a run is all or nothing, yet {settled} of {} payments were decided",
        after.payments.len()
    );
    if acknowledged {
        assert_eq!(
            settled,
            after.payments.len(),
            "{trial}: an acknowledged run is on disk"
        );
    }
    println!(
        "{trial}: killed after {delay:?}; run {}",
        if settled > 0 { "done" } else { "not done" }
    );
    settled > 0
}

/// An initialisation killed after `delay`: whether it was done.
fn trial_initialise(
    pre_dir: &Path,
    pre: &Snapshot,
    work: &Path,
    delay: Duration,
    trial: &str,
) -> bool {
    copy_dir(pre_dir, work);
    let (server, base) = start(work);
    let client = reqwest::blocking::Client::new();
    let request = signed(&client, "POST", &base, "/v1/sandbox/initialize", &[], b"{}");
    let sender = std::thread::spawn(move || request.send().map(|r| r.status().as_u16()));
    std::thread::sleep(delay);
    kill(server);
    let acknowledged = sender.join().unwrap().ok() == Some(200);
    let (server, _) = start(work);
    stop(server);
    let after = snapshot(work);
    let reset = after.payments.is_empty();
    if reset {
        assert_eq!(
            after.customers.len(),
            pre.customers.len(),
            "{trial}: a reset leaves exactly the seed's customers"
        );
        assert!(
            after
                .transactions
                .iter()
                .all(|t| t.source == TransactionSource::Seed),
            "{trial}: a reset leaves only seeded transactions"
        );
    } else {
        assert!(
            !acknowledged,
            "{trial}: an acknowledged initialisation is on disk"
        );
        assert_eq!(
            after.payments.len(),
            pre.payments.len(),
            "{trial}: untouched"
        );
        check_consistent(pre, &after, trial);
    }
    let accounts: BTreeSet<&str> = after.accounts.iter().map(|a| a.id.as_str()).collect();
    for p in &after.payments {
        assert!(
            accounts.contains(p.debtor_account_id.as_str()),
            "{trial}: payment {} points at a deleted account",
            p.id
        );
    }
    println!(
        "{trial}: killed after {delay:?}; initialisation {}",
        if reset { "done" } else { "not done" }
    );
    reset
}

/// Payments created one after another, the server killed once `acks` of them were acknowledged (while the
/// next is under way): counted, not timed.
fn trial_payment_creation(pre_dir: &Path, pre: &Snapshot, work: &Path, acks: usize, trial: &str) {
    copy_dir(pre_dir, work);
    let (server, base) = start(work);
    let kari = pre
        .customers
        .iter()
        .find(|c| c.name == "Kari Nordmann")
        .expect("the seed has Kari");
    let debtor = pre
        .accounts
        .iter()
        .find(|a| a.customer_id == kari.id)
        .expect("Kari has an account");
    let creditor = pre
        .accounts
        .iter()
        .find(|a| a.customer_id != kari.id)
        .unwrap();
    let (kari_number, debtor_bban, creditor_bban) = (
        kari.customer_number.clone(),
        debtor.bban.clone(),
        creditor.bban.clone(),
    );
    let (each_ack, acked) = std::sync::mpsc::channel();
    let sender = std::thread::spawn(move || {
        let client = reqwest::blocking::Client::new();
        let mut acknowledged = Vec::new();
        for i in 0.. {
            let body = serde_json::json!({
                "instructedAmount": {"amount": format!("{}.00", 10 + i), "currency": "NOK"},
                "creditorName": "Ola Nordmann",
                "creditorAccount": {"bban": creditor_bban, "currency": "NOK"},
                "creditorAddress": {"street": "Storgata", "buildingNumber": "1", "postalCode": "0155", "townName": "Oslo", "country": "NO"},
                "debtorAccount": {"bban": debtor_bban, "currency": "NOK"},
                "remittanceInformationUnstructured": format!("crash trial {i}"),
            });
            let body = serde_json::to_vec(&body).unwrap();
            let request = signed(
                &client,
                "POST",
                &base,
                "/v1/payments/norwegian-domestic-credit-transfers",
                &[
                    ("x-accept-fix", "amount-as-string"),
                    ("x-psu-identity", &kari_number),
                    ("tpp-session-id", "crash-trials"),
                    ("tpp-redirect-uri", "https://tpp.example/callback"),
                    ("psu-ip-address", "192.0.2.10"),
                ],
                &body,
            );
            match request.send() {
                Ok(response) if response.status().as_u16() == 201 => {
                    let answer: serde_json::Value = response.json().unwrap();
                    acknowledged.push(answer["paymentId"].as_str().unwrap().to_owned());
                    let _ = each_ack.send(());
                }
                Ok(response) => panic!("refused: {}", response.text().unwrap()),
                Err(_) => break, // killed
            }
        }
        acknowledged
    });
    for _ in 0..acks {
        acked
            .recv()
            .expect("the payments are acknowledged until the kill");
    }
    kill(server);
    let acknowledged = sender.join().unwrap();
    let (server, _) = start(work);
    stop(server);
    let after = snapshot(work);
    let stored: BTreeSet<&str> = after.payments.iter().map(|p| p.id.as_str()).collect();
    for id in &acknowledged {
        assert!(
            stored.contains(id.as_str()),
            "{trial}: acknowledged payment {id} lost"
        );
    }
    // The payment and the authorisation approving it are one write (payment_initiation.rs): no payment is
    // left that no PSU can approve.
    let approved = approvable(work);
    let known: BTreeSet<&str> = pre.payments.iter().map(|p| p.id.as_str()).collect();
    for id in stored.iter().filter(|id| !known.contains(*id)) {
        assert!(
            approved.contains(*id),
            "{trial}: payment {id} was stored without the authorisation that approves it"
        );
    }
    check_consistent(pre, &after, trial);
    println!(
        "{trial}: killed after {acks} acknowledgements; {} payments acknowledged, all present",
        acknowledged.len()
    );
}

#[test]
fn twenty_kill_9_trials_leave_every_operation_whole_or_undone() {
    let seed = std::env::var("XS2A_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| OffsetDateTime::now_utc().unix_timestamp_nanos() as u64 | 1);
    println!("crash trials, XS2A_CRASH_SEED={seed}");
    let mut random = Random(seed);
    let root = tempfile::tempdir().unwrap();
    let pre_dir = root.path().join("pre");
    build_pre_state(&pre_dir);
    let pre = snapshot(&pre_dir);
    assert_eq!(pre.payments.len(), SINGLE_PAYMENTS + BULK_PAYMENTS);

    // Each operation killed until both outcomes are seen (done, not done), the delays found from the
    // outcomes (KillDelays), bounded by tries rather than by time; payment creations killed after a
    // counted number of acknowledgements.
    let mut n = 0;
    let mut next_work = || {
        n += 1;
        (
            root.path().join(format!("trial-{n}")),
            format!("trial {n:2}"),
        )
    };
    let mut runs = KillDelays::new();
    for _ in 0..MAX_TRIES {
        let (work, trial) = next_work();
        let delay = runs.delay(&mut random);
        let done = trial_batch_run(
            &pre_dir,
            &pre,
            &work,
            delay,
            &format!("{trial} (batch run)"),
        );
        runs.outcome(done);
        std::fs::remove_dir_all(&work).unwrap();
        if runs.enough(8) {
            break;
        }
    }
    let mut resets = KillDelays::new();
    for _ in 0..MAX_TRIES {
        let (work, trial) = next_work();
        let delay = resets.delay(&mut random);
        let done = trial_initialise(
            &pre_dir,
            &pre,
            &work,
            delay,
            &format!("{trial} (initialise)"),
        );
        resets.outcome(done);
        std::fs::remove_dir_all(&work).unwrap();
        if resets.enough(6) {
            break;
        }
    }
    for _ in 0..6 {
        let (work, trial) = next_work();
        let acks = 1 + random.below(8) as usize;
        trial_payment_creation(&pre_dir, &pre, &work, acks, &format!("{trial} (payments)"));
        std::fs::remove_dir_all(&work).unwrap();
    }
    for (what, delays) in [("batch run", &runs), ("initialisation", &resets)] {
        println!(
            "{what}: killed {} times when done, {} times before",
            delays.done, delays.undone
        );
        assert!(
            delays.done > 0 && delays.undone > 0,
            "the {what} kills did not see both outcomes in {MAX_TRIES} tries: {} done, {} not",
            delays.done,
            delays.undone
        );
    }
}

/// The most kill trials of one operation: enough for the delays to close in on its span from 20 ms, on a
/// machine of any speed (each try at most doubles the delay).
const MAX_TRIES: u32 = 24;

const OPERATOR: &str = "crash-trials-operator";

/// The whole state of the store in `dir` as a state file, read in-process with the server stopped.
fn state_file(dir: &Path) -> Vec<u8> {
    let store = open_stopped(dir);
    let bytes = xs2a_workbench::state_file::export::export(&store).unwrap();
    store.close().unwrap();
    bytes
}

/// The state file of the state before timeline entry `entry`, from the change journal of `dir`.
fn state_file_before(dir: &Path, entry: u64) -> Vec<u8> {
    let store = open_stopped(dir);
    let journal = store.journal().expect("the journal is on");
    let from = journal.before(entry).expect("within the journal's reach");
    let bytes = xs2a_workbench::state_file::at::export_at(&store, journal, from).unwrap();
    store.close().unwrap();
    bytes
}

/// The id of the newest exchange that ran a batch (`POST /v1/sandbox/batch-runs`) on the timeline of the
/// service at `base`: its writes are attributed to the exchange (the `batch.run` event it published is
/// not their cause when the run happens inside a request).
fn batch_run_entry(client: &reqwest::blocking::Client, base: &str) -> u64 {
    // The run's exchange is handed to the log before its answer leaves, and stored by the log's writer
    // after: looked for until it is there (no deadline; a pause between looks).
    loop {
        let page: serde_json::Value = client
            .get(format!(
                "{base}/workbench/api/traffic?kind=exchange&q=/v1/sandbox/batch-runs"
            ))
            .bearer_auth(OPERATOR)
            .send()
            .unwrap()
            .json()
            .unwrap();
        if let Some(id) = page["entries"][0]["id"].as_u64() {
            return id;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A batch run over every pre-state payment, then the service stopped: the data directory `work`, the
/// batch run's entry, and the state after it (what a rewind to before the run replaces).
fn ran_batch(pre_dir: &Path, work: &Path) -> u64 {
    copy_dir(pre_dir, work);
    let (server, base) = start(work);
    let client = reqwest::blocking::Client::new();
    let status = signed(&client, "POST", &base, "/v1/sandbox/batch-runs", &[], b"{}")
        .send()
        .unwrap()
        .status();
    assert_eq!(status, 201);
    let entry = batch_run_entry(&client, &base);
    stop(server);
    entry
}

fn rewind_request(
    client: &reqwest::blocking::Client,
    base: &str,
    entry: u64,
) -> reqwest::blocking::RequestBuilder {
    client
        .post(format!("{base}/workbench/api/rewind"))
        .bearer_auth(OPERATOR)
        .json(&serde_json::json!({"to": entry, "position": "before"}))
}

#[test]
fn kill_9_during_a_rewind_leaves_the_state_before_or_after_it() {
    let seed = std::env::var("XS2A_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| OffsetDateTime::now_utc().unix_timestamp_nanos() as u64 | 1);
    println!("rewind crash trials, XS2A_CRASH_SEED={seed}");
    let mut random = Random(seed);
    let root = tempfile::tempdir().unwrap();
    let pre_dir = root.path().join("pre");
    build_pre_state(&pre_dir);
    // The batch run settles every payment: the rewind to before it undoes about two thousand records.
    let base_dir = root.path().join("ran");
    let entry = ran_batch(&pre_dir, &base_dir);
    let before_rewind = state_file(&base_dir);
    let after_rewind = state_file_before(&base_dir, entry);
    assert_ne!(before_rewind, after_rewind, "the run changed the state");

    let client = reqwest::blocking::Client::new();
    // Killed until both outcomes are seen, the delays found from the outcomes (KillDelays), bounded by
    // tries rather than by a time measured beforehand.
    let (mut before, mut after) = (0, 0);
    let mut delays = KillDelays::new();
    for n in 0..MAX_TRIES {
        let work = root.path().join(format!("rewind-{n}"));
        copy_dir(&base_dir, &work);
        let (server, base) = start(&work);
        let request = rewind_request(&client, &base, entry);
        let sender = std::thread::spawn(move || request.send().map(|r| r.status().as_u16()));
        let delay = delays.delay(&mut random);
        std::thread::sleep(delay);
        kill(server);
        let acknowledged = sender.join().unwrap().ok() == Some(200);
        let (server, _) = start(&work);
        stop(server);
        let now = state_file(&work);
        if now == after_rewind {
            after += 1;
        } else {
            assert!(
                !acknowledged,
                "rewind {n}: an acknowledged rewind is on disk"
            );
            assert!(
                now == before_rewind,
                "rewind {n} (killed after {delay:?}): the state is neither before nor after the rewind"
            );
            before += 1;
        }
        delays.outcome(now == after_rewind);
        println!(
            "rewind {n}: killed after {delay:?}; {}",
            if now == after_rewind {
                "done"
            } else {
                "not done"
            }
        );
        std::fs::remove_dir_all(&work).unwrap();
        if delays.enough(8) {
            break;
        }
    }
    println!("{before} trials left the state before the rewind, {after} after it");
    assert!(
        before > 0 && after > 0,
        "the kills did not see both outcomes in {MAX_TRIES} tries: {before} before, {after} after"
    );
}
