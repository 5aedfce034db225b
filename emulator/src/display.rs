//! Human-readable values for output. Display only: these conversions to
//! host floats never feed an emulated result.

use crate::kernels::FormatKind;

/// The value of encoding `bits` of `format` as text, for people: the
/// shortest decimal that reads back to it (`0.99951171875`, `-0`, `+inf`),
/// or a NaN's sign, kind and payload (`-snan(payload 0x1)`). Display only:
/// host floats print it and never feed an emulated result.
pub fn value(format: FormatKind, bits: u64) -> String {
    let (nan, quiet, payload) = match format {
        FormatKind::F16 => (bits & 0x7fff > 0x7c00, bits & 0x200 != 0, bits & 0x1ff),
        FormatKind::F32 => (
            bits & 0x7fff_ffff > 0x7f80_0000,
            bits & 0x40_0000 != 0,
            bits & 0x3f_ffff,
        ),
        FormatKind::F64 => (
            bits & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000,
            bits & 0x8_0000_0000_0000 != 0,
            bits & 0x7_ffff_ffff_ffff,
        ),
    };
    if nan {
        let sign = if bits >> (format.bits() - 1) & 1 != 0 {
            "-"
        } else {
            ""
        };
        let kind = if quiet { "qnan" } else { "snan" };
        return format!("{sign}{kind}(payload {payload:#x})");
    }
    // Display only, shortest round-trip text: F16 through its exact f64
    // value, F32 as an f32 so it prints 0.99999994, not 0.9999999403953552.
    let text = match format {
        FormatKind::F16 => format!("{:?}", half::f16::from_bits(bits as u16).to_f64()),
        FormatKind::F32 => format!("{:?}", f32::from_bits(bits as u32)),
        FormatKind::F64 => format!("{:?}", f64::from_bits(bits)),
    };
    if text == "inf" {
        return "+inf".into();
    }
    // "1.0" -> "1", "-0.0" -> "-0".
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_people_write_them() {
        assert_eq!(value(FormatKind::F16, 0x3bff), "0.99951171875");
        assert_eq!(value(FormatKind::F16, 0x8000), "-0");
        assert_eq!(value(FormatKind::F16, 0xfc00), "-inf");
        assert_eq!(value(FormatKind::F16, 0x7c00), "+inf");
        assert_eq!(value(FormatKind::F16, 0x7e01), "qnan(payload 0x1)");
        assert_eq!(value(FormatKind::F32, 0x3f7f_ffff), "0.99999994");
        assert_eq!(value(FormatKind::F32, 0xff80_0001), "-snan(payload 0x1)");
        assert_eq!(value(FormatKind::F64, 0x3ff0_0000_0000_0000), "1");
    }
}
