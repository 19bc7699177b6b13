#!/usr/bin/env bash
# Makes an offline bundle of queuelab for a room with poor Wi-Fi: the committed sources of HEAD
# plus the source of every crate they depend on (`cargo vendor`), and the Cargo configuration
# that points the build at that copy instead of crates.io. Run it once, with network, on the
# instructor's machine; hand the archive out on a USB stick or over the room's LAN; trainees
# unpack it and build without any network:
#
#   tar xzf queuelab-offline.tar.gz && cd queuelab
#   cargo install --locked --offline --path .
#
# A trainee still needs Rust (rustup, or a standalone installer) and a C compiler
# (docs/src/platforms.md, "Install for a room").
#
# usage: scripts/offline-bundle.sh [ARCHIVE]   (default: queuelab-offline.tar.gz here)
set -euo pipefail

usage="usage: scripts/offline-bundle.sh [ARCHIVE]"
if [ $# -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "$usage" >&2
  exit 2
fi
archive="$(realpath -m "${1:-queuelab-offline.tar.gz}")"
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The committed tree only: no target directory, no local databases, no uncommitted edits.
mkdir "$work/queuelab"
git -C "$repo" archive --format=tar HEAD | tar -x -C "$work/queuelab"

cd "$work/queuelab"
# `cargo vendor` prints the configuration that replaces crates.io with the copy; it goes after
# what the repository's own `.cargo/config.toml` already sets (SQLite's build flags).
{
  echo
  echo "# Added by scripts/offline-bundle.sh: build from vendor/ without any network."
  cargo vendor --locked vendor 2>"$work/vendor.log" || { cat "$work/vendor.log" >&2; exit 1; }
} >>.cargo/config.toml
# Without the snippet the bundle would look for crates.io and fail in the room: say so here.
grep -q 'directory = "vendor"' .cargo/config.toml || {
  echo "cargo vendor printed no configuration; see $work/vendor.log" >&2
  trap - EXIT
  exit 1
}

tar -czf "$archive" -C "$work" queuelab
echo "wrote $archive ($(du -h "$archive" | cut -f1))"
echo "build it without network: tar xzf $(basename "$archive") && cd queuelab && cargo install --locked --offline --path ."
