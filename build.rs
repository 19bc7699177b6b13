//! Links the `queuelab` binary with packed relative relocations (`DT_RELR`) where the linker and
//! the C library support them (glibc 2.36 or later, with GNU ld 2.38 or lld 15 or later, as on
//! Debian 12; rustc's own lld is one).
//!
//! At every start, before the first frame, the loader writes the binary's ~34,000 relative
//! relocations into place. As a table of 24-byte entries their list alone is about 830 KB that the
//! loader reads through; packed it is about 7 KB. A packed binary needs that C library or a newer
//! one to start, as any program built on a machine needs that machine's. Where the probe fails, on
//! targets other than linux-gnu, or when cross-compiling, nothing changes.

#[path = "build/relr_probe.rs"]
mod relr_probe;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build/relr_probe.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let target = var("TARGET");
    let native_linux_gnu = target == var("HOST")
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu";
    // The flags this build gives rustc, and the linker the configuration names, if any.
    let mut flags: Vec<String> = var("CARGO_ENCODED_RUSTFLAGS")
        .split('\x1f')
        .filter(|flag| !flag.is_empty())
        .map(str::to_owned)
        .collect();
    if let Ok(linker) = std::env::var("RUSTC_LINKER") {
        flags.extend(["-C".to_owned(), format!("linker={linker}")]);
    }
    let rustc = relr_probe::Rustc {
        program: &var("RUSTC"),
        target: &target,
        flags: &flags,
    };
    let out_dir = std::path::PathBuf::from(var("OUT_DIR"));
    let packed = native_linux_gnu && relr_probe::packs(&rustc, relr_probe::FLAG, &out_dir);
    if packed {
        println!("cargo::rustc-link-arg-bins={}", relr_probe::FLAG);
    }
    // The test that reads the binary's dynamic section knows what to expect, and probes again
    // with the compiler and target this build used.
    println!(
        "cargo::rustc-env=QUEUELAB_RELOCS={}",
        if packed { "packed" } else { "plain" }
    );
    println!("cargo::rustc-env=QUEUELAB_BUILD_RUSTC={}", rustc.program);
    println!("cargo::rustc-env=QUEUELAB_BUILD_TARGET={target}");
}
