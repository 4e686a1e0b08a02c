"""Small helpers for reading the installed Vulkan registry (vk.xml).

Shared by the generators so each stays short: loading, the API filter
(vk.xml also describes Vulkan SC) and C declarations rebuilt from XML.
"""
import xml.etree.ElementTree as ET


def load_registry(path):
    return ET.parse(path).getroot()


def for_vulkan(elem):
    """True when an element applies to the Vulkan API (not only Vulkan SC)."""
    api = elem.get('api')
    return api is None or 'vulkan' in api.split(',')


def require_applies(req, supported):
    """Whether an extension's <require> block applies: one naming another
    extension (extension=, or depends= in newer registries) applies only
    when that one is supported too; core versions (feature=) always do."""
    names = []
    for attr in ('extension', 'depends'):
        value = req.get(attr)
        if value:
            names += [n for n in value.replace('+', ',').replace('(', '').replace(')', '').split(',')
                      if n and not n.startswith('VK_VERSION_')]
    return all(n in supported for n in names)


def c_decl(elem):
    """The C text of a <param> or <member>, without comments."""
    parts = [elem.text or '']
    for child in elem:
        if child.tag != 'comment':
            parts.append(''.join(child.itertext()))
        parts.append(child.tail or '')
    return ' '.join(''.join(parts).split())


def core_versions(root):
    """[(feature name, 'VK_API_VERSION_1_x', feature element)] for Vulkan 1.x."""
    out = []
    for feat in root.findall('feature'):
        if not for_vulkan(feat):
            continue
        major, minor = feat.get('number').split('.')
        out.append((feat.get('name'), f'VK_API_VERSION_{major}_{minor}', feat))
    return out
