//! Naming a trainee in the dashboard's `a`, `d` and `x` prompts: the row's number as the list
//! shows it, or the start of the name in any case and without accents ("emil" finds "Emil
//! Müller", "muller" does not, "ém" finds both Emil and Emma). A start that fits several
//! trainees names them all, so the instructor types one letter more.

use domain::workshop::summary::TraineeView;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Which trainees a typed text names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked<'a> {
    /// Exactly this one.
    One(&'a TraineeView),
    /// These all fit; more letters are needed.
    Several(Vec<&'a TraineeView>),
    /// Nobody on the list.
    Nobody,
}

/// `text` in lower case without accents (`Müller` -> `muller`, `Straße` -> `strasse`).
pub fn fold(text: &str) -> String {
    text.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect::<String>()
        .replace('ß', "ss")
}

/// The trainee(s) `typed` names among `rows` (numbered from 1 in this order): a row number, the
/// id, a whole name (which wins over longer names it starts: "Ada" is not "Ada (2)"), or the
/// start of names.
pub fn pick<'a>(rows: &'a [TraineeView], typed: &str) -> Picked<'a> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Picked::Nobody;
    }
    if let Ok(n) = typed.parse::<usize>() {
        return n
            .checked_sub(1)
            .and_then(|i| rows.get(i))
            .map_or(Picked::Nobody, Picked::One);
    }
    if let Some(t) = rows.iter().find(|t| t.id == typed) {
        return Picked::One(t);
    }
    let wanted = fold(typed);
    if let Some(t) = rows.iter().find(|t| fold(&t.name) == wanted) {
        return Picked::One(t);
    }
    let mut fits: Vec<&TraineeView> = rows
        .iter()
        .filter(|t| fold(&t.name).starts_with(&wanted))
        .collect();
    match fits.len() {
        0 => Picked::Nobody,
        1 => Picked::One(fits.remove(0)),
        _ => Picked::Several(fits),
    }
}

#[cfg(test)]
mod tests {
    use super::{Picked, fold, pick};
    use domain::workshop::summary::TraineeView;

    fn rows(names: &[&str]) -> Vec<TraineeView> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| TraineeView {
                id: format!("id{i}"),
                name: (*n).to_owned(),
                ..TraineeView::default()
            })
            .collect()
    }

    fn one(p: &Picked<'_>) -> Option<String> {
        match p {
            Picked::One(t) => Some(t.name.clone()),
            _ => None,
        }
    }

    #[test]
    fn a_start_in_any_case_and_without_accents_names_one_trainee() {
        let r = rows(&[
            "Emil Müller",
            "Emma Schulz",
            "Ada",
            "Ada (2)",
            "Jörg Straße",
        ]);
        assert_eq!(one(&pick(&r, "emil")).as_deref(), Some("Emil Müller"));
        assert_eq!(
            one(&pick(&r, "EMIL MULLER")).as_deref(),
            Some("Emil Müller")
        );
        assert_eq!(
            one(&pick(&r, "jorg strasse")).as_deref(),
            Some("Jörg Straße")
        );
        assert_eq!(
            one(&pick(&r, "Ada")).as_deref(),
            Some("Ada"),
            "whole name wins"
        );
        assert_eq!(one(&pick(&r, "ada (")).as_deref(), Some("Ada (2)"));
        assert_eq!(one(&pick(&r, "2")).as_deref(), Some("Emma Schulz"), "row 2");
        assert_eq!(one(&pick(&r, "id4")).as_deref(), Some("Jörg Straße"));
        assert_eq!(fold("Müller"), "muller");
    }

    #[test]
    fn a_start_that_fits_several_lists_them_and_nothing_else_picks_anyone() {
        let r = rows(&["Emil Müller", "Emma Schulz", "Ada"]);
        match pick(&r, "ém") {
            Picked::Several(v) => {
                let names: Vec<&str> = v.iter().map(|t| t.name.as_str()).collect();
                assert_eq!(names, ["Emil Müller", "Emma Schulz"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(pick(&r, "müller"), Picked::Nobody, "a start, not a middle");
        assert_eq!(pick(&r, "4"), Picked::Nobody);
        assert_eq!(pick(&r, "0"), Picked::Nobody);
        assert_eq!(pick(&r, "  "), Picked::Nobody);
    }
}
