# The checks' helpers shared by scripts/test-container.sh and scripts/test-container-arm64.sh (sourced):
# each check prints one line, ok or FAIL with what it saw, and is counted; waits are bounded by tries.
# Needs $work (a scratch directory) and $host_cli (the host's xs2a-sandbox) set by the caller.
passed=0
failed=0
check() { # check DESCRIPTION COMMAND...
  local description="$1"
  shift
  if "$@" >"$work/check.out" 2>&1; then
    passed=$((passed + 1))
    echo "ok   - $description"
  else
    failed=$((failed + 1))
    echo "FAIL - $description"
    sed 's/^/       /' "$work/check.out" | tail -20
  fi
}
contains() { grep -qF -- "$2" <<<"$1" || { echo "expected '$2' in:"; echo "$1"; return 1; }; }
lacks() { ! grep -qF -- "$2" <<<"$1" || { echo "did not expect '$2' in:"; echo "$1"; return 1; }; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# Waits for /health at URL (each try a connection, or an answer within 5 s), at most 300 tries.
wait_up() {
  local url="$1" tries=0
  until "$host_cli" health --url "$url" --timeout 5 >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ "$tries" -lt 300 ] || { echo "$url never answered /health"; return 1; }
    sleep 0.2
  done
}
# The closing line, and the status: 1 when any check failed.
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
