//! Native throughput of parse_structured on one file: `cargo run --release --example sap_speed -- FILE`.
use serde_json::json;
use std::time::Instant;
use understudy::sap::{parse_structured, scan::scan_value};

fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).expect("a file")).unwrap();
    let schema = json!({"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"qty":{"type":"integer"},"price":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}},"note":{"type":["string","null"]}}}}}});
    let mb = text.len() as f64 / (1 << 20) as f64;
    let t = Instant::now();
    for _ in 0..5 {
        std::hint::black_box(scan_value(&text, 0).unwrap());
    }
    println!("scan: {:.1} MB/s", mb * 5.0 / t.elapsed().as_secs_f64());
    let t = Instant::now();
    for _ in 0..5 {
        std::hint::black_box(parse_structured(&text, &schema).unwrap());
    }
    println!(
        "parse_structured: {:.1} MB/s",
        mb * 5.0 / t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    for _ in 0..5 {
        std::hint::black_box(understudy::sap::as_is::conforms_as_is(&text, &schema));
    }
    println!(
        "fast path check ({}): {:.1} MB/s",
        understudy::sap::as_is::conforms_as_is(&text, &schema),
        mb * 5.0 / t.elapsed().as_secs_f64()
    );
    let v = parse_structured(&text, &schema).unwrap().value;
    let t = Instant::now();
    for _ in 0..5 {
        std::hint::black_box(v.to_string());
    }
    println!(
        "serialize: {:.1} MB/s",
        mb * 5.0 / t.elapsed().as_secs_f64()
    );
}
