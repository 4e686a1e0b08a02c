#!/usr/bin/env python3
"""Generates the ICD's API surface from the installed registry (vk.xml).

Outputs (into --out):
  entrypoints.h        prototypes of every command in namespace duet::api,
                       the EntryPoint record and lookup functions
  entrypoints.cpp      the sorted name -> function table (aliases included)
  entrypoint_stubs.cpp a weak definition of every command; a real definition
                       anywhere in the driver overrides it, so a command not
                       written yet logs once and fails safely instead of
                       crashing, and nothing is listed by hand twice
  extensions.h/.cpp    the supported extensions (from extensions.txt)
  feature_structs.cpp  fill/check code for every feature and property struct
                       that Vulkan 1.1-1.3 or a supported extension chains
                       into VkPhysicalDeviceFeatures2/Properties2, mapped by
                       member name onto the canonical Vulkan1xFeatures/
                       Properties, so one struct per version is the truth
  extension_features.h ExtensionFeatures: one VkBool32 per feature of a
                       supported extension that no Vulkan 1.x struct holds
                       (e.g. swapchainMaintenance1), the extension-only
                       part of DeviceFeatures; ExtensionProperties the same
                       for properties (e.g. maxMultiDrawCount)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vkxml import load_registry, for_vulkan, c_decl, core_versions, require_applies  # noqa: E402

DISPATCHABLE_DEVICE = {'VkDevice', 'VkQueue', 'VkCommandBuffer'}
GLOBAL_COMMANDS = {'vkCreateInstance', 'vkEnumerateInstanceVersion',
                   'vkEnumerateInstanceExtensionProperties',
                   'vkEnumerateInstanceLayerProperties', 'vkGetInstanceProcAddr'}
# Members whose name in the promoted struct differs from the Vulkan1x one.
RENAMED_MEMBERS = {
    ('VkPhysicalDeviceSubgroupProperties', 'supportedStages'): 'subgroupSupportedStages',
    ('VkPhysicalDeviceSubgroupProperties', 'supportedOperations'): 'subgroupSupportedOperations',
    ('VkPhysicalDeviceSubgroupProperties', 'quadOperationsInAllStages'): 'subgroupQuadOperationsInAllStages',
}
CANONICAL = {
    'features': [('VkPhysicalDeviceVulkan11Features', 'vulkan11'),
                 ('VkPhysicalDeviceVulkan12Features', 'vulkan12'),
                 ('VkPhysicalDeviceVulkan13Features', 'vulkan13')],
    'properties': [('VkPhysicalDeviceVulkan11Properties', 'vulkan11'),
                   ('VkPhysicalDeviceVulkan12Properties', 'vulkan12'),
                   ('VkPhysicalDeviceVulkan13Properties', 'vulkan13')],
}


class Command:
    def __init__(self, elem):
        proto = elem.find('proto')
        self.name = proto.find('name').text
        self.ret = proto.find('type').text
        self.params = [p for p in elem.findall('param') if for_vulkan(p)]
        self.errors = (elem.get('errorcodes') or '').split(',')
        first = self.params[0].find('type').text
        if self.name in GLOBAL_COMMANDS:
            self.level = 'kGlobal'
        elif first == 'VkInstance':
            self.level = 'kInstance'
        elif first == 'VkPhysicalDevice':
            self.level = 'kPhysicalDevice'
        elif first in DISPATCHABLE_DEVICE:
            self.level = 'kDevice'
        else:
            self.level = 'kGlobal'

    def params_c(self, unused=False):
        prefix = '[[maybe_unused]] ' if unused else ''
        return ', '.join(prefix + c_decl(p) for p in self.params) or 'void'

    def short(self):
        return self.name[2:]


def extension_enum(name):
    return name[3:]  # VK_EXT_debug_utils -> EXT_debug_utils


def read_registry(root, supported_names):
    commands, aliases = {}, {}
    for c in root.find('commands').findall('command'):
        if not for_vulkan(c):
            continue
        if c.get('alias'):
            aliases[c.get('name')] = c.get('alias')
        else:
            cmd = Command(c)
            commands[cmd.name] = cmd

    protect = {p.get('name'): p.get('protect') for p in root.find('platforms')}
    # name -> (core version or None, [extension names])
    origin = {}
    struct_origin = set()
    for _, version, feat in core_versions(root):
        for req in feat.findall('require'):
            for c in req.findall('command'):
                origin.setdefault(c.get('name'), [version, []])
            for t in req.findall('type'):
                struct_origin.add(t.get('name'))

    extensions = {}
    for ext in root.find('extensions').findall('extension'):
        name = ext.get('name')
        if name not in supported_names:
            continue
        if 'vulkan' not in (ext.get('supported') or '').split(','):
            sys.exit(f'{name} is not a Vulkan extension in this registry')
        version = None
        for req in ext.findall('require'):
            for e in req.findall('enum'):
                if e.get('name', '').endswith('_SPEC_VERSION') and e.get('value'):
                    version = e.get('value')
            if not require_applies(req, supported_names):
                continue
            for c in req.findall('command'):
                entry = origin.setdefault(c.get('name'), [None, []])
                if name not in entry[1]:
                    entry[1].append(name)
            for t in req.findall('type'):
                struct_origin.add(t.get('name'))
        extensions[name] = dict(type=ext.get('type'), version=version,
                                protect=protect.get(ext.get('platform')))
    missing = set(supported_names) - set(extensions)
    if missing:
        sys.exit(f'unknown extensions in extensions.txt: {sorted(missing)}')
    return commands, aliases, origin, extensions, struct_origin


def canonical_command(name, aliases):
    while name in aliases:
        name = aliases[name]
    return name


def command_protect(name, origin, extensions):
    core, exts = origin[name]
    if core:
        return None
    guards = {extensions[e]['protect'] for e in exts}
    return guards.pop() if len(guards) == 1 else None


def guarded(lines, guard):
    return [f'#ifdef {guard}'] + lines + ['#endif'] if guard else lines


def write(path, text):
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, 'w') as f:
            f.write(text)


HEADER = '// Generated by icd/dispatch/gen_entrypoints.py from vk.xml. Do not edit.\n'


def gen_extensions(out, supported, extensions):
    h = [HEADER, '#pragma once', '', '#include <vulkan/vulkan_core.h>', '',
         '#include <bitset>', '#include <cstdint>', '#include <span>', '',
         'namespace duet::dispatch {', '',
         'enum class Extension : uint8_t {', '  kNone,']
    h += [f'  {extension_enum(n)},' for n in supported]
    h += ['  kCount,', '};', '',
          'using ExtensionSet = std::bitset<static_cast<size_t>(Extension::kCount)>;', '',
          'struct ExtensionInfo {', '  Extension id;', '  bool instance;',
          '  VkExtensionProperties properties;', '};', '',
          '// Supported extensions of each kind, in extensions.txt order.',
          'std::span<const ExtensionInfo> InstanceExtensions();',
          'std::span<const ExtensionInfo> DeviceExtensions();',
          '// nullptr when the name is not a supported extension.',
          'const ExtensionInfo* FindExtension(const char* name);', '',
          '}  // namespace duet::dispatch', '']
    write(os.path.join(out, 'extensions.h'), '\n'.join(h))

    def rows(kind):
        r = [f'    {{Extension::{extension_enum(n)}, {str(kind == "instance").lower()}, '
             f'{{"{n}", {extensions[n]["version"]}}}}},'
             for n in supported if extensions[n]['type'] == kind]
        return r or ['    {Extension::kNone, false, {"", 0}},']

    c = [HEADER, '#include "dispatch/extensions.h"', '', '#include <cstring>', '',
         'namespace duet::dispatch {', 'namespace {', '',
         'constexpr ExtensionInfo kInstance[] = {'] + rows('instance') + ['};',
         'constexpr ExtensionInfo kDevice[] = {'] + rows('device') + ['};', '',
         'std::span<const ExtensionInfo> Trim(std::span<const ExtensionInfo> s) {',
         '  return s.front().id == Extension::kNone ? s.first(0) : s;', '}', '',
         '}  // namespace', '',
         'std::span<const ExtensionInfo> InstanceExtensions() { return Trim(kInstance); }',
         'std::span<const ExtensionInfo> DeviceExtensions() { return Trim(kDevice); }', '',
         'const ExtensionInfo* FindExtension(const char* name) {',
         '  for (auto list : {InstanceExtensions(), DeviceExtensions()})',
         '    for (const ExtensionInfo& e : list)',
         '      if (std::strcmp(e.properties.extensionName, name) == 0) return &e;',
         '  return nullptr;', '}', '', '}  // namespace duet::dispatch', '']
    write(os.path.join(out, 'extensions.cpp'), '\n'.join(c))


def stub_result(cmd):
    for code in ('VK_ERROR_FEATURE_NOT_PRESENT', 'VK_ERROR_INITIALIZATION_FAILED'):
        if code in cmd.errors:
            return code
    return 'VK_ERROR_FEATURE_NOT_PRESENT'


def gen_entrypoints(out, commands, aliases, origin, extensions):
    names = sorted(n for n in origin if canonical_command(n, aliases) in commands)
    impls = sorted({canonical_command(n, aliases) for n in names})
    # Room for the most extensions any command comes from, and the kNone end.
    ext_slots = max(len(origin[n][1]) for n in names) + 1

    h = [HEADER, '#pragma once', '', '#include <vulkan/vulkan.h>', '',
         '#include <cstdint>', '#include <span>', '',
         '#include "dispatch/extensions.h"', '',
         '// Every command the driver exposes, named without the "vk" prefix.',
         'namespace duet::api {', '']
    for n in impls:
        cmd = commands[n]
        h += guarded([f'VKAPI_ATTR {cmd.ret} VKAPI_CALL {cmd.short()}({cmd.params_c()});'],
                     command_protect(n, origin, extensions))
    h += ['', '}  // namespace duet::api', '', 'namespace duet::dispatch {', '',
          'enum class CommandLevel : uint8_t { kGlobal, kInstance, kPhysicalDevice, kDevice };', '',
          'struct EntryPoint {', '  const char* name;', '  PFN_vkVoidFunction function;',
          '  CommandLevel level;',
          '  uint32_t core_version;  // 0 when the command comes only from extensions',
          f'  Extension extensions[{ext_slots}];  // kNone-terminated: any one of them exposes it',
          '};', '',
          '// Sorted by name; includes extension aliases of core commands.',
          'std::span<const EntryPoint> AllEntryPoints();',
          '// nullptr when the driver does not know the name.',
          'const EntryPoint* FindEntryPoint(const char* name);', '',
          '}  // namespace duet::dispatch', '']
    write(os.path.join(out, 'entrypoints.h'), '\n'.join(h))

    c = [HEADER, '#include "dispatch/entrypoints.h"', '', '#include <algorithm>',
         '#include <cstring>', '', '#include "dispatch/host_memory_guard.h"', '',
         'namespace duet::dispatch {', 'namespace {', '',
         '// const, not constexpr: function pointer casts are not constant expressions.', 'const EntryPoint kEntryPoints[] = {']
    for n in names:
        impl = commands[canonical_command(n, aliases)]
        core, exts = origin[n]
        ext_list = ', '.join([f'Extension::{extension_enum(e)}' for e in exts] + ['Extension::kNone'])
        # Commands that return a VkResult answer VK_ERROR_OUT_OF_HOST_MEMORY
        # when the C++ allocator fails (dispatch/host_memory_guard.h).
        function = (f'&HostMemoryGuard<&api::{impl.short()}>::Call' if impl.ret == 'VkResult'
                    else f'&api::{impl.short()}')
        row = (f'    {{"{n}", reinterpret_cast<PFN_vkVoidFunction>({function}), '
               f'CommandLevel::{impl.level}, {core or 0}, {{{ext_list}}}}},')
        c += guarded([row], command_protect(n, origin, extensions))
    c += ['};', '', '}  // namespace', '',
          'std::span<const EntryPoint> AllEntryPoints() { return kEntryPoints; }', '',
          'const EntryPoint* FindEntryPoint(const char* name) {',
          '  auto it = std::lower_bound(std::begin(kEntryPoints), std::end(kEntryPoints), name,',
          '                             [](const EntryPoint& e, const char* n) { return std::strcmp(e.name, n) < 0; });',
          '  if (it == std::end(kEntryPoints) || std::strcmp(it->name, name) != 0) return nullptr;',
          '  return &*it;', '}', '', '}  // namespace duet::dispatch', '']
    write(os.path.join(out, 'entrypoints.cpp'), '\n'.join(c))

    s = [HEADER, '#include "dispatch/entrypoints.h"', '#include "util/log.h"', '',
         'namespace duet::api {', '']
    for n in impls:
        cmd = commands[n]
        body = [f'[[gnu::weak]] VKAPI_ATTR {cmd.ret} VKAPI_CALL {cmd.short()}({cmd.params_c(True)}) {{',
                f'  LogUnimplemented("{n}");']
        if cmd.ret == 'VkResult':
            body.append(f'  return {stub_result(cmd)};')
        elif cmd.ret != 'void':
            body.append(f'  return {cmd.ret}{{}};')
        body.append('}')
        s += guarded(body, command_protect(n, origin, extensions))
    s += ['', '}  // namespace duet::api', '']
    write(os.path.join(out, 'entrypoint_stubs.cpp'), '\n'.join(s))


def struct_members(root):
    out = {}
    for t in root.find('types').findall('type'):
        if t.get('category') == 'struct' and not t.get('alias'):
            members = [m for m in t.findall('member') if for_vulkan(m)]
            out[t.get('name')] = dict(elem=t, members=members)
    return out


def chained_structs(structs, extends, struct_origin):
    found = []
    for name, s in sorted(structs.items()):
        if name not in struct_origin:
            continue
        if extends in (s['elem'].get('structextends') or '').split(','):
            stype = s['members'][0].get('values')
            found.append((name, stype, s['members'][2:]))
    return found


def core_structs(root):
    """Names of the structs some Vulkan 1.x version requires."""
    return {t.get('name') for _, _, feat in core_versions(root)
            for req in feat.findall('require') for t in req.findall('type')}


EXTENSION_FEATURES_FIELD = 'extension'


def extension_feature_table(structs, struct_origin, core, canon_members):
    """[(member, struct)]: features of extension-only structs that no
    Vulkan 1.x feature struct holds. They get storage of their own in
    ExtensionFeatures; a core struct must still map completely."""
    table, seen = [], {}
    for sname, _, members in chained_structs(structs, 'VkPhysicalDeviceFeatures2', struct_origin):
        if sname in core:
            continue
        for m in members:
            mname = m.find('name').text
            if RENAMED_MEMBERS.get((sname, mname), mname) in canon_members:
                continue
            if m.find('type').text != 'VkBool32' or '[' in c_decl(m):
                sys.exit(f'{sname}.{mname}: an extension-only feature that is not a VkBool32')
            if mname in seen:
                sys.exit(f'{sname}.{mname}: extension-only feature also in {seen[mname]}; '
                         'give ExtensionFeatures distinct names for them')
            seen[mname] = sname
            table.append((mname, sname))
    return table


def extension_property_table(structs, struct_origin, core, canon_members):
    """[(member, struct, C declaration)]: properties of extension-only structs
    that no Vulkan 1.x property struct holds; storage in ExtensionProperties."""
    table, seen = [], {}
    for sname, _, members in chained_structs(structs, 'VkPhysicalDeviceProperties2', struct_origin):
        if sname in core:
            continue
        for m in members:
            mname = m.find('name').text
            if RENAMED_MEMBERS.get((sname, mname), mname) in canon_members:
                continue
            if mname in seen:
                sys.exit(f'{sname}.{mname}: extension-only property also in {seen[mname]}')
            seen[mname] = sname
            table.append((mname, sname, c_decl(m)))
    return table


def gen_extension_features(out, table, properties_table):
    h = [HEADER, '#pragma once', '', '#include <vulkan/vulkan_core.h>', '',
         'namespace duet {', '',
         '// Features of the supported extensions that no Vulkan 1.x feature struct',
         '// holds, named as in their extension\'s struct. Part of DeviceFeatures',
         f'// (member `{EXTENSION_FEATURES_FIELD}`); filled, checked and recorded by the generated',
         '// code in feature_structs.cpp like the Vulkan 1.x ones.',
         'struct ExtensionFeatures {']
    h += [f'  VkBool32 {m};  // {s}' for m, s in table]
    h += ['};', '']
    h += ['// Properties of the supported extensions that no Vulkan 1.x property',
          '// struct holds (DeviceProperties::extension).',
          'struct ExtensionProperties {']
    h += [f'  {decl};  // {s}' for _, s, decl in properties_table]
    h += ['};', '', '}  // namespace duet', '']
    write(os.path.join(out, 'extension_features.h'), '\n'.join(h))


def gen_feature_structs(out, root, struct_origin):
    structs = struct_members(root)
    canon_members = {}
    for kind in CANONICAL:
        for sname, field in CANONICAL[kind]:
            for m in structs[sname]['members'][2:]:
                canon_members.setdefault(kind, {})[m.find('name').text] = field
    core = core_structs(root)
    ext_table = extension_feature_table(structs, struct_origin, core, canon_members['features'])
    for mname, _ in ext_table:
        canon_members['features'][mname] = EXTENSION_FEATURES_FIELD
    prop_table = extension_property_table(structs, struct_origin, core, canon_members['properties'])
    for mname, _, _ in prop_table:
        canon_members['properties'][mname] = EXTENSION_FEATURES_FIELD
    gen_extension_features(out, ext_table, prop_table)

    c = [HEADER, '#include "objects/device_capabilities.h"', '', '#include <cstring>', '',
         'namespace duet {', '']

    # Core 1.0 features: a flat list of VkBool32 members.
    core_features = [m.find('name').text for m in structs['VkPhysicalDeviceFeatures']['members']]
    c += ['const char* FindUnsupportedCoreFeature(const VkPhysicalDeviceFeatures& supported,',
          '                                       const VkPhysicalDeviceFeatures& requested) {']
    c += [f'  if (requested.{m} && !supported.{m}) return "{m}";' for m in core_features]
    c += ['  return nullptr;', '}', '']

    for kind, extends, canon_type in (('features', 'VkPhysicalDeviceFeatures2', 'DeviceFeatures'),
                                      ('properties', 'VkPhysicalDeviceProperties2', 'DeviceProperties')):
        fill = [f'bool Fill{kind.capitalize()}Struct(const {canon_type}& d, VkBaseOutStructure* s) {{',
                '  switch (s->sType) {']
        check = ['const char* FindUnsupportedFeature(const DeviceFeatures& d, const VkBaseInStructure* s) {',
                 '  switch (s->sType) {',
                 '    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:',
                 '      return FindUnsupportedCoreFeature(d.core, reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features);']
        record = ['bool RecordEnabledFeatures(const VkBaseInStructure* s, DeviceFeatures* d) {',
                  '  switch (s->sType) {',
                  '    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2: {',
                  '      const VkPhysicalDeviceFeatures& in = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features;']
        record += [f'      if (in.{m}) d->core.{m} = VK_TRUE;' for m in core_features]
        record += ['      return true;', '    }']
        for sname, stype, members in chained_structs(structs, extends, struct_origin):
            fill += [f'    case {stype}: {{', f'      auto* out = reinterpret_cast<{sname}*>(s);']
            check += [f'    case {stype}: {{', f'      auto* in = reinterpret_cast<const {sname}*>(s);']
            record += [f'    case {stype}: {{', f'      auto* in = reinterpret_cast<const {sname}*>(s);']
            for m in members:
                mname = m.find('name').text
                canon = RENAMED_MEMBERS.get((sname, mname), mname)
                field = canon_members[kind].get(canon)
                if field is None:
                    sys.exit(f'{sname}.{mname}: no {kind} member of that name in Vulkan1x structs; '
                             'add it to RENAMED_MEMBERS or give the struct its own storage')
                if '[' in c_decl(m):
                    fill.append(f'      std::memcpy(out->{mname}, d.{field}.{canon}, sizeof out->{mname});')
                else:
                    fill.append(f'      out->{mname} = d.{field}.{canon};')
                check.append(f'      if (in->{mname} && !d.{field}.{canon}) return "{sname}::{mname}";')
                record.append(f'      if (in->{mname}) d->{field}.{canon} = VK_TRUE;')
            fill += ['      return true;', '    }']
            check += ['      return nullptr;', '    }']
            record += ['      return true;', '    }']
        fill += ['    default:', '      return false;', '  }', '}', '']
        check += ['    default:', '      return nullptr;', '  }', '}', '']
        record += ['    default:', '      return false;', '  }', '}', '']
        c += fill
        if kind == 'features':
            c += check + record
    c += ['}  // namespace duet', '']
    write(os.path.join(out, 'feature_structs.cpp'), '\n'.join(c))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--registry', required=True)
    ap.add_argument('--extensions', required=True)
    ap.add_argument('--out', required=True)
    args = ap.parse_args()
    supported = [l.split('#')[0].strip() for l in open(args.extensions)]
    supported = [l for l in supported if l]
    root = load_registry(args.registry)
    commands, aliases, origin, extensions, struct_origin = read_registry(root, supported)
    os.makedirs(args.out, exist_ok=True)
    gen_extensions(args.out, supported, extensions)
    gen_entrypoints(args.out, commands, aliases, origin, extensions)
    gen_feature_structs(args.out, root, struct_origin)


if __name__ == '__main__':
    main()
