//! English help for the arguments whose derive definition has no doc comment, filled in
//! before the command line is used in either language.

/// English help for the arguments whose definition has none (a doc comment in `cli/args/`
/// wins over this table), keyed like [`ZH`](super::texts::ZH).
pub(super) const EN: &[(&str, &str)] = &[
    ("demo:rules", "Use this rulebook instead of the bundled one"),
    (
        "demo:registrations",
        "Use this registration sheet instead of the bundled one",
    ),
    ("demo:seed", "Seed of the round-1 draw"),
    ("init:dir", "The event directory to create"),
    ("init:rules", "The rulebook (TOML)"),
    ("rules check:file", "The rulebook to check"),
    (
        "rules show:file",
        "A rulebook (default: the event's frozen one)",
    ),
    ("import:files", "The registration sheets"),
    ("rules update:file", "The new rulebook (TOML)"),
    ("template:rules", "Use this rulebook (default: the event's)"),
    (
        "template:out",
        "Write to this file (default: standard output)",
    ),
    (
        "player disqualify:player",
        "The player: registration id, `#pairing number` or name",
    ),
    ("round:group", "The group: id, regulation name or alias"),
    ("group cancel:group", "The group to cancel"),
    ("player disqualify:reason", "Why (kept in the audit log)"),
    (
        "player disqualify:from_round",
        "From this round on (default: the next round)",
    ),
    (
        "round:sheet",
        "Which sheet: pairings, slips (result slips), cards (table cards), find (find-your-table list) or wall (wall chart); the Chinese names 对阵表, 成绩登记表, 台签, 找座位 and 总表 are accepted too",
    ),
    ("players:group", "Only this group"),
    (
        "player edit:player",
        "The player: registration id, `#pairing number` or name",
    ),
    (
        "player withdraw:player",
        "The player: registration id, `#pairing number` or name",
    ),
    ("player withdraw:reason", "Why (kept in the audit log)"),
    (
        "player reinstate:player",
        "The player: registration id, `#pairing number` or name",
    ),
    ("pair:group", "The group: id, regulation name or alias"),
    ("unpair:group", "The group: id, regulation name or alias"),
    (
        "pairing swap:group",
        "The group: id, regulation name or alias",
    ),
    ("pairing swap:a", "The first player"),
    ("pairing swap:b", "The second player"),
    (
        "pairing set:group",
        "The group: id, regulation name or alias",
    ),
    ("pairing set:table", "The table number"),
    ("pairing set:red", "The player with red (moves first)"),
    ("pairing set:black", "The player with black"),
    (
        "pairing set:force",
        "Store the edit even if it breaks a hard rule (logged)",
    ),
    ("check:group", "The group: id, regulation name or alias"),
    ("result:group", "The group: id, regulation name or alias"),
    ("result:round", "The round (default: the newest)"),
    (
        "penalty:player",
        "The player: registration id, `#pairing number` or name",
    ),
    ("penalty:points", "Points to deduct"),
    ("penalty:reason", "Why (kept in the audit log)"),
    ("playoff:group", "The group: id, regulation name or alias"),
    ("playoff:players", "The players in final order"),
    ("playoff:note", "A note"),
    ("standings:group", "The group: id, regulation name or alias"),
    ("standings:round", "After this round (default: the newest)"),
    (
        "crosstable:group",
        "The group: id, regulation name or alias",
    ),
    ("crosstable:round", "After this round (default: the newest)"),
    ("teams:team", "The team competition's id"),
    ("lineup:group", "The group: id, regulation name or alias"),
    ("boards:group", "The group: id, regulation name or alias"),
    ("boards:round", "After this round (default: the newest)"),
    ("group merge:from", "The under-size group"),
    ("group merge:into", "The group it joins"),
    ("export:out", "The output directory"),
    ("export:group", "Only this group"),
];

/// The English fields of the registration sheet, shared by `player add` and `player edit`.
const PLAYER_FIELDS_EN: &[(&str, &str)] = &[
    ("name", "Name"),
    ("gender", "Gender: 男 or 女"),
    ("unit", "Unit (club, school or association)"),
    ("group", "Group: id, regulation name or alias"),
    ("birth_date", "Date of birth, e.g. 2008-05-01"),
    ("id_number", "ID-card number"),
    (
        "grade",
        "School grade (三年级, 初一, 大班); needed where a group admits by grade",
    ),
    ("disabled", "Disabled player: true or false (or 是/否)"),
    ("local", "Local player: true or false (or 是/否)"),
    ("phone", "Phone number"),
    ("title", "Title"),
];

/// English help for `key` where the definition has none.
pub(super) fn en_text(key: &str) -> Option<&'static str> {
    if let Some(found) = EN.iter().find(|(k, _)| *k == key) {
        return Some(found.1);
    }
    let (path, arg) = key.split_once(':')?;
    if path == "player add" || path == "player edit" {
        return PLAYER_FIELDS_EN
            .iter()
            .find(|(k, _)| *k == arg)
            .map(|f| f.1);
    }
    None
}

/// Fills in the English help of arguments that have no doc comment, recursively.
pub(super) fn complete_en(path: &str, cmd: clap::Command) -> clap::Command {
    let args_path = path.to_string();
    let cmd = cmd.mut_args(|arg| {
        if arg.get_help().is_some() {
            return arg;
        }
        match en_text(&format!("{args_path}:{}", arg.get_id())) {
            Some(help) => arg.help(help),
            None => arg,
        }
    });
    cmd.mut_subcommands(|sub| {
        let sub_path = match path {
            "" => sub.get_name().to_string(),
            _ => format!("{path} {}", sub.get_name()),
        };
        complete_en(&sub_path, sub)
    })
}
