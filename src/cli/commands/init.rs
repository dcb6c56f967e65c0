//! `qiwang init DIR --rules FILE`

use crate::cli::context::ExitStatus;
use crate::cli::context::{Ctx, lib_error, read_text};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use qiwang::model::Event;
use qiwang::rulebook::Rulebook;
use qiwang::store::Store;
use std::path::Path;

pub fn run(ctx: &Ctx, dir: &Path, rules_path: &Path) -> Result<(), CliError> {
    let text = read_text(rules_path)?;
    let rules = Rulebook::from_toml(&text, &rules_path.display().to_string()).map_err(|e| {
        CliError::new(
            e.exit_code(),
            Text::of(&e).map(|m, l| {
                format!(
                    "{m}\n{}",
                    l.pick(
                        "请修改规程，然后重新运行 `qiwang init`",
                        "fix the rulebook, then run `qiwang init` again"
                    )
                )
            }),
        )
    })?;
    let event = Event::new(text.clone());
    let store = Store::init(dir, &text, &event, &ctx.command_info()).map_err(lib_error)?;
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
