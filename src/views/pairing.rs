//! The pairing sheet (对阵表) that goes on the wall.

use crate::i18n::bi;
use crate::model::{Event, GroupId, Pairing, PlayerId};
use crate::report::{Json, Report, Section};
use crate::rulebook::{Lang, Rulebook};
use serde_json::json;

/// Round `round` of `pool`: table, red (number, name, unit, score), result, black, with
/// the bye last. Scores are those before the round. `json` says whether to build
/// [`Report::json`] (see [`Json`]).
pub fn pairing_sheet(
    event: &Event,
    rules: &Rulebook,
    pool: &GroupId,
    round: u32,
    lang: Lang,
    json: Json,
) -> Report {
    let mut report = Report::new(format!("{} — {}", rules.event.name, rules.group_name(pool)));
    report.lang = lang.code().into();
    report.subtitle.push(format!(
        "{}{}{}",
        lang.pick("第", "Round "),
        round,
        lang.pick("轮对阵表", " pairings")
    ));
    // When the round is played (the rulebook's `event.round_times`), then the conduct rules.
    report.subtitle.extend(super::round_time(rules, round));
    report.subtitle.push(conduct_line(rules, pool, lang));
    report.footer.extend(super::signature_line(rules, lang));
    let totals = crate::standings::scores_before(event, rules, pool, round);
    let Some(r) = event.group(pool).and_then(|g| g.round(round)) else {
        report.json = json!(null);
        return report;
    };
    // Each player's score found through a table indexed by id, not the map: two
    // lookups a game, 50,000 games a round (100,000 players).
    let ids: Vec<PlayerId> = totals.keys().copied().collect();
    let rows = crate::scoring::Rows::new(&ids);
    let scores: Vec<crate::model::Points> = totals.values().copied().collect();
    let cell = |id: PlayerId| {
        let p = event.player(id);
        (
            p.map(super::number_of).unwrap_or_default(),
            // `name_of`, without looking the player up again.
            p.map_or_else(|| format!("#{id}"), |p| p.name.clone()),
            p.map(|p| p.unit.clone()).unwrap_or_default(),
            rows.of(id)
                .and_then(|row| scores.get(row))
                .copied()
                .unwrap_or_default(),
        )
    };
    let mut section = Section::new(
        "",
        vec![
            lang.pick("台号", "table").into(),
            lang.pick("序号", "no.").into(),
            lang.pick("红方", "red").into(),
            lang.pick("单位", "unit").into(),
            lang.pick("积分", "pts").into(),
            lang.pick("结果", "result").into(),
            lang.pick("积分", "pts").into(),
            lang.pick("序号", "no.").into(),
            lang.pick("黑方", "black").into(),
            lang.pick("单位", "unit").into(),
        ],
    )
    .right(&[0, 1, 4, 6, 7]);
    let want_json = json.wanted();
    let mut tables = Vec::new();
    for pairing in &r.pairings {
        match pairing {
            Pairing::Game {
                table,
                red,
                black,
                result,
            } => {
                let (rn, rname, runit, rs) = cell(*red);
                let (bn, bname, bunit, bs) = cell(*black);
                let res = result
                    .map(|r| super::labels::result_label(&r, &rules.conduct, lang))
                    .unwrap_or_default();
                if want_json {
                    let game = json!({
                        "table": table,
                        "red": { "id": red, "name": rname, "score": rs },
                        "black": { "id": black, "name": bname, "score": bs },
                        "result": result.map(|r| r.outcome.token()),
                        "red_fouls": result.map(|r| r.red_fouls),
                        "black_fouls": result.map(|r| r.black_fouls),
                    });
                    tables.push(super::with_hall(game, rules, pool));
                }
                section.push(vec![
                    super::table_label(rules, pool, *table),
                    rn,
                    rname,
                    runit,
                    rs.to_string(),
                    res,
                    bs.to_string(),
                    bn,
                    bname,
                    bunit,
                ]);
            }
            Pairing::Bye { player } => {
                let (n, name, unit, s) = cell(*player);
                section.push(vec![
                    String::new(),
                    n,
                    name.clone(),
                    unit,
                    s.to_string(),
                    lang.pick("轮空", "bye").into(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]);
                if !want_json {
                    continue;
                }
                tables.push(json!({ "bye": { "id": player, "name": name, "score": s } }));
            }
        }
    }
    report.sections.push(section);
    // docs/rules.md §2.5: the rules relaxed for want of a legal pairing, above the
    // signature line.
    let relaxed: Vec<_> = event
        .group(pool)
        .map(|g| {
            g.relaxed
                .iter()
                .filter(|r| r.round == round)
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let order = match event.group(pool).and_then(|g| g.relax_given(round)) {
        Some(rules) => crate::pairing::RelaxOrder::Given(rules),
        None => crate::pairing::RelaxOrder::Rulebook,
    };
    let notes =
        crate::pairing::relaxation_lines(&relaxed, order, lang, &|id| super::name_of(event, id));
    report.footer.splice(0..0, notes.iter().cloned());
    if want_json {
        report.json = json!({
            "event": rules.event.name,
            "group": pool,
            "round": round,
            "pairings": tables,
        });
        if let (false, serde_json::Value::Object(map)) = (notes.is_empty(), &mut report.json) {
            map.insert("notes".into(), json!(notes));
        }
    }
    report
}

/// The rules players must know at the board, printed under the title of the wall sheet:
/// time control, the lateness limit and the foul limit (Jinhua 补充规定 六、八; Dongguan
/// 十五.5、十五.7).
fn conduct_line(rules: &Rulebook, pool: &GroupId, lang: Lang) -> String {
    let c = &rules.conduct;
    let time = rules
        .group(pool)
        .and_then(|g| g.time_control.clone())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| rules.event.time_control.clone());
    let mut parts = Vec::new();
    if !time.is_empty() {
        parts.push(format!("{}{time}", lang.pick("用时：", "time control: ")));
    }
    // The regulation's own words: Jinhua 补充规定 八 迟到10分钟作弃权; Dongguan 十五.5
    // 迟到15分钟将判负.
    let loss = c.late_result == crate::rulebook::LateResult::Loss;
    let minutes = |m| crate::i18n::plural(m, "minute", "minutes");
    parts.push(match (c.late_forfeit_minutes, loss) {
        (0, _) => lang
            .pick("开赛未到场者按弃权处理", "absent at the start: forfeit")
            .to_string(),
        (m, false) => bi!(
            lang,
            zh("迟到{m}分钟作弃权"),
            en("{} late: forfeit", minutes(m))
        ),
        (m, true) => bi!(
            lang,
            zh("迟到{m}分钟将判负"),
            en("{} late: loss", minutes(m))
        ),
    });
    if c.fouls_to_lose_game > 0 {
        let n = c.fouls_to_lose_game;
        parts.push(bi!(
            lang,
            zh("单局犯规{n}次判负"),
            en(
                "{}",
                crate::i18n::plural(n, "foul in a game loses it", "fouls in a game lose it")
            )
        ));
    }
    parts.join(lang.pick("；", "; "))
}
