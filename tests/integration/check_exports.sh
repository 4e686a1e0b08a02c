#!/usr/bin/env bash
# Usage: check_exports.sh LIBDUET_VK_SO
# The ICD exports exactly the three loader-interface functions as defined
# dynamic symbols, and does not itself link the Vulkan loader.
set -euo pipefail
lib=${1:?usage: check_exports.sh path/to/libduet_vk.so}
[[ -f $lib ]] || { echo "FAIL: $lib does not exist"; exit 1; }

expected=$'vk_icdGetInstanceProcAddr\nvk_icdGetPhysicalDeviceProcAddr\nvk_icdNegotiateLoaderICDInterfaceVersion'
# "ADDRESS TYPE NAME"; version-node symbols would carry type A.
actual=$(nm -D --defined-only "$lib" | awk 'NF >= 3 {print $3}' | sed 's/@.*//' | sort -u)

status=0
if [[ $actual != "$expected" ]]; then
  echo "FAIL: defined dynamic symbols of $lib differ from the loader interface"
  echo "--- expected"; echo "$expected"
  echo "--- actual"; echo "$actual"
  echo "--- unexpected"; comm -13 <(echo "$expected") <(echo "$actual")
  echo "--- missing"; comm -23 <(echo "$expected") <(echo "$actual")
  status=1
fi

# Each of them is a function (T = text section).
while read -r _ type name; do
  if [[ $type != T ]]; then
    echo "FAIL: $name has symbol type $type, expected T (function)"
    status=1
  fi
done < <(nm -D --defined-only "$lib" | awk 'NF >= 3')

# An ICD must not depend on the loader it is loaded by.
if readelf -d "$lib" | grep -E 'NEEDED.*libvulkan' >/dev/null; then
  echo "FAIL: $lib links libvulkan (an ICD must not depend on the loader)"
  readelf -d "$lib" | grep NEEDED
  status=1
fi

if [[ $status -eq 0 ]]; then
  echo "OK: $lib exports exactly:"; echo "$actual" | sed 's/^/  /'
fi
exit $status
