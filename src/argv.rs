//! The one walk over the words of a command line: which word gives which option its value
//! (`--event DIR`, `--event=DIR`) and where the command word stands after the global
//! options. The command line's pre-parser (the language of usage errors, the outcome
//! tokens `-+` and `--` of `result`), the audit log's masking of personal numbers and the
//! store's advice (a logged command sent to the event again) each read a command line so.

/// The global options of qiwang's command line that take a value, as the next word or
/// after `=`: what a walk over a logged command line passes over to find its command word
/// (the command line checks this list against its definition).
pub const GLOBAL_WITH_VALUE: [&str; 4] = ["--event", "--lang", "--format", "--encoding"];

/// One word of a command line, or an option and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Word<'a> {
    /// An option given a value: `--name value` (two words) or `--name=value` (one,
    /// `joined`).
    Valued {
        /// The option, `--event`.
        name: &'a str,
        /// Its value.
        value: &'a str,
        /// Whether it was given as `--name=value`.
        joined: bool,
    },
    /// Any other word: a command word, an argument, an option without a value, `--`.
    Bare(&'a str),
}

/// The words of `argv` (the program's name left out by the caller), each option that
/// `takes_value` (`--event`) read with its value, the next word or the one after `=`.
pub fn words<'a, S: AsRef<str>>(
    argv: &'a [S],
    takes_value: impl Fn(&str) -> bool,
) -> Vec<Word<'a>> {
    let mut out = Vec::with_capacity(argv.len());
    let mut rest = argv.iter().map(AsRef::as_ref);
    while let Some(word) = rest.next() {
        let joined = word
            .split_once('=')
            .filter(|(name, _)| name.starts_with("--") && takes_value(name));
        out.push(match joined {
            Some((name, value)) => Word::Valued {
                name,
                value,
                joined: true,
            },
            None if word.starts_with("--") && takes_value(word) => match rest.next() {
                Some(value) => Word::Valued {
                    name: word,
                    value,
                    joined: false,
                },
                None => Word::Bare(word),
            },
            None => Word::Bare(word),
        });
    }
    out
}

/// Where the command word of `argv` stands: the first word that is neither an option nor
/// the value of an option `takes_value` names (`argv.len()` when there is none).
pub fn command_at<S: AsRef<str>>(argv: &[S], takes_value: impl Fn(&str) -> bool) -> usize {
    let mut at = 0;
    while let Some(word) = argv.get(at).map(AsRef::as_ref) {
        if word.starts_with("--") && !word.contains('=') && takes_value(word) {
            at += 2;
        } else if word.starts_with('-') {
            at += 1;
        } else {
            return at;
        }
    }
    argv.len()
}

/// The value `argv` gives the option `name` (`--lang`), the first time, before a `--`;
/// the options of `takes_value` are read with their values.
pub fn value_of<'a, S: AsRef<str>>(
    argv: &'a [S],
    name: &str,
    takes_value: impl Fn(&str) -> bool,
) -> Option<&'a str> {
    words(argv, takes_value)
        .into_iter()
        .take_while(|w| *w != Word::Bare("--"))
        .find_map(|w| match w {
            Word::Valued { name: n, value, .. } if n == name => Some(value),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn global(name: &str) -> bool {
        GLOBAL_WITH_VALUE.contains(&name)
    }

    #[test]
    fn options_are_read_with_their_values() {
        let argv = [
            "--event",
            "ev 1",
            "--lang=en",
            "--show-private",
            "pair",
            "--group",
            "a",
            "--event",
        ];
        assert_eq!(
            words(&argv, global),
            [
                Word::Valued {
                    name: "--event",
                    value: "ev 1",
                    joined: false
                },
                Word::Valued {
                    name: "--lang",
                    value: "en",
                    joined: true
                },
                Word::Bare("--show-private"),
                Word::Bare("pair"),
                Word::Bare("--group"),
                Word::Bare("a"),
                Word::Bare("--event"),
            ]
        );
        assert_eq!(command_at(&argv, global), 4);
        assert_eq!(command_at(&["--format", "json", "-x"], global), 3);
        assert_eq!(command_at(&["--event=pair", "pair"], global), 1);
        assert_eq!(value_of(&argv, "--event", global), Some("ev 1"));
        assert_eq!(value_of(&argv, "--lang", global), Some("en"));
        assert_eq!(value_of(&argv, "--format", global), None);
        // After `--`, no word is an option; a value is never taken for one.
        assert_eq!(value_of(&["--", "--lang", "en"], "--lang", global), None);
        assert_eq!(
            value_of(&["--event", "--lang", "x"], "--lang", global),
            None
        );
    }
}
