//! Profiling aid: the clean-reply check alone, many times: `cargo run --release --example fast_only -- FILE`.
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).expect("a file")).unwrap();
    let schema = serde_json::json!({"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"qty":{"type":"integer"},"price":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}},"note":{"type":["string","null"]}}}}}});
    let t = std::time::Instant::now();
    for _ in 0..40 {
        assert!(understudy::sap::as_is::conforms_as_is(&text, &schema));
    }
    println!(
        "{:.1} MB/s",
        40.0 * text.len() as f64 / (1 << 20) as f64 / t.elapsed().as_secs_f64()
    );
}
