//! `qiwang init DIR --rules FILE`

use crate::cli::context::{Ctx, lib_error, read_text};
use crate::cli::error::CliError;
use qiwang::i18n::bi;
use qiwang::model::Event;
use qiwang::rulebook::Rulebook;
use qiwang::store::Store;
use std::path::Path;

pub fn run(ctx: &Ctx, dir: &Path, rules_path: &Path) -> Result<(), CliError> {
    let text = read_text(rules_path)?;
    let rules = Rulebook::from_toml(&text, &rules_path.display().to_string()).map_err(|e| {
        lib_error(e).map_message(|m, l| {
            format!(
                "{m}\n{}",
                l.pick(
                    "请修改规程，然后重新运行 `qiwang init`",
                    "fix the rulebook, then run `qiwang init` again"
                )
            )
        })
    })?;
    let event = Event::new(text.clone());
    let store = Store::init(dir, &text, &event, &ctx.command_info()).map_err(lib_error)?;
    let lang = ctx.lang(&rules);
    let dir = store.dir().display();
    // The commands to run next, runnable as printed (a directory `赛 2026` or `-x`).
    let arg = qiwang::sanitize::shell_path(store.dir());
    let name = &rules.event.name;
    // What an organiser has is an Excel sheet: the template is one, and import reads it.
    let sheet = lang.pick("报名表.xlsx", "registrations.xlsx");
    outln!(
        "{}",
        bi!(
            lang,
            zh("已创建赛事 {dir}（{name}）"),
            en("created event {dir} ({name})")
        )
    );
    outln!(
        "{}",
        bi!(
            lang,
            zh("下一步：qiwang --event {arg} template --out {sheet}（按本赛事的规程生成报名表）"),
            en(
                "next: qiwang --event {arg} template --out {sheet} (the registration sheet for this rulebook)"
            )
        )
    );
    outln!(
        "{}",
        bi!(
            lang,
            zh("填好后：qiwang --event {arg} import {sheet}（也可导入 .xls、.ods 或 CSV）"),
            en("once filled in: qiwang --event {arg} import {sheet} (.xls, .ods or CSV too)")
        )
    );
    Ok(())
}
