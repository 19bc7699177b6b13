//! The outage-cost calculator of chapter 11 on screen: whichever field is edited, the field, the
//! product and the error stay visible at 80x24 and 100x30, rejected input (`-1,5`) included; the
//! currency starts as the language's (EUR) or as the workshop config names it.

use crate::support::screen as support;

use queuelab::app::{App, Info, Options};
use queuelab::content::Lang;
use queuelab::content::key;
use support::{new_app, press, screen};

const CASES: [(Lang, u16, u16); 2] = [(Lang::De, 80, 24), (Lang::En, 100, 30)];

/// Chapter 11 open, the calculator's first field focused.
fn calculator(lang: Lang, width: u16, height: u16, currency: Option<&str>) -> App {
    let mut app = new_app(lang, Options::default(), Info::default(), width, height);
    app.session.calc_currency = currency.map(str::to_owned);
    press(&mut app, "211\t");
    app
}

fn product_line(text: &str) -> Option<&str> {
    text.lines()
        .find(|l| l.contains(" × ") && (l.contains("per month") || l.contains("pro Monat")))
}

#[test]
fn the_edited_field_the_product_and_the_error_stay_on_screen() {
    for (lang, width, height) in CASES {
        for field in 0..4 {
            let mut app = calculator(lang, width, height, None);
            let error = app
                .session
                .strings()
                .get(key::calc::ERR_NEGATIVE)
                .to_owned();
            let error = error.as_str();
            press(&mut app, &"\t".repeat(field));
            // Typing: the field and the product are both on screen.
            press(&mut app, "\n-1,5");
            let typing = screen(&app);
            assert!(
                typing.contains("[-1,5▏]"),
                "{lang} field {field}:\n{typing}"
            );
            assert!(
                product_line(&typing).is_some(),
                "{lang} field {field}:\n{typing}"
            );
            // Rejected: the typed text, the product and the reason, all at once.
            press(&mut app, "\n");
            let rejected = screen(&app);
            assert!(
                rejected.contains("[-1,5▏]"),
                "{lang} field {field}:\n{rejected}"
            );
            assert!(
                product_line(&rejected).is_some(),
                "{lang} {field}:\n{rejected}"
            );
            assert!(
                rejected.contains(error),
                "{lang} field {field} {width}x{height}:\n{rejected}"
            );
            if field == 0 {
                insta::assert_snapshot!(
                    format!("calculator_rejected_{lang}_{width}x{height}"),
                    rejected
                );
            }
            // Corrected: the error goes, the new product shows.
            press(&mut app, "\x7f\x7f\x7f\x7f2\n");
            let accepted = screen(&app);
            assert!(
                !accepted.contains(error),
                "{lang} field {field}:\n{accepted}"
            );
            let product = product_line(&accepted).expect("product");
            // Money always has two decimals, in both languages.
            let expected = ["2,700.00", "3,600.00", "4,320.00", "60.00"][field];
            let expected = match lang {
                Lang::De => expected
                    .replace(',', "_")
                    .replace('.', ",")
                    .replace('_', "."),
                Lang::En => expected.to_owned(),
            };
            assert!(
                product.contains(&format!("= {expected} EUR")),
                "{lang} field {field}: {product}"
            );
        }
    }
}

#[test]
fn the_currency_follows_the_language_or_the_workshop_config() {
    for (lang, width, height) in CASES {
        let app = calculator(lang, width, height, None);
        let text = screen(&app);
        assert!(
            product_line(&text)
                .is_some_and(|l| l.ends_with("EUR per month") || l.ends_with("EUR pro Monat")),
            "{lang}:\n{text}"
        );
        let mut app = calculator(lang, width, height, Some("SEK"));
        let text = screen(&app);
        assert!(
            product_line(&text).is_some_and(|l| l.contains(" SEK ")),
            "{lang}:\n{text}"
        );
        // Enter on the currency cycles on from the configured one and wraps to the list.
        press(&mut app, "\t\t\t\t\n");
        let text = screen(&app);
        assert!(
            product_line(&text).is_some_and(|l| l.contains(" PLN ")),
            "{text}"
        );
        insta::assert_snapshot!(format!("calculator_currency_{lang}_{width}x{height}"), text);
    }
}

#[test]
fn the_calculator_speaks_the_chapters_terms() {
    // One term per concept: each field's label is a row of the chapter's worked example and a
    // factor of its formula (in lower case in the English formula).
    let chapters = [
        (
            Lang::De,
            include_str!("../../lessons/de/chapters/11-outage-cost.md"),
        ),
        (
            Lang::En,
            include_str!("../../lessons/en/chapters/11-outage-cost.md"),
        ),
    ];
    for (lang, chapter) in chapters {
        let app = new_app(lang, Options::default(), Info::default(), 80, 24);
        let strings = app.session.strings();
        for key in [
            key::calc::INCIDENTS,
            key::calc::PEOPLE,
            key::calc::HOURS,
            key::calc::HOURLY_COST,
        ] {
            let label = strings.get(key);
            assert!(
                chapter.contains(&format!("| {label} |")),
                "{lang:?} {key} {label:?} is not a row of the chapter's table"
            );
            let (lower, label_lower) = (chapter.to_lowercase(), label.to_lowercase());
            assert!(
                lower.contains(&format!("x {label_lower}\n"))
                    || lower.contains(&format!("= {label_lower}\n")),
                "{lang:?} {key} {label:?} is not a factor of the chapter's formula"
            );
        }
    }
}
