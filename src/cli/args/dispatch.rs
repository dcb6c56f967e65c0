//! Dispatch: the parsed command line to the one function of `commands` that runs it,
//! after the checks every command shares (no workbook written to a terminal).

use super::{Cli, Command, GroupCommand, PairingCommand, PlayerCommand, RulesCommand};
use crate::cli::commands;
use crate::cli::context::{Ctx, FormatArg};
use crate::cli::error::CliError;

pub fn dispatch(cli: Cli) -> Result<(), CliError> {
    let ctx = Ctx::new(&cli);
    // A workbook on a terminal is refused before the command runs (a `pair` must not
    // store a round and then fail to print it); export and template write to files.
    if cli.format == FormatArg::Xlsx
        && !matches!(
            cli.command,
            Command::Export { .. } | Command::Template { out: Some(_), .. }
        )
    {
        crate::cli::context::refuse_xlsx_on_terminal()?;
    }
    // A command that only confirms in plain text refuses another `--format` before the
    // event is read, not ignores it (a script would take the text for JSON).
    if cli.command.confirms_in_plain_text() {
        ctx.plain_text_only(&cli.command.typed_name())?;
    }
    match cli.command {
        Command::Demo(args) => commands::demo::run(&ctx, args),
        Command::Init { dir, rules } => commands::init::run(&ctx, &dir, &rules),
        Command::Rules(RulesCommand::Check { file }) => commands::rules::check(&ctx, &file),
        Command::Rules(RulesCommand::Show { file }) => commands::rules::show(&ctx, file.as_deref()),
        Command::Rules(RulesCommand::Update { file }) => commands::rules::update(&ctx, &file),
        Command::Import {
            files,
            dry_run,
            sheet,
            strict,
            late,
        } => commands::import::run(
            &ctx,
            &commands::import::ImportArgs {
                files,
                dry_run,
                encoding: ctx.encoding.clone(),
                sheet,
                strict,
                late,
            },
        ),
        Command::Template { rules, out, force } => {
            commands::template::run(&ctx, rules.as_deref(), out.as_deref(), force)
        }
        Command::Players { group } => commands::players::list(&ctx, group.as_deref()),
        Command::Player(PlayerCommand::Add {
            fields,
            late,
            board,
        }) => commands::players::add(&ctx, fields, late, board),
        Command::Player(PlayerCommand::Edit { player, fields }) => {
            commands::players::edit(&ctx, &player, fields)
        }
        Command::Player(PlayerCommand::Withdraw {
            team: Some(team),
            group,
            reason,
            ..
        }) => commands::team::withdraw(&ctx, group.as_deref(), &team, &reason),
        Command::Player(PlayerCommand::Withdraw { player, reason, .. }) => {
            commands::players::withdraw(&ctx, player.as_deref().unwrap_or_default(), &reason)
        }
        Command::Player(PlayerCommand::Reinstate {
            team: Some(team),
            group,
            ..
        }) => commands::team::reinstate(&ctx, group.as_deref(), &team),
        Command::Player(PlayerCommand::Reinstate { player, .. }) => {
            commands::players::reinstate(&ctx, player.as_deref().unwrap_or_default())
        }
        Command::Player(PlayerCommand::Disqualify {
            player,
            reason,
            from_round,
            undo,
        }) => commands::players::disqualify(&ctx, &player, &reason, from_round, undo),
        Command::Pair {
            all: true,
            seed,
            dry_run,
            explain,
            allow_small,
            relax,
            ..
        } => commands::pair::pair_all(&ctx, seed, dry_run, explain, allow_small, relax.as_deref()),
        Command::Pair {
            group,
            all: false,
            seed,
            dry_run,
            explain,
            allow_small,
            relax,
        } => commands::pair::pair(
            &ctx,
            group.as_deref(),
            seed,
            dry_run,
            explain,
            allow_small,
            relax.as_deref(),
        ),
        Command::Round {
            round,
            group,
            sheet,
        } => commands::round::run(&ctx, round, group.as_deref(), &sheet),
        Command::Unpair { group } => commands::pair::unpair(&ctx, group.as_deref()),
        Command::Pairing(PairingCommand::Swap { group, a, b, force }) => {
            commands::pair::swap(&ctx, group.as_deref(), &a, &b, force)
        }
        Command::Pairing(PairingCommand::Set {
            group,
            table,
            red,
            black,
            force,
        }) => commands::pair::set(&ctx, group.as_deref(), table, &red, &black, force),
        Command::Check {
            group,
            optimal: false,
            ..
        } => commands::pair::check(&ctx, group.as_deref()),
        Command::Check {
            group,
            optimal: true,
            round,
        } => commands::pair::check_optimal(&ctx, group.as_deref(), round),
        Command::Result {
            group,
            round,
            from,
            entries,
            names,
        } => commands::result::run(
            &ctx,
            group.as_deref(),
            round,
            from.as_deref(),
            &entries,
            &names,
        ),
        Command::Penalty {
            player,
            points,
            reason,
        } => commands::result::penalty(&ctx, &player, points, &reason),
        Command::Warn { player, reason } => commands::result::warn(&ctx, &player, &reason),
        Command::Playoff {
            group,
            list: Some(list),
            players,
            note,
        } => commands::prizes::list_playoff(&ctx, group.as_deref(), &list, &players, &note),
        Command::Playoff {
            group,
            list: None,
            players,
            note,
        } => commands::prizes::playoff(&ctx, group.as_deref(), &players, &note),
        Command::Standings { group, round, list } => {
            commands::standings::standings(&ctx, group.as_deref(), round, list.as_deref())
        }
        Command::Crosstable { group, round } => {
            commands::standings::crosstable(&ctx, group.as_deref(), round)
        }
        Command::Teams { team } => commands::prizes::teams(&ctx, team.as_deref()),
        Command::Prizes => commands::prizes::prizes(&ctx),
        Command::Lineup {
            group,
            round,
            team,
            players,
        } => commands::team::lineup(&ctx, group.as_deref(), round, &team, &players),
        Command::Boards { group, round } => commands::team::boards(&ctx, group.as_deref(), round),
        Command::Certificates {
            list,
            template,
            print_template,
        } => commands::certificates::certificates(
            &ctx,
            list.as_deref(),
            template.as_deref(),
            print_template,
        ),
        Command::Programme => commands::certificates::programme(&ctx),
        Command::Group(GroupCommand::Sizes) => commands::group::sizes(&ctx),
        Command::Group(GroupCommand::Merge { from, into, force }) => {
            commands::group::merge(&ctx, &from, &into, force)
        }
        Command::Group(GroupCommand::Cancel { group, force }) => {
            commands::group::cancel(&ctx, &group, force)
        }
        Command::Export { out, group, force } => {
            commands::export::run(&ctx, &out, group.as_deref(), force)
        }
        Command::Serve {
            port,
            lan,
            address,
            token,
            revoke,
            tokens_only,
            more,
        } => match revoke {
            Some(id) => commands::serve::revoke(&ctx, &id),
            None => commands::serve::run(&ctx, port, lan, address, &token, tokens_only, &more),
        },
        Command::Log => commands::log::log(&ctx),
        Command::Undo { dry_run } => commands::log::undo(&ctx, dry_run),
        Command::Redo => commands::log::redo(&ctx),
        Command::Unlock => commands::log::unlock(&ctx),
        Command::Completions { shell } => commands::completions::completions(shell),
        Command::Man => commands::completions::man(),
    }
}
