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
    const PT_DYNAMIC: usize = 2;
    const DT_RELR: usize = 36;
    // The little-endian unsigned number of `n` bytes at `at`, if the file has them and it
    // fits in a usize.
    let number = |at: usize, n: usize| {
        let bytes = elf.get(at..at.checked_add(n)?)?;
        let value = bytes.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
        usize::try_from(value).ok()
    };
    if elf.get(..6) != Some(b"\x7fELF\x02\x01".as_slice()) {
        return false;
    }
    let (Some(table), Some(entry_size), Some(entries)) =
        (number(0x20, 8), number(0x36, 2), number(0x38, 2))
    else {
        return false;
    };
    let dynamic = (0..entries)
        .map(|i| table.saturating_add(i.saturating_mul(entry_size)))
        .find(|&header| number(header, 4) == Some(PT_DYNAMIC));
    let Some(dynamic) = dynamic else {
        return false;
    };
    let (Some(start), Some(size)) = (
        number(dynamic.saturating_add(8), 8),
        number(dynamic.saturating_add(32), 8),
    ) else {
        return false;
    };
    (start..start.saturating_add(size))
        .step_by(16)
        .map_while(|at| number(at, 8))
        .take_while(|&tag| tag != 0)
        .any(|tag| tag == DT_RELR)
}
