//! This engine's side of the comparison, and the naive recorder's: the workload
//! (`benches::workload`) recorded on a fast deferred context and into draw bundles, the bundles
//! replayed into a list and on the immediate context, the naive `Vec<enum>` + `Arc` recorder.
//!
//! **In:** the options (draws, runs, bundle size). **Out:** [`Phases`] per path, the median ns of
//! each phase over `--runs` runs. Execution runs with the GPU model detached
//! (`GpuTiming::Detached`), as `benches/src/bin/workload.rs` does: wgpu's noop backend does no
//! backend work either, so both sides time the CPU side alone.

use std::ops::Range;
use std::time::{Duration, Instant};

use benches::timing::median;
use benches::workload::{ArcRecorder, ArcState, Workload};
use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

use crate::{Options, Phases};

/// The render-target format of the bundles and of the target they are replayed on.
const FORMATS: [Format; 1] = [Format::R8G8B8A8Unorm];

/// The device, the workload's objects and a render target for the bundles.
pub struct Engine {
    device: Device,
    pub workload: Workload,
    target: RenderTargetView,
}

impl Engine {
    /// A fast device (its immediate context fast too) and the workload's objects.
    pub fn new() -> Result<Self, Error> {
        let device = Device::new(DeviceDesc {
            immediate_semantics: Semantics::Fast,
            ..DeviceDesc::default()
        });
        let workload = Workload::new(&device)?;
        let texture = device.create_texture(&TextureDesc {
            name: "target",
            format: FORMATS[0],
            width: 64,
            height: 64,
            bind: BindFlags::RENDER_TARGET,
            ..Default::default()
        })?;
        let target = device.create_render_target_view(&ViewDesc::new("target", texture))?;
        Ok(Self {
            device,
            workload,
            target,
        })
    }

    /// A fast deferred context.
    pub fn context(&self, name: &str) -> Result<DeferredContext, Error> {
        self.device.create_deferred_context(&DeferredContextDesc {
            name,
            semantics: Semantics::Fast,
            ..Default::default()
        })
    }

    /// An immediate context with the GPU model detached, the render target and the first blend
    /// state bound (what a bundle inherits).
    fn immediate(&self) -> Result<ImmediateContext, Error> {
        let mut immediate = ImmediateContext::new(&self.device)?;
        immediate.set_gpu_timing(GpuTiming::Detached);
        immediate.om_set_render_targets(&[Some(self.target)], None);
        immediate.om_set_blend_state(Some(self.workload.blends[0]), [0.0; 4], u32::MAX);
        immediate.flush()?;
        Ok(immediate)
    }

    /// A bundle recorder for the target's format.
    pub fn bundle_recorder(&self) -> Result<BundleRecorder, Error> {
        BundleRecorder::new(&self.device, &BundleDesc::new("workload", &FORMATS))
    }

    /// Records `ranges` as one bundle each on `recorder`, into `bundles`; returns the time the
    /// `finish` calls took (the caller times the whole).
    pub fn record_bundles(
        &self,
        recorder: &mut BundleRecorder,
        ranges: &[Range<u32>],
        bundles: &mut Vec<DrawBundle>,
    ) -> Result<Duration, Error> {
        let mut finish = Duration::ZERO;
        for range in ranges {
            self.workload.record_bundle(recorder, range.clone());
            let start = Instant::now();
            let bundle = recorder.finish();
            finish += start.elapsed();
            bundles.push(bundle.map_err(|e| e.error)?);
        }
        Ok(finish)
    }

    /// The fast list: record the draws, finish the list, execute it on the immediate context
    /// (and flush), drop it.
    pub fn fast_list(&self, o: &Options) -> Result<Phases, Error> {
        let mut context = self.context("workload")?;
        let mut immediate = self.immediate()?;
        let mut failed = None;
        let [record, finish, execute, dropped] = median(o.runs, || {
            let start = Instant::now();
            self.workload.record(&mut context, 0..o.draws);
            let recorded = start.elapsed();
            let start = Instant::now();
            let list = context.finish_command_list(RestoreState::ClearState);
            let finished = start.elapsed();
            let list = match list {
                Ok(list) => list,
                Err(error) => {
                    failed = Some(error.error);
                    return [Duration::ZERO; 4];
                }
            };
            let start = Instant::now();
            let executed = immediate
                .execute_command_list(&list, RestoreState::ClearState)
                .and_then(|()| immediate.flush());
            let execute = start.elapsed();
            if let Err(error) = executed {
                failed = Some(error);
            }
            let start = Instant::now();
            drop(list);
            [recorded, finished, execute, start.elapsed()]
        });
        match failed {
            Some(error) => Err(error),
            None => Ok(Phases::all(record, finish, execute, dropped)),
        }
    }

    /// Draw bundles of `--bundle-draws`: record and finish them (one recorder, reused), replay
    /// them into a list executed on the immediate context ([`Engine::replay_list`]'s phases
    /// together), drop them.
    pub fn bundles(&self, o: &Options) -> Result<Phases, Error> {
        let mut recorder = self.bundle_recorder()?;
        let ranges = o.bundle_ranges(0..o.draws);
        let mut context = self.context("replay")?;
        let mut immediate = self.immediate()?;
        let mut bundles = Vec::with_capacity(ranges.len());
        let mut failed = None;
        let [record, finish, execute, dropped] = median(o.runs, || {
            let start = Instant::now();
            let finished = self.record_bundles(&mut recorder, &ranges, &mut bundles);
            let total = start.elapsed();
            let finished = match finished {
                Ok(finished) => finished,
                Err(error) => {
                    failed = Some(error);
                    return [Duration::ZERO; 4];
                }
            };
            let start = Instant::now();
            let replayed = self.replay_once(&mut context, &mut immediate, &bundles);
            let execute = start.elapsed();
            if let Err(error) = replayed {
                failed = Some(error);
            }
            let start = Instant::now();
            bundles.clear();
            [total - finished, finished, execute, start.elapsed()]
        });
        match failed {
            Some(error) => Err(error),
            None => Ok(Phases::all(record, finish, execute, dropped)),
        }
    }

    /// Calls `bundles` in a list (the render target and blend state bound first: a bundle
    /// inherits them), finishes it, executes it, drops it.
    fn replay_once(
        &self,
        context: &mut DeferredContext,
        immediate: &mut ImmediateContext,
        bundles: &[DrawBundle],
    ) -> Result<(), Error> {
        self.bind_output(context);
        for bundle in bundles {
            context.draw_bundle(bundle);
        }
        let list = context
            .finish_command_list(RestoreState::ClearState)
            .map_err(|e| e.error)?;
        immediate.execute_command_list(&list, RestoreState::ClearState)?;
        immediate.flush()
    }

    fn bind_output(&self, context: &mut DeferredContext) {
        context.om_set_render_targets(&[Some(self.target)], None);
        context.om_set_blend_state(Some(self.workload.blends[0]), [0.0; 4], u32::MAX);
    }

    /// Pre-recorded bundles of the whole frame, for the replays.
    pub fn prerecorded(&self, o: &Options) -> Result<Vec<DrawBundle>, Error> {
        let mut recorder = self.bundle_recorder()?;
        let mut bundles = Vec::new();
        self.record_bundles(&mut recorder, &o.bundle_ranges(0..o.draws), &mut bundles)?;
        Ok(bundles)
    }

    /// `bundles` replayed into a list: record (`draw_bundle` per bundle, after the render
    /// target and blend state), finish, execute on the immediate context, drop the list.
    pub fn replay_list(&self, o: &Options, bundles: &[DrawBundle]) -> Result<Phases, Error> {
        let mut context = self.context("replay")?;
        let mut immediate = self.immediate()?;
        let mut failed = None;
        let [record, finish, execute, dropped] = median(o.runs, || {
            let start = Instant::now();
            self.bind_output(&mut context);
            for bundle in bundles {
                context.draw_bundle(bundle);
            }
            let recorded = start.elapsed();
            let start = Instant::now();
            let list = context.finish_command_list(RestoreState::ClearState);
            let finished = start.elapsed();
            let list = match list {
                Ok(list) => list,
                Err(error) => {
                    failed = Some(error.error);
                    return [Duration::ZERO; 4];
                }
            };
            let start = Instant::now();
            let executed = immediate
                .execute_command_list(&list, RestoreState::ClearState)
                .and_then(|()| immediate.flush());
            let execute = start.elapsed();
            if let Err(error) = executed {
                failed = Some(error);
            }
            let start = Instant::now();
            drop(list);
            [recorded, finished, execute, start.elapsed()]
        });
        match failed {
            Some(error) => Err(error),
            None => Ok(Phases::all(record, finish, execute, dropped)),
        }
    }

    /// `bundles` called on the immediate context (each `draw_bundle` answers at once: its
    /// time is the record column), then a flush (the execute column).
    pub fn replay_immediate(&self, o: &Options, bundles: &[DrawBundle]) -> Result<Phases, Error> {
        let mut immediate = self.immediate()?;
        let mut failed = None;
        let [record, execute] = median(o.runs, || {
            let start = Instant::now();
            for bundle in bundles {
                if let Err(error) = immediate.draw_bundle(bundle) {
                    failed = Some(error);
                }
            }
            let called = start.elapsed();
            let start = Instant::now();
            if let Err(error) = immediate.flush() {
                failed = Some(error);
            }
            [called, start.elapsed()]
        });
        match failed {
            Some(error) => Err(error),
            None => Ok(Phases {
                record,
                finish: None,
                execute: Some(execute),
                drop: None,
            }),
        }
    }
}

/// The naive recorder: record (an `Arc` clone per bind), execute (each bind replaces the held
/// `Arc`), drop (the commands cleared, their clones released).
pub fn naive(o: &Options) -> Phases {
    let mut naive = ArcRecorder::default();
    let mut state = ArcState::default();
    let [record, execute, dropped] = median(o.runs, || {
        let start = Instant::now();
        naive.record(0..o.draws);
        let recorded = start.elapsed();
        let start = Instant::now();
        naive.execute(&mut state);
        let executed = start.elapsed();
        let start = Instant::now();
        naive.commands.clear();
        [recorded, executed, start.elapsed()]
    });
    std::hint::black_box(state.seen);
    Phases {
        record,
        finish: None,
        execute: Some(execute),
        drop: Some(dropped),
    }
}
