#!/usr/bin/env python3
"""Usage: check_manifest.py MANIFEST LIBRARY

The build tree's ICD manifest is valid JSON in the loader's format, names
the built library by absolute path, and declares a Vulkan 1.3 api_version.
"""
import json
import os
import re
import sys


def main():
    manifest, library = sys.argv[1], sys.argv[2]
    errors = []
    try:
        with open(manifest) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        print(f'FAIL: cannot read {manifest} as JSON: {e}')
        return 1
    if not re.fullmatch(r'1\.\d+\.\d+', str(data.get('file_format_version', ''))):
        errors.append(f'file_format_version is {data.get("file_format_version")!r}')
    icd = data.get('ICD')
    if not isinstance(icd, dict):
        errors.append('no "ICD" object')
        icd = {}
    path = icd.get('library_path', '')
    if not os.path.isabs(path):
        errors.append(f'library_path {path!r} is not absolute')
    elif not os.path.exists(path):
        errors.append(f'library_path {path!r} does not exist')
    elif os.path.realpath(path) != os.path.realpath(library):
        errors.append(f'library_path {path!r} is not the built library {library!r}')
    api = str(icd.get('api_version', ''))
    m = re.fullmatch(r'(\d+)\.(\d+)\.(\d+)', api)
    if not m or (int(m.group(1)), int(m.group(2))) < (1, 3):
        errors.append(f'api_version {api!r} is not 1.3.x or later')
    if errors:
        for e in errors:
            print(f'FAIL: {manifest}: {e}')
        return 1
    print(f'OK: {manifest} -> {path} (api_version {api})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
