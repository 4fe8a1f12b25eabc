//! The keyId of a Signature header: `keyId="SN=<serial>,CA=<issuer>"` names the signing certificate by
//! its upper-case hex serial and its issuer in RFC 2253 form. Real TPP clients get both slightly wrong
//! (lower-case hex, the issuer in certificate order, `S` for `ST`, `%20`, dropped attributes): this module
//! reads what they write ([`written`]), decides whether it still names the right certificate
//! ([`serial`], [`issuer`]) and words each deviation as a warning that says what production might refuse.

pub mod issuer;
pub mod serial;
pub mod written;

/// The serial and issuer named by a keyId.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyId<'a> {
    pub serial: &'a str,
    pub issuer: &'a str,
}

/// Splits a keyId into its serial and issuer: `SN=<serial>,CA=<issuer>` (the issuer holds commas itself).
pub fn parse_key_id(key_id: &str) -> Result<KeyId<'_>, String> {
    let text = key_id.trim();
    let format_hint = "keyId must have the form SN=<hex serial>,CA=<issuer DN>";
    let (sn_part, ca_part) = text.split_once(',').ok_or_else(|| {
        format!(
            "{format_hint}; got '{}'",
            text.chars().take(40).collect::<String>()
        )
    })?;
    let serial = sn_part
        .trim()
        .strip_prefix("SN=")
        .or_else(|| sn_part.trim().strip_prefix("sn="))
        .ok_or_else(|| format!("{format_hint}; it does not start with SN="))?;
    let ca_part = ca_part.trim_start();
    let issuer = ca_part
        .strip_prefix("CA=")
        .or_else(|| ca_part.strip_prefix("ca="))
        .ok_or_else(|| {
            format!("{format_hint}; the part after the serial does not start with CA=")
        })?;
    if serial.trim().is_empty() || issuer.trim().is_empty() {
        return Err(format!("{format_hint}; the serial or the issuer is empty"));
    }
    Ok(KeyId {
        serial: serial.trim(),
        issuer: issuer.trim(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_id_splits_serial_from_an_issuer_with_commas() {
        let key_id = parse_key_id("SN=00A1,CA=CN=Test CA,O=Test,C=NO").unwrap();
        assert_eq!(key_id.serial, "00A1");
        assert_eq!(key_id.issuer, "CN=Test CA,O=Test,C=NO");
        assert!(parse_key_id("CA=CN=x,SN=1").is_err());
        assert!(parse_key_id("SN=1").is_err());
    }
}
