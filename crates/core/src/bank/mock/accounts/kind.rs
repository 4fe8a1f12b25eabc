//! What kind of account a mock account is, and the product it is labelled with, when the request does not
//! say: the cash account type given, else one its name tells (a "Sparekonto" is a savings account, not a
//! current one), else a current account (CACC). A product is only a kind's own name when the kind is known:
//! an account whose name tells no kind is labelled "Konto", which claims none, rather than "Brukskonto".

use crate::bank::mock::input::{warn, Warnings};

/// The cash account type when no other is known: a current account, as most mock accounts are.
pub const DEFAULT_KIND: &str = "CACC";

/// The product name of a kind: the Norwegian product a customer would see.
pub fn product_of(cash_account_type: &str) -> &'static str {
    match cash_account_type {
        "CACC" => "Brukskonto",
        "SVGS" | "SACC" => "Sparekonto",
        "LOAN" => "Lån",
        "CARD" => "Kredittkort",
        _ => NO_KIND_PRODUCT,
    }
}

/// The product of an account whose kind nothing tells.
const NO_KIND_PRODUCT: &str = "Konto";

/// The kind an account's name tells, by the words Norwegian banks and their customers use.
pub fn kind_named(name: &str) -> Option<&'static str> {
    let name = name.to_lowercase();
    let says = |words: &[&str]| words.iter().any(|w| name.contains(w));
    // The most telling words first: "Sparebanken Brukskonto" is a current account at a savings bank.
    if says(&["bruks", "lønn", "current", "checking", "daglig"]) {
        Some("CACC")
    } else if says(&["kredittkort", "credit card", "kortkonto"]) {
        Some("CARD")
    } else if says(&["spar", "saving", "bsu"]) {
        Some("SVGS")
    } else if says(&["lån", "laan", "loan"]) {
        Some("LOAN")
    } else {
        None
    }
}

/// The cash account type and product of a new account: each as given, else as the other or the name
/// tells (with a WARNING when the name decided a kind other than the default, so that nothing is guessed
/// silently).
pub fn kind_and_product(
    given_kind: Option<String>,
    given_product: Option<String>,
    name: Option<&str>,
    warnings: &mut Warnings,
) -> (String, String) {
    let named = match (&given_kind, name) {
        (None, Some(name)) => kind_named(name),
        _ => None,
    };
    // Said only when the name chose another kind than the default: a "Brukskonto" is CACC either way.
    if let (Some(kind), Some(name)) = (named.filter(|k| *k != DEFAULT_KIND), name) {
        warn(
            warnings,
            "cashAccountType",
            format!("cashAccountType was not given; {kind} was taken from the account name '{name}'. Send cashAccountType to choose another."),
        );
    }
    let known_kind = given_kind.clone().or(named.map(str::to_owned));
    let kind = known_kind
        .clone()
        .unwrap_or_else(|| DEFAULT_KIND.to_owned());
    let product = given_product.unwrap_or_else(|| match (&known_kind, name) {
        (Some(kind), _) => product_of(kind).to_owned(),
        // Neither a kind nor a name: the default current account, named as such.
        (None, None) => product_of(DEFAULT_KIND).to_owned(),
        // A name that tells no kind: no product is claimed for it.
        (None, Some(_)) => NO_KIND_PRODUCT.to_owned(),
    });
    (kind, product)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(
        kind: Option<&str>,
        product: Option<&str>,
        name: Option<&str>,
    ) -> (String, String, usize) {
        let mut warnings = Warnings::new();
        let (kind, product) = kind_and_product(
            kind.map(str::to_owned),
            product.map(str::to_owned),
            name,
            &mut warnings,
        );
        (kind, product, warnings.len())
    }

    #[test]
    fn a_savings_account_is_not_labelled_a_current_one() {
        assert_eq!(
            decide(None, None, Some("Sparekonto")),
            ("SVGS".into(), "Sparekonto".into(), 1)
        );
        assert_eq!(
            decide(Some("SVGS"), None, Some("Feriepenger")),
            ("SVGS".into(), "Sparekonto".into(), 0)
        );
        assert_eq!(
            decide(None, None, Some("Boliglån")),
            ("LOAN".into(), "Lån".into(), 1)
        );
        assert_eq!(
            decide(None, None, Some("Kredittkort")),
            ("CARD".into(), "Kredittkort".into(), 1)
        );
        // The default kind, as the name says: nothing to warn about.
        assert_eq!(
            decide(None, None, Some("Sparebanken Brukskonto")),
            ("CACC".into(), "Brukskonto".into(), 0)
        );
    }

    #[test]
    fn what_is_given_is_kept_and_a_name_that_tells_nothing_claims_no_product() {
        assert_eq!(
            decide(None, None, None),
            ("CACC".into(), "Brukskonto".into(), 0)
        );
        assert_eq!(
            decide(None, None, Some("Feriekonto")),
            ("CACC".into(), "Konto".into(), 0)
        );
        assert_eq!(
            decide(Some("CACC"), Some("Gullkonto"), Some("Sparekonto")),
            ("CACC".into(), "Gullkonto".into(), 0)
        );
        assert_eq!(
            decide(Some("TRAN"), None, None),
            ("TRAN".into(), "Konto".into(), 0)
        );
    }
}
