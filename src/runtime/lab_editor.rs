//! Hands the terminal to the learner's editor for a lab file and takes it back: the
//! alternate screen and raw mode are left while the editor runs and restored after. The event
//! loop holds its terminal reader off meanwhile, so no key meant for the editor is read by
//! queuelab.

use app::EditError;
use crossterm::execute;
use crossterm::terminal::{Clear, ClearType};
use std::io::stdout;
use std::path::Path;
use std::process::Command;

/// The editor to run: `$VISUAL`, else `$EDITOR` (each may carry arguments, as `code -w`), else
/// `vi` when it is on the `PATH`; `None` when there is none.
pub fn pick_editor(
    visual: Option<&str>,
    editor: Option<&str>,
    path: Option<&str>,
) -> Option<String> {
    let set = |v: Option<&str>| {
        v.map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    set(visual).or_else(|| set(editor)).or_else(|| {
        let on_path = path?
            .split(':')
            .filter(|dir| !dir.is_empty())
            .any(|dir| Path::new(dir).join("vi").is_file());
        on_path.then(|| "vi".to_owned())
    })
}

/// Runs the editor on `file` with the terminal handed over; `Err` says why it could not run or
/// how it ended.
pub fn edit(file: &Path, mouse: bool) -> Result<(), EditError> {
    let Some(editor) = pick_editor(
        std::env::var("VISUAL").ok().as_deref(),
        std::env::var("EDITOR").ok().as_deref(),
        std::env::var("PATH").ok().as_deref(),
    ) else {
        return Err(EditError::NoEditor);
    };
    super::terminal::restore();
    // Through the shell, so an editor variable with arguments works; the file is passed as
    // `$1`, never pasted into the command line.
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("sh")
        .arg(file)
        .status();
    // The alternate screen may still show what the editor drew there.
    let resumed =
        super::terminal::reenter(mouse).and_then(|()| execute!(stdout(), Clear(ClearType::All)));
    let status = status.map_err(|e| EditError::Start {
        editor: editor.clone(),
        reason: e.to_string(),
    })?;
    resumed.map_err(|e| EditError::Terminal(e.to_string()))?;
    if status.success() {
        Ok(())
    } else {
        Err(EditError::Exited {
            editor,
            status: status.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visual_wins_then_editor_then_vi_on_the_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let bin = dir.path().display().to_string();
        assert_eq!(
            pick_editor(Some("code -w"), Some("nano"), None).as_deref(),
            Some("code -w")
        );
        assert_eq!(
            pick_editor(Some("  "), Some("nano"), None).as_deref(),
            Some("nano")
        );
        assert_eq!(pick_editor(None, None, Some(&bin)), None);
        std::fs::write(dir.path().join("vi"), "").expect("vi");
        assert_eq!(
            pick_editor(None, Some(""), Some(&format!("/nowhere::{bin}"))).as_deref(),
            Some("vi")
        );
        assert_eq!(pick_editor(None, None, None), None);
    }
}
