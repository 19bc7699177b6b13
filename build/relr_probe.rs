//! Whether rustc, as this build calls it, links a program with packed relative relocations
//! (`DT_RELR`) that this machine's loader then runs correctly. Shared by the root build script
//! and its test.

use std::path::Path;
use std::process::Command;

/// The linker-driver flag that packs relative relocations.
pub const FLAG: &str = "-Wl,-z,pack-relative-relocs";

/// A program whose one static pointer the loader must relocate, read through at run time.
const PROGRAM: &str = "static ANSWER: i32 = 42;\n\
    static ANSWER_AT: &i32 = &ANSWER;\n\
    fn main() {\n\
    \x20   std::process::exit(if **std::hint::black_box(&ANSWER_AT) == 42 { 0 } else { 1 });\n\
    }\n";

/// How the probe calls rustc: the compiler, the target and the flags of this build
/// (a linker named in the configuration among them), so it links as the binary will be.
pub struct Rustc<'a> {
    pub program: &'a str,
    pub target: &'a str,
    pub flags: &'a [String],
}

/// Compiles [`PROGRAM`] with `link_flag` in `dir`, linker warnings made errors, then checks
/// that the result has a `DT_RELR` table and runs. True only if all of that holds.
///
/// Each way this can go wrong on a learner's machine ends in `false`, and the binary is then
/// linked unpacked: a linker that does not know the flag (it warns, and the warning is fatal),
/// one that takes the flag and packs nothing, a C library older than 2.36 whose loader refuses
/// the `GLIBC_ABI_DT_RELR` version the linker asks for, or a loader that ignores `DT_RELR`
/// (the pointer then stays unrelocated and the program fails).
pub fn packs(rustc: &Rustc, link_flag: &str, dir: &Path) -> bool {
    let source = dir.join("relr_probe.rs");
    let program = dir.join("relr_probe");
    if std::fs::write(&source, PROGRAM).is_err() {
        return false;
    }
    let built = Command::new(rustc.program)
        .args(["--edition", "2021", "--target", rustc.target])
        .args(rustc.flags)
        .args(["-C", &format!("link-arg={link_flag}")])
        .args(["-C", "link-arg=-Wl,--fatal-warnings", "-o"])
        .arg(&program)
        .arg(&source)
        .output();
    built.is_ok_and(|out| out.status.success())
        && std::fs::read(&program).is_ok_and(|elf| has_relr(&elf))
        && Command::new(&program)
            .output()
            .is_ok_and(|out| out.status.success())
}

/// Whether a little-endian ELF64 file's dynamic section has a `DT_RELR` entry. Anything else,
/// a truncated file included, answers false.
pub fn has_relr(elf: &[u8]) -> bool {
    const PT_DYNAMIC: u32 = 2;
    const DT_RELR: u64 = 36;
    let bytes = |at: usize, n: usize| elf.get(at..at.checked_add(n)?);
    let u16_at = |at| bytes(at, 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |at| bytes(at, 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let u64_at = |at| {
        bytes(at, 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
    };
    let as_usize = |v: u64| usize::try_from(v).ok();
    if elf.get(..6) != Some(b"\x7fELF\x02\x01".as_slice()) {
        return false;
    }
    let (Some(table), Some(entry_size), Some(entries)) =
        (u64_at(0x20).and_then(as_usize), u16_at(0x36), u16_at(0x38))
    else {
        return false;
    };
    let dynamic = (0..usize::from(entries))
        .map(|i| table.saturating_add(i * usize::from(entry_size)))
        .find(|&header| u32_at(header) == Some(PT_DYNAMIC));
    let Some(dynamic) = dynamic else {
        return false;
    };
    let (Some(start), Some(size)) = (
        u64_at(dynamic.saturating_add(8)).and_then(as_usize),
        u64_at(dynamic.saturating_add(32)).and_then(as_usize),
    ) else {
        return false;
    };
    (start..start.saturating_add(size))
        .step_by(16)
        .map_while(u64_at)
        .take_while(|&tag| tag != 0)
        .any(|tag| tag == DT_RELR)
}
