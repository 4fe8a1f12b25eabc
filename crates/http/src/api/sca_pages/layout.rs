//! The frame every authorisation page shares: the bank's header, who asks for what, the error box, the
//! cancel button, the language switch, and the inline stylesheet (no files to serve, no JavaScript). The
//! pages are maud templates, compiled with the crate: every value they insert is escaped unless it is
//! markup another template made.

use super::i18n::{texts, Texts};
use crate::api::layers::Language;
use axum::http::header::{CACHE_CONTROL, CONTENT_LANGUAGE, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use xs2a_core::bank::sca::authorisation::Authorisation;

/// The language of a page, and whether the PSU chose it with `?lang=` (then links and forms carry it on);
/// also whether the page is in the workbench's PSU window (`?workbench=1`, carried on likewise), where
/// the end of the SCA shows where the PSU is sent before sending them (`handover`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLang {
    pub lang: Language,
    pub explicit: bool,
    pub in_workbench: bool,
}

impl PageLang {
    /// `?lang=nb|en` wins over Accept-Language.
    pub fn choose(query: Option<&str>, accept_language: Option<&str>) -> PageLang {
        let pairs = query
            .and_then(|q| serde_urlencoded::from_str::<Vec<(String, String)>>(q).ok())
            .unwrap_or_default();
        let asked = pairs
            .iter()
            .find(|(k, _)| k == "lang")
            .map(|(_, v)| v.as_str());
        let in_workbench = pairs.iter().any(|(k, v)| k == "workbench" && v == "1");
        let offered = [Language::English, Language::Norwegian];
        match asked.map(|v| Language::negotiate(Some(v), &offered)) {
            Some(lang) => PageLang {
                lang,
                explicit: true,
                in_workbench,
            },
            None => PageLang {
                lang: Language::negotiate(accept_language, &offered),
                explicit: false,
                in_workbench,
            },
        }
    }

    /// The query suffix links and form actions carry (`?lang=nb`, `?workbench=1`, both), or nothing.
    pub fn suffix(self) -> String {
        let mut parts = Vec::new();
        if self.explicit {
            parts.push(format!("lang={}", self.lang.tag()));
        }
        if self.in_workbench {
            parts.push("workbench=1".to_owned());
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        }
    }

    /// The same page in the other language: `?lang=` and what else the page carries.
    pub fn switched(self) -> PageLang {
        let lang = match self.lang {
            Language::English => Language::Norwegian,
            Language::Norwegian => Language::English,
        };
        PageLang {
            lang,
            explicit: true,
            in_workbench: self.in_workbench,
        }
    }

    pub fn texts(self) -> &'static Texts {
        texts(self.lang)
    }
}

/// One authorisation as a page sees it: enough to write form actions and fill in the TPP's name.
pub struct View<'a> {
    pub lang: PageLang,
    pub auth: &'a Authorisation,
}

impl View<'_> {
    pub fn texts(&self) -> &'static Texts {
        self.lang.texts()
    }

    /// The form action for a step (`/sca/{id}/identify?lang=nb`).
    pub fn action(&self, step: &str) -> String {
        format!("/sca/{}/{step}{}", self.auth.id, self.lang.suffix())
    }

    /// A text with the TPP's name filled in.
    pub fn with_tpp(&self, template: &str) -> Markup {
        with_tpp(template, &self.auth.tpp_name)
    }
}

/// A text with `{tpp}` filled in, the TPP's name in bold.
pub fn with_tpp(template: &str, tpp_name: &str) -> Markup {
    html! {
        @for (i, part) in template.split("{tpp}").enumerate() {
            @if i > 0 { strong { (tpp_name) } }
            (part)
        }
    }
}

/// What a page shows around its own content.
pub struct Frame<'a> {
    pub lang: PageLang,
    /// The authorisation id, when there is one (for the cancel form and the language link).
    pub id: Option<&'a str>,
    /// The banner line ("Acme TPP wants to ...").
    pub headline: Option<Markup>,
    /// Who the PSU was identified as, and for which agreement.
    pub identity: Option<Markup>,
    pub title: &'a str,
    pub error: Option<String>,
    /// The page's own content.
    pub body: Markup,
    /// The label of the cancel button; None for no button.
    pub cancel: Option<String>,
}

impl Frame<'_> {
    /// The whole document.
    pub fn render(&self) -> String {
        let t = self.lang.texts();
        let switched = self.lang.switched();
        let other = switched.lang.tag();
        let switch_href = match self.id {
            Some(id) => format!("/sca/{id}{}", switched.suffix()),
            None => switched.suffix(),
        };
        html! {
            (DOCTYPE) "\n"
            html lang=(self.lang.lang.tag()) {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (self.title) " - " (t.bank_name) }
                    style { (PreEscaped(CSS)) }
                }
                body {
                    header class="bank" {
                        span class="logo" { (t.bank_name) }
                        a class="lang" id="lang-switch" href=(switch_href) hreflang=(other) { (t.other_language) }
                    }
                    p class="sandbox" { (t.sandbox_notice) }
                    main class="card" {
                        @if let Some(headline) = &self.headline { p class="headline" { (headline) } }
                        @if let Some(identity) = &self.identity { p class="identity" { (identity) } }
                        h1 { (self.title) }
                        @if let Some(error) = &self.error {
                            div class="error" role="alert" id="error" {
                                strong { (t.error_heading) }
                                p { (error) }
                            }
                        }
                        (self.body)
                        @if let (Some(id), Some(label)) = (self.id, &self.cancel) {
                            form method="post" action={ "/sca/" (id) "/cancel" (self.lang.suffix()) } class="cancel" {
                                button type="submit" id="cancel" class="secondary" { (label) }
                            }
                        }
                    }
                }
            }
        }
        .into_string()
    }
}

/// The CSP of every page: no scripts, inline styles only, never inside a frame.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/// An HTML answer in the page's language.
pub fn html(status: StatusCode, lang: Language, document: String) -> Response {
    let mut response = (status, document).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(CONTENT_LANGUAGE, HeaderValue::from_static(lang.tag()));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("content-security-policy", HeaderValue::from_static(CSP));
    response
}

/// 303 See Other: after a form, the browser GETs the next page (or the TPP's redirect URI).
pub fn see_other(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => {
            let mut response = StatusCode::SEE_OTHER.into_response();
            response.headers_mut().insert(LOCATION, value);
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(_) => crate::api::error::ApiError::internal(format!(
            "redirect target is not a header value: {location}"
        ))
        .into_response(),
    }
}

/// Readable on a projector: large type, strong contrast, one column.
const CSS: &str = "\
*{box-sizing:border-box}\
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:18px;line-height:1.5;color:#1b2330;background:#eef2f7}\
header.bank{display:flex;justify-content:space-between;align-items:center;padding:14px 28px;background:#0b3a66;color:#fff}\
.logo{font-weight:700;font-size:22px;letter-spacing:.3px}\
.lang{color:#fff;font-size:16px}\
.sandbox{margin:0;padding:6px 28px;background:#ffe8a3;color:#5a4300;font-size:15px;text-align:center}\
.card{max-width:620px;margin:32px auto;padding:28px 32px;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(11,58,102,.12)}\
.headline{margin:0 0 6px;font-size:20px}\
.headline strong{color:#0b3a66}\
.identity{margin:0 0 12px;color:#51607a;font-size:16px}\
h1{margin:8px 0 16px;font-size:28px}\
.lead{margin:0 0 16px}\
.note{color:#51607a;font-size:16px}\
label.field{display:block;font-weight:600;margin-bottom:6px}\
input[type=text]{width:100%;padding:12px 14px;font-size:20px;letter-spacing:1px;border:2px solid #b8c4d6;border-radius:8px}\
input[type=text]:focus{outline:none;border-color:#0b3a66}\
button{font:inherit;cursor:pointer;border-radius:8px;padding:12px 22px;border:2px solid #0b3a66;background:#0b3a66;color:#fff;font-weight:600}\
button:hover{background:#124f8a}\
button.secondary{background:#fff;color:#0b3a66}\
button.secondary:hover{background:#eef2f7}\
button.link{padding:6px 10px;border:1px solid #b8c4d6;background:#f7f9fc;color:#1b2330;font-weight:400}\
.actions{margin-top:20px;display:flex;gap:12px;flex-wrap:wrap}\
.methods button{display:block;width:100%;margin:0 0 10px;text-align:left}\
.choices{list-style:none;padding:0;margin:0}\
.choices li{margin:0 0 10px}\
.choices label{display:flex;gap:12px;align-items:flex-start;padding:12px 14px;border:2px solid #d5dde8;border-radius:8px;cursor:pointer}\
.choices input{margin-top:6px;transform:scale(1.3)}\
.choices small{display:block;color:#51607a}\
.badge{display:inline-block;margin-left:6px;padding:0 8px;border-radius:10px;background:#dff3e4;color:#1d6b34;font-size:14px}\
.error{margin:0 0 16px;padding:12px 16px;border-left:6px solid #b3261e;background:#fdecea;color:#5c1410}\
.error p{margin:4px 0 0}\
.hint{margin-top:24px;padding-top:16px;border-top:1px solid #e2e8f0}\
.hint h2{font-size:18px;margin:0 0 6px}\
.hint ul{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-direction:column;gap:6px}\
.hint form{display:inline}\
code{font-size:17px}\
code.address{overflow-wrap:anywhere}\
a.button{display:inline-block;text-decoration:none;border-radius:8px;padding:12px 22px;border:2px solid #0b3a66;background:#0b3a66;color:#fff;font-weight:600}\
a.button:hover{background:#124f8a}\
dl.payment dd code{overflow-wrap:anywhere}\
dl.payment{display:grid;grid-template-columns:auto 1fr;gap:6px 18px;margin:0 0 14px;padding:14px 16px;border:2px solid #d5dde8;border-radius:8px}dl.payment dt{color:#51607a}dl.payment dd{margin:0;font-weight:600}form.cancel{margin-top:18px;padding-top:14px;border-top:1px solid #e2e8f0}\
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sca_pages_escape_markup_and_quotes() {
        assert_eq!(
            with_tpp("{tpp} wants <b>", "A&B <TPP>").into_string(),
            "<strong>A&amp;B &lt;TPP&gt;</strong> wants &lt;b&gt;"
        );
        let frame = Frame {
            lang: PageLang::choose(None, None),
            id: Some("a\"b"),
            headline: Some(with_tpp("{tpp} asks", "<i>")),
            identity: None,
            title: "<title>",
            error: Some("\"quoted\" & <b>".to_owned()),
            body: html! { input value=("\"><script>"); },
            cancel: Some("<cancel>".to_owned()),
        };
        let page = frame.render();
        assert!(
            page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
            "{page}"
        );
        for escaped in [
            "<strong>&lt;i&gt;</strong> asks",
            "<title>&lt;title&gt; - ",
            "<p>&quot;quoted&quot; &amp; &lt;b&gt;</p>",
            "<input value=\"&quot;&gt;&lt;script&gt;\">",
            "action=\"/sca/a&quot;b/cancel\"",
            "&lt;cancel&gt;</button>",
        ] {
            assert!(page.contains(escaped), "{escaped} in {page}");
        }
        assert!(
            !page.contains("<script>") && !page.contains("<i>"),
            "{page}"
        );
    }

    #[test]
    fn sca_page_language_query_wins_over_accept_language() {
        let chosen = PageLang::choose(Some("lang=nb"), Some("en"));
        assert_eq!(chosen.lang, Language::Norwegian);
        assert_eq!(chosen.suffix(), "?lang=nb");
        let negotiated = PageLang::choose(None, Some("nb-NO,en;q=0.5"));
        assert_eq!(negotiated.lang, Language::Norwegian);
        assert_eq!(negotiated.suffix(), "");
        // The workbench's PSU window keeps its mark through every form and link.
        let window = PageLang::choose(Some("workbench=1"), Some("nb"));
        assert_eq!(window.suffix(), "?workbench=1");
        assert_eq!(window.switched().suffix(), "?lang=en&workbench=1");
    }
}
