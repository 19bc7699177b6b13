//! E-mail address checks, each rejection with its own message. The services layer runs lettre's
//! parser after these (the domain may not import lettre); these checks come first because they can
//! say precisely what is wrong.

use content::key;

/// Longest address SMTP accepts (RFC 5321 path limit minus the angle brackets).
pub const MAX_LEN: usize = 254;
/// Longest local part (RFC 5321).
pub const MAX_LOCAL_LEN: usize = 64;
/// Longest domain label (RFC 1035).
pub const MAX_LABEL_LEN: usize = 63;
/// Characters allowed in an unquoted local part besides letters and digits (RFC 5322 atext).
const LOCAL_SPECIALS: &str = "!#$%&'*+-/=?^_`{|}~.";

/// Why an address was rejected. `key()` names the UI string that explains it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressError {
    /// Nothing typed.
    Empty,
    /// Longer than [`MAX_LEN`].
    TooLong,
    /// Contains a space, tab or other whitespace.
    Whitespace,
    /// Contains a control character (line breaks included: header injection).
    Control,
    /// No `@`.
    NoAt,
    /// More than one `@`.
    SeveralAt,
    /// Nothing before the `@`.
    EmptyLocal,
    /// Local part longer than [`MAX_LOCAL_LEN`].
    LocalTooLong,
    /// Local part starts or ends with a dot, or has two dots in a row.
    LocalDots,
    /// A character not allowed in the local part (quotes, brackets, commas, non-ASCII...).
    LocalChar,
    /// Nothing after the `@`.
    EmptyDomain,
    /// The domain has no dot.
    DomainNotDotted,
    /// A character outside `[A-Za-z0-9.-]` in the domain.
    DomainChar,
    /// An empty label (leading, trailing or double dot).
    DomainEmptyLabel,
    /// A label starts or ends with a hyphen.
    DomainHyphen,
    /// A label longer than [`MAX_LABEL_LEN`].
    DomainLabelTooLong,
    /// The top-level label is all digits (an IP address, not a mail domain).
    DomainNumericTld,
    /// The mail library's own parser refused it.
    Syntax,
}

impl AddressError {
    /// The UI string key with the message for this rejection.
    pub fn key(self) -> content::Key {
        match self {
            AddressError::Empty => key::address::ERR_EMPTY,
            AddressError::TooLong => key::address::ERR_TOO_LONG,
            AddressError::Whitespace => key::address::ERR_WHITESPACE,
            AddressError::Control => key::address::ERR_CONTROL,
            AddressError::NoAt => key::address::ERR_NO_AT,
            AddressError::SeveralAt => key::address::ERR_SEVERAL_AT,
            AddressError::EmptyLocal => key::address::ERR_EMPTY_LOCAL,
            AddressError::LocalTooLong => key::address::ERR_LOCAL_TOO_LONG,
            AddressError::LocalDots => key::address::ERR_LOCAL_DOTS,
            AddressError::LocalChar => key::address::ERR_LOCAL_CHAR,
            AddressError::EmptyDomain => key::address::ERR_EMPTY_DOMAIN,
            AddressError::DomainNotDotted => key::address::ERR_DOMAIN_NOT_DOTTED,
            AddressError::DomainChar => key::address::ERR_DOMAIN_CHAR,
            AddressError::DomainEmptyLabel => key::address::ERR_DOMAIN_EMPTY_LABEL,
            AddressError::DomainHyphen => key::address::ERR_DOMAIN_HYPHEN,
            AddressError::DomainLabelTooLong => key::address::ERR_DOMAIN_LABEL_TOO_LONG,
            AddressError::DomainNumericTld => key::address::ERR_DOMAIN_NUMERIC_TLD,
            AddressError::Syntax => key::address::ERR_SYNTAX,
        }
    }
}

/// Every key `AddressError::key` can return (for the strings list and its test).
pub const ERROR_KEYS: [content::Key; 18] = [
    key::address::ERR_EMPTY,
    key::address::ERR_TOO_LONG,
    key::address::ERR_WHITESPACE,
    key::address::ERR_CONTROL,
    key::address::ERR_NO_AT,
    key::address::ERR_SEVERAL_AT,
    key::address::ERR_EMPTY_LOCAL,
    key::address::ERR_LOCAL_TOO_LONG,
    key::address::ERR_LOCAL_DOTS,
    key::address::ERR_LOCAL_CHAR,
    key::address::ERR_EMPTY_DOMAIN,
    key::address::ERR_DOMAIN_NOT_DOTTED,
    key::address::ERR_DOMAIN_CHAR,
    key::address::ERR_DOMAIN_EMPTY_LABEL,
    key::address::ERR_DOMAIN_HYPHEN,
    key::address::ERR_DOMAIN_LABEL_TOO_LONG,
    key::address::ERR_DOMAIN_NUMERIC_TLD,
    key::address::ERR_SYNTAX,
];

/// Checks `input` (surrounding whitespace trimmed) and returns the address to use.
pub fn validate(input: &str) -> Result<String, AddressError> {
    let address = input.trim();
    if address.is_empty() {
        return Err(AddressError::Empty);
    }
    // Control characters first: a line break is the header-injection attempt and deserves
    // that message rather than "whitespace".
    if address.chars().any(char::is_control) {
        return Err(AddressError::Control);
    }
    if address.chars().any(char::is_whitespace) {
        return Err(AddressError::Whitespace);
    }
    if address.len() > MAX_LEN {
        return Err(AddressError::TooLong);
    }
    let (local, domain) = match address.matches('@').count() {
        0 => return Err(AddressError::NoAt),
        1 => address.split_once('@').ok_or(AddressError::NoAt)?,
        _ => return Err(AddressError::SeveralAt),
    };
    check_local(local)?;
    check_domain(domain)?;
    Ok(address.to_owned())
}

fn check_local(local: &str) -> Result<(), AddressError> {
    if local.is_empty() {
        return Err(AddressError::EmptyLocal);
    }
    if local.len() > MAX_LOCAL_LEN {
        return Err(AddressError::LocalTooLong);
    }
    if !local
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || LOCAL_SPECIALS.contains(c))
    {
        return Err(AddressError::LocalChar);
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
        return Err(AddressError::LocalDots);
    }
    Ok(())
}

fn check_domain(domain: &str) -> Result<(), AddressError> {
    if domain.is_empty() {
        return Err(AddressError::EmptyDomain);
    }
    if !domain
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
    {
        return Err(AddressError::DomainChar);
    }
    if !domain.contains('.') {
        return Err(AddressError::DomainNotDotted);
    }
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.iter().any(|l| l.is_empty()) {
        return Err(AddressError::DomainEmptyLabel);
    }
    if labels
        .iter()
        .any(|l| l.starts_with('-') || l.ends_with('-'))
    {
        return Err(AddressError::DomainHyphen);
    }
    if labels.iter().any(|l| l.len() > MAX_LABEL_LEN) {
        return Err(AddressError::DomainLabelTooLong);
    }
    if labels
        .last()
        .is_some_and(|tld| tld.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(AddressError::DomainNumericTld);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
