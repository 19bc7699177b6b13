#!/usr/bin/env bash
# Build times for README "Benchmarks", measured in one sitting on this machine:
#   - a clean `cargo build --release --locked` (empty target directory, fresh clone) of rustlings,
#     of an earlier revision of queuelab if one is named, and of this repository's HEAD;
#   - for each queuelab build, the tail of `cargo build --timings` after the last dependency;
#   - the release rebuild after touching one view file (src/ui/home.rs).
# Nothing is cloned from the network: the repositories are cloned from local checkouts, and the
# crates are fetched from Cargo's registry before any clock starts.
#
# usage: scripts/build-times.sh RUSTLINGS_CHECKOUT [EARLIER_REVISION]
set -euo pipefail

usage="usage: scripts/build-times.sh RUSTLINGS_CHECKOUT [EARLIER_REVISION]"
rustlings="${1:?$usage}"
earlier="${2:-}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
tail_of="$repo/scripts/timings-tail.py"
view_file="src/ui/home.rs"

if ! [ -f "$rustlings/Cargo.toml" ]; then
  echo "build-times: no Cargo.toml in $rustlings (give the path of a rustlings checkout)" >&2
  exit 2
fi
if [ -n "$earlier" ] && ! git -C "$repo" rev-parse --verify -q "$earlier^{commit}" >/dev/null; then
  echo "build-times: $earlier is not a revision of $repo" >&2
  exit 2
fi

# Settings from the caller's shell would make the builds differ from a fresh clone's.
unset CARGO_TARGET_DIR CARGO_INCREMENTAL CARGO_BUILD_JOBS RUSTFLAGS CARGO_PROFILE_RELEASE_CODEGEN_UNITS

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# clone NAME SOURCE [REVISION]: a fresh local clone in $work/NAME, its crates fetched.
clone() {
  git clone -q --no-local "$2" "$work/$1"
  if [ -n "${3:-}" ]; then git -C "$work/$1" checkout -q "$3"; fi
  (cd "$work/$1" && cargo fetch --locked -q)
}

# build NAME: seconds of a clean release build of $work/NAME into an empty target directory.
build() {
  local start end
  start=$EPOCHREALTIME
  (cd "$work/$1" && CARGO_TARGET_DIR="$work/target-$1" cargo build --release --locked --timings -q 2>/dev/null)
  end=$EPOCHREALTIME
  python3 -c "print(f'{$end - $start:.1f}')"
}

# tail NAME: "total  last-dependency  tail" from the build's timings report.
tail_after_dependencies() {
  local packages
  packages=$(cd "$work/$1" && cargo metadata --no-deps --locked --format-version 1 |
    python3 -c 'import json, sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["packages"]))')
  # shellcheck disable=SC2086 # one argument per package name
  python3 "$tail_of" "$work/target-$1/cargo-timings/cargo-timing.html" $packages
}

# rebuild NAME: seconds of the release rebuild after touching the view file.
rebuild() {
  local start end
  touch "$work/$1/$view_file"
  start=$EPOCHREALTIME
  (cd "$work/$1" && CARGO_TARGET_DIR="$work/target-$1" cargo build --release --locked -q 2>/dev/null)
  end=$EPOCHREALTIME
  python3 -c "print(f'{$end - $start:.1f}')"
}

head_rev=$(git -C "$repo" rev-parse --short HEAD)
earlier_rev=$(if [ -n "$earlier" ]; then git -C "$repo" rev-parse --short "$earlier"; fi)
names=()
clone rustlings "$rustlings"
if [ -n "$earlier" ]; then
  clone before "$repo" "$earlier"
  names+=(before)
fi
clone after "$repo"
names+=(after)

echo "machine: $(nproc) cores, $(rustc --version)"
rustlings_s=$(build rustlings)
echo "clean release build, rustlings ($(git -C "$work/rustlings" rev-parse --short HEAD 2>/dev/null || echo copy)): $rustlings_s s"
declare -A label=([before]="queuelab ${earlier_rev} (before)" [after]="queuelab $head_rev")
for name in "${names[@]}"; do
  seconds=$(build "$name")
  read -r total last_dep tail_s < <(tail_after_dependencies "$name")
  ratio=$(python3 -c "print(f'{$seconds / $rustlings_s:.1f}')")
  echo "clean release build, ${label[$name]}: $seconds s = ${ratio}x rustlings;" \
    "timings: last dependency done at $last_dep s of $total s, tail after it $tail_s s"
done
for name in "${names[@]}"; do
  echo "release rebuild after touching $view_file, ${label[$name]}: $(rebuild "$name") s"
done
