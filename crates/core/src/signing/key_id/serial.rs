//! Whether the SN part of a keyId names the certificate's serial: the same number in upper-case hex
//! without leading zeros, or written otherwise (lower case, leading zeros: tolerated with a warning), or
//! another number (a decimal serial is recognised and said so).

use crate::domain::refusal::truncate_text;

/// How well the SN part of a keyId names the certificate's serial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SerialMatch {
    /// Exactly the upper-case hex without leading zeros.
    Exact,
    /// The same number written differently; the list holds warnings and is empty when the difference
    /// (leading zeros, as the DER itself has them) is not worth one.
    Tolerated(Vec<String>),
    /// Not the certificate's serial; the sentence says what was expected.
    Mismatch(String),
}

/// The serial as keyId wants it: upper-case hex, no leading zeros, "0" for zero.
pub fn serial_hex(bytes: &[u8]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
    let trimmed = hex.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".into()
    } else {
        trimmed.into()
    }
}

/// Compares the SN part of a keyId with the certificate serial (big-endian bytes) as a number.
pub fn compare_serial(key_id_sn: &str, cert_serial: &[u8]) -> SerialMatch {
    let expected = serial_hex(cert_serial);
    if key_id_sn == expected {
        return SerialMatch::Exact;
    }
    let written = key_id_sn.trim();
    let is_hex = !written.is_empty() && written.bytes().all(|b| b.is_ascii_hexdigit());
    if is_hex {
        let digits = written.trim_start_matches('0');
        let digits = if digits.is_empty() { "0" } else { digits };
        if digits.eq_ignore_ascii_case(&expected) {
            let mut warnings = Vec::new();
            if digits != expected {
                warnings.push(format!(
                    "keyId writes the serial in lower-case hex ({written}); the specification asks for upper case ({expected}), and production may refuse it."
                ));
            }
            if written != key_id_sn {
                warnings.push(format!(
                    "keyId has spaces around the serial; production may refuse \"{key_id_sn}\"."
                ));
            }
            return SerialMatch::Tolerated(warnings);
        }
    }
    if written == serial_decimal(cert_serial) {
        return SerialMatch::Mismatch(format!(
            "The SN part of keyId ({written}) looks like the decimal serial; keyId wants upper-case hex {expected}."
        ));
    }
    if !is_hex {
        return SerialMatch::Mismatch(truncate_text(format!(
            "The SN part of keyId (\"{key_id_sn}\") is not hexadecimal; the signing certificate's serial is {expected} (upper-case hex, no separators)."
        )));
    }
    SerialMatch::Mismatch(truncate_text(format!(
        "The SN part of keyId ({written}) is not the serial of the certificate in TPP-Signature-Certificate, which is {expected}."
    )))
}

fn serial_decimal(bytes: &[u8]) -> String {
    let mut number: Vec<u8> = bytes.iter().copied().skip_while(|b| *b == 0).collect();
    let mut digits = Vec::new();
    while !number.is_empty() {
        let mut remainder = 0u32;
        for byte in number.iter_mut() {
            let acc = (remainder << 8) | u32::from(*byte);
            *byte = (acc / 10) as u8;
            remainder = acc % 10;
        }
        digits.push(char::from(b'0' + remainder as u8));
        number = number.into_iter().skip_while(|b| *b == 0).collect();
    }
    if digits.is_empty() {
        return "0".into();
    }
    digits.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_hex_is_upper_case_without_leading_zeros() {
        assert_eq!(serial_hex(&[0x00, 0x0a, 0xbc]), "ABC");
        assert_eq!(serial_hex(&[0x7f, 0x01]), "7F01");
        assert_eq!(serial_hex(&[0, 0]), "0");
        assert_eq!(serial_hex(&[]), "0");
    }

    #[test]
    fn serial_exact_and_tolerated_forms() {
        let serial = [0x00, 0x9a, 0x0b];
        assert_eq!(compare_serial("9A0B", &serial), SerialMatch::Exact);
        assert_eq!(
            compare_serial("009A0B", &serial),
            SerialMatch::Tolerated(vec![])
        );
        let SerialMatch::Tolerated(w) = compare_serial("9a0b", &serial) else {
            panic!()
        };
        assert!(w.len() == 1 && w[0].contains("lower-case"), "{w:?}");
        assert_eq!(
            compare_serial("0A", &[0x0a]),
            SerialMatch::Tolerated(vec![])
        );
        assert_eq!(compare_serial("0", &[0x00]), SerialMatch::Exact);
        assert_eq!(
            compare_serial("00", &[0x00]),
            SerialMatch::Tolerated(vec![])
        );
        let SerialMatch::Tolerated(w) = compare_serial(" 9A0B", &serial) else {
            panic!()
        };
        assert!(w[0].contains("spaces"), "{w:?}");
    }

    #[test]
    fn serial_mismatches_say_what_was_expected() {
        let serial = [0x01, 0x00];
        let SerialMatch::Mismatch(m) = compare_serial("256", &serial) else {
            panic!()
        };
        assert!(
            m.contains("looks like the decimal serial; keyId wants upper-case hex 100"),
            "{m}"
        );
        let SerialMatch::Mismatch(m) = compare_serial("01:00", &serial) else {
            panic!()
        };
        assert!(m.contains("not hexadecimal") && m.contains("100"), "{m}");
        let SerialMatch::Mismatch(m) = compare_serial("", &serial) else {
            panic!()
        };
        assert!(m.contains("not hexadecimal"), "{m}");
        let SerialMatch::Mismatch(m) = compare_serial("101", &serial) else {
            panic!()
        };
        assert!(m.contains("which is 100"), "{m}");
    }

    #[test]
    fn decimal_rendering_of_long_serials() {
        assert_eq!(serial_decimal(&[0x01, 0x00]), "256");
        assert_eq!(serial_decimal(&[0xff; 16]), u128::MAX.to_string());
        assert_eq!(serial_decimal(&[0]), "0");
    }
}
