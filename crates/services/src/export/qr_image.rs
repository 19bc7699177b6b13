//! The QR code as SVG and PNG files, both with the standard 4-module quiet zone.

use domain::qr::QrMatrix;
use std::fmt::Write as _;

/// Quiet zone of printed codes, in modules (ISO/IEC 18004 asks for 4).
pub const PRINT_QUIET_ZONE: usize = 4;
/// The PNG is at least this many pixels wide: 1024 px across 40 mm print at ~650 dpi, sharp on
/// any printer and projector.
const PNG_MIN_SIDE: u32 = 1024;
const DARK: u8 = 0;
const LIGHT: u8 = 255;

/// An `<svg>` element (one path, light background), sized by CSS; with `standalone`, it carries
/// the XML namespace a separate `.svg` file needs (inline HTML does not need it).
pub fn svg(matrix: &QrMatrix, label: &str, standalone: bool) -> String {
    let side = matrix.width() + 2 * PRINT_QUIET_ZONE;
    let mut path = String::new();
    for y in 0..matrix.width() {
        for x in 0..matrix.width() {
            if matrix.is_dark(x, y) {
                let _ = write!(
                    path,
                    "M{} {}h1v1h-1z",
                    x + PRINT_QUIET_ZONE,
                    y + PRINT_QUIET_ZONE
                );
            }
        }
    }
    let ns = if standalone {
        // The namespace is an identifier, never fetched.
        " xmlns=\"http://www.w3.org/2000/svg\""
    } else {
        ""
    };
    format!(
        "<svg{ns} class=\"qr\" viewBox=\"0 0 {side} {side}\" shape-rendering=\"crispEdges\" \
         role=\"img\" aria-label=\"{}\"><rect width=\"{side}\" height=\"{side}\" fill=\"#fff\"/>\
         <path fill=\"#000\" d=\"{path}\"/></svg>",
        super::html::escape(label)
    )
}

/// Pixels per module so the PNG reaches [`PNG_MIN_SIDE`].
fn scale(side: u32) -> u32 {
    PNG_MIN_SIDE.div_ceil(side).max(1)
}

/// The code as an 8-bit grayscale PNG (the `png` crate alone: a full image library would
/// double the build for one encoder).
pub fn png(matrix: &QrMatrix) -> Result<Vec<u8>, png::EncodingError> {
    let side = (matrix.width() + 2 * PRINT_QUIET_ZONE) as u32;
    let scale = scale(side);
    let quiet = PRINT_QUIET_ZONE as u32;
    let pixels_per_side = side * scale;
    let mut pixels = Vec::with_capacity((pixels_per_side * pixels_per_side) as usize);
    for py in 0..pixels_per_side {
        for px in 0..pixels_per_side {
            let (x, y) = (px / scale, py / scale);
            let dark = x >= quiet
                && y >= quiet
                && matrix.is_dark((x - quiet) as usize, (y - quiet) as usize);
            pixels.push(if dark { DARK } else { LIGHT });
        }
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, pixels_per_side, pixels_per_side);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&pixels)?;
    writer.finish()?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_is_large_and_svg_has_one_square_per_dark_module() {
        let m = QrMatrix::encode("https://example.org/lab").expect("encodes");
        let bytes = png(&m).expect("png");
        let img = image::load_from_memory(&bytes).expect("decodes").to_luma8();
        assert!(img.width() >= PNG_MIN_SIDE && img.width() == img.height());
        assert_eq!(img.get_pixel(0, 0), &image::Luma([LIGHT]), "quiet zone");
        let dark = (0..m.width())
            .flat_map(|y| (0..m.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| m.is_dark(x, y))
            .count();
        let s = svg(&m, "QR", false);
        assert_eq!(s.matches("h1v1h-1z").count(), dark);
        assert!(!s.contains("xmlns") && svg(&m, "QR", true).contains("xmlns"));
    }
}
