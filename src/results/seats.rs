//! Who a results row says played: the 红方/黑方 names, pairing numbers (序号) and ID-card
//! tails a results file or `result --names` gives, checked against the game at that
//! table, or used to find the table when a row names players but no table.
//!
//! Owns the reading of those cells and the comparison; it never changes the event and
//! never guesses: a row naming anyone other than the table's players, in their own
//! colours, is a [`Mismatch`] that says where the players named really are.
//!
//! Keyed by (pool, round, table), so that tables numbered across a hall or one row per
//! board of a team match only change how a row finds its game, not the comparison.

use super::ResultError;
use super::mismatch::{Hint, Mismatch, Place, Seen, Whereabouts};
use crate::model::{Colour, Event, GroupId, Pairing, Player, PlayerId, Round};
use crate::registration::normalise::{clean, clean_name, key};
use crate::rulebook::Rulebook;
use std::collections::BTreeMap;

/// What a row says about one side of a game. Every part given must fit the player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatClaim {
    /// The name, as a comparison key ([`key`] of [`clean_name`]).
    name: Option<String>,
    /// The whole cell as a name, when it was read as `name(序号)`: a player registered
    /// as `张三(2)` is still found.
    literal: Option<String>,
    /// The pairing number (序号) of the name cell: in brackets, or the cell alone.
    number: Option<u32>,
    /// The pairing number of a 序号 column.
    column_number: Option<u32>,
    /// The end of the ID number (upper case), and what a masked ID shows before its stars.
    id_tail: Option<(String, String)>,
    /// The claim as written, for messages: `闫文(12)`, `#12`, `闫文 …123X`.
    written: String,
}

impl SeatClaim {
    /// A name cell: a name, a name with its pairing number in brackets (`闫文(12)`,
    /// `闫文（12）`), or a pairing number alone (`12`, `#12`). `None` for an empty cell.
    pub fn from_name_cell(cell: &str) -> Option<SeatClaim> {
        let text = clean_name(cell);
        if text.is_empty() {
            return None;
        }
        let mut claim = SeatClaim::default();
        if let Some(n) = pairing_number(&text) {
            claim.number = Some(n);
        } else if let Some((name, n)) = text
            .strip_suffix(')')
            .and_then(|t| t.rsplit_once('('))
            .and_then(|(name, n)| Some((name, pairing_number(n)?)))
            .filter(|(name, _)| !name.trim().is_empty())
        {
            claim.name = Some(key(name));
            claim.number = Some(n);
            claim.literal = Some(key(&text));
        } else {
            claim.name = Some(key(&text));
        }
        claim.written = text;
        Some(claim)
    }

    /// Adds a 序号 cell to the claim (or makes one). Empty cells add nothing.
    pub fn add_number_cell(
        claim: Option<SeatClaim>,
        cell: &str,
    ) -> Result<Option<SeatClaim>, ResultError> {
        let text = clean(cell);
        if text.is_empty() {
            return Ok(claim);
        }
        let Some(n) = pairing_number(&text) else {
            return Err(Mismatch::BadNumber { text }.into());
        };
        let mut claim = claim.unwrap_or_default();
        claim.column_number = Some(n);
        claim.written = if claim.written.is_empty() {
            format!("#{n}")
        } else if claim.number == Some(n) {
            claim.written
        } else if claim.number.is_some() || claim.name.is_none() {
            format!("{} #{n}", claim.written)
        } else {
            format!("{}({n})", claim.written)
        };
        Ok(Some(claim))
    }

    /// Adds an ID-tail cell: the last 4 characters or more of the ID number (`123X`), or
    /// the ID as masked on a sheet (`3307**********123X`). Empty cells add nothing.
    pub fn add_id_cell(
        claim: Option<SeatClaim>,
        cell: &str,
    ) -> Result<Option<SeatClaim>, ResultError> {
        let text = clean(cell).replace(' ', "").to_uppercase();
        if text.is_empty() {
            return Ok(claim);
        }
        let (prefix, tail) = match (text.find('*'), text.rfind('*')) {
            (Some(first), Some(last)) => (&text[..first], &text[last + 1..]),
            _ => ("", text.as_str()),
        };
        let id_char = |c: char| c.is_ascii_digit() || c == 'X';
        if tail.chars().count() < 4 || !tail.chars().all(id_char) || !prefix.chars().all(id_char) {
            return Err(Mismatch::BadIdTail { text }.into());
        }
        let mut claim = claim.unwrap_or_default();
        claim.written = if claim.written.is_empty() {
            format!("…{tail}")
        } else {
            format!("{} …{tail}", claim.written)
        };
        claim.id_tail = Some((tail.to_string(), prefix.to_string()));
        Ok(Some(claim))
    }

    /// Whether `player` is the one this claim describes: every part given fits.
    fn fits(&self, player: &Player) -> bool {
        let player_name = key(&clean_name(&player.name));
        let number_fits = |n: &u32| player.number == Some(*n);
        let by_parts = self.name.as_ref().is_none_or(|n| *n == player_name)
            && self.number.as_ref().is_none_or(number_fits);
        let by_literal = self.literal.as_ref().is_some_and(|n| *n == player_name);
        let column = self.column_number.as_ref().is_none_or(number_fits);
        let id = self.id_tail.as_ref().is_none_or(|(tail, prefix)| {
            player.id_number.as_ref().is_some_and(|id| {
                let id = id.to_uppercase();
                id.ends_with(tail.as_str()) && id.starts_with(prefix.as_str())
            })
        });
        (by_parts || by_literal) && column && id
    }
}

/// A pairing number as written: digits, maybe after `#` or `No.`; a trailing 号 is fine.
fn pairing_number(text: &str) -> Option<u32> {
    let t = clean(text).to_lowercase();
    let t = t.trim_start_matches('#').trim_start_matches("no.").trim();
    let t = t.trim_end_matches('号').trim();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse::<u32>().ok()
}

/// What a row says about both sides; either may be missing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seats {
    /// The red side (红方).
    pub red: Option<SeatClaim>,
    /// The black side (黑方).
    pub black: Option<SeatClaim>,
}

impl Seats {
    /// Whether the row says nothing about who played.
    pub fn is_empty(&self) -> bool {
        self.red.is_none() && self.black.is_none()
    }

    /// Reads `RED/BLACK` as `result --names` takes it (`闫文/卢林旭`, `#3/#8`, `闫文/`): each
    /// side as a name cell. A side may be left empty, not both.
    pub fn parse_pair(text: &str) -> Result<Seats, ResultError> {
        let bad = || -> ResultError {
            Mismatch::BadNames {
                text: text.to_string(),
            }
            .into()
        };
        let (red, black) = text.split_once(['/', '／']).ok_or_else(bad)?;
        let seats = Seats {
            red: SeatClaim::from_name_cell(red),
            black: SeatClaim::from_name_cell(black),
        };
        if seats.is_empty() || black.contains(['/', '／']) {
            return Err(bad());
        }
        Ok(seats)
    }

    /// The claims with red and black exchanged.
    fn swapped(&self) -> Seats {
        Seats {
            red: self.black.clone(),
            black: self.red.clone(),
        }
    }

    /// Both sides as written, `—` for a side not given.
    fn written(&self) -> Seen {
        let side =
            |c: &Option<SeatClaim>| c.as_ref().map_or("—".to_string(), |c| c.written.clone());
        Seen {
            red: side(&self.red),
            black: side(&self.black),
        }
    }

    /// Whether the claims fit `red` and `black` in these colours (a side not given fits).
    fn fit(&self, red: &Player, black: &Player) -> bool {
        self.red.as_ref().is_none_or(|c| c.fits(red))
            && self.black.as_ref().is_none_or(|c| c.fits(black))
    }
}

/// The event's players indexed by what rows name them with, so that checking a file of
/// any size looks players up instead of scanning the event for every row. The index is
/// built when a row first names a player: a file of table numbers and outcomes alone
/// never needs it (at 100,000 players building it was a third of `result --from`, whose
/// rows the transaction reads twice).
pub struct Roster<'a> {
    event: &'a Event,
    index: std::cell::OnceCell<RosterIndex>,
}

/// [`Roster`]'s lookups.
#[derive(Default)]
struct RosterIndex {
    by_name: BTreeMap<String, Vec<PlayerId>>,
    by_number: BTreeMap<u32, Vec<PlayerId>>,
    /// By the last 4 characters of the ID number (upper case).
    by_id_end: BTreeMap<String, Vec<PlayerId>>,
}

impl RosterIndex {
    /// Indexes every player of `event`.
    fn of(event: &Event) -> Self {
        let mut index = RosterIndex::default();
        for p in &event.players {
            index
                .by_name
                .entry(key(&clean_name(&p.name)))
                .or_default()
                .push(p.id);
            if let Some(n) = p.number {
                index.by_number.entry(n).or_default().push(p.id);
            }
            if let Some(id) = &p.id_number {
                index.by_id_end.entry(id_end(id)).or_default().push(p.id);
            }
        }
        index
    }
}

impl<'a> Roster<'a> {
    /// The players of `event`, indexed when first looked up.
    pub fn new(event: &'a Event) -> Self {
        Roster {
            event,
            index: std::cell::OnceCell::new(),
        }
    }

    fn player(&self, id: PlayerId) -> Option<&'a Player> {
        self.event.player(id)
    }

    /// Every player of the event `claim` fits, in registration order.
    fn fitting(&self, claim: &SeatClaim) -> Vec<&'a Player> {
        let index = self.index.get_or_init(|| RosterIndex::of(self.event));
        let named = |name: &Option<String>| {
            name.as_ref()
                .and_then(|n| index.by_name.get(n))
                .map_or(&[][..], Vec::as_slice)
        };
        let mut ids: Vec<PlayerId> = if claim.name.is_some() {
            [named(&claim.name), named(&claim.literal)].concat()
        } else if let Some(n) = claim.number.or(claim.column_number) {
            index.by_number.get(&n).cloned().unwrap_or_default()
        } else if let Some((tail, _)) = &claim.id_tail {
            index
                .by_id_end
                .get(&id_end(tail))
                .cloned()
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        ids.sort_unstable();
        ids.dedup();
        let mut players: Vec<&Player> = ids
            .iter()
            .filter_map(|id| self.player(*id))
            .filter(|p| claim.fits(p))
            .collect();
        players.sort_by_key(|p| p.id);
        players
    }
}

/// Where a player sits in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spot {
    Game(u32, Colour),
    Bye,
}

/// The round a row is checked against, with what messages call it.
pub struct RoundAt<'a> {
    roster: &'a Roster<'a>,
    rules: &'a Rulebook,
    pool: GroupId,
    round: &'a Round,
    /// Where each player of the round sits.
    spots: BTreeMap<PlayerId, Spot>,
}

impl<'a> RoundAt<'a> {
    /// `pool`'s round `round`, its seats indexed.
    pub fn new(
        roster: &'a Roster<'a>,
        rules: &'a Rulebook,
        pool: &GroupId,
        round: &'a Round,
    ) -> Self {
        let mut spots = BTreeMap::new();
        for pairing in &round.pairings {
            match pairing {
                Pairing::Game {
                    table, red, black, ..
                } => {
                    spots.insert(*red, Spot::Game(*table, Colour::Red));
                    spots.insert(*black, Spot::Game(*table, Colour::Black));
                }
                Pairing::Bye { player } => {
                    spots.insert(*player, Spot::Bye);
                }
            }
        }
        RoundAt {
            roster,
            rules,
            pool: pool.clone(),
            round,
            spots,
        }
    }

    fn player(&self, id: PlayerId) -> Option<&'a Player> {
        self.roster.player(id)
    }

    /// A player as sheets show them: `闫文(12)`.
    fn shown(&self, id: PlayerId) -> String {
        self.player(id).map_or_else(
            || format!("#{id}"),
            |p| match p.number {
                Some(n) => format!("{}({n})", p.shown_name()),
                None => p.shown_name().into_owned(),
            },
        )
    }

    /// The red and black players at `table`, when a game is there.
    fn game(&self, table: u32) -> Option<(PlayerId, PlayerId)> {
        match self.round.game_at(table) {
            Some(Pairing::Game { red, black, .. }) => Some((*red, *black)),
            _ => None,
        }
    }

    /// Whether the game `red`–`black` fits `seats`, for players the event knows.
    fn game_fits(&self, seats: &Seats, red: PlayerId, black: PlayerId) -> bool {
        match (self.player(red), self.player(black)) {
            (Some(r), Some(b)) => seats.fit(r, b),
            _ => false,
        }
    }

    /// The tables where a player `claim` fits sits in `colour`.
    fn tables_of(&self, claim: &SeatClaim, colour: Colour) -> Vec<u32> {
        self.roster
            .fitting(claim)
            .iter()
            .filter_map(|p| match self.spots.get(&p.id) {
                Some(Spot::Game(t, c)) if *c == colour => Some(*t),
                _ => None,
            })
            .collect()
    }

    /// The tables whose game fits `seats` in their colours (both sides given).
    fn tables_fitting(&self, seats: &Seats) -> Vec<u32> {
        let (Some(red), Some(_)) = (&seats.red, &seats.black) else {
            return Vec::new();
        };
        let mut tables: Vec<u32> = self
            .tables_of(red, Colour::Red)
            .into_iter()
            .filter(|t| {
                self.game(*t)
                    .is_some_and(|(r, b)| self.game_fits(seats, r, b))
            })
            .collect();
        tables.sort_unstable();
        tables.dedup();
        tables
    }

    /// Checks that `seats` are the players of the game at `table`, each in their colour.
    /// A table without a game is not checked here (recording reports it).
    pub fn check_table(&self, table: u32, seats: &Seats) -> Result<(), ResultError> {
        if seats.is_empty() {
            return Ok(());
        }
        let Some((red, black)) = self.game(table) else {
            return Ok(());
        };
        if self.game_fits(seats, red, black) {
            return Ok(());
        }
        let hint = if self.game_fits(&seats.swapped(), red, black) {
            Hint::Swapped { table }
        } else {
            self.hint(seats, Some(table))
        };
        Err(ResultError::from(Mismatch::WrongPlayers {
            group: self.rules.group_name(&self.pool),
            round: self.round.number,
            table,
            written: seats.written(),
            holds: Seen {
                red: self.shown(red),
                black: self.shown(black),
            },
            hint,
        }))
    }

    /// The table of the one game whose players are `seats`, in their colours: for a row
    /// that names both players but no table.
    pub fn find_table(&self, seats: &Seats) -> Result<u32, ResultError> {
        if seats.red.is_none() || seats.black.is_none() {
            return Err(Mismatch::NoTable.into());
        }
        let refusal = match self.tables_fitting(seats).as_slice() {
            [one] => return Ok(*one),
            [] => Mismatch::NoGame {
                group: self.rules.group_name(&self.pool),
                round: self.round.number,
                written: seats.written(),
                hint: self.hint(seats, None),
            },
            several => Mismatch::SeveralGames {
                group: self.rules.group_name(&self.pool),
                round: self.round.number,
                written: seats.written(),
                tables: several.to_vec(),
            },
        };
        Err(refusal.into())
    }

    /// Where the players `seats` name really are: together at another table (perhaps in
    /// the other colours), or each somewhere (another table, the bye, another group,
    /// nowhere). `table` is the row's own table, when it has one.
    fn hint(&self, seats: &Seats, table: Option<u32>) -> Hint {
        let other = |t: &u32| Some(*t) != table;
        if let Some(&t) = self.tables_fitting(seats).iter().find(|t| other(t)) {
            return Hint::OtherTable {
                table: t,
                swapped: false,
            };
        }
        if let Some(&t) = self
            .tables_fitting(&seats.swapped())
            .iter()
            .find(|t| other(t))
        {
            // A row without a table: the pair plays, in the other colours.
            return match table {
                None => Hint::Swapped { table: t },
                Some(_) => Hint::OtherTable {
                    table: t,
                    swapped: true,
                },
            };
        }
        let game = table.and_then(|t| self.game(t));
        let mut sides = Vec::new();
        for (claim, colour) in [(&seats.red, Colour::Red), (&seats.black, Colour::Black)] {
            let Some(claim) = claim else { continue };
            // A side that fits its own seat needs no word.
            if let Some((red, black)) = game {
                let own = if colour == Colour::Red { red } else { black };
                if self.player(own).is_some_and(|p| claim.fits(p)) {
                    continue;
                }
            }
            sides.push(Whereabouts {
                written: claim.written.clone(),
                place: self.place_of(claim),
            });
        }
        Hint::Sides(sides)
    }

    /// Where the player a claim describes is in this round, or in the event.
    fn place_of(&self, claim: &SeatClaim) -> Place {
        let fitting = self.roster.fitting(claim);
        let here: Vec<(&Player, Spot)> = fitting
            .iter()
            .filter_map(|p| self.spots.get(&p.id).map(|s| (*p, *s)))
            .collect();
        match here.as_slice() {
            [(p, Spot::Game(table, colour))] => {
                return Place::Table {
                    table: *table,
                    colour: *colour,
                    name: self.shown(p.id),
                };
            }
            [(p, Spot::Bye)] => {
                return Place::Bye {
                    name: self.shown(p.id),
                };
            }
            [] => {}
            several => {
                return Place::Several {
                    count: several.len(),
                };
            }
        }
        match fitting.as_slice() {
            [] => Place::Nobody,
            [p] if p.group == self.pool => Place::NotPaired {
                name: self.shown(p.id),
            },
            [p] => Place::OtherGroup {
                name: self.shown(p.id),
                group: self.rules.group_name(&p.group),
            },
            several => Place::Several {
                count: several.len(),
            },
        }
    }
}

/// Checks the players given with results on the command line (`result 12 红胜 --names
/// 闫文/卢林旭`): each `(table, seats)` against the game at that table of `pool`'s round
/// `round` (the newest when `None`), every mismatch at once. A round or table that does
/// not exist is left to recording, which names the ones there are.
pub fn check_typed_seats(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: Option<u32>,
    claims: &[(u32, Seats)],
) -> Result<(), ResultError> {
    let state = event.group(pool);
    let round = match round {
        Some(n) => state.and_then(|g| g.round(n)),
        None => state.and_then(|g| g.rounds.iter().max_by_key(|r| r.number)),
    };
    let Some(round) = round else {
        return Ok(());
    };
    let roster = Roster::new(event);
    let at = RoundAt::new(&roster, rules, pool, round);
    let errors = claims
        .iter()
        .filter_map(|(table, seats)| at.check_table(*table, seats).err())
        .collect();
    ResultError::collect(errors)
}

/// The last four characters of an ID number, upper-cased (a final `x` is the `X` check
/// character): what a results file's ID-tail column is matched on.
fn id_end(id: &str) -> String {
    let chars: Vec<char> = id.chars().collect();
    chars[chars.len().saturating_sub(4)..]
        .iter()
        .collect::<String>()
        .to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pairing, Player, PlayerId, Round};

    /// Round 1 of `youth`: 甲(1)–乙(2) at table 1, 丙(3)–丁(4) at table 2, 戊(5) has the
    /// bye; 己 is in `kids`; 庚 is in `youth` but not paired.
    fn fixture() -> (Event, Rulebook) {
        let rules = Rulebook::from_toml(include_str!("../../rules/jinhua-2018.toml"), "j")
            .expect("the shipped rulebook is valid");
        let mut event = Event::new(String::new());
        let youth = GroupId::new("youth");
        for (i, name) in ["甲", "乙", "丙", "丁", "戊", "庚"].iter().enumerate() {
            let mut p = Player::new(PlayerId(i as u32 + 1), *name, youth.clone());
            p.number = Some(i as u32 + 1);
            p.id_number = Some(format!("33070220100101{:03}X", i + 1));
            event.players.push(p);
        }
        event
            .players
            .push(Player::new(PlayerId(9), "己", GroupId::new("kids")));
        let game = |table, red, black| Pairing::Game {
            table,
            red: PlayerId(red),
            black: PlayerId(black),
            result: None,
        };
        event.group_mut(&youth).rounds.push(Round {
            number: 1,
            pairings: vec![
                game(1, 1, 2),
                game(2, 3, 4),
                Pairing::Bye {
                    player: PlayerId(5),
                },
            ],
        });
        (event, rules)
    }

    fn seats(red: &str, black: &str) -> Seats {
        Seats {
            red: SeatClaim::from_name_cell(red),
            black: SeatClaim::from_name_cell(black),
        }
    }

    /// The refusal inside a [`ResultError`].
    fn mismatch(e: ResultError) -> Mismatch {
        match e {
            ResultError::Mismatch(m) => *m,
            other => panic!("not a mismatch: {other}"),
        }
    }

    fn check(red: &str, black: &str, table: u32) -> Result<(), Box<Mismatch>> {
        let (event, rules) = fixture();
        let pool = GroupId::new("youth");
        let round = event.group(&pool).unwrap().round(1).unwrap();
        let roster = Roster::new(&event);
        RoundAt::new(&roster, &rules, &pool, round)
            .check_table(table, &seats(red, black))
            .map_err(|e| Box::new(mismatch(e)))
    }

    #[test]
    fn the_players_of_the_table_in_their_colours_pass_in_every_written_form() {
        for (red, black) in [
            ("甲", "乙"),
            (" 甲 ", "乙"),
            ("甲(1)", "乙（2）"),
            ("#1", "2"),
            ("甲", ""),
            ("", "乙"),
            ("", ""),
        ] {
            assert_eq!(check(red, black, 1), Ok(()), "{red}/{black}");
        }
        // A table with no game is left to recording, which names the tables there are.
        assert_eq!(check("甲", "乙", 9), Ok(()));
    }

    #[test]
    fn each_wrong_row_says_where_the_players_are() {
        let hint =
            |red: &str, black: &str, table: u32| match check(red, black, table).map_err(|m| *m) {
                Err(Mismatch::WrongPlayers { hint, .. }) => hint,
                other => panic!("{red}/{black} at {table}: {other:?}"),
            };
        assert_eq!(hint("乙", "甲", 1), Hint::Swapped { table: 1 });
        assert_eq!(hint("乙", "", 1), Hint::Swapped { table: 1 });
        assert_eq!(
            hint("丙", "丁", 1),
            Hint::OtherTable {
                table: 2,
                swapped: false
            }
        );
        assert_eq!(
            hint("丁", "丙", 1),
            Hint::OtherTable {
                table: 2,
                swapped: true
            }
        );
        let sides = |red: &str, black: &str| match hint(red, black, 1) {
            Hint::Sides(sides) => sides.into_iter().map(|w| w.place).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            sides("甲", "丁"),
            vec![Place::Table {
                table: 2,
                colour: Colour::Black,
                name: "丁(4)".into()
            }]
        );
        assert_eq!(
            sides("戊", "乙"),
            vec![Place::Bye {
                name: "戊(5)".into()
            }]
        );
        assert_eq!(
            sides("甲", "庚"),
            vec![Place::NotPaired {
                name: "庚(6)".into()
            }]
        );
        assert_eq!(
            sides("己", "乙"),
            vec![Place::OtherGroup {
                name: "己".into(),
                group: "少儿精英组".into()
            }]
        );
        assert_eq!(sides("甲", "无名"), vec![Place::Nobody]);
        // Name and number must both fit.
        assert_eq!(sides("甲(2)", "乙"), vec![Place::Nobody]);
    }

    #[test]
    fn a_row_without_a_table_is_found_by_its_players() {
        let (event, rules) = fixture();
        let pool = GroupId::new("youth");
        let roster = Roster::new(&event);
        let round = event.group(&pool).unwrap().round(1).unwrap();
        let at = RoundAt::new(&roster, &rules, &pool, round);
        assert_eq!(at.find_table(&seats("丙", "丁")), Ok(2));
        assert_eq!(at.find_table(&seats("#3", "丁(4)")), Ok(2));
        assert!(matches!(
            at.find_table(&seats("丁", "丙")).map_err(mismatch),
            Err(Mismatch::NoGame {
                hint: Hint::Swapped { table: 2 },
                ..
            })
        ));
        assert!(matches!(
            at.find_table(&seats("甲", "丁")).map_err(mismatch),
            Err(Mismatch::NoGame { .. })
        ));
        assert_eq!(
            at.find_table(&seats("丙", "")).map_err(mismatch),
            Err(Mismatch::NoTable)
        );
    }

    #[test]
    fn id_tails_and_numbers_are_read_strictly() {
        let claim = SeatClaim::add_id_cell(SeatClaim::from_name_cell("甲"), "001x").unwrap();
        let (event, _) = fixture();
        assert!(claim.as_ref().unwrap().fits(&event.players[0]));
        assert!(!claim.unwrap().fits(&event.players[1]));
        let masked = SeatClaim::add_id_cell(None, "3307**********002X")
            .unwrap()
            .unwrap();
        assert!(masked.fits(&event.players[1]));
        assert!(!masked.fits(&event.players[0]));
        for bad in ["12", "abcd", "12*34"] {
            assert!(SeatClaim::add_id_cell(None, bad).is_err(), "{bad}");
        }
        assert!(SeatClaim::add_number_cell(None, "x1").is_err());
        let both = SeatClaim::add_number_cell(SeatClaim::from_name_cell("甲"), "1").unwrap();
        assert!(both.unwrap().fits(&event.players[0]));
        let clash = SeatClaim::add_number_cell(SeatClaim::from_name_cell("甲(1)"), "2").unwrap();
        assert!(!clash.unwrap().fits(&event.players[0]));
        // A player registered with brackets in the name is found by the whole cell.
        let mut bracketed = event.players[0].clone();
        bracketed.name = "甲(3)".into();
        let claim = SeatClaim::from_name_cell("甲（3）").unwrap();
        assert!(claim.fits(&bracketed));
        assert!(!claim.fits(&event.players[0]));
    }

    #[test]
    fn names_on_the_command_line_are_red_slash_black() {
        assert_eq!(Seats::parse_pair("甲/乙"), Ok(seats("甲", "乙")));
        assert_eq!(Seats::parse_pair("甲／"), Ok(seats("甲", "")));
        for bad in ["甲乙", "/", "甲/乙/丙"] {
            assert!(Seats::parse_pair(bad).is_err(), "{bad}");
        }
    }
}
