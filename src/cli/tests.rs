//! The command line: what the short paths of `Cli::from_env` skip must not change its meaning.

use super::*;
use clap::CommandFactory;

/// The bare start skips clap, so it must mean what clap would make of no arguments.
#[test]
fn no_arguments_mean_the_default_command_line() {
    let parsed = Cli::try_parse_from(["queuelab"]).expect("no arguments parse");
    assert_eq!(format!("{parsed:?}"), format!("{:?}", Cli::default()));
    assert!(Cli::default().command.is_none(), "the workshop opens");
}

/// `queuelab OPTIONS` skips the whole command tree; it must mean what the tree would make
/// of the same line.
#[test]
fn options_only_mean_what_the_whole_command_line_means() {
    let lines: [&[&str]; 4] = [
        &["queuelab", "--lang", "en"],
        &["queuelab", "--data-dir", "/tmp/q", "--lang=de", "--ascii"],
        &[
            "queuelab",
            "--config",
            "q.toml",
            "--content",
            "c",
            "--no-mouse",
        ],
        &["queuelab", "--reduced-motion"],
    ];
    for line in lines {
        let whole = Cli::try_parse_from(line).expect("the whole tree parses it");
        let short = WorkshopStart::try_parse_from(line).expect("options only parse");
        assert_eq!(
            format!("{:?}", short.globals),
            format!("{:?}", whole.globals),
            "{line:?}"
        );
        assert!(whole.command.is_none(), "{line:?} opens the workshop");
    }
}

/// Anything but options goes to the whole tree: its subcommands, help, version and
/// messages for mistakes.
#[test]
fn subcommands_help_version_and_mistakes_are_left_to_the_whole_command_line() {
    let lines: [&[&str]; 7] = [
        &["queuelab", "check"],
        &["queuelab", "--lang", "de", "sim", "--list"],
        &["queuelab", "--help"],
        &["queuelab", "-h"],
        &["queuelab", "--version"],
        &["queuelab", "--lang", "xx"],
        &["queuelab", "--bogus"],
    ];
    for line in lines {
        assert!(WorkshopStart::try_parse_from(line).is_err(), "{line:?}");
    }
    let version = Cli::try_parse_from(["queuelab", "--version"]).expect_err("prints");
    assert_eq!(version.kind(), clap::error::ErrorKind::DisplayVersion);
}

/// Deferred subcommands still get their own arguments and the global ones.
#[test]
fn deferred_subcommands_parse_their_arguments() {
    let cli = Cli::try_parse_from(["queuelab", "share", "--port", "9000", "--lang", "de"])
        .expect("share parses");
    assert!(matches!(
        cli.command,
        Some(Command::Share {
            port: Some(9000),
            ..
        })
    ));
    assert_eq!(cli.globals.lang, Some(Lang::De));
    Cli::command().debug_assert();
}
