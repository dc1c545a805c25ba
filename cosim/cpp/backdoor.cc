// Testbench backdoor: direct access to the memory arrays a block's
// Verilation made public (cosim/cpp/backdoor.vlt), found through the
// model's scope table (VerilatedContext::scopeNameMap), so the shim needs
// no knowledge of the block's hierarchy.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include "sb2sb/cosim/cpp/dut.h"
#include "verilated.h"
#include "verilated_syms.h"

// Wide words (VlWide: 32-bit halves, least significant first) are read and
// written as their 64-bit lanes, which is their memory layout on a
// little-endian host only.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the backdoor needs a little-endian host");

namespace sb2sb {

void Dut::backdoor_init(VerilatedContext* ctx) {
  bd_.clear();
  const VerilatedScopeNameMap* scopes = ctx->scopeNameMap();
  if (!scopes) return;
  for (const auto& sc : *scopes) {
    const VerilatedVarNameMap* vars = sc.second->varsp();
    if (!vars) continue;
    for (const auto& v : *vars) {
      const VerilatedVar& var = v.second;
      // Public read-write arrays of one unpacked dimension: words up to 64
      // bits, or wide words of whole 64-bit lanes, kept as their lanes (word
      // w's lane l is backdoor word w * lanes + l).
      if (!var.isPublicRW() || var.udims() != 1 || var.dims() != 2) continue;
      const uint32_t bytes = var.entSize();
      // high()/low() of dimension 0 (the packed word, flattened) and 1 (the
      // unpacked array) are the accessors every Verilator 5 release keeps;
      // packed()/unpacked() were replaced by range vectors in later releases.
      const int bits = var.high(0) - var.low(0) + 1;
      const bool narrow =
          bits >= 1 && bits <= 64 && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8);
      const bool wide = bits > 64 && bits % 64 == 0 && bytes == uint32_t(bits / 8);
      if (!narrow && !wide) continue;
      const uint32_t lanes = wide ? uint32_t(bits / 64) : 1;
      Mem m;
      m.name = std::string(sc.first) + "." + v.first;
      m.data = var.datap();
      m.words = uint32_t(var.high(1) - var.low(1) + 1) * lanes;
      m.bits = wide ? 64 : uint32_t(bits);
      m.bytes = wide ? 8 : bytes;
      bd_.push_back(m);
    }
  }
  // The scope table is sorted by name already; keep that order explicit.
  std::sort(bd_.begin(), bd_.end(), [](const Mem& a, const Mem& b) { return a.name < b.name; });
}

const Dut::Mem& Dut::bd_mem(size_t k, uint32_t first, size_t n) const {
  if (k >= bd_.size()) {
    throw std::out_of_range("backdoor memory " + std::to_string(k) + " of " +
                            std::to_string(bd_.size()));
  }
  const Mem& m = bd_[k];
  if (uint64_t(first) + n > m.words) {
    throw std::out_of_range(m.name + ": words " + std::to_string(first) + ".." +
                            std::to_string(uint64_t(first) + n) + " past its " +
                            std::to_string(m.words) + " words");
  }
  return m;
}

rust::String Dut::backdoor_name(size_t k) const { return rust::String(bd_mem(k, 0, 0).name); }
uint32_t Dut::backdoor_words(size_t k) const { return bd_mem(k, 0, 0).words; }
uint32_t Dut::backdoor_bits(size_t k) const { return bd_mem(k, 0, 0).bits; }

void Dut::backdoor_read(size_t k, uint32_t first, rust::Slice<uint64_t> out) const {
  const Mem& m = bd_mem(k, first, out.size());
  uint64_t* o = out.data();
  if (m.bytes == 8) {
    std::memcpy(o, static_cast<const uint64_t*>(m.data) + first, out.size() * 8);
    return;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const size_t j = first + i;
    switch (m.bytes) {
      case 1: o[i] = static_cast<const uint8_t*>(m.data)[j]; break;
      case 2: o[i] = static_cast<const uint16_t*>(m.data)[j]; break;
      default: o[i] = static_cast<const uint32_t*>(m.data)[j]; break;
    }
  }
}

void Dut::backdoor_write(size_t k, uint32_t first, rust::Slice<const uint64_t> data) {
  const Mem& m = bd_mem(k, first, data.size());
  const uint64_t mask = m.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << m.bits) - 1;
  const uint64_t* d = data.data();
  for (size_t i = 0; i < data.size(); ++i) {
    const size_t j = first + i;
    const uint64_t w = d[i] & mask;
    switch (m.bytes) {
      case 1: static_cast<uint8_t*>(m.data)[j] = uint8_t(w); break;
      case 2: static_cast<uint16_t*>(m.data)[j] = uint16_t(w); break;
      case 4: static_cast<uint32_t*>(m.data)[j] = uint32_t(w); break;
      default: static_cast<uint64_t*>(m.data)[j] = w; break;
    }
  }
}

}  // namespace sb2sb
