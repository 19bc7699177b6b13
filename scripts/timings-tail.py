#!/usr/bin/env python3
"""Reads a `cargo build --timings` report and prints, in seconds and tab-separated:
the whole build, the moment the last dependency finished, and the tail after it.

usage: timings-tail.py CARGO_TIMING_HTML WORKSPACE_PACKAGE...

A dependency is any unit whose package is not one of the named workspace packages (build
scripts of the workspace's own packages count as its own). The tail is the time the build
spends on its own crates once nothing else is left to compile beside them.
"""

import json
import sys


def units_of(html):
    """The report's list of compiled units (Cargo writes it into the page as JavaScript)."""
    marker = "const UNIT_DATA = "
    try:
        start = html.index(marker) + len(marker)
        end = html.index("];", start) + 1
        units = json.loads(html[start:end])
    except ValueError:
        units = None
    if not units:
        sys.exit("timings-tail: no unit list in this report (another Cargo's timings format?)")
    return units


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        units = units_of(f.read())
    own = set(sys.argv[2:])
    ends = [(u["name"] in own, u["start"] + u["duration"]) for u in units]
    # Rounded first, so the three figures add up as printed.
    total = round(max(end for _, end in ends), 1)
    last_dependency = round(max((end for is_own, end in ends if not is_own), default=0.0), 1)
    print(f"{total:.1f}\t{last_dependency:.1f}\t{total - last_dependency:.1f}")


if __name__ == "__main__":
    main()
