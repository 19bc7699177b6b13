# Shared by the measuring scripts (build-times.sh, test-times.sh): a clean environment, fresh
# local clones in a folder removed at exit, and the clock. Sourced, never run.

# Settings from the caller's shell would make the builds differ from a fresh clone's (a
# compiler cache would make a "clean" build a cached one). Settings in ~/.cargo/config.toml
# still apply: keep it free of rustflags, linkers and wrappers when measuring.
unset CARGO_TARGET_DIR CARGO_INCREMENTAL CARGO_BUILD_JOBS RUSTFLAGS CARGO_ENCODED_RUSTFLAGS \
  RUSTC_WRAPPER CARGO_BUILD_RUSTC_WRAPPER CARGO_PROFILE_RELEASE_CODEGEN_UNITS
# EPOCHREALTIME is written with the locale's decimal separator.
export LC_ALL=C

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# require_revision REPO REVISION: stops with a message unless REVISION is a commit of REPO.
require_revision() {
  if ! git -C "$1" rev-parse --verify -q "$2^{commit}" >/dev/null; then
    echo "$(basename "$0"): $2 is not a revision of $1" >&2
    exit 2
  fi
}

# clone NAME SOURCE [REVISION]: a fresh local clone in $work/NAME, its crates fetched before any
# clock starts (nothing comes from the network while measuring).
clone() {
  git clone -q --no-local "$2" "$work/$1"
  if [ -n "${3:-}" ]; then git -C "$work/$1" checkout -q "$3"; fi
  (cd "$work/$1" && cargo fetch --locked -q)
}

# seconds_since START: the seconds since START (an $EPOCHREALTIME), one decimal.
seconds_since() {
  python3 -c "print(f'{$EPOCHREALTIME - $1:.1f}')"
}

# fail_with_log WHAT LOG: stops, showing the end of LOG.
fail_with_log() {
  echo "$(basename "$0"): $1 failed:" >&2
  tail -n 20 "$2" >&2
  exit 1
}
