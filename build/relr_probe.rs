//! Whether a linker packs relative relocations (`DT_RELR`) into a program that this machine's
//! loader then runs correctly. Shared by the build script and its test.

use std::path::Path;
use std::process::Command;

/// The linker-driver flag that packs relative relocations.
pub const FLAG: &str = "-Wl,-z,pack-relative-relocs";

/// Links a small C program with [`FLAG`] through `linker` (a C compiler driver, as rustc uses
/// one) in `dir`, then runs it. True only if both succeed.
///
/// Each way this can go wrong on a learner's machine ends in `false`, and the binary is then
/// linked as before: a linker that does not know the flag (it warns, and the warning is made
/// fatal), a C library older than 2.36 whose loader refuses the `GLIBC_ABI_DT_RELR` version
/// the linker asks for, or a loader that ignores `DT_RELR` (the probe's one pointer then stays
/// unrelocated and reading through it fails).
pub fn packs(linker: &str, dir: &Path) -> bool {
    let source = dir.join("relr_probe.c");
    let program = dir.join("relr_probe");
    // One pointer in read-only data: a relative relocation, so the linker has something to pack.
    let code = "static int answer = 0;\n\
                int *const answer_at = &answer;\n\
                int main(void) { return *answer_at; }\n";
    if std::fs::write(&source, code).is_err() {
        return false;
    }
    let built = Command::new(linker)
        .args(["-fPIE", "-pie", "-Wl,--fatal-warnings", FLAG, "-o"])
        .arg(&program)
        .arg(&source)
        .output();
    built.is_ok_and(|out| out.status.success())
        && Command::new(&program)
            .output()
            .is_ok_and(|out| out.status.success())
}
