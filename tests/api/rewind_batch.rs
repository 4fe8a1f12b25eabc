//! Rewinding to a batch run's events (issue 29): a run a request asked for journals its bookings under
//! that request, and a payment's status step belongs to its run, so "rewind to before" such an event
//! returns to before the entry that made its changes, and says so. Money comes back exactly, undoing the
//! rewind books it again, and a run afterwards books once. A point whose rewind changes nothing says so.

use crate::batch::{
    balance, current, money_in_the_sandbox, reload, run_now, savings, seed, single, stored,
};
use crate::helpers::{spawn_app, workbench_api as call, TestApp};
use crate::rewind::settle;
use reqwest::Method;
use serde_json::{json, Value};
use xs2a_core::bank::clock_control::{change, ClockChange};
use xs2a_core::bank::mock::model::BalanceType;
use xs2a_core::bank::pis::status::PaymentStatus;

/// The newest timeline event of `kind` whose data satisfies `matches`.
async fn event(app: &TestApp, kind: &str, matches: impl Fn(&Value) -> bool) -> Value {
    let matches = &matches;
    app.when_logged(|| async move {
        let (_, page) = call(app, Method::GET, "/traffic?kind=event&limit=200", None).await;
        page["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["event"] == kind && matches(&e["data"]))
            .cloned()
    })
    .await
}

async fn rewind(app: &TestApp, to: u64, position: &str) -> Value {
    let (status, body) = call(
        app,
        Method::POST,
        "/rewind",
        Some(json!({"to": to, "position": position})),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn preview(app: &TestApp, to: u64, position: &str) -> Value {
    let (status, body) = call(
        app,
        Method::GET,
        &format!("/rewind/preview?to={to}&position={position}"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body
}

fn available(
    app: &TestApp,
    account: &xs2a_core::bank::mock::model::Account,
) -> rust_decimal::Decimal {
    balance(&reload(app, account), BalanceType::InterimAvailable)
}

#[tokio::test]
async fn rewinding_to_before_a_manual_runs_events_gives_the_money_back_and_a_new_run_books_once() {
    let app = spawn_app().await;
    settle(&app).await;
    let (from, to) = (current(&app), savings(&app));
    seed(&app, &single("r-1", &from, &to, "250.00"));
    let (before_from, before_to) = (available(&app, &from), available(&app, &to));
    let money = money_in_the_sandbox(&app);

    run_now(&app).await;
    assert_eq!(stored(&app, "r-1").status, PaymentStatus::ACSC);
    assert_eq!(
        available(&app, &from),
        before_from - rust_decimal::Decimal::from(250)
    );
    let run = event(&app, "batch.run", |_| true).await;
    let status_step = event(&app, "payment.status", |d| d["paymentId"] == "r-1").await;
    let run_entry = run["id"].as_u64().unwrap();
    let owner = run["data"]["causedBy"]
        .as_u64()
        .expect("the run names the request that asked for it");
    assert!(owner < run_entry, "the request came first");
    assert_eq!(status_step["data"]["causedBy"], owner);

    // Each of the run's events is a point that undoes the run: the preview says what it would undo.
    for point in [run_entry, status_step["id"].as_u64().unwrap()] {
        let would = preview(&app, point, "before").await;
        assert!(would["undone"].as_u64().unwrap() >= 1, "{would}");
        assert!(would["changed"].as_u64().unwrap() >= 1, "{would}");
        assert!(
            would["note"]
                .as_str()
                .unwrap()
                .contains(&format!("entry {owner}")),
            "{would}"
        );
    }
    let rewound = rewind(&app, run_entry, "before").await;
    assert!(rewound["undone"].as_u64().unwrap() >= 1, "{rewound}");
    assert_eq!(
        available(&app, &from),
        before_from,
        "the money is back exactly"
    );
    assert_eq!(available(&app, &to), before_to);
    assert_eq!(money_in_the_sandbox(&app), money);
    assert_eq!(stored(&app, "r-1").status, PaymentStatus::ACTC);

    // Undoing the rewind books it again; rewinding once more and running anew books once.
    rewind(&app, rewound["entry"].as_u64().unwrap(), "before").await;
    assert_eq!(
        available(&app, &from),
        before_from - rust_decimal::Decimal::from(250)
    );
    assert_eq!(stored(&app, "r-1").status, PaymentStatus::ACSC);
    rewind(&app, status_step["id"].as_u64().unwrap(), "before").await;
    assert_eq!(available(&app, &from), before_from);
    let again = run_now(&app).await;
    assert_eq!(again["processed"], 1, "{again}");
    assert_eq!(
        available(&app, &from),
        before_from - rust_decimal::Decimal::from(250),
        "booked once"
    );
    assert_eq!(
        available(&app, &to),
        before_to + rust_decimal::Decimal::from(250)
    );
    assert_eq!(money_in_the_sandbox(&app), money);
}

#[tokio::test]
async fn rewinding_to_before_a_scheduled_runs_event_gives_the_money_back() {
    let app = spawn_app().await;
    settle(&app).await;
    let (from, to) = (current(&app), savings(&app));
    seed(&app, &single("s-1", &from, &to, "75.50"));
    let before_from = available(&app, &from);
    let money = money_in_the_sandbox(&app);

    // Time passing (as the scheduler moves it, outside any request): the day's scheduled runs happen.
    let state = app.state.clone();
    tokio::task::spawn_blocking(move || {
        change(&state, ClockChange::Advance(time::Duration::days(1)))
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(stored(&app, "s-1").status, PaymentStatus::ACSC);
    let booked = before_from - rust_decimal::Decimal::new(7550, 2);
    assert_eq!(available(&app, &from), booked);
    let run = event(&app, "batch.run", |d| {
        d["processed"].as_u64().unwrap_or(0) >= 1
    })
    .await;
    let rewound = rewind(&app, run["id"].as_u64().unwrap(), "before").await;
    assert!(rewound["undone"].as_u64().unwrap() >= 1, "{rewound}");
    assert_eq!(
        available(&app, &from),
        before_from,
        "the money is back exactly"
    );
    assert_eq!(money_in_the_sandbox(&app), money);
    assert_eq!(stored(&app, "s-1").status, PaymentStatus::ACTC);

    rewind(&app, rewound["entry"].as_u64().unwrap(), "before").await;
    assert_eq!(
        available(&app, &from),
        booked,
        "undoing the rewind books it again"
    );
}

#[tokio::test]
async fn a_point_whose_rewind_changes_nothing_says_so() {
    let app = spawn_app().await;
    settle(&app).await;
    // A read changes nothing: rewinding to after the newest exchange has nothing to undo.
    let listed = app.get("/v1/sandbox/customers").send().await;
    listed.assert_ok();
    // The log's writer stores it off the request path: wait for it.
    let newest = crate::rewind::newest_exchange(&app, 1).await;
    let would = preview(&app, newest, "after").await;
    assert_eq!(
        (would["undone"].as_u64(), would["changed"].as_u64()),
        (Some(0), Some(0))
    );
    assert!(
        would["note"]
            .as_str()
            .unwrap()
            .starts_with("Nothing to undo"),
        "{would}"
    );
    let rewound = rewind(&app, newest, "after").await;
    assert_eq!(rewound["changed"], 0);
    assert!(
        rewound["note"]
            .as_str()
            .unwrap()
            .starts_with("Nothing to undo"),
        "{rewound}"
    );
}
