//! `qiwang import FILE [--dry-run] [--encoding auto|utf-8|gbk]`

use crate::cli::context::{Ctx, store_error};
use crate::cli::error::{CliError, chain, read_input};
use qiwang::i18n::Text;
use qiwang::registration::{Encoding, ImportOptions, read_registrations};
use qiwang::store::{Change, TxError};
use std::path::Path;

pub fn run(ctx: &Ctx, path: &Path, dry_run: bool, encoding: &str) -> Result<(), CliError> {
    let bytes = read_input(path, qiwang::input::InputKind::Sheet)?;
    let opts = ImportOptions {
        encoding: match encoding {
            "utf-8" | "utf8" => Encoding::Utf8,
            "gbk" => Encoding::Gbk,
            _ => Encoding::Auto,
        },
    };
    let loaded = ctx.load()?;
    let lang = ctx.lang(&loaded.rules);
    let source = path.display().to_string();
    if dry_run {
        let ev = &loaded.event;
        let players = read_registrations(
            &bytes,
            &source,
            &opts,
            &loaded.rules,
            &ev.players,
            ev.next_player_id(),
        )
        .map_err(|e| {
            CliError::input(Text::of(&e).map(|m, l| {
                format!(
                    "{m}\n{}",
                    l.pick("未导入任何棋手。", "nothing was imported.")
                )
            }))
        })?;
        outln!(
            "{}: {} {}",
            lang.pick(
                "检查通过（未导入）",
                "file is clean (dry run, nothing imported)"
            ),
            players.len(),
            lang.pick("名棋手", "players")
        );
        return Ok(());
    }
    let rules = &loaded.rules;
    let count = loaded
        .store
        .transaction(&ctx.command_info(), |event| {
            let players = read_registrations(
                &bytes,
                &source,
                &opts,
                rules,
                &event.players,
                event.next_player_id(),
            )?;
            let n = players.len();
            let ids: Vec<u32> = players.iter().map(|p| p.id.0).collect();
            event.players.extend(players);
            Ok::<_, qiwang::registration::ImportErrors>(Change::changed(
                n,
                format!("imported {n} players from {source}"),
                serde_json::json!({ "file": source, "player_ids": ids }),
            ))
        })
        .map_err(|e| match e {
            TxError::Store(e) => store_error(e),
            TxError::Command(e) => CliError::input(chain(&e).map(|m, l| {
                format!(
                    "{m}\n{}",
                    l.pick(
                        "未导入任何棋手，赛事未改变。",
                        "nothing was imported; the event is unchanged."
                    )
                )
            })),
        })?;
    let after = ctx.load()?;
    outln!(
        "{} {} {}",
        lang.pick("已导入", "imported"),
        count,
        lang.pick("名棋手", "players")
    );
    for g in after.rules.pools() {
        let n = after.event.players_in(&g.id).count();
        if n > 0 {
            outln!("  {}: {n}", g.name);
        }
    }
    Ok(())
}
