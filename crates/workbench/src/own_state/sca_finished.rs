//! The SCAs finished lately, for the workbench's SCA screen: for each, where the bank sent the PSU back
//! to (the TPP-Redirect-URI with what it carries: psu-id, psu-corporate-id, context, tpp-session-id, or a
//! failure's status, code and message). A TPP's own app may not be running, or not be reachable from the
//! PSU's window: the screen then still shows what went back, and a link onwards.

use super::sca_pending::{kind, PendingKind};
use serde::Serialize;
use time::OffsetDateTime;
use xs2a_core::bank::sca::authorisation::{Authorisation, Outcome};
use xs2a_core::domain::refusal::CoreResult;
use xs2a_core::store::Store;

/// How many the screen shows.
pub const SHOWN: usize = 20;

/// One finished SCA and where it sent the PSU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FinishedSca {
    /// The authorisation id.
    pub id: String,
    pub tpp_id: String,
    pub tpp_name: String,
    pub kind: PendingKind,
    pub outcome: Outcome,
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    /// Where the bank sent the PSU's browser: the TPP-Redirect-URI with the parameters below.
    pub redirect: String,
    /// The TPP-Redirect-URI as the TPP gave it (without the bank's parameters).
    pub redirect_uri: String,
    /// The parameters the bank added, in order (`psu-id`, `tpp-session-id`, `context`, … or `system`,
    /// `status`, `code`, `message`).
    pub parameters: Vec<(String, String)>,
    #[schema(required = true)]
    pub psu_id: Option<String>,
    #[schema(required = true)]
    pub psu_corporate_id: Option<String>,
}

/// The finished authorisations that sent the PSU somewhere, newest first, at most [`SHOWN`].
pub fn finished(store: &Store) -> CoreResult<Vec<FinishedSca>> {
    let mut list: Vec<FinishedSca> = store
        .table::<Authorisation>()?
        .list()?
        .into_iter()
        .filter_map(|a| {
            let outcome = a.outcome?;
            let redirect = a.redirect.clone()?;
            let parameters = added_parameters(&redirect, &a.redirect_uri);
            let find = |name: &str| {
                parameters
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
            };
            Some(FinishedSca {
                kind: kind(&a),
                psu_id: find("psu-id"),
                psu_corporate_id: find("psu-corporate-id"),
                outcome,
                started_at: a.created_at,
                redirect,
                parameters,
                id: a.id,
                tpp_id: a.tpp_id,
                tpp_name: a.tpp_name,
                redirect_uri: a.redirect_uri,
            })
        })
        .collect();
    list.sort_by(|a, b| b.started_at.cmp(&a.started_at).then(b.id.cmp(&a.id)));
    list.truncate(SHOWN);
    Ok(list)
}

/// The query parameters of `redirect` that `redirect_uri` did not have already (the bank's), decoded.
pub fn added_parameters(redirect: &str, redirect_uri: &str) -> Vec<(String, String)> {
    let query = |url: &str| {
        let without_fragment = url.split('#').next().unwrap_or("");
        let query = without_fragment.split_once('?').map_or("", |(_, q)| q);
        serde_urlencoded::from_str::<Vec<(String, String)>>(query).unwrap_or_default()
    };
    let own = query(redirect_uri);
    query(redirect)
        .into_iter()
        .filter(|pair| !own.contains(pair))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_banks_parameters_are_listed_decoded() {
        assert_eq!(
            added_parameters(
                "https://tpp.example/cb?state=1&psu-id=a-b&context=PRIVATE&message=SCA%20cancelled#top",
                "https://tpp.example/cb?state=1#top"
            ),
            [
                ("psu-id".to_owned(), "a-b".to_owned()),
                ("context".to_owned(), "PRIVATE".to_owned()),
                ("message".to_owned(), "SCA cancelled".to_owned()),
            ]
        );
    }
}
