//! The binary's relative relocations are packed (`DT_RELR`) exactly when the build script's probe
//! said the linker and the loader can do it, and the probe says no where they cannot.

#[path = "../build/relr_probe.rs"]
mod relr_probe;

use std::path::Path;

/// `DT_RELR` in an ELF dynamic section.
const DT_RELR: u64 = 36;
/// `PT_DYNAMIC` in a program header.
const PT_DYNAMIC: u32 = 2;

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(bytes[at..at + 2].try_into().expect("two bytes"))
}
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

/// The tags of a little-endian ELF64 file's dynamic section.
fn dynamic_tags(elf: &[u8]) -> Vec<u64> {
    assert_eq!(&elf[..6], b"\x7fELF\x02\x01", "a little-endian ELF64 file");
    let (table, entry_size, entries) = (
        u64_at(elf, 0x20) as usize,
        usize::from(u16_at(elf, 0x36)),
        usize::from(u16_at(elf, 0x38)),
    );
    let dynamic = (0..entries)
        .map(|i| table + i * entry_size)
        .find(|&header| u32_at(elf, header) == PT_DYNAMIC)
        .expect("a dynamically linked program");
    let (start, size) = (
        u64_at(elf, dynamic + 8) as usize,
        u64_at(elf, dynamic + 32) as usize,
    );
    (start..start + size)
        .step_by(16)
        .map(|entry| u64_at(elf, entry))
        .take_while(|&tag| tag != 0)
        .collect()
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_binary_is_packed_as_the_probe_decided() {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_queuelab")).expect("the built binary");
    let packed = dynamic_tags(&elf).contains(&DT_RELR);
    assert_eq!(packed, env!("QUEUELAB_RELOCS") == "packed");
    // With the default linker, the probe here answers as it did in the build script.
    let dir = tempfile::tempdir().expect("tempdir");
    assert_eq!(relr_probe::packs("cc", dir.path()), packed);
    // A packed binary starts: the loader applied its relocations.
    let version = std::process::Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--version")
        .output()
        .expect("runs");
    assert!(version.status.success());
}

#[test]
fn the_probe_says_no_without_a_linker() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert!(!relr_probe::packs(
        &dir.path().join("no-such-cc").display().to_string(),
        dir.path()
    ));
}

/// A linker driver that hands `ld` a `-z` keyword it does not know, as a GNU ld older than
/// 2.38 sees `pack-relative-relocs`: ld only warns and links unpacked, and the probe must
/// not take that for a yes.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_probe_says_no_when_the_linker_only_warns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let driver = dir.path().join("old-cc");
    write_executable(
        &driver,
        "#!/bin/sh\nfor a; do shift; case $a in -Wl,-z,pack-relative-relocs) a=-Wl,-z,no-such-keyword;; esac; set -- \"$@\" \"$a\"; done\nexec cc \"$@\"\n",
    );
    assert!(!relr_probe::packs(
        &driver.display().to_string(),
        dir.path()
    ));
}

fn write_executable(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, script).expect("write the driver");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}
