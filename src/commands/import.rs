//! `import` as one library call ([`import_files`]): the registration files read as one
//! batch, every row placed in the pool its group pairs in now (a group merged away sends
//! its rows to the pool it joined), the entries into pools already paired admitted under
//! the entry rules, then the players stored with the audit entry — or, on a dry run, only
//! checked. Both run the same sequence; the binary reads the files, calls, and prints
//! what comes back ([`ImportDone`]) or why nothing was imported ([`ImportFailed`]).

use crate::i18n::Localize;
use crate::model::Event;
use crate::registration::{
    BatchOptions, EntryError, EntryPools, ImportErrors, Imported, Placed, RegistrationFile,
    admit_batch, group_size, place_entries, read_batch,
};
use crate::rulebook::{Lang, Rulebook};
use crate::store::action::Action;
use crate::store::{CommandInfo, Store, StoreError, TxError};

/// What `import` was asked, as the command line gave it (parsed); the files already read.
#[derive(Debug, Clone)]
pub struct ImportRequest<'a> {
    /// The files of the batch, in the order given.
    pub files: &'a [RegistrationFile<'a>],
    /// How to read them (`--encoding`, `--sheet`, `--strict`); the pools merged away are
    /// filled in from the event.
    pub options: BatchOptions,
    /// `--dry-run`: check everything, store nothing.
    pub dry_run: bool,
    /// `--late`: accept entries after the rulebook's `registration_deadline` (logged).
    pub late: bool,
    /// The day of the import, against the registration deadline.
    pub today: chrono::NaiveDate,
}

/// One pool after the import, for the summary, counted as `group sizes` counts it: the
/// players who take part (one who played and withdrew later among them), with those
/// withdrawn before round 1 (a cancelled pool's all) said apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolCount {
    /// The pool, as the rulebook names it.
    pub name: String,
    /// Its players who take part ([`crate::registration::group_sizes`]).
    pub players: usize,
    /// Its players withdrawn before round 1, who are not counted.
    pub withdrawn: usize,
    /// The pool was cancelled (its players withdrawn).
    pub cancelled: bool,
}

/// What a clean import did.
#[derive(Debug, Clone)]
pub struct ImportDone {
    /// The players read (numbered, placed and admitted), the files and sheets read, and
    /// the warnings that did not stop the import.
    pub imported: Imported,
    /// The rows whose group was merged away, each with the pool it joined.
    pub placed: Vec<Placed>,
    /// Each pool with players after the import, in rulebook order; `None` on a dry run,
    /// which stores nothing.
    pub pools: Option<Vec<PoolCount>>,
}

/// Why nothing was imported; the event is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailed {
    /// A problem in the files, at its row or cell.
    #[error(transparent)]
    Read(#[from] ImportErrors),
    /// An entry into a pool already paired that the entry rules refuse (or a late one
    /// without `--late`).
    #[error(transparent)]
    Entry(#[from] EntryError),
    /// Reading, locking or writing the event failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Localize for ImportFailed {
    fn localize(&self, lang: Lang) -> String {
        match self {
            ImportFailed::Read(e) => e.localize(lang),
            ImportFailed::Entry(e) => e.localize(lang),
            ImportFailed::Store(e) => e.localize(lang),
        }
    }
}

/// A failed transaction of `import`: the store's failure, or the refusal made inside it.
impl From<TxError<ImportFailed>> for ImportFailed {
    fn from(e: TxError<ImportFailed>) -> Self {
        match e {
            TxError::Store(e) => ImportFailed::Store(e),
            TxError::Command(e) => e,
        }
    }
}

/// `qiwang import`: the batch `request` names, into the event in `store` (read as
/// `event`, which a dry run checks against). All or nothing: read, placed and admitted
/// on the state the transaction reads, then stored with the audit entry; a dry run does
/// the same on `event` and stores nothing.
pub fn import_files(
    store: &Store,
    command: &CommandInfo,
    event: &Event,
    rules: &Rulebook,
    request: &ImportRequest<'_>,
) -> Result<ImportDone, ImportFailed> {
    if request.dry_run {
        let (imported, placed, _late) = admitted(event, rules, request)?;
        return Ok(ImportDone {
            imported,
            placed,
            pools: None,
        });
    }
    let sources: Vec<String> = request.files.iter().map(|f| f.source.clone()).collect();
    // The counts are taken from the state the transaction writes, without reading it back.
    let done = store.transaction(command, |event| {
        let (imported, placed, late) = admitted(event, rules, request)?;
        let n = imported.players.len();
        let ids: Vec<u32> = imported.players.iter().map(|p| p.id.0).collect();
        event.players.extend(imported.players.iter().cloned());
        let pools = pool_counts(event, rules);
        let joined = sources.join(", ");
        let mut details =
            serde_json::json!({ "file": joined, "files": sources, "player_ids": ids });
        if late {
            details["late"] = serde_json::Value::Bool(true);
        }
        let done = ImportDone {
            imported,
            placed,
            pools: Some(pools),
        };
        Ok::<_, ImportFailed>(
            Action::Imported {
                players: n,
                files: sources.clone(),
            }
            .change(done, details),
        )
    })?;
    Ok(done)
}

/// The batch read against `event`, placed and admitted: the players (not yet stored),
/// the rows placed in the pool their group was merged into, and whether an entry was late.
fn admitted(
    event: &Event,
    rules: &Rulebook,
    request: &ImportRequest<'_>,
) -> Result<(Imported, Vec<Placed>, bool), ImportFailed> {
    // Rows entering pools already paired are entries as `player add` makes them, under
    // the same rules; the deadline is a day, which the caller's `today` decides.
    let mut imported = read_batch(
        request.files,
        &request.options,
        rules,
        &event.players,
        &EntryPools::of(event, rules),
        event.next_player_id(),
    )?;
    // Rows for a group merged away join the pool it went to. A cancelled group's were
    // refused at their lines by `read_batch`, with the rest of the batch, so no entry
    // here is refused (were one, it is refused as `player add` refuses it).
    let placed = place_entries(event, rules, &mut imported.players).map_err(EntryError::Group)?;
    let late = admit_batch(
        event,
        rules,
        &mut imported.players,
        request.today,
        request.late,
    )?;
    Ok((imported, placed, late))
}

/// Each pool with players on `event`, in rulebook order, with its count ([`PoolCount`]).
fn pool_counts(event: &Event, rules: &Rulebook) -> Vec<PoolCount> {
    crate::lookup::pools_shown(rules, event, crate::lookup::Shown::Players)
        .into_iter()
        .map(|g| {
            let players = group_size(rules, &event.players, &g.id).map_or(0, |s| s.count);
            PoolCount {
                name: g.name.clone(),
                players,
                withdrawn: event.players_in(&g.id).count().saturating_sub(players),
                cancelled: event.group(&g.id).is_some_and(|s| s.cancelled),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, PlayerId};

    fn command(name: &str) -> CommandInfo {
        CommandInfo {
            name: name.into(),
            argv: vec!["qiwang".into(), name.into()],
            user: "li".into(),
            time: "2026-12-05T13:00:00Z".parse().unwrap(),
        }
    }

    /// The dry run and the import are one sequence: the same players read and counted,
    /// the same refusal of a row for a cancelled pool; only the import stores, and
    /// returns the pools' counts.
    #[test]
    fn the_dry_run_checks_what_the_import_stores() {
        let rules = Rulebook::cxa_2011("t", 5);
        let pool = rules.groups[0].clone();
        let mut event = Event::new(String::new());
        event
            .players
            .push(Player::new(PlayerId(1), "甲", pool.id.clone()));
        let dir = tempfile::tempdir().unwrap();
        let store = Store::init(&dir.path().join("ev"), "", &event, &command("init")).unwrap();
        let csv = format!("姓名,组别\n乙,{0}\n丙,{0}\n", pool.name);
        let files = [RegistrationFile {
            source: "late.csv".into(),
            bytes: csv.as_bytes(),
        }];
        let later = format!("姓名,组别\n丁,{0}\n戊,{0}\n", pool.name);
        let later = [RegistrationFile {
            source: "later.csv".into(),
            bytes: later.as_bytes(),
        }];
        let request = |files, dry_run| ImportRequest {
            files,
            options: BatchOptions::default(),
            dry_run,
            late: false,
            today: chrono::NaiveDate::from_ymd_opt(2026, 12, 5).unwrap(),
        };
        let event = store.load().unwrap();
        let dry = import_files(
            &store,
            &command("import"),
            &event,
            &rules,
            &request(&files, true),
        )
        .unwrap();
        assert_eq!(dry.imported.players.len(), 2);
        assert_eq!(dry.pools, None);
        assert_eq!(
            store.load().unwrap().players.len(),
            1,
            "a dry run stores nothing"
        );
        let done = import_files(
            &store,
            &command("import"),
            &event,
            &rules,
            &request(&files, false),
        )
        .unwrap();
        let ids: Vec<u32> = done.imported.players.iter().map(|p| p.id.0).collect();
        assert_eq!(ids, [2, 3]);
        assert_eq!(
            done.pools,
            Some(vec![PoolCount {
                name: pool.name.clone(),
                players: 3,
                withdrawn: 0,
                cancelled: false,
            }])
        );
        assert_eq!(store.load().unwrap().players.len(), 3);
        // Cancelled, the pool takes no row: refused at each row's line, dry run or not,
        // and nothing stored.
        store
            .transaction(&command("group"), |ev| {
                ev.group_mut(&pool.id).cancelled = true;
                Ok::<_, std::convert::Infallible>(crate::store::Change::changed(
                    (),
                    "cancelled",
                    serde_json::Value::Null,
                ))
            })
            .unwrap();
        let event = store.load().unwrap();
        for dry_run in [true, false] {
            let refused = import_files(
                &store,
                &command("import"),
                &event,
                &rules,
                &request(&later, dry_run),
            );
            let Err(ImportFailed::Read(e)) = refused else {
                panic!("{refused:?}")
            };
            let lines: Vec<usize> = e.errors.iter().map(|e| e.line).collect();
            assert_eq!(lines, [2, 3], "{e}");
        }
        assert_eq!(store.load().unwrap().players.len(), 3);
    }
}
