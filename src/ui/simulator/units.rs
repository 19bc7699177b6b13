//! Numbers for people on the simulator screen: a no-break space between a number and its
//! unit ("1,3 s", "7 Tage"), so a wrapped line never leaves the unit alone at the start of
//! the next row.

/// The units the simulator writes after a number.
const UNITS: [&str; 10] = [
    "ms", "s", "min", "h", "Tag", "Tage", "day", "days", "KiB", "MiB",
];

/// `text` with the space between a number and a following unit made a no-break space.
pub fn glue(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let after_digit = i > 0 && chars[i - 1].is_ascii_digit();
        if *c == ' ' && after_digit && unit_at(&chars[i + 1..]) {
            out.push('\u{a0}');
        } else {
            out.push(*c);
        }
    }
    out
}

/// True when `rest` starts with a unit that ends at a word boundary.
fn unit_at(rest: &[char]) -> bool {
    UNITS.iter().any(|unit| {
        let n = unit.chars().count();
        rest.len() >= n
            && rest[..n].iter().copied().eq(unit.chars())
            && rest.get(n).is_none_or(|c| !c.is_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_stays_with_its_number() {
        assert_eq!(glue("bei 1,3 s ab"), "bei 1,3\u{a0}s ab");
        assert_eq!(glue("7 Tage und 5 ms"), "7\u{a0}Tage und 5\u{a0}ms");
        assert_eq!(
            glue("3 sichtbar"),
            "3 sichtbar",
            "a word that starts like a unit"
        );
        assert_eq!(glue("Order 3 was"), "Order 3 was");
    }
}
