//! `qiwang export --format html|csv|json|trf --out DIR [--group G]`

use crate::cli::context::{Ctx, FormatArg, Loaded, pools_with_rounds, resolve_pool};
use crate::cli::error::CliError;
use qiwang::i18n::Text;
use std::path::Path;

fn cannot_create(dir: &Path, e: &std::io::Error) -> CliError {
    CliError::io(Text::new(
        format!("无法创建 `{}`：{e}", dir.display()),
        format!("cannot create `{}`: {e}", dir.display()),
    ))
}

pub fn run(ctx: &Ctx, out: &Path, group: Option<&str>) -> Result<(), CliError> {
    let Loaded { event, rules, .. } = ctx.load()?;
    let lang = ctx.lang(&rules);
    let pools = match group {
        Some(_) => vec![resolve_pool(&rules, &event, group)?],
        None => pools_with_rounds(&rules, &event),
    };
    let only = group.map(|_| &pools[0]);
    let files: Vec<(String, String)> = match ctx.format_arg {
        FormatArg::Html | FormatArg::Table => qiwang::views::site(&event, &rules, only, lang),
        FormatArg::Json => {
            let value = qiwang::views::event_json(&event, &rules, only, ctx.show_private);
            let text = serde_json::to_string_pretty(&value)
                .map_err(|e| CliError::new(crate::cli::error::ExitCode::Internal, e.to_string()))?;
            vec![("event.json".to_string(), text + "\n")]
        }
        FormatArg::Trf => {
            if pools.is_empty() {
                return Err(CliError::input(Text::new(
                    "还没有任何组别编排过：没有可写成 TRF 的内容",
                    "no group has been paired yet: nothing to write as TRF",
                )));
            }
            let mut files = Vec::new();
            for pool in &pools {
                let standings = qiwang::standings::compute_standings(&event, &rules, pool, None);
                let text =
                    qiwang::report::trf::trf(&event, &rules, pool, &standings).map_err(|e| {
                        CliError::input(Text::of(&e).map(|m, l| {
                            format!(
                                "{} `{pool}`{}{m}",
                                l.pick("组别", "group"),
                                l.pick("：", ": ")
                            )
                        }))
                    })?;
                files.push((format!("{pool}.trf"), text));
            }
            files
        }
        FormatArg::Csv => qiwang::views::csv_files(&event, &rules, only, lang),
    };
    std::fs::create_dir_all(out).map_err(|e| cannot_create(out, &e))?;
    for (name, text) in &files {
        let path = out.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| cannot_create(parent, &e))?;
        }
        std::fs::write(&path, text).map_err(|e| {
            CliError::io(Text::new(
                format!("无法写入 `{}`：{e}", path.display()),
                format!("cannot write `{}`: {e}", path.display()),
            ))
        })?;
    }
    outln!(
        "{} {} {} → {}",
        lang.pick("已导出", "wrote"),
        files.len(),
        lang.pick("个文件", "file(s)"),
        out.display()
    );
    Ok(())
}
