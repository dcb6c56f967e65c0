//! The TOML spelling of every setting enum, with the Chinese aliases regulations use.
//!
//! Owns the name tables that parsing and `to_effective_toml` share, so the two can never
//! disagree. The names equal the serde names of the types (a test checks it).

use super::types::*;
use crate::i18n::Lang;
use crate::model::{Gender, GradeScale, Relax};

/// A setting enum written in the rulebook as a string.
pub(super) trait Named: Sized + Copy + PartialEq + 'static {
    /// Every accepted canonical name with its value, in documentation order.
    const NAMES: &'static [(&'static str, Self)];
    /// Extra spellings accepted on input (never printed).
    const ALIASES: &'static [(&'static str, Self)] = &[];

    /// The canonical name, as printed by `to_effective_toml`.
    fn name(self) -> &'static str;

    fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        Self::NAMES
            .iter()
            .chain(Self::ALIASES)
            .find(|(n, _)| *n == text)
            .map(|(_, v)| *v)
    }

    fn canonical_names() -> Vec<&'static str> {
        Self::NAMES.iter().map(|(n, _)| *n).collect()
    }

    /// The name `rules show` writes in `lang`: in Chinese the value's first alias (the
    /// regulations' word, 累进分, which reads back the same), else the canonical name.
    fn name_in(self, lang: Lang) -> &'static str {
        let zh = Self::ALIASES
            .iter()
            .find(|(_, v)| *v == self)
            .map_or(self.name(), |(alias, _)| *alias);
        lang.pick(zh, self.name())
    }
}

/// Implements [`Named`] from one list, with an exhaustive `match` for `name` so a new
/// variant cannot be left without a name.
macro_rules! named {
    ($ty:ty { $($name:literal => $var:path),+ $(,)? } $(aliases { $($alias:literal => $avar:expr),+ $(,)? })?) => {
        impl Named for $ty {
            const NAMES: &'static [(&'static str, Self)] = &[$(($name, $var)),+];
            $(const ALIASES: &'static [(&'static str, Self)] = &[$(($alias, $avar)),+];)?
            fn name(self) -> &'static str {
                #[allow(unreachable_patterns)]
                match self {
                    $($var => $name,)+
                }
            }
        }
    };
}

named!(Lang { "zh" => Lang::Zh, "en" => Lang::En });

named!(Gender { "male" => Gender::Male, "female" => Gender::Female }
    aliases { "男" => Gender::Male, "女" => Gender::Female });

named!(GradeScale { "6-3-3" => GradeScale::SixThreeThree, "5-4-3" => GradeScale::FiveFourThree }
    aliases { "六三制" => GradeScale::SixThreeThree, "五四制" => GradeScale::FiveFourThree });

named!(Seeding {
    "random_draw" => Seeding::RandomDraw,
    "rating_then_lot" => Seeding::RatingThenLot,
    "sheet" => Seeding::Sheet,
});

named!(FormatKind {
    "swiss" => FormatKind::Swiss,
    "round_robin" => FormatKind::RoundRobin,
    "knockout" => FormatKind::Knockout,
} aliases {
    "积分编排制" => FormatKind::Swiss,
    "循环赛" => FormatKind::RoundRobin,
    "单循环" => FormatKind::RoundRobin,
    "淘汰赛" => FormatKind::Knockout,
});

named!(FirstColour {
    "seed" => FirstColour::Seed,
    "draw" => FirstColour::Draw,
});

named!(TiebreakStage {
    "rapid" => TiebreakStage::Rapid,
    "blitz" => TiebreakStage::Blitz,
    "armageddon" => TiebreakStage::Armageddon,
    "lot" => TiebreakStage::Lot,
} aliases {
    "快棋" => TiebreakStage::Rapid,
    "超快棋" => TiebreakStage::Blitz,
    "和棋判黑胜" => TiebreakStage::Armageddon,
    "抽签" => TiebreakStage::Lot,
});

named!(WithdrawnResults {
    "half_rule" => WithdrawnResults::HalfRule,
    "keep" => WithdrawnResults::Keep,
    "annul" => WithdrawnResults::Annul,
});

named!(CarriedResults {
    "none" => CarriedResults::None,
    "finalists" => CarriedResults::Finalists,
    "all" => CarriedResults::All,
});

named!(Round1Pairing {
    "adjacent" => Round1Pairing::Adjacent,
    "halves" => Round1Pairing::Halves,
    "fold_first_last" => Round1Pairing::FoldFirstLast,
    "random" => Round1Pairing::Random,
});

named!(Round1Colour {
    "odd_board_lower_red" => Round1Colour::OddBoardLowerRed,
    "upper_half_red" => Round1Colour::UpperHalfRed,
    "all_lower_red" => Round1Colour::AllLowerRed,
    "all_higher_red" => Round1Colour::AllHigherRed,
    "by_lot" => Round1Colour::ByLot,
});

named!(Round1Bye {
    "highest_number" => Round1Bye::HighestNumber,
    "lot" => Round1Bye::Lot,
});

named!(WithinGroup {
    "adjacent_colour_rows" => WithinGroup::AdjacentColourRows,
    "adjacent" => WithinGroup::Adjacent,
    "fold_top_bottom" => WithinGroup::FoldTopBottom,
});

named!(EqualColourTie {
    "odd_round_lower_red" => EqualColourTie::OddRoundLowerRed,
    "number_sum_parity" => EqualColourTie::NumberSumParity,
});

named!(LateResult {
    "forfeit" => LateResult::Forfeit,
    "loss" => LateResult::Loss,
});

named!(TeamAvoidance {
    "off" => TeamAvoidance::Off,
    "round1_only" => TeamAvoidance::Round1Only,
    "all_rounds" => TeamAvoidance::AllRounds,
});

named!(Relax {
    "colour" => Relax::Colour,
    "team" => Relax::Team,
    "rematch" => Relax::Rematch,
});

named!(ByeChoice {
    "lowest_score_never_byed" => ByeChoice::LowestScoreNeverByed,
    "lowest_score_fewest_byes" => ByeChoice::LowestScoreFewestByes,
});

// docs/rules.md §5.3: the Chinese names are the ones regulations print.
named!(Tiebreak {
    "opp_score" => Tiebreak::OppScore,
    "progressive" => Tiebreak::Progressive,
    "wins" => Tiebreak::Wins,
    "fouls" => Tiebreak::Fouls,
    "black_games" => Tiebreak::BlackGames,
    "black_wins" => Tiebreak::BlackWins,
    "red_wins" => Tiebreak::RedWins,
    "direct_encounter" => Tiebreak::DirectEncounter,
    "median_opp" => Tiebreak::MedianOpp,
    "cut_opp" => Tiebreak::CutOpp,
    "sonneborn_berger" => Tiebreak::SonnebornBerger,
    "mutual" => Tiebreak::Mutual,
} aliases {
    "对手分" => Tiebreak::OppScore,
    "累进分" => Tiebreak::Progressive,
    "累积分" => Tiebreak::Progressive,
    "胜局" => Tiebreak::Wins,
    "犯规" => Tiebreak::Fouls,
    "后走局数" => Tiebreak::BlackGames,
    "后手局" => Tiebreak::BlackGames,
    "后手局数" => Tiebreak::BlackGames,
    "后手数" => Tiebreak::BlackGames,
    "后走胜局" => Tiebreak::BlackWins,
    "后胜局" => Tiebreak::BlackWins,
    "先手胜局" => Tiebreak::RedWins,
    "直胜" => Tiebreak::DirectEncounter,
    "中间分" => Tiebreak::MedianOpp,
    "扣除对手分" => Tiebreak::CutOpp,
    "小分" => Tiebreak::SonnebornBerger,
    "相互间成绩" => Tiebreak::Mutual,
    "相互间积分" => Tiebreak::Mutual,
});

named!(Fallback {
    "prev_round_cumulative" => Fallback::PrevRoundCumulative,
    "drop_rounds_from_first" => Fallback::DropRoundsFromFirst,
    "prev_round_rank" => Fallback::PrevRoundRank,
    "none" => Fallback::None,
});

named!(ByeOppScore {
    "lowest_positive" => ByeOppScore::LowestPositive,
    "lowest_overall" => ByeOppScore::LowestOverall,
    "zero" => ByeOppScore::Zero,
});

named!(TieResolution {
    "shared" => TieResolution::Shared,
    "lot" => TieResolution::Lot,
    "number" => TieResolution::Number,
});

named!(UnresolvedFirst {
    "playoff" => UnresolvedFirst::Playoff,
    "lot" => UnresolvedFirst::Lot,
    "number" => UnresolvedFirst::Number,
});

named!(PenaltyInProgressive {
    "none" => PenaltyInProgressive::None,
    "from_round" => PenaltyInProgressive::FromRound,
});

named!(WithdrawnPrizes {
    "ranked" => WithdrawnPrizes::Ranked,
    "unranked" => WithdrawnPrizes::Unranked,
    "unranked_if_no_games" => WithdrawnPrizes::UnrankedIfNoGames,
});

named!(QualificationTies {
    "all_qualify" => QualificationTies::AllQualify,
    "next_tiebreak" => QualificationTies::NextTiebreak,
    "lot" => QualificationTies::Lot,
    "playoff" => QualificationTies::Playoff,
});

named!(SharedMoney {
    "split" => SharedMoney::Split,
    "each_higher" => SharedMoney::EachHigher,
    "next_key" => SharedMoney::NextKey,
});

named!(MultiplePrizes {
    "take_all" => MultiplePrizes::TakeAll,
    "higher_only" => MultiplePrizes::HigherOnly,
});

named!(TeamMetric {
    "rank_sum" => TeamMetric::RankSum,
    "point_sum" => TeamMetric::PointSum,
});

named!(ShortTeam {
    "exclude" => ShortTeam::Exclude,
    "pad" => ShortTeam::Pad,
});

named!(TeamTiebreak {
    "best_individual_rank" => TeamTiebreak::BestIndividualRank,
    "opp_score_sum" => TeamTiebreak::OppScoreSum,
    "point_sum" => TeamTiebreak::PointSum,
    "lot" => TeamTiebreak::Lot,
} aliases {
    "个人最好名次" => TeamTiebreak::BestIndividualRank,
    "对手分之和" => TeamTiebreak::OppScoreSum,
    "积分之和" => TeamTiebreak::PointSum,
    "抽签" => TeamTiebreak::Lot,
});

/// `ranking.preset`: the two tiebreak chains of CXA 2011 §14.3 (docs/rules.md §5.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Preset {
    /// §14.3.1: 对手分、胜局、犯规、后走局数 → 比较前一轮成绩.
    Cxa1431,
    /// §14.3.2: 累进分、胜局、犯规、后走局数 → 去除第一轮得分….
    Cxa1432,
}

named!(Preset {
    "cxa-14.3.1" => Preset::Cxa1431,
    "cxa-14.3.2" => Preset::Cxa1432,
});

impl Preset {
    /// The tiebreak keys after 积分 and the fallback once they are exhausted.
    pub(super) fn chain(self) -> (Vec<Tiebreak>, Fallback) {
        match self {
            Preset::Cxa1431 => (
                vec![
                    Tiebreak::OppScore,
                    Tiebreak::Wins,
                    Tiebreak::Fouls,
                    Tiebreak::BlackGames,
                ],
                Fallback::PrevRoundCumulative,
            ),
            Preset::Cxa1432 => (
                vec![
                    Tiebreak::Progressive,
                    Tiebreak::Wins,
                    Tiebreak::Fouls,
                    Tiebreak::BlackGames,
                ],
                Fallback::DropRoundsFromFirst,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Serialize, de::DeserializeOwned};

    /// Every canonical name must be the serde name, so the JSON state and the TOML agree.
    fn serde_names_agree<T: Named + Serialize + DeserializeOwned + std::fmt::Debug>() {
        for (name, value) in T::NAMES {
            assert_eq!(serde_json::to_value(value).unwrap(), *name, "{value:?}");
            assert_eq!(value.name(), *name);
            assert_eq!(T::parse(name), Some(*value));
        }
    }

    #[test]
    fn canonical_names_are_serde_names() {
        serde_names_agree::<Lang>();
        serde_names_agree::<Gender>();
        serde_names_agree::<GradeScale>();
        serde_names_agree::<Seeding>();
        serde_names_agree::<FormatKind>();
        serde_names_agree::<FirstColour>();
        serde_names_agree::<TiebreakStage>();
        serde_names_agree::<WithdrawnResults>();
        serde_names_agree::<CarriedResults>();
        serde_names_agree::<Round1Pairing>();
        serde_names_agree::<Round1Colour>();
        serde_names_agree::<Round1Bye>();
        serde_names_agree::<WithinGroup>();
        serde_names_agree::<EqualColourTie>();
        serde_names_agree::<TeamAvoidance>();
        serde_names_agree::<LateResult>();
        serde_names_agree::<ByeChoice>();
        serde_names_agree::<Relax>();
        serde_names_agree::<Tiebreak>();
        serde_names_agree::<Fallback>();
        serde_names_agree::<ByeOppScore>();
        serde_names_agree::<TieResolution>();
        serde_names_agree::<UnresolvedFirst>();
        serde_names_agree::<SharedMoney>();
        serde_names_agree::<MultiplePrizes>();
        serde_names_agree::<TeamMetric>();
        serde_names_agree::<ShortTeam>();
        serde_names_agree::<TeamTiebreak>();
        serde_names_agree::<PenaltyInProgressive>();
        serde_names_agree::<WithdrawnPrizes>();
        serde_names_agree::<QualificationTies>();
    }

    #[test]
    fn chinese_tiebreak_aliases() {
        let cases = [
            ("对手分", Tiebreak::OppScore),
            ("累进分", Tiebreak::Progressive),
            ("累积分", Tiebreak::Progressive),
            ("胜局", Tiebreak::Wins),
            ("犯规", Tiebreak::Fouls),
            ("后走局数", Tiebreak::BlackGames),
            ("后手局", Tiebreak::BlackGames),
            ("后走胜局", Tiebreak::BlackWins),
            ("后胜局", Tiebreak::BlackWins),
            ("先手胜局", Tiebreak::RedWins),
            ("直胜", Tiebreak::DirectEncounter),
            ("中间分", Tiebreak::MedianOpp),
            ("扣除对手分", Tiebreak::CutOpp),
            ("小分", Tiebreak::SonnebornBerger),
        ];
        for (alias, want) in cases {
            assert_eq!(Tiebreak::parse(alias), Some(want), "{alias}");
        }
        assert_eq!(Tiebreak::parse("等级分"), None);
    }

    /// `rules show` in Chinese writes every tiebreak by a Chinese name that reads back.
    #[test]
    fn every_tiebreak_has_a_chinese_name_that_reads_back() {
        fn check<T: Named + std::fmt::Debug>() {
            for (key, value) in T::NAMES {
                let zh = value.name_in(Lang::Zh);
                assert!(!zh.is_ascii(), "{key} has no Chinese name");
                assert_eq!(T::parse(zh), Some(*value), "{zh}");
                assert_eq!(value.name_in(Lang::En), *key);
            }
        }
        check::<Tiebreak>();
        check::<TeamTiebreak>();
        assert_eq!(Tiebreak::Progressive.name_in(Lang::Zh), "累进分");
        assert_eq!(Tiebreak::DirectEncounter.name_in(Lang::Zh), "直胜");
    }

    #[test]
    fn preset_1431_is_the_default_chain() {
        let default = RankingRules::default();
        assert_eq!(
            Preset::Cxa1431.chain(),
            (default.tiebreaks, default.fallback)
        );
    }
}

named!(TeamFormat {
    "swiss" => TeamFormat::Swiss,
    "round_robin" => TeamFormat::RoundRobin,
} aliases {
    "积分编排" => TeamFormat::Swiss,
    "循环" => TeamFormat::RoundRobin,
});

named!(TeamMatchTiebreak {
    "game_points" => TeamMatchTiebreak::GamePoints,
    "direct_encounter" => TeamMatchTiebreak::DirectEncounter,
    "opp_match_points" => TeamMatchTiebreak::OppMatchPoints,
    "board_order" => TeamMatchTiebreak::BoardOrder,
    "match_wins" => TeamMatchTiebreak::MatchWins,
} aliases {
    "局分" => TeamMatchTiebreak::GamePoints,
    "直胜" => TeamMatchTiebreak::DirectEncounter,
    "对手场分" => TeamMatchTiebreak::OppMatchPoints,
    "台次分" => TeamMatchTiebreak::BoardOrder,
    "胜场" => TeamMatchTiebreak::MatchWins,
});

named!(TiebreakDecider {
    "armageddon" => TiebreakDecider::Armageddon,
    "lot" => TiebreakDecider::Lot,
} aliases {
    "和棋黑胜" => TiebreakDecider::Armageddon,
    "抽签" => TiebreakDecider::Lot,
});
