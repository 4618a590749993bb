//! Native cost of one short fenced reply: `cargo run --release --example sap_short`.
use serde_json::json;
use std::time::Instant;
use understudy::sap::parse_structured;

fn main() {
    let reply = "Result:\n```json\n{\"id\": \"item-1\", \"qty\": 3, \"tags\": [\"x\",], }\n```";
    let schema = json!({"type":"object","properties":{"id":{"type":"string"},"qty":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}});
    let n = 200_000;
    for (name, s) in [("schema", &schema), ("{}", &json!({}))] {
        let t = Instant::now();
        for _ in 0..n {
            std::hint::black_box(parse_structured(reply, s).unwrap());
        }
        println!("{name}: {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(serde_json::from_str::<serde_json::Value>(r#"{"type":"object","properties":{"id":{"type":"string"},"qty":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}}"#).unwrap());
    }
    println!("schema parse: {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
