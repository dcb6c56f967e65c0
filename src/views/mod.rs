//! Views: domain results turned into [`Report`](crate::report::Report)s, in the event's
//! language, with personal data masked unless asked for.
//!
//! Shared by the command line, the static-site export and the demo, so every place shows
//! the same sheet. Views only format; every value is computed by the library beforehand.

mod bracket;
mod certificate;
pub mod group_sizes;
mod labels;
mod pairing;
mod players;
mod prizes;
mod programme;
pub mod public;
mod recorded;
mod round;
mod site;
mod sorted;
mod square;
mod stage;
mod standings;
mod team;

pub use bracket::bracket_svg;
pub use certificate::{
    CertificateTemplate, Certificates, TemplateError, certificates, default_template_text,
};
pub use labels::{gender_label, outcome_label, tiebreak_label};
pub use pairing::pairing_sheet;
pub use players::players;
pub use prizes::{
    all_standings, compute_sheet, prize_sheet, prize_sheet_private, prize_sheet_report, sheet_from,
    team_rankings, teams_report,
};
pub use programme::programme;
pub use recorded::{CONFIRM_ALL_UP_TO, Confirmation, confirmation_lines};
pub use round::{
    RoundSheets, SheetError, SheetKind, SheetPage, json_list, pinyin_key, render_all, round_sheets,
};
pub use site::{csv_files, event_json, site, site_each, workbook_reports, write_event_json};
pub use standings::{
    crosstable, every_pool_standings, list_standings, section_standings, standings,
};

use crate::i18n::bi;
use crate::model::{Event, GroupId, Player, PlayerId};
use crate::privacy;
use crate::rulebook::{Lang, Rulebook};
use std::borrow::Cow;

/// A player's name, or the id if the player is unknown (never panics on a bad state).
pub(crate) fn name_of(event: &Event, id: PlayerId) -> String {
    event
        .player(id)
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("#{id}"))
}

/// Masks each player's name and unit that holds a personal number
/// ([`privacy::personal_number_in`]: an ID or phone number, which the import and `player
/// add/edit` refuse in a name and mask in a unit, kept by an older qiwang or a hand edit
/// of the state), as every output prints them unless `--show-private` asks for what is
/// stored. Whatever the views compute from names and units (teams, the unit column, the
/// order by name) is computed from the masked ones, but for the teams: a team ranking
/// groups and draws by the stored unit ([`Event::team_unit`]), so two units masked alike
/// stay two teams and rank as they do unmasked. Returns whether any was masked.
pub fn mask_names_and_units(event: &mut Event) -> bool {
    let mut masked = false;
    for p in &mut event.players {
        if let Some(shown) = privacy::personal_number_in(&p.name) {
            p.name = shown;
            masked = true;
        }
        if let Some(shown) = privacy::personal_number_in(&p.unit) {
            let stored = std::mem::replace(&mut p.unit, shown);
            event.stored_units.entry(p.id).or_insert(stored);
            masked = true;
        }
    }
    masked
}

/// `event` as the outputs print it ([`mask_names_and_units`]): a copy only when some name
/// or unit holds a personal number, else `event` itself.
pub fn names_and_units_masked(event: &Event) -> Cow<'_, Event> {
    let holds = |p: &Player| {
        privacy::personal_number_in(&p.name).is_some()
            || privacy::personal_number_in(&p.unit).is_some()
    };
    if !event.players.iter().any(holds) {
        return Cow::Borrowed(event);
    }
    let mut copy = event.clone();
    mask_names_and_units(&mut copy);
    Cow::Owned(copy)
}

pub(crate) fn number_of(p: &Player) -> String {
    p.number.map(|n| n.to_string()).unwrap_or_default()
}

/// A group's name from the rulebook, or its id if the rulebook does not know it
/// ([`Rulebook::group_name`], which the views call; this stays for the arbiter's pages).
pub(crate) fn group_name(rules: &Rulebook, id: &GroupId) -> String {
    rules.group_name(id)
}

/// `entry` (one table or player row of a sheet's JSON) with `"hall"` when `pool` has a hall
/// of its own; one hall's sheets read as before (docs/rules.md §12).
pub(crate) fn with_hall(
    mut entry: serde_json::Value,
    rules: &Rulebook,
    pool: &GroupId,
) -> serde_json::Value {
    if let Some(hall) = rules.hall_of(pool) {
        entry["hall"] = hall.into();
    }
    entry
}

/// A table number as a player reads it on every sheet and page that names a table: `二楼
/// 5` for a pool in another hall (numbered from 1 there, so the number alone would send
/// the player to table 5 of the main hall), `5` otherwise (docs/rules.md §12).
pub(crate) fn table_label(rules: &Rulebook, pool: &GroupId, table: u32) -> String {
    match rules.hall_of(pool) {
        Some(hall) => format!("{hall} {table}"),
        None => table.to_string(),
    }
}

/// The hall a pool's tables stand in, followed by a space, when the rulebook gives the
/// pool its own (`hall = "二楼"`, docs/rules.md §12 (table numbers)): `二楼 第 5 台`; empty
/// otherwise. For the lines that say `第 5 台` in words, where [`table_label`] gives the
/// bare label.
pub(crate) fn hall_prefix(rules: &Rulebook, pool: &GroupId) -> String {
    rules
        .hall_of(pool)
        .map(|h| format!("{h} "))
        .unwrap_or_default()
}

/// The date and time of a round, when the rulebook gives it (`event.round_times`).
pub(crate) fn round_time(rules: &Rulebook, round: u32) -> Option<String> {
    let i = usize::try_from(round).ok()?.checked_sub(1)?;
    rules
        .event
        .round_times
        .get(i)
        .filter(|t| !t.is_empty())
        .cloned()
}

/// The signature line printed under sheets, when the rulebook names who signs
/// (`event.signature`, e.g. 裁判长).
pub(crate) fn signature_line(rules: &Rulebook, lang: Lang) -> Option<String> {
    rules.event.signature.as_ref().map(|who| {
        bi!(
            lang,
            zh("{who}（签字）：________________"),
            en("{who} (signature): ________________")
        )
    })
}

/// Column headings in the output language, from (Chinese, English) pairs.
pub(crate) fn headings(lang: Lang, pairs: &[(&str, &str)]) -> Vec<String> {
    pairs
        .iter()
        .map(|&(zh, en)| lang.pick(zh, en).to_string())
        .collect()
}
pub use team::{
    board_results, team_crosstable, team_explanation, team_pairing_sheet, team_prize_sheet,
    team_slips, team_standings_report, team_tiebreak_label,
};
