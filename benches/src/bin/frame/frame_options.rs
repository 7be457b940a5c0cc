//! The frame demo's command line: its help text and the [`Options`] it parses into.
//!
//! **In:** the arguments after the program's name. **Out:** the [`Options`] (the scene, the
//! threads, frames and semantics, bundles, GPU timing, validation, JSON, capture), or the help,
//! or an error message naming the argument.
//!
//! **Invariant.** Every option of `HELP` is parsed here and nowhere else; a value out of range
//! is an error, never clamped silently.

use std::path::PathBuf;

use benches::capture::capture_path_option;
use benches::cli::{count, fraction, gpu_timing, output_file, semantics_choice, Arg, Args};
use benches::SceneDesc;
use executor::GpuTiming;
use recorder::*;

pub(crate) const HELP: &str = "\
frame: record a synthetic frame on worker threads with legacy and fast semantics

USAGE:
    frame [OPTIONS]

OPTIONS:
    --draws N                 draws in the frame (default 20000)
    --threads N               worker threads, one deferred context each, 1 to 48 (default 2)
    --frames N                timed frames after the warm-up; the median is reported (default 5)
    --dynamic-fraction F      fraction of draws mapping a dynamic constant buffer (default 0.25)
    --unmapped-fraction F     fraction of draws binding a dynamic buffer the list does not map:
                              legacy split points, mapped first under fast (default 0.02)
    --passes N                render-target passes (default 4)
    --materials N             materials (default 64)
    --meshes N                meshes (default 512)
    --textures N              textures per material, 1 to 8 (default 4)
    --seed N                  seed of the scene and the draw mix (default 0x5eedf00d)
    --semantics S             legacy, fast or both (default both)
    --bundles on|off          also draw the frame with per-object draw bundles (default on)
    --barriers                fast lists synchronise the passes with enhanced barriers (render
                              target -> shader resource, instead of decompress_resource) and
                              run a UAV pass per render pass (two dispatches, UAV barriers)
    --validation V            off, on or hazards (default off): under on or hazards a
                              violation (a missing barrier, under hazards) stops the demo
                              with what it found
    --hazards                 --validation hazards
    --gpu G                   where the GPU model runs: inline (in the execute calls),
                              threaded (its own thread, overlapping the next frame's
                              recording) or detached (nowhere: CPU cost alone, no counters)
                              (default inline)
    --json                    print the report as one JSON object on stdout, every number the
                              summary prints (times in ns); the summary goes to stderr
    --capture FILE            capture one frame of each run (legacy, fast, bundles) and write it
                              as a trace: FILE when one run captures, else FILE with the run's
                              name before the extension (f.trace -> f.legacy.trace, ...); each
                              prints its digest, the one `replay FILE` prints (not with
                              --gpu detached: no GPU model, no draw records to digest)
    --capture-stale-list      with --capture: execute in the captured frame a list recorded
                              before the capture began; that frame fails (reported) and the
                              capture takes the next one
    --cores N                 the cores the run may use (default: what the system reports);
                              when the recording threads and the GPU model's thread (--gpu
                              threaded) outnumber them, a warning says so, and the rates and
                              ratios made from recording times are not given (null in JSON)
    --backend B               model (the GPU model alone, default) or vulkan: the frames also
                              draw on a GPU through Vulkan, fed by the model (R-GPU-5); the
                              scene then carries shaders, geometry and constants, and each
                              frame ends with a post pass presented to a swap chain. Needs a
                              build with `--features vulkan`
    --png FILE                with --backend vulkan: each run's last frame presented, as a PNG
                              (several runs: the run's name before the extension,
                              f.png -> f.legacy.png, as --capture names its traces)
    --oracle on|off           with --backend vulkan: compare each draw's bound state with the
                              model's record (R-GPU-4; default on); off measures the
                              backend's translation alone
    --size WxH                the passes' target size (default 1920x1080; the post pass's
                              swap chain is half): a small one makes a frame cheap to draw on
                              a software GPU (lavapipe) without changing the calls
    --gpu-validation          with --backend vulkan: the Khronos validation layer, with
                              synchronization validation; any message stops the demo
    -h, --help                print this help

Options take their value as the next argument or after '=' (--draws=50000).";

/// What the command line asked for.
pub(crate) struct Options {
    pub(crate) scene: SceneDesc,
    pub(crate) threads: u32,
    pub(crate) frames: u32,
    pub(crate) semantics: Vec<Semantics>,
    pub(crate) bundles: bool,
    pub(crate) gpu: GpuTiming,
    pub(crate) validation: Validation,
    pub(crate) json: bool,
    /// `--cores`; `None`: what `available_parallelism` says.
    pub(crate) cores: Option<u32>,
    /// `--capture FILE`.
    pub(crate) capture: Option<PathBuf>,
    /// `--capture-stale-list`.
    pub(crate) stale_list: bool,
    /// `--backend vulkan`: the frames also draw on a GPU (R-GPU-5).
    pub(crate) vulkan: bool,
    /// `--png FILE`.
    pub(crate) png: Option<PathBuf>,
    /// `--gpu-validation`.
    pub(crate) gpu_validation: bool,
    /// `--oracle on|off` (R-GPU-4).
    pub(crate) oracle: bool,
}

impl Options {
    /// Runs: one per semantics, and the bundles'.
    pub(crate) fn modes(&self) -> usize {
        self.semantics.len() + usize::from(self.bundles)
    }
}

/// `WxH`, each 1 to 16384.
fn size(name: &str, text: &str) -> Result<(u32, u32), String> {
    let (width, height) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{name}: '{text}' is not WxH (e.g. 320x180)"))?;
    Ok((
        count(name, width, 1, 16384)?,
        count(name, height, 1, 16384)?,
    ))
}

/// Parses the arguments; `Ok(None)` asks for the help.
pub(crate) fn parse(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        scene: SceneDesc::default(),
        threads: 2,
        frames: 5,
        semantics: vec![Semantics::Legacy, Semantics::Fast],
        bundles: true,
        gpu: GpuTiming::Inline,
        validation: Validation::Off,
        json: false,
        cores: None,
        capture: None,
        stale_list: false,
        vulkan: false,
        png: None,
        gpu_validation: false,
        oracle: true,
    };
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg() {
        let name = match arg? {
            Arg::Help => return Ok(None),
            Arg::Option(name) => name,
        };
        let scene = &mut options.scene;
        match name.as_str() {
            "--draws" => scene.draws = count(&name, &args.value(&name)?, 1, 10_000_000)?,
            "--threads" => {
                // One context per worker, and a device allows 48 at once (R-REC-1); the legacy
                // run's contexts are gone before the fast run creates its own.
                options.threads =
                    count(&name, &args.value(&name)?, 1, limits::MAX_DEFERRED_CONTEXTS)?
            }
            "--frames" => options.frames = count(&name, &args.value(&name)?, 1, 10_000)?,
            "--dynamic-fraction" => scene.dynamic_fraction = fraction(&name, &args.value(&name)?)?,
            "--unmapped-fraction" => {
                scene.unmapped_dynamic_fraction = fraction(&name, &args.value(&name)?)?
            }
            "--passes" => scene.passes = count(&name, &args.value(&name)?, 1, 64)?,
            "--materials" => scene.materials = count(&name, &args.value(&name)?, 1, 100_000)?,
            "--meshes" => scene.meshes = count(&name, &args.value(&name)?, 1, 100_000)?,
            "--textures" => scene.textures_per_material = count(&name, &args.value(&name)?, 1, 8)?,
            "--seed" => {
                let text = args.value(&name)?;
                let parsed = match text.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => text.parse(),
                };
                scene.seed = parsed.map_err(|_| format!("--seed: '{text}' is not a number"))?;
            }
            "--semantics" => options.semantics = semantics_choice(&args.value(&name)?)?,
            "--bundles" => {
                options.bundles = match args.value(&name)?.as_str() {
                    "on" => true,
                    "off" => false,
                    other => return Err(format!("--bundles: '{other}' is not on or off")),
                }
            }
            "--gpu" => options.gpu = gpu_timing(&args.value(&name)?)?,
            "--barriers" => {
                args.no_value(&name)?;
                scene.barriers = true
            }
            "--json" => {
                args.no_value(&name)?;
                options.json = true
            }
            "--cores" => options.cores = Some(count(&name, &args.value(&name)?, 1, 4096)?),
            "--capture" => options.capture = Some(capture_path_option(&name, &args.value(&name)?)?),
            "--capture-stale-list" => {
                args.no_value(&name)?;
                options.stale_list = true
            }
            "--backend" => {
                options.vulkan = match args.value(&name)?.as_str() {
                    "model" => false,
                    "vulkan" if cfg!(feature = "vulkan") => true,
                    "vulkan" => {
                        return Err("--backend vulkan: this frame was built without the Vulkan \
                                    backend; build it with the `vulkan` feature: cargo run \
                                    --release --features vulkan --bin frame -- --backend vulkan"
                            .to_string())
                    }
                    other => return Err(format!("--backend: '{other}' is not model or vulkan")),
                };
                scene.gpu_contents = options.vulkan;
            }
            "--png" => options.png = Some(output_file(&name, &args.value(&name)?)?),
            "--gpu-validation" => {
                args.no_value(&name)?;
                options.gpu_validation = true
            }
            "--oracle" => {
                options.oracle = match args.value(&name)?.as_str() {
                    "on" => true,
                    "off" => false,
                    other => return Err(format!("--oracle: '{other}' is not on or off")),
                }
            }
            "--size" => scene.size = size(&name, &args.value(&name)?)?,
            "--hazards" => {
                args.no_value(&name)?;
                options.validation = Validation::Hazards
            }
            "--validation" => {
                options.validation = match args.value(&name)?.as_str() {
                    "off" => Validation::Off,
                    "on" => Validation::On,
                    "hazards" => Validation::Hazards,
                    other => {
                        return Err(format!("--validation: '{other}' is not off, on or hazards"))
                    }
                }
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
    }
    if options.capture.is_some() && options.gpu == GpuTiming::Detached {
        return Err(
            "--capture: a captured frame's digest is of the GPU model's draw records, \
                    and --gpu detached runs no GPU model (use inline or threaded)"
                .to_string(),
        );
    }
    if options.stale_list && options.capture.is_none() {
        return Err(
            "--capture-stale-list: needs --capture FILE (it makes a captured frame \
                    fail)"
                .to_string(),
        );
    }
    if (options.png.is_some() || options.gpu_validation) && !options.vulkan {
        return Err(
            "--png and --gpu-validation: need --backend vulkan (the model draws no \
                    pixels)"
                .to_string(),
        );
    }
    if options.threads > options.scene.draws {
        return Err(format!(
            "--threads {} is more than the {} draws to share",
            options.threads, options.scene.draws
        ));
    }
    Ok(Some(options))
}
