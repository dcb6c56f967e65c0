//! Rounds, pairings, games and their outcomes.

use super::PlayerId;
use crate::i18n::Lang;
use serde::{Deserialize, Serialize};

/// A side of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// 红方, moves first (先走).
    Red,
    /// 黑方, moves second (后走).
    Black,
}

/// A colour as a word (红/黑, red/black), e.g. in worded crosstable cells and in a
/// colour-limit violation (docs/rules.md §3.2).
pub fn colour_label(c: Colour, lang: Lang) -> &'static str {
    match c {
        Colour::Red => lang.pick("红", "red"),
        Colour::Black => lang.pick("黑", "black"),
    }
}

impl Colour {
    /// The other side.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::Red => Colour::Black,
            Colour::Black => Colour::Red,
        }
    }
}

/// How a game ended, from the arbiter's score sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Red won over the board.
    RedWin,
    /// A draw (和棋).
    Draw,
    /// Black won over the board.
    BlackWin,
    /// Black absent or late beyond the limit: red wins by forfeit (`+-`).
    BlackForfeit,
    /// Red absent or late beyond the limit: black wins by forfeit (`-+`).
    RedForfeit,
    /// Neither played, or a result reported without playing (双负, Jinhua 补充规定 五.3).
    DoubleForfeit,
}

impl Outcome {
    /// Whether the game was actually played over the board.
    pub fn is_played(self) -> bool {
        matches!(self, Outcome::RedWin | Outcome::Draw | Outcome::BlackWin)
    }

    /// The winner's colour, if one side won (over the board or by forfeit).
    pub fn winner(self) -> Option<Colour> {
        match self {
            Outcome::RedWin | Outcome::BlackForfeit => Some(Colour::Red),
            Outcome::BlackWin | Outcome::RedForfeit => Some(Colour::Black),
            Outcome::Draw | Outcome::DoubleForfeit => None,
        }
    }

    /// Whether `colour` forfeited this game (absent, or both absent).
    pub fn forfeited_by(self, colour: Colour) -> bool {
        match self {
            Outcome::DoubleForfeit => true,
            Outcome::RedForfeit => colour == Colour::Red,
            Outcome::BlackForfeit => colour == Colour::Black,
            _ => false,
        }
    }

    /// Whether a side had its colour in this game: a game played, or forfeited by one side
    /// (one player was at the board). Not a 双负, where a result was reported without play
    /// (Jinhua 补充规定 五.3): neither side had a red or black game, e.g. for 后走局数.
    pub fn assigns_colours(self) -> bool {
        !matches!(self, Outcome::DoubleForfeit)
    }

    /// Every outcome, in the order sheets list them.
    pub const ALL: [Outcome; 6] = [
        Outcome::RedWin,
        Outcome::Draw,
        Outcome::BlackWin,
        Outcome::BlackForfeit,
        Outcome::RedForfeit,
        Outcome::DoubleForfeit,
    ];

    /// The token `qiwang result` reads, in `lang`: 红胜 和 黑胜 黑弃权 红弃权 双负 in
    /// Chinese (the words the sheets print), [`Outcome::token`] in English.
    pub fn token_in(self, lang: Lang) -> &'static str {
        let zh = match self {
            Outcome::RedWin => "红胜",
            Outcome::Draw => "和",
            Outcome::BlackWin => "黑胜",
            Outcome::BlackForfeit => "黑弃权",
            Outcome::RedForfeit => "红弃权",
            Outcome::DoubleForfeit => "双负",
        };
        lang.pick(zh, self.token())
    }

    /// The outcome as words in a sentence: 红胜, 和棋 …; a red win, a draw ….
    pub fn words(self, lang: Lang) -> &'static str {
        match self {
            Outcome::RedWin => lang.pick("红胜", "a red win"),
            Outcome::Draw => lang.pick("和棋", "a draw"),
            Outcome::BlackWin => lang.pick("黑胜", "a black win"),
            Outcome::BlackForfeit => lang.pick("黑方弃权", "a forfeit by black"),
            Outcome::RedForfeit => lang.pick("红方弃权", "a forfeit by red"),
            Outcome::DoubleForfeit => lang.pick("双方弃权", "a double forfeit"),
        }
    }

    /// The canonical token, as printed on sheets.
    pub fn token(self) -> &'static str {
        match self {
            Outcome::RedWin => "1-0",
            Outcome::Draw => "=",
            Outcome::BlackWin => "0-1",
            Outcome::BlackForfeit => "+-",
            Outcome::RedForfeit => "-+",
            Outcome::DoubleForfeit => "--",
        }
    }
}

/// A game's recorded result with the fouls (犯规) each side committed in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Who won, over the board or by forfeit.
    pub outcome: Outcome,
    /// Fouls (犯规) red committed in the game.
    #[serde(default)]
    pub red_fouls: u32,
    /// Fouls (犯规) black committed in the game.
    #[serde(default)]
    pub black_fouls: u32,
    /// The forfeit was for arriving late (迟到), not for not coming (不到): under
    /// `conduct.late_result = "loss"` it is not counted by the forfeit-withdrawal rule.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub late: bool,
}

impl GameResult {
    /// A result without fouls, not late.
    pub fn new(outcome: Outcome) -> Self {
        GameResult {
            outcome,
            red_fouls: 0,
            black_fouls: 0,
            late: false,
        }
    }

    /// The result as `qiwang result` takes it: the outcome's token, `/red:black` when a
    /// side committed fouls, `red-late`/`black-late` for a forfeit for lateness; so a
    /// correction that changed only the fouls or the lateness reads as a change.
    pub fn entry_text(&self) -> String {
        self.entry_text_in(Lang::En)
    }

    /// [`GameResult::entry_text`] in `lang`: Chinese writes `红胜/0:2`, `黑迟到`, which
    /// `qiwang result` reads back the same.
    pub fn entry_text_in(&self, lang: Lang) -> String {
        match (self.late, self.outcome) {
            (true, Outcome::BlackForfeit) => lang.pick("黑迟到", "black-late").to_string(),
            (true, Outcome::RedForfeit) => lang.pick("红迟到", "red-late").to_string(),
            _ if self.red_fouls + self.black_fouls > 0 => format!(
                "{}/{}:{}",
                self.outcome.token_in(lang),
                self.red_fouls,
                self.black_fouls
            ),
            _ => self.outcome.token_in(lang).to_string(),
        }
    }

    /// The fouls the side playing `colour` committed.
    pub fn fouls(&self, colour: Colour) -> u32 {
        match colour {
            Colour::Red => self.red_fouls,
            Colour::Black => self.black_fouls,
        }
    }
}

/// One line of a round's pairing sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", try_from = "PairingFields")]
pub enum Pairing {
    /// A game between two players at a table.
    Game {
        /// The table number, 1-based.
        table: u32,
        /// The player with red (先走).
        red: PlayerId,
        /// The player with black.
        black: PlayerId,
        /// The result, once recorded.
        #[serde(default)]
        result: Option<GameResult>,
    },
    /// 轮空: scored per the rulebook (CXA 2011 §14.4: as a win).
    Bye {
        /// The player who gets the bye.
        player: PlayerId,
    },
}

/// A [`Pairing`] as the state file writes it (`{"kind": "game", "table": …}`), read
/// field by field: serde reads an internally tagged enum through a buffer, which hides
/// where in a pairing a value of the wrong type sits (a damaged state file was named down
/// to `pairings[0]`, not `pairings[0].red`). Fields of the other kind are ignored, as the
/// tagged enum ignored them; the file's shape is unchanged.
#[derive(Deserialize)]
struct PairingFields {
    kind: PairingKind,
    table: Option<u32>,
    red: Option<PlayerId>,
    black: Option<PlayerId>,
    #[serde(default)]
    result: Option<GameResult>,
    player: Option<PlayerId>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum PairingKind {
    Game,
    Bye,
}

impl TryFrom<PairingFields> for Pairing {
    type Error = String;

    fn try_from(f: PairingFields) -> Result<Pairing, String> {
        let need = |name: &str| format!("missing field `{name}`");
        Ok(match f.kind {
            PairingKind::Game => Pairing::Game {
                table: f.table.ok_or_else(|| need("table"))?,
                red: f.red.ok_or_else(|| need("red"))?,
                black: f.black.ok_or_else(|| need("black"))?,
                result: f.result,
            },
            PairingKind::Bye => Pairing::Bye {
                player: f.player.ok_or_else(|| need("player"))?,
            },
        })
    }
}

impl Pairing {
    /// The players of the pairing: red then black, or the bye's player (without
    /// allocating: standings walk every pairing of every round).
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + use<> {
        let (first, second) = match self {
            Pairing::Game { red, black, .. } => (*red, Some(*black)),
            Pairing::Bye { player } => (*player, None),
        };
        std::iter::once(first).chain(second)
    }

    /// Whether player `id` is in this pairing.
    pub fn involves(&self, id: PlayerId) -> bool {
        match self {
            Pairing::Game { red, black, .. } => *red == id || *black == id,
            Pairing::Bye { player } => *player == id,
        }
    }

    /// The table of a game; `None` for a bye.
    pub fn table(&self) -> Option<u32> {
        match self {
            Pairing::Game { table, .. } => Some(*table),
            Pairing::Bye { .. } => None,
        }
    }
}

/// One round of one group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// 1-based.
    pub number: u32,
    /// The games and byes of the round.
    pub pairings: Vec<Pairing>,
}

impl Round {
    /// Whether every game of the round has a result.
    pub fn is_complete(&self) -> bool {
        self.pairings.iter().all(|p| match p {
            Pairing::Game { result, .. } => result.is_some(),
            Pairing::Bye { .. } => true,
        })
    }

    /// The tables whose game has no result yet, in stored order.
    pub fn open_tables(&self) -> impl Iterator<Item = u32> + '_ {
        self.pairings.iter().filter_map(|p| match p {
            Pairing::Game {
                table,
                result: None,
                ..
            } => Some(*table),
            _ => None,
        })
    }

    /// Whether any game of the round has a result.
    pub fn has_results(&self) -> bool {
        self.pairings.iter().any(|p| {
            matches!(
                p,
                Pairing::Game {
                    result: Some(_),
                    ..
                }
            )
        })
    }

    /// The game at `table`. Tables are numbered on from the round's first table (1, or
    /// where the hall numbering starts the pool) in order, the bye last, so table `t` is
    /// looked for at index `t − first` first: entering a whole round's results looked
    /// every table up by a scan, quadratic at 50,000 tables.
    pub fn game_at(&self, table: u32) -> Option<&Pairing> {
        self.table_position(table).map(|i| &self.pairings[i])
    }

    /// [`Round::game_at`], to change.
    pub fn game_at_mut(&mut self, table: u32) -> Option<&mut Pairing> {
        self.table_position(table).map(|i| &mut self.pairings[i])
    }

    fn table_position(&self, table: u32) -> Option<usize> {
        let first = self.pairings.first().and_then(Pairing::table).unwrap_or(1);
        let guess = (table as usize).wrapping_sub(first as usize);
        if self
            .pairings
            .get(guess)
            .is_some_and(|p| p.table() == Some(table))
        {
            return Some(guess);
        }
        self.pairings.iter().position(|p| p.table() == Some(table))
    }

    /// The game or bye of player `id` in this round, if paired.
    pub fn pairing_of(&self, id: PlayerId) -> Option<&Pairing> {
        self.pairings.iter().find(|p| p.involves(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(tables: &[u32]) -> Round {
        let mut pairings: Vec<Pairing> = tables
            .iter()
            .map(|&t| Pairing::Game {
                table: t,
                red: PlayerId(2 * t),
                black: PlayerId(2 * t + 1),
                result: None,
            })
            .collect();
        pairings.push(Pairing::Bye {
            player: PlayerId(1),
        });
        Round {
            number: 1,
            pairings,
        }
    }

    #[test]
    fn games_are_found_by_table_in_any_order() {
        for tables in [&[1, 2, 3][..], &[3, 1, 2], &[2, 5, 9], &[]] {
            let mut r = round(tables);
            for &t in tables {
                assert_eq!(r.game_at(t).and_then(Pairing::table), Some(t), "{tables:?}");
                if let Some(Pairing::Game { result, .. }) = r.game_at_mut(t) {
                    *result = Some(GameResult::new(Outcome::Draw));
                }
                assert!(matches!(
                    r.game_at(t),
                    Some(Pairing::Game {
                        result: Some(_),
                        ..
                    })
                ));
            }
            for missing in [0, 4, 10] {
                if !tables.contains(&missing) {
                    assert!(r.game_at(missing).is_none(), "{tables:?} {missing}");
                }
            }
        }
    }
}
