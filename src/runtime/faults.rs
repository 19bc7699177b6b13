//! The services' errors as the app's messages carry them: what failed, with the detail the
//! screen shows (the app says it in the learner's language).

use app::{SaveError, StoreFault};
use services::StoreError;
use services::mail::MailError;

/// What the store's error means for the learner.
pub fn store_fault(e: &StoreError) -> StoreFault {
    match e {
        StoreError::Busy { path } => StoreFault::Busy { path: path.clone() },
        StoreError::Damaged { path, reason } => StoreFault::Damaged {
            path: path.clone(),
            reason: reason.clone(),
        },
        StoreError::TooNew { path, found, known } => StoreFault::TooNew {
            path: path.clone(),
            found: *found,
            known: *known,
        },
        StoreError::File { path, reason } | StoreError::Import { path, reason } => {
            StoreFault::File {
                path: path.clone(),
                reason: reason.clone(),
            }
        }
        StoreError::Sqlite { path, source } => StoreFault::Database {
            path: path.clone(),
            detail: source.to_string(),
        },
    }
}

/// What the mail library's error means for a report or a clearing of files.
pub fn save_error(e: &MailError) -> SaveError {
    match e {
        MailError::Store(e) => SaveError::Store(store_fault(e)),
        MailError::File { path, reason } => SaveError::File {
            path: path.clone(),
            reason: reason.clone(),
        },
        other => SaveError::Mail(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The learner reads the same words the store's own message holds (in English): the app's
    /// strings must not drift from the services' messages.
    #[test]
    fn an_english_fault_reads_as_the_stores_own_message() {
        let content = content::load(&content::ContentSource::Embedded).expect("content");
        let strings = &content.course(content::Lang::En).strings;
        let errors = [
            StoreError::Busy {
                path: "/d/progress.db".into(),
            },
            StoreError::Damaged {
                path: "/d/progress.db".into(),
                reason: "file is not a database".into(),
            },
            StoreError::TooNew {
                path: "/d/progress.db".into(),
                found: 9,
                known: 7,
            },
            StoreError::File {
                path: "/d/progress.db".into(),
                reason: "No space left on device".into(),
            },
            StoreError::Sqlite {
                path: "/d/progress.db".into(),
                source: rusqlite::Error::InvalidQuery,
            },
        ];
        for e in errors {
            assert_eq!(store_fault(&e).describe(strings), e.to_string());
        }
    }
}
