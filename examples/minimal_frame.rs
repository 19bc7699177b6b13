//! The floor for the start-up benchmark: the smallest ratatui program that draws one frame,
//! then waits for a key (so the frame stays on screen to be seen, as queuelab's does).
//! `benches/tui.rs` times it against queuelab in the same pseudo-terminal set-up.

use ratatui::widgets::Paragraph;

fn main() -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    terminal
        .draw(|frame| frame.render_widget(Paragraph::new("minimal frame ready"), frame.area()))?;
    let _ = crossterm::event::read();
    ratatui::restore();
    Ok(())
}
