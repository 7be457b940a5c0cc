//! R-J-1, the recording pool: N jobs recorded on W workers come back as one list per job, in
//! job order, whatever the stealing; executed in that order they give the draw records of the
//! same jobs recorded in order on one context; errors and panics come back in the job's place;
//! the 48-context limit holds; repeated frames reuse the workers and their contexts.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::Fixture;
use executor::{
    DrawRecord, FieldValue, ImmediateContext, JobError, PoolError, RecordingPool, RecordingPoolDesc,
};
use recorder::command::InstanceId;
use recorder::*;

fn pool(device: &Device, workers: u32, semantics: Semantics) -> RecordingPool {
    RecordingPool::new(
        device,
        &RecordingPoolDesc {
            name: "test",
            workers,
            semantics,
            ..Default::default()
        },
    )
    .expect("recording pool")
}

/// Marsaglia's xorshift64, seeded off zero.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn below(&mut self, bound: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as u32
    }
}

/// Job `job` of frame `seed`: a deterministic mix of binds, maps, clears and draws that is
/// valid under both semantics (a fast list maps the dynamic buffer before binding it; a legacy
/// list of an odd job binds it unmapped: a split point resolved at execution).
fn record_job(f: &Fixture, context: &mut DeferredContext, seed: u64, job: usize) {
    let mut rng = Rng::new(seed ^ (job as u64).wrapping_mul(0x1234_5678_9abc_def1));
    let fast = context.semantics() == Semantics::Fast;
    if fast || job.is_multiple_of(2) {
        if let Ok(data) = context
            .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
            .map(Mapped::keep_mapped)
        {
            data[0] = job as u8;
        }
        context.unmap(f.cb_dyn);
    }
    context.set_input_layout(Some(f.layout));
    context.set_shader(Stage::Vertex, Some(f.vs));
    context.set_shader(Stage::Pixel, Some(f.ps));
    for _ in 0..4 + rng.below(12) {
        match rng.below(10) {
            0 => {
                let buffer = [f.vb, f.vb2][rng.below(2) as usize];
                let slot = [0, 2][rng.below(2) as usize];
                context.set_vertex_buffers(slot, &[common::vertex(buffer)]);
            }
            1 => {
                let buffer = [f.cb, f.cb2, f.cb_dyn][rng.below(3) as usize];
                let stage = [Stage::Vertex, Stage::Pixel][rng.below(2) as usize];
                context.set_constant_buffers(stage, rng.below(2), &[Some(buffer)]);
            }
            2 => {
                let view = [f.tex_srv, f.tex2_srv][rng.below(2) as usize];
                context.set_shader_resources(
                    Stage::Pixel,
                    [0, 2][rng.below(2) as usize],
                    &[Some(view)],
                );
            }
            3 => context.set_render_targets(&[Some(f.rt_plain_rtv)], Some(f.ds_dsv)),
            4 => context.clear_render_target_view(f.rt_plain_rtv, [0.0, 0.0, 0.0, 1.0]),
            5 => context.set_blend_state(Some(f.blend), [1.0; 4], u32::MAX),
            6 => context.set_viewports(&[Viewport::new(0.0, 0.0, 64.0, 64.0)]),
            7 => {
                if let Ok(data) = context
                    .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                    .map(Mapped::keep_mapped)
                {
                    data[1] = rng.below(256) as u8;
                }
                context.unmap(f.cb_dyn);
            }
            8 => {
                context.set_index_buffer(Some(f.ib), Format::R32Uint, 0);
                context.draw_indexed(3 + rng.below(30), 0, 0);
            }
            _ => context.draw(3 + rng.below(30), rng.below(8)),
        }
    }
    context.draw(3, 0);
}

/// The records with every dynamic instance renamed to the order it first appears in (a list's
/// instances are named after the context that recorded it).
fn normalized(records: &[DrawRecord]) -> Vec<Vec<(String, String)>> {
    let mut names: HashMap<InstanceId, usize> = HashMap::new();
    records
        .iter()
        .map(|record| {
            record
                .fields()
                .into_iter()
                .map(|(name, value)| {
                    let value = match value {
                        FieldValue::Object {
                            kind,
                            handle,
                            instance,
                        } => {
                            let next = names.len() + 1;
                            let k = if instance == InstanceId::INITIAL {
                                0
                            } else {
                                *names.entry(instance).or_insert(next)
                            };
                            format!("{kind:?}{handle:?}#{k}")
                        }
                        other => format!("{other:?}"),
                    };
                    (name, value)
                })
                .collect()
        })
        .collect()
}

#[test]
fn r_j_1_lists_come_back_in_job_order() {
    let device = Device::new(DeviceDesc::default());
    let mut pool = pool(&device, 4, Semantics::Fast);
    // Uneven jobs, so workers finish out of order: job k records k % 7 * 50 + 1 draws.
    let draws = |job: usize| (job % 7 * 50 + 1) as u32;
    for _frame in 0..3 {
        let lists = pool.record(40, |job, context| {
            for draw in 0..draws(job) {
                context.draw(3, draw);
            }
        });
        assert_eq!(lists.len(), 40);
        for (job, list) in lists.iter().enumerate() {
            let list = list.as_ref().unwrap_or_else(|e| panic!("job {job}: {e}"));
            assert_eq!(list.stats().draws, draws(job), "job {job}'s list");
        }
        assert_eq!(pool.reports().len(), 40);
        assert!(pool.reports().iter().all(|r| r.worker < 4));
    }
    assert!(pool.record(0, |_, _| unreachable!()).is_empty());
}

/// Job 0 holds its worker until every other job has finished, so the other worker must take
/// the rest, job 1 included, which sat in the first worker's deque: stolen.
#[test]
fn r_j_1_an_idle_worker_steals_from_a_busy_one() {
    let device = Device::new(DeviceDesc::default());
    let mut pool = pool(&device, 2, Semantics::Fast);
    let finished = AtomicUsize::new(0);
    let lists = pool.record(8, |job, context| {
        if job == 0 {
            let deadline = Instant::now() + Duration::from_secs(30);
            while finished.load(Ordering::Acquire) < 7 {
                assert!(Instant::now() < deadline, "the other jobs never finished");
                std::thread::yield_now();
            }
        }
        context.draw(3, job as u32);
        finished.fetch_add(1, Ordering::Release);
    });
    assert!(lists.iter().all(Result::is_ok), "{lists:?}");
    let reports = pool.reports();
    let busy = reports[0].worker;
    assert!(reports[1..].iter().all(|r| r.worker != busy), "{reports:?}");
    assert_eq!(reports[1].stolen_from, Some(busy), "{reports:?}");
}

/// Executing the pool's lists in job order gives the draw records (and counters) of the same
/// jobs recorded in order on one context, for both semantics and several worker counts.
#[test]
fn r_j_1_executing_in_job_order_matches_one_context() {
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        for workers in [1, 3] {
            for seed in 0..6u64 {
                let jobs = 2 + (seed as usize * 5) % 13;
                // X: the pool, two frames (the second on warm workers), executed in order.
                let x = Fixture::with_immediate(semantics);
                let mut imm_x = ImmediateContext::new(&x.device).expect("immediate");
                let mut pool = pool(&x.device, workers, semantics);
                for frame in 0..2 {
                    let lists = pool.record(jobs, |job, context| {
                        record_job(&x, context, seed + frame, job)
                    });
                    for (job, list) in lists.iter().enumerate() {
                        let list = list.as_ref().unwrap_or_else(|e| panic!("job {job}: {e}"));
                        imm_x
                            .execute_command_list(list, RestoreState::ClearState)
                            .expect("execute");
                    }
                }
                // Y: one context records the same jobs in order.
                let y = Fixture::twin_of(&x, semantics);
                let mut imm_y = ImmediateContext::new(&y.device).expect("immediate");
                let mut context = y.context(semantics);
                for frame in 0..2 {
                    for job in 0..jobs {
                        record_job(&y, &mut context, seed + frame, job);
                        let list = context
                            .finish_command_list(RestoreState::ClearState)
                            .expect("list");
                        imm_y
                            .execute_command_list(&list, RestoreState::ClearState)
                            .expect("execute");
                    }
                }
                let case = format!("{semantics:?}, {workers} workers, seed {seed}, {jobs} jobs");
                let (found, expected) = (normalized(imm_x.records()), normalized(imm_y.records()));
                assert!(!expected.is_empty(), "{case}");
                assert_eq!(found.len(), expected.len(), "{case}: record counts");
                for (i, (found, expected)) in found.iter().zip(&expected).enumerate() {
                    assert_eq!(found, expected, "{case}: record {i}");
                }
                assert_eq!(imm_x.counters(), imm_y.counters(), "{case}: counters");
            }
        }
    }
}

/// A sticky error, a finish refused and a panic each come back in their job's place; the
/// other lists are whole, and the next frame on the same workers is clean.
#[test]
fn r_j_1_errors_come_back_in_the_jobs_place() {
    let f = Fixture::new();
    for semantics in [Semantics::Legacy, Semantics::Fast] {
        let mut pool = pool(&f.device, 2, semantics);
        let lists = pool.record(6, |job, context| {
            context.draw(3, 0);
            match job {
                // Slot 16 is out of range (R-OBJ-5): a sticky error.
                1 => context.set_constant_buffers(Stage::Vertex, 16, &[Some(f.cb)]),
                // Left mapped: the finish is refused and the list stays open on the context.
                3 => {
                    let _ = context
                        .map(f.cb_dyn, MapType::WriteDiscard, MapFlags::None)
                        .map(Mapped::keep_mapped);
                }
                4 => panic!("job 4 gave up"),
                _ => {}
            }
            context.draw(3, 1);
        });
        assert_eq!(lists.len(), 6);
        for (job, list) in lists.iter().enumerate() {
            match (job, list) {
                (1, Err(JobError::Record { job: 1, error })) => {
                    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
                    assert_eq!(error.call_index, 1);
                    assert!(error.context.contains("test.worker"), "{error}");
                }
                (3, Err(JobError::Record { job: 3, error })) => {
                    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
                    assert!(
                        matches!(
                            error.error,
                            Error::StillMapped {
                                call: "finish_command_list",
                                ..
                            }
                        ),
                        "{error}"
                    );
                }
                (
                    4,
                    Err(
                        error @ JobError::Panicked {
                            job: 4, message, ..
                        },
                    ),
                ) => {
                    assert_eq!(message, "job 4 gave up");
                    assert_eq!(error.job(), 4);
                }
                (0 | 2 | 5, Ok(list)) => assert_eq!(list.stats().draws, 2),
                _ => panic!("job {job}: unexpected {list:?}"),
            }
        }
        // Nothing of the failed jobs leaks into the next lists of the same contexts.
        for _frame in 0..2 {
            let lists = pool.record(6, |_, context| context.draw(3, 0));
            for list in &lists {
                let list = list.as_ref().expect("clean list");
                assert_eq!(list.stats().draws, 1);
                assert_eq!(list.stats().calls, 1);
                assert_eq!(list.stats().split_points.total(), 0);
            }
        }
    }
}

#[test]
fn r_j_1_the_48_context_limit_holds() {
    let device = Device::new(DeviceDesc::default());
    let desc = |workers| RecordingPoolDesc {
        name: "limit",
        workers,
        ..Default::default()
    };
    for workers in [0, 49] {
        match RecordingPool::new(&device, &desc(workers)) {
            Err(error @ PoolError::WorkerCount { limit: 48, .. }) => {
                assert!(error.to_string().contains("R-REC-1"), "{error}")
            }
            other => panic!("{workers} workers: {other:?}"),
        }
        assert_eq!(device.live_deferred_contexts(), 0);
    }
    let mut full = RecordingPool::new(&device, &desc(48)).expect("48 workers");
    assert_eq!(device.live_deferred_contexts(), 48);
    match RecordingPool::new(&device, &desc(1)) {
        Err(PoolError::Context {
            worker: 0, error, ..
        }) => {
            assert_eq!(error.kind(), ErrorKind::TooManyContexts)
        }
        other => panic!("a 49th context: {other:?}"),
    }
    let lists = full.record(96, |_, context| context.draw(3, 0));
    assert!(lists.iter().all(Result::is_ok));
    drop(lists);
    drop(full);
    assert_eq!(device.live_deferred_contexts(), 0);
    // A pool that does not fit beside other contexts gives back what it created.
    let _others: Vec<_> = (0..40)
        .map(|_| device.create_deferred_context(&DeferredContextDesc::default()))
        .collect::<Result<_, _>>()
        .expect("40 contexts");
    assert!(RecordingPool::new(&device, &desc(9)).is_err());
    assert_eq!(device.live_deferred_contexts(), 40);
    assert!(RecordingPool::new(&device, &desc(8)).is_ok());
}

/// The same threads and the same contexts record every frame: no spawn, no context creation.
#[test]
fn r_j_1_repeated_frames_reuse_the_workers() {
    let device = Device::new(DeviceDesc::default());
    let mut pool = pool(&device, 3, Semantics::Legacy);
    let seen: Mutex<HashSet<(std::thread::ThreadId, u32)>> = Mutex::new(HashSet::new());
    let frame_data: Vec<u32> = (0..24).collect();
    let mut lists = Vec::new();
    for _frame in 0..10 {
        pool.record_into(
            frame_data.len(),
            |job, context| {
                seen.lock()
                    .unwrap()
                    .insert((std::thread::current().id(), context.serial()));
                context.draw(frame_data[job], 0);
            },
            &mut lists,
        );
        assert_eq!(lists.len(), 24);
        assert_eq!(device.live_deferred_contexts(), 3);
    }
    let seen = seen.into_inner().unwrap();
    let threads: HashSet<_> = seen.iter().map(|(thread, _)| thread).collect();
    let serials: HashSet<_> = seen.iter().map(|(_, serial)| serial).collect();
    assert!(threads.len() <= 3 && serials.len() <= 3, "{seen:?}");
    // Each thread keeps one context.
    assert_eq!(threads.len(), seen.len(), "{seen:?}");
    assert!(!threads.contains(&std::thread::current().id()));
}
