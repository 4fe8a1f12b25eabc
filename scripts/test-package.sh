#!/usr/bin/env bash
# Installs the built .deb on this machine as a user would (apt-get install ./xs2a-sandbox_*.deb, which pulls
# in its declared dependencies), and checks the installed program: the desktop entry (Development, a
# one-line comment, Exec and Icon), the icons at every size, both binaries' --version, that the package
# declares every shared library its binaries link (dpkg-shlibdeps); then starts the app from the path its
# desktop entry's Exec names, under Xvfb with a temporary HOME, waits for its window to show live data
# (the ready line, a screenshot), sends the embedded service a request signed with the installed
# `xs2a-sandbox sign` and a bundled test certificate, and runs the desktop-program tests
# (src-tauri/tests/desktop_program.rs: SIGTERM, a second launch, the window's place) against the installed
# binary, and the upgrade path: the package installed over an earlier one (XS2A_PREVIOUS_DEB, else this
# package relabelled one version lower) while the app runs on the data directory 0.1.0 wrote, the same
# customers read before and after (docs/data-directory.md). Removes the package at the end (apt-get
# remove), whatever happened. Also lists the .rpm's files and requirements with rpm.
#
#   scripts/test-package.sh [--no-rust-tests]    # after scripts/package-desktop.sh
#
# --no-rust-tests leaves out the desktop-program tests (they need the workspace's debug test build), e.g.
# to check a package quickly on a machine that has not built the workspace.
#
# Screenshots: target/screenshots/package-*.png.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

rust_tests=1
for arg in "$@"; do
  case "$arg" in
    --no-rust-tests) rust_tests=0 ;;
    *) echo "unknown argument: $arg" >&2; exit 2 ;;
  esac
done

# One X server and one D-Bus session bus for the whole run, as a desktop session has.
if [ -z "${DISPLAY:-}" ]; then
  exec dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" bash "$0" "$@"
fi
target="${CARGO_TARGET_DIR:-$root/target}"
version="$(sed -n 's/^ *"version": "\(.*\)",$/\1/p' tauri.conf.json | head -1)"
deb="$target/release/bundle/deb/xs2a-sandbox_${version}_amd64.deb"
rpm_file="$(ls "$target"/release/bundle/rpm/xs2a-sandbox-"$version"-*.rpm 2>/dev/null | head -1 || true)"
[ -f "$deb" ] || { echo "no $deb: run scripts/package-desktop.sh first" >&2; exit 1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
check() { printf '  ok: %s\n' "$1"; }
fail() { printf 'FAILED: %s\n' "$1" >&2; exit 1; }
shots="$root/target/screenshots"
mkdir -p "$shots"

echo "== the package: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --field "$deb" Package Version Architecture Depends Section
[ "$(dpkg-deb --field "$deb" Package)" = xs2a-sandbox ] || fail "the package is not named xs2a-sandbox"

if [ -n "$rpm_file" ] && command -v rpm >/dev/null; then
  echo "== the rpm: $rpm_file ($(du -h "$rpm_file" | cut -f1))"
  rpm -qp --queryformat '%{NAME} %{VERSION}-%{RELEASE} %{ARCH}\n' "$rpm_file"
  rpm -qpl "$rpm_file" | tee "$target/rpm-files.txt" | grep -E 'bin/|\.desktop$' | sed 's/^/  /'
  grep -qx /usr/bin/xs2a-desktop "$target/rpm-files.txt" || fail "the rpm has no /usr/bin/xs2a-desktop"
  grep -qx /usr/bin/xs2a-sandbox "$target/rpm-files.txt" || fail "the rpm has no /usr/bin/xs2a-sandbox"
  rpm -qpR "$rpm_file" | sed 's/^/  requires: /'
  # Every shared library the binaries link, by soname, as RPM requires them (glibc's own aside).
  for binary in xs2a-desktop xs2a-sandbox; do
    for soname in $(readelf -d "$target/release/$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      case "$soname" in libc.so.* | libm.so.* | ld-linux* | libgcc_s.so.* | libpthread.so.* | libdl.so.*) continue ;; esac
      rpm -qpR "$rpm_file" | grep -qxF "$soname()(64bit)" || fail "the rpm does not require $soname, which $binary links"
    done
  done
  check "the rpm holds both binaries and requires every library they link"
fi

cleanup() {
  [ -n "${app_pid:-}" ] && kill -TERM "$app_pid" 2>/dev/null || true
  if dpkg-query -W -f='${Status}' xs2a-sandbox 2>/dev/null | grep -q "install ok installed"; then
    echo "== apt-get remove xs2a-sandbox"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq xs2a-sandbox >/dev/null
  fi
  [ -n "${home:-}" ] && rm -rf "$home"
  [ -n "${previous_made:-}" ] && rm -f "$previous_made"
  return 0
}
trap cleanup EXIT

echo "== apt-get install ./$(basename "$deb")"
# apt-get reads a local file only when the path has a slash; a copy in /tmp keeps the _apt user able to read it.
local_deb="/tmp/$(basename "$deb")"
cp "$deb" "$local_deb"
chmod 644 "$local_deb"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$local_deb" >/dev/null
rm -f "$local_deb"
dpkg-query -W -f='  installed: ${Package} ${Version}\n' xs2a-sandbox

echo "== what it installed"
entry=/usr/share/applications/xs2a-sandbox.desktop
[ -f "$entry" ] || fail "no desktop entry at $entry"
sed 's/^/  /' "$entry"
command -v desktop-file-validate >/dev/null && { desktop-file-validate "$entry" && check "desktop-file-validate"; }
grep -qx 'Name=xs2a-sandbox workbench' "$entry" || fail "the entry's Name"
grep -qx 'Categories=Development;' "$entry" || fail "the entry is not in Development"
comment="$(sed -n 's/^Comment=//p' "$entry")"
[ -n "$comment" ] && [ "${#comment}" -le 100 ] || fail "the entry needs a one-line Comment (${#comment} characters)"
exec_path="$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$entry")"
command -v "$exec_path" >/dev/null || fail "Exec=$exec_path is not on the PATH"
exec_path="$(command -v "$exec_path")"
icon="$(sed -n 's/^Icon=//p' "$entry")"
for size in 16x16 24x24 32x32 48x48 64x64 128x128 256x256 512x512; do
  [ -f "/usr/share/icons/hicolor/$size/apps/$icon.png" ] || fail "no $size icon ($icon.png)"
done
check "the entry (Development, one-line comment), Exec=$exec_path, icons 16-512 px"
[ "$("$exec_path" --version)" = "xs2a-desktop $version" ] || fail "xs2a-desktop --version"
[ "$(xs2a-sandbox --version)" = "xs2a-sandbox $version" ] || fail "xs2a-sandbox --version"
[ "$(command -v xs2a-sandbox)" = /usr/bin/xs2a-sandbox ] || fail "xs2a-sandbox is not /usr/bin/xs2a-sandbox"
check "xs2a-desktop --version and xs2a-sandbox --version say $version; the CLI is on the PATH"

# Every shared library the binaries link must come from a declared dependency (or libc's own set).
scratch="$(mktemp -d)"
mkdir -p "$scratch/debian"
printf 'Source: x\n\nPackage: x\nArchitecture: any\n' >"$scratch/debian/control"
needed="$(cd "$scratch" && dpkg-shlibdeps -O -e "$exec_path" -e /usr/bin/xs2a-sandbox 2>/dev/null | sed 's/^shlibs:Depends=//')"
rm -rf "$scratch"
declared="$(dpkg-deb --field "$deb" Depends)"
for dependency in $(echo "$needed" | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g'); do
  case "$dependency" in libc6 | libgcc-s1) continue ;; esac
  echo "$declared" | tr ',' '\n' | sed 's/(.*)//; s/ //g' | grep -qx "$dependency" ||
    fail "the binaries need $dependency, which the package does not declare (declared: $declared)"
done
check "the declared dependencies cover what the binaries link: $needed"

echo "== the installed app from its desktop entry's Exec, under Xvfb with a temporary HOME"
home="$(mktemp -d)"
mkdir -p "$home/.local/share" "$home/.config" "$home/.cache" "$home/runtime"
chmod 700 "$home/runtime"
log="$home/app.log"
data_dir="$home/.local/share/no.sandbox.xs2a.workbench"

# Starts the installed app as its desktop entry does, with the temporary HOME, and waits for its window to
# be live (the ready line); leaves its pid in app_pid and its service's address in base.
start_app() {
  : >"$log"
  HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config" \
    XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$home/runtime" "$exec_path" >"$log" 2>&1 &
  app_pid=$!
  local started
  started=$(date +%s)
  until grep -q "ready after" "$log" 2>/dev/null; do
    kill -0 "$app_pid" 2>/dev/null || { cat "$log" >&2; fail "the installed app ended before its window was live"; }
    [ $(($(date +%s) - started)) -lt 90 ] || { cat "$log" >&2; fail "no live window within 90 s"; }
    sleep 0.05
  done
  base="$(sed -n 's/.*sandbox listening on \(http[^ ]*\).*/\1/p' "$log" | head -1)"
}
# Ends the app with SIGTERM, as a session's end does; it must exit cleanly.
stop_app() {
  kill -TERM "$app_pid"
  wait "$app_pid" || fail "$1"
  app_pid=""
}
# PATH OUT: the status of a GET of PATH signed with the installed `xs2a-sandbox sign`, its body in OUT.
# Dated by the sandbox's clock (GET /health), which a stored data directory may have moved.
signed_get() {
  local now
  now="$(curl -fsS "$base/health" | python3 -c 'import json, sys; print(json.load(sys.stdin)["now"])')"
  xs2a-sandbox sign --cert-dir fixtures/certs/aisp-pisp --at "$now" --url "$base$1" >"$home/headers.txt"
  curl -s -o "$2" -w '%{http_code}' -H @"$home/headers.txt" "$base$1"
}

started=$(date +%s%N)
start_app
sed 's/token=[^ ]*/token=…/; s/^/  /' "$log"
grep -q "ready after [0-9]* ms on Sandbox data" "$log" || fail "the first start did not open on Sandbox data"
check "live after $(( ($(date +%s%N) - started) / 1000000 )) ms, on Sandbox data"
sleep 1
import -window root "$shots/package-installed-app.png"
check "screenshot: target/screenshots/package-installed-app.png"

status="$(signed_get /v1/sandbox/customers "$home/customers.json")"
[ "$status" = 200 ] || { cat "$home/customers.json" >&2; fail "the signed request answered $status"; }
grep -q '"name":"Kari Nordmann"' "$home/customers.json" ||
  fail "the seeded customers are not in the answer: $(head -c 300 "$home/customers.json")"
check "a request signed with the installed xs2a-sandbox sign: 200 with the seeded customers"
unsigned="$(curl -s -o /dev/null -w '%{http_code}' "$base/v1/sandbox/customers")"
[ "$unsigned" = 400 ] || [ "$unsigned" = 401 ] || fail "an unsigned request answered $unsigned"
check "the same request unsigned: $unsigned"

stop_app "the installed app did not end cleanly on SIGTERM"
[ ! -f "$data_dir/instance.json" ] || fail "the store was not closed on SIGTERM"
check "SIGTERM closed the installed app cleanly"

# The upgrade path (issue 20): the package installed over an earlier one while a data directory is in use.
# No earlier xs2a-sandbox package was ever released; XS2A_PREVIOUS_DEB names one when it exists. Until then
# this package relabelled one version lower ("<version>~previous") stands in for it, so that dpkg's upgrade
# (files replaced under a running program, the maintainer scripts) is exercised, and the directory in use is
# the one 0.1.0 wrote (fixtures/data-dirs/0.1.0), so the data crossing the upgrade has also been migrated.
echo "== upgrade: the package installed over an earlier one with a data directory in use"
previous="${XS2A_PREVIOUS_DEB:-}"
if [ -z "$previous" ]; then
  relabel="$(mktemp -d)"
  dpkg-deb -R "$deb" "$relabel/pkg"
  sed -i "s/^Version: .*/Version: ${version}~previous/" "$relabel/pkg/DEBIAN/control"
  previous="/tmp/xs2a-sandbox_${version}~previous_amd64.deb"
  dpkg-deb -b "$relabel/pkg" "$previous" >/dev/null
  previous_made="$previous"
  rm -rf "$relabel"
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq xs2a-sandbox >/dev/null
chmod 644 "$previous"
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --allow-downgrades "$previous" >/dev/null
dpkg-query -W -f='  previous: ${Package} ${Version}\n' xs2a-sandbox
rm -rf "$data_dir"
mkdir -p "$data_dir"
tar -xzf fixtures/data-dirs/0.1.0/data.tar.gz -C "$data_dir" --strip-components=1
start_app
[ "$(signed_get /v1/sandbox/customers "$home/before.json")" = 200 ] || fail "the previous package's app did not answer"
count_customers() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d.get("customers", d) if isinstance(d, dict) else d))' "$1"; }
[ "$(count_customers "$home/before.json")" -gt 1 ] || fail "the data directory in use has no customers"
check "the previous package ($(dpkg-query -W -f='${Version}' xs2a-sandbox)) serves the data directory 0.1.0 wrote"
cp "$deb" "$local_deb"
chmod 644 "$local_deb"
# Upgraded while the previous app runs, as a user's apt upgrade would.
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$local_deb" >/dev/null
rm -f "$local_deb"
[ "$(dpkg-query -W -f='${Version}' xs2a-sandbox)" = "$version" ] || fail "the upgrade did not install $version"
stop_app "the previous app did not end cleanly after the upgrade"
start_app
[ "$(signed_get /v1/sandbox/customers "$home/after.json")" = 200 ] || fail "the upgraded app did not answer"
cmp -s "$home/before.json" "$home/after.json" || fail "the customers differ after the upgrade: $(diff "$home/before.json" "$home/after.json" | head -5)"
stop_app "the upgraded app did not end cleanly"
check "upgraded to $version over the running previous package: the same $(count_customers "$home/after.json") customers' records, field for field"

[ "$rust_tests" -eq 1 ] || exit 0
echo "== the desktop-program tests against the installed $exec_path"
# Built as .ci/run builds every test (release profile, the workspace's features): nothing is compiled again.
XS2A_DESKTOP_BIN="$exec_path" XS2A_SCREENSHOTS="$shots" \
  cargo test --release --locked --workspace --features xs2a-desktop/custom-protocol --test desktop_program \
  -- --include-ignored --test-threads=1 --nocapture
