//! The whole state of one event: what `qiwang.json` holds.

use super::{GroupId, Player, PlayerId, Points, Round};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bumped whenever the state file's shape changes; newer files are refused, older ones are
/// migrated as they are read.
///
/// - 1: a withdrawal's cause was free text (`reason`), the forfeit rule's prefixed `[auto]`.
/// - 2: a withdrawal stores a typed `cause` (`manual` with the arbiter's note, or `forfeits`
///   with the rounds); `player.reinstated_from` records a `player reinstate`.
/// - 3: a pool records the hard rules relaxed to pair a round (`groups.*.relaxed`,
///   docs/rules.md §2.5); older files have none, so nothing needs migrating, but an older
///   qiwang must not drop them on its next write (and then call them violations).
/// - 4: `player.absences` records the rounds a withdrawal or disqualification kept a player
///   out of before they were made active again; older files have none (nothing to
///   migrate), and an older qiwang must not drop them (`check` would then miss the player).
/// - 5: a pool records the rules `pair --relax` let the engine relax in a round, in place
///   of the rulebook's list (`groups.*.relax_given`); older files have none (nothing to
///   migrate), and an older qiwang must not drop them (`check --optimal` would then
///   re-solve that round under the rulebook's list).
/// - 6: `rules update` keeps the rulebook it replaces (`earlier_rulebooks`) and each pool
///   the rounds paired under it (`groups.*.paired_under`), so `check` judges every round
///   by the rules in force when it was paired (docs/rules.md §13). An older file is
///   migrated as it is: its replaced rulebooks were not kept, so its rounds are judged by
///   the current one, as that qiwang did; an older qiwang must refuse the file rather
///   than drop the record (its `check` would then judge played rounds by later rules).
pub const SCHEMA_VERSION: u32 = 6;

/// A point deduction the regulations allow (Dongguan 十五.9: disturbing a game costs 2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalty {
    /// The player the points are taken from.
    pub player: PlayerId,
    /// Points deducted (positive).
    pub points: Points,
    /// Why, as the arbiter wrote it: in the log, never in a public output (the standings
    /// say 罚分).
    pub reason: String,
    /// The last round played when the penalty was given (0 = before round 1).
    pub after_round: u32,
    /// The newest round of the player's pool paired when the penalty was given (0: none):
    /// a penalty given while that round was under way came after its pairing, so `check
    /// --optimal` proves the round without it (docs/rules.md §2.6). Older files have none
    /// (0: every penalty counted, as before); an older qiwang drops it and proves the
    /// round with the penalty, as it did.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub paired_round: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A warning without a point loss (警告, `qiwang warn`): on the player's record, nothing
/// deducted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// The player warned.
    pub player: PlayerId,
    /// Why, as the arbiter wrote it.
    pub reason: String,
    /// The last round complete when the warning was given (0 = before round 1).
    pub after_round: u32,
}

/// The outcome of a playoff that settled a tie for first (冠军不并列).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playoff {
    /// The pool whose tie the playoff settled.
    pub group: GroupId,
    /// The tied players in their final playoff order, winner first.
    pub order: Vec<PlayerId>,
    /// The arbiter's note on the playoff (games played, result), if any.
    #[serde(default)]
    pub note: String,
    /// The prize list whose tie the playoff settled (a girls' list's first place, a tie at
    /// the qualification line); `None` for a tie in the pool's own standings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
}

/// The rounds of one pairing pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GroupState {
    /// Every round paired so far, round 1 first.
    pub rounds: Vec<Round>,
    /// Seed of the round-1 draw and every lot of this group, recorded so any pairing can
    /// be reproduced.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Set when the group was merged into another (under-size groups, Dongguan 九).
    #[serde(default)]
    pub merged_into: Option<GroupId>,
    /// Set by `qiwang group cancel` (a pool below its minimum with nowhere to merge into):
    /// its players are withdrawn and it is never paired.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// Hard rules the engine relaxed to pair a round because no pairing met them all
    /// (docs/rules.md §2.5), pair by pair: `check` reports them as accepted, not as
    /// violations. Empty in every round paired under the strict rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relaxed: Vec<Relaxation>,
    /// The rounds paired with `pair --relax`, each with the rules that command gave in
    /// place of the rulebook's `pairing.relax` (docs/rules.md §2.5): `check --optimal`
    /// re-solves such a round under the same rules. Empty when every round was paired
    /// under the rulebook's list.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relax_given: Vec<RelaxGiven>,
    /// The rounds paired under a rulebook `rules update` has since replaced, each with
    /// that rulebook's place in [`Event::earlier_rulebooks`]: `check` judges such a round
    /// by it (docs/rules.md §13). A round not listed was paired under the event's
    /// current rulebook.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paired_under: Vec<PairedUnder>,
    /// The finalists of a knockout final stage in seed order, drawn from the Swiss
    /// ranking when the stage's first round was paired (docs/rules.md §16.6); read only
    /// while some round of the stage is stored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stage_seeds: Vec<PlayerId>,
    /// The results a correction replaced after a later round was paired, oldest first,
    /// each with the newest round paired when it was replaced: `check --optimal` proves a
    /// round against the results as they stood when it was paired (docs/rules.md §2.6).
    /// Empty while no earlier round was corrected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<ReplacedResult>,
}

/// A result of round `round` a correction replaced while round `newest` (a later one) was
/// the pool's newest paired round: rounds `round + 1 ..= newest` were paired with it. A
/// team pool keeps its matches' outcomes as the shadow event's games (docs/rules.md §17.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplacedResult {
    /// The round of the game.
    pub round: u32,
    /// The game's table.
    pub table: u32,
    /// The result before the correction (serialized as the `Some` it used to be).
    pub result: super::GameResult,
    /// The newest round paired when it was corrected.
    pub newest: u32,
}

impl ReplacedResult {
    /// Round `number` of the pool keeping `replaced` dropped (`unpair`): it will be paired
    /// again with the results as they stand, so no replaced result was in force for it;
    /// one no later round kept is forgotten.
    pub fn forget_from(replaced: &mut Vec<ReplacedResult>, number: u32) {
        for r in replaced.iter_mut() {
            r.newest = r.newest.min(number.saturating_sub(1));
        }
        replaced.retain(|r| r.newest > r.round);
    }
}

/// One round paired under an earlier rulebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedUnder {
    /// The round.
    pub round: u32,
    /// The rulebook's index in [`Event::earlier_rulebooks`].
    pub rulebook: u32,
}

/// The rules `pair --relax` let the engine relax in one round, in the order given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelaxGiven {
    /// The round paired.
    pub round: u32,
    /// The rules, in the order they were given (the first is relaxed first).
    pub rules: Vec<Relax>,
}

/// A hard pairing rule `pairing.relax` may relax when no pairing meets them all
/// (docs/rules.md §2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relax {
    /// The colour limits (§3.2 连三 / 多三).
    Colour,
    /// Team avoidance (§4.1 同队回避).
    Team,
    /// No rematch (§2.3).
    Rematch,
}

/// One rule relaxed for one table of one round: `players` are the two players of the
/// table (rematch, team) or the one player whose colour limit is broken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relaxation {
    /// The round the break was made in; `check` accepts it only in that round.
    pub round: u32,
    /// Which hard rule was broken (rematch, team-mates or a colour limit).
    pub rule: Relax,
    /// Who the break concerns: both players of the table for a rematch or team-mate
    /// pairing, the one player over the limit for a colour break. `pair --explain` and the
    /// pairing sheet name them (放宽同队回避：张三—李四).
    pub players: Vec<PlayerId>,
}

impl Relaxation {
    /// Whether this relaxation covers `rule` for exactly these players (in any order).
    pub fn covers(&self, round: u32, rule: Relax, players: &[PlayerId]) -> bool {
        let mut a = self.players.clone();
        let mut b = players.to_vec();
        a.sort();
        b.sort();
        self.round == round && self.rule == rule && a == b
    }
}

impl GroupState {
    /// Drops what was recorded about relaxing round `number`'s rules (the round is dropped
    /// or paired again).
    ///
    /// A round dropped or paired again also forgets the earlier rulebook it was paired
    /// under: when it is paired again, it is paired under the current one.
    pub fn forget_relaxations(&mut self, number: u32) {
        self.relaxed.retain(|r| r.round != number);
        self.relax_given.retain(|r| r.round != number);
        self.paired_under.retain(|r| r.round != number);
    }

    /// Round `number` dropped (`unpair`): it will be paired again with the results as they
    /// stand, so no replaced result was in force for it; one no later round kept is
    /// forgotten.
    pub fn forget_replaced(&mut self, number: u32) {
        ReplacedResult::forget_from(&mut self.replaced, number);
    }

    /// The index in [`Event::earlier_rulebooks`] of the rulebook round `number` was
    /// paired under, `None` for the current one.
    pub fn paired_under(&self, number: u32) -> Option<u32> {
        self.paired_under
            .iter()
            .find(|r| r.round == number)
            .map(|r| r.rulebook)
    }

    /// Records that round `number` was paired with `pair --relax` giving `rules` (nothing
    /// when the rulebook's own list was used).
    pub fn note_relax_given(&mut self, number: u32, rules: Option<&[Relax]>) {
        self.relax_given.retain(|r| r.round != number);
        if let Some(rules) = rules {
            self.relax_given.push(RelaxGiven {
                round: number,
                rules: rules.to_vec(),
            });
        }
    }

    /// The rules `pair --relax` gave for round `number`, if it was paired so.
    pub fn relax_given(&self, number: u32) -> Option<&[Relax]> {
        self.relax_given
            .iter()
            .find(|r| r.round == number)
            .map(|r| &r.rules[..])
    }

    /// The newest round, if any was paired.
    pub fn last_round(&self) -> Option<&Round> {
        self.rounds.last()
    }

    /// Round `number`, if it was paired.
    pub fn round(&self, number: u32) -> Option<&Round> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// How many games of round `number` still have no result (0 for a round not paired):
    /// what status lines say of a round being entered.
    pub fn open_games(&self, number: u32) -> u32 {
        self.round(number).map_or(0, |r| {
            u32::try_from(r.open_tables().count()).unwrap_or(u32::MAX)
        })
    }
}

/// Everything qiwang knows about one event. Standings, tiebreaks and prizes are never
/// stored: they are computed from this.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Always [`SCHEMA_VERSION`] in memory: an older file is migrated while it is read
    /// (the shapes it may hold are read by the types themselves, e.g. `PlayerStatus`).
    #[serde(deserialize_with = "migrated_version")]
    pub schema_version: u32,
    /// The number of the audit line of the change whose state this is (the newest change
    /// in effect; the `init` line's for a new event before any change): the store sets it
    /// as it writes, and refuses to change a state whose number is not the one `audit.log`
    /// says is in effect (an older copy put back). `None` in a file written before qiwang
    /// recorded it, which is not judged. Right after `schema_version`, so the line sits at
    /// a fixed place near the top of the file (`store::stale`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change: Option<u64>,
    /// The rulebook frozen at `init`, as TOML text; re-validated on every load.
    pub rules_toml: String,
    /// Every registered player, in registration order (withdrawn ones included).
    pub players: Vec<Player>,
    /// Keyed by pool id.
    #[serde(default)]
    pub groups: BTreeMap<GroupId, GroupState>,
    /// Point deductions, in the order they were given.
    #[serde(default)]
    pub penalties: Vec<Penalty>,
    /// Warnings without a point loss (警告), in the order they were given. An older
    /// qiwang reads the file and ignores them (nothing it computes depends on them; its
    /// next write drops them, so SCHEMA_VERSION is unchanged).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
    /// Recorded playoffs that settled ties for first or for a list's place.
    #[serde(default)]
    pub playoffs: Vec<Playoff>,
    /// The rulebooks `rules update` replaced while some round was paired under them, as
    /// TOML text, oldest first, each text once: `groups.*.paired_under` points here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_rulebooks: Vec<String>,
    /// A team competition's rounds (docs/rules.md §17), keyed by pool id. Empty in an
    /// individual event; an older qiwang refuses the rulebook that makes them (its
    /// `[team_competition]`), so it never writes the file without them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub team_pools: BTreeMap<GroupId, super::TeamPool>,
    /// The stored unit of each player whose unit an output masks
    /// (`views::mask_names_and_units`); never written. What puts players into a team and
    /// draws a team lot ([`Event::team_unit`]), so that a masked unit ranks exactly as
    /// the stored one: two units masked alike stay two teams.
    #[serde(skip)]
    pub stored_units: BTreeMap<PlayerId, String>,
}

/// Reads `schema_version`, answering the version the event is migrated to. The store
/// refuses newer files before the event is built.
fn migrated_version<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let found = u32::deserialize(d)?;
    if found == 0 {
        // Versions start at 1: the store's slow path words the refusal.
        return Err(serde::de::Error::custom("`schema_version` 0"));
    }
    Ok(found.max(SCHEMA_VERSION))
}

impl Event {
    /// An event with no players and no rounds under the rulebook `rules_toml`.
    pub fn new(rules_toml: String) -> Self {
        Event {
            schema_version: SCHEMA_VERSION,
            change: None,
            rules_toml,
            players: Vec::new(),
            groups: BTreeMap::new(),
            penalties: Vec::new(),
            warnings: Vec::new(),
            playoffs: Vec::new(),
            earlier_rulebooks: Vec::new(),
            team_pools: BTreeMap::new(),
            stored_units: BTreeMap::new(),
        }
    }

    /// The unit `player` is counted in for a team ranking: the stored one, also when an
    /// output masks it ([`Event::stored_units`]).
    pub fn team_unit<'a>(&'a self, player: &'a Player) -> &'a str {
        self.stored_units
            .get(&player.id)
            .map_or(player.unit.as_str(), String::as_str)
    }

    /// The text of the rulebook round `number` of pool `group` was paired under, when
    /// `rules update` has replaced it since (`None`: the current `rules_toml`).
    pub fn earlier_rulebook_of(&self, group: &GroupId, number: u32) -> Option<&str> {
        let index = self.group(group)?.paired_under(number)?;
        self.earlier_rulebooks
            .get(usize::try_from(index).ok()?)
            .map(String::as_str)
    }

    /// Records, before `rules update` replaces the current rulebook, that every round
    /// paired so far was paired under it (a round already recorded under an earlier one
    /// keeps that). The text is kept once, and only when some round needs it.
    pub fn keep_rulebook_of_paired_rounds(&mut self) {
        let unrecorded =
            |g: &GroupState| g.rounds.iter().any(|r| g.paired_under(r.number).is_none());
        if !self.groups.values().any(unrecorded) {
            return;
        }
        let index = match self
            .earlier_rulebooks
            .iter()
            .position(|t| *t == self.rules_toml)
        {
            Some(i) => i,
            None => {
                self.earlier_rulebooks.push(self.rules_toml.clone());
                self.earlier_rulebooks.len() - 1
            }
        };
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        for g in self.groups.values_mut() {
            let new: Vec<PairedUnder> = g
                .rounds
                .iter()
                .filter(|r| g.paired_under(r.number).is_none())
                .map(|r| PairedUnder {
                    round: r.number,
                    rulebook: index,
                })
                .collect();
            g.paired_under.extend(new);
        }
    }

    /// The player registered as `id`.
    ///
    /// A binary search: ids are handed out 1, 2, 3, … in registration order and a deletion
    /// keeps that order, so the list is sorted by id. Only a list edited out of order by
    /// hand falls back to a scan. Commands look players up once per game or row, so a scan
    /// per lookup made them quadratic in the number of players.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.position(id).map(|i| &self.players[i])
    }

    /// [`Event::player`], to change.
    pub fn player_mut(&mut self, id: PlayerId) -> Option<&mut Player> {
        self.position(id).map(|i| &mut self.players[i])
    }

    /// Where player `id` is in [`Event::players`]: one probe while the list is 1, 2, 3, …
    /// (nobody deleted), else a search.
    pub(crate) fn place(&self, id: PlayerId) -> Option<usize> {
        self.position(id)
    }

    fn position(&self, id: PlayerId) -> Option<usize> {
        // Until a player is deleted, the list is 1, 2, 3, …: player `id` is at `id - 1`.
        // One probe there saves the binary search's ~17 scattered reads on 100,000
        // players, which made the lookups most of a pairing sheet or crosstable export.
        let guess = usize::try_from(id.0).ok().and_then(|i| i.checked_sub(1));
        if let Some(i) = guess.filter(|&i| self.players.get(i).is_some_and(|p| p.id == id)) {
            return Some(i);
        }
        // A hit is a hit even on an unsorted list; a miss may be the list's disorder.
        self.players
            .binary_search_by_key(&id, |p| p.id)
            .ok()
            .or_else(|| self.players.iter().position(|p| p.id == id))
    }
    /// A player as sheets and messages show them: name ([`Player::shown_name`]) and
    /// pairing number (`闫文(12)`), the name alone before the draw, the id when there is
    /// no such player.
    pub fn player_label(&self, id: PlayerId) -> String {
        self.player(id).map_or(id.to_string(), |p| match p.number {
            Some(n) => format!("{}({n})", p.shown_name()),
            None => p.shown_name().into_owned(),
        })
    }

    /// A player as a command takes him back: name and `#` pairing number (`丁 #4`, what
    /// `qiwang playoff` accepts), the registration id before numbers are drawn.
    pub fn player_arg(&self, id: PlayerId) -> String {
        match self.player(id) {
            Some(p) => match p.number {
                Some(n) => format!("{} #{n}", p.shown_name()),
                None => format!("{} (id {id})", p.shown_name()),
            },
            None => id.to_string(),
        }
    }

    /// The next unused registration id.
    pub fn next_player_id(&self) -> PlayerId {
        PlayerId(
            self.players
                .iter()
                .map(|p| p.id.0)
                .max()
                .unwrap_or(0)
                .saturating_add(1),
        )
    }

    /// Players of a pool, in registration order.
    pub fn players_in<'a>(&'a self, group: &'a GroupId) -> impl Iterator<Item = &'a Player> + 'a {
        self.players.iter().filter(move |p| &p.group == group)
    }

    /// The rounds of pool `group`, if any was paired.
    pub fn group(&self, group: &GroupId) -> Option<&GroupState> {
        self.groups.get(group)
    }

    /// Whether pool `group` was cancelled (`qiwang group cancel`): it is never paired, its
    /// standings place nobody and its prize lists pay nothing and set no money aside
    /// (docs/rules.md "Group sizes", §7.3).
    pub fn is_cancelled(&self, group: &GroupId) -> bool {
        self.group(group).is_some_and(|g| g.cancelled)
    }

    /// The chain of merges from `group`: `group`, the group it was merged into, and so on
    /// to the end, each once; with the group a hand-edited state comes round to when the
    /// chain closes in a circle (`None` when it ends). The one walk of the chain, for
    /// `lookup::merged_pool` and `registration::pool_now`.
    pub fn merge_chain(&self, group: &GroupId) -> (Vec<GroupId>, Option<GroupId>) {
        let mut chain = vec![group.clone()];
        let mut pool = group.clone();
        while let Some(into) = self.group(&pool).and_then(|g| g.merged_into.clone()) {
            if chain.contains(&into) {
                return (chain, Some(into));
            }
            chain.push(into.clone());
            pool = into;
        }
        (chain, None)
    }

    /// The round after the newest paired round of pool `group` (1 before any).
    pub fn next_round(&self, group: &GroupId) -> u32 {
        self.group(group)
            .and_then(|g| g.rounds.iter().map(|r| r.number).max())
            .unwrap_or(0)
            + 1
    }

    /// The rounds of pool `group`, created empty if none was paired yet.
    pub fn group_mut(&mut self, group: &GroupId) -> &mut GroupState {
        self.groups.entry(group.clone()).or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(ids: &[u32]) -> Event {
        let mut e = Event::new(String::new());
        for &id in ids {
            e.players.push(Player::new(
                PlayerId(id),
                format!("p{id}"),
                GroupId::new("g"),
            ));
        }
        e
    }

    /// A replaced result is written as it was while the field was an `Option` (always
    /// `Some`), so event files written before read the same.
    #[test]
    fn a_replaced_result_is_stored_as_before() {
        let result = crate::model::GameResult::new(crate::model::Outcome::RedWin);
        let r = ReplacedResult {
            round: 1,
            table: 2,
            result,
            newest: 3,
        };
        let json = serde_json::to_value(r).unwrap();
        assert_eq!(json["result"], serde_json::to_value(Some(result)).unwrap());
        assert_eq!(serde_json::from_value::<ReplacedResult>(json).unwrap(), r);
    }

    #[test]
    fn players_are_found_in_any_order_and_misses_are_none() {
        let cases: [&[u32]; 5] = [
            &[1, 2, 3, 4, 5],
            &[1, 2, 4, 5, 9],
            &[5, 3, 1, 4, 2],
            &[7, 2, 9, 1],
            &[],
        ];
        for ids in cases {
            let mut e = event(ids);
            for &id in ids {
                assert_eq!(
                    e.player(PlayerId(id)).map(|p| p.id),
                    Some(PlayerId(id)),
                    "{ids:?}"
                );
                e.player_mut(PlayerId(id)).unwrap().name = format!("q{id}");
                assert_eq!(e.player(PlayerId(id)).unwrap().name, format!("q{id}"));
            }
            for missing in [0, 3, 6, 8, 10, u32::MAX] {
                if !ids.contains(&missing) {
                    assert!(e.player(PlayerId(missing)).is_none(), "{ids:?} {missing}");
                }
            }
        }
    }

    #[test]
    fn the_rules_given_for_a_round_go_with_it() {
        let mut g = GroupState::default();
        g.note_relax_given(2, Some(&[Relax::Rematch, Relax::Team]));
        g.note_relax_given(3, Some(&[Relax::Colour]));
        assert_eq!(g.relax_given(2), Some(&[Relax::Rematch, Relax::Team][..]));
        // Paired again without `--relax`: the round's note goes.
        g.note_relax_given(3, None);
        assert_eq!(g.relax_given(3), None);
        g.relaxed.push(Relaxation {
            round: 2,
            rule: Relax::Rematch,
            players: vec![PlayerId(1), PlayerId(2)],
        });
        g.forget_relaxations(2);
        assert!(g.relaxed.is_empty() && g.relax_given.is_empty());
        // A state without the key reads as none, and none is not written.
        let back: GroupState = serde_json::from_str(r#"{"rounds": []}"#).unwrap();
        assert!(back.relax_given.is_empty());
        assert!(
            !serde_json::to_string(&back)
                .unwrap()
                .contains("relax_given")
        );
    }
}
