//! `qiwang pair --all`: the next round of every pool that is ready, in one change. The
//! library does it in one call (`commands::pair::pair_all`: which pools are ready, the
//! pairing, the dry run, the change stored and its audit entry, the sheets); here are the
//! printing of the sheets, of the pools left out, of a finished event, and the refusal
//! that ends the command when a pool had no legal pairing.

use super::{fresh_seed, pair_one, relax_for_this_round, request};
use crate::cli::context::Refusal;
use crate::cli::context::{Ctx, Loaded, pair_error, resolve_pool};
use crate::cli::error::CliError;
use qiwang::commands::pair::{AllPaired, PairedPools};
use qiwang::i18n::{Localize, Text};
use qiwang::pairing::Waiting;
use qiwang::report::Format;
use qiwang::rulebook::Lang;

/// `qiwang pair --all`: the next round of every pool that is ready, in one change, and
/// every sheet; the pools left out are named with the reason.
pub fn pair_all(
    ctx: &Ctx,
    seed: Option<u64>,
    dry_run: bool,
    explain: bool,
    allow_small: bool,
    relax: Option<&[String]>,
) -> Result<(), CliError> {
    let Loaded {
        store,
        event,
        mut rules,
    } = ctx.load()?;
    let relax = relax_for_this_round(&mut rules, relax)?;
    let request = request(ctx, &rules, seed, dry_run, explain, allow_small, relax);
    if rules.team_competition.is_some() {
        // A team event's `--all` pairs the pool `pair` alone would.
        let pool = resolve_pool(&rules, &event, None)?;
        return pair_one(
            ctx,
            &Loaded {
                store,
                event,
                rules,
            },
            &pool,
            &request,
        );
    }
    let command = ctx.command_info();
    let lang = ctx.lang(&rules);
    let format = ctx.format()?;
    super::stranded::warn(&event, &rules, lang, None);
    let paired = qiwang::commands::pair::pair_all(
        &store,
        &command,
        &event,
        &rules,
        &request,
        &mut fresh_seed,
    )
    .map_err(pair_error)?;
    let PairedPools {
        sheets,
        waiting,
        refused,
    } = match paired {
        AllPaired::Finished { waiting } => return finished(&waiting, format, lang),
        AllPaired::Paired(done) => done,
    };
    let waiting: Vec<String> = waiting.iter().map(|w| w.localize(lang)).collect();
    if format == Format::Json {
        // One list of sheets whatever their number: empty when every pool was refused,
        // a list of one when one pool was ready.
        out!("{}", qiwang::views::json_list(&sheets));
    } else if !sheets.is_empty() {
        ctx.print_rendered(format, &qiwang::views::render_all(&sheets, format))?;
    }
    if !waiting.is_empty() {
        let head = lang.pick("未编排的组别：", "groups not paired:");
        if format == Format::Table {
            outln!();
            outln!("{head}");
            for w in &waiting {
                outln!("  {w}");
            }
        } else {
            crate::cli::emit_err(head);
            for w in &waiting {
                errln!("  {w}");
            }
        }
    }
    if refused.is_empty() {
        return Ok(());
    }
    // The pools paired are stored and printed; the refused ones end the command with
    // no legal pairing ([`Refusal::Unpairable`]), each with what `pair` alone would have said.
    let join = |lang: Lang| {
        refused
            .iter()
            .map(|r| r.localize(lang))
            .collect::<Vec<_>>()
            .join("\n")
    };
    Err(CliError::from(Refusal::Unpairable(Text::new(
        join(Lang::Zh),
        join(Lang::En),
    ))))
}

/// After the last round there is nothing to pair, and nothing was typed wrong: the
/// command says so, with every pool's reason, and succeeds (README "Exit codes": 3 is for
/// input to fix).
fn finished(waiting: &[Waiting], format: Format, lang: Lang) -> Result<(), CliError> {
    let head = lang.pick(
        "比赛已全部结束：每个组别的全部轮次都已编排并录入成绩，没有下一轮可编排。",
        "the event is finished: every group has played all its rounds with their results; there is no next round to pair.",
    );
    let next = lang.pick(
        "名次与奖项：qiwang standings、qiwang prizes",
        "standings and prizes: qiwang standings, qiwang prizes",
    );
    if format == Format::Table {
        outln!("{head}");
        for w in waiting {
            outln!("  {}", w.localize(lang));
        }
        outln!("{next}");
    } else {
        if format == Format::Json {
            out!("{}", qiwang::views::json_list(&[]));
        }
        crate::cli::emit_err(head);
    }
    Ok(())
}
