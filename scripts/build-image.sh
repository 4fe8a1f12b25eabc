#!/usr/bin/env bash
# Builds the xs2a-sandbox container image with podman, from this repository alone: the static (musl)
# binary with the UI embedded, a root filesystem made here (the binary, a non-root user, /data and /tmp),
# container/Containerfile (FROM scratch) and its labels (version, revision, source, licences). No base
# image is pulled, so it builds where no registry is reachable. Prints the image's uncompressed size.
#
#   bash scripts/build-image.sh                        # linux/amd64, the release profile: the image that ships
#   bash scripts/build-image.sh --arch arm64           # linux/arm64, cross-built (cargo-zigbuild, or
#                                                      #   Debian's gcc-aarch64-linux-gnu)
#   bash scripts/build-image.sh --profile smoke        # a cheap build of the same binary (CI's arm64 check)
#   bash scripts/build-image.sh --binary FILE          # package FILE instead of building one; a dynamically
#                                                      #   linked binary is packaged with its libraries (CI's
#                                                      #   amd64 image, from the release build it already has)
#   --tag NAME (another name for the image), --archive FILE (also write it as an OCI archive),
#   --source URL (the source label; default: the git remote, or XS2A_IMAGE_SOURCE), --no-image (build the
#   binary only: target/<musl triple>/<profile>/xs2a-sandbox), --features LIST (the package's features;
#   default mimalloc, the allocator the binary takes on Linux, as every build of it does by default:
#   docs/performance.md, "The allocator"; --features "" builds with musl's own; with --binary, the
#   features FILE was built with, for the labels)
#
# The image is named xs2a-sandbox:<version>-<arch> (and --tag). Needs podman, and for a build, Rust's
# target (rustup target add x86_64-unknown-linux-musl / aarch64-unknown-linux-musl) with musl-tools or,
# for arm64, cargo-zigbuild or gcc-aarch64-linux-gnu.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

arch=amd64
profile=release
binary=""
tags=()
archive=""
source_url="${XS2A_IMAGE_SOURCE:-}"
image_too=1
features=default
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="$2"; shift 2 ;;
    --profile) profile="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    --tag) tags+=("$2"); shift 2 ;;
    --archive) archive="$2"; shift 2 ;;
    --source) source_url="$2"; shift 2 ;;
    --no-image) image_too=""; shift ;;
    --features) features="$2"; shift 2 ;;
    *) echo "build-image.sh: unknown argument $1 (see the comment at the top)" >&2; exit 2 ;;
  esac
done
case "$arch" in
  amd64) triple=x86_64-unknown-linux-musl ;;
  arm64) triple=aarch64-unknown-linux-musl ;;
  *) echo "build-image.sh: --arch is amd64 or arm64, not $arch" >&2; exit 2 ;;
esac
# podman's settings for these machines (container/containers.conf), unless the caller has its own.
export CONTAINERS_CONF="${CONTAINERS_CONF:-$root/container/containers.conf}"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
image="xs2a-sandbox:$version-$arch"

[ "$features" != default ] || features=mimalloc
# The package's default features are mimalloc alone: the list given replaces them.
feature_args=(--no-default-features)
[ -z "$features" ] || feature_args+=(--features "$features")
if [ -z "$binary" ]; then
  # The binary embeds the UI: build it when it is not there.
  if [ ! -f ui/dist/index.html ]; then
    (cd ui && npm ci --no-audit --no-fund && npm run build)
  fi
  case "$arch" in
    amd64)
      # ring's C and assembly are compiled with musl's gcc wrapper (musl-tools).
      export CC_x86_64_unknown_linux_musl="${CC_x86_64_unknown_linux_musl:-musl-gcc}"
      build=(cargo build)
      ;;
    arm64)
      if command -v cargo-zigbuild >/dev/null 2>&1; then
        build=(cargo zigbuild)
      else
        # Debian's cross gcc compiles ring's C and links against the musl that Rust's target ships.
        export CC_aarch64_unknown_linux_musl="${CC_aarch64_unknown_linux_musl:-aarch64-linux-gnu-gcc}"
        export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER="${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER:-aarch64-linux-gnu-gcc}"
        build=(cargo build)
      fi
      ;;
  esac
  "${build[@]}" --locked --profile "$profile" -p xs2a-sandbox --bin xs2a-sandbox --target "$triple" "${feature_args[@]}"
  binary="target/$triple/$profile/xs2a-sandbox"
fi
[ -x "$binary" ] || { echo "build-image.sh: no executable at $binary" >&2; exit 1; }
if [ -z "$image_too" ]; then
  echo "built: $binary"
  exit 0
fi

# The build context: rootfs/ (owned by root in the image) and data/ (the volume's mount point, the user's).
work="target/image/$arch"
rm -rf "$work"
mkdir -p "$work/rootfs/usr/local/bin" "$work/rootfs/etc" "$work/rootfs/tmp" "$work/data"
install -m 0755 "$binary" "$work/rootfs/usr/local/bin/xs2a-sandbox"
chmod 1777 "$work/rootfs/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nxs2a:x:10001:10001:xs2a-sandbox:/data:/sbin/nologin\n' \
  >"$work/rootfs/etc/passwd"
printf 'root:x:0:\nxs2a:x:10001:\n' >"$work/rootfs/etc/group"
libc=musl
if file -L "$binary" | grep -q 'dynamically linked'; then
  # A glibc binary: its libraries and its loader, each at the path the binary looks for it.
  libc=glibc
  ldd "$binary" | awk '/=> \// { print $3 } /^[ \t]*\// { print $1 }' | while read -r lib; do
    mkdir -p "$work/rootfs$(dirname "$lib")"
    cp -L "$lib" "$work/rootfs$lib"
  done
fi

# The labels: the commit, and its time as the image's (so that a rebuild of one commit is the same image).
revision=$(git rev-parse HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || revision="$revision-modified"
epoch=$(git log -1 --format=%ct)
created=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
if [ -z "$source_url" ]; then
  source_url=$(git remote get-url origin 2>/dev/null || echo "unknown: built from a clone without a remote")
fi
licences=$(cargo metadata --format-version 1 --locked --filter-platform "$triple" "${feature_args[@]}" |
  python3 container/licences.py --libc "$libc")

tag_args=(-t "$image")
for extra in "${tags[@]}"; do tag_args+=(-t "$extra"); done
# Docker's image format: the OCI format has no field for the HEALTHCHECK.
podman build --quiet --format docker --platform "linux/$arch" --timestamp "$epoch" \
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision" --build-arg "SOURCE=$source_url" \
  --build-arg "LICENSES=$licences" --build-arg "CREATED=$created" \
  "${tag_args[@]}" -f container/Containerfile "$work" >/dev/null
size=$(podman image inspect --format '{{.Size}}' "$image")
awk -v image="$image" -v arch="$arch" -v libc="$libc" -v binary="$binary" -v size="$size" 'BEGIN {
  printf "image %s (linux/%s, %s binary %s): %d bytes uncompressed (%.1f MB)\n", image, arch, libc, binary, size, size / 1e6 }'
if [ -n "$archive" ]; then
  podman save --quiet --format oci-archive -o "$archive" "$image"
  echo "written: $archive"
fi
