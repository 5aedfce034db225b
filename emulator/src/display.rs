//! Human-readable values for output. Display only: these conversions to
//! host floats never feed an emulated result.

use crate::kernels::FormatKind;

/// The value of an encoding, e.g. `0.99951171875`, `-inf`, `qnan(0x1)`.
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
    // Display only: exact widening conversions, printed shortest-round-trip.
    let v: f64 = match format {
        FormatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FormatKind::F32 => f64::from(f32::from_bits(bits as u32)),
        FormatKind::F64 => f64::from_bits(bits),
    };
    if v.is_infinite() {
        return if v < 0.0 {
            "-inf".into()
        } else {
            "+inf".into()
        };
    }
    if v == 0.0 && bits >> (format.bits() - 1) & 1 != 0 {
        return "-0".into();
    }
    let s = format!("{v:?}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}
