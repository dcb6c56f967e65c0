//! `--explain`: why players floated, why each colour went the way it did, and why the
//! bye went to that player, as sentences an arbiter can read to a complaining parent.
//!
//! Owns the structured reasons and their Chinese and English wording; decides nothing.

use super::context::ColourStep;
use super::engine::{Field, Matched};
use super::vocabulary::Vocabulary;
use crate::i18n::bi;
use crate::model::{PlayerId, Points, Relax, Relaxation};
use crate::rulebook::{ByeChoice, EqualColourTie, Lang, Round1Colour, Round1Pairing, Seeding};

/// Why a player was paired outside their score group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FloatReason {
    /// The players on this score or above (after the bye) were an odd number, so one had
    /// to meet a lower score (同分者编对 cannot pair everyone).
    OddGroup {
        /// Players on this score or above, the bye player aside: an odd number.
        players: u32,
    },
    /// Enough players on the same score, but every one still free was barred or needed
    /// elsewhere: counts of same-score players already met, barred by colour limits, or
    /// from the same team.
    Blocked {
        /// Same-score players already met (no rematch, docs/rules.md §2.3).
        met: u32,
        /// Same-score players barred by the colour limits (docs/rules.md §3.2).
        colour: u32,
        /// Same-score team-mates barred by team avoidance (docs/rules.md §4.1).
        team: u32,
    },
    /// A same-score opponent (`partner`) was free and legal, but the lower score groups
    /// could not all be paired unless both of them came down (rematches or colour limits
    /// below).
    NeededBelow {
        /// A same-score player this one could legally have met, who floated down too.
        partner: PlayerId,
    },
}

/// A higher-scored player paired with a lower-scored one (近分者编对).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FloatNote {
    /// The higher-scored player, who floated down.
    pub player: PlayerId,
    /// The lower-scored opponent, who floated up.
    pub opponent: PlayerId,
    /// `player`'s score before the round (the score group left).
    pub from: Points,
    /// `opponent`'s score before the round (the score group met).
    pub to: Points,
    /// Why the two could not stay in their own score groups.
    pub reason: FloatReason,
}

/// Who plays red at a table and which rule decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColourNote {
    /// The table number, as on the pairing sheet.
    pub table: u32,
    /// The player given red (先手).
    pub red: PlayerId,
    /// The player given black (后手).
    pub black: PlayerId,
    /// The step of docs/rules.md §3.3 that decided it, so a player owed red can be told
    /// why they did not get it.
    pub step: ColourStep,
}

/// Which rule gave the bye (docs/rules.md §4.2): round 1's, or the rulebook's
/// `pairing.bye` tier order in later rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByeReason {
    /// Round 1, odd field: the highest number (Dalian 2025).
    Round1HighestNumber,
    /// Round 1, odd field: by lot.
    Round1Lot,
    /// The lowest score among players with the fewest byes (CXA practice, S15 默认).
    LowestScore,
    /// The fewest byes among the lowest-scored players (`lowest_score_fewest_byes`, S15
    /// mode 1).
    FewestByesAmongLowest,
}

/// Why a player with a score no higher than the bye player's did not get it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassReason {
    /// Already had `byes` byes while others had fewer.
    AlreadyHadBye {
        /// The byes that player had already taken.
        byes: u32,
    },
    /// Giving them the bye would have left no legal pairing for the others.
    WouldBlockPairing,
    /// Round 1 with no team-clean pairing for any bye: giving them the bye would have left
    /// more team-mates to meet than the bye chosen (docs/rules.md §2.5).
    MoreTeamMates,
    /// Same score: giving it to the chosen player paired the rest better (fewer floats,
    /// nearer scores, more due colours, fewer repeated floats, then the lower place).
    BetterPairing,
}

/// Who took the bye (轮空) and why, with every player scored no higher who did not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByeNote {
    /// The player who sits out and scores `scoring.bye` (docs/rules.md §1.2).
    pub player: PlayerId,
    /// That player's score before the round.
    pub score: Points,
    /// The rule that chose them.
    pub reason: ByeReason,
    /// Every other player scored no higher, each with why the bye passed them by: the
    /// answer to "why not me?" (in round 1, only those whose bye would have left more
    /// team-mates to meet, docs/rules.md §2.2).
    pub passed_over: Vec<(PlayerId, PassReason)>,
}

/// How round 1 was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Round1Note {
    /// How pairing numbers were given: by lot or by rating then lot (docs/rules.md §2.2).
    pub seeding: Seeding,
    /// How numbers were paired (`pairing.round1`: adjacent, halves, …).
    pub pairing: Round1Pairing,
    /// How round 1's colours were given (`pairing.round1_colour`).
    pub colour: Round1Colour,
    /// The pool's recorded seed: the same seed repeats the same draw (`pair --seed N`).
    pub seed: u64,
}

/// The reasons behind one pairing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The round explained.
    pub round: u32,
    /// How round 1 was drawn; `None` from round 2 on.
    pub round1: Option<Round1Note>,
    /// Every pair across score groups, highest score first (empty in round 1).
    pub floats: Vec<FloatNote>,
    /// Who plays red at each table and which rule decided it.
    pub colours: Vec<ColourNote>,
    /// The bye, when the field is odd.
    pub bye: Option<ByeNote>,
    /// Hard rules relaxed because no pairing met them all (docs/rules.md §2.5).
    pub relaxed: Vec<Relaxation>,
    /// A round-robin round: the Berger-table round it prints (docs/rules.md §14).
    pub table: Option<TableNote>,
    /// A knockout round: the bracket round and each table's game (docs/rules.md §16).
    pub knockout: Option<super::knockout::KnockoutNote>,
}

impl Explanation {
    /// A round the engine did not optimise, explained by one note: a round-robin table
    /// round (`table`) or a knockout round (`knockout`); the rest stays empty.
    pub(super) fn printed(
        round: u32,
        table: Option<TableNote>,
        knockout: Option<super::knockout::KnockoutNote>,
    ) -> Explanation {
        Explanation {
            round,
            round1: None,
            floats: Vec::new(),
            colours: Vec::new(),
            bye: None,
            relaxed: Vec::new(),
            table,
            knockout,
        }
    }
}

/// The Berger-table round a round-robin round is (docs/rules.md §14): printed, not
/// optimised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableNote {
    /// The round of the table, 1..=rounds per cycle.
    pub table_round: u32,
    /// The cycle (1 = 单循环's, 2 = the second of a 双循环, colours reversed).
    pub cycle: u32,
    /// The cycles the group plays (`cycles`).
    pub cycles: u32,
    /// The players in the table (numbers 1..=n).
    pub players: u32,
    /// How the numbers were given (round 1 only prints it).
    pub seeding: Option<(Seeding, u64)>,
    /// A round of a final stage: the finalists numbered by their Swiss places (§16.7).
    pub stage: bool,
}

pub(super) fn floats(field: &Field, m: &Matched) -> Vec<FloatNote> {
    let p = &field.players;
    let mut out = Vec::new();
    // Who floated down (met a lower score), found once: asking per player and per float
    // went through every table for every player of the float's score group, which grows
    // with the square of the field.
    let mut floated = vec![false; p.len()];
    for &(a, b) in &m.pairs {
        floated[a] |= p[b].score < p[a].score;
        floated[b] |= p[a].score < p[b].score;
    }
    for &(a, b) in &m.pairs {
        if p[a].score == p[b].score {
            continue;
        }
        let (hi, lo) = if p[a].score > p[b].score {
            (a, b)
        } else {
            (b, a)
        };
        let above = (0..p.len())
            .filter(|&i| Some(i) != m.bye && p[i].score >= p[hi].score)
            .count() as u32;
        let partner = (0..p.len())
            .find(|&i| i != hi && p[i].score == p[hi].score && floated[i] && field.legal(hi, i));
        let reason = if above % 2 == 1 {
            FloatReason::OddGroup { players: above }
        } else if let Some(i) = partner {
            FloatReason::NeededBelow { partner: p[i].id }
        } else {
            let (mut met, mut colour, mut team) = (0, 0, 0);
            for (i, o) in p.iter().enumerate() {
                if i == hi || o.score != p[hi].score {
                    continue;
                }
                if p[hi].has_met(o.id) {
                    met += 1;
                } else if field.rules.team_conflict(&p[hi], o) {
                    team += 1;
                } else if !field.rules.colours_compatible(&p[hi], o) {
                    colour += 1;
                }
            }
            FloatReason::Blocked { met, colour, team }
        };
        out.push(FloatNote {
            player: p[hi].id,
            opponent: p[lo].id,
            from: p[hi].score,
            to: p[lo].score,
            reason,
        });
    }
    out.sort_by_key(|f| (std::cmp::Reverse(f.from), f.player));
    out
}

pub(super) fn bye_note(field: &Field, m: &Matched, bye: usize) -> ByeNote {
    let p = &field.players;
    let chosen = &p[bye];
    let mut candidate = vec![false; p.len()];
    for &i in &m.bye_candidates {
        candidate[i] = true;
    }
    let mut passed = Vec::new();
    for (i, o) in p.iter().enumerate() {
        if i == bye || o.score > chosen.score {
            continue;
        }
        // A later tier of `pairing.bye` (§4.2) than the chosen player's: more byes (under
        // `lowest_score_fewest_byes` only on the same score; a lower score comes first).
        let later = o.byes > chosen.byes
            && (field.rules.rules.pairing.bye == ByeChoice::LowestScoreNeverByed
                || o.score == chosen.score);
        let why = if later {
            PassReason::AlreadyHadBye { byes: o.byes }
        } else if candidate[i] {
            PassReason::BetterPairing
        } else {
            PassReason::WouldBlockPairing
        };
        passed.push((o.id, why));
    }
    ByeNote {
        player: chosen.id,
        score: chosen.score,
        reason: match field.rules.rules.pairing.bye {
            ByeChoice::LowestScoreNeverByed => ByeReason::LowestScore,
            ByeChoice::LowestScoreFewestByes => ByeReason::FewestByesAmongLowest,
        },
        passed_over: passed,
    }
}

impl Explanation {
    /// The reasons as sentences, one per line, the relaxed rules among them.
    pub fn lines(&self, lang: Lang, names: &dyn Fn(PlayerId) -> String) -> Vec<String> {
        self.lines_with(lang, names, true, Vocabulary::Players)
    }

    /// [`Explanation::lines`] in `vocab`'s words: a team round's reasons speak of teams,
    /// matches and moving first (docs/rules.md §17.2).
    pub fn lines_in(
        &self,
        lang: Lang,
        names: &dyn Fn(PlayerId) -> String,
        vocab: Vocabulary,
    ) -> Vec<String> {
        self.lines_with(lang, names, true, vocab)
    }

    /// The reasons without the relaxed rules' lines, for printing under a pairing sheet:
    /// the sheet's notes already hold those ([`relaxation_lines`]), and `pair --explain`
    /// printed them twice.
    pub fn reasons(&self, lang: Lang, names: &dyn Fn(PlayerId) -> String) -> Vec<String> {
        self.lines_with(lang, names, false, Vocabulary::Players)
    }

    /// The reasons, with the relaxation lines when `relaxations`.
    fn lines_with(
        &self,
        lang: Lang,
        names: &dyn Fn(PlayerId) -> String,
        relaxations: bool,
        v: Vocabulary,
    ) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(t) = &self.table {
            out.push(table_line(t, lang));
        }
        if let Some(k) = &self.knockout {
            out.extend(k.lines(lang, names));
        }
        if let Some(r1) = &self.round1 {
            out.push(round1_line(r1, lang));
        }
        if relaxations {
            out.extend(relaxation_lines(
                &self.relaxed,
                RelaxOrder::Either,
                lang,
                names,
            ));
        }
        for f in &self.floats {
            out.push(float_line(f, names, lang, v));
        }
        for c in &self.colours {
            let (r, b) = (names(c.red), names(c.black));
            out.push(colour_line(c, &r, &b, lang, v));
        }
        if let Some(bye) = &self.bye {
            let who = names(bye.player);
            let passed = !bye.passed_over.is_empty();
            // Round 1 where every bye leaves team-mates to meet (§2.2).
            let crowded = bye
                .passed_over
                .iter()
                .any(|(_, why)| *why == PassReason::MoreTeamMates);
            out.push(bye_line(bye, &who, crowded, passed, lang, v));
            for (id, why) in &bye.passed_over {
                out.push(pass_line(&names(*id), &who, why, lang, v));
            }
        }
        out
    }
}

/// Whose order the rules of a round were relaxed in (docs/rules.md §2.5).
#[derive(Debug, Clone, Copy)]
pub enum RelaxOrder<'a> {
    /// The rulebook's `pairing.relax`.
    Rulebook,
    /// The list `pair --relax` gave for the round.
    Given(&'a [Relax]),
    /// Not known where the lines are made (a plan's own explanation).
    Either,
}

/// The relaxed rules of a round: a line saying why, then one line per table and rule
/// (放宽同队回避：张三—李四). Empty when every hard rule held. The pairing sheet prints
/// the same lines under the tables.
pub fn relaxation_lines(
    relaxed: &[Relaxation],
    order: RelaxOrder,
    lang: Lang,
    names: &dyn Fn(PlayerId) -> String,
) -> Vec<String> {
    if relaxed.is_empty() {
        return Vec::new();
    }
    let source = match order {
        RelaxOrder::Rulebook => lang
            .pick("规程的 pairing.relax", "the rulebook's pairing.relax")
            .to_string(),
        RelaxOrder::Given(rules) => bi!(
            lang,
            zh("本轮的 `--relax {}`", crate::rulebook::relax_list(rules)),
            en(
                "this round's `--relax {}`",
                crate::rulebook::relax_list(rules)
            )
        ),
        RelaxOrder::Either => lang
            .pick(
                "规程的 pairing.relax，或本轮的 --relax",
                "the rulebook's pairing.relax, or this round's --relax",
            )
            .to_string(),
    };
    let mut out = vec![bi!(
        lang,
        zh("本轮不存在满足全部硬性规则的编排，按放宽顺序（{source}）放宽，放宽次数最少："),
        en(
            "No pairing met every hard rule this round; rules were relaxed in their order ({source}), as few times as possible:"
        )
    )];
    for r in relaxed {
        let who = r
            .players
            .iter()
            .map(|p| names(*p))
            .collect::<Vec<_>>()
            .join(lang.pick("—", "–"));
        out.push(format!("  {}{who}", relax_label(r.rule, lang)));
    }
    out
}

/// A hard rule that can be relaxed (docs/rules.md §2.5), as the sheets and the log name
/// it in `lang`.
pub fn relax_rule_label(rule: Relax, lang: Lang) -> &'static str {
    match rule {
        Relax::Colour => lang.pick("先后手限制", "colour limits"),
        Relax::Team => lang.pick("同队回避", "team avoidance"),
        Relax::Rematch => lang.pick("不重复对局", "no-rematch"),
    }
}

/// The head of one relaxation line in `lang`.
fn relax_label(rule: Relax, lang: Lang) -> String {
    let name = relax_rule_label(rule, lang);
    match rule {
        Relax::Rematch => bi!(
            lang,
            zh("放宽{name}（再次相遇）："),
            en("{name} relaxed (they meet again): ")
        ),
        _ => bi!(lang, zh("放宽{name}："), en("{name} relaxed: ")),
    }
}

fn table_line(t: &TableNote, lang: Lang) -> String {
    let TableNote {
        table_round: k,
        cycle,
        players: n,
        ..
    } = *t;
    let mut line = match cycle {
        1 => bi!(
            lang,
            zh("贝格尔表第 {k} 轮（{n} 人单循环；按表编排，不作优化）"),
            en("Berger table, round {k} ({n} players; the table's round, not optimised)")
        ),
        c => bi!(
            lang,
            zh("贝格尔表第 {k} 轮（{n} 人，第 {c} 循环，先后手与第一循环相反）"),
            en("Berger table, round {k} ({n} players, cycle {c}: colours reversed from the first)")
        ),
    };
    if let Some((seeding, seed)) = t.seeding {
        let how = match seeding {
            Seeding::RandomDraw => bi!(
                lang,
                zh("序号由电脑随机抽签（种子 {seed}）"),
                en("numbers drawn at random (seed {seed})")
            ),
            Seeding::RatingThenLot => bi!(
                lang,
                zh("序号按等级分排列，无等级分者抽签列后（种子 {seed}）"),
                en("numbers by rating, unrated players after them by lot (seed {seed})")
            ),
            Seeding::Sheet => bi!(
                lang,
                zh("序号取自报名表的序号列"),
                en("numbers from the registration sheet's 序号 column")
            ),
        };
        line.push_str(lang.pick("；", "; "));
        line.push_str(&how);
    }
    if t.stage {
        line.push_str(&bi!(
            lang,
            zh("；决赛阶段：决赛选手按预赛名次编为 1 至 {n} 号"),
            en("; final stage: the finalists numbered 1 to {n} by their Swiss places")
        ));
    }
    line.push_str(lang.pick("。", "."));
    line
}

fn round1_line(r1: &Round1Note, lang: Lang) -> String {
    let seeding = match r1.seeding {
        Seeding::RandomDraw => bi!(
            lang,
            zh("序号由电脑随机抽签（种子 {}）", r1.seed),
            en("numbers drawn at random (seed {})", r1.seed)
        ),
        Seeding::RatingThenLot => bi!(
            lang,
            zh("序号按等级分排列，无等级分者抽签列后（种子 {}）", r1.seed),
            en(
                "numbers by rating, unrated players after them by lot (seed {})",
                r1.seed
            )
        ),
        Seeding::Sheet => bi!(
            lang,
            zh("序号取自报名表的序号列"),
            en("numbers from the registration sheet's 序号 column")
        ),
    };
    let mode = match r1.pairing {
        Round1Pairing::Adjacent => bi!(lang, zh("近号配对"), en("adjacent numbers paired")),
        Round1Pairing::Halves => bi!(lang, zh("拦腰配对"), en("upper half against lower half")),
        Round1Pairing::FoldFirstLast => bi!(lang, zh("首尾配对"), en("first against last")),
        Round1Pairing::Random => bi!(lang, zh("抽签配对"), en("paired by lot")),
    };
    bi!(
        lang,
        zh("第1轮：{seeding}，{mode}。"),
        en("Round 1: {seeding}; {mode}.")
    )
}

/// Why `f.player` met a lower score, in `lang` and `v`'s words.
fn float_line(
    f: &FloatNote,
    names: &dyn Fn(PlayerId) -> String,
    lang: Lang,
    v: Vocabulary,
) -> String {
    let (who, opp) = (names(f.player), names(f.opponent));
    let (from, to) = (f.from, f.to);
    let teams = v == Vocabulary::Teams;
    match &f.reason {
        FloatReason::OddGroup { players } => bi!(
            lang,
            zh(
                "{who}（{from}分）与{opp}（{to}分）对阵：{from}分及以上（除轮空者）共{}，为单数，须有{}与近分者编对。",
                v.count_zh(*players),
                v.one_zh()
            ),
            en(
                "{who} ({from} pts) plays {opp} ({to} pts): {} on {from} or more, an odd number, so one must meet the nearest lower score.",
                v.bye_aside_en(*players)
            )
        ),
        FloatReason::NeededBelow { partner } => {
            let partner = names(*partner);
            bi!(
                lang,
                zh(
                    "{who}（{from}分）与{opp}（{to}分）对阵：本可与同分的{partner}对阵，但较低分的{}之间已相遇或受先后手限制，只有{}都向下编对才能全部排通。",
                    v.them(lang),
                    if teams { "两队" } else { "两人" }
                ),
                en(
                    "{who} ({from} pts) plays {opp} ({to} pts): {who} could have met {partner} on the same score, but the lower-scored {} have met each other or are barred by colour limits, so both had to come down for everyone to be paired.",
                    v.them_en()
                )
            )
        }
        // A team is its own unit: team avoidance never bars one team from another.
        FloatReason::Blocked { met, colour, .. } if teams => bi!(
            lang,
            zh(
                "{who}（{from}分）与{opp}（{to}分）对阵：同分各队中{met}个已相遇，{colour}个受先后手限制，其余同分者须与他队编对，只能与近分者编对。"
            ),
            en(
                "{who} ({from} pts) plays {opp} ({to} pts): of the teams on the same score {met} were already met and {colour} were barred by the colour limits; the others were needed in other matches, so the nearest lower score was used."
            )
        ),
        FloatReason::Blocked { met, colour, team } => bi!(
            lang,
            zh(
                "{who}（{from}分）与{opp}（{to}分）对阵：同分棋手中{met}人已相遇，{colour}人受先后手限制，{team}人同队，其余同分者须与他人编对，只能与近分者编对。"
            ),
            en(
                "{who} ({from} pts) plays {opp} ({to} pts): of the players on the same score {met} were already met, {colour} were barred by the colour limits and {team} are team-mates; the others were needed at other tables, so the nearest lower score was used."
            )
        ),
    }
}

/// Who took the bye and by which rule, in `lang` and `v`'s words.
fn bye_line(
    bye: &ByeNote,
    who: &str,
    crowded: bool,
    passed: bool,
    lang: Lang,
    v: Vocabulary,
) -> String {
    let (field, them, them_en) = (v.field_zh(), v.them(lang), v.them_en());
    let score = bye.score;
    let lowest = if v == Vocabulary::Teams {
        "队"
    } else {
        "棋手"
    };
    match bye.reason {
        ByeReason::Round1HighestNumber if crowded => bi!(
            lang,
            zh(
                "{who}轮空：首轮{field}为单数，任何人轮空其余{them}都有同队相遇，由同队相遇最少的最大号轮空。"
            ),
            en(
                "{who} has the bye: round 1 has an odd number of {them_en}, no bye leaves the rest free of team-mates to meet, and the highest number whose bye leaves the fewest takes it."
            )
        ),
        ByeReason::Round1Lot if crowded => bi!(
            lang,
            zh(
                "{who}轮空：首轮{field}为单数，抽签决定（任何人轮空其余{them}都有同队相遇，只在同队相遇最少的{them}中抽签）。"
            ),
            en(
                "{who} has the bye: round 1 has an odd number of {them_en}; drawn by lot among those whose bye leaves the fewest team-mates to meet (none leaves none)."
            )
        ),
        ByeReason::Round1HighestNumber if passed => bi!(
            lang,
            zh("{who}轮空：首轮{field}为单数，由其余{them}能全部合规编对的最大号轮空。"),
            en(
                "{who} has the bye: round 1 has an odd number of {them_en} and the highest number whose bye leaves a legal pairing for the rest takes it."
            )
        ),
        ByeReason::Round1Lot if passed => bi!(
            lang,
            zh(
                "{who}轮空：首轮{field}为单数，抽签决定（先抽中者轮空会使其余{them}无法全部合规编对）。"
            ),
            en(
                "{who} has the bye: round 1 has an odd number of {them_en}; drawn by lot among those whose bye leaves a legal pairing for the rest."
            )
        ),
        ByeReason::Round1HighestNumber => bi!(
            lang,
            zh("{who}轮空：首轮{field}为单数，最大号轮空。"),
            en(
                "{who} has the bye: round 1 has an odd number of {them_en} and the highest number takes it."
            )
        ),
        ByeReason::Round1Lot => bi!(
            lang,
            zh("{who}轮空：首轮{field}为单数，抽签决定。"),
            en("{who} has the bye: round 1 has an odd number of {them_en}; drawn by lot.")
        ),
        ByeReason::LowestScore => bi!(
            lang,
            zh("{who}（{score}分）轮空：{field}为单数，轮空给轮空次数最少者中积分最低的{lowest}。"),
            en(
                "{who} ({score} pts) has the bye: the field is odd and the bye goes to the lowest score among those with the fewest byes."
            )
        ),
        ByeReason::FewestByesAmongLowest => bi!(
            lang,
            zh("{who}（{score}分）轮空：{field}为单数，轮空给积分最低者中轮空次数最少的{lowest}。"),
            en(
                "{who} ({score} pts) has the bye: the field is odd and the bye goes to the fewest byes among the lowest scores."
            )
        ),
    }
}

/// Why `o` did not get the bye `who` took, in `lang` and `v`'s words.
fn pass_line(o: &str, who: &str, why: &PassReason, lang: Lang, v: Vocabulary) -> String {
    let them = v.them(lang);
    match why {
        PassReason::AlreadyHadBye { byes } => bi!(
            lang,
            zh("  {o}未轮空：已轮空{byes}次。"),
            en("  {o} not given the bye: already had {byes}.")
        ),
        PassReason::WouldBlockPairing => bi!(
            lang,
            zh("  {o}未轮空：若其轮空，其余{them}无法全部合规编对。"),
            en("  {o} not given the bye: the others could not all have been paired legally.")
        ),
        PassReason::MoreTeamMates => bi!(
            lang,
            zh("  {o}未轮空：若其轮空，其余{them}中须同队相遇的台数更多。"),
            en("  {o} not given the bye: the others would have had more team-mates to meet.")
        ),
        PassReason::BetterPairing => bi!(
            lang,
            zh(
                "  {o}未轮空：同分，但让{who}轮空时其余编对更好（更少跨分、分差更小、先后手更均衡、更少连续同向浮动，再按名次靠后者轮空）。"
            ),
            en(
                "  {o} not given the bye: same score, but the rest paired better with {who} out (fewer floats, nearer scores, more due colours, fewer repeated floats, then the lower place)."
            )
        ),
    }
}

/// Why `c.red` plays red at table `c.table` (`r`, `b`: the two players' labels), in
/// `lang` and `v`'s words (a team round: the match, and the team that moves first).
pub(crate) fn colour_line(c: &ColourNote, r: &str, b: &str, lang: Lang, v: Vocabulary) -> String {
    let t = v.table(c.table, lang);
    let red = v.plays_red(lang);
    let teams = v == Vocabulary::Teams;
    match c.step {
        ColourStep::HardLimit => bi!(
            lang,
            zh("{t} {r}{red}：反之将违反连三/多三限制。"),
            en(
                "{t}: {r} {red}; the other way round would break the three-in-a-row or colour-difference limit."
            )
        ),
        ColourStep::LateRoundsPriority => bi!(
            lang,
            zh("{t} {r}{red}：后几轮优先照顾分数较高一方的先后手。"),
            en("{t}: {r} {red}; in the last rounds the clearly higher score gets the colour due.")
        ),
        ColourStep::Difference => {
            let (first, second, game) = (v.first_zh(), v.second_zh(), v.game(lang));
            let diff = if teams {
                "matches moving first minus second"
            } else {
                "reds minus blacks"
            };
            bi!(
                lang,
                zh("{t} {r}{red}：其{first}{game}数减{second}{game}数少于{b}。"),
                en("{t}: {r} {red}; fewer {diff} than {b}.")
            )
        }
        ColourStep::Streak => {
            let (black, run) = (
                v.had_black(lang),
                if teams { "moving second" } else { "black" },
            );
            bi!(
                lang,
                zh("{t} {r}{red}：先后手数相同，{r}近来连续{black}。"),
                en("{t}: {r} {red}; equal colour counts, and {r} is on a run of {run}.")
            )
        }
        ColourStep::History { games_ago } => {
            let game = v.game(lang);
            let (had_red, had_black) = (v.had_red(lang), v.had_black(lang));
            let ago = match teams {
                false => crate::i18n::plural(games_ago, "game", "games"),
                true => crate::i18n::plural(games_ago, "match", "matches"),
            };
            let verb = if teams { "moved" } else { "had" };
            bi!(
                lang,
                zh(
                    "{t} {r}{red}：先后手记录从最近一{game}往前比较，倒数第{games_ago}{game}{r}{had_black}而{b}{had_red}。"
                ),
                en(
                    "{t}: {r} {red}; comparing colours back from the latest {game}, {ago} ago {r} {verb} {had_black} and {b} {had_red}."
                )
            )
        }
        ColourStep::TieRule(EqualColourTie::OddRoundLowerRed) => {
            let is_red = if teams { "moves first" } else { "is red" };
            bi!(
                lang,
                zh("{t} {r}{red}：先后手记录相同，单数轮次小号先走、双数轮次大号先走。"),
                en(
                    "{t}: {r} {red}; identical colour histories, so the lower number {is_red} in odd rounds and the higher in even rounds."
                )
            )
        }
        ColourStep::TieRule(EqualColourTie::NumberSumParity) => {
            let is_red = if teams { "moves first" } else { "is red" };
            bi!(
                lang,
                zh("{t} {r}{red}：先后手记录相同，两号之和为奇数小号先走、偶数大号先走。"),
                en(
                    "{t}: {r} {red}; identical colour histories, so with an odd sum of numbers the lower {is_red}, with an even sum the higher."
                )
            )
        }
        ColourStep::Round1 => bi!(
            lang,
            zh("{t} {r}{red}：按首轮先后手规定。"),
            en("{t}: {r} {red} by the first-round colour rule.")
        ),
    }
}
