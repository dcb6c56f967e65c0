//! The command line as the audit log keeps it (and as the store's advice spells a logged
//! one again): personal numbers masked, the seed kept. Its words are read as
//! [`crate::argv::words`] reads them.

/// `argv` with the values of `--id-number` and `--phone` masked, and any other long run
/// of digits (a number typed into a name or reason) masked as a safety net; the seed of
/// `--seed` is kept, since it is what makes a draw reproducible. A masked line comes back
/// as it is.
pub fn masked_argv(argv: &[String]) -> Vec<String> {
    use super::{mask_free_text, mask_id_number, mask_phone};
    use crate::argv::Word;
    const PERSONAL: [&str; 4] = ["--id-number", "--phone", "--seed", "--birth-date"];
    let mut out = Vec::with_capacity(argv.len());
    for word in crate::argv::words(argv, |name| PERSONAL.contains(&name)) {
        match word {
            Word::Valued {
                name,
                value,
                joined,
            } => {
                let value = match name {
                    "--id-number" => mask_id_number(value),
                    "--phone" => mask_phone(value),
                    "--birth-date" => birth_year_only(value),
                    _ => value.to_string(),
                };
                if joined {
                    out.push(format!("{name}={value}"));
                } else {
                    out.extend([name.to_string(), value]);
                }
            }
            Word::Bare(word) => out.push(mask_free_text(word)),
        }
    }
    out
}

/// A birth date as typed, with everything after the year starred (`2008-05-01` →
/// `2008-**-**`): the masked ID number hides exactly the birth date, so a public log
/// must not hold it.
fn birth_year_only(date: &str) -> String {
    date.chars()
        .enumerate()
        .map(|(i, c)| if i >= 4 && c.is_ascii_digit() { '*' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::masked_argv;

    #[test]
    fn personal_numbers_are_masked_in_the_logged_command_line() {
        let cases: [(&[&str], &[&str]); 7] = [
            (
                &[
                    "player",
                    "add",
                    "--birth-date",
                    "2008-05-01",
                    "--name",
                    "甲",
                ],
                &[
                    "player",
                    "add",
                    "--birth-date",
                    "2008-**-**",
                    "--name",
                    "甲",
                ],
            ),
            (
                &[
                    "player",
                    "edit",
                    "7",
                    "--birth-date=20080501",
                    "--reason",
                    "电话 138-1234-5678",
                ],
                &[
                    "player",
                    "edit",
                    "7",
                    "--birth-date=2008****",
                    "--reason",
                    "电话 138-****-5678",
                ],
            ),
            (
                &[
                    "player",
                    "add",
                    "--id-number",
                    "330723199001011239",
                    "--phone",
                    "13912345678",
                ],
                &[
                    "player",
                    "add",
                    "--id-number",
                    "330723********1239",
                    "--phone",
                    "139****5678",
                ],
            ),
            (
                &[
                    "player",
                    "edit",
                    "7",
                    "--phone=13912345678",
                    "--id-number=33072319900101123X",
                ],
                &[
                    "player",
                    "edit",
                    "7",
                    "--phone=139****5678",
                    "--id-number=330723********123X",
                ],
            ),
            (
                &["penalty", "7", "1", "--reason", "called 13912345678"],
                &["penalty", "7", "1", "--reason", "called 139****5678"],
            ),
            (
                &["pair", "--seed", "201812345678"],
                &["pair", "--seed", "201812345678"],
            ),
            (
                &["result", "1", "r", "2", "="],
                &["result", "1", "r", "2", "="],
            ),
        ];
        for (argv, want) in cases {
            let argv: Vec<String> = argv.iter().map(ToString::to_string).collect();
            assert_eq!(masked_argv(&argv), want.to_vec(), "{argv:?}");
        }
    }
}
