//! The binary's relative relocations are packed (`DT_RELR`) exactly when the build script's
//! probe said the linker and the loader can do it, and the probe says no where they cannot.

#[path = "../build/relr_probe.rs"]
mod relr_probe;

use relr_probe::{FLAG, Rustc, has_relr, packs};

/// Whether the build script packed the binary's relocations.
const PACKED: bool = matches!(env!("QUEUELAB_RELOCS").as_bytes(), b"packed");

fn binary() -> Vec<u8> {
    std::fs::read(env!("CARGO_BIN_EXE_queuelab")).expect("the built binary")
}

/// The rustc on the PATH, for this machine's own target.
fn host_rustc_target() -> String {
    let out = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc names its host")
        .to_owned()
}

#[test]
fn the_binary_is_packed_as_the_build_script_decided_and_starts() {
    assert_eq!(has_relr(&binary()), PACKED);
    let version = std::process::Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--version")
        .output()
        .expect("runs");
    assert!(version.status.success(), "a packed binary starts");
}

/// The real flag gets the build script's answer, and a `-z` keyword the linker does not know
/// (as a GNU ld older than 2.38 sees `pack-relative-relocs`: it only warns and links
/// unpacked) gets a no from the same probe.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_probe_says_yes_to_the_flag_as_the_build_did_and_no_to_a_flag_the_linker_ignores() {
    let target = host_rustc_target();
    let rustc = Rustc {
        program: "rustc",
        target: &target,
        flags: &[],
    };
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(packs(&rustc, FLAG, dir.path()), PACKED);
    assert!(!packs(&rustc, "-Wl,-z,no-such-keyword", dir.path()));
    // A flag the linker knows that packs nothing: linked and run, but no table.
    assert!(!packs(&rustc, "-Wl,-z,now", dir.path()));
}

#[test]
fn the_probe_says_no_without_a_compiler() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("no-such-rustc").display().to_string();
    let rustc = Rustc {
        program: &missing,
        target: "x86_64-unknown-linux-gnu",
        flags: &[],
    };
    assert!(!packs(&rustc, FLAG, dir.path()));
}

#[test]
fn a_file_that_is_no_complete_elf_program_has_no_table() {
    let elf = binary();
    assert!(!has_relr(b""));
    assert!(!has_relr(b"#!/bin/sh\n"));
    assert!(!has_relr(&elf[..64]));
    let mut big_endian = elf.clone();
    big_endian[5] = 2;
    assert!(!has_relr(&big_endian));
    // Program headers said to lie at the end of the address space: no table, no overflow.
    let mut far = elf.clone();
    far[0x20..0x28].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(!has_relr(&far));
}
