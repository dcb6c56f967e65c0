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
        format!(
            "{text}\n[readings]\n\"prizes.multiple\" = \"金华 2018 十三：奖金不兼得\"\n\"groups[2].eligibility.age_max_inclusive\" = \"金华 2018 十：16周岁以下读作未满16周岁\"\n"
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
        format!("{text}\n[readings]\n\"prizes.multipel\" = \"x\"\n"),
    )
    .unwrap();
    run(tmp.path(), &["rules", "check", p(&rules)]).fails(3, &["prizes.multipel"]);
}
