//! R-GPU-4, a frame whose pixels are known: a clear of a swap chain's back buffer, presented,
//! read back as the presented pixels, under the validation layer.

mod common;

use common::*;
use recorder::*;

#[test]
fn r_gpu_4_clear_writes_the_presented_pixels() {
    let Some(mut gpu) = gpu() else { return };
    let chain = gpu.swap_chain(32, 16);
    let rtv = gpu.device.swap_chain_info(chain).unwrap().buffers[0].1;
    // 0.6, not 0.5: 0.5 x 255 = 127.5 is a tie an implementation may round either way (the
    // test failed on an H100 with 0.5 and passes on lavapipe); 0.6 x 255 is 153.
    gpu.imm.clear_render_target_view(rtv, [1.0, 0.6, 0.0, 1.0]);
    gpu.imm.present(chain).unwrap();
    gpu.imm.flush().unwrap();
    let pixels = gpu.backend().presented_pixels(chain).expect("a present");
    assert_eq!((pixels.0, pixels.1), (32, 16));
    for (x, y) in [(0, 0), (31, 15), (10, 7)] {
        assert_eq!(texel(&pixels, x, y), [255, 153, 0, 255], "texel ({x}, {y})");
    }
    let path = std::env::temp_dir().join("r_gpu_4_clear.png");
    gpu.backend().write_png(chain, &path).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 0);
    let clears = gpu.backend().clear_counts();
    assert_eq!(
        (clears.folded, clears.transfer),
        (0, 1),
        "no pass to fold the clear into"
    );
    gpu.assert_clean();
}
