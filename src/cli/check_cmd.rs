//! `queuelab check`: validate all content, print the summary per language or every problem.

use super::Failure;
use crate::content::{self, ContentSource, Lang};

/// Validates the content and prints the result.
pub fn run(source: &ContentSource) -> Result<(), Failure> {
    match content::load(source) {
        Ok(content) => {
            for lang in Lang::ALL {
                println!("{}", content.summary(lang));
            }
            Ok(())
        }
        Err(problems) => {
            for problem in &problems {
                println!("{problem}");
            }
            Err(Failure::new(format!(
                "{} content problem(s) in {}",
                problems.len(),
                source.describe()
            )))
        }
    }
}
