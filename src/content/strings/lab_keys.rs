//! String keys of the labs (the lab file's errors in the learner's language and the `lab`
//! subcommands); `check` requires each in both languages like the others.

/// The labs' string keys.
pub const LAB_KEYS: &[&str] = &[
    "lab.err_unknown_section",
    "lab.err_duplicate_section",
    "lab.err_sql_before_section",
    "lab.err_not_open",
    "lab.err_too_many",
    "lab.err_unknown_parameter",
    "lab.err_sql",
    "lab.err_forbidden",
    "lab.err_too_long",
    "lab.err_open_transaction",
    "lab.status_done",
    "lab.status_attempted",
    "lab.status_new",
    "lab.unknown",
    "lab.check_passed",
    "lab.check_broken",
    "lab.check_moment",
    "lab.check_statement",
    "lab.check_no_statement",
    "lab.check_violation",
    "lab.check_disagree",
    "lab.check_files",
    "lab.reset_done",
];
