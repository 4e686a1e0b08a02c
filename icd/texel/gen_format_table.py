#!/usr/bin/env python3
"""Generate texel/format_table.cpp: one duet::texel::FormatInfo per VkFormat.

The format descriptions come from the registry's <formats> element; the
enum values come from the installed vulkan_core.h, so the table holds
exactly the formats the compiler knows, whatever the registry's version.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dispatch'))
from vkxml import load_registry, for_vulkan  # noqa: E402

NUMERIC_TYPES = {
    'UNORM': 'kUnorm', 'SNORM': 'kSnorm', 'USCALED': 'kUscaled', 'SSCALED': 'kSscaled',
    'UINT': 'kUint', 'SINT': 'kSint', 'UFLOAT': 'kUfloat', 'SFLOAT': 'kSfloat', 'SRGB': 'kSrgb',
}
COMPRESSIONS = {
    'BC': 'kBC', 'ETC2': 'kETC2', 'EAC': 'kEAC', 'ASTC LDR': 'kASTC_LDR',
    'ASTC HDR': 'kASTC_HDR', 'PVRTC': 'kPVRTC',
}
# Slips in vk.xml (seen in 1.3.239) that the format names and the spec's
# format descriptions contradict: the right components, letter and bits.
# Each of these formats has one numeric type, which vk.xml gets right.
COMPONENT_FIXES = {
    'VK_FORMAT_B5G5R5A1_UNORM_PACK16': 'B5G5R5A1',    # vk.xml: B R G A
    'VK_FORMAT_R64G64_UINT': 'R64G64',                # vk.xml: R B
    'VK_FORMAT_R64G64_SINT': 'R64G64',
    'VK_FORMAT_R64G64_SFLOAT': 'R64G64',
    'VK_FORMAT_B10G11R11_UFLOAT_PACK32': 'B10G11R11',  # vk.xml: R has 10 bits
    'VK_FORMAT_E5B9G9R9_UFLOAT_PACK32': 'E5B9G9R9',    # vk.xml leaves out the shared exponent
}


def header_format_values(header_path):
    """{'VK_FORMAT_R8_UNORM': 9, ...}: the VkFormat enumerants with numeric values."""
    with open(header_path, encoding='utf-8') as f:
        text = f.read()
    body = re.search(r'typedef enum VkFormat \{(.*?)\} VkFormat;', text, re.S).group(1)
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r'^\s*(VK_FORMAT_\w+)\s*=\s*(-?\d+)\s*,?\s*$', body, re.M)}


def default_header(registry_path):
    # <prefix>/share/vulkan/registry/vk.xml -> <prefix>/include/vulkan/vulkan_core.h
    prefix = os.path.normpath(os.path.join(os.path.dirname(registry_path), '..', '..', '..'))
    for candidate in (os.path.join(prefix, 'include', 'vulkan', 'vulkan_core.h'),
                      '/usr/include/vulkan/vulkan_core.h'):
        if os.path.exists(candidate):
            return candidate
    sys.exit('gen_format_table.py: vulkan_core.h not found; pass --header')


def read_components(fmt):
    """[(letter, bits, numeric type)] in the registry's order, with known slips fixed."""
    comps = [(c.get('name'), 0 if c.get('bits') == 'compressed' else int(c.get('bits')),
              c.get('numericFormat')) for c in fmt.findall('component')]
    fix = COMPONENT_FIXES.get(fmt.get('name'))
    if fix and comps:
        comps = [(letter, int(bits), comps[0][2]) for letter, bits in re.findall(r'([A-Z])(\d+)', fix)]
    return comps


def format_entry(fmt, class_ids):
    """The C++ initializer of one FormatInfo, or None when it cannot be described."""
    name = fmt.get('name')
    comps = read_components(fmt)
    compressed = fmt.get('compressed')
    if compressed and compressed not in COMPRESSIONS:
        print(f'gen_format_table.py: skipping {name}: unknown compression {compressed!r}', file=sys.stderr)
        return None
    if not 1 <= len(comps) <= 4:
        print(f'gen_format_table.py: skipping {name}: {len(comps)} components', file=sys.stderr)
        return None
    extent = [int(v) for v in fmt.get('blockExtent', '1,1,1').split(',')]
    spirv = fmt.find('spirvimageformat')
    letters = [c[0] for c in comps]
    comp_text = ', '.join(f"{{'{letter}', {bits}, NumericType::{NUMERIC_TYPES.get(num, 'kNone')}}}"
                          for letter, bits, num in comps)
    fields = [
        f'{name}', f'"{name}"',
        fmt.get('blockSize'), *map(str, extent),
        fmt.get('packed', '0'), str(len(comps)), f'{{{comp_text}}}',
        f"Compression::{COMPRESSIONS[compressed] if compressed else 'kNone'}",
        str(max(1, len(fmt.findall('plane')))),
        'true' if 'D' in letters else 'false', 'true' if 'S' in letters else 'false',
        'true' if fmt.get('chroma') in ('420', '422') else 'false',
        str(class_ids[fmt.get('class')]),
        f'"{spirv.get("name")}"' if spirv is not None else 'nullptr',
    ]
    return '    {' + ', '.join(fields) + '},'


def generate(registry_path, header_path):
    values = header_format_values(header_path)
    formats = [f for f in load_registry(registry_path).find('formats') if f.tag == 'format' and for_vulkan(f)]
    class_names = sorted({f.get('class') for f in formats})
    assert len(class_names) < 256, 'compatibility_class is a uint8_t'
    class_ids = {c: i for i, c in enumerate(class_names)}

    rows = []  # (value, initializer)
    for fmt in formats:
        if fmt.get('name') not in values:
            print(f"gen_format_table.py: {fmt.get('name')} is not in vulkan_core.h; left out", file=sys.stderr)
            continue
        entry = format_entry(fmt, class_ids)
        if entry:
            rows.append((values[fmt.get('name')], entry))
    rows.sort()
    # Core formats are numbered 1, 2, 3, ...: that prefix is indexed directly.
    dense = 0
    while dense < len(rows) and rows[dense][0] == dense + 1:
        dense += 1

    lines = '\n'.join(entry for _, entry in rows)
    return f'''// Generated by icd/texel/gen_format_table.py from vk.xml: do not edit.
#include "texel/format_info.h"

#include <algorithm>
#include <iterator>

namespace duet::texel {{
namespace {{

// format, name, block_size, block_width/height/depth, packed_bits,
// component_count, components, compression, plane_count, has_depth,
// has_stencil, chroma_subsampled, compatibility_class, spirv_image_format
constexpr FormatInfo kFormats[] = {{
{lines}
}};

// kFormats[i].format == i + 1 for i < kDenseCount.
constexpr uint32_t kDenseCount = {dense};

}}  // namespace

const FormatInfo* GetFormatInfo(VkFormat format) {{
  const auto value = static_cast<int64_t>(format);
  if (value >= 1 && value <= kDenseCount) return &kFormats[value - 1];
  const auto first = std::begin(kFormats) + kDenseCount;
  const auto it = std::lower_bound(first, std::end(kFormats), format,
                                   [](const FormatInfo& info, VkFormat f) {{ return info.format < f; }});
  return it != std::end(kFormats) && it->format == format ? &*it : nullptr;
}}

std::span<const FormatInfo> AllFormatInfos() {{ return kFormats; }}

}}  // namespace duet::texel
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--registry', required=True, help='path to vk.xml')
    parser.add_argument('--header', help='path to vulkan_core.h (default: next to the registry)')
    parser.add_argument('--out', required=True, help='output folder')
    args = parser.parse_args()
    text = generate(args.registry, args.header or default_header(args.registry))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'format_table.cpp'), 'w', encoding='utf-8') as f:
        f.write(text)


if __name__ == '__main__':
    main()
