//! Messages that once said something other than what happened: each names what the
//! user typed and says what to do.

use crate::common::{Run, event_with, root};
use std::path::PathBuf;
use tempfile::TempDir;

/// The Jinhua event with its registrations, the 青少年组 (youth) paired for round 1 with
/// seed 1: 何磊 and 高旭 at table 40, 陆磊 and 唐旭 at 41; 于一鸣 is in the 成人组 (adult).
fn jinhua_round_1() -> (TempDir, PathBuf) {
    let (tmp, ev) = event_with(
        &root("rules/jinhua-2018.toml"),
        Some(&root("examples/jinhua-2018/registrations.csv")),
    );
    Run::on_event(&ev, &["pair", "--group", "youth", "--seed", "1"]).check();
    (tmp, ev)
}

/// `pairing set` names a player of another group by the group, and a player named twice
/// by name, not by registration id; `pairing swap` finds the group of two named players.
#[test]
fn hand_edits_name_players_and_find_their_group() {
    let (_tmp, ev) = jinhua_round_1();
    Run::on_event(
        &ev,
        &[
            "--lang",
            "zh",
            "pairing",
            "set",
            "40",
            "何磊",
            "于一鸣",
            "--force",
        ],
    )
    .status(3)
    .stderr_has("组别 `青少年组` 中没有名为 `于一鸣` 的棋手：`于一鸣` 在组别 `成人组`")
    .check();
    Run::on_event(
        &ev,
        &[
            "--lang",
            "en",
            "pairing",
            "set",
            "40",
            "何磊",
            "于一鸣",
            "--force",
        ],
    )
    .status(3)
    .stderr_has("no player named `于一鸣` in group `youth`: `于一鸣` is in group `adult`")
    .check();
    Run::on_event(
        &ev,
        &[
            "--lang", "zh", "pairing", "set", "40", "何磊", "何磊", "--force",
        ],
    )
    .status(3)
    .stderr_has("棋手 `何磊(1)` 不能与自己对阵")
    .check();
    Run::on_event(
        &ev,
        &[
            "--lang", "en", "pairing", "set", "40", "何磊", "何磊", "--force",
        ],
    )
    .status(3)
    .stderr_has("player `何磊(1)` cannot be paired against themself")
    .check();
    // Both in the 青少年组: no `--group` needed.
    let sheet = Run::on_event(&ev, &["pairing", "swap", "何磊", "唐旭"])
        .check()
        .stdout;
    let table = |n: &str| {
        sheet
            .lines()
            .find(|l| l.contains(&format!(" {n} ┆")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        table("40").contains("唐旭") && table("41").contains("何磊"),
        "{sheet}"
    );
    // Players of two groups: no group makes the swap, so both groups are named.
    Run::on_event(&ev, &["pairing", "swap", "何磊", "于一鸣"])
        .status(3)
        .stderr_has("`何磊(1)` 在组别 `青少年组`，`于一鸣` 在组别 `成人组`")
        .check();
}

/// `player edit --name` to the name of a player of the same unit is not an import: no
/// "delete the duplicate row"; the sheet's duplicate still is one.
#[test]
fn a_duplicate_name_by_hand_is_not_a_row_to_delete() {
    let (_tmp, ev) = jinhua_round_1();
    // 邓阳东 (29) and 洪辉航 (37) are both of 浦江县丰安棋校.
    Run::on_event(&ev, &["--lang", "zh", "player", "edit", "37", "--name", "邓阳东"])
        .status(3)
        .stderr_has("已在已报名棋手 29（`邓阳东`）出现；同一单位不能有两名同名棋手：若是同一人，他已经报名；若是两人，请改用能区分两人的姓名")
        .stderr_lacks("请删除重复的行")
        .check();
    Run::on_event(
        &ev,
        &["--lang", "en", "player", "edit", "37", "--name", "邓阳东"],
    )
    .status(3)
    .stderr_has("if two players, give a name that tells them apart")
    .stderr_lacks("remove the duplicate row")
    .check();
    let csv = ev.parent().unwrap().join("again.csv");
    std::fs::write(
        &csv,
        "姓名,单位,组别,性别\n邓阳东,浦江县丰安棋校,少儿精英组,男\n",
    )
    .unwrap();
    Run::on_event(
        &ev,
        &["--lang", "zh", "import", "--dry-run", csv.to_str().unwrap()],
    )
    .status(3)
    .stderr_has("请删除重复的行")
    .check();
}
