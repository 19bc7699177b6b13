//! The projector page's login: the instructor types the key once into a form, and the browser
//! keeps it as a cookie. The key never stands in a URL, so the projector page's address can be
//! projected, logged by a proxy or kept in a browser's history without giving the key away.

use content::key;
use domain::html::escape_html as esc;
use domain::workshop::RoomTexts;

/// The cookie that carries the instructor key.
pub const COOKIE: &str = "queuelab_instructor";

/// Where the login form posts the key.
pub const LOGIN_PATH: &str = "/login";

/// Where a successful login leads.
pub const PROJECTOR_PATH: &str = "/dashboard";

/// The `Set-Cookie` value for a browser that gave the right key: sent over TLS only, invisible
/// to scripts, not sent along from other sites, and gone when the browser closes.
pub fn set_cookie(key: &str) -> String {
    format!("{COOKIE}={key}; Path=/; Secure; HttpOnly; SameSite=Strict")
}

/// The instructor key from a `Cookie` header, if it carries ours.
pub fn from_cookie_header(header: &str) -> Option<&str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(name, value)| (name == COOKIE).then_some(value))
}

/// The key the login form posted (`application/x-www-form-urlencoded`), with the spaces a copy
/// from a terminal brings along trimmed.
pub fn from_form(body: &[u8]) -> Option<String> {
    form_urlencoded::parse(body)
        .find_map(|(name, value)| (name == "key").then(|| value.trim().to_owned()))
        .filter(|key| !key.is_empty())
}

/// The login form in the session's language; `wrong` adds the refusal of a wrong key.
pub fn login_page(texts: &RoomTexts, wrong: bool) -> String {
    let s = &texts.strings;
    let refusal = if wrong {
        format!(
            "<p id=\"wrong\" role=\"alert\"><strong>{}</strong></p>",
            esc(s.get(key::projector::LOGIN_WRONG))
        )
    } else {
        String::new()
    };
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title>\
<style>body{{font-family:sans-serif;margin:2rem;font-size:1.3rem}}\
input,button{{font-size:1.3rem;padding:.3rem .6rem}}</style></head><body>\
<h1>{title}</h1>{refusal}\
<form method=\"post\" action=\"{LOGIN_PATH}\"><label for=\"key\">{label}</label><br>\
<input id=\"key\" name=\"key\" type=\"password\" autocomplete=\"off\" autofocus required> \
<button type=\"submit\">{button}</button></form><p>{hint}</p></body></html>",
        lang = texts.lang,
        title = esc(s.get(key::projector::LOGIN_TITLE)),
        label = esc(s.get(key::projector::LOGIN_LABEL)),
        button = esc(s.get(key::projector::LOGIN_BUTTON)),
        hint = esc(s.get(key::projector::LOGIN_HINT)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_found_among_others_and_only_by_its_name() {
        let header = format!("theme=dark; {COOKIE}=K3Y; other=1");
        assert_eq!(from_cookie_header(&header), Some("K3Y"));
        assert_eq!(from_cookie_header("theme=dark"), None);
        assert_eq!(from_cookie_header(&format!("x{COOKIE}=K3Y")), None);
        assert_eq!(from_cookie_header(""), None);
    }

    #[test]
    fn the_form_key_is_decoded_and_trimmed_and_an_empty_one_is_none() {
        assert_eq!(from_form(b"key=+ABC%2D1+"), Some("ABC-1".into()));
        assert_eq!(from_form(b"other=1&key=XYZ"), Some("XYZ".into()));
        assert_eq!(from_form(b"key="), None);
        assert_eq!(from_form(b"\xff\xfe"), None);
    }

    #[test]
    fn the_cookie_is_secure_http_only_and_strict() {
        let cookie = set_cookie("K");
        for part in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(cookie.contains(part), "{cookie}");
        }
    }
}
