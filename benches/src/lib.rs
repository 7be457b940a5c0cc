//! # benches
//!
//! A synthetic scene and the realistic mix of recording calls it makes, shared by the frame demo
//! (`src/bin/frame.rs`) and the criterion benches (`criterion/benches/`, their own package).
//!
//! **In:** a [`Device`](recorder::Device) and a [`SceneDesc`] (materials, meshes, render-target
//! passes, how many draws map a dynamic constant buffer in the list, how many bind a dynamic
//! buffer they do not map).
//! **Out:** a [`Scene`] of device objects and, through [`record_draws`], the calls of any range of
//! its frame recorded on a [`DeferredContext`](recorder::DeferredContext) (or on the naive
//! `Vec<enum>` baseline, [`NaiveRecorder`]), or on the capture's
//! [`CapturedDeferred`](trace::capture::CapturedDeferred) (`--capture`, [`capture`]).
//!
//! **Invariants.** Deterministic: the scene and every draw follow from the seed (a xorshift, no
//! external generator), and a draw's needs do not depend on how the frame is cut into ranges.
//! Both semantics record the mix with zero errors: fast ranges map every dynamic buffer they bind
//! and decompress the render targets they read, as fast semantics demands.

pub mod capture;
pub mod cli;
mod execute_scene;
mod naive;
pub mod object_bundles;
mod record_draws;
pub mod render_workload;
pub mod scene;
mod scene_contents;
pub mod splitpoints;
pub mod timing;
pub mod workload_contents;

pub use execute_scene::{BundleFrameScene, ExecuteScene, ThroughputScene};
pub use naive::{Command, NaiveRecorder, Slots, INLINE_BUFFERS, INLINE_VIEWS};
pub use record_draws::{
    record_draws, record_draws_only, record_one_call, CallSink, OneCall, WithoutDraws,
};
pub use scene::{DrawDesc, ObjectConstants, Scene, SceneDesc, SceneError, Unmapped};

/// Marsaglia's xorshift64 (`13, 7, 17`), seeded through one splitmix64 step so that nearby or
/// zero seeds give unrelated streams.
#[derive(Clone, Debug)]
pub struct Xorshift64(u64);

impl Xorshift64 {
    #[inline]
    pub fn new(seed: u64) -> Self {
        // splitmix64's finaliser; `| 1` keeps the state off xorshift's one fixed point, zero.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Self((z ^ (z >> 31)) | 1)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A value in `0..bound` (`bound > 0`; the modulo bias is irrelevant at these sizes).
    #[inline]
    pub fn below(&mut self, bound: u32) -> u32 {
        (self.next_u64() % bound as u64) as u32
    }
}

/// Splits `0..total` into `parts` contiguous ranges whose lengths differ by at most one.
pub fn split_range(total: u32, parts: u32) -> Vec<std::ops::Range<u32>> {
    let parts = parts.max(1) as u64;
    (0..parts)
        .map(|k| {
            let start = (total as u64 * k / parts) as u32;
            let end = (total as u64 * (k + 1) / parts) as u32;
            start..end
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use recorder::*;

    fn scene(draws: u32) -> (Device, Scene) {
        let device = Device::new(DeviceDesc::default());
        let desc = SceneDesc {
            draws,
            materials: 16,
            meshes: 64,
            ..SceneDesc::default()
        };
        let scene = Scene::new(&device, &desc).unwrap();
        (device, scene)
    }

    #[test]
    fn both_semantics_record_without_errors() {
        let (device, scene) = scene(3_000);
        for semantics in [Semantics::Legacy, Semantics::Fast] {
            for threads in [1, 3] {
                let mut total = SplitCounts::default();
                let mut draws = 0;
                for range in split_range(scene.desc.draws, threads) {
                    let mut ctx = device
                        .create_deferred_context(&DeferredContextDesc {
                            name: "test",
                            semantics,
                            chunk_policy: None,
                            ..Default::default()
                        })
                        .unwrap();
                    record_draws(&mut ctx, &scene, range);
                    let list = ctx.finish_command_list(RestoreState::ClearState).unwrap();
                    total.add(&list.stats().split_points);
                    draws += list.stats().draws;
                }
                assert_eq!(draws, scene.desc.draws);
                match semantics {
                    Semantics::Fast => assert_eq!(total.total(), 0),
                    Semantics::Legacy => {
                        assert!(total[SplitCategory::DynamicConstantBuffer] > 0, "{total}");
                        assert!(total[SplitCategory::DynamicVertexBuffer] > 0, "{total}");
                        assert!(total[SplitCategory::Decompression] >= 3, "{total}");
                        assert_eq!(total[SplitCategory::ClearRenderTarget], 4, "{total}");
                    }
                }
            }
        }
    }

    #[test]
    fn naive_records_the_same_calls() {
        let (device, scene) = scene(2_000);
        for semantics in [Semantics::Legacy, Semantics::Fast] {
            let mut ctx = device
                .create_deferred_context(&DeferredContextDesc {
                    name: "test",
                    semantics,
                    chunk_policy: None,
                    ..Default::default()
                })
                .unwrap();
            record_draws(&mut ctx, &scene, 0..2_000);
            let list = ctx.finish_command_list(RestoreState::ClearState).unwrap();
            let mut naive = NaiveRecorder::for_scene(semantics, &scene);
            record_draws(&mut naive, &scene, 0..2_000);
            assert_eq!(naive.calls(), list.stats().calls as usize);
        }
    }

    #[test]
    fn draws_do_not_depend_on_the_cut() {
        let (_device, scene) = scene(1_000);
        let firsts = scene.frame().iter().filter(|d| d.first_in_pass).count();
        assert_eq!(firsts as u32, scene.desc.passes);
        let again = Scene::new(&Device::new(DeviceDesc::default()), &scene.desc).unwrap();
        assert_eq!(scene.frame(), again.frame());
    }
}
