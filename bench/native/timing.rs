//! Native timing of the engine's phases on one schema: `cargo run --release --example timing -- FILE [N] [phase]`.
use std::time::Instant;
use understudy::schema::json;
use understudy::schema::strict::{prepare, Mode};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let n: usize = args.get(2).map_or(20000, |s| s.parse().unwrap());
    let only = args.get(3).cloned().unwrap_or_default();
    let d = json::parse(&text).unwrap();
    let p = prepare(&d, 0, Mode::Convert).unwrap();
    let phases: [(&str, &dyn Fn()); 3] = [
        ("parse", &|| {
            std::hint::black_box(json::parse(&text).unwrap());
        }),
        ("prepare", &|| {
            std::hint::black_box(prepare(&d, 0, Mode::Convert).unwrap());
        }),
        ("serialize", &|| {
            std::hint::black_box(json::to_string(&p.doc, p.root));
        }),
    ];
    for (name, f) in phases {
        if !only.is_empty() && only != name {
            continue;
        }
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        println!(
            "{name} {:.2} us",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        );
    }
}
