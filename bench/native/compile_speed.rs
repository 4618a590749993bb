//! Native time of `compileJsonSchema`'s pieces on one schema: `cargo run --release --example compile_speed`.
use std::time::Instant;

fn main() {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"id": {"type": "string"}, "note": {"type": "string", "description": "x".repeat(2000)}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["id"]
    });
    let n = 2000;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(jsonschema::options().build(&schema).unwrap());
    }
    println!(
        "jsonschema build: {:.1} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(
            jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
                .unwrap(),
        );
    }
    println!(
        "jsonschema build, formats: {:.1} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(understudy::schema::validate::compile(&schema).unwrap());
    }
    println!(
        "compile (validator + fast path): {:.1} us",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
