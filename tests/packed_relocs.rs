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

#[test]
fn the_binary_is_packed_as_the_build_script_decided_and_starts() {
    assert_eq!(has_relr(&binary()), PACKED);
    let version = std::process::Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--version")
        .output()
        .expect("runs");
    assert!(version.status.success(), "a packed binary starts");
}

/// With the build's own compiler and target, the real flag gets the build script's answer, and
/// a `-z` keyword the linker does not know (as a GNU ld older than 2.38 sees
/// `pack-relative-relocs`: it only warns and links unpacked) gets a no from the same probe.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_probe_says_yes_to_the_flag_as_the_build_did_and_no_to_a_flag_the_linker_ignores() {
    let rustc = Rustc {
        program: env!("QUEUELAB_BUILD_RUSTC"),
        target: env!("QUEUELAB_BUILD_TARGET"),
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

/// The smallest file the reader accepts: an ELF64 little-endian header, one program header
/// (`PT_DYNAMIC`) and a dynamic section holding `tag` and the end tag.
fn elf_with_dynamic_tag(tag: u64) -> Vec<u8> {
    const HEADER: usize = 64;
    const PROGRAM_HEADER: usize = 56;
    let dynamic_at = HEADER + PROGRAM_HEADER;
    let mut elf = vec![0u8; dynamic_at + 32];
    elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
    elf[0x20..0x28].copy_from_slice(&(HEADER as u64).to_le_bytes());
    elf[0x36..0x38].copy_from_slice(&(PROGRAM_HEADER as u16).to_le_bytes());
    elf[0x38..0x3a].copy_from_slice(&1u16.to_le_bytes());
    let program_header = &mut elf[HEADER..dynamic_at];
    program_header[..4].copy_from_slice(&2u32.to_le_bytes());
    program_header[8..16].copy_from_slice(&(dynamic_at as u64).to_le_bytes());
    program_header[32..40].copy_from_slice(&32u64.to_le_bytes());
    elf[dynamic_at..dynamic_at + 8].copy_from_slice(&tag.to_le_bytes());
    elf
}

/// The reader on its own, apart from what the build decided: it finds a `DT_RELR` (36) entry
/// and nothing in a section that lacks one, or that ends before it.
#[test]
fn the_reader_finds_the_packed_table_in_a_dynamic_section() {
    assert!(has_relr(&elf_with_dynamic_tag(36)));
    assert!(!has_relr(&elf_with_dynamic_tag(35)));
    // The end tag first, a `DT_RELR` after it.
    let mut ended = elf_with_dynamic_tag(0);
    let second = ended.len() - 16;
    ended[second..second + 8].copy_from_slice(&36u64.to_le_bytes());
    assert!(!has_relr(&ended));
}
