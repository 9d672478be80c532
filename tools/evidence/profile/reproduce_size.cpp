#include "tools/evidence/profile/reproduce_size.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "tools/common/text.h"
#include "tools/evidence/elf/elf_image.h"
#include "tools/evidence/elf/size_report.h"
#include "tools/evidence/elf/verify_kernels.h"

namespace etns::tools {
namespace {

std::string bytes_cell(const std::optional<uint64_t>& bytes) { return bytes ? grouped(*bytes) : "–"; }

}  // namespace

std::string size_section(const std::vector<SizedImage>& images) {
  std::vector<std::optional<SizeReport>> reports;
  std::vector<std::string> row_order;
  for (const SizedImage& image : images) {
    if (!std::filesystem::exists(image.path)) {
      reports.emplace_back();
      continue;
    }
    reports.push_back(size_report(ElfImage::load(image.path, ElfImage::SymbolTable::Optional), registered_operator_names()));
    for (const SizeComponent& component : reports.back()->components) {
      if (std::find(row_order.begin(), row_order.end(), component.name) == row_order.end()) {
        row_order.push_back(component.name);
      }
    }
  }
  std::string md =
      "\n## Flash and RAM by component\n\n"
      "Bytes of each part of the firmware images (`etns size`): flash = text + rodata + data, RAM = data + bss "
      "(the arenas included). The kws-app column is `examples/kws-app`, a user's firmware built against the "
      "installed package as a selective build for the imported kws model: exactly the kernels kws needs "
      "(docs/porting.md, \"What each part costs\").\n\n| component |";
  for (const SizedImage& image : images) md += " " + image.label + " flash B |";
  md += "\n|---|";
  for (size_t i = 0; i < images.size(); ++i) md += "---:|";
  md += "\n";
  for (const std::string& name : row_order) {
    md += "| " + name + " |";
    for (const std::optional<SizeReport>& report : reports) {
      std::optional<uint64_t> flash;
      if (report) {
        for (const SizeComponent& component : report->components) {
          if (component.name == name) flash = component.bytes.flash();
        }
        if (!flash) flash = 0;
      }
      md += " " + bytes_cell(flash) + " |";
    }
    md += "\n";
  }
  const auto totals_row = [&](const std::string& label, auto value) {
    md += "| " + label + " |";
    for (const std::optional<SizeReport>& report : reports) {
      md += " " + bytes_cell(report ? std::optional<uint64_t>(value(*report)) : std::nullopt) + " |";
    }
    md += "\n";
  };
  totals_row("unattributed (string literals, padding)", [](const SizeReport& r) { return r.unattributed.flash(); });
  totals_row("**flash (sections)**", [](const SizeReport& r) { return r.section_totals.flash(); });
  totals_row("**RAM (sections)**", [](const SizeReport& r) { return r.section_totals.ram(); });
  for (size_t i = 0; i < images.size(); ++i) {
    if (!reports[i]) md += "\n" + images[i].label + " was not there to measure: " + images[i].how_to_build + ".\n";
  }
  return md;
}

}  // namespace etns::tools
