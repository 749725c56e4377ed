#include "runtime/float_controls.h"

#include <set>
#include <string>

#include "runtime/error.h"

namespace torchvulkan::rt {
namespace {

// SPIR-V's numbers (the unified specification, sections 3.6, 3.31, 3.49).
constexpr uint32_t kOpEntryPoint = 15, kOpExecutionMode = 16, kOpCapability = 17;
constexpr uint32_t kFloat16 = 9, kFloat64 = 10, kSignedZeroInfNanPreserve = 4466;
constexpr uint32_t kModeSignedZeroInfNanPreserve = 4461;
constexpr size_t kHeaderWords = 5;
constexpr uint32_t kVersion14 = 0x00010400;

// Calls f(offset, opcode, words) for each instruction after the header.
template <class F>
void each_instruction(std::span<const uint32_t> code, F f) {
  for (size_t at = kHeaderWords; at < code.size();) {
    uint32_t count = code[at] >> 16;
    if (count == 0 || at + count > code.size())
      throw Error("torchvulkan: malformed SPIR-V module (instruction at word " +
                  std::to_string(at) + ")");
    f(at, code[at] & 0xFFFFu, code.subspan(at, count));
    at += count;
  }
}

}  // namespace

std::vector<uint32_t> preserve_inf_nan(std::span<const uint32_t> code, FloatWidths preserved) {
  std::vector<uint32_t> out(code.begin(), code.end());
  if (code.size() < kHeaderWords || code[1] < kVersion14) return out;
  bool float16 = false, float64 = false, declared = false;
  size_t after_capabilities = kHeaderWords, after_entry_points = kHeaderWords;
  std::vector<uint32_t> entry_points;
  std::set<uint32_t> already;
  each_instruction(code, [&](size_t at, uint32_t op, std::span<const uint32_t> words) {
    if (op == kOpCapability && words.size() == 2) {
      float16 |= words[1] == kFloat16;
      float64 |= words[1] == kFloat64;
      declared |= words[1] == kSignedZeroInfNanPreserve;
      after_capabilities = at + words.size();
    } else if (op == kOpEntryPoint && words.size() > 2) {
      entry_points.push_back(words[2]);
      after_entry_points = at + words.size();
    } else if (op == kOpExecutionMode && words.size() == 4 &&
               words[2] == kModeSignedZeroInfNanPreserve) {
      already.insert(words[3]);
    }
  });
  std::vector<uint32_t> widths;
  if (preserved.f16 && float16) widths.push_back(16);
  if (preserved.f32) widths.push_back(32);
  if (preserved.f64 && float64) widths.push_back(64);
  std::erase_if(widths, [&](uint32_t w) { return already.count(w) != 0; });
  if (widths.empty() || entry_points.empty()) return out;

  // Execution modes follow the last entry point; capabilities come first,
  // so inserting the modes first keeps the capability's offset valid.
  std::vector<uint32_t> modes;
  for (uint32_t entry : entry_points)
    for (uint32_t width : widths)
      modes.insert(modes.end(),
                   {(4u << 16) | kOpExecutionMode, entry, kModeSignedZeroInfNanPreserve, width});
  out.insert(out.begin() + after_entry_points, modes.begin(), modes.end());
  if (!declared)
    out.insert(out.begin() + after_capabilities,
               {(2u << 16) | kOpCapability, kSignedZeroInfNanPreserve});
  return out;
}

std::vector<uint32_t> preserved_widths(std::span<const uint32_t> code) {
  std::set<uint32_t> widths;
  each_instruction(code, [&](size_t, uint32_t op, std::span<const uint32_t> words) {
    if (op == kOpExecutionMode && words.size() == 4 && words[2] == kModeSignedZeroInfNanPreserve)
      widths.insert(words[3]);
  });
  return {widths.begin(), widths.end()};
}

}  // namespace torchvulkan::rt
