//! Rendering only: every view borrows the `App` and draws; nothing here changes state or does IO.

mod ascii;
mod chapters;
mod chrome;
pub mod dashboard;
mod help;
mod home;
mod join_form;
mod labs;
mod map;
mod ordering;
mod quiz;
mod reader;
mod report;
mod settings;
mod simulator;
pub mod theme;

use app::{App, Screen, layout};
use ratatui::Frame;
use ratatui::layout::Rect;

/// Draws the whole UI for the current state.
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    draw_screen(frame, app);
    if app.session.options.ascii {
        ascii::fold(frame.buffer_mut());
    }
}

fn draw_screen(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    let theme = theme::Theme::new(app.session.options.no_color);
    if layout::too_small(area.width, area.height) {
        chrome::too_small(frame, app, &theme);
        return;
    }
    chrome::header(frame, app, &theme);
    match &app.screen {
        Screen::Home(state) => home::draw(frame, app, state, &theme),
        Screen::Chapters(state) => chapters::draw(frame, app, state, &theme),
        Screen::Reader(state) => reader::draw(frame, app, state, &theme),
        Screen::Settings(state) => settings::draw(frame, app, state, &theme),
        Screen::Ordering(state) => ordering::draw(frame, app, state, &theme),
        Screen::Simulator(state) => simulator::draw(frame, app, state, &theme),
        Screen::Map(state) => map::draw(frame, app, state, &theme),
        Screen::Quiz(state) => quiz::draw(frame, app, state, &theme),
        Screen::Report(state) => report::draw(frame, app, state, &theme),
        Screen::LabList(state) => labs::draw_list(frame, app, state, &theme),
        Screen::Lab(state) => labs::draw_lab(frame, app, state, &theme),
    }
    chrome::status(frame, app, &theme);
    chrome::legend(frame, app, &theme);
    if let Screen::Home(state) = &app.screen
        && let Some(form) = &state.join
    {
        join_form::draw(frame, app, form, &theme);
    }
    if app.session.help {
        help::draw(frame, app, &theme);
    }
}

/// Converts a layout area into a ratatui rectangle.
fn rect(area: layout::Area) -> Rect {
    Rect::new(area.x, area.y, area.width, area.height)
}
