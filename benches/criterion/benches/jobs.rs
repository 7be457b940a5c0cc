//! The recording pool's own cost (R-J-1): a frame of small jobs (one draw each, so the jobs'
//! recording is negligible and what is timed is the hand-out, the stealing, the finishes and
//! the wake-ups), on `RecordingPool` and, for comparison, on W scoped threads spawned for the
//! frame, each finishing a list per job of its fixed contiguous share (the frame demo's way).
//! Worker counts are the benchmark parameter; throughput is in jobs.
//!
//! ```text
//! cargo bench -p criterion-benches --bench jobs
//! ```

use std::hint::black_box;
use std::thread;

use benches::split_range;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::{RecordingPool, RecordingPoolDesc};
use recorder::*;

/// Jobs per frame.
const JOBS: usize = 64;

fn bench(c: &mut Criterion) {
    let device = Device::new(DeviceDesc::default());
    let mut group = c.benchmark_group("jobs_frame");
    group.throughput(Throughput::Elements(JOBS as u64));
    for workers in [1u32, 2, 4] {
        let mut pool = RecordingPool::new(
            &device,
            &RecordingPoolDesc {
                name: "bench",
                workers,
                semantics: Semantics::Fast,
                ..Default::default()
            },
        )
        .expect("pool");
        let mut lists = Vec::with_capacity(JOBS);
        group.bench_with_input(BenchmarkId::new("pool", workers), &workers, |b, _| {
            b.iter(|| {
                pool.record_into(JOBS, |job, context| context.draw(3, job as u32), &mut lists);
                black_box(&lists);
                lists.clear();
            })
        });
        drop(pool);

        let mut contexts: Vec<DeferredContext> = (0..workers)
            .map(|_| {
                device
                    .create_deferred_context(&DeferredContextDesc {
                        semantics: Semantics::Fast,
                        ..Default::default()
                    })
                    .expect("context")
            })
            .collect();
        let shares = split_range(JOBS as u32, workers);
        group.bench_with_input(BenchmarkId::new("scoped", workers), &workers, |b, _| {
            b.iter(|| {
                let lists: Vec<Vec<CommandList>> = thread::scope(|s| {
                    let handles: Vec<_> = contexts
                        .iter_mut()
                        .zip(shares.iter().cloned())
                        .map(|(context, share)| {
                            s.spawn(move || {
                                share
                                    .map(|job| {
                                        context.draw(3, job);
                                        context
                                            .finish_command_list(RestoreState::ClearState)
                                            .expect("list")
                                    })
                                    .collect()
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("worker"))
                        .collect()
                });
                black_box(lists)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
