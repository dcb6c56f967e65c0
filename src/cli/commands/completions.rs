//! `qiwang completions SHELL` / `qiwang man`: generated from the clap definition, in the
//! language of `--help`.

use crate::cli::context::Refusal;
use crate::cli::error::CliError;

/// Prints the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Result<(), CliError> {
    let mut cmd = crate::cli::clap_command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "qiwang", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Ok(())
}

/// Prints the manual page of `qiwang` (roff), with its section titles in the language of
/// `--help`.
pub fn man() -> Result<(), CliError> {
    let cmd = crate::cli::clap_command();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut page)
        .map_err(|e| CliError::from(Refusal::cannot_write_output(&e)))?;
    let page = String::from_utf8_lossy(&page);
    let page = crate::cli::help_lang()
        .pick(&zh_sections(&page), &page)
        .to_string();
    out!("{page}");
    Ok(())
}

/// clap_mangen writes the section titles in English; a Chinese page names them in Chinese.
fn zh_sections(page: &str) -> String {
    const TITLES: [(&str, &str); 6] = [
        (".SH NAME", ".SH 名称"),
        (".SH SYNOPSIS", ".SH 概要"),
        (".SH DESCRIPTION", ".SH 说明"),
        (".SH OPTIONS", ".SH 选项"),
        (".SH SUBCOMMANDS", ".SH 子命令"),
        (".SH VERSION", ".SH 版本"),
    ];
    page.lines()
        .map(|line| {
            TITLES
                .iter()
                .find(|(en, _)| line == *en)
                .map_or(line, |(_, zh)| *zh)
        })
        .map(|line| format!("{line}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::zh_sections;

    #[test]
    fn section_titles_are_translated_and_nothing_else() {
        let page = ".TH qiwang 1\n.SH NAME\nqiwang\n.SH OPTIONS\n.SH NAMES\n";
        assert_eq!(
            zh_sections(page),
            ".TH qiwang 1\n.SH 名称\nqiwang\n.SH 选项\n.SH NAMES\n"
        );
    }
}
