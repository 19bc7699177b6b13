//! `queuelab export map` end to end: the four files, a PNG that decodes back to the URL, pages
//! without external resources, and clear failures for bad input.

use std::path::Path;
use std::process::{Command, Output};

const URL: &str = "https://example.org/lab?room=2&seat=<7>";

fn queuelab(dir: &Path, config: &str, args: &[&str]) -> Output {
    let config_file = dir.join("queuelab.toml");
    std::fs::write(&config_file, config).expect("write config");
    Command::new(env!("CARGO_BIN_EXE_queuelab"))
        .arg("--data-dir")
        .arg(dir.join("data"))
        .arg("--config")
        .arg(&config_file)
        .args(args)
        .output()
        .expect("run queuelab")
}

fn decode(png: &Path) -> String {
    let img = image::open(png).expect("qr.png is an image").to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(img);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "exactly one QR code in {}", png.display());
    grids[0].decode().expect("the code decodes").1
}

/// Every place an HTML page could pull something from elsewhere; only the map URL itself (as text
/// and QR content) may appear.
fn assert_self_contained(html: &str, allowed: &str) {
    let allowed = allowed
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    // The card shows the URL with break points after each `/`.
    let broken = allowed.replace('/', "/<wbr>").replace("/<wbr>/<wbr>", "//");
    let rest = html.replace(&broken, "").replace(&allowed, "");
    for needle in [
        "http:",
        "https:",
        "//",
        "src=",
        "<link",
        "<script",
        "@import",
        "@font-face",
        "<iframe",
        "<object",
        "<embed",
        "<base",
    ] {
        assert!(!rest.contains(needle), "found {needle:?} in the page");
    }
    // url(...) may only point at a fragment inside the same document (SVG markers).
    for (i, _) in rest.match_indices("url(") {
        assert!(rest[i..].starts_with("url(#"), "external url( at {i}");
    }
    // Links stay inside the page.
    for (i, _) in rest.match_indices("href=\"") {
        assert!(rest[i + 6..].starts_with('#'), "external href at {i}");
    }
}

#[test]
fn writes_four_files_whose_qr_decodes_to_the_url() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("new/map");
    for lang in ["en", "de"] {
        let output = queuelab(
            dir.path(),
            "",
            &[
                "--lang",
                lang,
                "export",
                "map",
                "--out",
                out.to_str().expect("utf-8"),
                "--url",
                URL,
            ],
        );
        assert!(output.status.success(), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stdout).contains("qr.png"));
        for file in ["map.html", "card.html", "qr.svg", "qr.png"] {
            assert!(out.join(file).is_file(), "{file} missing");
        }
        assert_eq!(decode(&out.join("qr.png")), URL);
        let map = std::fs::read_to_string(out.join("map.html")).expect("map.html");
        let card = std::fs::read_to_string(out.join("card.html")).expect("card.html");
        assert!(map.contains(&format!("<html lang=\"{lang}\"")));
        assert!(
            card.contains("example.org/lab?room=2&amp;seat=&lt;7&gt;"),
            "URL in text"
        );
        assert!(!card.contains("<7>"), "the URL is escaped");
        assert!(card.contains("<svg class=\"qr\""), "QR inline");
        assert!(map.contains("prefers-reduced-motion:reduce"));
        assert_self_contained(&map, URL);
        assert_self_contained(&card, URL);
        let svg = std::fs::read_to_string(out.join("qr.svg")).expect("qr.svg");
        assert!(svg.starts_with("<?xml") && svg.contains("viewBox"));
    }
    // The texts come from the reference content, in the chosen language.
    let de = std::fs::read_to_string(out.join("map.html")).expect("map.html");
    assert!(de.contains("Checkliste vor Produktion"), "German page");
    assert_eq!(de.matches("<li>").count(), 10, "ten checklist questions");
    assert_eq!(de.matches("<details").count(), 6, "six runbook signals");
}

#[test]
fn the_config_url_is_the_default_and_a_missing_url_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("m");
    let out = out.to_str().expect("utf-8");
    let output = queuelab(
        dir.path(),
        "[workshop]\nmap_url = \"https://lab.example.net/map\"\n",
        &["export", "map", "--out", out],
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        decode(&Path::new(out).join("qr.png")),
        "https://lab.example.net/map"
    );

    let output = queuelab(dir.path(), "", &["export", "map", "--out", out]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("--url") && err.contains("map_url"), "{err}");
    assert_eq!(err.lines().count(), 1, "one-line reason: {err}");
}

#[test]
fn bad_urls_and_unwritable_folders_fail_without_a_panic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("m");
    let out_str = out.to_str().expect("utf-8");
    for url in [
        "ftp://example.org",
        "example.org",
        "https://",
        "https://a b",
        "javascript:alert(1)",
    ] {
        let output = queuelab(
            dir.path(),
            "",
            &["export", "map", "--out", out_str, "--url", url],
        );
        assert_eq!(output.status.code(), Some(2), "{url}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            err.contains("http://") && !err.contains("panicked"),
            "{err}"
        );
    }
    assert!(!out.exists(), "nothing is written for a bad URL");

    let long = format!("https://example.org/{}", "x".repeat(5000));
    let output = queuelab(
        dir.path(),
        "",
        &["export", "map", "--out", out_str, "--url", &long],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("too long"));

    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let inside = file.join("out");
    let output = queuelab(
        dir.path(),
        "",
        &[
            "export",
            "map",
            "--out",
            inside.to_str().expect("utf-8"),
            "--url",
            "https://example.org",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("cannot create the folder") && err.contains("a-file"),
        "{err}"
    );
}

/// Debian's Chromium, as `.ci/run` installs it (the projector-page test uses the same one).
const CHROMIUM: &str = "/usr/bin/chromium";

/// Prints card.html with headless Chromium and counts the PDF's pages. Without Chromium the
/// test says so and passes on a developer's machine; under CI (`CI` set), where `.ci/run`
/// installs it, its absence fails the test with that reason.
#[test]
fn card_prints_on_one_a4_page() {
    if !Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs chromium (.ci/run), but {CHROMIUM} is missing: the A4 card cannot be printed"
        );
        eprintln!("skipped: {CHROMIUM} is missing; apt-get install chromium to print the card");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for lang in ["en", "de"] {
        let out = dir.path().join(lang);
        let output = queuelab(
            dir.path(),
            "",
            &[
                "--lang",
                lang,
                "export",
                "map",
                "--out",
                out.to_str().expect("utf-8"),
                "--url",
                URL,
            ],
        );
        assert!(output.status.success(), "{output:?}");
        let pdf = out.join("card.pdf");
        // A profile of its own: never the user's, and never one a running browser holds.
        let printed = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-pdf-header-footer",
            ])
            .arg(format!(
                "--user-data-dir={}",
                dir.path().join("profile").display()
            ))
            .arg(format!("--print-to-pdf={}", pdf.display()))
            .arg(format!("file://{}", out.join("card.html").display()))
            .output()
            .unwrap_or_else(|e| panic!("{CHROMIUM} does not start: {e}"));
        assert!(
            pdf.is_file(),
            "{lang}: {CHROMIUM} wrote no PDF ({}): {}",
            printed.status,
            String::from_utf8_lossy(&printed.stderr)
        );
        let bytes = std::fs::read(&pdf).expect("pdf");
        let text = String::from_utf8_lossy(&bytes);
        // Page objects are "/Type /Page" (the tree is "/Type /Pages").
        let pages = text
            .match_indices("/Type /Page")
            .filter(|(i, _)| !text[i + 11..].starts_with('s'))
            .count();
        assert_eq!(pages, 1, "{lang}: card.html prints on {pages} pages");
        // A4 is 595 x 842 points (Chromium writes 594.96 x 841.92).
        assert!(
            text.contains("/MediaBox [0 0 595") || text.contains("/MediaBox [0 0 594.9"),
            "{lang}: not A4"
        );
    }
}
