//! Profiling aid: the bound parser's engine work on 10k short fenced replies (the fast-path
//! check, the parse, the answer text the facade reads), and the allocations one reply makes:
//! `cargo run --release --example short_replies`.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting allocations and reallocations.
struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        System.realloc(ptr, layout, size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn main() {
    let schema = serde_json::json!({"type":"object","properties":{"id":{"type":"string"},"qty":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}});
    let replies: Vec<String> = (0..10_000).map(|i| format!("Result:\n```json\n{{\"id\": \"item-{i}\", \"qty\": {}, \"tags\": [\"x\",], }}\n```", i % 9)).collect();
    let options = understudy::sap::Options::default();
    let read = |reply: &str| {
        assert!(!understudy::sap::as_is::conforms_as_is(reply, &schema));
        let reading = understudy::sap::parse_structured_reading(reply, &schema, &options).unwrap();
        std::hint::black_box(reading.into_answer_text());
    };
    let before = ALLOCATIONS.load(Relaxed);
    read(&replies[1]);
    let allocations = ALLOCATIONS.load(Relaxed) - before;
    for round in 0..3 {
        let t = std::time::Instant::now();
        for r in &replies {
            read(r);
        }
        if round == 2 {
            println!(
                "{:.2} µs per reply (parse + answer text), {allocations} allocations",
                t.elapsed().as_secs_f64() * 1e6 / replies.len() as f64
            );
        }
    }
}
