//! What the host's pages and files say about the course, in one language: the UI strings and
//! the titles of chapters, decisions, quiz questions and scenarios by id. The projector page,
//! the export and the Room table read ids from events and show these titles, so none of them
//! shows an internal id (`broker-down`, `reader`) to a room.

use content::key;
use content::{Content, Lang, Strings};
use std::collections::BTreeMap;

/// A decision as the room reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecisionText {
    /// Card title ("Decision 1").
    pub title: String,
    /// The situation the trainees answer.
    pub situation: String,
}

/// The course's titles and the UI strings in one language.
#[derive(Debug, Clone, Default)]
pub struct RoomTexts {
    /// The language of every text here.
    pub lang: Lang,
    /// The UI strings of that language.
    pub strings: Strings,
    chapters: BTreeMap<String, String>,
    decisions: BTreeMap<String, DecisionText>,
    /// Decision ids in the course's order (the order of their numbers).
    decision_order: Vec<String>,
    questions: BTreeMap<String, String>,
    scenarios: BTreeMap<String, String>,
    /// Lab id -> "2: The transactional outbox".
    labs: BTreeMap<String, String>,
    /// The quiz's levels: (lowest score, name).
    levels: Vec<(u32, String)>,
}

impl RoomTexts {
    /// The texts of `content` in `lang`.
    pub fn of(content: &Content, lang: Lang) -> RoomTexts {
        let course = content.course(lang);
        RoomTexts {
            lang,
            strings: course.strings.clone(),
            chapters: course
                .chapters
                .iter()
                .map(|c| (c.id.clone(), c.title.clone()))
                .collect(),
            decisions: course
                .decisions
                .iter()
                .map(|d| {
                    let text = DecisionText {
                        title: d.title.clone(),
                        situation: d.situation.clone(),
                    };
                    (d.id.clone(), text)
                })
                .collect(),
            decision_order: course.decisions.iter().map(|d| d.id.clone()).collect(),
            questions: course
                .quiz
                .questions
                .iter()
                .map(|q| (q.id.clone(), q.prompt.clone()))
                .collect(),
            scenarios: content
                .scenarios
                .iter()
                .filter_map(|s| Some((s.id.clone(), s.text(lang)?.title.clone())))
                .collect(),
            labs: content
                .labs
                .iter()
                .map(|l| (l.id.clone(), format!("{}: {}", l.number, l.title(lang))))
                .collect(),
            levels: course
                .quiz
                .levels
                .iter()
                .map(|l| (l.min_score, l.name.clone()))
                .collect(),
        }
    }

    /// A lab by number and title ("2: The transactional outbox"); its id when unknown.
    pub fn lab(&self, id: &str) -> String {
        self.labs.get(id).cloned().unwrap_or_else(|| id.to_owned())
    }

    /// The quiz level a finished attempt's score reaches, by the rule of the trainee's
    /// report ([`content::Quiz::level_for`]: the highest whose threshold it meets).
    pub fn level(&self, score: u32) -> Option<String> {
        self.levels
            .iter()
            .filter(|(min, _)| *min <= score)
            .max_by_key(|(min, _)| *min)
            .map(|(_, name)| name.clone())
    }

    /// The chapter's title, or its id when the content has no such chapter.
    pub fn chapter(&self, id: &str) -> String {
        self.chapters
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_owned())
    }

    /// How many decisions the course has.
    pub fn decision_count(&self) -> usize {
        self.decision_order.len()
    }

    /// The decision ids of `ids` in the course's order; ids the course does not know follow
    /// in their own order.
    pub fn in_decision_order<'a>(&self, ids: impl IntoIterator<Item = &'a String>) -> Vec<&'a str> {
        let mut ids: Vec<&str> = ids.into_iter().map(String::as_str).collect();
        ids.sort_by_key(|id| {
            self.decision_order
                .iter()
                .position(|known| known == id)
                .unwrap_or(usize::MAX)
        });
        ids
    }

    /// The decision's title and situation (the id as title when unknown).
    pub fn decision(&self, id: &str) -> DecisionText {
        self.decisions
            .get(id)
            .cloned()
            .unwrap_or_else(|| DecisionText {
                title: id.to_owned(),
                situation: String::new(),
            })
    }

    /// The quiz question's text, or its id.
    pub fn question(&self, id: &str) -> String {
        self.questions
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_owned())
    }

    /// The scenario's title, or its id.
    pub fn scenario(&self, id: &str) -> String {
        self.scenarios
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_owned())
    }

    /// A place a trainee was, as the room reads it: `place` is what a summary records (see
    /// [`super::summary::Place`]).
    pub fn place(&self, place: &super::summary::Place) -> String {
        use super::summary::Place;
        let s = &self.strings;
        match place {
            Place::Chapter(id) => s.fill(key::room::PLACE_CHAPTER, &[("title", &self.chapter(id))]),
            Place::Decision(id) => s.fill(
                key::room::PLACE_DECISION,
                &[("title", &self.decision(id).title)],
            ),
            Place::Scenario(id) => {
                s.fill(key::room::PLACE_SCENARIO, &[("title", &self.scenario(id))])
            }
            Place::Ordering => s.get(key::room::PLACE_ORDERING).to_owned(),
            Place::Quiz => s.get(key::room::PLACE_QUIZ).to_owned(),
            Place::Lab(id) => s.fill(key::room::PLACE_LAB, &[("title", &self.lab(id))]),
            Place::Screen(name) => self.screen(name),
        }
    }

    /// A screen name a stuck signal carries (the trainee's screen kind in lower case, or
    /// `command-line` from `queuelab stuck`) as its title; a name this version does not know
    /// reads as "another screen", never as sent.
    pub fn screen(&self, name: &str) -> String {
        let key = super::screens::screen_title_key(name);
        self.strings.get(key).to_owned()
    }
}
