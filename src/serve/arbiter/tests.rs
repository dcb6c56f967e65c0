use super::*;

#[test]
fn every_button_reads_back_as_a_result() {
    for (value, _, _) in OUTCOMES {
        let mut form = HashMap::new();
        form.insert("result".to_string(), value.to_string());
        let text = entry_text(&form, (1, 0)).unwrap();
        let args = vec!["3".to_string(), text.clone()];
        let entries = results::parse_result_args(&args).unwrap();
        assert_eq!(entries[0].table, 3, "{text}");
    }
    let mut form = HashMap::new();
    form.insert("result".to_string(), "<script>".to_string());
    assert_eq!(entry_text(&form, (0, 0)), None);
    assert_eq!(game::encode("a b/é"), "a%20b%2F%C3%A9");
}
