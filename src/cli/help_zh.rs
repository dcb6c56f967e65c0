//! The clap definition in the user's language: Chinese `--help`, usage and usage errors.
//!
//! The derive definitions in `args.rs` carry the English texts (doc comments). For Chinese
//! the command tree is walked at run time and every `about` and argument `help` is
//! replaced from [`ZH`], keyed by the command path and the argument id; clap's own words
//! (the `Usage:`/`Options:` headings, the `--help` flag and `help` subcommand, default and
//! possible-value notes) are replaced too, and clap's usage errors are rendered in Chinese
//! by [`render_error`]. A command or argument without an entry in [`ZH`] keeps its English
//! text, which the tests catch.

use super::args::Cli;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, CommandFactory};
use qiwang::rulebook::Lang;

/// Chinese texts: `("pair", …)` is the `about` of `qiwang pair`, `("pair:group", …)` the
/// help of its `--group`; `""` is `qiwang` itself and `":event"` a global option.
pub const ZH: &[(&str, &str)] = &[
    ("", "棋王（qiwang）：积分编排制（瑞士制）象棋比赛编排"),
    (
        ":event",
        "赛事目录（默认：当前目录或含有 qiwang.json 的上级目录）",
    ),
    (":lang", "输出语言（默认：规程中的语言）"),
    (
        ":format",
        "查询类命令的输出格式：table、csv、json、html、xlsx（export 另有 trf）",
    ),
    (
        ":encoding",
        "CSV 文件的编码：import 读入时为 auto（UTF-8、带 BOM 的 UTF-8 或 GBK）、utf-8 或 gbk；输出 CSV 默认带 BOM 的 UTF-8（auto，中文 Excel 可直接打开），也可选 utf-8（不带 BOM）或 gbk",
    ),
    (
        ":show_private",
        "裁判视图：完整显示棋手各列（身份证号、电话、出生日期）及退赛、取消资格、罚分、加赛时填写的说明和原因（公开输出中不显示）",
    ),
    (
        "demo",
        "运行一个完整的内置示例赛事（报名、每一轮、成绩、奖项）",
    ),
    ("demo:dir", "示例赛事的目录（默认：新建 ./qiwang-demo）"),
    ("demo:rules", "用这个规程文件代替内置规程"),
    ("demo:registrations", "用这个报名表代替内置报名表"),
    ("demo:seed", "第一轮抽签的随机种子"),
    ("init", "创建赛事目录，并冻结一份规程"),
    ("init:dir", "要创建的赛事目录"),
    ("init:rules", "规程文件（TOML）"),
    ("rules", "校验规程，或显示生效的规则"),
    ("rules check", "报告规程中的每一个问题，注明行、列和键"),
    ("rules check:file", "要校验的规程文件"),
    (
        "rules show",
        "显示补全默认值后的生效规则（本赛事的，或 FILE 的）",
    ),
    ("rules show:file", "规程文件（默认：本赛事冻结的规程）"),
    (
        "import",
        "导入报名表（Excel 导出的 CSV：UTF-8、带 BOM 的 UTF-8 或 GBK）",
    ),
    (
        "import:dry_run",
        "只检查文件并显示将导入的内容，不做任何修改",
    ),
    ("players", "列出棋手"),
    ("players:group", "只列出这个组别"),
    ("player", "增加、更正或退出棋手"),
    ("player add", "补报：从下一轮起参加编排"),
    ("player edit", "更正棋手的资料"),
    ("player edit:player", "棋手：报名编号、`#编排号` 或姓名"),
    (
        "player withdraw",
        "从下一轮起不再编排该棋手；已下的对局保留",
    ),
    ("player withdraw:player", "棋手：报名编号、`#编排号` 或姓名"),
    ("player withdraw:reason", "退赛原因（记入操作记录）"),
    (
        "player reinstate",
        "撤销手工退赛：该棋手从下一轮起重新参加编排",
    ),
    (
        "player reinstate:player",
        "棋手：报名编号、`#编排号` 或姓名",
    ),
    ("pair", "编排一个组别的下一轮并打印对阵表"),
    ("pair:group", "组别：代号、规程中的名称或别名"),
    ("pair:seed", "第一轮抽签的随机种子（记入赛事）"),
    ("pair:dry_run", "只显示编排结果，不保存"),
    ("pair:explain", "说明理由：升降、先后手、轮空"),
    ("unpair", "撤销一个组别尚无成绩的最新一轮"),
    ("unpair:group", "组别：代号、规程中的名称或别名"),
    ("pairing", "手工调整尚未开始的一轮"),
    (
        "pairing swap",
        "在尚未开始的最新一轮中交换两名棋手。棋手可写编排号（`#5`）、报名编号（`17`）或姓名",
    ),
    ("pairing swap:group", "组别：代号、规程中的名称或别名"),
    ("pairing swap:a", "第一名棋手"),
    ("pairing swap:b", "第二名棋手"),
    (
        "pairing swap:force",
        "即使违反硬性规则也保存这次调整（记入操作记录）",
    ),
    (
        "pairing set",
        "在尚未开始的最新一轮中，把 RED 与 BLACK 安排在 TABLE 台（棋手写法同 swap：`#5`、`17` 或姓名）",
    ),
    ("pairing set:group", "组别：代号、规程中的名称或别名"),
    ("pairing set:table", "台号"),
    ("pairing set:red", "执红（先走）的棋手"),
    ("pairing set:black", "执黑（后走）的棋手"),
    (
        "pairing set:force",
        "即使违反硬性规则也保存这次调整（记入操作记录）",
    ),
    ("check", "按硬性编排规则核查每一轮"),
    ("check:group", "组别：代号、规程中的名称或别名"),
    (
        "check:optimal",
        "证明每一轮是最优编排：从该轮之前的状态重新求解，逐项比较编排准则",
    ),
    ("check:round", "与 `--optimal` 同用：只查这一轮"),
    (
        "result",
        "录入或更正成绩：`qiwang result 1 红胜 2 和 3 黑胜/0:2 …`",
    ),
    ("result:group", "组别：代号、规程中的名称或别名"),
    ("result:round", "轮次（默认：最新一轮）"),
    (
        "result:from",
        "成绩表文件（CSV 或 xlsx）：轮次、台号、结果、犯规；红方、黑方和编排码会与编排核对",
    ),
    (
        "result:names",
        "按顺序给出所录各台的棋手，写作 红方/黑方（`闫文/卢林旭`、`#3/#8`、`闫文/`）：与该台的对局不符时不记录任何成绩",
    ),
    (
        "result:entries",
        "成对的台号和结果；结果可带犯规次数，写作 结果/红方:黑方。台号后的 `-+`、`--` 等弃权记号按结果处理",
    ),
    (
        "penalty",
        "扣分（例如东莞规程：干扰他人比赛扣 2 分）。扣分数默认取规程的 `conduct.disturbance_penalty`",
    ),
    ("penalty:player", "棋手：报名编号、`#编排号` 或姓名"),
    ("penalty:points", "扣除的分数"),
    ("penalty:reason", "扣分原因（记入操作记录）"),
    (
        "playoff",
        "记录决定并列第一的加赛：按最终名次列出棋手，胜者在前",
    ),
    ("playoff:group", "组别：代号、规程中的名称或别名"),
    ("playoff:players", "按最终名次排列的棋手"),
    ("playoff:note", "备注"),
    ("standings", "名次表，含每一项对比分"),
    ("standings:group", "组别：代号、规程中的名称或别名"),
    ("standings:round", "到第几轮为止（默认：最新一轮）"),
    ("standings:list", "某一奖项名单的视图（例如只看女子）"),
    ("crosstable", "每名棋手每一轮的对手、先后手和结果"),
    ("crosstable:group", "组别：代号、规程中的名称或别名"),
    ("crosstable:round", "到第几轮为止（默认：最新一轮）"),
    ("teams", "团体名次（同单位最好的前 N 名）"),
    ("teams:team", "团体赛项的代号"),
    ("prizes", "奖项表：每个名单的名次、奖金、称号和合计"),
    ("group", "组别人数、取消与合并"),
    ("group sizes", "各组别的报名人数与最低人数"),
    ("group merge", "在第一轮前把人数不足的组别并入另一组别"),
    ("group merge:from", "人数不足的组别"),
    ("group merge:into", "并入的组别"),
    (
        "export",
        "生成用于打印或发布的文件。`--format html|csv|json|trf|xlsx`（默认 html）：静态网页、CSV 文件、整个赛事、每个组别的 FIDE TRF，或一个 Excel 工作簿",
    ),
    ("export:out", "输出目录"),
    ("template:force", "文件已存在时替换它"),
    ("export:group", "只导出这个组别"),
    ("log", "每一次修改的操作记录"),
    ("undo", "恢复到上一次修改之前的状态"),
    ("completions", "输出命令行自动补全脚本"),
    (
        "completions:shell",
        "终端类型：bash、zsh、fish、powershell 或 elvish",
    ),
    ("man", "输出 man 手册页（roff 格式）"),
    (
        "rules update",
        "在两轮之间更换赛事的规程：先检查，不得改变已赛轮次，显示差异，可撤销",
    ),
    ("rules update:file", "新的规程文件（TOML）"),
    (
        "import:files",
        "报名表文件：Excel 工作簿（.xlsx、.xls、.ods）或 CSV，可一次给多个",
    ),
    (
        "import:sheet",
        "只读取每个工作簿中这个名称的工作表（默认：每个有表头的工作表）",
    ),
    ("import:strict", "有不认识的列时拒绝导入（默认只提示）"),
    (
        "template",
        "按本赛事的规程生成报名表：所需的列、一行示例和可选值；`--format xlsx` 生成带下拉列表的工作簿，否则为 CSV",
    ),
    ("template:rules", "使用这个规程文件（默认：本赛事的规程）"),
    ("template:out", "写入这个文件（默认：输出到标准输出）"),
    (
        "player disqualify",
        "取消比赛资格：不再编排，不参加任何名次录取，已赛对局仍计入对手分",
    ),
    (
        "player disqualify:player",
        "棋手：报名编号、`#编排号`或姓名",
    ),
    ("player disqualify:reason", "原因（记入操作记录并显示）"),
    ("player disqualify:from_round", "自第几轮起（默认：下一轮）"),
    ("player disqualify:undo", "撤销取消资格"),
    (
        "pair:all",
        "编排所有已就绪组别的下一轮，并说明其余组别为何等待",
    ),
    (
        "pair:allow_small",
        "人数不足规程最低人数的组别也照常编排第一轮（记入操作记录）",
    ),
    (
        "pair:relax",
        "仅限本轮：没有完全合规的编排时可以放宽的规则，写法与规程中的同名设置相同（越靠后越优先保留），如 `--relax colour,team,rematch`；记入操作记录，不修改规程",
    ),
    (
        "round",
        "重新打印某一轮：对阵表（有成绩时带成绩）、成绩登记表、台签、按拼音排序的找座位表或总表；默认为每个组别的最新一轮",
    ),
    ("round:round", "轮次（默认：最新一轮）"),
    ("round:group", "组别：代号、规程中的名称或别名"),
    (
        "round:sheet",
        "打印哪一种：pairings（对阵表）、slips（成绩登记表）、cards（台签）、find（找座位表）、wall（总表）",
    ),
    (
        "playoff:list",
        "加赛决定的奖项名单（女子、本地、残疾人等名单的并列第一或晋级线上的并列）",
    ),
    (
        "group cancel",
        "取消人数不足且无处合并的组别：其棋手自第一轮起退赛并列出",
    ),
    ("group cancel:group", "要取消的组别"),
    ("export:force", "写入一个已有文件、且不是 qiwang 导出的目录"),
    ("undo:dry_run", "只显示将撤销的内容，不做修改"),
    ("redo", "重做上一次撤销的修改（恢复撤销前的状态）"),
    (
        "unlock",
        "释放持有者已经结束的锁；正在运行的命令持有的锁绝不会被打破",
    ),
];

/// English help for the arguments whose definition has none (a doc comment in `args.rs`
/// wins over this table), keyed like [`ZH`].
const EN: &[(&str, &str)] = &[
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
    ("player disqualify:reason", "Why (logged and shown)"),
    (
        "player disqualify:from_round",
        "From this round on (default: the next round)",
    ),
    (
        "round:sheet",
        "Which sheet: pairings, slips (result slips), cards (table cards), find (find-your-table list) or wall (wall chart)",
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
    ("grade", "Grade (棋士 title)"),
    ("disabled", "Disabled player: true or false"),
    ("local", "Local player: true or false"),
    ("phone", "Phone number"),
    ("title", "Title"),
];

/// English help for `key` where the definition has none.
fn en_text(key: &str) -> Option<&'static str> {
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
fn complete_en(path: &str, cmd: clap::Command) -> clap::Command {
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

/// The Chinese fields of the registration sheet, shared by `player add` and `player edit`.
const PLAYER_FIELDS: &[(&str, &str)] = &[
    ("name", "姓名"),
    ("gender", "性别：男 或 女"),
    ("unit", "单位"),
    ("group", "组别：代号、规程中的名称或别名"),
    ("birth_date", "出生日期，例如 2008-05-01"),
    ("id_number", "身份证号"),
    ("grade", "等级（棋士称号）"),
    ("rating", "等级分：按报名表的“等级分”列检查（可用全角数字）"),
    ("disabled", "是否残疾人选手：true 或 false"),
    ("local", "是否本地选手：true 或 false"),
    ("phone", "电话号码"),
    ("title", "称号"),
];

/// The Chinese text for `key`, if there is one.
pub fn zh_text(key: &str) -> Option<&'static str> {
    if let Some(found) = ZH.iter().find(|(k, _)| *k == key) {
        return Some(found.1);
    }
    let (path, arg) = key.split_once(':')?;
    if path == "player add" || path == "player edit" {
        return PLAYER_FIELDS.iter().find(|(k, _)| *k == arg).map(|f| f.1);
    }
    None
}

/// The command line definition in `lang`, built (ready to parse or render).
pub fn command(lang: Lang) -> clap::Command {
    let mut cmd = complete_en("", Cli::command());
    if lang == Lang::Zh {
        cmd = localize("", cmd);
    }
    cmd.build();
    if lang == Lang::Zh {
        cmd = clap_words(cmd);
    }
    cmd
}

/// `cmd` with Chinese `about` and argument help, recursively.
fn localize(path: &str, cmd: clap::Command) -> clap::Command {
    let mut cmd = match zh_text(path) {
        Some(about) => cmd.about(about).long_about(None),
        None => cmd,
    };
    let args_path = path.to_string();
    cmd = cmd.mut_args(|arg| localize_arg(&args_path, arg));
    cmd.mut_subcommands(|sub| {
        let sub_path = match path {
            "" => sub.get_name().to_string(),
            _ => format!("{path} {}", sub.get_name()),
        };
        localize(&sub_path, sub)
    })
}

fn localize_arg(path: &str, arg: Arg) -> Arg {
    let key = format!("{path}:{}", arg.get_id());
    let Some(help) = zh_text(&key) else {
        return arg;
    };
    let mut help = help.to_string();
    if !arg.get_action().takes_values() {
        return arg.help(help).long_help(None);
    }
    // clap writes these notes in English; say them in Chinese instead.
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .filter(|v| !v.is_empty())
        .collect();
    if !defaults.is_empty() && !arg.is_hide_default_value_set() {
        help.push_str(&format!("（默认：{}）", defaults.join("、")));
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if !values.is_empty() && !arg.is_hide_possible_values_set() && !help.contains(&values[0]) {
        help.push_str(&format!("（可选：{}）", values.join("、")));
    }
    arg.help(help)
        .long_help(None)
        .hide_default_value(true)
        .hide_possible_values(true)
}

/// Replaces the words clap adds when it builds a command: the `--help` and `--version`
/// flags, the `help` subcommand and the help headings.
fn clap_words(cmd: clap::Command) -> clap::Command {
    let mut cmd = cmd.mut_args(|arg| match arg.get_id().as_str() {
        "help" => arg.help("显示帮助").long_help(None),
        "version" => arg.help("显示版本").long_help(None),
        "subcommand" if arg.get_value_names().is_some_and(|v| v == ["COMMAND"]) => {
            arg.help("要显示帮助的子命令")
        }
        _ => arg,
    });
    if cmd.get_name() == "help" {
        cmd = cmd.about("显示本帮助，或指定子命令的帮助");
    }
    let template = template(&cmd);
    cmd.help_template(template).mut_subcommands(clap_words)
}

/// A help template in Chinese with only the sections `cmd` has.
fn template(cmd: &clap::Command) -> String {
    let shown = |a: &&Arg| !a.is_hide_set();
    let mut out = String::from("{before-help}{about-with-newline}\n用法：{usage}\n");
    if cmd.get_positionals().any(|a| shown(&a)) {
        out.push_str("\n参数：\n{positionals}\n");
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        out.push_str("\n命令：\n{subcommands}\n");
    }
    if cmd.get_arguments().any(|a| !a.is_positional() && shown(&a)) {
        out.push_str("\n选项：\n{options}\n");
    }
    out.push_str("{after-help}");
    out
}

/// A usage error of clap in Chinese: what is wrong, a suggestion when clap has one, the
/// usage line and where to find more.
pub fn render_error(err: &clap::Error) -> String {
    let get = |kind: ContextKind| err.get(kind);
    let text = |kind: ContextKind| match get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join("`、`")),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        Some(ContextValue::StyledStrs(v)) => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("`、`"),
        ),
        Some(ContextValue::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let arg = text(ContextKind::InvalidArg).unwrap_or_default();
    let value = text(ContextKind::InvalidValue).unwrap_or_default();
    let mut lines: Vec<String> = Vec::new();
    let message = match err.kind() {
        ErrorKind::InvalidValue => {
            let valid = match get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v.join("、"),
                _ => String::new(),
            };
            if value.is_empty() {
                format!("`{arg}` 需要一个值；可选：{valid}")
            } else {
                format!("`{arg}` 的值 `{value}` 无效；可选：{valid}")
            }
        }
        ErrorKind::UnknownArgument if arg.starts_with('-') => format!("不认识的选项 `{arg}`"),
        ErrorKind::UnknownArgument => format!("多余的参数 `{arg}`"),
        ErrorKind::InvalidSubcommand => {
            let sub = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("没有子命令 `{sub}`")
        }
        ErrorKind::NoEquals => format!("`{arg}` 的值要用等号写：`{arg}=值`"),
        ErrorKind::ValueValidation => {
            let reason = validation_reason(err);
            format!("`{arg}` 的值 `{value}` 无效{reason}")
        }
        ErrorKind::TooManyValues => format!("`{arg}` 后面多了值 `{value}`"),
        ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => {
            let expected = text(ContextKind::ExpectedNumValues).unwrap_or_default();
            let actual = text(ContextKind::ActualNumValues).unwrap_or_default();
            format!("`{arg}` 需要 {expected} 个值，却给了 {actual} 个")
        }
        ErrorKind::ArgumentConflict => {
            let prior = text(ContextKind::PriorArg).unwrap_or_default();
            if prior == arg {
                format!("`{arg}` 只能写一次")
            } else if prior.is_empty() {
                format!("`{arg}` 不能和其他参数同时使用")
            } else {
                format!("`{arg}` 不能和 `{prior}` 同时使用")
            }
        }
        ErrorKind::MissingRequiredArgument => format!("缺少必需的参数：`{arg}`"),
        ErrorKind::MissingSubcommand => {
            let name = text(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("`{name}` 需要一个子命令")
        }
        ErrorKind::InvalidUtf8 => "参数不是有效的 UTF-8 文本".to_string(),
        ErrorKind::Io | ErrorKind::Format => "无法输出帮助文本".to_string(),
        _ => "命令行参数有误".to_string(),
    };
    lines.push(format!("错误：{message}"));
    let suggested: Vec<String> = [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg]
        .into_iter()
        .chain([ContextKind::SuggestedValue])
        .filter_map(|k| match get(k) {
            Some(ContextValue::String(s)) => Some(vec![s.clone()]),
            Some(ContextValue::Strings(v)) => Some(v.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    if !suggested.is_empty() {
        let quoted: Vec<String> = suggested.iter().map(|s| format!("`{s}`")).collect();
        lines.push(format!("\n  提示：你是不是要找 {}？", quoted.join("、")));
    }
    if let Some(ContextValue::String(trailing)) = get(ContextKind::TrailingArg) {
        lines.push(format!(
            "\n  提示：如果 `{trailing}` 是一个值而不是选项，请写 `-- {trailing}`"
        ));
    }
    if let Some(usage) = text(ContextKind::Usage) {
        let usage = usage.trim();
        let usage = usage.strip_prefix("Usage:").unwrap_or(usage).trim();
        lines.push(format!("\n\n用法：{usage}"));
    }
    lines.push("\n\n更多信息请用 `--help`。\n".to_string());
    lines.concat()
}

/// Why a value did not parse, in Chinese, for the value parsers qiwang uses.
fn validation_reason(err: &clap::Error) -> String {
    use std::error::Error;
    let Some(source) = err.source().map(ToString::to_string) else {
        return String::new();
    };
    if source.starts_with("unknown format") {
        // `… use one of table, csv, json, html (export: html, json, trf)`: the values are
        // the words a user types, so the list is kept as `--format` spells it.
        let values = source.split_once("use one of ").map_or("", |(_, v)| v);
        let values = values
            .replace(" (", "（")
            .replace(": ", "：")
            .replace(", ", "、")
            .replace(')', "）");
        format!("：请用 {values}")
    } else if source.contains("not `true` or `false`") {
        "：请写 true 或 false".to_string()
    } else if source.contains("invalid digit")
        || source.contains("not in")
        || source.contains("too large")
        || source.contains("too small")
        || source.contains("empty string")
    {
        "：请写一个非负整数".to_string()
    } else {
        String::new()
    }
}

/// Every command path and argument key of the definition, for the tests.
#[cfg(test)]
fn keys(path: &str, cmd: &clap::Command, out: &mut Vec<String>) {
    out.push(path.to_string());
    for arg in cmd.get_arguments() {
        out.push(format!("{path}:{}", arg.get_id()));
    }
    for sub in cmd.get_subcommands() {
        let sub_path = match path {
            "" => sub.get_name().to_string(),
            _ => format!("{path} {}", sub.get_name()),
        };
        keys(&sub_path, sub, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definition_passes_clap_self_check() {
        Cli::command().debug_assert();
        command(Lang::Zh).debug_assert();
        command(Lang::En).debug_assert();
    }

    /// A new subcommand or argument without a Chinese text fails here: add it to [`ZH`].
    #[test]
    fn every_command_and_argument_has_chinese() {
        let mut all = Vec::new();
        keys("", &Cli::command(), &mut all);
        let missing: Vec<&String> = all.iter().filter(|k| zh_text(k).is_none()).collect();
        assert!(missing.is_empty(), "no Chinese text for: {missing:?}");
        // And no stale entries for commands or arguments that are gone.
        let stale: Vec<&str> = ZH
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| !all.iter().any(|a| a == k))
            .collect();
        assert!(stale.is_empty(), "Chinese text for nothing: {stale:?}");
    }

    /// Every argument has English help, from its doc comment or from [`EN`], and [`EN`]
    /// holds nothing a doc comment already says.
    #[test]
    fn every_argument_has_english_help() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let key = format!("{path}:{}", arg.get_id());
                match (arg.get_help().is_some(), en_text(&key).is_some()) {
                    (false, false) => missing.push(format!("no English help for {key}")),
                    (true, true) => {
                        missing.push(format!("{key} has a doc comment; drop it from EN"));
                    }
                    _ => {}
                }
            }
            for sub in cmd.get_subcommands() {
                let sub_path = match path {
                    "" => sub.get_name().to_string(),
                    _ => format!("{path} {}", sub.get_name()),
                };
                walk(sub, &sub_path, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "", &mut missing);
        assert!(missing.is_empty(), "{missing:#?}");
        let mut raw = Vec::new();
        keys("", &Cli::command(), &mut raw);
        for (key, _) in EN {
            assert!(
                raw.iter().any(|k| k == key),
                "English help for nothing: {key}"
            );
        }
    }

    use crate::cli::hints::options_in;

    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// Every `--option` a message suggests exists, and one named after `qiwang CMD` is an
    /// option of CMD (not "`qiwang penalty` … `--group`" when penalty has no `--group`).
    #[test]
    fn messages_only_suggest_options_that_exist() {
        let cmd = command(Lang::En);
        let mut all: Vec<String> = Vec::new();
        let mut stack = vec![&cmd];
        while let Some(c) = stack.pop() {
            all.extend(
                c.get_arguments()
                    .filter_map(|a| a.get_long().map(str::to_string)),
            );
            stack.extend(c.get_subcommands());
        }
        let longs_of = |c: &clap::Command| -> Vec<String> {
            c.get_arguments()
                .filter_map(|a| a.get_long().map(str::to_string))
                .collect()
        };
        let mut files = Vec::new();
        rust_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let mut wrong = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                let at = format!("{}:{}", file.display(), n + 1);
                for opt in options_in(line) {
                    if !all.contains(&opt) {
                        wrong.push(format!("{at}: `--{opt}` is no option"));
                    }
                }
                // `qiwang CMD [SUB] … --opt` up to the end of the quoted command.
                for (i, _) in line.match_indices("qiwang ") {
                    let span: String = line[i + 7..]
                        .chars()
                        .take_while(|c| !matches!(c, '`' | '"' | '）' | ')' | '，' | '；'))
                        .collect();
                    let mut words = span.split_whitespace();
                    let Some(sub) = words.next().and_then(|w| cmd.find_subcommand(w)) else {
                        continue;
                    };
                    let target = words
                        .next()
                        .and_then(|w| sub.find_subcommand(w))
                        .unwrap_or(sub);
                    for opt in options_in(&span) {
                        if !longs_of(target).contains(&opt) {
                            wrong.push(format!(
                                "{at}: `qiwang {}` has no `--{opt}`",
                                target.get_name()
                            ));
                        }
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn the_english_help_is_unchanged() {
        let help = command(Lang::En).render_help().to_string();
        assert!(help.contains("Usage: qiwang [OPTIONS] <COMMAND>"), "{help}");
        assert!(help.contains("Print help"), "{help}");
    }
}
