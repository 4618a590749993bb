//! Which (schema, text) pairs of a JSON-lines file the validation fast path proves valid, and
//! its native time per call against the full path: `cargo run --release --example quick_cover -- FILE`.
//! Each line is `{"name", "schema", "text"}` (bench/ writes one from the corpus).
use std::time::Instant;
use understudy::schema::validate::compile;

fn main() {
    let path = std::env::args().nth(1).expect("a JSON-lines file");
    let (mut quick_total, mut full_total) = (0.0, 0.0);
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let (name, text) = (
            case["name"].as_str().unwrap(),
            case["text"].as_str().unwrap(),
        );
        let validator = compile(&case["schema"]).unwrap();
        let proved = validator.proves_valid(text);
        let n = 20_000;
        let t = Instant::now();
        for _ in 0..n {
            std::hint::black_box(validator.validate_json(std::hint::black_box(text)));
        }
        let quick = t.elapsed().as_secs_f64() * 1e9 / n as f64;
        let t = Instant::now();
        for _ in 0..n {
            let value: serde_json::Value =
                serde_json::from_str(std::hint::black_box(text)).unwrap();
            std::hint::black_box(validator.validate(&value));
        }
        let full = t.elapsed().as_secs_f64() * 1e9 / n as f64;
        quick_total += quick;
        full_total += full;
        println!(
            "{}\t{name}\t{quick:.0} ns\t{full:.0} ns",
            if proved { "fast" } else { "FULL" }
        );
    }
    println!("total: validate_json {quick_total:.0} ns, full path {full_total:.0} ns");
}
