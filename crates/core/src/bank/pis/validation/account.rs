//! Account references and the creditor agent: `creditorAccount` (a Norwegian BBAN for domestic
//! products, an IBAN for SEPA, an IBAN or a foreign BBAN for cross-border), `debtorAccount` (exactly
//! one of a Norwegian `bban` and the bank's `other` card-account extension) and `creditorAgent` (a BIC).

use super::amount::currency;
use super::fields::{at, get, opt_str, present, req_obj, req_str, Object};
use super::text::check_text;
use crate::bank::pis::model::{CreditorAccount, DebtorAccount, Money, PaymentProduct};
use crate::domain::refusal::Refusal;
use crate::domain::{Bban, Iban};

/// creditorAccount.bban and debtorAccount.bban hold at most 30 characters (docs/interface.md#payments).
pub const MAX_BBAN_CHARS: usize = 30;
/// Berlin Group `otherType.identification`: at most 35 characters.
pub const MAX_OTHER_ID_CHARS: usize = 35;
/// The only scheme for `debtorAccount.other` (docs/reference/payments.md#validation-duplicates-fees).
pub const CARD_SCHEME: &str = "creditCardAccount";

/// A Norwegian BBAN at `path`: at most 30 characters (the bank's limit, checked first so an overlong
/// value gets the limit as its reason), then 11 digits with a valid mod 11 check digit. Returned
/// normalised (separators dropped) so the sandbox can match it against its accounts.
pub fn norwegian_bban(path: &str, text: &str) -> Result<String, Refusal> {
    check_text(path, text, 1, MAX_BBAN_CHARS)?;
    Bban::parse(text)
        .map(|b| b.as_str().to_string())
        .map_err(|e| Refusal::format(path, format!("{path}: {e}.")))
}

/// `creditorAccount` at `prefix`. Its currency is required for domestic products (docs/interface.md#payments); for SEPA
/// and cross-border it defaults to the instructed currency, as Berlin Group makes it optional.
pub fn creditor_account(
    object: &Object,
    prefix: &str,
    product: PaymentProduct,
    instructed: &Money,
) -> Result<CreditorAccount, Refusal> {
    let path = at(prefix, "creditorAccount");
    let account = req_obj(object, prefix, "creditorAccount")?;
    let currency = if product.is_domestic() || present(account, "currency") {
        currency(account, &path, "currency")?
    } else {
        instructed.currency
    };
    let bban_path = at(&path, "bban");
    let iban_path = at(&path, "iban");
    let (bban, iban) = match product {
        PaymentProduct::NorwegianDomesticCreditTransfers
        | PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks => {
            if present(account, "iban") {
                return Err(Refusal::format(
                    &iban_path,
                    format!(
                        "{} payments identify the creditor account by bban (a Norwegian account \
                         number), not iban.",
                        product.path()
                    ),
                ));
            }
            let text = req_str(account, &path, "bban")?;
            (Some(norwegian_bban(&bban_path, text)?), None)
        }
        PaymentProduct::SepaCreditTransfers => {
            if present(account, "bban") {
                return Err(Refusal::format(
                    &bban_path,
                    "sepa-credit-transfers identify the creditor account by iban, not bban.",
                ));
            }
            let text = req_str(account, &path, "iban")?;
            (None, Some(iban(&iban_path, text)?))
        }
        PaymentProduct::CrossBorderCreditTransfers => {
            match (
                opt_str(account, &path, "bban")?,
                opt_str(account, &path, "iban")?,
            ) {
                (Some(_), Some(_)) => {
                    return Err(Refusal::format(
                        &path,
                        format!("{path} must hold exactly one of iban and bban, not both."),
                    ))
                }
                (None, None) => {
                    return Err(Refusal::format(
                        &path,
                        format!(
                            "{path} must hold an iban (or, for countries without IBAN, a bban)."
                        ),
                    ))
                }
                (Some(text), None) => (Some(foreign_bban(&bban_path, text)?), None),
                (None, Some(text)) => (None, Some(iban(&iban_path, text)?)),
            }
        }
    };
    Ok(CreditorAccount {
        bban,
        iban,
        currency,
    })
}

/// An IBAN at `path`, normalised to its electronic form.
fn iban(path: &str, text: &str) -> Result<String, Refusal> {
    check_text(path, text, 1, 34 + 8)?;
    Iban::parse(text)
        .map(|i| i.as_str().to_string())
        .map_err(|e| Refusal::format(path, format!("{path}: {e}.")))
}

/// A foreign BBAN (cross-border to a country without IBAN): Berlin Group's `[a-zA-Z0-9]{1,30}`.
fn foreign_bban(path: &str, text: &str) -> Result<String, Refusal> {
    check_text(path, text, 1, MAX_BBAN_CHARS)?;
    if let Some(bad) = text.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(Refusal::format(
            path,
            format!("{path} contains '{bad}'; a bban holds letters A-Z and digits only."),
        ));
    }
    Ok(text.to_string())
}

/// `debtorAccount` at `prefix`: exactly one of `bban` (an ordinary Norwegian account) and `other`
/// (a card account, `schemeNameProprietary: creditCardAccount`), plus a listed currency.
pub fn debtor_account(object: &Object, prefix: &str) -> Result<DebtorAccount, Refusal> {
    let path = at(prefix, "debtorAccount");
    let account = req_obj(object, prefix, "debtorAccount")?;
    let has_bban = present(account, "bban");
    let has_other = present(account, "other");
    if has_bban == has_other {
        let mut text = format!(
            "{path} must hold exactly one of bban (an ordinary account) and other (a card \
             account), {}.",
            if has_bban {
                "not both"
            } else {
                "but has neither"
            }
        );
        if !has_bban {
            if let Some(Ok(iban)) = get(account, "iban")
                .and_then(|v| v.as_str())
                .map(Iban::parse)
            {
                if iban.country() == "NO" {
                    text.push_str(&format!(
                        " An iban is not accepted here; the bban of {iban} is {}.",
                        iban.bban_part()
                    ));
                }
            }
        }
        return Err(Refusal::format(&path, text));
    }
    // Currency is checked after the one-of rule: a body with neither is the more basic mistake.
    let currency_of = |account: &Object| currency(account, &path, "currency");
    if has_bban {
        let text = req_str(account, &path, "bban")?;
        let bban = norwegian_bban(&at(&path, "bban"), text)?;
        return Ok(DebtorAccount::Bban {
            bban,
            currency: currency_of(account)?,
        });
    }
    let other_path = at(&path, "other");
    let other = req_obj(account, &path, "other")?;
    let id_path = at(&other_path, "identification");
    let identification = req_str(other, &other_path, "identification")?;
    check_text(&id_path, identification, 1, MAX_OTHER_ID_CHARS)?;
    let scheme_path = at(&other_path, "schemeNameProprietary");
    let scheme = req_str(other, &other_path, "schemeNameProprietary")?;
    if scheme != CARD_SCHEME {
        return Err(Refusal::format(
            &scheme_path,
            format!(
                "{scheme_path} is '{scheme}', but the only scheme accepted is '{CARD_SCHEME}' (use \
                 the card account's relatedAccount as identification)."
            ),
        ));
    }
    Ok(DebtorAccount::Card {
        identification: identification.to_string(),
        currency: currency_of(account)?,
    })
}

/// A BIC: 4 letters bank code, 2 letters country, 2 letters or digits location, optional 3 letters
/// or digits branch. Upper case only, as the Berlin Group pattern requires.
pub fn is_bic(text: &str) -> bool {
    let b = text.as_bytes();
    (b.len() == 8 || b.len() == 11)
        && b[..6].iter().all(u8::is_ascii_uppercase)
        && b[6..]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// `creditorAgent` at `prefix`, when present: a BIC string (the Berlin Group shape).
pub fn creditor_agent(object: &Object, prefix: &str) -> Result<Option<String>, Refusal> {
    let path = at(prefix, "creditorAgent");
    let Some(text) = opt_str(object, prefix, "creditorAgent")? else {
        return Ok(None);
    };
    if !is_bic(text) {
        return Err(Refusal::format(
            &path,
            format!(
                "{path} '{text}' is not a BIC: expected 8 or 11 upper-case letters and digits, \
                 e.g. DNBANOKK or DEUTDEFFXXX."
            ),
        ));
    }
    Ok(Some(text.to_string()))
}
