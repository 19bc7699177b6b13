//! What trainees send about themselves, cleaned at the host's door: trainee ids in one normal
//! form, names without invisible or look-alike characters and unique in the room, stuck texts
//! without control characters.

use content::key;

/// Characters that change how text around them is shown without being seen themselves:
/// bidirectional overrides and isolates, zero-width characters, soft hyphen, byte-order mark,
/// the combining grapheme joiner, Hangul fillers (blank letters) and tag characters.
fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{180E}'
        | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}' | '\u{3164}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}')
}

/// Full-width forms of ASCII letters, digits and signs, which look like another trainee's name.
fn is_full_width(c: char) -> bool {
    ('\u{FF01}'..='\u{FF5E}').contains(&c)
}

/// The normal form of a trainee id (32 hex digits): lower case, so `ABC…` and `abc…` are one
/// trainee.
pub fn normal_id(id: &str) -> String {
    id.to_ascii_lowercase()
}

/// Why a name is refused, as a UI string key; None when it may be shown.
pub fn refused_name(name: &str) -> Option<content::Key> {
    name.chars()
        .any(|c| is_hidden(c) || is_full_width(c))
        .then_some(key::workshop::NAME_HIDDEN_CHARS)
}

/// A name in Unicode's compatibility composition (NFKC): "Zoë" typed as e + combining
/// diaeresis, a ligature "ﬁ" or a circled letter become the ordinary letters, so two names that
/// look alike are compared (and made unique) as one.
pub fn normal_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfkc().collect()
}

/// A stuck text without control characters (C0 such as ESC, NUL, CR; DEL; C1) or hidden ones;
/// a line break or tab becomes a space.
pub fn clean_text(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\n' | '\t' => Some(' '),
            c if c.is_control() || is_hidden(c) => None,
            c => Some(c),
        })
        .collect()
}

/// What a trainee sent in an event, made safe once, where it enters the host (and again when a
/// continued session reads rows an older version stored): free text without control or hidden
/// characters, a stuck signal's screen one of the known screens. Every other string of an event
/// is an id the catalogue checks against the content.
pub fn clean_event(event: &mut domain::workshop::Event) {
    if let domain::workshop::EventKind::Stuck { screen, text } = &mut event.kind {
        *text = clean_text(text);
        domain::workshop::screens::known_screen(screen).clone_into(screen);
    }
}

/// How far before its arrival an event's own time may lie: a trainee's client that was cut off
/// delivers late, but a session lasts a day.
const MAX_EVENT_AGE_MS: i64 = 24 * 60 * 60 * 1000;

/// The event's time, which the trainee's clock supplied, held to the host's clock: never in the
/// future, never more than a day before it arrived; a stuck signal's time is when the host
/// learnt of it, so no trainee can put themselves first or last in the stuck list.
pub fn clamp_time(event: &mut domain::workshop::Event, now_ms: i64) {
    event.at_ms = if matches!(event.kind, domain::workshop::EventKind::Stuck { .. }) {
        now_ms
    } else {
        event.at_ms.clamp(now_ms - MAX_EVENT_AGE_MS, now_ms)
    };
}

/// `event` as [`clean_event`] leaves it, copied only when there is free text in it (a session's
/// start replays every stored event through here).
pub fn cleaned(event: &domain::workshop::Event) -> std::borrow::Cow<'_, domain::workshop::Event> {
    if matches!(event.kind, domain::workshop::EventKind::Stuck { .. }) {
        let mut copy = event.clone();
        clean_event(&mut copy);
        std::borrow::Cow::Owned(copy)
    } else {
        std::borrow::Cow::Borrowed(event)
    }
}

/// A name read from the session's database, as safe as one the host takes today (an older
/// version stored names with hidden characters).
pub fn clean_stored_name(name: &str) -> String {
    let clean = clean_text(name).trim().to_owned();
    if clean.is_empty() {
        "?".to_owned()
    } else {
        clean
    }
}

/// Groups of names in the room that look alike though they differ ("Alice" in Latin letters
/// and "Аlice" with a Cyrillic A): Unicode's confusable skeletons (UTS 39), compared without
/// case. Each group holds two or more names, in the order given.
pub fn lookalikes(names: &[&str]) -> Vec<Vec<String>> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for name in names {
        let skeleton: String = unicode_security::skeleton(&name.to_lowercase()).collect();
        let skeleton = skeleton.to_lowercase();
        match groups.iter_mut().find(|(s, _)| *s == skeleton) {
            Some((_, group)) if !group.iter().any(|n| n == name) => group.push((*name).to_owned()),
            Some(_) => {}
            None => groups.push((skeleton, vec![(*name).to_owned()])),
        }
    }
    groups
        .into_iter()
        .filter(|(_, group)| group.len() > 1)
        .map(|(_, group)| group)
        .collect()
}

/// `name`, or `name (2)`, `name (3)`, … so that it differs from every name in `taken`
/// (compared without case).
pub fn unique_name(name: &str, taken: &[String]) -> String {
    let used = |candidate: &str| {
        taken
            .iter()
            .any(|t| t.to_lowercase() == candidate.to_lowercase())
    };
    if !used(name) {
        return name.to_owned();
    }
    // Among len + 1 suffixes one is free: each taken name blocks at most one.
    (2..=taken.len() + 2)
        .map(|n| format!("{name} ({n})"))
        .find(|candidate| !used(candidate))
        .unwrap_or_else(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_names_and_texts_are_cleaned() {
        assert_eq!(normal_id("ABCdef"), "abcdef");
        for bad in ["Ad\u{202E}a", "\u{2066}Bob", "Z\u{200B}oe", "\u{FF21}da"] {
            assert_eq!(
                refused_name(bad),
                Some(key::workshop::NAME_HIDDEN_CHARS),
                "{bad:?}"
            );
        }
        assert_eq!(refused_name("Jürgen Groß"), None);
        for bad in ["Eve\u{E0041}", "\u{3164}", "A\u{034F}da"] {
            assert!(refused_name(bad).is_some(), "{bad:?}");
        }
        assert_eq!(normal_name("Zoe\u{0308}"), "Zoë");
        assert_eq!(normal_name("\u{FB01}ona \u{24B6}"), "fiona A");
        assert_eq!(clean_text("a\u{1b}[31mb\0c\rd\u{85}e\nf"), "a[31mbcde f");
        let taken = vec!["Ada".to_owned(), "ada (2)".to_owned()];
        assert_eq!(unique_name("Ada", &taken), "Ada (3)");
        assert_eq!(unique_name("Bob", &taken), "Bob");
    }
}
