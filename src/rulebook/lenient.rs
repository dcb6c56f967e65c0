//! Reading a rulebook leniently, before (or without) validating it: the language it asks
//! for and the names of its groups, so that even the errors of a rulebook with mistakes
//! are printed in its language and name its groups as the regulation does.

use crate::i18n::Lang;

/// The language a rulebook asks for (`[event] language`), read leniently so it works even
/// for a rulebook with mistakes elsewhere; `None` when the text is no TOML or names no
/// known language.
pub fn rulebook_language(toml_text: &str) -> Option<Lang> {
    let doc: toml_edit::DocumentMut = toml_text.parse().ok()?;
    let event = doc.get("event")?;
    match event.get("language")?.as_str()?.trim() {
        "zh" => Some(Lang::Zh),
        "en" => Some(Lang::En),
        _ => None,
    }
}

/// The `(id, name)` of every group of a rulebook, read leniently like
/// [`rulebook_language`]; empty when the text is no TOML.
pub fn rulebook_group_names(toml_text: &str) -> Vec<(String, String)> {
    let Ok(doc) = toml_text.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    let Some(groups) = doc.get("groups").and_then(|g| g.as_array_of_tables()) else {
        return Vec::new();
    };
    groups
        .iter()
        .filter_map(|g| {
            let id = g.get("id")?.as_str()?.trim().to_string();
            let name = g.get("name")?.as_str()?.trim().to_string();
            Some((id, name))
        })
        .collect()
}

/// A Chinese message with each group named by its regulation name: library errors name
/// a group by its id (`组别 `adult``), which an arbiter does not know; they read
/// `组别 `成人组``. The `组别 `id`` form is replaced, and a bare id that starts a clause
/// about the group (`adult 第 9 轮…`, `adult 没有…`), never an id inside a longer word.
pub fn name_groups_zh(message: &str, groups: &[(String, String)]) -> String {
    let mut out = message.to_string();
    for (id, name) in groups {
        // A blank id (refused by the rulebook check, but read here leniently) matches
        // everywhere and would never advance the search.
        if !id.trim().is_empty() && id != name {
            out = out.replace(&format!("组别 `{id}`"), &format!("组别 `{name}`"));
            out = name_bare_id(&out, id, name);
        }
    }
    out
}

/// `text` with `id` followed by ` 第` or ` 没有`, and not preceded by a character of an
/// id, written as `name`.
fn name_bare_id(text: &str, id: &str, name: &str) -> String {
    let id_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if id.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(id) {
        let after = &rest[at + id.len()..];
        let starts = rest[..at].chars().next_back().is_none_or(|c| !id_char(c));
        let clause = after.starts_with(" 第") || after.starts_with(" 没有");
        out.push_str(&rest[..at]);
        out.push_str(if starts && clause { name } else { id });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulebook_language_is_read_leniently() {
        let cases = [
            (
                "[event]\nlanguage = \"en\"\nrounds = \"x\"\n",
                Some(Lang::En),
            ),
            ("[event]\nlanguage = \"zh\"\n", Some(Lang::Zh)),
            ("[event]\nname = \"a\"\n", None),
            ("[event]\nlanguage = \"fr\"\n", None),
            ("not toml [", None),
        ];
        for (text, want) in cases {
            assert_eq!(rulebook_language(text), want, "{text}");
        }
    }

    #[test]
    fn groups_are_named_in_chinese_messages() {
        let text = "[event]\nname = \"x\"\n[[groups]]\nid = \"adult\"\nname = \"成人组\"\n[[groups]]\nid = \"kids\"\nname = \"少儿组\"\n";
        let groups = rulebook_group_names(text);
        assert_eq!(
            groups,
            [
                ("adult".to_string(), "成人组".to_string()),
                ("kids".to_string(), "少儿组".to_string())
            ]
        );
        assert_eq!(
            name_groups_zh("组别 `adult` 第 1 轮；组别 `adults`；`kids`", &groups),
            "组别 `成人组` 第 1 轮；组别 `adults`；`kids`"
        );
        assert_eq!(
            name_groups_zh(
                "adult 第 9 轮已有成绩；kids 没有；xkids 没有；kids_b 第",
                &groups
            ),
            "成人组 第 9 轮已有成绩；少儿组 没有；xkids 没有；kids_b 第"
        );
        assert!(rulebook_group_names("not toml [").is_empty());
    }

    /// Issue 42 §3: a blank id (`id = ""`, `id = "  "`) matched at every position and
    /// never advanced, so every Chinese error of such a rulebook hung the command.
    #[test]
    fn a_blank_group_id_leaves_the_message_as_it_is() {
        for id in ["", "  ", "\t"] {
            let text = format!("[[groups]]\nid = \"{id}\"\nname = \"公开组\"\n");
            let groups = rulebook_group_names(&text);
            let message = "组别 `` 第 1 轮；`open` 没有";
            assert_eq!(name_groups_zh(message, &groups), message, "{id:?}");
        }
        assert_eq!(name_bare_id("a 第", "", "x"), "a 第");
    }
}
