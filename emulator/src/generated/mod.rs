// BOOTSTRAP (hand-written placeholder until codegen exists; will be replaced by `cargo xtask regen`).
use crate::error::ExecError;
use crate::exec;
use crate::instr::{Encoding, Instruction, Opcode};
use crate::kernels::wave::{Fract, Ldexp};
use crate::kernels::{ClampNan, OmodGate, SnanPolicy, F16, F32, F64};
use crate::target::*;
use crate::wave::Wave;

macro_rules! spec {
    ($name:ident, $t:expr, $fam:expr, $gate:expr, $cn:expr, $bits:expr, $t16:expr, $sdwa:expr, $hi:expr, $fract_op:expr) => {
        pub static $name: TargetSpec = TargetSpec {
            target: $t, family: $fam,
            wave_sizes: &[WaveSize::Wave32, WaveSize::Wave64],
            default_wave: if matches!($fam, Family::Gfx9) { WaveSize::Wave64 } else { WaveSize::Wave32 },
            omod_gate: Sourced { value: $gate, evidence: Evidence::Open("bootstrap") },
            clamp_nan: Sourced { value: $cn, evidence: Evidence::Open("bootstrap") },
            ieee_dx10_bits: Sourced { value: $bits, evidence: Evidence::Open("bootstrap") },
            true16: Sourced { value: $t16, evidence: Evidence::Open("bootstrap") },
            sdwa: Sourced { value: $sdwa, evidence: Evidence::Open("bootstrap") },
            f16_dst_high: Sourced { value: $hi, evidence: Evidence::Open("bootstrap") },
            snan: Sourced { value: SnanPolicy::Quiet, evidence: Evidence::Open("bootstrap") },
            sdwa_f16_output: Sourced { value: SdwaF16Output::Rounded, evidence: Evidence::Open("bootstrap") },
            aligned_vgpr_pairs: Sourced { value: false, evidence: Evidence::Open("bootstrap") },
            fract_rules: Evidence::Open("bootstrap"),
            forms: $fract_op,
        };
    };
}
const fn f(opcode: Opcode, encoding: Encoding) -> Form { Form { opcode, encoding, op: 0 } }
static ALLFORMS: [Form; 16] = [
    f(Opcode::FractF16, Encoding::Vop1), f(Opcode::FractF16, Encoding::Vop3), f(Opcode::FractF16, Encoding::Sdwa),
    f(Opcode::FractF32, Encoding::Vop1), f(Opcode::FractF32, Encoding::Vop3), f(Opcode::FractF32, Encoding::Sdwa),
    f(Opcode::FractF64, Encoding::Vop1), f(Opcode::FractF64, Encoding::Vop3),
    f(Opcode::LdexpF16, Encoding::Vop2), f(Opcode::LdexpF16, Encoding::Vop3), f(Opcode::LdexpF16, Encoding::Sdwa),
    f(Opcode::LdexpF32, Encoding::Vop3), f(Opcode::LdexpF64, Encoding::Vop3),
    f(Opcode::LdexpF64, Encoding::Vop3), f(Opcode::LdexpF64, Encoding::Vop3), f(Opcode::LdexpF64, Encoding::Vop3),
];
static NOSDWA: [Form; 10] = [
    f(Opcode::FractF16, Encoding::Vop1), f(Opcode::FractF16, Encoding::Vop3),
    f(Opcode::FractF32, Encoding::Vop1), f(Opcode::FractF32, Encoding::Vop3),
    f(Opcode::FractF64, Encoding::Vop1), f(Opcode::FractF64, Encoding::Vop3),
    f(Opcode::LdexpF16, Encoding::Vop2), f(Opcode::LdexpF16, Encoding::Vop3),
    f(Opcode::LdexpF32, Encoding::Vop3), f(Opcode::LdexpF64, Encoding::Vop3),
];
spec!(GFX908, Target::Gfx908, Family::Gfx9, OmodGate::IeeeAndOutputDenorm, ClampNan::Dx10Clamp, true, false, true, F16DstHigh::Zero, &ALLFORMS);
spec!(GFX1030, Target::Gfx1030, Family::Gfx10, OmodGate::IeeeAndOutputDenorm, ClampNan::Dx10Clamp, true, false, true, F16DstHigh::Preserve, &ALLFORMS);
spec!(GFX1100, Target::Gfx1100, Family::Gfx11, OmodGate::IeeeAndOutputDenorm, ClampNan::Dx10Clamp, true, true, false, F16DstHigh::Preserve, &NOSDWA);
spec!(GFX1201, Target::Gfx1201, Family::Gfx12, OmodGate::Always, ClampNan::AlwaysZero, false, true, false, F16DstHigh::Preserve, &NOSDWA);

pub fn spec(target: Target) -> &'static TargetSpec {
    match target {
        Target::Gfx908 | Target::Gfx90a | Target::Gfx942 | Target::Gfx950 => &GFX908,
        Target::Gfx1010 | Target::Gfx1030 => &GFX1030,
        Target::Gfx1100 | Target::Gfx1150 => &GFX1100,
        Target::Gfx1201 | Target::Gfx1250 => &GFX1201,
    }
}

pub fn execute(target: Target, wave: &mut Wave, instr: &Instruction) -> Result<(), ExecError> {
    let s = spec(target);
    match instr.opcode {
        Opcode::FractF16 => exec::execute::<Fract, F16>(s, wave, instr),
        Opcode::FractF32 => exec::execute::<Fract, F32>(s, wave, instr),
        Opcode::FractF64 => exec::execute::<Fract, F64>(s, wave, instr),
        Opcode::LdexpF16 => exec::execute::<Ldexp, F16>(s, wave, instr),
        Opcode::LdexpF32 => exec::execute::<Ldexp, F32>(s, wave, instr),
        Opcode::LdexpF64 => exec::execute::<Ldexp, F64>(s, wave, instr),
    }
}
