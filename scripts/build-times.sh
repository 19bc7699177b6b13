#!/usr/bin/env bash
# Build times for the book's Performance chapter, measured in one sitting on this machine:
#   - a clean `cargo build --release --locked` (empty target directory, fresh clone) of rustlings,
#     of an earlier revision of queuelab if one is named, and of this repository's HEAD;
#   - for each queuelab build, the tail of `cargo build --timings` after the last dependency;
#   - the release rebuild after touching one view file (src/ui/home.rs).
# Nothing is cloned from the network: the repositories are cloned from local checkouts, and the
# crates are fetched from Cargo's registry before any clock starts.
#
# It measures committed revisions (HEAD, not changes in the working tree). Three release target
# directories take several GB under $TMPDIR (default /tmp) until the script ends; each queuelab
# build's timings report stays in target/build-times/.
#
# usage: scripts/build-times.sh RUSTLINGS_GIT_CHECKOUT [EARLIER_REVISION]
set -euo pipefail
shopt -s inherit_errexit
usage="usage: scripts/build-times.sh RUSTLINGS_GIT_CHECKOUT [EARLIER_REVISION]"
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "$usage" >&2
  exit 2
fi
rustlings="$1"
earlier="${2:-}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/measure-common.sh
. "$repo/scripts/measure-common.sh"
tail_of="$repo/scripts/timings-tail.py"
view_file="src/ui/home.rs"

if ! [ -f "$rustlings/Cargo.toml" ] || ! git -C "$rustlings" rev-parse -q --verify HEAD >/dev/null 2>&1; then
  echo "build-times: $rustlings is no git checkout with a Cargo.toml (give the path of a rustlings clone)" >&2
  exit 2
fi
if [ -n "$earlier" ]; then require_revision "$repo" "$earlier"; fi

# cargo_build NAME ARGS...: a release build of $work/NAME; its output goes to $work/NAME.log,
# whose end is shown when the build fails.
cargo_build() {
  local name="$1"
  shift
  (cd "$work/$name" && CARGO_TARGET_DIR="$work/target-$name" cargo build --release --locked "$@" >>"$work/$name.log" 2>&1) ||
    fail_with_log "the build of $name" "$work/$name.log"
}

# build NAME: seconds of a clean release build of $work/NAME into an empty target directory.
build() {
  local start=$EPOCHREALTIME
  cargo_build "$1" --timings
  seconds_since "$start"
}

# tail_after_dependencies NAME: "total  last-dependency  tail" from the build's timings report.
tail_after_dependencies() {
  local packages
  packages=$(cd "$work/$1" && cargo metadata --no-deps --locked --format-version 1 |
    python3 -c 'import json, sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["packages"]))')
  # shellcheck disable=SC2086 # one argument per package name
  python3 "$tail_of" "$work/target-$1/cargo-timings/cargo-timing.html" $packages
}

# rebuild NAME: seconds of the release rebuild after touching the view file.
rebuild() {
  local start
  if ! [ -f "$work/$1/$view_file" ]; then
    echo "build-times: $1 has no $view_file to touch" >&2
    return 1
  fi
  touch "$work/$1/$view_file"
  start=$EPOCHREALTIME
  cargo_build "$1"
  seconds_since "$start"
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
echo "clean release build, rustlings ($(git -C "$work/rustlings" rev-parse --short HEAD)): $rustlings_s s"
declare -A label=([before]="queuelab ${earlier_rev} (before)" [after]="queuelab $head_rev")
for name in "${names[@]}"; do
  seconds=$(build "$name")
  times=$(tail_after_dependencies "$name")
  read -r total last_dep tail_s <<<"$times"
  ratio=$(python3 -c "print(f'{$seconds / $rustlings_s:.1f}')")
  echo "clean release build, ${label[$name]}: $seconds s = ${ratio}x rustlings;" \
    "timings: last dependency done at $last_dep s of $total s, tail after it $tail_s s"
  echo "its critical path:"
  python3 "$tail_of" --path "$work/target-$name/cargo-timings/cargo-timing.html"
  mkdir -p "$repo/target/build-times"
  cp "$work/target-$name/cargo-timings/cargo-timing.html" "$repo/target/build-times/$name.html"
done
for name in "${names[@]}"; do
  seconds=$(rebuild "$name")
  echo "release rebuild after touching $view_file, ${label[$name]}: $seconds s"
done
