//! Profiling aid: parse_structured on 10k short fenced replies: `cargo run --release --example short_replies`.
fn main() {
    let schema = serde_json::json!({"type":"object","properties":{"id":{"type":"string"},"qty":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}});
    let replies: Vec<String> = (0..10_000).map(|i| format!("Result:\n```json\n{{\"id\": \"item-{i}\", \"qty\": {}, \"tags\": [\"x\",], }}\n```", i % 9)).collect();
    for round in 0..3 {
        let t = std::time::Instant::now();
        for r in &replies {
            let parsed = understudy::sap::parse_structured(r, &schema).unwrap();
            std::hint::black_box(serde_json::to_string(&parsed).unwrap());
        }
        if round == 2 {
            println!(
                "{:.2} µs per reply (parse + JSON text out)",
                t.elapsed().as_secs_f64() * 1e6 / replies.len() as f64
            );
        }
    }
}
