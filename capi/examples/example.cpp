// A C++ program using the amdgpu-valu C API as an emulator would: FRACT,
// LDEXP and the arithmetic on its own register arrays, one instruction
// assembled, decoded and executed on a wave, and the public hardware capture
// rows replayed.
//
// Every expected value below is a hardware result from
// tests/captures/hw-public.tsv (or LLVM's bytes from tests/fixtures), but
// the arithmetic's, which are worked out by hand beside them.
//
// Build and run from the repository root (capi/tests/c_programs.rs does
// the same against the test build):
//   cargo build --release -p amdgpu-valu-capi
//   g++ -std=c++17 -Icapi/include capi/examples/example.cpp
//       target/release/libamdgpu_valu_capi.a -lpthread -ldl -lm -o example
//   ./example tests/captures/hw-public.tsv

#include <amdgpu_valu.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static int failures = 0;
static int checks = 0;

template <typename T>
static void expect_eq(const char *what, const std::vector<T> &got, const std::vector<T> &want) {
    ++checks;
    for (size_t i = 0; i < want.size(); ++i) {
        if (got[i] != want[i]) {
            std::printf("FAIL %s lane %zu: got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", what, i,
                        static_cast<uint64_t>(got[i]), static_cast<uint64_t>(want[i]));
            ++failures;
            return;
        }
    }
    std::printf("ok   %s\n", what);
}

static void expect_status(const char *what, AvaluStatus got, AvaluStatus want) {
    ++checks;
    if (got != want) {
        std::printf("FAIL %s: status %d, want %d (%s)\n", what, got, want, avalu_last_error());
        ++failures;
    } else {
        std::printf("ok   %s%s%s\n", what, got ? ": " : "", got ? avalu_last_error() : "");
    }
}

static uint32_t target(const char *name) {
    uint32_t id = 0;
    if (avalu_target_by_name(name, &id) != AVALU_STATUS_OK) {
        std::printf("FAIL target %s: %s\n", name, avalu_last_error());
        ++failures;
    }
    return id;
}

int main(int argc, char **argv) {
    const uint32_t gfx1201 = target("gfx1201");
    const uint32_t gfx1100 = target("gfx1100");
    const AvaluMods none = {0, 0, 0, 0};
    AvaluMods clamp = none;
    clamp.clamp = 1;

    // --- The kernels on raw lanes -------------------------------------
    // v_fract_f32 on gfx1201, MODE 0x30: -tiny gives 1 - ulp.
    std::vector<uint32_t> f32_src = {0x80000001u};
    std::vector<uint32_t> f32_dst(1);
    avalu_fract_f32(gfx1201, 0x30, none, nullptr, f32_src.data(), f32_dst.data(), 1);
    expect_eq("fract_f32 gfx1201 0x30 -tiny", f32_dst, {0x3f7fffffu});
    // MODE 0xfc (round toward zero): 0xb7cbb5fd gives 0x3f7ffe69.
    f32_src = {0xb7cbb5fdu};
    avalu_fract_f32(gfx1201, 0xfc, none, nullptr, f32_src.data(), f32_dst.data(), 1);
    expect_eq("fract_f32 gfx1201 0xfc", f32_dst, {0x3f7ffe69u});
    // +inf gives the default NaN; clamp of an sNaN gives +0 on gfx1201.
    f32_src = {0x7f800000u};
    avalu_fract_f32(gfx1201, 0xf0, none, nullptr, f32_src.data(), f32_dst.data(), 1);
    expect_eq("fract_f32 gfx1201 +inf", f32_dst, {0xffc00000u});
    f32_src = {0x7f800001u};
    avalu_fract_f32(gfx1201, 0xf0, clamp, nullptr, f32_src.data(), f32_dst.data(), 1);
    expect_eq("fract_f32 gfx1201 clamp sNaN", f32_dst, {0x00000000u});

    // v_ldexp_f16 on gfx1201, MODE 0xf0, three lanes at once; the exponent
    // registers hold 0x5a5a in bits 31:16, which F16 ignores.
    std::vector<uint16_t> h_src = {0x0401, 0x3c00, 0x3c00};
    std::vector<int32_t> h_exp = {int32_t(0x5a5affffu), int32_t(0x5a5a7fffu), int32_t(0x5a5a8000u)};
    std::vector<uint16_t> h_dst(3);
    avalu_ldexp_f16(gfx1201, 0xf0, none, nullptr, h_src.data(), h_exp.data(), h_dst.data(), 3);
    expect_eq("ldexp_f16 gfx1201 0xf0", h_dst, {0x0200, 0x7c00, 0x0000});

    // v_ldexp_f32 on gfx1100, MODE 0xfa (toward -inf, F32 denormals kept).
    std::vector<uint32_t> s_src = {0x00800000u, 0x80800000u, 0x7f7fffffu};
    std::vector<int32_t> s_exp = {-24, -24, 1};
    std::vector<uint32_t> s_dst(3);
    avalu_ldexp_f32(gfx1100, 0xfa, none, nullptr, s_src.data(), s_exp.data(), s_dst.data(), 3);
    expect_eq("ldexp_f32 gfx1100 0xfa", s_dst, {0x00000000u, 0x80000001u, 0x7f7fffffu});

    // v_ldexp_f64 and v_fract_f64 on gfx1201.
    std::vector<uint64_t> d_src = {0x0010000000000000ull, 0x8010000000000000ull};
    std::vector<int32_t> d_exp = {-53, -53};
    std::vector<uint64_t> d_dst(2);
    avalu_ldexp_f64(gfx1201, 0xf5, none, nullptr, d_src.data(), d_exp.data(), d_dst.data(), 2);
    expect_eq("ldexp_f64 gfx1201 0xf5", d_dst, {0x1ull, 0x8000000000000000ull});
    d_src = {0xbce254ae32fc7a4full};
    avalu_fract_f64(gfx1201, 0xfc, none, nullptr, d_src.data(), d_dst.data(), 1);
    expect_eq("fract_f64 gfx1201 0xfc", std::vector<uint64_t>{d_dst[0]}, {0x3fefffffffffffedull});

    // The arithmetic: v_fma_f16 on gfx1201 rounds once. Toward +inf with
    // F16 subnormals kept (MODE 0xc4), 2^-24 x 2^-24 + 65504 lies just above
    // 65504 and rounds past the largest finite value: +inf (0x7c00).
    std::vector<uint16_t> fa = {0x0001}, fb = {0x0001}, fc = {0x7bff}, fd(1);
    const AvaluArithMods no_mods = {0, 0, 0, 0};
    avalu_fma_f16(gfx1201, 0xc4, no_mods, nullptr, fa.data(), fb.data(), fc.data(), fd.data(), 1);
    expect_eq("fma_f16 gfx1201 0xc4 one rounding", fd, {0x7c00});
    // v_sub_f32 with NEG on src0 (bit 0 of the mask): -1.5 - 2.25 = -3.75.
    const AvaluArithMods neg0 = {0, 1, 0, 0};
    std::vector<uint32_t> sa = {0x3fc00000u}, sb = {0x40100000u}, sd(1);
    avalu_sub_f32(gfx1100, 0xf0, neg0, nullptr, sa.data(), sb.data(), sd.data(), 1);
    expect_eq("sub_f32 gfx1100 -src0", sd, {0xc0700000u});

    // A whole wave64 in place (dst is src, as v1 = fract(v1)) under an EXEC
    // mask: even lanes active; odd lanes keep their value.
    std::vector<uint32_t> v1(64, 0x80000001u);
    const uint64_t exec = 0x5555555555555555ull;
    avalu_fract_f32(gfx1201, 0x30, none, &exec, v1.data(), v1.data(), 64);
    std::vector<uint32_t> want(64);
    for (size_t i = 0; i < 64; ++i) want[i] = i % 2 ? 0x80000001u : 0x3f7fffffu;
    expect_eq("fract_f32 in place, EXEC even lanes", v1, want);

    // --- One instruction on a wave ---------------------------------------
    AvaluInstruction *ins = nullptr;
    expect_status("assemble", avalu_assemble(gfx1201, "v_ldexp_f16_e64 v0.l, v1.l, v2.l mul:2", &ins),
                  AVALU_STATUS_OK);
    std::vector<uint8_t> bytes(16);
    size_t n = 0;
    avalu_instruction_bytes(ins, bytes.data(), bytes.size(), &n);
    bytes.resize(n);
    expect_eq("assembled bytes (llvm-mc)", bytes, {0x00, 0x00, 0x3b, 0xd5, 0x01, 0x05, 0x02, 0x08});
    AvaluWave *wave = nullptr;
    avalu_wave_new(gfx1201, 0, &wave);
    avalu_wave_set_mode(wave, 0xf0);
    std::vector<uint32_t> lanes(avalu_wave_lanes(wave));
    for (uint32_t reg = 0; reg < 3; ++reg) {
        const uint32_t value[] = {0xa5a5a5a5u, 0x00003bffu, 0x0000fff2u};
        std::fill(lanes.begin(), lanes.end(), value[reg]);
        avalu_wave_write_vgpr(wave, reg, lanes.data(), lanes.size());
    }
    expect_status("execute", avalu_execute(wave, ins), AVALU_STATUS_OK);
    avalu_wave_read_vgpr(wave, 0, lanes.data(), lanes.size());
    expect_eq("v_ldexp_f16_e64 mul:2 on a wave32", lanes, std::vector<uint32_t>(lanes.size(), 0xa5a50000u));
    avalu_instruction_free(ins);
    avalu_wave_free(wave);

    // Decode llvm-mc's bytes of v_fract_f32 v1, v2 and print LLVM's text.
    const uint8_t fract_bytes[] = {0x02, 0x41, 0x02, 0x7e};
    size_t consumed = 0;
    expect_status("decode", avalu_decode(gfx1201, fract_bytes, 4, &ins, &consumed), AVALU_STATUS_OK);
    char text[64];
    avalu_instruction_text(ins, text, sizeof text, nullptr);
    ++checks;
    if (std::strcmp(text, "v_fract_f32_e32 v1, v2") != 0 || consumed != 4) {
        std::printf("FAIL disassembly: %s (%zu bytes)\n", text, consumed);
        ++failures;
    } else {
        std::printf("ok   disassembly: %s\n", text);
    }
    avalu_instruction_free(ins);

    // --- Errors are statuses, never crashes ------------------------------
    expect_status("NULL source", avalu_fract_f32(gfx1201, 0, none, nullptr, nullptr, f32_dst.data(), 4),
                  AVALU_STATUS_NULL_POINTER);
    expect_status("huge length",
                  avalu_fract_f32(gfx1201, 0, none, nullptr, f32_src.data(), f32_dst.data(), SIZE_MAX),
                  AVALU_STATUS_INVALID_ARGUMENT);
    uint32_t id = 0;
    expect_status("unknown target", avalu_target_by_name("gfx9", &id), AVALU_STATUS_UNKNOWN_TARGET);
    expect_status("bad assembly", avalu_assemble(gfx1201, "v_fract_f32 v0, v1 mul:3", &ins),
                  AVALU_STATUS_ASSEMBLY);

    // --- Replay the public hardware rows --------------------------------
    if (argc > 1) {
        std::ifstream file(argv[1]);
        std::stringstream ss;
        ss << file.rdbuf();
        const std::string rows = ss.str();
        AvaluReplay *replay = nullptr;
        expect_status("replay", avalu_replay(rows.data(), rows.size(), &replay), AVALU_STATUS_OK);
        const size_t passed = avalu_replay_passed(replay), failed = avalu_replay_failed(replay);
        for (size_t i = 0; i < failed; ++i) std::printf("%s\n", avalu_replay_failure(replay, i));
        std::printf("replay %s: %zu passed, %zu failed\n", argv[1], passed, failed);
        ++checks;
        if (failed != 0 || passed == 0) ++failures;
        avalu_replay_free(replay);
    }

    std::printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
