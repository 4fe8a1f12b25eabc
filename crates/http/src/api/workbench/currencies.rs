//! `GET /workbench/api/currencies`: the currency codes the sandbox accepts, each with its minor units, so
//! the UI shows an amount the sandbox lists in minor units (`-29803`) as its forms take it (`-298.03`)
//! without a currency table of its own.

use crate::api::answer::Json;
use serde::Serialize;
use xs2a_core::domain::currency::Currency;

/// One currency code and the fraction digits its amounts carry.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrencyInfo {
    /// The upper-case code, e.g. `NOK`.
    code: String,
    /// The digits after the decimal point (ISO 4217: NOK 2, JPY 0, KWD 3).
    minor_units: u32,
}

/// 200: every code on the sandbox's list, alphabetically.
pub async fn list() -> Json<Vec<CurrencyInfo>> {
    Json(
        Currency::all()
            .map(|c| CurrencyInfo {
                code: c.code().to_owned(),
                minor_units: c.minor_units(),
            })
            .collect(),
    )
}
