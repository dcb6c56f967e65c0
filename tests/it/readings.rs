//! Doubtful readings made explicit (issue 43 item 6): `rules show` names the reading in
//! force of a setting a regulation often leaves open (a player in two lists; whether
//! N周岁以下 admits N) and asks for the clause, or prints the clause `[readings]` gives; a
//! `[readings]` entry must name a setting.

use crate::common::{p, root, run};
use std::fs;
use tempfile::TempDir;

#[test]
fn rules_show_names_each_doubtful_reading_and_the_clause_it_follows() {
    let tmp = TempDir::new().unwrap();
    let shown = run(
        tmp.path(),
        &["rules", "show", p(&root("rules/jinhua-2018.toml"))],
    )
    .ok();
    let line = |text: &str, key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("{key}: {text}"))
            .to_string()
    };
    assert!(line(&shown, "multiple =").contains("存疑的读法"), "{shown}");
    assert!(
        line(&shown, "age_max_inclusive =").contains("存疑的读法"),
        "{shown}"
    );
    let text = fs::read_to_string(root("rules/jinhua-2018.toml")).unwrap();
    let rules = tmp.path().join("r.toml");
    fs::write(
        &rules,
        text.replace(
            "[readings]\n",
            "[readings]\n\"prizes.multiple\" = \"金华 2018 十三：奖金不兼得\"\n\"groups[2].eligibility.age_max_inclusive\" = \"金华 2018 十：16周岁以下读作未满16周岁\"\n",
        ),
    )
    .unwrap();
    let shown = run(tmp.path(), &["rules", "show", p(&rules)]).ok();
    assert!(
        line(&shown, "multiple =").contains("读法依据：金华 2018 十三"),
        "{shown}"
    );
    assert!(
        shown.contains("读法依据：金华 2018 十：16周岁以下"),
        "{shown}"
    );
    // What `rules show` prints reads back to the same rules, the readings with them.
    let again = tmp.path().join("shown.toml");
    fs::write(&again, &shown).unwrap();
    assert_eq!(run(tmp.path(), &["rules", "show", p(&again)]).ok(), shown);
    // A reading must name a setting.
    fs::write(
        &rules,
        text.replace("[readings]\n", "[readings]\n\"prizes.multipel\" = \"x\"\n"),
    )
    .unwrap();
    run(tmp.path(), &["rules", "check", p(&rules)]).fails(3, &["prizes.multipel"]);
}

/// "不分男女 one list, or boys and girls ranked apart" is a key of a prize list: with
/// `by_gender = true` the entry is ranked as two lists (its name with （男子）/（女子）,
/// `{性别}` in a title replaced), `rules show` prints the entry once as written, and it
/// cannot be combined with a gender filter.
#[test]
fn a_prize_list_ranked_by_gender_is_one_key_and_two_lists() {
    let tmp = TempDir::new().unwrap();
    let text = fs::read_to_string(root("rules/cxa-2011.toml")).unwrap();
    let list = "\n[[prizes.lists]]\nid = \"open\"\nname = \"公开组\"\nby_gender = true\nplaces = [ { place = 1, money = 300, title = \"{性别}冠军\" }, { place = 2, money = 100 } ]\n";
    let rules = tmp.path().join("r.toml");
    fs::write(&rules, format!("{text}{list}")).unwrap();
    let csv = tmp.path().join("p.csv");
    fs::write(
        &csv,
        "姓名,性别,单位\n甲,男,一\n乙,女,二\n丙,男,三\n丁,女,四\n",
    )
    .unwrap();
    run(tmp.path(), &["init", "ev", "--rules", p(&rules)]).ok();
    let ev = tmp.path().join("ev");
    let q = |args: &[&str]| run(tmp.path(), &[&["--event", p(&ev)][..], args].concat());
    q(&["import", p(&csv)]).ok();
    q(&["pair", "--seed", "1"]).ok();
    q(&["result", "1", "r", "2", "r"]).ok();
    let sheet: serde_json::Value = q(&["--format", "json", "prizes"]).json();
    let lists = sheet["lists"].as_array().unwrap();
    let genders = |i: usize| -> Vec<String> {
        lists[i]["awards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(lists.len(), 2, "{sheet}");
    assert_eq!(lists[0]["name"], "公开组（男子）");
    assert_eq!(lists[1]["name"], "公开组（女子）");
    let mut men = genders(0);
    men.sort();
    let mut women = genders(1);
    women.sort();
    assert_eq!(
        (men, women),
        (
            vec!["丙".to_string(), "甲".into()],
            vec!["丁".to_string(), "乙".into()]
        )
    );
    assert_eq!(lists[0]["awards"][0]["title"], "男子冠军");
    assert_eq!(lists[1]["awards"][0]["title"], "女子冠军");
    // `standings --list` names a half by its id.
    let girls = q(&["standings", "--list", "open_female"]).ok();
    assert!(girls.contains("丁") && !girls.contains("丙"), "{girls}");
    // A list that does not exist: the message names the halves by id.
    q(&["standings", "--list", "open"]).fails(3, &["`open_male` (公开组（男子）)"]);
    q(&["certificates", "--list", "open"]).fails(3, &["`open_female` (公开组（女子）)"]);
    // Printed once, as written, with the reading in doubt; it reads back the same.
    let shown = q(&["rules", "show"]).ok();
    assert_eq!(shown.matches("[[prizes.lists]]").count(), 1, "{shown}");
    let line = shown
        .lines()
        .find(|l| l.starts_with("by_gender ="))
        .unwrap();
    assert!(
        line.starts_with("by_gender = true") && line.contains("存疑的读法"),
        "{line}"
    );
    assert!(shown.contains("{性别}冠军"), "{shown}");
    let again = tmp.path().join("shown.toml");
    fs::write(&again, &shown).unwrap();
    assert_eq!(run(tmp.path(), &["rules", "show", p(&again)]).ok(), shown);
    // Not with a gender filter as well.
    fs::write(
        &rules,
        format!("{text}{list}[prizes.lists.filter]\ngender = \"female\"\n"),
    )
    .unwrap();
    run(tmp.path(), &["rules", "check", p(&rules)]).fails(3, &["by_gender"]);
}

/// `by_gender` is no question for a list of one gender: `rules show` does not print it
/// (nor mark it doubtful) for a list of a group that admits girls only.
#[test]
fn a_one_gender_groups_list_has_no_by_gender_reading() {
    let tmp = TempDir::new().unwrap();
    let rules = tmp.path().join("r.toml");
    fs::write(
        &rules,
        "[event]\nname = \"x\"\nrounds = 5\n[[groups]]\nid = \"girls\"\nname = \"女子组\"\n\
         [groups.eligibility]\ngender = \"female\"\n[[prizes.lists]]\ngroup = \"girls\"\n\
         places = [{ place = 1, money = 100 }]\n",
    )
    .unwrap();
    let shown = run(tmp.path(), &["rules", "show", p(&rules)]).ok();
    assert!(!shown.contains("by_gender"), "{shown}");
}
