//! Printable HTML: one self-contained page, A4 print CSS, readable on a phone.
//! Every value is escaped: a registrant named `<script>` appears as text.

use super::{Align, Report};

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const CSS: &str = "\
body{font-family:'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif;margin:1.5em;color:#111}
h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;margin:1.4em 0 .4em}
p.sub{margin:.1em 0;color:#444}
table{border-collapse:collapse;margin:.3em 0 .6em;max-width:100%}
th,td{border:1px solid #888;padding:.25em .5em;text-align:left;white-space:nowrap}
td.r{text-align:right}td.sign{min-width:7em}th{background:#eee}
.wrap{overflow-x:auto}p.note{margin:.2em 0;font-weight:bold}
nav a{margin-right:1em}
@media print{@page{size:A4;margin:15mm}body{margin:0;font-size:10.5pt}nav{display:none}
section{break-inside:avoid-page}th{background:#ddd;-webkit-print-color-adjust:exact;print-color-adjust:exact}}
@media (max-width:600px){body{margin:.5em;font-size:14px}th,td{padding:.2em .3em}}
";

/// The signature column (领奖签字) gets room to sign in print.
fn is_signature(column: &str) -> bool {
    column.contains("签字") || column.eq_ignore_ascii_case("signature")
}

/// A whole HTML page around `body` (already escaped markup).
pub fn page(lang: &str, title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{}</title>\n<style>\n{}</style>\n</head>\n<body>\n{}</body>\n</html>\n",
        escape(lang),
        escape(title),
        CSS,
        body
    )
}

/// The report's body markup (no page wrapper).
pub fn body(report: &Report) -> String {
    let mut b = String::new();
    b.push_str(&format!("<h1>{}</h1>\n", escape(&report.title)));
    for line in &report.subtitle {
        b.push_str(&format!("<p class=\"sub\">{}</p>\n", escape(line)));
    }
    for section in &report.sections {
        b.push_str("<section>\n");
        if !section.title.is_empty() {
            b.push_str(&format!("<h2>{}</h2>\n", escape(&section.title)));
        }
        if !section.columns.is_empty() {
            b.push_str("<div class=\"wrap\"><table>\n<thead><tr>");
            for c in &section.columns {
                b.push_str(&format!("<th>{}</th>", escape(c)));
            }
            b.push_str("</tr></thead>\n<tbody>\n");
            for row in &section.rows {
                b.push_str("<tr>");
                for (i, v) in row.iter().enumerate() {
                    let class = match section.align.get(i) {
                        Some(Align::Right) => " class=\"r\"",
                        _ if v.is_empty()
                            && section.columns.get(i).is_some_and(|c| is_signature(c)) =>
                        {
                            " class=\"sign\""
                        }
                        _ => "",
                    };
                    b.push_str(&format!("<td{class}>{}</td>", escape(v)));
                }
                b.push_str("</tr>\n");
            }
            b.push_str("</tbody></table></div>\n");
        }
        for note in &section.notes {
            b.push_str(&format!("<p class=\"note\">{}</p>\n", escape(note)));
        }
        b.push_str("</section>\n");
    }
    if !report.footer.is_empty() {
        b.push_str("<footer>\n");
        for line in &report.footer {
            b.push_str(&format!("<p>{}</p>\n", escape(line.trim())));
        }
        b.push_str("</footer>\n");
    }
    b
}

pub fn render(report: &Report) -> String {
    page(&report.lang, &report.title, &body(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Format, Section};

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
        assert_eq!(r.render(Format::Csv), "a,b\n\"1,2\",x\n");
    }
}
