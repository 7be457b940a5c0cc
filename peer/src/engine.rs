//! This engine's side of the comparison, and the naive recorder's: the workload
//! (`benches::workload`) recorded on a fast deferred context and into draw bundles, the bundles
//! replayed into a list and on the immediate context, the naive `Vec<enum>` + `Arc` recorder.
//!
//! **In:** the options (draws, bundle size). **Out:** a [`Step`] per path: one timed run of it,
//! its [`Phases`]; the driver (`main.rs`) interleaves the paths' runs and takes the medians. Execution runs with the GPU model detached
//! (`GpuTiming::Detached`), as `benches/src/bin/workload.rs` does: wgpu's noop backend does no
//! backend work either, so both sides time the CPU side alone.

use std::cell::RefCell;
use std::ops::Range;
use std::time::{Duration, Instant};

use benches::render_workload::{ArcRecorder, ArcState, Workload};
use bundles::{BundleDesc, BundleRecorder, DrawBundle, DrawBundleExt};
use executor::{GpuTiming, ImmediateContext};
use recorder::*;

use crate::{text, Options, Phases, Step};

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

    /// The device's immediate context (there is one), the GPU model detached; the paths share
    /// it, hence the `RefCell`.
    pub fn immediate(&self) -> Result<RefCell<ImmediateContext>, Error> {
        let mut immediate = ImmediateContext::new(&self.device)?;
        immediate.set_gpu_timing(GpuTiming::Detached);
        Ok(RefCell::new(immediate))
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
    pub fn fast_list<'a>(
        &'a self,
        o: &'a Options,
        immediate: &'a RefCell<ImmediateContext>,
    ) -> Result<Step<'a>, Error> {
        let mut context = self.context("workload")?;
        Ok(Box::new(move || {
            let mut immediate = immediate.borrow_mut();
            let start = Instant::now();
            self.workload.record(&mut context, 0..o.draws);
            let recorded = start.elapsed();
            finish_execute_drop(&mut context, &mut immediate, recorded)
        }))
    }

    /// Draw bundles of `--bundle-draws`: record and finish them (one recorder, reused), replay
    /// them into a list executed on the immediate context ([`Engine::replay_list`]'s phases
    /// together), drop them.
    pub fn bundles<'a>(
        &'a self,
        o: &'a Options,
        immediate: &'a RefCell<ImmediateContext>,
    ) -> Result<Step<'a>, Error> {
        let mut recorder = self.bundle_recorder()?;
        let ranges = o.bundle_ranges(0..o.draws);
        let mut context = self.context("bundles")?;
        let mut bundles = Vec::with_capacity(ranges.len());
        Ok(Box::new(move || {
            let mut immediate = immediate.borrow_mut();
            let start = Instant::now();
            let finished = self.record_bundles(&mut recorder, &ranges, &mut bundles);
            let total = start.elapsed();
            let finished = finished.map_err(text)?;
            let start = Instant::now();
            let replayed = self.replay_once(&mut context, &mut immediate, &bundles);
            let execute = start.elapsed();
            replayed.map_err(text)?;
            let start = Instant::now();
            bundles.clear();
            Ok(Phases::all(
                total.saturating_sub(finished),
                finished,
                execute,
                start.elapsed(),
            ))
        }))
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

    /// Binds what a bundle inherits: the render target and the first blend state.
    fn bind_output<C: DeviceContext>(&self, context: &mut C) {
        context.set_render_targets(&[Some(self.target)], None);
        context.set_blend_state(Some(self.workload.blends[0]), [0.0; 4], u32::MAX);
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
    pub fn replay_list<'a>(
        &'a self,
        bundles: &'a [DrawBundle],
        immediate: &'a RefCell<ImmediateContext>,
    ) -> Result<Step<'a>, Error> {
        let mut context = self.context("replay")?;
        Ok(Box::new(move || {
            let mut immediate = immediate.borrow_mut();
            let start = Instant::now();
            self.bind_output(&mut context);
            for bundle in bundles {
                context.draw_bundle(bundle);
            }
            let recorded = start.elapsed();
            finish_execute_drop(&mut context, &mut immediate, recorded)
        }))
    }

    /// `bundles` called on the immediate context (the render target and blend state bound
    /// first; each `draw_bundle` answers at once: its time is the record column), then a flush
    /// (the execute column).
    pub fn replay_immediate<'a>(
        &'a self,
        bundles: &'a [DrawBundle],
        immediate: &'a RefCell<ImmediateContext>,
    ) -> Step<'a> {
        Box::new(move || {
            let mut immediate = immediate.borrow_mut();
            let mut failed = None;
            let start = Instant::now();
            self.bind_output(&mut *immediate);
            for bundle in bundles {
                if let Err(error) = immediate.draw_bundle(bundle) {
                    failed = Some(error);
                }
            }
            let called = start.elapsed();
            let start = Instant::now();
            let flushed = immediate.flush();
            let execute = start.elapsed();
            if let Some(error) = failed {
                return Err(error.to_string());
            }
            flushed.map_err(text)?;
            Ok(Phases {
                record: called,
                finish: None,
                execute: Some(execute),
                drop: None,
            })
        })
    }
}

/// The naive recorder: record (an `Arc` clone per bind), execute (each bind replaces the held
/// `Arc`), drop (the commands cleared, their clones released).
pub fn naive(o: &Options) -> Step<'_> {
    let mut naive = ArcRecorder::default();
    let mut state = ArcState::default();
    Box::new(move || {
        let start = Instant::now();
        naive.record(0..o.draws);
        let recorded = start.elapsed();
        let start = Instant::now();
        naive.execute(&mut state);
        let executed = start.elapsed();
        let start = Instant::now();
        naive.commands.clear();
        let dropped = start.elapsed();
        std::hint::black_box(state.seen);
        Ok(Phases {
            record: recorded,
            finish: None,
            execute: Some(executed),
            drop: Some(dropped),
        })
    })
}

/// The phases after recording, for a list recorded on `context` in `recorded`: finish the list,
/// execute it on the immediate context and flush, drop it; each timed.
fn finish_execute_drop(
    context: &mut DeferredContext,
    immediate: &mut ImmediateContext,
    recorded: Duration,
) -> Result<Phases, String> {
    let start = Instant::now();
    let list = context.finish_command_list(RestoreState::ClearState);
    let finished = start.elapsed();
    let list = list.map_err(|e| e.error.to_string())?;
    let start = Instant::now();
    let executed = immediate
        .execute_command_list(&list, RestoreState::ClearState)
        .and_then(|()| immediate.flush());
    let execute = start.elapsed();
    executed.map_err(text)?;
    let start = Instant::now();
    drop(list);
    Ok(Phases::all(recorded, finished, execute, start.elapsed()))
}
