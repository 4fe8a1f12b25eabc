#!/usr/bin/env bash
# The container image's checks with podman, as a user runs it (docs/install.md, "The container image";
# docs/reference/access.md, "In a container"): its labels and user; shared mode by default with the operator
# token from a mounted secret, the workbench opened from the host through the published port; the one
# switch (XS2A_MODE=loopback) and the README's walkthrough signed from the host through the port;
# `serve --fixture` from a mounted state file and `replay` of a recorded flow from a second container
# against the first; SIGTERM (the clean close and its time, measured); the data surviving `podman rm` and
# a new container on the volume; --read-only with a tmpfs /tmp; a 0.1.0 data directory migrated in a
# volume; the health check that needs no shell. Then the documentation's own commands as written
# (scripts/container-recipes.py).
#
#   bash scripts/test-container.sh                 # packages target/release/xs2a-sandbox (CI: the release
#                                                  #   build it has) with scripts/build-image.sh, then checks
#   bash scripts/test-container.sh --image NAME    # checks an image already built (e.g. the musl one)
#
# The host's CLI (signing from the host) is XS2A_SANDBOX_BIN, default target/release/xs2a-sandbox. Every
# container, volume and pod it makes is named xs2a-ci-… and removed at the end; nothing else is touched.
# Prints "N passed, M failed" and exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/container/containers.conf}"
host_cli=$(realpath "${XS2A_SANDBOX_BIN:-$root/target/release/xs2a-sandbox}")
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
# The name the documentation uses: the docs' commands then run as written against this image.
published="ghcr.io/owner/xs2a-sandbox:$version"
image=""
while [ $# -gt 0 ]; do
  case "$1" in
    --image) image="$2"; shift 2 ;;
    *) echo "test-container.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d)
cleanup() {
  local names
  names=$(podman ps -a --format '{{.Names}}' | grep '^xs2a-ci-' || true)
  [ -z "$names" ] || podman rm -f -v -t 0 $names >/dev/null 2>&1 || true
  names=$(podman pod ls --format '{{.Name}}' | grep '^xs2a-ci-' || true)
  [ -z "$names" ] || podman pod rm -f $names >/dev/null 2>&1 || true
  names=$(podman volume ls --format '{{.Name}}' | grep '^xs2a-ci-' || true)
  [ -z "$names" ] || podman volume rm -f $names >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
cleanup_leftovers() { cleanup; work=$(mktemp -d); }
cleanup_leftovers

source scripts/container-checks.sh
# Waits until a container's log holds TEXT (bounded by tries).
wait_log() {
  local name="$1" text="$2" tries=0
  until podman logs "$name" 2>&1 | grep -qF -- "$text"; do
    tries=$((tries + 1))
    [ "$tries" -lt 150 ] || { podman logs "$name"; return 1; }
    sleep 0.2
  done
}
start() { # start NAME [podman run options…] -- [command…]: a detached container of the image
  local name="$1"
  shift
  local options=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  podman run -d --name "$name" --health-interval=disable "${options[@]}" "$published" "$@" >/dev/null
}
signed_curl() { # signed_curl METHOD URL [curl args…]: signed by the host's CLI with $work/acme
  local method="$1" url="$2"
  shift 2
  "$host_cli" sign --cert-dir "$work/acme" -X "$method" --url "$url" >"$work/headers.txt"
  curl -s -X "$method" -H @"$work/headers.txt" "$@" "$url"
}
status_of() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

echo "== the image"
if [ -z "$image" ]; then
  bash scripts/build-image.sh --binary "$host_cli"
  image="xs2a-sandbox:$version-amd64"
fi
podman tag "$image" "$published"
inspect() { podman image inspect --format "$1" "$published"; }
check "labels: version $version" test "$(inspect '{{index .Labels "org.opencontainers.image.version"}}')" = "$version"
check "labels: source and revision" test -n "$(inspect '{{index .Labels "org.opencontainers.image.source"}}')$(inspect '{{index .Labels "org.opencontainers.image.revision"}}')"
check "labels: the licences include the project's (MIT)" contains "$(inspect '{{index .Labels "org.opencontainers.image.licenses"}}')" "MIT"
check "runs as uid 10001, not root" test "$(inspect '{{.Config.User}}')" = "10001:10001"
check "the entrypoint is the CLI" test "$(inspect '{{json .Config.Entrypoint}}')" = '["/usr/local/bin/xs2a-sandbox"]'
echo "size: $(inspect '{{.Size}}') bytes uncompressed"
podman run --rm "$published" --version >"$work/version.txt"
check "--version from the image" contains "$(cat "$work/version.txt")" "xs2a-sandbox $version"
"$host_cli" cert issue --roles PSP_AI,PSP_PI --name "Container CI TPP" --out "$work/acme" >/dev/null

echo "== shared by default: the operator token from a mounted secret, the workbench through the port"
port=$(free_port)
printf 'a-token-from-a-secret\n' >"$work/operator-token"
start xs2a-ci-shared -p "127.0.0.1:$port:8080" -v "$work/operator-token:/run/secrets/operator-token:ro" \
  -e XS2A_OPERATOR_TOKEN_FILE=/run/secrets/operator-token -- serve --trust-test-ca
wait_up "http://127.0.0.1:$port"
wait_log xs2a-ci-shared "workbench:"
log=$(podman logs xs2a-ci-shared 2>&1)
check "mode: shared, by default" contains "$log" "mode: shared"
check "the URL printed is the host's, not 0.0.0.0" contains "$log" "listening on http://127.0.0.1:8080 (bound to 0.0.0.0:8080)"
check "a token from a file is never printed" lacks "$log" "a-token-from-a-secret"
check "the workbench line names the secret's file" contains "$log" "?token=<the operator token in /run/secrets/operator-token>"
base="http://127.0.0.1:$port"
check "a signed mock-data read is open" contains "$(signed_curl GET "$base/v1/sandbox/customers")" "Kari Nordmann"
check "a bank-side control without the credential: 403 FORBIDDEN" contains "$(signed_curl GET "$base/v1/sandbox/clock" -w ' %{http_code}')" '"code":"FORBIDDEN"'
check "a bank-side control with it: 200" test "$(signed_curl GET "$base/v1/sandbox/clock" -H 'Authorization: Bearer a-token-from-a-secret' -o /dev/null -w '%{http_code}')" = 200
check "the workbench page opens from the host through the published port" test "$(status_of "$base/workbench/")" = 200
check "the workbench API with the credential: 200, shared" contains "$(curl -s -H 'Authorization: Bearer a-token-from-a-secret' "$base/workbench/api/session")" '"mode":"shared"'
check "the workbench API without it: 401" test "$(status_of "$base/workbench/api/session")" = 401
check "another host name through the port: 403" test "$(status_of -H 'Host: evil.example' -H 'Authorization: Bearer a-token-from-a-secret' "$base/workbench/api/session")" = 403
check "the health check needs no shell (podman healthcheck run)" podman healthcheck run xs2a-ci-shared
podman rm -f -v -t 0 xs2a-ci-shared >/dev/null

echo "== the switch (XS2A_MODE=loopback, published on 127.0.0.1): the README's walkthrough from the host"
port=$(free_port)
base="http://127.0.0.1:$port"
start xs2a-ci-loopback -p "127.0.0.1:$port:8080" -v xs2a-ci-data:/data -e XS2A_MODE=loopback --
wait_up "$base"
wait_log xs2a-ci-loopback "workbench:"
check "mode: loopback with the switch" contains "$(podman logs xs2a-ci-loopback 2>&1)" "mode: loopback"
python3 - "$root/README.md" >"$work/walkthrough.sh" <<'PY'
import sys
blocks, current = [], None
for line in open(sys.argv[1], encoding="utf-8").read().splitlines():
    if current is None and line.strip() == "```sh walkthrough":
        current = []
    elif current is not None and line.strip() == "```":
        blocks.append("\n".join(current)); current = None
    elif current is not None:
        current.append(line)
print("set -euo pipefail\n" + "\n".join(blocks))
PY
sed -i "s/127\.0\.0\.1:8080/127.0.0.1:$port/g" "$work/walkthrough.sh"
mkdir -p "$work/walkthrough"
walk() { (cd "$work/walkthrough" && PATH="$(dirname "$host_cli"):$PATH" bash "$work/walkthrough.sh"); }
walk >"$work/walkthrough.out" 2>&1 || true
out=$(cat "$work/walkthrough.out")
for expected in "Kari Nordmann" "Signing string computed by the sandbox" "scaRedirect" '"psuId"' '"iban"' \
  '"transactionStatus":"RCVD"' '"transactionStatus":"ACSC"'; do
  check "walkthrough through the port: $expected" contains "$out" "$expected"
done

echo "== the data survives: SIGTERM, podman rm, a new container on the volume"
# The body is signed too (its Digest), as in the walkthrough.
"$host_cli" sign --cert-dir "$work/acme" -X POST --url "$base/v1/sandbox/customers" \
  -H 'Content-Type: application/json' \
  --data '{"customerNumber": "01078900497", "customerName": "Fiona Container", "customerType": "private"}' >"$work/headers.txt"
created=$(curl -s -H @"$work/headers.txt" \
  --data '{"customerNumber": "01078900497", "customerName": "Fiona Container", "customerType": "private"}' \
  -w ' %{http_code}' "$base/v1/sandbox/customers")
check "a customer created (201)" contains "$created" " 201"
stop_started=$(date +%s%N)
podman kill --signal TERM xs2a-ci-loopback >/dev/null
exit_code=$(podman wait --interval 10ms xs2a-ci-loopback)
stop_ms=$((($(date +%s%N) - stop_started) / 1000000))
log=$(podman logs xs2a-ci-loopback 2>&1)
check "SIGTERM: exit 0" test "$exit_code" = 0
check "SIGTERM: the store closed" contains "$log" "stopped, the store closed,"
echo "SIGTERM to stopped: $(grep -o '[0-9]* ms after the stop signal' <<<"$log" || echo '?') (inside); $stop_ms ms from podman kill to podman wait returning (host)"
podman rm xs2a-ci-loopback >/dev/null
port=$(free_port)
base="http://127.0.0.1:$port"
start xs2a-ci-again -p "127.0.0.1:$port:8080" -v xs2a-ci-data:/data -e XS2A_MODE=loopback --
wait_up "$base"
check "a new container on the same volume serves the customer" contains "$(signed_curl GET "$base/v1/sandbox/customers")" "Fiona Container"
podman rm -f -v -t 0 xs2a-ci-again >/dev/null

echo "== --read-only, a tmpfs /tmp"
port=$(free_port)
base="http://127.0.0.1:$port"
start xs2a-ci-readonly --read-only --tmpfs /tmp -p "127.0.0.1:$port:8080" -v xs2a-ci-data:/data -e XS2A_MODE=loopback --
wait_up "$base"
check "read-only root: the volume's data served" contains "$(signed_curl GET "$base/v1/sandbox/customers")" "Fiona Container"
"$host_cli" sign --cert-dir "$work/acme" -X PUT --url "$base/v1/sandbox/clock" -H 'Content-Type: application/json' \
  --data '{"mode": "frozen"}' >"$work/headers.txt"
check "read-only root: a durable write (the clock frozen) answers 200" test "$(curl -s -X PUT -H @"$work/headers.txt" --data '{"mode": "frozen"}' -o /dev/null -w '%{http_code}' "$base/v1/sandbox/clock")" = 200
podman rm -f -v -t 0 xs2a-ci-readonly >/dev/null
port=$(free_port)
start xs2a-ci-readonly-ephemeral --read-only --tmpfs /tmp -p "127.0.0.1:$port:8080" -- serve --ephemeral
check "read-only root: serve --ephemeral (its store under /tmp) answers" wait_up "http://127.0.0.1:$port"
podman rm -f -v -t 0 xs2a-ci-readonly-ephemeral >/dev/null

echo "== serve --fixture from a mounted state file; replay from a second container against the first"
start xs2a-ci-fixture -v "$root/fixtures:/fixtures:ro" -e XS2A_MODE=loopback -- serve --fixture /fixtures/state/initial.json
wait_log xs2a-ci-fixture "workbench:"
mkdir -p "$work/reports"
for flow in private-ais straks-payment; do
  set +e
  podman run --rm --network container:xs2a-ci-fixture -u "$(id -u):$(id -g)" \
    -v "$root/fixtures:/fixtures:ro" -v "$work/reports:/reports" "$published" \
    replay "/fixtures/flows/$flow.json" --url http://127.0.0.1:8080 --cert-dir /fixtures/certs/aisp-pisp \
    --junit "/reports/$flow.xml" >"$work/replay-$flow.out" 2>&1
  code=$?
  set -e
  check "replay $flow from a second container: exit 0" test "$code" = 0
  check "replay $flow: a JUnit report with no failure" grep -q 'failures="0"' "$work/reports/$flow.xml"
done
podman rm -f -v -t 0 xs2a-ci-fixture >/dev/null

echo "== a 0.1.0 data directory in a volume, migrated by this image"
podman volume create xs2a-ci-old >/dev/null
old=$(podman volume inspect --format '{{.Mountpoint}}' xs2a-ci-old)
tar -xzf fixtures/data-dirs/0.1.0/data.tar.gz -C "$old"
mv "$old/data" "$old/xs2a-sandbox"
chown -R 10001:10001 "$old"
port=$(free_port)
base="http://127.0.0.1:$port"
start xs2a-ci-migrate -p "127.0.0.1:$port:8080" -v xs2a-ci-old:/data -e XS2A_OPERATOR_TOKEN=migration-check --
wait_up "$base"
check "the start says it migrated /data/xs2a-sandbox from format 1 to 2" contains "$(podman logs xs2a-ci-migrate 2>&1)" "migrated the data directory /data/xs2a-sandbox from data format 1 to 2"
session=$(curl -s -H 'Authorization: Bearer migration-check' "$base/workbench/api/session")
check "the session's data format: 2, migrated from 1" contains "$session" '"migratedFrom":1'
check "the directory as it was is kept in the volume" test -d "$old/xs2a-sandbox.before-0.1.0"
check "the migrated directory's customers are served" contains "$(curl -s -H 'Authorization: Bearer migration-check' "$base/workbench/api/sandbox/customers")" "Fiona Fikstur"
podman rm -f -v -t 0 xs2a-ci-migrate >/dev/null

echo "== the documentation's commands, as written"
if python3 scripts/container-recipes.py --image "$published" --cli "$host_cli"; then
  passed=$((passed + 1)); echo "ok   - docs/ci.md, docs/install.md and README's container commands"
else
  failed=$((failed + 1)); echo "FAIL - docs/ci.md, docs/install.md and README's container commands"
fi

finish
