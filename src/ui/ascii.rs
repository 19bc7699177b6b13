//! `--ascii`: the last pass over a drawn frame puts a plain ASCII character in place of each
//! typographic one (middle dot, dashes, arrows, bullets, ellipsis) that text and chrome use, so
//! no screen has to remember the option for every separator it writes. Letters stay as they
//! are: German text keeps its umlauts.

use ratatui::buffer::Buffer;

/// The ASCII stand-in of a typographic character, or `None` for a character that stays.
pub fn stand_in(c: char) -> Option<char> {
    Some(match c {
        '·' | '•' | '…' => '.',
        '–' | '—' | '‑' | '−' => '-',
        '→' | '▶' | '►' | '›' | '»' => '>',
        '←' | '◀' | '◄' | '‹' | '«' => '<',
        '↑' | '▲' => '^',
        '↓' | '▼' => 'v',
        '„' | '“' | '”' | '″' => '"',
        '‚' | '‘' | '’' | '′' => '\'',
        '✓' | '✔' => '+',
        '×' | '✗' | '✘' => 'x',
        '\u{a0}' | '\u{2009}' | '\u{202f}' => ' ',
        _ => return None,
    })
}

/// Replaces every typographic character in `buffer` by its stand-in.
pub fn fold(buffer: &mut Buffer) {
    for cell in &mut buffer.content {
        let mut chars = cell.symbol().chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && let Some(plain) = stand_in(c)
        {
            cell.set_char(plain);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_become_ascii_and_letters_stay() {
        let mut b = Buffer::with_lines(["a · b – c → ü ß"]);
        fold(&mut b);
        let line: String = b.content.iter().map(|c| c.symbol().to_owned()).collect();
        assert_eq!(line, "a . b - c > ü ß");
    }
}
