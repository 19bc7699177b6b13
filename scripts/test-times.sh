#!/usr/bin/env bash
# Test-build times for the book's Performance chapter, measured in one sitting on this machine,
# for this repository's HEAD and, if one is named, an earlier revision:
#   - the clean `cargo test`: compiling every test binary into an empty target directory
#     (`cargo test --no-run`), then running them all (`cargo test --no-fail-fast`);
#   - the cycle a contributor waits for before the tests run again, after touching one view file
#     (src/ui/home.rs) and after touching the engine (crates/sim/src/engine.rs): the seconds of
#     `cargo test --no-run` and how many test executables it built anew.
# The dev profile is used as a contributor's `cargo test` uses it (incremental on).
#
# It measures committed revisions (HEAD, not changes in the working tree). Each revision's target
# directory takes several GB under $TMPDIR (default /tmp) until the script ends.
#
# usage: scripts/test-times.sh [EARLIER_REVISION]
set -euo pipefail
shopt -s inherit_errexit

usage="usage: scripts/test-times.sh [EARLIER_REVISION]"
if [ $# -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  echo "$usage" >&2
  exit 2
fi
earlier="${1:-}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=scripts/measure-common.sh
. "$repo/scripts/measure-common.sh"
if [ -n "$earlier" ]; then require_revision "$repo" "$earlier"; fi
# A changed snapshot must fail the run, not be written beside the test.
export INSTA_UPDATE=no
view_file="src/ui/home.rs"
engine_file="crates/sim/src/engine.rs"

# cargo_test NAME LOG ARGS...: `cargo test ARGS` in $work/NAME, its output appended to LOG.
cargo_test() {
  local name="$1" log="$2"
  shift 2
  (cd "$work/$name" && CARGO_TARGET_DIR="$work/target-$name" cargo test --locked "$@" >>"$log" 2>&1)
}

# executables LOG: how many test executables a `cargo test --no-run` in LOG names.
executables() {
  grep -c '^  Executable ' "$1" || true
}

# linked_since NAME MARKER: how many executables in NAME's deps folder are newer than MARKER
# (what a rebuild linked anew; libraries and dependency files have an extension, executables none).
linked_since() {
  find "$work/target-$1/debug/deps" -maxdepth 1 -type f -perm -u+x ! -name '*.*' -newer "$2" |
    wc -l
}

# passed LOG: "passed failed ignored" summed over every test binary's result line in LOG.
passed() {
  python3 - "$1" <<'EOF'
import re, sys
sums = [0, 0, 0]
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", line)
    if m:
        sums = [a + int(b) for a, b in zip(sums, m.groups())]
print(*sums)
EOF
}

# measure NAME LABEL: every figure of one revision, printed as it is measured.
measure() {
  local name="$1" label="$2" start log status
  log="$work/$name-build.log"
  start=$EPOCHREALTIME
  cargo_test "$name" "$log" --no-run || fail_with_log "the test build of $label" "$log"
  echo "$label: clean cargo test --no-run: $(seconds_since "$start") s," \
    "$(executables "$log") test executables"
  log="$work/$name-run.log"
  start=$EPOCHREALTIME
  status=0
  cargo_test "$name" "$log" --no-fail-fast || status=$?
  read -r ok failed ignored <<<"$(passed "$log")"
  echo "$label: then cargo test: $(seconds_since "$start") s, $ok passed, $failed failed," \
    "$ignored ignored (exit $status)"
  for file in "$view_file" "$engine_file"; do
    log="$work/$name-touch.log"
    : >"$log"
    touch "$work/marker" "$work/$name/$file"
    start=$EPOCHREALTIME
    cargo_test "$name" "$log" --no-run || fail_with_log "the rebuild of $label" "$log"
    echo "$label: after touching $file: cargo test --no-run: $(seconds_since "$start") s," \
      "$(linked_since "$name" "$work/marker") executables linked anew"
  done
}

clone after "$repo"
if [ -n "$earlier" ]; then clone before "$repo" "$earlier"; fi
echo "machine: $(nproc) cores, $(rustc --version)"
if [ -n "$earlier" ]; then
  measure before "queuelab $(git -C "$repo" rev-parse --short "$earlier") (before)"
  rm -rf "$work/target-before"
fi
measure after "queuelab $(git -C "$repo" rev-parse --short HEAD)"
