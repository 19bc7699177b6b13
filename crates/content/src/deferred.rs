//! A part of the content that is parsed on first use: the TUI's first frame needs none of the
//! simulator's files, so the embedded start leaves them for later (see `load_shown`).

use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;

/// A value given ready or parsed from the embedded copy on first use; reads like the value.
pub struct Deferred<T> {
    cell: OnceLock<T>,
    parse: fn() -> T,
}

impl<T: Default> Deferred<T> {
    /// A value already parsed.
    pub(super) fn ready(value: T) -> Self {
        Deferred {
            cell: OnceLock::from(value),
            // Never called: the cell is set.
            parse: T::default,
        }
    }
}

impl<T> Deferred<T> {
    /// A value `parse` makes on first use (several threads asking at once wait for one parse).
    pub(super) fn later(parse: fn() -> T) -> Self {
        Deferred {
            cell: OnceLock::new(),
            parse,
        }
    }

    /// Whether the value is there yet.
    pub fn is_ready(&self) -> bool {
        self.cell.get().is_some()
    }
}

impl<T> Deref for Deferred<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.cell.get_or_init(self.parse)
    }
}

impl<'a, T> IntoIterator for &'a Deferred<Vec<T>> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Default> Default for Deferred<T> {
    fn default() -> Self {
        Deferred::ready(T::default())
    }
}

impl<T: Clone + Default> Clone for Deferred<T> {
    fn clone(&self) -> Self {
        Deferred::ready(T::clone(self))
    }
}

impl<T: PartialEq> PartialEq for Deferred<T> {
    fn eq(&self, other: &Self) -> bool {
        T::eq(self, other)
    }
}

impl<T: fmt::Debug> fmt::Debug for Deferred<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        T::fmt(self, f)
    }
}
