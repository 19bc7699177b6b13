//! `queuelab check`: validate all content, print the summary per language or every problem.

use super::Failure;
use content::{self, ContentSource, Lang};

/// Validates the content and prints the result.
pub fn run(source: &ContentSource) -> Result<(), Failure> {
    match content::load(source) {
        Ok(content) => {
            let problems = lab_file_problems(&content);
            if !problems.is_empty() {
                for problem in &problems {
                    super::out::line(problem)?;
                }
                return Err(Failure::new(format!(
                    "{} content problem(s) in {}",
                    problems.len(),
                    source.describe()
                )));
            }
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

/// Every lab's starting file, solution and wrong answers must prepare: a lab that ships a file
/// the engine refuses would teach nothing.
fn lab_file_problems(content: &content::Content) -> Vec<String> {
    let english = content.course(Lang::En).strings.clone();
    let mut problems = Vec::new();
    for lab in &content.labs {
        let files = [
            ("start.sql".to_owned(), &lab.start),
            ("solution.sql".to_owned(), &lab.solution),
        ]
        .into_iter()
        .chain(
            lab.wrong
                .iter()
                .map(|(name, text)| (format!("wrong/{name}"), text)),
        );
        for (name, text) in files {
            if let Err(e) = sim::lab::LabSql::prepare(text, &lab.sections) {
                problems.push(e.render(&format!("labs/{}/{name}", lab.id), &english));
            }
        }
    }
    problems
}
