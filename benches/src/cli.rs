//! What the command-line front ends (`frame`, the `renderer` example) share: option values
//! checked with messages naming the option, and durations printed alike.

use std::time::Duration;

use executor::GpuTiming;

/// A whole number from `min` to `max`, for option `name`.
pub fn count(name: &str, text: &str, min: u32, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{name}: '{text}' is not a whole number from {min} to {max}"
        )),
    }
}

/// A number from 0 to 1, for option `name`.
pub fn fraction(name: &str, text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{name}: '{text}' is not a number from 0 to 1")),
    }
}

/// `--gpu inline|threaded|detached`: where the GPU model runs.
pub fn gpu_timing(text: &str) -> Result<GpuTiming, String> {
    match text {
        "inline" => Ok(GpuTiming::Inline),
        "threaded" => Ok(GpuTiming::Threaded),
        "detached" => Ok(GpuTiming::Detached),
        other => Err(format!(
            "--gpu: '{other}' is not inline, threaded or detached"
        )),
    }
}

/// Milliseconds with three decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}
