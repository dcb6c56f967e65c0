//! Printable HTML: one self-contained page, A4 print CSS, readable on a phone.
//!
//! Pages are built with [`Markup`], which cannot hold an unescaped value: tag and
//! attribute names are `&'static str` (written in the source, never from data), every
//! text and attribute value is escaped on the way in, and link targets that carry a
//! scheme (`javascript:`) are replaced by `#`. A registrant named `<script>` appears as
//! text, an id `x"><svg onload=…>` stays inside its attribute.

use super::safe::printable;
use super::{Align, Report};

/// Escapes text for HTML element content and attribute values (control characters are
/// dropped, see [`printable`]), at the end of `out`: the markup's own buffer, without a
/// string per value (a 100,000-player site escapes some ten million cells). The
/// characters escaped are ASCII, so the text is scanned byte by byte and copied a run
/// at a time.
fn escape_into(out: &mut String, s: &str) {
    let s = printable(s);
    let mut run = 0;
    for (at, byte) in s.bytes().enumerate() {
        let entity = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&s[run..at]);
        out.push_str(entity);
        run = at + 1;
    }
    out.push_str(&s[run..]);
}

/// Whether an attribute holds a URL (a link target or a resource).
fn is_url_attribute(name: &str) -> bool {
    matches!(name, "href" | "src" | "action" | "formaction")
}

/// A link target that stays on the site: relative paths only, so a value with a scheme
/// (`javascript:`, `data:`) or a protocol-relative `//host` becomes `#`.
fn relative_url(value: &str) -> &str {
    let scheme = value
        .split(['/', '?', '#'])
        .next()
        .is_some_and(|first| first.contains(':'));
    if scheme || value.starts_with("//") {
        "#"
    } else {
        value
    }
}

/// HTML markup that is safe by construction (see the module docs). The only ways in are
/// escaped text, elements with source-code tag names and escaped attributes, and other
/// `Markup`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Markup(String);

impl Markup {
    /// Empty markup, to be filled by the escaping builders below.
    pub fn new() -> Markup {
        Markup::default()
    }

    /// Empty markup with room for `bytes` bytes (a page whose body is made already).
    pub fn with_capacity(bytes: usize) -> Markup {
        Markup(String::with_capacity(bytes))
    }

    /// Escaped text.
    pub fn text(&mut self, text: &str) -> &mut Markup {
        escape_into(&mut self.0, text);
        self
    }

    /// A line break in the source (readability of the file only).
    pub fn newline(&mut self) -> &mut Markup {
        self.0.push('\n');
        self
    }

    fn open(&mut self, tag: &'static str, attributes: &[(&'static str, &str)]) {
        debug_assert!(tag.bytes().all(|b| b.is_ascii_alphanumeric()));
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attributes {
            debug_assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
            let value = if is_url_attribute(name) {
                relative_url(value)
            } else {
                value
            };
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            escape_into(&mut self.0, value);
            self.0.push('"');
        }
        self.0.push('>');
    }

    fn close(&mut self, tag: &'static str) {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
    }

    /// `<tag attributes>` + what `inner` writes + `</tag>`.
    pub fn element(
        &mut self,
        tag: &'static str,
        attributes: &[(&'static str, &str)],
        inner: impl FnOnce(&mut Markup),
    ) -> &mut Markup {
        self.open(tag, attributes);
        inner(self);
        self.close(tag);
        self
    }

    /// `<tag attributes>escaped text</tag>`.
    pub fn text_element(
        &mut self,
        tag: &'static str,
        attributes: &[(&'static str, &str)],
        text: &str,
    ) -> &mut Markup {
        self.element(tag, attributes, |m| {
            m.text(text);
        })
    }

    /// An element without content (`<meta …>`).
    pub fn void_element(
        &mut self,
        tag: &'static str,
        attributes: &[(&'static str, &str)],
    ) -> &mut Markup {
        self.open(tag, attributes);
        self
    }

    /// `<style>css</style>`. The style sheet is a constant of the source (`&'static str`),
    /// never data.
    pub fn style(&mut self, css: &'static str) -> &mut Markup {
        self.0.push_str("<style>");
        self.0.push_str(css);
        self.0.push_str("</style>");
        self
    }

    /// Appends other markup.
    pub fn append(&mut self, other: &Markup) -> &mut Markup {
        self.0.push_str(&other.0);
        self
    }

    /// The HTML so far, e.g. to place inside a page (`page_of`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The finished HTML, to write to a file or print.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// The style sheet of every page (a constant: a server's Content-Security-Policy allows it
/// by its hash, see `serve`).
pub const PAGE_CSS: &str = CSS;

const CSS: &str = "\n\
body{font-family:'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif;margin:1.5em;color:#111}
h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;margin:1.4em 0 .4em}
p.sub{margin:.1em 0;color:#444}
table{border-collapse:collapse;margin:.3em 0 .6em;max-width:100%}
th,td{border:1px solid #888;padding:.25em .5em;text-align:left;white-space:nowrap}
td.r{text-align:right}td.sign{min-width:7em}td.x{background:#000;color:#000}th{background:#eee}
.wrap{overflow-x:auto}p.note{margin:.2em 0;font-weight:bold}
nav a{margin-right:1em}
@media print{@page{size:A4;margin:15mm}body{margin:0;font-size:10.5pt}nav{display:none}
section{break-inside:avoid-page}th{background:#ddd;-webkit-print-color-adjust:exact;print-color-adjust:exact}}
@media (max-width:600px){body{margin:.5em;font-size:14px}th,td{padding:.2em .3em}}
@media screen and (max-width:600px){body{font-size:15px;overflow-wrap:anywhere}
table.stack,table.stack tbody,table.stack tr{display:block;width:100%}table.stack thead{display:none}
table.stack tr{border:1px solid #888;border-radius:4px;margin:.5em 0;padding:.2em .5em;box-sizing:border-box}
table.stack td{display:flex;justify-content:space-between;gap:.8em;border:0;border-bottom:1px dotted #ccc;white-space:normal;text-align:right;padding:.25em 0}
table.stack td:last-child{border-bottom:0}table.stack td::before{content:attr(data-label);font-weight:bold;text-align:left;flex:none;max-width:45%}
.wrap{overflow-x:visible}nav a{display:inline-block;margin:.2em 1em .2em 0}}
";

/// The signature column (领奖签字) gets room to sign in print.
fn is_signature(column: &str) -> bool {
    column.contains("签字") || column.eq_ignore_ascii_case("signature")
}

/// A whole HTML page around `body` (already escaped markup, e.g. [`body`] or a
/// [`Markup`]'s text).
fn page(lang: &str, title: &str, body: &str) -> String {
    page_with(lang, title, &Markup::new(), body)
}

/// [`page_of`] with more in the page's head (a hall screen's `<meta http-equiv=refresh>`).
pub fn page_with_head(lang: &str, title: &str, extra_head: &Markup, body: &Markup) -> String {
    page_with(lang, title, extra_head, body.as_str())
}

fn page_with(lang: &str, title: &str, extra_head: &Markup, body: &str) -> String {
    page_made(lang, title, extra_head, body.len(), |m| m.0.push_str(body))
}

/// [`page_of`] whose body `body` writes into the page itself: a large sheet is made in
/// the page's buffer rather than in its own and copied there.
/// The buffer is made with room for `body_bytes` of body (see [`stacked_bytes`]).
pub fn page_of_made(
    lang: &str,
    title: &str,
    body_bytes: usize,
    body: impl FnOnce(&mut Markup),
) -> String {
    page_made(lang, title, &Markup::new(), body_bytes, body)
}

/// About the bytes [`body_markup_stacked_into`] writes for `report`, rather more than
/// less: the size a page's buffer is made at. A 100,000-player site has pages of 20–60
/// MB, and a buffer grown by doubling copied all written so far at each step, into fresh
/// memory the kernel zeroes (a tenth of `export --format html`); room never written is
/// never touched.
pub fn stacked_bytes(report: &Report) -> usize {
    // `<td class="r" data-label="">…</td>` around a cell, `<tr></tr>` and a newline around
    // a row: 33 and 10 bytes, with a little room for escapes.
    const CELL: usize = 40;
    const ROW: usize = 16;
    let text = |t: &[String]| t.iter().map(|l| l.len() + 64).sum::<usize>();
    report
        .sections
        .iter()
        .map(|s| {
            let cells: usize = s
                .rows
                .iter()
                .map(|row| {
                    let labels = s.columns.iter().take(row.len()).map(String::len);
                    let values = row.iter().map(String::len);
                    ROW + row.len() * CELL + labels.sum::<usize>() + values.sum::<usize>()
                })
                .sum();
            cells + text(&s.columns) + text(&s.notes) + s.title.len() + 256
        })
        .sum::<usize>()
        + text(&report.subtitle)
        + text(&report.footer)
        + report.title.len()
        + 1024
}

/// The page around the body `body` writes, in a buffer of room for `body_bytes` more.
fn page_made(
    lang: &str,
    title: &str,
    extra_head: &Markup,
    body_bytes: usize,
    body: impl FnOnce(&mut Markup),
) -> String {
    let mut head = Markup::new();
    head.void_element("meta", &[("charset", "utf-8")]).newline();
    head.void_element(
        "meta",
        &[
            ("name", "viewport"),
            ("content", "width=device-width, initial-scale=1"),
        ],
    )
    .newline();
    head.text_element("title", &[], title).newline();
    head.append(extra_head);
    // One buffer the size of the page, doctype first: a pairing sheet of 100,000 players
    // is 30 MB, and growing the page by doubling and then copying it once more into the
    // returned text was a tenth of `export --format html`.
    let mut html = Markup::with_capacity(body_bytes + head.0.len() + CSS.len() + 256);
    html.0.push_str("<!DOCTYPE html>\n");
    html.element("html", &[("lang", lang)], |m| {
        m.newline();
        m.element("head", &[], |m| {
            m.newline().append(&head).style(CSS).newline();
        });
        m.newline();
        m.element("body", &[], |m| {
            m.newline();
            body(m);
        });
        m.newline();
    });
    html.0.push('\n');
    html.0
}

/// [`page`] around a [`Markup`] body.
pub fn page_of(lang: &str, title: &str, body: &Markup) -> String {
    page(lang, title, body.as_str())
}

/// The report's body markup (no page wrapper).
fn body(report: &Report) -> String {
    body_markup(report).into_string()
}

/// The report's body as [`Markup`].
pub fn body_markup(report: &Report) -> Markup {
    body_markup_with(report, &[])
}

/// [`body_markup`] with attributes on every table (`class` for a sheet's own print CSS).
pub fn body_markup_with(report: &Report, table_attributes: &[(&'static str, &str)]) -> Markup {
    body_markup_of(report, table_attributes, false)
}

/// [`body_markup`] for a phone: on a narrow screen each row becomes a card of `heading:
/// value` lines (class `stack`, each cell labelled with its column's heading in
/// `data-label`), so nothing scrolls sideways; wider screens and paper keep the sheet.
pub fn body_markup_stacked(report: &Report) -> Markup {
    body_markup_of(report, &[("class", "stack")], true)
}

fn body_markup_of(
    report: &Report,
    table_attributes: &[(&'static str, &str)],
    labelled: bool,
) -> Markup {
    let mut b = Markup::new();
    body_markup_into(&mut b, report, table_attributes, labelled);
    b
}

/// [`body_markup_stacked`] written at the end of `b` (a page made in one buffer).
pub fn body_markup_stacked_into(b: &mut Markup, report: &Report) {
    body_markup_into(b, report, &[("class", "stack")], true);
}

fn body_markup_into(
    b: &mut Markup,
    report: &Report,
    table_attributes: &[(&'static str, &str)],
    labelled: bool,
) {
    b.text_element("h1", &[], &report.title).newline();
    for line in &report.subtitle {
        b.text_element("p", &[("class", "sub")], line).newline();
    }
    for section in &report.sections {
        b.element("section", &[], |b| {
            b.newline();
            if !section.title.is_empty() {
                b.text_element("h2", &[], &section.title).newline();
            }
            if !section.columns.is_empty() {
                b.element("div", &[("class", "wrap")], |b| {
                    b.element("table", table_attributes, |b| {
                        b.newline();
                        b.element("thead", &[], |b| {
                            b.element("tr", &[], |b| {
                                for c in &section.columns {
                                    b.text_element("th", &[], c);
                                }
                            });
                        });
                        b.newline();
                        b.element("tbody", &[], |b| {
                            b.newline();
                            for row in &section.rows {
                                b.element("tr", &[], |b| {
                                    for (i, v) in row.iter().enumerate() {
                                        let class: &[(&str, &str)] = match section.align.get(i) {
                                            // A round robin's blacked-out diagonal (docs/rules.md §14.5).
                                            _ if v == super::BLACKED_OUT => {
                                                // A class, not a style attribute: the served
                                                // pages' policy allows no inline style.
                                                &[("class", "x")]
                                            }
                                            Some(Align::Right) => &[("class", "r")],
                                            _ if v.is_empty()
                                                && section
                                                    .columns
                                                    .get(i)
                                                    .is_some_and(|c| is_signature(c)) =>
                                            {
                                                &[("class", "sign")]
                                            }
                                            _ => &[],
                                        };
                                        let label = section.columns.get(i).filter(|_| labelled);
                                        // The class and the label, without a vector per
                                        // cell (ten million cells for 100,000 players).
                                        match (label, class.first()) {
                                            (Some(label), Some(&class)) => b.text_element(
                                                "td",
                                                &[class, ("data-label", label)],
                                                v,
                                            ),
                                            (Some(label), None) => {
                                                b.text_element("td", &[("data-label", label)], v)
                                            }
                                            (None, _) => b.text_element("td", class, v),
                                        };
                                    }
                                });
                                b.newline();
                            }
                        });
                    });
                });
                b.newline();
            }
            for note in &section.notes {
                b.text_element("p", &[("class", "note")], note).newline();
            }
        });
        b.newline();
    }
    if !report.footer.is_empty() {
        b.element("footer", &[], |b| {
            b.newline();
            for line in &report.footer {
                b.text_element("p", &[], line.trim()).newline();
            }
        });
        b.newline();
    }
}

pub fn render(report: &Report) -> String {
    page(&report.lang, &report.title, &body(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Format, Section};

    /// Runs between the escaped characters are copied whole, multibyte text included,
    /// and control characters dropped first.
    #[test]
    fn escaping_copies_the_runs_between_entities() {
        let mut out = String::from("x");
        escape_into(&mut out, "张三&'李四'<b>\u{7}\"王\">");
        assert_eq!(out, "x张三&amp;&#39;李四&#39;&lt;b&gt;&quot;王&quot;&gt;");
        escape_into(&mut out, "");
        escape_into(&mut out, "象棋");
        assert_eq!(
            out,
            "x张三&amp;&#39;李四&#39;&lt;b&gt;&quot;王&quot;&gt;象棋"
        );
    }

    /// A page's buffer is made at least as large as its body: the estimate errs on the
    /// large side, escapes, labels and empty cells included.
    #[test]
    fn the_stacked_body_fits_its_estimate() {
        let mut r = Report::new("赛事 & <名单>");
        r.subtitle.push("第9轮".into());
        let mut s = Section::new("公开组", vec!["台号".into(), "红方".into(), "结果".into()]);
        s = s.right(&[0]);
        for i in 0..200 {
            s.push(vec![
                i.to_string(),
                format!("\"张{i}\" & <李>"),
                String::new(),
            ]);
        }
        s.push(vec!["1".into()]);
        s.notes.push("注：'x' & y".into());
        r.sections.push(s);
        let mut body = Markup::new();
        body_markup_stacked_into(&mut body, &r);
        assert!(
            stacked_bytes(&r) >= body.0.len(),
            "{} < {}",
            stacked_bytes(&r),
            body.0.len()
        );
    }

    #[test]
    fn every_value_is_escaped() {
        let mut r = Report::new("<b>event</b>");
        let mut s = Section::new("t<", vec!["名字\"".into()]);
        s.push(vec!["<script>alert(1)</script>".into()]);
        r.sections.push(s);
        let html = r.render(Format::Html);
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("&lt;b&gt;event&lt;/b&gt;"));
        assert!(html.contains("名字&quot;"));
    }

    /// `pair --explain --format html` prints the reasons under the sheet.
    #[test]
    fn the_footer_is_printed_and_escaped() {
        let mut r = Report::new("x");
        r.footer.push("  <b>甲</b> plays red".into());
        let html = r.render(Format::Html);
        assert!(
            html.contains("<footer>\n<p>&lt;b&gt;甲&lt;/b&gt; plays red</p>\n</footer>"),
            "{html}"
        );
    }

    #[test]
    fn csv_quotes_commas() {
        let mut r = Report::new("x");
        let mut s = Section::new("", vec!["a".into(), "b".into()]);
        s.push(vec!["1,2".into(), "x".into()]);
        r.sections.push(s);
        assert_eq!(r.render(Format::Csv), "\u{feff}a,b\n\"1,2\",x\n");
    }
}
