//! R-GPU-2 at the seam, without a real GPU: read, write and read_write maps of staging
//! resources on the immediate context. Without a backend a map hands out the model's bytes
//! (the last CPU write, zeros at first); a backend's bytes win (`GpuBackend::read_mapped`), a
//! write map's bytes go to it at the unmap (`write_mapped`), and its refusal refuses the map.

use executor::{Draw, GpuBackend, ImmediateContext};
use recorder::command::Command;
use recorder::*;

/// A backend whose GPU memory is one byte value everywhere, keeping what unmaps hand it.
#[derive(Debug, Default)]
struct Memory {
    fill: u8,
    refuse: bool,
    written: Vec<(RawHandle, Vec<u8>)>,
}

impl GpuBackend for Memory {
    fn command(&mut self, _: &Command<'_>, _: Semantics) -> Result<(), Error> {
        Ok(())
    }
    fn draw(&mut self, _: &Draw<'_>, _: bool) -> Result<(), Error> {
        Ok(())
    }
    fn present(&mut self, _: RawHandle, _: RawHandle) -> Result<(), Error> {
        Ok(())
    }
    fn submit(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }
    fn read_mapped(&mut self, resource: Resource, bytes: &mut [u8]) -> Option<Result<(), Error>> {
        if self.refuse {
            return Some(Err(Error::GpuBackend {
                call: "map",
                object: format!("{resource:?}"),
                problem: "refused by the test backend".to_string(),
            }));
        }
        bytes.fill(self.fill);
        Some(Ok(()))
    }
    fn write_mapped(&mut self, resource: Resource, bytes: &[u8]) -> Result<(), Error> {
        self.written.push((resource.raw(), bytes.to_vec()));
        Ok(())
    }
}

fn memory(imm: &mut ImmediateContext) -> &mut Memory {
    imm.gpu_backend_mut()
        .and_then(|b| b.as_any_mut())
        .and_then(|b| b.downcast_mut::<Memory>())
        .expect("the test backend")
}

fn staging_texture(device: &Device, format: Format) -> Texture {
    device
        .create_texture(&TextureDesc {
            name: "staging",
            format,
            width: 16,
            height: 8,
            bind: BindFlags::NONE,
            ..Default::default()
        })
        .unwrap()
}

#[test]
fn r_gpu_2_without_a_backend_a_staging_texture_maps_the_models_bytes() {
    let device = Device::new(DeviceDesc::default());
    let mut imm = ImmediateContext::new(&device).unwrap();
    let staging = staging_texture(&device, Format::R8G8B8A8Unorm);
    {
        let mapped = imm.map(staging, MapType::Read, MapFlags::None).unwrap();
        assert_eq!((mapped.row_pitch(), mapped.len()), (64, 64 * 8));
        assert!(mapped.iter().all(|&b| b == 0), "zeros at first");
    }
    imm.map(staging, MapType::Write, MapFlags::None)
        .unwrap()
        .fill(9);
    let mapped = imm.map(staging, MapType::Read, MapFlags::None).unwrap();
    assert!(mapped.iter().all(|&b| b == 9), "the last CPU write");
    drop(mapped);
    let bc = staging_texture(&device, Format::Bc1Unorm);
    let mapped = imm.map(bc, MapType::Read, MapFlags::None).unwrap();
    assert_eq!(
        (mapped.row_pitch(), mapped.len()),
        (4 * 8, 4 * 8 * 2),
        "rows of 4x4 blocks"
    );
    drop(mapped);
    let bound = device
        .create_texture(&TextureDesc {
            name: "bound",
            bind: BindFlags::SHADER_RESOURCE,
            ..Default::default()
        })
        .unwrap();
    let error = imm
        .map(bound, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert!(
        matches!(error, Error::MapNotAllowed { call: "map", .. }),
        "{error}"
    );
}

#[test]
fn r_gpu_2_a_backends_bytes_win_and_write_maps_reach_it_at_unmap() {
    let device = Device::new(DeviceDesc::default());
    let mut imm = ImmediateContext::new(&device).unwrap();
    imm.set_gpu_backend(Some(Box::new(Memory {
        fill: 0xab,
        ..Default::default()
    })));
    let texture = staging_texture(&device, Format::R8G8B8A8Unorm);
    let buffer = device
        .create_buffer(&BufferDesc {
            name: "staging",
            size: 32,
            usage: Usage::Staging,
            bind: BindFlags::NONE,
            ..Default::default()
        })
        .unwrap();
    {
        let mapped = imm.map(texture, MapType::Read, MapFlags::None).unwrap();
        assert!(mapped.iter().all(|&b| b == 0xab), "the GPU's bytes");
    }
    assert!(
        memory(&mut imm).written.is_empty(),
        "a read map writes nothing back"
    );
    {
        let mut mapped = imm.map(buffer, MapType::ReadWrite, MapFlags::None).unwrap();
        assert!(mapped.iter().all(|&b| b == 0xab));
        mapped[0] = 1;
    }
    imm.map(texture, MapType::Write, MapFlags::None)
        .unwrap()
        .fill(2);
    let written = std::mem::take(&mut memory(&mut imm).written);
    assert_eq!(written.len(), 2);
    assert_eq!(written[0].0, buffer.raw());
    assert_eq!(
        written[0].1[..2],
        [1, 0xab],
        "the map's bytes, the GPU's where untouched"
    );
    assert_eq!(written[1].0, texture.raw());
    assert!(written[1].1.iter().all(|&b| b == 2) && written[1].1.len() == 64 * 8);
    memory(&mut imm).refuse = true;
    let error = imm
        .map(buffer, MapType::Read, MapFlags::None)
        .map(Mapped::keep_mapped)
        .unwrap_err();
    assert!(
        matches!(error, Error::GpuBackend { call: "map", .. }),
        "{error}"
    );
    memory(&mut imm).refuse = false;
    assert!(
        imm.map(buffer, MapType::Read, MapFlags::None).is_ok(),
        "the refused map left nothing mapped"
    );
}
