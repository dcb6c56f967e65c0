//! The large views' JSON written as text (`Json::Text`, what `--format json` prints)
//! reads byte for byte as the value they build (`Json::Build`) pretty-printed: the
//! standings, the crosstable and the wall chart of simulated events under randomised
//! rulebooks. Written as text, they make no table rows (the JSON never shows them).

use qiwang::pairing::testing::synthetic_mid_event;
use qiwang::report::{Format, Json, Report};
use qiwang::rulebook::Lang;
use qiwang::views::{RoundSheets, SheetKind};

fn same(what: &str, built: &Report, text: &Report) {
    assert!(built.json_text.is_none() && !built.json.is_null(), "{what}");
    assert!(text.json_text.is_some() && text.json.is_null(), "{what}");
    assert_eq!(
        built.render(Format::Json),
        text.render(Format::Json),
        "{what}"
    );
}

fn sheet_json(sheets: &RoundSheets) -> String {
    sheets.render(Format::Json)
}

#[test]
fn the_json_written_as_text_reads_as_the_value_built() {
    for seed in [3, 17, 2026] {
        let sim = synthetic_mid_event(40 + seed as usize % 7, 3, 5, seed);
        let (event, rules, pool) = (&sim.event, &sim.rules, &sim.group);
        for lang in [Lang::Zh, Lang::En] {
            let st = qiwang::standings::compute_standings(event, rules, pool, None);
            let view = |json| qiwang::views::standings(event, rules, &st, lang, json);
            same("standings", &view(Json::Build), &view(Json::Text));
            for round in [None, Some(2)] {
                let view = |json| qiwang::views::crosstable(event, rules, pool, round, lang, json);
                same("crosstable", &view(Json::Build), &view(Json::Text));
                let pools = [pool.clone()];
                let wall = |json| {
                    qiwang::views::round_sheets(
                        event,
                        rules,
                        &pools,
                        round,
                        SheetKind::Wall,
                        lang,
                        json,
                    )
                    .unwrap()
                };
                let (built, text) = (wall(Json::Build), wall(Json::Text));
                same("wall", &built.reports[0], &text.reports[0]);
                assert_eq!(sheet_json(&built), sheet_json(&text));
                // The page is made from the reports only when asked for.
                let page = wall(Json::LeaveOut).render(Format::Html);
                assert_eq!(built.render(Format::Html), page);
                assert!(
                    page.contains("A4 landscape") && page.contains("<td"),
                    "{page}"
                );
            }
        }
    }
}
