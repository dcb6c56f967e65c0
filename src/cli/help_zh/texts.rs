//! The Chinese texts of the command line: every command's `about` and every argument's
//! help, keyed by command path and argument id, and the registration fields shared by
//! `player add` and `player edit`.

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
    (
        "demo:team",
        "改为演示团体赛（内置的团体赛规程与报名表：40 个队、每队 4 台）；不能与 `--example` 同用",
    ),
    (
        "demo:example",
        "运行哪个内置赛事：`jinhua`（2018 金华市象棋棋王赛，积分编排制，默认）、`round-robin`（八人单循环组与积分编排制公开组同场）、`round-robin-only`（十人单循环，只有一个循环组）、`swiss-knockout`（积分编排制公开组，前八名进入淘汰赛）或 `swiss-round-robin`（同一公开组，前六名单循环）",
    ),
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
        "导入报名表：Excel 工作簿（.xlsx、.xls、.ods）或 CSV（UTF-8、带 BOM 的 UTF-8 或 GBK）；一次给多个文件时，全部无误才导入",
    ),
    (
        "import:dry_run",
        "只检查文件并显示将导入的内容，不做任何修改",
    ),
    ("players", "列出棋手"),
    ("players:group", "只列出这个组别"),
    ("player", "增加、更正或退出棋手"),
    ("player add", "补报：从下一轮起参加编排"),
    (
        "player add:late",
        "在规程规定的报名截止日期之后补报（记为逾期报名）",
    ),
    ("player edit", "更正棋手的资料"),
    ("player edit:player", "棋手：报名编号、`#编排号` 或姓名"),
    (
        "player withdraw",
        "从下一轮起不再编排该棋手；已下的对局保留",
    ),
    ("player withdraw:player", "棋手：报名编号、`#编排号` 或姓名"),
    ("player withdraw:reason", "退赛原因（记入操作记录）"),
    ("player add:board", "团体赛：台次（1、2 …），替补写 `替补`"),
    ("player withdraw:team", "团体赛：改为全队退赛，写队名"),
    ("player withdraw:group", "该队所在组别（有多个组别时）"),
    ("player reinstate:team", "团体赛：改为恢复全队参赛，写队名"),
    ("player reinstate:group", "该队所在组别（有多个组别时）"),
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
        "录入或更正成绩：`qiwang result 1 红胜 2 和 3 黑胜/0:2 …`；团体赛按场次写各台成绩：`qiwang result 3 红胜 黑胜 和 红胜`，加赛写 `qiwang result 3 加赛 和 红胜`，整队弃权写 `qiwang result 3 先走队弃权`",
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
    ("warn", "警告（不扣分）：记入棋手的记录，名次表备注中显示"),
    ("warn:player", "棋手：报名编号、`#编排号` 或姓名"),
    ("warn:reason", "警告原因（记入操作记录）"),
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
    (
        "lineup",
        "团体赛：在某一轮的出场名单中换上替补，换上的队员坐换下队员的台次：`qiwang lineup 3 红星队 张三 李四`（张三下，李四上）",
    ),
    ("lineup:group", "组别：代号、规程中的名称或别名"),
    ("lineup:round", "轮次"),
    ("lineup:team", "队名"),
    ("lineup:players", "成对的棋手：先写换下的，再写换上的"),
    ("boards", "团体赛：每名棋手各台次的成绩（台次成绩）"),
    ("boards:group", "组别：代号、规程中的名称或别名"),
    ("boards:round", "到第几轮为止（默认：最新一轮）"),
    (
        "certificates",
        "奖状：每个奖项一页 A4 横版，输出可在浏览器中打印的网页",
    ),
    (
        "certificates:list",
        "只打印这个奖项名单或团体赛项（代号或名称）",
    ),
    (
        "certificates:template",
        "奖状模板（TOML：文字和字号）；默认用内置模板",
    ),
    (
        "certificates:print_template",
        "输出内置模板，修改后用 `--template` 传入",
    ),
    (
        "programme",
        "秩序册：竞赛日程、组别、主要规则、按单位排列的参赛名单",
    ),
    ("group", "组别人数、取消与合并"),
    ("group sizes", "各组别的报名人数与最低人数"),
    ("group merge", "在第一轮前把人数不足的组别并入另一组别"),
    ("group merge:from", "人数不足的组别"),
    ("group merge:into", "并入的组别"),
    (
        "group merge:force",
        "即使该组别未低于最低人数（`min_size`），或规程规定并入别的组别（`merge_into`），也合并（记入操作记录）",
    ),
    (
        "export",
        "生成用于打印或发布的文件。`--format html|csv|json|trf|xlsx`（默认 html）：静态网页、CSV 文件、整个赛事、每个组别的 FIDE TRF，或一个 Excel 工作簿",
    ),
    ("export:out", "输出目录"),
    (
        "serve",
        "在比赛场地的网络上提供本赛事的网页：手机查找台号、对阵与排名，大屏幕（`/screen`）和可打印的海报（`/poster.html`），实时更新（说明见文档目录中的服务器指南）",
    ),
    ("serve:port", "监听的端口"),
    (
        "serve:lan",
        "在场地网络上监听（本机的所有地址），而不只是本机；并显示网址和二维码",
    ),
    (
        "serve:token",
        "显示一个新的一次性裁判口令，用于网页录入成绩（`/arbiter/`）：全部台次（`all`）或一段台号（`1-20`）；可重复以得到多个口令",
    ),
    (
        "serve:revoke",
        "收回这个编号的口令（`A1`），或 `all` 收回全部，并结束它登录的会话；然后退出",
    ),
    (
        "serve:tokens_only",
        "配合 `--token`：只显示新的口令然后退出，供已在运行的服务器使用（下次登录时读取）",
    ),
    (
        "serve:address",
        "配合 `--lan`：显示在网址和二维码中的地址（默认：本机在网络上的地址）",
    ),
    (
        "serve:client_rate",
        "每台设备（客户端地址）每秒可发的请求数，可短时突发到五秒的量；超过时该设备暂时收到 429（0：不限）",
    ),
    (
        "serve:client_live",
        "每台设备可同时保持的实时更新连接数（0：不限）",
    ),
    (
        "serve:tls_cert",
        "用这个证书提供加密的 `https://` 网页（`PEM` 格式，服务器证书在前的证书链），供有证书的主办方使用；不加则为普通的 `http://`（见服务器指南）",
    ),
    ("serve:tls_key", "证书的私钥（`PEM` 格式）"),
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
        "import:late",
        "在规程规定的报名截止日期之后向已编排的组别补报（记为逾期报名）",
    ),
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
    ("player disqualify:reason", "原因（记入操作记录）"),
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
        "打印哪一种：对阵表、成绩登记表、台签、找座位（按拼音排序的找座位表）或总表，也可写作 pairings、slips、cards、find、wall（默认：对阵表）",
    ),
    (
        "playoff:list",
        "加赛决定的奖项名单（女子、本地、残疾人等名单的并列第一或晋级线上的并列）",
    ),
    (
        "group cancel",
        "取消人数不足且无处合并（没有 `merge_into`，或其指定的组别已取消、已开赛）的组别：其棋手自第一轮起退赛并列出；未低于最低人数的组别需加 `--force`",
    ),
    ("group cancel:group", "要取消的组别"),
    (
        "group cancel:force",
        "即使该组别未低于最低人数（`min_size`）也取消（记入操作记录）",
    ),
    ("export:force", "写入一个已有文件、且不是 qiwang 导出的目录"),
    ("undo:dry_run", "只显示将撤销的内容，不做修改"),
    ("redo", "重做上一次撤销的修改（恢复撤销前的状态）"),
    (
        "unlock",
        "释放持有者已经结束的锁；正在运行的命令持有的锁绝不会被打破",
    ),
];

/// The Chinese fields of the registration sheet, shared by `player add` and `player edit`.
const PLAYER_FIELDS: &[(&str, &str)] = &[
    ("name", "姓名"),
    ("gender", "性别：男 或 女"),
    ("unit", "单位"),
    ("group", "组别：代号、规程中的名称或别名"),
    ("birth_date", "出生日期，例如 2008-05-01"),
    ("id_number", "身份证号"),
    (
        "grade",
        "年级（如 三年级、初一、大班）；组别按年级限定时必填",
    ),
    ("rating", "等级分：按报名表的“等级分”列检查（可用全角数字）"),
    ("disabled", "是否残疾人选手：是 或 否（也可写 true、false）"),
    ("local", "是否本地选手：是 或 否（也可写 true、false）"),
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
