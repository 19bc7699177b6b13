//! Links the `queuelab` binary with packed relative relocations (`DT_RELR`) where the linker and
//! the C library support them (GNU ld 2.38 or lld 15 and glibc 2.36 on, as on Debian 12).
//!
//! At every start the loader writes the binary's ~34,000 relative relocations into place
//! (SPEC 6, start-up budget). As a table of 24-byte entries their list alone is about 830 KB
//! that the loader reads through; packed it is about 7 KB. Where the probe fails, or the
//! build is for another target than the machine it runs on, nothing changes.

#[path = "build/relr_probe.rs"]
mod relr_probe;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build/relr_probe.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native_linux_gnu = var("TARGET") == var("HOST")
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu";
    // rustc links through `cc` unless the configuration names another linker.
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_owned());
    let out_dir = std::path::PathBuf::from(var("OUT_DIR"));
    let packed = native_linux_gnu && relr_probe::packs(&linker, &out_dir);
    if packed {
        println!("cargo::rustc-link-arg-bins={}", relr_probe::FLAG);
    }
    // The test that reads the binary's dynamic section knows what to expect.
    println!(
        "cargo::rustc-env=QUEUELAB_RELOCS={}",
        if packed { "packed" } else { "plain" }
    );
}
