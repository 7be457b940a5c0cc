//! R-ST-9: the rules of `decompress_resource_x` at recording (seed 000's
//! `DecompressResourceX`): each kind named is one the texture has; a region is within a
//! subresource of the texture (checked arithmetic: no sum or shift on the caller's numbers can
//! wrap); a second resource has the source's size and format and takes no kinds. A refusal
//! names the call, the texture and the rule; an accepted call records the kinds and region.

mod common;

use common::*;
use recorder::command::Command;
use recorder::*;

fn texture(f: &Fixture, name: &'static str, desc: TextureDesc<'static>) -> Texture {
    f.device
        .create_texture(&TextureDesc { name, ..desc })
        .unwrap_or_else(|e| panic!("create {name}: {e}"))
}

fn color(width: u32, height: u32) -> TextureDesc<'static> {
    TextureDesc {
        name: "",
        format: Format::R8G8B8A8Unorm,
        width,
        height,
        bind: BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE,
        ..Default::default()
    }
}

/// The refusal of one `decompress_resource_x` call on a fresh fast context.
#[track_caller]
fn refusal(
    f: &Fixture,
    texture: Texture,
    into: Option<Texture>,
    kinds: DecompressKinds,
    region: Option<DecompressRegion>,
) -> Error {
    let mut c = f.fast();
    c.decompress_resource_x(texture, into, kinds, region);
    let error = c.last_refusal().cloned().expect("refused");
    assert!(
        c.finish_command_list(RestoreState::ClearState).is_err(),
        "a refused call fails the list"
    );
    error
}

#[track_caller]
fn assert_names(error: &Error, parts: &[&str]) {
    let message = error.to_string();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{message}");
    for part in ["decompress_resource", "R-ST-9"].iter().chain(parts) {
        assert!(message.contains(part), "{part}: {message}");
    }
}

fn region(
    subresource: u32,
    left: u32,
    top: u32,
    right: u32,
    bottom: u32,
) -> Option<DecompressRegion> {
    Some(DecompressRegion {
        subresource,
        rect: CopyBox {
            left,
            top,
            right,
            bottom,
        },
    })
}

#[test]
fn r_st_9_decompress_kinds_must_be_kinds_the_texture_has() {
    let f = Fixture::new();
    let single = texture(&f, "single", color(64, 64));
    let msaa = texture(
        &f,
        "msaa",
        TextureDesc {
            sample_count: 4,
            dcc: true,
            ..color(64, 64)
        },
    );
    // A single-sample target has no FMask, no DCC without dcc, no depth or stencil.
    for kinds in [
        DecompressKinds::FMASK,
        DecompressKinds::DCC,
        DecompressKinds::DEPTH,
        DecompressKinds::STENCIL,
    ] {
        let error = refusal(&f, single, None, kinds, None);
        assert_names(&error, &["'single'", "no ", "has clear"]);
    }
    // The empty set decompresses nothing: refused, not silently accepted.
    let error = refusal(&f, single, None, DecompressKinds::NONE, None);
    assert_names(&error, &["'single'", "no kind"]);
    // A depth-only format has no stencil and no colour kinds.
    let error = refusal(&f, f.ds, None, DecompressKinds::CLEAR, None);
    assert_names(&error, &["'ds'"]);
    // Kinds it has: accepted and recorded as given.
    let mut c = f.fast();
    c.decompress_resource_x(msaa, None, DecompressKinds::FMASK, None);
    c.decompress_resource_x(single, None, DecompressKinds::CLEAR, None);
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("kinds it has");
    let kinds: Vec<DecompressKinds> = list
        .commands()
        .filter_map(|d| match d.command {
            Command::DecompressResource { kinds, region, .. } => {
                assert_eq!(region, None);
                Some(kinds)
            }
            _ => None,
        })
        .collect();
    assert_eq!(kinds, [DecompressKinds::FMASK, DecompressKinds::CLEAR]);
}

#[test]
fn r_st_9_decompress_region_is_within_a_subresource_with_checked_arithmetic() {
    let f = Fixture::new();
    let mips = texture(
        &f,
        "mips",
        TextureDesc {
            mip_levels: 2,
            array_size: 2,
            ..color(64, 48)
        },
    );
    let all = DecompressKinds::ALL;
    // Mip 1 of slice 1 (subresource 3) is 32x24.
    for (bad, part) in [
        (region(4, 0, 0, 1, 1), "subresource 4 is not one of its 4"),
        (region(u32::MAX, 0, 0, 1, 1), "is not one of its 4"),
        (region(3, 0, 0, 33, 24), "within its 32x24"),
        (region(3, 0, 0, 32, 25), "within its 32x24"),
        (region(3, 5, 0, 4, 24), "within its 32x24"),
        (region(0, 0, 0, u32::MAX, 1), "within its 64x48"),
        (region(0, u32::MAX, u32::MAX, 0, 0), "within its 64x48"),
    ] {
        let error = refusal(&f, mips, None, all, bad);
        assert_names(&error, &["'mips'", part]);
    }
    let mut c = f.fast();
    c.decompress_resource_x(mips, None, all, region(3, 0, 0, 32, 24));
    c.decompress_resource_x(mips, None, all, region(0, 10, 10, 10, 10));
    let list = c
        .finish_command_list(RestoreState::ClearState)
        .expect("regions within");
    let regions: Vec<_> = list
        .commands()
        .filter_map(|d| match d.command {
            Command::DecompressResource { region, .. } => Some(region),
            _ => None,
        })
        .collect();
    assert_eq!(
        regions,
        [region(3, 0, 0, 32, 24), region(0, 10, 10, 10, 10)]
    );
}

#[test]
fn r_st_9_decompress_into_needs_the_same_size_and_planes_and_no_kinds() {
    let f = Fixture::new();
    let source = texture(&f, "source", color(64, 64));
    let same = texture(
        &f,
        "same",
        TextureDesc {
            compressible: Some(false),
            ..color(64, 64)
        },
    );
    let other_format = texture(
        &f,
        "other_format",
        TextureDesc {
            format: Format::R16Float,
            ..color(64, 64)
        },
    );
    let depth = |name, format| {
        texture(
            &f,
            name,
            TextureDesc {
                format,
                bind: BindFlags::DEPTH_STENCIL,
                ..color(64, 64)
            },
        )
    };
    let (d32, d24s8) = (
        depth("d32", Format::D32Float),
        depth("d24s8", Format::D24UnormS8Uint),
    );
    let smaller = texture(&f, "smaller", color(32, 64));
    let all = DecompressKinds::ALL;
    // Colour into depth, depth into colour, depth into a format without its stencil.
    for (from, into) in [(source, d32), (d32, source), (d24s8, d32)] {
        let error = refusal(&f, from, Some(into), all, None);
        assert_names(&error, &["planes"]);
    }
    let error = refusal(&f, source, Some(smaller), all, None);
    assert_names(&error, &["size"]);
    let error = refusal(&f, source, Some(same), DecompressKinds::CLEAR, None);
    assert_names(&error, &["kinds"]);
    let error = refusal(&f, source, Some(source), all, None);
    assert_names(&error, &["same texture"]);
    // A region of the second resource is checked too (the same size: the same region).
    let error = refusal(&f, source, Some(same), all, region(0, 0, 0, 65, 1));
    assert_names(&error, &["'source'"]);
    let mut c = f.fast();
    c.decompress_resource_x(source, Some(same), all, region(0, 0, 0, 8, 8));
    c.decompress_resource(source, Some(same));
    // Colour into another colour format: the colour block converts as it writes.
    c.decompress_resource(source, Some(other_format));
    c.finish_command_list(RestoreState::ClearState)
        .expect("same size and planes");
}
