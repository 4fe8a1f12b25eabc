#!/usr/bin/env bash
# The Windows build, tested on this Debian machine (issue 31; docs/desktop.md, Platforms): cross-compiles the
# headless binary for x86_64-pc-windows-gnu (Debian's gcc-mingw-w64-x86-64) and runs it under Wine (Debian's
# wine64) in a private prefix under the target directory, then `cargo check`s the desktop crate for Windows.
#
#   serve --ephemeral answers /health; a request signed by the Windows `sign` is accepted (unsigned: refused);
#   Ctrl+C stops it; the default data directory is under %LOCALAPPDATA%; an acknowledged write survives a
#   kill -9 and a restart; export, import into a new directory and export again give the same state file;
#   a data directory of the oldest released format is migrated (copy, lock, renames on Windows).
#
# Each check prints PASS or FAIL; the first failure ends the script with status 1. Prints each step's time.
# Profile: the cross-build uses `smoke` (Cargo.toml: unoptimised but for the RSA, digest and storage crates;
# no debug info), built on every CI run and sharing nothing with the Linux builds; --native builds the dev
# profile, as the runner's `cargo test` does.
#
#   bash scripts/test-windows.sh            needs: apt-get install gcc-mingw-w64-x86-64 wine64 curl;
#                                           rustup target add x86_64-pc-windows-gnu
#   bash scripts/test-windows.sh --native   on a Windows CI runner (Git Bash; the release workflow): the
#                                           same checks on the native build, except Ctrl+C, which bash
#                                           cannot send to a Windows program (stops are kills there). It
#                                           empties the real %LOCALAPPDATA%\xs2a-sandbox: only with CI=true.
#   bash scripts/test-windows.sh --no-build the checks again on what is built (no cargo step)
#   bash scripts/test-windows.sh --build-only the cargo steps alone (.ci/run starts them early, in the
#                                           background of its time-bounded steps, then runs --no-build)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
NATIVE= BUILD=1 ONLY_BUILD=
for arg in "$@"; do
    case "$arg" in
        --native) NATIVE=1 ;;
        --no-build) BUILD= ;;
        --build-only) ONLY_BUILD=1 ;;
        *) echo "usage: $0 [--native] [--no-build | --build-only]" >&2; exit 2 ;;
    esac
done
TARGET=x86_64-pc-windows-gnu
TARGET_DIR=$(realpath -m "${CARGO_TARGET_DIR:-target}")
EXE=$TARGET_DIR/$TARGET/smoke/xs2a-sandbox.exe
[ -n "$NATIVE" ] && EXE=$TARGET_DIR/debug/xs2a-sandbox.exe
WORK=$TARGET_DIR/windows-smoke
STARTED=$SECONDS

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "PASS: $*"; }
timed() { # timed NAME COMMAND...: runs it and prints how long it took
    local name=$1 t=$SECONDS
    shift
    "$@" || fail "$name (exit $?)"
    echo "time: $name $((SECONDS - t)) s"
}

if [ -n "$NATIVE" ]; then
    [ "${CI:-}" = true ] || fail "--native empties %LOCALAPPDATA%\\xs2a-sandbox: run it on a CI runner (CI=true)"
    [ -z "$BUILD" ] || timed "cargo build (headless)" cargo build --locked --bin xs2a-sandbox
    WINE=
else
    command -v x86_64-w64-mingw32-gcc >/dev/null || fail "no MinGW compiler: apt-get install gcc-mingw-w64-x86-64"
    rustup target list --installed | grep -qx "$TARGET" || fail "no Rust target: rustup target add $TARGET"
    WINE=$(command -v wine64 || true)
    [ -n "$WINE" ] || { [ -x /usr/lib/wine/wine64 ] && WINE=/usr/lib/wine/wine64; }
    [ -n "$WINE" ] || fail "no wine64: apt-get install wine64"
    WINESERVER=$(command -v wineserver || echo /usr/lib/wine/wineserver)
    if [ -n "$BUILD" ]; then
        timed "cargo build (Windows, headless)" cargo build --locked --profile smoke --target "$TARGET" --bin xs2a-sandbox
        # The desktop crate's licence list reads every locked crate's manifest offline (issue 28).
        timed "cargo fetch" cargo fetch --locked
        timed "cargo check (Windows, desktop crate)" cargo check --locked --profile smoke --target "$TARGET" -p xs2a-desktop
    fi
fi
[ -z "$ONLY_BUILD" ] || { echo "built $EXE"; exit 0; }
[ -f "$EXE" ] || fail "no $EXE"

rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
SERVER=
cleanup() {
    if [ -n "$SERVER" ]; then kill -9 "$SERVER" 2>/dev/null || true; fi
    if [ -z "$NATIVE" ]; then "$WINESERVER" -k 2>/dev/null || true; fi
}
trap cleanup EXIT
if [ -z "$NATIVE" ]; then
    export WINEPREFIX=$TARGET_DIR/wine-prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
    timed "Wine prefix" "$WINE" wineboot --init
    # Rust's standard library (1.78 on) takes its random bytes from bcryptprimitives.dll's ProcessPrng,
    # which Wine gained in 9.0; Debian 12's Wine 8 lacks it and the .exe would not load (status
    # c0000135). A stand-in for the test prefix only, over RtlGenRandom (advapi32's SystemFunction036).
    # Windows 10 and later have the real one.
    cat >bcryptprimitives.c <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
C
    x86_64-w64-mingw32-gcc -O2 -shared -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
        bcryptprimitives.c -ladvapi32 || fail "the bcryptprimitives.dll stand-in does not build"
fi

# win ARGS...: runs the Windows binary (under Wine, or natively).
win() { ${WINE:+"$WINE"} "$EXE" "$@"; }

# start_serve LOG ARGS...: starts `serve`, waits for its ready line, sets SERVER and URL.
start_serve() {
    local log=$1
    shift
    # Not through `win`: a function in the background is a subshell, and SERVER must be the program's pid.
    ${WINE:+"$WINE"} "$EXE" serve --addr 127.0.0.1:0 "$@" >"$log" 2>"$log.err" &
    SERVER=$!
    for _ in $(seq 600); do
        URL=$(sed -n 's/^xs2a-sandbox listening on \(http[^ ]*\).*/\1/p' "$log" | tr -d '\r')
        [ -n "$URL" ] && return 0
        kill -0 "$SERVER" 2>/dev/null || { cat "$log.err" >&2; fail "serve $* ended before its ready line"; }
        sleep 0.1
    done
    cat "$log.err" >&2
    fail "serve $* printed no ready line within 60 s"
}

# stop_serve: Ctrl+C (Wine turns SIGINT into the console's CTRL_C_EVENT), expecting a clean exit 0.
# Natively a kill (bash has no Ctrl+C for a Windows program).
stop_serve() {
    local status=0
    if [ -n "$NATIVE" ]; then
        kill "$SERVER"
        wait "$SERVER" 2>/dev/null || true
        SERVER=
        return
    fi
    kill -INT "$SERVER"
    wait "$SERVER" || status=$?
    SERVER=
    [ "$status" = 0 ] || fail "serve ended with status $status after Ctrl+C"
}

# signed METHOD PATH [BODY] [HEADER]: signs with the Windows `sign` (under Wine) and sends with curl; prints the
# HTTP status on the last line after the body.
signed() {
    local method=$1 path=$2 body=${3:-} header=${4:-}
    local args=(sign --cert-dir "$ROOT/fixtures/certs/aisp-pisp" -X "$method" --url "$URL$path"
        -H 'TPP-Session-ID: windows-smoke' -H 'TPP-Redirect-URI: https://tpp.example/callback'
        -H 'PSU-IP-Address: 192.0.2.10')
    [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data "$body")
    [ -n "$header" ] && args+=(-H "$header")
    win "${args[@]}" >headers.txt || fail "sign $method $path under Wine (exit $?)"
    tr -d '\r' <headers.txt >headers.lf
    if [ -n "$body" ]; then
        curl -sS -X "$method" -H @headers.lf --data-binary "$body" -w '\n%{http_code}' "$URL$path"
    else
        curl -sS -X "$method" -H @headers.lf -w '\n%{http_code}' "$URL$path"
    fi
}

t=$SECONDS
out=$(win --version) || fail "xs2a-sandbox.exe --version (exit $?)"
[[ $out == xs2a-sandbox* ]] || fail "--version printed '$out'"
pass "xs2a-sandbox.exe --version: $(tr -d '\r' <<<"$out")"

# 1. Ephemeral: /health, a signed request accepted, an unsigned one refused, Ctrl+C.
start_serve ephemeral.log --ephemeral
[ "$(curl -sS -o /dev/null -w '%{http_code}' "$URL/health")" = 200 ] || fail "/health did not answer 200"
pass "serve --ephemeral answers /health ($URL)"
answer=$(signed GET /v1/sandbox/customers)
[ "$(tail -n1 <<<"$answer")" = 200 ] || fail "a request signed by sign.exe: $answer"
pass "a request signed by the Windows sign command is accepted (200)"
code=$(curl -sS -o /dev/null -w '%{http_code}' "$URL/v1/sandbox/customers")
[ "$code" = 400 ] || [ "$code" = 401 ] || fail "an unsigned request answered $code"
pass "an unsigned request is refused ($code)"
stop_serve
if [ -n "$NATIVE" ]; then echo "SKIP: Ctrl+C (not sent natively)"; else pass "Ctrl+C stops serve with status 0"; fi

# 2. The default data directory, an acknowledged write across kill -9, and a clean stop.
if [ -n "$NATIVE" ]; then
    LOCAL=$(cygpath -u "$LOCALAPPDATA") ROAMING=$(cygpath -u "$APPDATA")
else
    LOCAL=$(echo "$WINEPREFIX"/drive_c/users/*/AppData/Local)
    ROAMING=$(echo "$WINEPREFIX"/drive_c/users/*/AppData/Roaming)
fi
rm -rf "$LOCAL/xs2a-sandbox" "$ROAMING/xs2a-sandbox"
start_serve default.log
[ -f "$LOCAL/xs2a-sandbox/instance.json" ] || fail "no instance note under %LOCALAPPDATA%\\xs2a-sandbox"
[ ! -e "$ROAMING/xs2a-sandbox" ] || fail "serve wrote under %APPDATA% (roaming)"
pass "the default data directory is %LOCALAPPDATA%\\xs2a-sandbox (${LOCAL#"${WINEPREFIX:-}"/})"
answer=$(signed GET /v1/accounts)
[ "$(tail -n1 <<<"$answer")" = 401 ] || fail "accounts without a consent: $answer"
AUTHORISATION=$(sed -n 's|.*/sca/\([0-9a-f-]*\)".*|\1|p' <<<"$answer")
[ -n "$AUTHORISATION" ] || fail "no authorisation in $answer"
# The PSU's SCA grants the consent; its 200 acknowledges the write.
answer=$(signed POST "/v1/sandbox/sca/$AUTHORISATION" '{"nationalId": "14838510036"}')
[ "$(tail -n1 <<<"$answer")" = 200 ] || fail "the SCA: $answer"
PSU_ID=$(sed -n 's/.*"psuId":"\([^"]*\)".*/\1/p' <<<"$answer")
[ -n "$PSU_ID" ] || fail "no psuId in $answer"
kill -9 "$SERVER"
wait "$SERVER" 2>/dev/null || true
SERVER=
curl -s -o /dev/null "$URL/health" && fail "the killed serve still answers"
start_serve restarted.log
answer=$(signed GET /v1/accounts "" "PSU-ID: $PSU_ID")
[ "$(tail -n1 <<<"$answer")" = 200 ] || fail "the consent granted before kill -9, after the restart: $answer"
grep -q '"ownerName":"Kari Nordmann"' <<<"$answer" || fail "not Kari Nordmann's accounts: $answer"
pass "a consent acknowledged (SCA 200) before kill -9 serves the accounts after the restart (200)"
stop_serve
if [ -z "$NATIVE" ]; then
    [ ! -e "$LOCAL/xs2a-sandbox/instance.json" ] || fail "the instance note outlived a clean stop"
    pass "a clean stop closes the store (instance note removed)"
fi

# 3. export, import into a new directory, export again: the same state file.
win export --out first.json || fail "export of the default data directory (exit $?)"
win import first.json --data imported || fail "import into a new data directory (exit $?)"
win export --data imported --out second.json || fail "export of the imported directory (exit $?)"
[ -s first.json ] || fail "the exported state file is empty"
cmp -s first.json second.json || fail "export -> import -> export differs: $(diff first.json second.json | head -5)"
pass "export/import round-trips ($(wc -c <first.json) bytes, identical)"

# 4. A data directory of the oldest released format: migrated on Windows (copy, locks, renames).
oldest=$(ls "$ROOT/fixtures/data-dirs" | sort -V | head -n1)
mkdir old && tar -xzf "$ROOT/fixtures/data-dirs/$oldest/data.tar.gz" -C old
start_serve migrated.log --data old/data
[ "$(curl -sS -o /dev/null -w '%{http_code}' "$URL/health")" = 200 ] || fail "/health after the migration"
stop_serve
grep -q "migrated the data directory" migrated.log.err || fail "no migration reported: $(cat migrated.log.err)"
ls -d old/data.before-* >/dev/null || fail "no backup of the directory as it was"
pass "a data directory made by $oldest is migrated under Windows (backup kept)"
echo "time: checks under Wine $((SECONDS - t)) s"

echo "test-windows: all checks passed in $((SECONDS - STARTED)) s"
