#!/usr/bin/env python3
"""Checks that the CI lanes run every integration-test binary of the workspace.

Reads `cargo metadata --no-deps --format-version 1` on stdin; the arguments are the binaries the
lanes of `.ci/run` name. Exits 1, naming them, when the workspace has a test binary no lane runs
(it would escape CI) or a lane names one the workspace does not have.
"""

import json
import sys


def test_binaries(metadata):
    """The names of the integration-test targets of the workspace's own packages."""
    members = set(metadata["workspace_members"])
    return {
        target["name"]
        for package in metadata["packages"]
        if package["id"] in members
        for target in package["targets"]
        if "test" in target["kind"]
    }


def main():
    found = test_binaries(json.load(sys.stdin))
    listed = set(sys.argv[1:])
    unlisted = sorted(found - listed)
    missing = sorted(listed - found)
    if unlisted:
        print(f"test binaries no CI lane runs: {', '.join(unlisted)} (add them to .ci/run)")
    if missing:
        print(f"CI lanes name test binaries the workspace lacks: {', '.join(missing)}")
    if unlisted or missing:
        sys.exit(1)
    print(f"every test binary has its lane: {', '.join(sorted(found))}")


if __name__ == "__main__":
    main()
