//! A pasted shell command split into the words the shell would hand to the program: single quotes,
//! `$'…'` (the ANSI-C quoting browsers' "copy as cURL" writes), double quotes, backslash escapes and
//! line continuations. What a paste cannot carry — a shell variable, a command substitution — is refused
//! with its name, since the words it stands for are not in the text.

/// The words of the first command in `text`, and what ended it early (`|`, `;`, `&`, `>` or `<` outside
/// quotes: a pipe, a second command, a redirect), if anything.
pub fn split(text: &str) -> Result<(Vec<String>, Option<char>), String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word can be empty but present ('' is an argument), so "in a word" is kept apart from its text.
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                // A backslash before a line end joins the lines (the usual `\` at the end of each line).
                Some('\n') => {}
                Some('\r') if chars.peek() == Some(&'\n') => {
                    chars.next();
                }
                Some(escaped) => {
                    word.push(escaped);
                    in_word = true;
                }
                None => return Err("the command ends with a lone backslash".to_owned()),
            },
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(inner) => word.push(inner),
                        None => return Err("a single quote (') is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                in_word = true;
                double_quoted(&mut chars, &mut word)?;
            }
            '$' if chars.peek() == Some(&'\'') => {
                chars.next();
                in_word = true;
                ansi_c_quoted(&mut chars, &mut word)?;
            }
            '$' if chars
                .peek()
                .is_some_and(|c| c.is_alphanumeric() || "_{(".contains(*c)) =>
            {
                return Err(expansion(&mut chars))
            }
            '`' => return Err(substitution()),
            '#' if !in_word => {
                // A comment runs to the end of the line.
                for skipped in chars.by_ref() {
                    if skipped == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '|' | ';' | '&' | '>' | '<' => {
                if in_word {
                    words.push(word);
                }
                return Ok((words, Some(c)));
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok((words, None))
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// `"…"`: a backslash escapes only `$`, `` ` ``, `"`, `\` and a line end; `$` and `` ` `` expand.
fn double_quoted(chars: &mut Chars, word: &mut String) -> Result<(), String> {
    loop {
        match chars.next() {
            Some('"') => return Ok(()),
            Some('\\') => match chars.next() {
                Some('\n') => {}
                Some(c @ ('$' | '`' | '"' | '\\')) => word.push(c),
                Some(other) => {
                    word.push('\\');
                    word.push(other);
                }
                None => return Err("a double quote (\") is not closed".to_owned()),
            },
            Some('$')
                if chars
                    .peek()
                    .is_some_and(|c| c.is_alphanumeric() || "_{(".contains(*c)) =>
            {
                return Err(expansion(chars))
            }
            Some('`') => return Err(substitution()),
            Some(c) => word.push(c),
            None => return Err("a double quote (\") is not closed".to_owned()),
        }
    }
}

/// `$'…'`: C escapes (`\n`, `\r`, `\t`, `\\`, `\'`, `\"`, `\xHH`, `\uHHHH`, `\e`, `\0`).
fn ansi_c_quoted(chars: &mut Chars, word: &mut String) -> Result<(), String> {
    loop {
        match chars.next() {
            Some('\'') => return Ok(()),
            Some('\\') => {
                let escaped = chars.next().ok_or("a $'…' quote is not closed")?;
                match escaped {
                    'n' => word.push('\n'),
                    'r' => word.push('\r'),
                    't' => word.push('\t'),
                    'e' | 'E' => word.push('\u{1b}'),
                    '0' => word.push('\0'),
                    'x' => word.push(hex_char(chars, 2)?),
                    'u' => word.push(hex_char(chars, 4)?),
                    'U' => word.push(hex_char(chars, 8)?),
                    other => word.push(other),
                }
            }
            Some(c) => word.push(c),
            None => return Err("a $'…' quote is not closed".to_owned()),
        }
    }
}

/// Up to `most` hex digits as one character.
fn hex_char(chars: &mut Chars, most: usize) -> Result<char, String> {
    let mut digits = String::new();
    while digits.len() < most && chars.peek().is_some_and(char::is_ascii_hexdigit) {
        digits.extend(chars.next());
    }
    u32::from_str_radix(&digits, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| format!("'\\x{digits}' in a $'…' quote is not a character"))
}

/// The refusal of `$NAME`, `${NAME}` or `$(…)`: the paste holds the name, not the value the shell had.
fn expansion(chars: &mut Chars) -> String {
    let mut name = String::from("$");
    while let Some(c) = chars.peek().copied() {
        if c.is_alphanumeric() || "_{}(".contains(c) {
            name.push(c);
            chars.next();
            if c == '}' || c == '(' {
                break;
            }
        } else {
            break;
        }
    }
    if name.ends_with('(') {
        return substitution();
    }
    format!(
        "the command uses the shell variable {name}, whose value is not in the paste: paste the command \
         as the shell ran it (bash -x prints it so), or the raw HTTP request"
    )
}

fn substitution() -> String {
    "the command runs another command for a value ($(…) or `…`), which is not in the paste: paste the \
     command as the shell ran it (bash -x prints it so), or the raw HTTP request"
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split(text).unwrap().0
    }

    #[test]
    fn quotes_escapes_and_continuations_give_the_shells_words() {
        assert_eq!(
            words("curl -H 'A: b c' \\\n  -d \"{\\\"x\\\": 1}\" $'l1\\nl2' ''"),
            ["curl", "-H", "A: b c", "-d", "{\"x\": 1}", "l1\nl2", ""]
        );
        assert_eq!(words("a\\ b \"c\\d\" # comment\ne"), ["a b", "c\\d", "e"]);
        assert_eq!(words("curl \\\r\n x"), ["curl", "x"]);
        assert_eq!(words("x $'\\x41\\u00e6'"), ["x", "Aæ"]);
        assert_eq!(words("price \"$\""), ["price", "$"]);
    }

    #[test]
    fn a_pipe_or_redirect_ends_the_command() {
        assert_eq!(
            split("curl -s http://x | jq .").unwrap(),
            (
                vec!["curl".into(), "-s".into(), "http://x".into()],
                Some('|')
            )
        );
        assert_eq!(split("curl x>out").unwrap().1, Some('>'));
    }

    #[test]
    fn variables_and_substitutions_are_refused_by_name() {
        let refusal = split("curl -H \"PSU-ID: $PSU_ID\" x").unwrap_err();
        assert!(refusal.contains("$PSU_ID"), "{refusal}");
        assert!(split("curl $(cat url)").unwrap_err().contains("$(…)"));
        assert!(split("curl `cat url`").unwrap_err().contains("$(…)"));
        assert!(split("curl 'open").unwrap_err().contains("not closed"));
    }
}
