#!/usr/bin/env bash
# Builds a data directory with this release's binary from a fixed script of requests and stores it, compressed,
# under fixtures/data-dirs/<app version>/ with the expectations the test reads (tests/api/data_dirs.rs checks
# that every later build opens it with nothing lost; docs/data-directory.md says when to run this).
#
#   bash scripts/make-data-fixture.sh [--bin PATH] [--out DIR] [--force]
#
# --bin: the xs2a-sandbox binary to drive (default: a release build of this checkout, built here).
# --out: where the version directories go (default: fixtures/data-dirs). --force: replace an existing one.
# Needs curl, jq, tar and gzip. The server runs with a frozen clock, so the content (dates, runs, balances)
# is the same on every run; ids of payments, consents and authorisations are random and written down in
# expected.json.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BIN=""
OUT="fixtures/data-dirs"
FORCE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --force) FORCE=1; shift ;;
    *) echo "usage: $0 [--bin PATH] [--out DIR] [--force]" >&2; exit 2 ;;
  esac
done
for tool in curl jq tar gzip; do
  command -v "$tool" >/dev/null || { echo "$0 needs $tool (apt-get install $tool)" >&2; exit 1; }
done
if [ -z "$BIN" ]; then
  cargo build --release --locked -p xs2a-sandbox --bin xs2a-sandbox
  BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/xs2a-sandbox"
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
VERSION=$("$BIN" --version | awk '{print $2}')
TARGET="$OUT/$VERSION"
if [ -e "$TARGET" ] && [ "$FORCE" != 1 ]; then
  echo "$TARGET exists: a released version's fixture is kept as it is (--force replaces it)" >&2
  exit 1
fi

WORK=$(mktemp -d)
DATA="$WORK/data"
CERT="$ROOT/fixtures/certs/aisp-pisp"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill -KILL "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# --- the server ------------------------------------------------------------------------------------------
START="2026-06-01T09:00:00Z"
"$BIN" serve --data "$DATA" --port 0 --frozen-clock "$START" >"$WORK/serve.out" 2>"$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 200); do
  grep -q '^workbench:' "$WORK/serve.out" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/serve.err" >&2; exit 1; }
  sleep 0.05
done
BASE=$(sed -n 's/^xs2a-sandbox listening on \(http:[^ ]*\).*/\1/p' "$WORK/serve.out")
TOKEN=$(sed -n 's/^workbench: .*token=\(.*\)$/\1/p' "$WORK/serve.out")
[ -n "$BASE" ] && [ -n "$TOKEN" ] || { echo "the server did not say where it listens" >&2; exit 1; }
echo "serving $DATA at $BASE (xs2a-sandbox $VERSION)"

# --- requests ----------------------------------------------------------------------------------------------
# call METHOD PATH [BODY] [-H 'Name: value' ...]: a request signed by the bundled aisp-pisp TPP at the sandbox
# clock's time. Sets STATUS and BODY.
call() {
  local method=$1 path=$2 body="" headers=()
  shift 2
  if [ $# -gt 0 ] && [ "$1" != -H ]; then body=$1; shift; fi
  while [ $# -gt 0 ]; do headers+=(-H "$2"); shift 2; done
  local now
  now=$(curl -sf "$BASE/health" | jq -r .now)
  local sign=("$BIN" sign --cert-dir "$CERT" -X "$method" --url "$BASE$path" --at "$now" "${headers[@]}")
  local send=(curl -s -o "$WORK/body" -w '%{http_code}' -X "$method" -H @"$WORK/headers")
  if [ -n "$body" ]; then
    sign+=(-H 'Content-Type: application/json' --data "$body")
    send+=(--data-binary "$body")
  fi
  "${sign[@]}" >"$WORK/headers"
  STATUS=$("${send[@]}" "$BASE$path")
  BODY=$(cat "$WORK/body")
}

# operator METHOD PATH [BODY]: the workbench API with the operator token the server printed.
operator() {
  local method=$1 path=$2 body=${3:-}
  local send=(curl -s -o "$WORK/body" -w '%{http_code}' -X "$method" -H "Authorization: Bearer $TOKEN")
  if [ -n "$body" ]; then send+=(-H 'Content-Type: application/json' --data-binary "$body"); fi
  STATUS=$("${send[@]}" "$BASE/workbench/api$path")
  BODY=$(cat "$WORK/body")
}

# expect STATUS WHAT: stops the script when the last answer had another status.
expect() {
  if [ "$STATUS" != "$1" ]; then
    echo "$2: expected $1, got $STATUS: $BODY" >&2
    exit 1
  fi
}

sca() { # sca AUTHORISATION_HREF_OR_ID [BODY]: the PSU's part, automated; sets SCA_PSU_ID
  local id=${1##*/}
  call POST "/v1/sandbox/sca/$id" "${2:-}"
  expect 200 "SCA of $id"
  SCA_PSU_ID=$(jq -r '.psuId // empty' <<<"$BODY")
}

KARI=14838510036
PER=23879210003
KARI_CURRENT=12051000003
OLA_CURRENT=12051001018
FIONA=01078900497
FIONA_ACCOUNT=12051503005
COMPANY=914000009
COMPANY_ACCOUNT=12052009004

# --- mock data: customers, accounts, card account, transactions, agreement, settings, a TPP contact ----------
call POST /v1/sandbox/customers "{\"customerNumber\":\"$FIONA\",\"customerName\":\"Fiona Fikstur\",\"customerType\":\"private\"}"
expect 201 "a private customer"
call POST /v1/sandbox/customers "{\"customerNumber\":\"$COMPANY\",\"customerName\":\"Fikstur Handel AS\",\"customerType\":\"corporate\"}"
expect 201 "a corporate customer"
call POST /v1/sandbox/accounts "{\"customerNumber\":\"$FIONA\",\"accountName\":\"Brukskonto\",\"bban\":\"$FIONA_ACCOUNT\",\"currency\":\"NOK\",\"product\":\"Brukskonto\",\"cashAccountType\":\"CACC\",\"creditLine\":\"500.00\",\"balances\":[{\"balanceType\":\"interimAvailable\",\"balanceAmount\":{\"amount\":\"2500.00\",\"currency\":\"NOK\"}},{\"balanceType\":\"closingBooked\",\"balanceAmount\":{\"amount\":\"2400.00\",\"currency\":\"NOK\"}}]}"
expect 201 "Fiona's account"
FIONA_ACCOUNT_ID=$(jq -r .id <<<"$BODY")
call POST /v1/sandbox/accounts "{\"customerNumber\":\"$COMPANY\",\"accountName\":\"Driftskonto\",\"bban\":\"$COMPANY_ACCOUNT\",\"currency\":\"NOK\",\"balances\":[{\"balanceType\":\"interimAvailable\",\"balanceAmount\":{\"amount\":\"150000.00\",\"currency\":\"NOK\"}}]}"
expect 201 "the company's account"
call POST "/v1/sandbox/accounts/$FIONA_ACCOUNT_ID/transactions" '[{"amount":"-125.50","currency":"NOK","bookingDate":"2026-05-30","remittanceInformationUnstructured":"Kaffe"},{"amount":"32000.00","currency":"NOK","bookingDate":"2026-05-25","remittanceInformationUnstructured":"Lønn mai"},{"amount":"-89.00","currency":"NOK","status":"pending","valueDate":"2026-06-02","remittanceInformationUnstructured":"Kino"}]'
expect 201 "Fiona's transactions"
call POST /v1/sandbox/card-accounts "{\"customerNumber\":\"$FIONA\",\"maskedPan\":\"5555 55** **** 9876\",\"currency\":\"NOK\",\"creditLimit\":{\"currency\":\"NOK\",\"amount\":\"20000.00\"},\"balances\":[{\"balanceType\":\"interimBooked\",\"balanceAmount\":{\"currency\":\"NOK\",\"amount\":\"-1200.00\"}}],\"name\":\"Fiona Visa\",\"product\":\"Visa Classic\",\"status\":\"ENABLED\",\"relatedAccount\":\"$FIONA_ACCOUNT\"}"
expect 201 "Fiona's card account"
FIONA_CARD_ID=$(jq -r .id <<<"$BODY")
call POST "/v1/sandbox/card-accounts/$FIONA_CARD_ID/transactions" '[{"transactionAmount":{"currency":"NOK","amount":"-349.00"},"bookingDate":"2026-05-29","transactionDate":"2026-05-28","transactionDetails":"Bokhandel"},{"transactionAmount":{"currency":"NOK","amount":"-851.00"},"bookingDate":"2026-05-31","transactionDate":"2026-05-30","merchantCategoryCode":"5411","transactionDetails":"Dagligvarer"},{"transactionAmount":{"currency":"NOK","amount":"-99.00"},"status":"pending","transactionDate":"2026-06-01","transactionDetails":"Strømmetjeneste"}]'
expect 201 "card transactions"
call POST /v1/sandbox/agreements "{\"owner\":\"$COMPANY\",\"name\":\"Fikstur Handel AS - nettbank\",\"engagements\":[{\"customer\":\"$FIONA\",\"account\":{\"bban\":\"$COMPANY_ACCOUNT\"},\"roles\":[\"VIEW\",\"REGISTER\"]}]}"
expect 201 "an agreement"
call PUT /v1/sandbox/settings '{"reproducePendingTransactionsIssue":false}'
expect 200 "a setting"
call PUT /v1/tpp-dialogue/contact '{"email":"psd2-support@fikstur.example"}'
expect 200 "a TPP contact"

# --- consents after SCA: Kari's and Fiona's (valid), Per's (revoked at the bank) ---------------------------------
consent() { # consent SESSION NATIONAL_ID -> sets PSU_ID
  call GET /v1/accounts -H "TPP-Session-ID: $1" -H 'TPP-Redirect-URI: https://tpp.example/callback' -H 'PSU-IP-Address: 192.0.2.10'
  expect 401 "no consent yet ($2)"
  sca "$(jq -r ._links.scaRedirect.href <<<"$BODY")" "{\"nationalId\":\"$2\"}"
  PSU_ID=$SCA_PSU_ID
  call GET /v1/accounts -H "TPP-Session-ID: $1" -H 'TPP-Redirect-URI: https://tpp.example/callback' -H 'PSU-IP-Address: 192.0.2.10' -H "PSU-ID: $PSU_ID"
  expect 200 "accounts after SCA ($2)"
}
consent fixture-kari $KARI
KARI_PSU=$PSU_ID
consent fixture-fiona $FIONA
FIONA_PSU=$PSU_ID
consent fixture-per $PER
PER_PSU=$PSU_ID
call POST /v1/sandbox/consents/revoke "{\"customerNumber\":\"$PER\"}"
expect 200 "Per revokes his consent at the bank"

# A request the gate refuses (signed for another path): an inspector entry with a failed step.
now=$(curl -sf "$BASE/health" | jq -r .now)
"$BIN" sign --cert-dir "$CERT" --url "$BASE/v1/sandbox/customers" --at "$now" >"$WORK/headers"
STATUS=$(curl -s -o "$WORK/body" -w '%{http_code}' -H @"$WORK/headers" "$BASE/v1/sandbox/customers?limit=1")
BODY=$(cat "$WORK/body")
expect 400 "a refused signature"

# The state before any payment, kept as a named snapshot (the test restores it).
operator PUT /snapshots/before-payments
expect 201 "a snapshot"

# --- payments in every status -----------------------------------------------------------------------------
KARI_H=(-H 'TPP-Session-ID: fixture-kari' -H 'TPP-Redirect-URI: https://tpp.example/callback' -H 'PSU-IP-Address: 192.0.2.10' -H "PSU-ID: $KARI_PSU" -H 'x-accept-fix: amount-as-string')
STRAKS=/v1/payments/instant-norwegian-domestic-credit-transfers-straks
DOMESTIC=/v1/payments/norwegian-domestic-credit-transfers
PERIODIC=/v1/periodic-payments/norwegian-domestic-credit-transfers
BULK=/v1/bulk-payments/norwegian-domestic-credit-transfers
ADDRESS='"creditorAddress":{"street":"Storgata","buildingNumber":"1","postalCode":"0155","townName":"Oslo","country":"NO"}'
transfer() { # transfer AMOUNT REMITTANCE_MEMBER [EXTRA_MEMBERS]
  echo "{\"instructedAmount\":{\"currency\":\"NOK\",\"amount\":\"$1\"},\"debtorAccount\":{\"bban\":\"$KARI_CURRENT\",\"currency\":\"NOK\"},\"creditorName\":\"Ola Nordmann\",\"creditorAccount\":{\"bban\":\"$OLA_CURRENT\",\"currency\":\"NOK\"},$ADDRESS,$2${3:+,$3}}"
}
pay() { # pay PATH BODY -> PAYMENT_ID, PAYMENT_SCA
  call POST "$1" "$2" "${KARI_H[@]}"
  expect 201 "payment at $1"
  PAYMENT_ID=$(jq -r .paymentId <<<"$BODY")
  PAYMENT_SCA=$(jq -r ._links.scaRedirect.href <<<"$BODY")
}
paid() { pay "$@"; sca "$PAYMENT_SCA"; } # created and approved by Kari

pay $STRAKS "$(transfer 100.00 '"remittanceInformationUnstructured":"Venter på godkjenning"')"
RCVD_ID=$PAYMENT_ID
paid $STRAKS "$(transfer 250.00 '"remittanceInformationUnstructured":"Middag"')"
STRAKS_ACSC_ID=$PAYMENT_ID
pay $STRAKS "$(transfer 10.00 '"remittanceInformationUnstructured":"Angret"')"
CANC_ID=$PAYMENT_ID
call DELETE "$STRAKS/$CANC_ID" "${KARI_H[@]}"
expect 204 "a cancelled payment"
paid $DOMESTIC "$(transfer 300.00 '"remittanceInformationUnstructured":"Husleie juni"')"
DOMESTIC_ACSC_ID=$PAYMENT_ID
paid $DOMESTIC "$(transfer 75.00 '"remittanceInformationUnstructured":"SANDBOX:RJCT avvist"')"
RJCT_ID=$PAYMENT_ID
paid $DOMESTIC "$(transfer 60.00 '"remittanceInformationUnstructured":"SANDBOX:ACCP mangler dekning"')"
ACCP_ID=$PAYMENT_ID
paid $DOMESTIC "$(transfer 45.00 '"remittanceInformationUnstructured":"SANDBOX:PDNG venter"')"
PDNG_ID=$PAYMENT_ID
KID=123456785
paid $DOMESTIC "$(transfer 199.00 "\"remittanceInformationStructured\":{\"reference\":\"$KID\",\"referenceType\":\"KID\"}")"
FORCED_ID=$PAYMENT_ID
call PUT "/v1/sandbox/payments/$FORCED_ID/forced-outcome" '{"outcome":"RJCT"}'
expect 200 "a forced outcome"
paid $PERIODIC "$(transfer 500.00 '"remittanceInformationUnstructured":"Sparing"' '"startDate":"2026-06-15","frequency":"Monthly","dayOfExecution":"15"')"
ACSP_ID=$PAYMENT_ID
order() { echo "{\"instructedAmount\":{\"currency\":\"NOK\",\"amount\":\"$1\"},\"creditorName\":\"Ola Nordmann\",\"creditorAccount\":{\"bban\":\"$OLA_CURRENT\",\"currency\":\"NOK\"},$ADDRESS${2:+,$2}}"; }
paid $BULK "{\"debtorAccount\":{\"bban\":\"$KARI_CURRENT\",\"currency\":\"NOK\"},\"payments\":[$(order 92.01 '"remittanceInformationUnstructured":"SANDBOX:PART"'),$(order 92.02)]}"
PART_ID=$PAYMENT_ID

# A basket of two domestic payments, approved with one SCA.
pay $DOMESTIC "$(transfer 11.00 '"remittanceInformationUnstructured":"Kurv 1"')"
BASKET_1=$PAYMENT_ID
pay $DOMESTIC "$(transfer 12.00 '"remittanceInformationUnstructured":"Kurv 2"')"
BASKET_2=$PAYMENT_ID
call POST /v1/signing-baskets "{\"paymentIds\":[\"$BASKET_1\",\"$BASKET_2\"]}" "${KARI_H[@]}"
expect 201 "a basket"
BASKET_ID=$(jq -r .basketId <<<"$BODY")
sca "$(jq -r ._links.scaRedirect.href <<<"$BODY")"

# --- the clock moves past the 11:00 run (performed on the way), a run on demand, then 11:30 -----------------
call PUT /v1/sandbox/clock '{"advance":"PT2H"}'
expect 200 "the clock moved to 11:00"
paid $DOMESTIC "$(transfer 20.00 '"remittanceInformationUnstructured":"Bokført ved kjøring på forespørsel"')"
BOOKED_ON_DEMAND_ID=$PAYMENT_ID
call POST /v1/sandbox/batch-runs '{}'
expect 201 "a batch run on demand"
call PUT /v1/sandbox/clock '{"advance":"PT30M"}'
expect 200 "the clock at 11:30"
paid $DOMESTIC "$(transfer 21.00 '"remittanceInformationUnstructured":"Venter på kjøringen 14:00"')"
ACTC_ID=$PAYMENT_ID

# --- the workbench: an issued persona, a composer request, a captured SCA redirect ---------------------------
operator POST /personas '{"name":"Fikstur TPP","roles":["PSP_AI","PSP_PI"]}'
expect 201 "an issued persona"
PERSONA_ID=$(jq -r .id <<<"$BODY")
operator POST /compose/send '{"personaId":"bundled-aisp-pisp","method":"GET","path":"/v1/sandbox/customers","headers":[]}'
expect 200 "a composer request"
CALLBACK="$BASE/workbench/callback?persona=bundled-aisp-pisp"
call GET /v1/accounts -H 'TPP-Session-ID: fixture-callback' -H "TPP-Redirect-URI: $CALLBACK" -H 'PSU-IP-Address: 192.0.2.10'
expect 401 "a consent journey back to the workbench"
sca "$(jq -r ._links.scaRedirect.href <<<"$BODY")" "{\"nationalId\":\"$KARI\"}"
STATUS=$(curl -s -o "$WORK/body" -w '%{http_code}' "$(jq -r .redirect <<<"$BODY")")
BODY=$(cat "$WORK/body")
expect 200 "the redirect captured by the workbench"

# --- unattended reads (no PSU-IP-Address): what each consent allows at the stored clock ---------------------
account_id() { operator GET /sandbox/customers; jq -r --arg b "$1" '.[].accounts[] | select(.bban == $b) | .id' <<<"$BODY"; }
KARI_ACCOUNT_ID=$(account_id $KARI_CURRENT)
PER_ACCOUNT_ID=$(account_id 12051002006)
CHECKS="[]"
unattended() { # unattended PSU_ID ACCOUNT_ID: reads its balances as a TPP does with the PSU away
  call GET "/v1/accounts/$2/balances" -H "PSU-ID: $1"
  CHECKS=$(jq -c --arg psu "$1" --arg account "$2" --argjson status "$STATUS" --argjson body "$BODY" \
    '. + [{psuId: $psu, accountId: $account, status: $status, code: ($body.tppMessages[0].code // null)}]' <<<"$CHECKS")
}
unattended "$KARI_PSU" "$KARI_ACCOUNT_ID"
unattended "$FIONA_PSU" "$FIONA_ACCOUNT_ID"
unattended "$PER_PSU" "$PER_ACCOUNT_ID"

# --- what was made, read back through the API: the expectations the test checks -----------------------------
J="$WORK/expected"
mkdir -p "$J"
operator GET /sandbox/clock; jq '{now, mode}' <<<"$BODY" >"$J/clock.json"
operator GET /sandbox/customers; CUSTOMERS=$BODY
jq 'map({id, customerNumber, name, type, accounts: [.accounts[].id], cardAccounts: [.cardAccounts[].id]}) | sort_by(.id)' \
  <<<"$CUSTOMERS" >"$J/customers.json"
echo '[]' >"$J/accounts.json"
for id in $(jq -r '.[].accounts[].id' <<<"$CUSTOMERS"); do
  call GET "/v1/sandbox/accounts/$id"; expect 200 "account $id"; ACCOUNT=$BODY
  call GET "/v1/sandbox/accounts/$id/transactions?limit=100000"; expect 200 "transactions of $id"
  jq --argjson a "$ACCOUNT" --argjson t "$BODY" '. + [{id: $a.id, bban: $a.bban, currency: $a.currency,
      balances: [$a.balances[] | {balanceType, amount: .balanceAmount.amount, currency: .balanceAmount.currency}],
      transactions: {booked: [$t[] | select(.status != "pending")] | length, pending: [$t[] | select(.status == "pending")] | length}}]' \
    "$J/accounts.json" >"$J/a.tmp" && mv "$J/a.tmp" "$J/accounts.json"
done
echo '[]' >"$J/cards.json"
for id in $(jq -r '.[].cardAccounts[].id' <<<"$CUSTOMERS"); do
  call GET "/v1/sandbox/card-accounts/$id"; expect 200 "card account $id"; CARD=$BODY
  call GET "/v1/sandbox/card-accounts/$id/transactions?bookingStatus=both&limit=100000"; expect 200 "card transactions of $id"
  jq --argjson c "$CARD" --argjson t "$BODY" '. + [{id: $c.id, maskedPan: $c.maskedPan,
      balances: [$c.balances[] | {balanceType, amount: .balanceAmount.amount, currency: .balanceAmount.currency}],
      transactions: {booked: ($t.cardTransactions.booked | length), pending: ($t.cardTransactions.pending | length)}}]' \
    "$J/cards.json" >"$J/a.tmp" && mv "$J/a.tmp" "$J/cards.json"
done
operator GET '/sandbox/payments?limit=1000'
jq 'map({paymentId, service, product, status, amount, currency, debtor, fundsAvailable, forcedOutcome}) | sort_by(.paymentId)' \
  <<<"$BODY" >"$J/payments.json"
call GET "/v1/signing-baskets/$BASKET_ID" "${KARI_H[@]}"; expect 200 "the basket"
jq --arg id "$BASKET_ID" '[{basketId: $id, transactionStatus, payments}]' <<<"$BODY" >"$J/baskets.json"
operator GET /sandbox/consents
jq 'map({customerNumber, tppId: .consent.tppId, agreementId: .consent.agreementId, accounts: .consent.accounts,
  cardAccounts: .consent.cardAccounts, scaAt: .consent.scaAt}) | sort_by(.customerNumber)' <<<"$BODY" >"$J/consents.json"
operator GET /sandbox/batch-runs
jq '{runs: [.runs[] | {id, at, trigger, processed, outcomes: [.outcomes[] | {paymentId, after}]}], scheduled}' <<<"$BODY" >"$J/runs.json"
operator GET /snapshots; jq 'map({name, takenAt})' <<<"$BODY" >"$J/snapshots.json"
operator GET /snapshots/before-payments
jq '{customers: (.trees["sandbox-customers"] | length), payments: (.trees.payments // [] | length)}' <<<"$BODY" >"$J/snapshot.json"
operator GET /sandbox/settings; cp "$WORK/body" "$J/settings.json"
call GET /v1/tpp-dialogue/contact; expect 200 "the TPP contact"; cp "$WORK/body" "$J/contact.json"
operator GET /personas; jq 'map({id, name, source, roles}) | sort_by(.id)' <<<"$BODY" >"$J/personas.json"
operator GET /compose/history; jq 'map({method, path, status})' <<<"$BODY" >"$J/history.json"
operator GET /sca/callbacks; jq 'map({outcome, personaId, context})' <<<"$BODY" >"$J/callbacks.json"
operator GET /journeys?limit=1000; jq 'map({id, kind, status, entries}) | sort_by(.id)' <<<"$BODY" >"$J/journeys.json"
operator GET '/traffic?limit=1000'
[ "$(jq .nextBefore <<<"$BODY")" = null ] || { echo "more than 1000 traffic entries: the script grew, page through them" >&2; exit 1; }
jq '[.entries[] | {id, kind, at, method, path, status, failedStep, code, event}] | map(with_entries(select(.value != null)))' \
  <<<"$BODY" >"$J/traffic.json"

# --- stop cleanly, store the directory and what it holds ------------------------------------------------------
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || { echo "the server did not stop cleanly" >&2; cat "$WORK/serve.err" >&2; exit 1; }
SERVER_PID=""
FORMAT=1
if [ -f "$DATA/format.json" ]; then FORMAT=$(jq .format "$DATA/format.json"); fi
rm -f "$DATA/instance.json"
jq -n --arg app "$VERSION" --arg checkout "$(git describe --always --dirty 2>/dev/null || echo unknown)" \
  --argjson format "$FORMAT" --argjson checks "$CHECKS" \
  --arg rcvd "$RCVD_ID" --arg straks "$STRAKS_ACSC_ID" --arg canc "$CANC_ID" --arg domestic "$DOMESTIC_ACSC_ID" \
  --arg rjct "$RJCT_ID" --arg accp "$ACCP_ID" --arg pdng "$PDNG_ID" --arg forced "$FORCED_ID" --arg acsp "$ACSP_ID" \
  --arg part "$PART_ID" --arg ondemand "$BOOKED_ON_DEMAND_ID" --arg actc "$ACTC_ID" --arg basket "$BASKET_ID" \
  --arg kari "$KARI_PSU" --arg fiona "$FIONA_PSU" --arg per "$PER_PSU" --arg persona "$PERSONA_ID" \
  --slurpfile clock "$J/clock.json" --slurpfile customers "$J/customers.json" --slurpfile accounts "$J/accounts.json" \
  --slurpfile cards "$J/cards.json" --slurpfile payments "$J/payments.json" --slurpfile baskets "$J/baskets.json" \
  --slurpfile consents "$J/consents.json" --slurpfile runs "$J/runs.json" --slurpfile snapshots "$J/snapshots.json" \
  --slurpfile snapshot "$J/snapshot.json" --slurpfile settings "$J/settings.json" --slurpfile contact "$J/contact.json" \
  --slurpfile personas "$J/personas.json" --slurpfile history "$J/history.json" --slurpfile callbacks "$J/callbacks.json" \
  --slurpfile journeys "$J/journeys.json" --slurpfile traffic "$J/traffic.json" '{
    madeBy: {app: $app, checkout: $checkout, script: "scripts/make-data-fixture.sh"},
    dataFormat: $format,
    clock: $clock[0],
    named: {psuIds: {kari: $kari, fiona: $fiona, per: $per}, persona: $persona, basket: $basket,
      payments: {"straks RCVD": $rcvd, "straks ACSC": $straks, "straks CANC": $canc, "domestic ACSC at the 11:00 run": $domestic,
        "domestic RJCT (SANDBOX:RJCT)": $rjct, "domestic ACCP (SANDBOX:ACCP)": $accp, "domestic PDNG (SANDBOX:PDNG)": $pdng,
        "domestic RJCT (forced outcome on a KID)": $forced, "periodic ACSP": $acsp, "bulk PART (SANDBOX:PART)": $part,
        "domestic ACSC at the run on demand": $ondemand, "domestic ACTC (waits for 14:00)": $actc}},
    customers: $customers[0], accounts: $accounts[0], cardAccounts: $cards[0],
    payments: $payments[0], baskets: $baskets[0], consents: $consents[0], unattendedReads: $checks,
    batchRuns: $runs[0], snapshots: $snapshots[0], snapshotBeforePayments: $snapshot[0],
    settings: $settings[0], tppContact: $contact[0], personas: $personas[0], composerHistory: $history[0],
    callbacks: $callbacks[0], journeys: $journeys[0], traffic: $traffic[0]
  }' >"$J/expected.json"

mkdir -p "$TARGET"
tar -C "$WORK" --sort=name --owner=0 --group=0 --numeric-owner -cf - data | gzip -9n >"$TARGET/data.tar.gz"
cp "$J/expected.json" "$TARGET/expected.json"
echo "stored $TARGET: data.tar.gz $(stat -c %s "$TARGET/data.tar.gz") bytes (the directory: $(du -sb "$DATA" | cut -f1) bytes," \
  "$(du -sk "$DATA" | cut -f1) KiB on disk), expected.json $(jq '.payments | length' "$J/expected.json") payments," \
  "$(jq '.traffic | length' "$J/expected.json") traffic entries"
