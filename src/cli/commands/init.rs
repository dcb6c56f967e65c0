//! `qiwang init DIR --rules FILE`

use crate::cli::context::{Ctx, store_error};
use crate::cli::error::{CliError, read_input};
use qiwang::i18n::Text;
use qiwang::model::Event;
use qiwang::rulebook::Rulebook;
use qiwang::store::Store;
use std::path::Path;

pub fn run(ctx: &Ctx, dir: &Path, rules_path: &Path) -> Result<(), CliError> {
    let text = read_text(rules_path)?;
    let rules = Rulebook::from_toml(&text, &rules_path.display().to_string()).map_err(|e| {
        CliError::input(Text::of(&e).map(|m, l| {
            format!(
                "{m}\n{}",
                l.pick(
                    "请修改规程，然后重新运行 `qiwang init`",
                    "fix the rulebook, then run `qiwang init` again"
                )
            )
        }))
    })?;
    let event = Event::new(text.clone());
    let store = Store::init(dir, &text, &event, &ctx.command_info()).map_err(store_error)?;
    let lang = ctx.lang(&rules);
    outln!(
        "{} {} ({})",
        lang.pick("已创建赛事", "created event"),
        store.dir().display(),
        rules.event.name
    );
    outln!(
        "{} qiwang --event {} import REGISTRATIONS.csv",
        lang.pick("下一步：", "next:"),
        store.dir().display()
    );
    Ok(())
}

/// Reads a UTF-8 text file, naming it in every error.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = read_input(path, qiwang::input::InputKind::Rulebook)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        CliError::input(Text::new(
            format!(
                "`{}` 不是 UTF-8 文本（第 {at} 字节）：请另存为 UTF-8",
                path.display()
            ),
            format!(
                "`{}` is not UTF-8 text (byte {at}): save it as UTF-8",
                path.display()
            ),
        ))
    })
}
