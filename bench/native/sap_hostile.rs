//! Times parse_structured / parse_partial on hostile inputs (the linear-time bars):
//! `cargo run --release --example sap_hostile`.
use serde_json::json;
use std::time::Instant;
use understudy::sap::{parse_partial, parse_structured};

fn main() {
    let cases = [
        ("1 MB of prose without JSON", "word ".repeat(200_000)),
        ("100k unmatched quotes", "\"".repeat(100_000)),
        ("10k nested brackets", "[".repeat(10_000)),
        (
            "10k nested, closed",
            "[".repeat(10_000) + &"]".repeat(10_000),
        ),
        ("1 MB of backslashes", "\\".repeat(1_000_000)),
        (
            "1 MB of backslashes in a string",
            format!("{{\"a\": \"{}\"}}", "\\".repeat(1_000_000)),
        ),
        ("100k braces in prose", "{ ".repeat(100_000)),
        ("20k fenced blocks", "```\n{\"a\": 1}\n```\n".repeat(20_000)),
    ];
    let schema = json!({"type":"object"});
    for (name, text) in &cases {
        let t = Instant::now();
        let a = parse_structured(text, &schema)
            .map(|_| ())
            .map_err(|e| e.reason);
        let structured = t.elapsed();
        let t = Instant::now();
        let b = parse_partial(text, &schema)
            .map(|_| ())
            .map_err(|e| e.reason);
        println!(
            "{name}: parseStructured {:.1} ms ({a:?}), parsePartial {:.1} ms ({b:?})",
            structured.as_secs_f64() * 1e3,
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}
