//! `queuelab check`: validate all content, print the summary per language or every problem.

use super::Failure;
use crate::content::{self, ContentSource, Lang};

/// Validates the content and prints the result.
pub fn run(source: &ContentSource) -> Result<(), Failure> {
    match content::load(source) {
        Ok(content) => {
            for lang in Lang::ALL {
                super::out::line(content.summary(lang))?;
            }
            Ok(())
        }
        Err(problems) => {
            for problem in &problems {
                super::out::line(problem)?;
            }
            Err(Failure::new(format!(
                "{} content problem(s) in {}",
                problems.len(),
                source.describe()
            )))
        }
    }
}
