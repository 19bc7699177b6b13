//! Entering and leaving the terminal's raw, alternate-screen mode, on every exit path: normal
//! return, error, panic, and (through the event loop) SIGTERM and SIGHUP.

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute, queue};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{Stdout, Write as _, stdout};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the terminal is in the workshop's mode right now. `restore` acts only once per
/// `enter`: after a panic the hook restores, prints the message, and then the guard drops while
/// unwinding; a second "leave the alternate screen" would move the cursor back to where the
/// program started (DECRC) and the shell prompt would overwrite the panic message.
static ENTERED: AtomicBool = AtomicBool::new(false);

/// The terminal type the workshop draws on.
pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Restores the terminal when dropped.
pub struct TerminalGuard;

impl TerminalGuard {
    /// Enters raw mode and the alternate screen (and mouse capture when asked).
    pub fn enter(mouse: bool) -> std::io::Result<(TerminalGuard, Tui)> {
        install_panic_hook();
        let guard = TerminalGuard;
        reenter(mouse)?;
        // crossterm's own NO_COLOR handling turns every colour change into an SGR reset, which
        // wipes bold and reverse and drops the QR code's light/dark. The theme already leaves
        // out colours under NO_COLOR, so crossterm may pass through the few that remain.
        crossterm::style::force_color_output(true);
        let terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
        Ok((guard, terminal))
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Switches the workshop's mode on again after `restore` (the terminal was lent to an editor).
pub fn reenter(mouse: bool) -> std::io::Result<()> {
    enable_raw_mode()?;
    ENTERED.store(true, Ordering::SeqCst);
    // One write for the whole switch: queued, then flushed once.
    let mut out = stdout().lock();
    queue!(out, EnterAlternateScreen, cursor::Hide)?;
    if mouse {
        queue!(out, EnableMouseCapture)?;
    }
    out.flush()
}

/// Puts the terminal back: mouse reporting off, main screen, cursor visible, cooked mode.
/// Safe to call more than once: only the first call after `enter` writes anything.
pub fn restore() {
    if !ENTERED.swap(false, Ordering::SeqCst) {
        return;
    }
    // Mouse capture is switched off unconditionally: the escape sequence is harmless when it
    // was never on, and a terminal left reporting mouse moves is unusable.
    let _ = execute!(
        stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
}

/// Chains a hook that restores the terminal before the previous hook prints the panic.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            services::log::line("PANIC", &info.to_string());
            previous(info);
        }));
    });
}
