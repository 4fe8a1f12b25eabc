//! The composer's placeholders: `{{persona.id}}`, `{{persona.psuId}}`, `{{persona.psuCorporateId}}`,
//! `{{persona.tppSessionId}}`, `{{callbackUrl}}` and `{{uuid}}`, filled from the persona when a draft is
//! previewed, sent or exported. A placeholder the persona has no value for yet is reported as missing
//! (with what gives it one); any other `{{…}}` is a mistake, never sent as it is written.

use crate::own_state::personas::StoredPersona;

/// A text with its placeholders filled, or the first one the persona has no value for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filled {
    Text(String),
    Missing(&'static str),
}

/// A `{{…}}` that is not one of the placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown(pub String);

/// The placeholders, in the order they are filled.
pub const PLACEHOLDERS: [&str; 6] = [
    "{{persona.id}}",
    "{{persona.psuId}}",
    "{{persona.psuCorporateId}}",
    "{{persona.tppSessionId}}",
    "{{callbackUrl}}",
    "{{uuid}}",
];

/// What `placeholder` stands for, in words (for texts that must not repeat the placeholder itself).
pub fn label(placeholder: &str) -> &'static str {
    match placeholder {
        "{{persona.psuId}}" => "PSU-ID",
        "{{persona.psuCorporateId}}" => "PSU-Corporate-ID",
        "{{persona.tppSessionId}}" => "TPP session id",
        "{{persona.id}}" => "id",
        "{{callbackUrl}}" => "callback URL",
        _ => "value",
    }
}

/// What gives a persona the value of `placeholder`.
pub fn how_to_get(placeholder: &str) -> &'static str {
    match placeholder {
        "{{persona.psuId}}" => {
            "the persona gets a PSU-ID when an SCA it started ends at the workbench's callback (GET /v1/users, a consent or a payment), or set one on the persona"
        }
        "{{persona.psuCorporateId}}" => {
            "the persona gets a PSU-Corporate-ID when an SCA in corporate context ends at the workbench's callback, or set one on the persona"
        }
        "{{persona.tppSessionId}}" => "set a TPP session id on the persona",
        _ => "",
    }
}

/// Fills every placeholder of `text` from `persona`.
pub fn fill(text: &str, persona: &StoredPersona, callback_url: &str) -> Result<Filled, Unknown> {
    if !text.contains("{{") {
        return Ok(Filled::Text(text.to_owned()));
    }
    let mut out = text.to_owned();
    for placeholder in PLACEHOLDERS {
        if !out.contains(placeholder) {
            continue;
        }
        let value = match placeholder {
            "{{persona.id}}" => Some(persona.id.clone()),
            "{{persona.psuId}}" => persona.psu_id.clone(),
            "{{persona.psuCorporateId}}" => persona.psu_corporate_id.clone(),
            "{{persona.tppSessionId}}" => persona.tpp_session_id.clone(),
            "{{callbackUrl}}" => Some(callback_url.to_owned()),
            _ => Some(uuid::Uuid::new_v4().to_string()),
        };
        match value {
            Some(value) => out = out.replace(placeholder, &value),
            None => return Ok(Filled::Missing(placeholder)),
        }
    }
    if let Some(start) = out.find("{{") {
        let rest = &out[start..];
        let end = rest.find("}}").map_or(rest.len(), |e| e + 2);
        return Err(Unknown(rest[..end].to_owned()));
    }
    Ok(Filled::Text(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::own_state::personas::Source;

    fn persona() -> StoredPersona {
        StoredPersona {
            id: "p1".into(),
            name: "P".into(),
            source: Source::Issued,
            certificate_pem: String::new(),
            private_key_pem: String::new(),
            psu_id: Some("psu-1".into()),
            psu_corporate_id: None,
            tpp_session_id: Some("s-1".into()),
        }
    }

    fn text(t: &str) -> Result<Filled, Unknown> {
        Ok(Filled::Text(t.to_owned()))
    }

    #[test]
    fn placeholders_are_filled_missing_ones_named_and_unknown_ones_refused() {
        let p = persona();
        assert_eq!(fill("{{persona.psuId}}", &p, "http://x/cb"), text("psu-1"));
        assert_eq!(
            fill("{{callbackUrl}}?persona={{persona.id}}", &p, "http://x/cb"),
            text("http://x/cb?persona=p1")
        );
        assert_eq!(
            fill("{{persona.psuCorporateId}}", &p, "http://x/cb"),
            Ok(Filled::Missing("{{persona.psuCorporateId}}"))
        );
        assert_eq!(fill("plain", &p, ""), text("plain"));
        assert_eq!(
            fill("{{persona.psuid}}", &p, ""),
            Err(Unknown("{{persona.psuid}}".into()))
        );
        assert_eq!(fill("a {{oops", &p, ""), Err(Unknown("{{oops".into())));
        let Ok(Filled::Text(uuid)) = fill("{{uuid}}", &p, "") else {
            panic!("a uuid")
        };
        assert!(uuid::Uuid::parse_str(&uuid).is_ok());
    }
}
