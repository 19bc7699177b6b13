#!/usr/bin/env python3
"""Reads a `cargo build --timings` report and prints, in seconds and tab-separated:
the whole build, the moment the last dependency finished, and the tail after it.
With --path it prints the build's critical path instead: from the unit that finished last,
back through the unit whose end (or metadata, for a pipelined start) let each one start last.

usage: timings-tail.py [--path] CARGO_TIMING_HTML WORKSPACE_PACKAGE...

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


def metadata_ready(unit):
    """When a unit's metadata let the units waiting on it start (the end of its frontend)."""
    for name, span in unit.get("sections") or []:
        if name == "frontend":
            return unit["start"] + span["end"]
    return unit["start"] + unit["duration"]


def critical_path(units):
    """The chain of units that held the build's end, first unit first."""
    released_by = {}
    for unit in units:
        end = unit["start"] + unit["duration"]
        for index in unit.get("unblocked_units", []):
            released_by.setdefault(index, []).append((end, unit))
        for index in unit.get("unblocked_rmeta_units", []):
            released_by.setdefault(index, []).append((metadata_ready(unit), unit))
    unit = max(units, key=lambda u: u["start"] + u["duration"])
    chain = [unit]
    while released_by.get(unit["i"]):
        unit = max(released_by[unit["i"]], key=lambda pair: pair[0])[1]
        chain.append(unit)
    return list(reversed(chain))


def print_path(units):
    print("start\tseconds\tunit")
    for unit in critical_path(units):
        unit_name = f"{unit['name']} {unit.get('target', '').strip()}".strip()
        print(f"{unit['start']:.1f}\t{unit['duration']:.1f}\t{unit_name}")


def main():
    args = sys.argv[1:]
    path = args[:1] == ["--path"]
    if path:
        args = args[1:]
    if len(args) < 1 or (not path and len(args) < 2):
        sys.exit(__doc__)
    with open(args[0], encoding="utf-8") as f:
        units = units_of(f.read())
    if path:
        print_path(units)
        return
    own = set(args[1:])
    ends = [(u["name"] in own, u["start"] + u["duration"]) for u in units]
    # Rounded first, so the three figures add up as printed.
    total = round(max(end for _, end in ends), 1)
    last_dependency = round(max((end for is_own, end in ends if not is_own), default=0.0), 1)
    print(f"{total:.1f}\t{last_dependency:.1f}\t{total - last_dependency:.1f}")


if __name__ == "__main__":
    main()
