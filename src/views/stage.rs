//! A pool with a final stage (docs/rules.md §16.6, §16.7) in the crosstable: the Swiss
//! rounds as the usual crosstable, then the stage's own sheet (the knockout's bracket, or
//! the round robin's square 循环赛成绩表 of the finalists), and a heading that counts the
//! Swiss rounds and the stage's rounds each in its own words.

use super::standings::crosstable_report as swiss_report;
use crate::i18n::bi;
use crate::model::{Event, GroupId};
use crate::report::{Json, Report};
use crate::rulebook::{CarriedResults, Lang, Rulebook, system_name};
use crate::standings::{Crosstable, Standings, compute_standings, crosstable_of, stage_table};

/// The heading of a pool with a final stage after `after_round` (`open` tables without a
/// result): the Swiss rounds out of the Swiss stage's, then the stage's rounds out of its
/// own (a knockout's count is not known in advance, so none is given). `None` for a pool
/// without a final stage.
pub(super) fn subtitle(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    after_round: u32,
    open: u32,
    lang: Lang,
) -> Option<String> {
    let swiss = rules.stage_after(pool)?;
    let stage = rules.group(pool)?.format.final_stage?;
    let name = rules.group_name(pool);
    let what = system_name(stage.format, stage.cycles, lang);
    let top = stage.finalists;
    if after_round == 0 {
        return Some(bi!(
            lang,
            zh("{name} 尚未开赛（积分编排制共{swiss}轮，之后前{top}名{what}）"),
            en("{name} before round 1 of {swiss} (Swiss; then the top {top} play a {what})")
        ));
    }
    let tables = crate::i18n::plural(open, "table", "tables");
    if after_round <= swiss {
        return Some(match open {
            0 => bi!(
                lang,
                zh("{name} 第{after_round}轮后（积分编排制共{swiss}轮，之后前{top}名{what}）"),
                en(
                    "{name} after round {after_round} of {swiss} (Swiss; then the top {top} play a {what})"
                )
            ),
            _ => bi!(
                lang,
                zh(
                    "{name} 第{after_round}轮进行中：{open} 台尚无成绩（积分编排制共{swiss}轮，之后前{top}名{what}）"
                ),
                en(
                    "{name} during round {after_round} of {swiss}: {tables} without a result yet (Swiss; then the top {top} play a {what})"
                )
            ),
        });
    }
    let k = after_round - swiss;
    let of = match stage.is_round_robin() {
        true => {
            let total = crate::schedule::stage::stage_rounds(event, rules, pool, stage);
            bi!(lang, zh("（共{total}轮）"), en(" of {total}"))
        }
        false => String::new(),
    };
    Some(match open {
        0 => bi!(
            lang,
            zh("{name} 积分编排制{swiss}轮已赛完；决赛阶段{what}第{k}轮后{of}"),
            en("{name}: Swiss, {swiss} rounds played; final stage ({what}) after round {k}{of}")
        ),
        _ => bi!(
            lang,
            zh(
                "{name} 积分编排制{swiss}轮已赛完；决赛阶段{what}第{k}轮进行中：{open} 台尚无成绩{of}"
            ),
            en(
                "{name}: Swiss, {swiss} rounds played; final stage ({what}) during round {k}{of}: {tables} without a result yet"
            )
        ),
    })
}

/// The crosstable of a pool whose final stage has begun: the Swiss crosstable of its
/// rounds, then the stage's sheet. `None` for any other pool, or before the stage.
pub(super) fn crosstable_report(
    event: &Event,
    rules: &Rulebook,
    table: &Crosstable,
    lang: Lang,
    json: Json,
) -> Option<Report> {
    let pool = &table.group;
    let swiss = rules.stage_after(pool)?;
    let stage = rules.group(pool)?.format.final_stage?;
    if table.after_round <= swiss {
        return None;
    }
    let swiss_table = crosstable_of(
        event,
        rules,
        &compute_standings(event, rules, pool, Some(swiss)),
    );
    // The two stages' values are put together below: built, never written as text.
    let json = json.built();
    let mut report = swiss_report(event, rules, &swiss_table, lang, json);
    for s in &mut report.sections {
        s.title = lang.pick("积分编排制", "Swiss stage").into();
    }
    let what = system_name(stage.format, stage.cycles, lang);
    let top = stage.finalists;
    let final_report = if stage.is_round_robin() {
        let (_, square) = stage_table(event, rules, pool, Some(table.after_round))?;
        let mut r = super::square::square_report(event, rules, &square, lang, json);
        let carried = match stage.carried {
            CarriedResults::None => lang.pick(
                "预赛成绩不带入：积分只计决赛对局",
                "no Swiss result carried: the points are the final's games only",
            ),
            CarriedResults::Finalists => lang.pick(
                "带入预赛中决赛选手之间的对局：与决赛对局同列一格，计入积分",
                "the Swiss games between finalists are carried: they share the cell with the final's games and count in the points",
            ),
            CarriedResults::All => lang.pick(
                "预赛成绩全部带入：积分含预赛全部对局（与未进决赛者的对局不在表中）",
                "every Swiss result is carried: the points include every Swiss game (those against players outside the final are not in the table)",
            ),
        };
        let numbers = lang.pick(
            "序号为决赛序号：决赛选手按预赛名次编为 1 至 N 号",
            "no. is the final's number: the finalists numbered 1 to N by their Swiss places",
        );
        for s in &mut r.sections {
            s.notes.extend(r.subtitle.iter().skip(1).cloned());
            s.notes.push(numbers.into());
            s.notes.push(carried.into());
        }
        r
    } else {
        super::bracket::bracket_report(event, rules, pool, table.after_round, lang, json)
    };
    for mut s in final_report.sections {
        s.title = bi!(
            lang,
            zh("决赛阶段：前{top}名{what}"),
            en("Final stage: the top {top}, {what}")
        );
        report.sections.push(s);
    }
    report.subtitle = vec![super::standings::subtitle(
        event,
        rules,
        pool,
        table.after_round,
        lang,
    )];
    if json.wanted() {
        report.json = serde_json::json!({ "swiss": report.json, "final": final_report.json });
    }
    Some(report)
}

/// The note under the standings of a pool whose final stage has begun: who is placed by
/// which stage, and what the 积分 column holds for the finalists. `None` otherwise.
pub(super) fn standings_note(rules: &Rulebook, st: &Standings, lang: Lang) -> Option<String> {
    let swiss = rules.stage_after(&st.group)?;
    let stage = rules.group(&st.group)?.format.final_stage?;
    if st.after_round <= swiss {
        return None;
    }
    let top = stage.finalists;
    let what = system_name(stage.format, stage.cycles, lang);
    Some(bi!(
        lang,
        zh(
            "前{top}名按决赛阶段（{what}）的名次排列，积分列仍为预赛积分（决赛成绩见成绩交叉表）；其余棋手按预赛名次。"
        ),
        en(
            "The top {top} are placed by the final stage ({what}); their points column keeps the Swiss points (the final's results are in the crosstable); everyone else by the Swiss ranking."
        )
    ))
}
