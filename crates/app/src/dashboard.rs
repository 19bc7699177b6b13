//! The instructor's dashboard as a pure state machine: the host's summary (the same one
//! `GET /api/summary` serves) comes in as a message with the time, keys switch sections, scroll
//! and type pacing commands; what must happen outside comes back as effects.

use content::key;

pub mod door;
mod failure;
pub mod pick;
pub mod prompt;

use super::input::{Key, KeyCode};
use content::{Content, Course, Lang, Strings};
use domain::qr::QrMatrix;
use domain::workshop::{PaceKind, SummaryView};
pub use failure::DashFailure;
pub use prompt::{Prompt, PromptKind};
use std::sync::Arc;
use unicode_width::UnicodeWidthStr;

/// What separates two keys in the footer's key help (`dash.footer`).
const KEY_SEPARATOR: &str = " · ";

/// The dashboard's sections, one on screen at a time (80x24 has no room for all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Stuck list and trainees.
    Room,
    /// Decision distributions, quiz share correct, ordering game, scenarios.
    Answers,
    /// QR code, join URL, projector link, instructor key.
    Join,
}

impl Section {
    /// All sections in key order (1, 2, 3).
    pub const ALL: [Section; 3] = [Section::Room, Section::Answers, Section::Join];

    /// The string key of its tab label.
    pub fn label_key(self) -> content::Key {
        match self {
            Section::Room => key::dash::TAB_ROOM,
            Section::Answers => key::dash::TAB_ANSWERS,
            Section::Join => key::dash::TAB_JOIN,
        }
    }
}

/// How the session is reached, shown in the Join section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    /// The join URL (with code and fingerprint).
    pub join_url: String,
    /// The projector page's URL (with the instructor key).
    pub projector_url: String,
    /// The instructor key.
    pub key: String,
    /// The name the session is advertised under on the LAN (DNS-SD); None when it is not.
    pub discovery: Option<String>,
    /// The check digits of the host's certificate in this session, derived once at start.
    pub check_digits: String,
}

/// What the dashboard receives.
#[derive(Debug, Clone, PartialEq)]
pub enum DashMsg {
    /// A key press.
    Key(Key),
    /// The terminal's size.
    Resized {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// The host's summary, read at `now_ms`.
    Refreshed {
        /// The summary.
        summary: Box<SummaryView>,
        /// The host's clock (Unix ms) when it was read.
        now_ms: i64,
    },
    /// A pacing command was stored (Ok) or not (also when the summary could not be read).
    PaceDone(Result<PaceKind, DashFailure>),
    /// A trainee was removed (Ok with their name) or not.
    Kicked(Result<String, DashFailure>),
    /// A trainee's row was removed (Ok with their name) or not.
    RowRemoved(Result<String, DashFailure>),
    /// A stuck signal was acknowledged (Ok with the trainee's name) or not.
    Acknowledged(Result<String, DashFailure>),
    /// A door action was done (Ok with what to say) or not.
    DoorDone(Result<String, DashFailure>),
}

/// What the dashboard asks the host to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DashEffect {
    /// Store and serve this pacing command.
    SendPace(PaceKind),
    /// Remove the trainee with this name or id from the session.
    Kick(String),
    /// Remove the row of the trainee with this name or id (their client is not refused).
    RemoveRow(String),
    /// Acknowledge the stuck signal of the trainee with this name or id.
    Acknowledge(String),
    /// Lock or unlock the room, or remove the silent trainees.
    Door(door::DoorAction),
}

/// How long an outcome stays in the footer before the keys come back (ms).
pub const NOTE_MS: i64 = 10_000;

/// The dashboard's state.
#[derive(Debug, Clone)]
pub struct Dashboard {
    /// The loaded content (titles and totals).
    pub content: Arc<Content>,
    /// Language of the dashboard.
    pub lang: Lang,
    /// Join URL, projector link, key.
    pub access: Access,
    /// The newest summary.
    pub summary: SummaryView,
    /// When it was read (Unix ms).
    pub now_ms: i64,
    /// The section on screen.
    pub section: Section,
    /// First body line shown.
    pub scroll: u16,
    /// The terminal's size.
    pub size: (u16, u16),
    /// A pacing command being typed.
    pub prompt: Option<Prompt>,
    /// The last outcome shown in the footer (text, is an error).
    pub note: Option<(String, bool)>,
    /// When the note came (the host's clock): it gives the footer back to the keys after
    /// `NOTE_MS`.
    pub note_at_ms: i64,
    /// The join URL as a QR code (None if it cannot be encoded).
    pub qr: Option<QrMatrix>,
    /// `--ascii`: no half blocks.
    pub ascii: bool,
    /// `NO_COLOR`: modifiers only.
    pub no_color: bool,
    /// The instructor asked to stop.
    pub quitting: bool,
    /// Whether the instructor key is on screen (`v`).
    pub key: KeyVisibility,
    /// Whether the answers section is projectable or the instructor's private view (`p`).
    pub view: AnswersView,
    /// What the host found wrong at start (a folder others can read, no mail relay), in the
    /// dashboard's language: shown above the room, since the dashboard covers the terminal.
    pub warnings: Vec<String>,
}

/// Who may see the answers section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnswersView {
    /// Fit for the projector: a decision not yet revealed shows its options only.
    #[default]
    Projectable,
    /// The instructor alone: the right option and the counts before the reveal, with a line
    /// that says the view is not for the projector.
    Private,
}

/// The instructor key on the dashboard: hidden by default, because any section, the join
/// section with its QR code above all, may be what a room sees on the projector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyVisibility {
    /// A hint says how to show it.
    #[default]
    Hidden,
    /// In the header and on the join section.
    Shown,
}

impl Dashboard {
    /// A dashboard for the session reachable through `access`, before the first summary.
    pub fn new(content: Arc<Content>, lang: Lang, access: Access, ascii: bool) -> Dashboard {
        Dashboard {
            qr: QrMatrix::encode(&access.join_url).ok(),
            content,
            lang,
            access,
            summary: SummaryView::default(),
            now_ms: 0,
            section: Section::Room,
            scroll: 0,
            size: (80, 24),
            prompt: None,
            note: None,
            note_at_ms: 0,
            ascii,
            no_color: false,
            quitting: false,
            key: KeyVisibility::Hidden,
            view: AnswersView::Projectable,
            warnings: Vec::new(),
        }
    }

    /// Whether the answers section may show the right option and the counts of `decision`:
    /// once the room saw them, or in the private view.
    pub fn answers_shown(&self, decision: &str) -> bool {
        self.view == AnswersView::Private || self.summary.revealed.iter().any(|d| d == decision)
    }

    /// Whether the instructor key is shown (in the header and on the join section).
    pub fn key_shown(&self) -> bool {
        self.key == KeyVisibility::Shown
    }

    /// The course in the dashboard's language.
    pub fn course(&self) -> &Course {
        self.content.course(self.lang)
    }

    /// The UI strings in the dashboard's language.
    pub fn strings(&self) -> &Strings {
        &self.course().strings
    }

    /// Applies one message.
    pub fn update(&mut self, msg: DashMsg) -> Vec<DashEffect> {
        let before = self.note.clone();
        let effects = self.apply(msg);
        if self.note.is_some() && self.note != before {
            self.note_at_ms = self.now_ms;
        } else if self.note.is_some() && self.now_ms - self.note_at_ms > NOTE_MS {
            // The keys are what the instructor needs next; the outcome was read by now.
            self.note = None;
        }
        effects
    }

    fn apply(&mut self, msg: DashMsg) -> Vec<DashEffect> {
        match msg {
            DashMsg::Key(key) => return self.on_key(key),
            DashMsg::Resized { width, height } => self.size = (width, height),
            DashMsg::Refreshed { summary, now_ms } => {
                self.summary = *summary;
                self.now_ms = now_ms;
            }
            DashMsg::PaceDone(Ok(pace)) => self.note = Some((self.describe(&pace), false)),
            DashMsg::PaceDone(Err(failure))
            | DashMsg::Kicked(Err(failure))
            | DashMsg::RowRemoved(Err(failure))
            | DashMsg::Acknowledged(Err(failure))
            | DashMsg::DoorDone(Err(failure)) => {
                self.note = Some((failure.describe(self.strings()), true));
            }
            DashMsg::DoorDone(Ok(text)) => self.note = Some((text, false)),
            DashMsg::Acknowledged(Ok(name)) => {
                self.note = Some((
                    self.strings().fill(key::dash::ACKED, &[("name", &name)]),
                    false,
                ));
            }
            DashMsg::RowRemoved(Ok(name)) => {
                self.note = Some((
                    self.strings()
                        .fill(key::dash::ROW_REMOVED, &[("name", &name)]),
                    false,
                ));
            }
            DashMsg::Kicked(Ok(name)) => {
                self.note = Some((
                    self.strings().fill(key::dash::KICKED, &[("name", &name)]),
                    false,
                ));
            }
        }
        Vec::new()
    }

    /// Keys of the dashboard: Ctrl+C quits, an open prompt takes every other key, otherwise a key
    /// picks a section, scrolls, opens a prompt or flips a view.
    fn on_key(&mut self, key: Key) -> Vec<DashEffect> {
        if key.is_ctrl_c() {
            self.quitting = true;
            return Vec::new();
        }
        if self.prompt.is_some() {
            return self.on_prompt_key(key);
        }
        match key.code {
            KeyCode::Char('q') => self.ask(PromptKind::Quit),
            KeyCode::Char(c @ '1'..='3') => {
                let i = usize::from(c as u8 - b'1');
                self.show(Section::ALL[i]);
            }
            KeyCode::Tab | KeyCode::Right => self.show(self.neighbour(1)),
            KeyCode::BackTab | KeyCode::Left => self.show(self.neighbour(Section::ALL.len() - 1)),
            KeyCode::Down | KeyCode::Char('j') => self.scroll = self.scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => {
                self.scroll = self.scroll.saturating_add(self.page());
            }
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(self.page()),
            KeyCode::Home => self.scroll = 0,
            KeyCode::Char('c') => self.ask(PromptKind::Chapter),
            KeyCode::Char('s') => self.ask(PromptKind::Scenario),
            KeyCode::Char('r') => self.ask(PromptKind::Reveal),
            KeyCode::Char('w') => self.ask(PromptKind::SecondVote),
            KeyCode::Char('x') => self.ask(PromptKind::Kick),
            KeyCode::Char('d') => self.ask(PromptKind::RemoveRow),
            KeyCode::Char('a') => self.ask(PromptKind::Acknowledge),
            KeyCode::Char(c @ ('L' | 'S')) => return self.door_key(c),
            KeyCode::Char('p') => {
                self.view = match self.view {
                    AnswersView::Projectable => AnswersView::Private,
                    AnswersView::Private => AnswersView::Projectable,
                };
            }
            KeyCode::Char('v') => {
                self.key = match self.key {
                    KeyVisibility::Hidden => KeyVisibility::Shown,
                    KeyVisibility::Shown => KeyVisibility::Hidden,
                };
            }
            _ => {}
        }
        Vec::new()
    }

    /// Keys while a prompt is open: in a prompt that takes a trainee the arrows move through the
    /// rows (wrapping around); every other key goes to the prompt.
    fn on_prompt_key(&mut self, key: Key) -> Vec<DashEffect> {
        let Some(prompt) = &mut self.prompt else {
            return Vec::new();
        };
        if prompt.kind.takes_trainee() && matches!(key.code, KeyCode::Up | KeyCode::Down) {
            let last = self.summary.trainees.len().checked_sub(1);
            prompt.cursor = match (key.code, prompt.cursor, last) {
                (_, _, None) => None,
                (KeyCode::Up, None | Some(0), Some(last)) => Some(last),
                (KeyCode::Up, Some(i), _) => Some(i - 1),
                (_, Some(i), Some(last)) if i < last => Some(i + 1),
                _ => Some(0),
            };
            return Vec::new();
        }
        match prompt.on_key(key) {
            prompt::Outcome::Typing => Vec::new(),
            prompt::Outcome::Cancelled => {
                self.prompt = None;
                Vec::new()
            }
            prompt::Outcome::Submitted(text) => {
                let kind = prompt.kind;
                if kind.takes_trainee() {
                    return self.submit_trainee(kind, &text);
                }
                let target = prompt.target.take();
                self.prompt = None;
                self.prompt_submitted(kind, target, &text)
            }
        }
    }

    /// A submitted prompt that takes no trainee: a door or a confirmation when it is one, else
    /// the typed pace (chapter, scenario, ...) goes to the room, or what is wrong with it is said.
    fn prompt_submitted(
        &mut self,
        kind: PromptKind,
        target: Option<(String, String)>,
        text: &str,
    ) -> Vec<DashEffect> {
        if let Some(effects) = self.door_submitted(kind) {
            return effects;
        }
        if let Some(effects) = self.confirmed(kind, target) {
            return effects;
        }
        match prompt::parse(kind, text, &self.content) {
            Ok(pace) => {
                self.note = None;
                vec![DashEffect::SendPace(pace)]
            }
            Err((key, value)) => {
                let text = self.strings().fill(key, &[("value", &value)]);
                self.note = Some((text, true));
                Vec::new()
            }
        }
    }

    /// Enter in a prompt that takes a trainee: the row chosen with the arrows when nothing was
    /// typed, else the row the number, id or start of a name picks. A start that fits several
    /// keeps the prompt open and names them; text that picks nobody goes to the host as typed
    /// (it may know an id the summary does not show yet) and the host's answer says so.
    fn submit_trainee(&mut self, kind: PromptKind, text: &str) -> Vec<DashEffect> {
        let cursor = self.prompt.as_ref().and_then(|p| p.cursor);
        let chosen = match (text.is_empty(), cursor) {
            (true, Some(i)) => self.summary.trainees.get(i).map(|t| t.id.clone()),
            (true, None) => None,
            (false, _) => match pick::pick(&self.summary.trainees, text) {
                pick::Picked::One(t) => Some(t.id.clone()),
                pick::Picked::Several(fits) => {
                    let names: Vec<&str> = fits.iter().map(|t| t.name.as_str()).collect();
                    let note = self
                        .strings()
                        .fill(key::dash::PICK_SEVERAL, &[("names", &names.join(", "))]);
                    self.note = Some((note, true));
                    return Vec::new();
                }
                pick::Picked::Nobody => Some(text.to_owned()),
            },
        };
        self.prompt = None;
        self.note = None;
        let Some(who) = chosen else {
            return Vec::new();
        };
        // Removing loses answers the room may have seen counted: it asks once more, by name.
        let confirm = match kind {
            PromptKind::Kick => PromptKind::ConfirmKick,
            PromptKind::RemoveRow => PromptKind::ConfirmRemoveRow,
            _ => return vec![DashEffect::Acknowledge(who)],
        };
        let name = self
            .summary
            .trainees
            .iter()
            .find(|t| t.id == who)
            .map_or_else(|| who.clone(), |t| t.name.clone());
        let mut prompt = Prompt::new(confirm);
        prompt.target = Some((who, name));
        self.prompt = Some(prompt);
        Vec::new()
    }

    /// The effect of a submitted yes/no prompt that is not the door's; None for any other.
    fn confirmed(
        &mut self,
        kind: PromptKind,
        target: Option<(String, String)>,
    ) -> Option<Vec<DashEffect>> {
        let effects = match (kind, target) {
            (PromptKind::Quit, _) => {
                self.quitting = true;
                Vec::new()
            }
            (PromptKind::ConfirmKick, Some((who, _))) => vec![DashEffect::Kick(who)],
            (PromptKind::ConfirmRemoveRow, Some((who, _))) => vec![DashEffect::RemoveRow(who)],
            _ => return None,
        };
        self.note = None;
        Some(effects)
    }

    /// The question a prompt shows, with the trainee's name where it confirms one.
    pub fn prompt_label(&self, prompt: &Prompt) -> String {
        let s = self.strings();
        match &prompt.target {
            Some((_, name)) => s.fill(prompt.kind.label_key(), &[("name", name)]),
            None => s.get(prompt.kind.label_key()).to_owned(),
        }
    }

    /// The footer's confirmation of a sent command, with numbers and titles as the room sees
    /// them.
    pub fn describe(&self, pace: &PaceKind) -> String {
        describe(&self.content, self.lang, pace)
    }

    fn ask(&mut self, kind: PromptKind) {
        self.prompt = Some(Prompt::new(kind));
        self.note = None;
    }

    fn show(&mut self, section: Section) {
        if self.section != section {
            self.section = section;
            self.scroll = 0;
            // The key was asked for where it is shown; the next section may be projected.
            self.key = KeyVisibility::Hidden;
        }
    }

    fn neighbour(&self, step: usize) -> Section {
        let i = Section::ALL
            .iter()
            .position(|s| *s == self.section)
            .unwrap_or(0);
        Section::ALL[(i + step) % Section::ALL.len()]
    }

    /// Body rows: the terminal less header, tabs and footer.
    pub fn page(&self) -> u16 {
        let footer = u16::try_from(self.key_help().len()).unwrap_or(1);
        self.size.1.saturating_sub(2 + footer).max(1)
    }

    /// The footer's key help in rows that fit the terminal: broken between two keys, never
    /// inside one, so every key stays listed at 80 columns (German needs two rows there).
    pub fn key_help(&self) -> Vec<String> {
        // One column stays free on the left, as on every footer line.
        let width = usize::from(self.size.0).saturating_sub(1).max(1);
        let mut rows: Vec<String> = Vec::new();
        for key in self.strings().get(key::dash::FOOTER).split(KEY_SEPARATOR) {
            match rows.last_mut() {
                Some(row) if row.width() + KEY_SEPARATOR.width() + key.width() <= width => {
                    row.push_str(KEY_SEPARATOR);
                    row.push_str(key);
                }
                _ => rows.push(key.to_owned()),
            }
        }
        if rows.is_empty() {
            rows.push(String::new());
        }
        rows
    }

    /// The scroll offset that keeps a body of `lines` lines on screen (the view clamps with
    /// this, so scrolling past the end stops at the last page).
    pub fn clamped_scroll(&self, lines: usize) -> usize {
        let max = lines.saturating_sub(usize::from(self.page()));
        usize::from(self.scroll).min(max)
    }

    /// Stores the clamped offset, so Up after scrolling past the end moves at once.
    pub fn clamp_to(&mut self, lines: usize) {
        self.scroll = u16::try_from(self.clamped_scroll(lines)).unwrap_or(u16::MAX);
    }
}

/// A sent pacing command as a sentence in `lang`, with numbers and titles as the room sees
/// them (the dashboard's footer, `host pace`).
pub fn describe(content: &Content, lang: Lang, pace: &PaceKind) -> String {
    let course = content.course(lang);
    let s = &course.strings;
    let numbered = |i: Option<usize>, title: Option<&str>, id: &str| {
        (
            i.map_or_else(|| "?".to_owned(), |i| (i + 1).to_string()),
            title.unwrap_or(id).to_owned(),
        )
    };
    match pace {
        PaceKind::OpenChapter { chapter } => {
            let i = course.chapters.iter().position(|c| &c.id == chapter);
            let (n, title) = numbered(i, i.map(|i| course.chapters[i].title.as_str()), chapter);
            s.fill(key::dash::PACE_CHAPTER, &[("n", &n), ("title", &title)])
        }
        PaceKind::RevealDecision { decision } | PaceKind::SecondVote { decision } => {
            // Decision titles carry their number ("Decision 2").
            let title = course
                .decisions
                .iter()
                .find(|d| &d.id == decision)
                .map_or(decision.as_str(), |d| d.title.as_str());
            let key = if matches!(pace, PaceKind::SecondVote { .. }) {
                key::dash::PACE_SECOND_VOTE
            } else {
                key::dash::PACE_REVEAL
            };
            s.fill(key, &[("title", title)])
        }
        PaceKind::OpenScenario { scenario, mode } => {
            let title = content
                .scenarios
                .iter()
                .find(|sc| &sc.id == scenario)
                .and_then(|sc| sc.text.get(&lang))
                .map_or(scenario.as_str(), |t| t.title.as_str());
            s.fill(
                key::dash::PACE_SCENARIO,
                &[("title", title), ("mode", mode)],
            )
        }
    }
}

#[cfg(test)]
mod tests;
