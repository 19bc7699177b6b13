//! The outage-cost calculator of chapter 11: incidents x people x hours x hourly cost.

use content::key;
use content::{Calculator, Lang};

/// The four numbers the learner edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CalcField {
    /// Incidents per month.
    Incidents,
    /// People per incident.
    People,
    /// Hours per person and incident.
    Hours,
    /// Full hourly cost (salary plus overhead).
    HourlyCost,
}

impl CalcField {
    /// The fields in display order.
    pub const ALL: [CalcField; 4] = [
        CalcField::Incidents,
        CalcField::People,
        CalcField::Hours,
        CalcField::HourlyCost,
    ];

    /// The largest value that still makes sense (a month has 744 hours; beyond these a typo
    /// is likelier than a real figure).
    pub fn upper_bound(self) -> f64 {
        match self {
            CalcField::Incidents | CalcField::People => 1_000.0,
            CalcField::Hours => 744.0,
            CalcField::HourlyCost => 100_000.0,
        }
    }

    /// String key of the field's label.
    pub fn label_key(self) -> content::Key {
        match self {
            CalcField::Incidents => key::calc::INCIDENTS,
            CalcField::People => key::calc::PEOPLE,
            CalcField::Hours => key::calc::HOURS,
            CalcField::HourlyCost => key::calc::HOURLY_COST,
        }
    }
}

/// Why a typed number was rejected (each maps to a UI string key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CalcError {
    /// Not a number at all.
    NotANumber,
    /// Below zero.
    Negative,
    /// Above [`CalcField::upper_bound`].
    TooLarge,
}

impl CalcError {
    /// String key of the message.
    pub fn message_key(self) -> content::Key {
        match self {
            CalcError::NotANumber => key::calc::ERR_NUMBER,
            CalcError::Negative => key::calc::ERR_NEGATIVE,
            CalcError::TooLarge => key::calc::ERR_LARGE,
        }
    }
}

/// The calculator's current values.
#[derive(Debug, Clone, PartialEq)]
pub struct CalcValues {
    /// Values by field, in [`CalcField::ALL`] order.
    pub values: [f64; 4],
    /// The currencies Enter cycles through (the content's list, plus a configured one).
    pub currencies: Vec<String>,
    /// Index into `currencies`.
    pub currency: usize,
}

impl CalcValues {
    /// Starts from the content's defaults (the seed's example).
    pub fn from_defaults(c: &Calculator) -> Self {
        CalcValues {
            values: [c.incidents, c.people, c.hours, c.hourly_cost],
            currencies: c.currencies.clone(),
            currency: c
                .currencies
                .iter()
                .position(|x| *x == c.currency)
                .unwrap_or(0),
        }
    }

    /// Selects `code`, adding it to the cycle when the content does not offer it (a workshop
    /// config may name any currency).
    pub fn start_in(&mut self, code: &str) {
        self.currency = if let Some(i) = self.currencies.iter().position(|c| c == code) {
            i
        } else {
            self.currencies.push(code.to_owned());
            self.currencies.len() - 1
        };
    }

    /// The selected currency's code (empty when the list is empty).
    pub fn currency_code(&self) -> &str {
        self.currencies
            .get(self.currency)
            .map_or("", String::as_str)
    }

    /// Moves on to the next currency of the cycle.
    pub fn next_currency(&mut self) {
        self.currency = (self.currency + 1) % self.currencies.len().max(1);
    }

    /// The value of one field.
    pub fn get(&self, field: CalcField) -> f64 {
        self.values[field as usize]
    }

    /// Sets one field from text the learner typed.
    pub fn set(&mut self, field: CalcField, text: &str) -> Result<(), CalcError> {
        self.values[field as usize] = parse_value(field, text)?;
        Ok(())
    }

    /// Cost per month: the product of the four numbers.
    pub fn monthly(&self) -> f64 {
        self.values.iter().product()
    }
}

/// Parses a number typed with `.` or `,` as the decimal mark and checks its bounds.
pub fn parse_value(field: CalcField, text: &str) -> Result<f64, CalcError> {
    let cleaned = text.trim().replace(',', ".");
    let value: f64 = cleaned.parse().map_err(|_| CalcError::NotANumber)?;
    if !value.is_finite() {
        return Err(CalcError::NotANumber);
    }
    if value < 0.0 {
        return Err(CalcError::Negative);
    }
    if value > field.upper_bound() {
        return Err(CalcError::TooLarge);
    }
    Ok(value)
}

impl CalcField {
    /// Whether the field holds money (shown with two decimals, like every amount of money).
    pub fn is_money(self) -> bool {
        matches!(self, CalcField::HourlyCost)
    }
}

/// Formats a value of `field`: money with two decimals, counts and hours as
/// [`format_amount`] does.
pub fn format_field(field: CalcField, value: f64, lang: Lang) -> String {
    if field.is_money() {
        format_money(value, lang)
    } else {
        format_amount(value, lang)
    }
}

/// Formats money the way each language writes it, always with two decimals: `2,992.50` /
/// `2.992,50` (never `2.992,5`).
pub fn format_money(value: f64, lang: Lang) -> String {
    let (thousands, decimal) = marks(lang);
    let cents = (value * 100.0).round() as u64;
    format!(
        "{}{decimal}{:02}",
        grouped(cents / 100, thousands),
        cents % 100
    )
}

/// The thousands separator and the decimal mark of `lang`.
fn marks(lang: Lang) -> (char, char) {
    match lang {
        Lang::De => ('.', ','),
        Lang::En => (',', '.'),
    }
}

/// `whole` with its thousands separated: `5400` → `5,400`.
fn grouped(whole: u64, thousands: char) -> String {
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(thousands);
        }
        out.push(ch);
    }
    out
}

/// Formats an amount the way each language writes it: `5,400` / `5.400`, with up to two
/// decimals when needed (`2.5` / `2,5`).
pub fn format_amount(value: f64, lang: Lang) -> String {
    let (thousands, decimal) = marks(lang);
    let cents = (value * 100.0).round() as u64;
    let frac = cents % 100;
    let grouped = grouped(cents / 100, thousands);
    match frac {
        0 => grouped,
        f if f % 10 == 0 => format!("{grouped}{decimal}{}", f / 10),
        f => format!("{grouped}{decimal}{f:02}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> CalcValues {
        CalcValues {
            values: [4.0, 3.0, 2.5, 180.0],
            currencies: vec!["PLN".into(), "EUR".into()],
            currency: 0,
        }
    }

    #[test]
    fn a_configured_currency_joins_the_cycle_once() {
        let mut v = seed();
        v.start_in("EUR");
        assert_eq!((v.currency_code(), v.currencies.len()), ("EUR", 2));
        v.start_in("SEK");
        assert_eq!((v.currency_code(), v.currencies.len()), ("SEK", 3));
        v.next_currency();
        assert_eq!(v.currency_code(), "PLN", "the cycle wraps");
        v.start_in("SEK");
        assert_eq!(v.currencies.len(), 3, "not added twice");
    }

    #[test]
    fn the_seed_example_costs_5400_a_month() {
        assert!((seed().monthly() - 5400.0).abs() < f64::EPSILON);
        assert_eq!(format_amount(5400.0, Lang::En), "5,400");
        assert_eq!(format_amount(5400.0, Lang::De), "5.400");
        assert_eq!(format_amount(2.5, Lang::De), "2,5");
        assert_eq!(format_amount(1_234_567.25, Lang::En), "1,234,567.25");
    }

    #[test]
    fn money_has_two_decimals_in_both_languages() {
        assert_eq!(format_money(2992.5, Lang::De), "2.992,50");
        assert_eq!(format_money(2992.5, Lang::En), "2,992.50");
        assert_eq!(format_money(5400.0, Lang::De), "5.400,00");
        assert_eq!(format_money(0.125, Lang::En), "0.13");
        assert_eq!(
            format_field(CalcField::HourlyCost, 180.0, Lang::En),
            "180.00"
        );
        assert_eq!(format_field(CalcField::Hours, 2.5, Lang::De), "2,5");
    }

    #[test]
    fn bad_numbers_are_rejected_with_a_reason() {
        let mut v = seed();
        assert_eq!(v.set(CalcField::Hours, "abc"), Err(CalcError::NotANumber));
        assert_eq!(v.set(CalcField::Hours, ""), Err(CalcError::NotANumber));
        assert_eq!(v.set(CalcField::Hours, "NaN"), Err(CalcError::NotANumber));
        assert_eq!(v.set(CalcField::Hours, "inf"), Err(CalcError::NotANumber));
        assert_eq!(v.set(CalcField::People, "-1"), Err(CalcError::Negative));
        assert_eq!(v.set(CalcField::Hours, "745"), Err(CalcError::TooLarge));
        assert!(
            (v.monthly() - 5400.0).abs() < f64::EPSILON,
            "a rejected value changes nothing"
        );
        assert_eq!(v.set(CalcField::Hours, "3,5"), Ok(()));
        assert!((v.monthly() - 7560.0).abs() < 1e-9);
    }
}
