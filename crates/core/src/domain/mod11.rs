//! The weighted modulus 11 check digit shared by Norwegian account numbers, organisation numbers and
//! national identity numbers: 11 minus the weighted sum modulo 11, where 11 means 0 and 10 means that no
//! valid number ends this way.

/// The check digit of ASCII `digits` under `weights` (applied from the left); `None` for check value 10.
/// The caller has checked that `digits` are ASCII digits.
pub fn check_digit(digits: &str, weights: &[u32]) -> Option<u32> {
    let values: Vec<u32> = digits.bytes().map(|b| u32::from(b - b'0')).collect();
    check_digit_of_values(&values, weights)
}

/// The same over digit values.
pub fn check_digit_of_values(digits: &[u32], weights: &[u32]) -> Option<u32> {
    let sum: u32 = digits.iter().zip(weights).map(|(d, w)| d * w).sum();
    match 11 - sum % 11 {
        11 => Some(0),
        10 => None,
        check => Some(check),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_check_digits() {
        // 8601111794: 8*5+6*4+0+1*2+1*7+1*6+1*5+7*4+9*3+4*2 = 147; 147 mod 11 = 4; 11 - 4 = 7 (86011117947).
        assert_eq!(
            check_digit("8601111794", &[5, 4, 3, 2, 7, 6, 5, 4, 3, 2]),
            Some(7)
        );
        // A sum divisible by 11 gives 0; a remainder of 1 gives the impossible 10.
        assert_eq!(check_digit_of_values(&[1, 1], &[5, 6]), Some(0));
        assert_eq!(check_digit_of_values(&[1], &[1]), None);
    }
}
