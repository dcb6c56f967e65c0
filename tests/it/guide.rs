//! The Chinese rulebook guide `rules/指南.md` cannot drift from the code: every ```toml
//! block in it is marked either `完整规则` (a whole rulebook, which must validate as it
//! stands) or `片段` (a fragment, which must validate inside the smallest rulebook), and
//! its worked example encodes exactly the shipped `rules/jinhua-2018.toml`, with the
//! counts the guide prints for `qiwang rules check`.

use qiwang::rulebook::Rulebook;
use std::path::PathBuf;

/// The fence marker of a whole rulebook.
const WHOLE: &str = "完整规则";
/// The fence marker of a fragment.
const FRAGMENT: &str = "片段";

/// What a fragment lacks to be a rulebook: the required `[event]` keys and one group.
const EVENT: &str = "[event]\nname = \"指南片段\"\nrounds = 7\n\n";
const GROUP: &str = "[[groups]]\nid = \"open\"\nname = \"公开组\"\n\n";

/// One fenced ```toml block of the guide.
struct Block {
    /// 1-based line of the opening fence, for failure messages.
    line: usize,
    /// The fence's words after `toml`.
    marker: String,
    /// The block's text.
    text: String,
}

fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn guide() -> String {
    std::fs::read_to_string(rules_dir().join("指南.md")).unwrap()
}

/// Every ```toml block of `markdown`; other fenced blocks (```text …) are skipped whole,
/// so a fence inside them is not read as TOML. An unclosed fence fails the test.
fn toml_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = markdown.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut body = String::new();
        let mut closed = false;
        for (_, inner) in lines.by_ref() {
            if inner.trim_end() == "```" {
                closed = true;
                break;
            }
            body.push_str(inner);
            body.push('\n');
        }
        assert!(closed, "指南.md:{}: fence never closed", i + 1);
        if let Some(marker) = info.strip_prefix("toml") {
            blocks.push(Block {
                line: i + 1,
                marker: marker.trim().to_string(),
                text: body,
            });
        }
    }
    blocks
}

/// A fragment made into a rulebook: the `[event]` and a group added when it has none.
fn as_rulebook(fragment: &str) -> String {
    let has = |header: &str| fragment.lines().any(|l| l.trim() == header);
    let mut text = String::new();
    if !has("[event]") {
        text.push_str(EVENT);
    }
    if !has("[[groups]]") {
        text.push_str(GROUP);
    }
    text.push_str(fragment);
    text
}

fn parse(block: &Block, text: &str) -> Rulebook {
    Rulebook::from_toml(text, &format!("指南.md 第{}行的代码块", block.line)).unwrap_or_else(|e| {
        panic!(
            "the block at 指南.md:{} does not validate:\n{e}\n{text}",
            block.line
        )
    })
}

fn whole_rulebooks() -> Vec<(Block, Rulebook)> {
    toml_blocks(&guide())
        .into_iter()
        .filter(|b| b.marker == WHOLE)
        .map(|b| {
            let rules = parse(&b, &b.text);
            (b, rules)
        })
        .collect()
}

#[test]
fn extractor_reads_only_toml_fences() {
    let text = "a\n```text\n```toml 完整规则\n```\n```toml 片段\n[scoring]\nbye = 2\n```\n";
    let blocks = toml_blocks(text);
    assert_eq!(blocks.len(), 1);
    assert_eq!((blocks[0].line, blocks[0].marker.as_str()), (5, FRAGMENT));
    assert_eq!(blocks[0].text, "[scoring]\nbye = 2\n");
    let made = as_rulebook(&blocks[0].text);
    assert!(made.starts_with(EVENT) && made.contains(GROUP), "{made}");
}

#[test]
fn every_toml_block_is_marked() {
    let blocks = toml_blocks(&guide());
    let unmarked: Vec<String> = blocks
        .iter()
        .filter(|b| b.marker != WHOLE && b.marker != FRAGMENT)
        .map(|b| format!("指南.md:{}: ```toml {}", b.line, b.marker))
        .collect();
    assert!(
        unmarked.is_empty(),
        "mark each block ```toml {WHOLE} or ```toml {FRAGMENT}: {unmarked:#?}"
    );
    let whole = blocks.iter().filter(|b| b.marker == WHOLE).count();
    let fragments = blocks.len() - whole;
    assert!(
        whole >= 2,
        "the smallest rulebook and the worked example: {whole}"
    );
    assert!(
        fragments >= 10,
        "one fragment per part of a regulation: {fragments}"
    );
}

#[test]
fn every_whole_rulebook_validates() {
    for (block, rules) in whole_rulebooks() {
        // It also survives the round trip `rules show` prints.
        let back = Rulebook::from_toml(&rules.to_effective_toml(), "effective.toml")
            .unwrap_or_else(|e| panic!("指南.md:{}: {e}", block.line));
        assert_eq!(back, rules, "指南.md:{}", block.line);
    }
}

#[test]
fn every_fragment_validates_in_the_smallest_rulebook() {
    for block in toml_blocks(&guide())
        .iter()
        .filter(|b| b.marker == FRAGMENT)
    {
        parse(block, &as_rulebook(&block.text));
    }
}

#[test]
fn worked_example_is_the_shipped_jinhua_rulebook() {
    let shipped_text = std::fs::read_to_string(rules_dir().join("jinhua-2018.toml")).unwrap();
    let shipped = Rulebook::from_toml(&shipped_text, "jinhua-2018.toml").unwrap();
    let examples: Vec<(Block, Rulebook)> = whole_rulebooks()
        .into_iter()
        .filter(|(_, r)| r.event.name.contains("金华市第三十四届"))
        .collect();
    assert_eq!(examples.len(), 1, "one worked example of 金华 2018");
    let (block, example) = &examples[0];
    assert_eq!(
        example, &shipped,
        "指南.md:{} differs from jinhua-2018.toml",
        block.line
    );

    // The guide quotes what `qiwang rules check` says of it.
    let said = format!(
        "规则有效 — {} 个组别, {} 个编排组, {} 个奖项名单",
        example.groups.len(),
        example.pools().count(),
        example.prizes.lists.len()
    );
    assert!(guide().contains(&said), "the guide should quote `{said}`");
}
