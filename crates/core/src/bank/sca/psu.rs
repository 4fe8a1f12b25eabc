//! The identifiers a TPP knows a PSU by. A psu-id is a UUID unique to one TPP and one person, stable
//! across SCAs (a psu-id is the PSU's id at one TPP:
//! docs/interface.md#strong-customer-authentication-and-tpp-sessions), so another TPP never learns it; likewise a
//! psu-corporate-id names one corporate agreement for one TPP.

use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Namespace for the identifiers derived here (fixed: ids must stay stable across versions).
const NAMESPACE: Uuid = Uuid::from_u128(0x5d1c_7a8e_3b6f_4e21_9a0d_7c4b_2e8f_1a36);

/// A psu-id given to a TPP, and the customer it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PsuLink {
    pub tpp_id: String,
    pub psu_id: String,
    pub customer_id: String,
}

impl Record for PsuLink {
    const TREE: &'static str = "sca-psu-links";
    fn key(&self) -> String {
        format!("{}/{}", self.tpp_id, self.psu_id)
    }
}

/// A psu-corporate-id given to a TPP, and the agreement it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CorporateLink {
    pub tpp_id: String,
    pub psu_corporate_id: String,
    pub agreement_id: String,
}

impl Record for CorporateLink {
    const TREE: &'static str = "sca-corporate-links";
    fn key(&self) -> String {
        format!("{}/{}", self.tpp_id, self.psu_corporate_id)
    }
}

/// The psu-id this TPP knows this customer by (recorded so it can be resolved later).
pub fn psu_id_for(store: &Store, tpp_id: &str, customer_id: &str) -> CoreResult<String> {
    let psu_id =
        Uuid::new_v5(&NAMESPACE, format!("psu/{tpp_id}/{customer_id}").as_bytes()).to_string();
    let link = PsuLink {
        tpp_id: tpp_id.to_owned(),
        psu_id: psu_id.clone(),
        customer_id: customer_id.to_owned(),
    };
    store.table::<PsuLink>()?.insert_new(&link)?;
    Ok(psu_id)
}

/// The psu-corporate-id this TPP knows this agreement by.
pub fn corporate_id_for(store: &Store, tpp_id: &str, agreement_id: &str) -> CoreResult<String> {
    let id = Uuid::new_v5(
        &NAMESPACE,
        format!("corporate/{tpp_id}/{agreement_id}").as_bytes(),
    )
    .to_string();
    let link = CorporateLink {
        tpp_id: tpp_id.to_owned(),
        psu_corporate_id: id.clone(),
        agreement_id: agreement_id.to_owned(),
    };
    store.table::<CorporateLink>()?.insert_new(&link)?;
    Ok(id)
}

/// The customer behind a PSU-ID header, for this TPP only. An id issued to another TPP is unknown here.
pub fn customer_of(store: &Store, tpp_id: &str, psu_id: &str) -> CoreResult<Option<String>> {
    let psu_id = psu_id.trim().to_ascii_lowercase();
    Ok(store
        .table::<PsuLink>()?
        .get(&format!("{tpp_id}/{psu_id}"))?
        .map(|link| link.customer_id))
}

/// The agreement behind a PSU-Corporate-ID header, for this TPP only.
pub fn agreement_of(
    store: &Store,
    tpp_id: &str,
    psu_corporate_id: &str,
) -> CoreResult<Option<String>> {
    let id = psu_corporate_id.trim().to_ascii_lowercase();
    Ok(store
        .table::<CorporateLink>()?
        .get(&format!("{tpp_id}/{id}"))?
        .map(|link| link.agreement_id))
}

/// 401 PSU_CREDENTIALS_INVALID for a PSU-ID this TPP was never given.
pub fn unknown_psu(psu_id: &str) -> Refusal {
    Refusal::new(
        crate::domain::refusal::Code::PsuCredentialsInvalid,
        Some("PSU-ID"),
        format!(
            "PSU-ID {psu_id} is not known to this TPP: a psu-id comes from the redirect that ends SCA and is \
             different at every TPP. Start SCA again (the scaRedirect link) to obtain one."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_psu_id_is_stable_per_tpp_and_different_across_tpps() {
        let store = Store::temporary().unwrap();
        let a = psu_id_for(&store, "TPP-A", "customer-1").unwrap();
        assert_eq!(a, psu_id_for(&store, "TPP-A", "customer-1").unwrap());
        let b = psu_id_for(&store, "TPP-B", "customer-1").unwrap();
        assert_ne!(a, b);
        assert_eq!(
            customer_of(&store, "TPP-A", &a).unwrap().as_deref(),
            Some("customer-1")
        );
        assert_eq!(
            customer_of(&store, "TPP-B", &a).unwrap(),
            None,
            "isolated per TPP"
        );
        assert_eq!(
            customer_of(&store, "TPP-A", &a.to_uppercase())
                .unwrap()
                .as_deref(),
            Some("customer-1")
        );
    }
}
