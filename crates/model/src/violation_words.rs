//! The broken invariants of a lab check in the learner's language. The engine's invariant
//! check and the lab's breaches word each violation in English, one line each (the `--json`
//! report and the logs carry them so); the check's report reads each line against the shapes
//! below and says it again with the language's own words. A line of no known shape is shown as
//! it is.

use content::Strings;
use content::key;

/// Each shape the engine words a violation in (placeholders in braces) and its string key.
const SHAPES: &[(&str, content::Key)] = &[
    (
        "order {id}: no effect and not in the DLQ (lost)",
        key::lab::VIOLATION_LOST,
    ),
    (
        "order {id}: has an effect and an open DLQ entry the inbox would not recognise",
        key::lab::VIOLATION_UNGUARDED,
    ),
    (
        "order {id}: charged {n} times at the provider",
        key::lab::VIOLATION_CHARGED,
    ),
    ("order {id}: {n} effects", key::lab::VIOLATION_EFFECTS),
    (
        "... {n} lost orders in total",
        key::lab::VIOLATION_LOST_TOTAL,
    ),
    (
        "effect for order {id} which does not exist",
        key::lab::VIOLATION_NO_ORDER,
    ),
    (
        "DLQ entry {seq} ({message}) carries a reason that belongs to another message",
        key::lab::VIOLATION_FOREIGN_REASON,
    ),
    (
        "{customer}: order {later} took effect before the earlier order {earlier} of the same customer",
        key::lab::VIOLATION_OUT_OF_ORDER,
    ),
    (
        "{n} effect(s) applied on a claim-check payload whose hash did not match",
        key::lab::VIOLATION_UNVERIFIED,
    ),
    (
        "{invariant}: order {order}, message {message}",
        key::lab::VIOLATION_BREACH,
    ),
];

/// `violation` in the language of `strings`.
pub fn say(strings: &Strings, violation: &str) -> String {
    SHAPES
        .iter()
        .find_map(|(shape, key)| {
            let values = read(shape, violation)?;
            let args: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, *v)).collect();
            Some(strings.fill(*key, &args))
        })
        .unwrap_or_else(|| violation.to_owned())
}

/// The placeholders' values when `text` has the shape `shape`. A placeholder takes the
/// shortest text up to the literal after it (none of the values holds that literal); one at
/// the end takes the rest, and no value is empty.
pub fn read<'s, 't>(shape: &'s str, text: &'t str) -> Option<Vec<(&'s str, &'t str)>> {
    let mut values = Vec::new();
    let mut rest_shape = shape;
    let mut rest = text;
    loop {
        let Some(open) = rest_shape.find('{') else {
            return (rest == rest_shape).then_some(values);
        };
        rest = rest.strip_prefix(&rest_shape[..open])?;
        let close = open + rest_shape[open..].find('}')?;
        let name = &rest_shape[open + 1..close];
        rest_shape = &rest_shape[close + 1..];
        let literal = &rest_shape[..rest_shape.find('{').unwrap_or(rest_shape.len())];
        let end = if literal.is_empty() {
            rest.len()
        } else {
            rest.find(literal)?
        };
        if end == 0 {
            return None;
        }
        values.push((name, &rest[..end]));
        rest = &rest[end..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use content::Lang;

    fn strings(lang: Lang) -> Strings {
        Strings::built(lang)
    }

    #[test]
    fn every_shape_reads_back_and_is_said_in_german() {
        let de = strings(Lang::De);
        for (shape, key) in SHAPES {
            let example = shape
                .replace("{id}", "7")
                .replace("{n}", "2")
                .replace("{seq}", "3")
                .replace("{message}", "msg-000007")
                .replace("{customer}", "c-1")
                .replace("{later}", "9")
                .replace("{earlier}", "8")
                .replace("{invariant}", "poison-retried")
                .replace("{order}", "7");
            let said = say(&de, &example);
            assert_ne!(said, example, "{key} is said in German");
            assert!(!said.contains('{'), "{key}: {said}");
            assert!(!said.contains("lab.violation"), "{key}: {said}");
            let en = say(&strings(Lang::En), &example);
            assert_eq!(en, example, "English says it as the engine does");
        }
    }

    #[test]
    fn values_are_kept_and_an_unknown_line_stays_as_it_is() {
        let de = strings(Lang::De);
        assert_eq!(say(&de, "order 12: 3 effects"), "Auftrag 12: 3 Wirkungen");
        assert_eq!(
            say(&de, "poison-retried: order 4, message msg-000004"),
            "poison-retried: Auftrag 4, Nachricht msg-000004"
        );
        assert_eq!(say(&de, "something new"), "something new");
        assert_eq!(say(&de, "order : 3 effects"), "order : 3 effects");
    }
}
