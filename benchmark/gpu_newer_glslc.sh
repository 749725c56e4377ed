#!/usr/bin/env bash
# The bfloat16 tensor-core kernels need a shader compiler with GL_EXT_bfloat16
# (glslang 15.4 or later) and Vulkan headers that declare
# VK_KHR_shader_bfloat16 (1.4.311 or later); ../shared/gpu/prepare.sh fetches
# Debian 13's (glslang 15.1, headers 1.4.309). This takes Debian unstable's
# instead, for GPU runs:
#
#   on the development machine, after prepare.sh:
#     bash benchmark/gpu_newer_glslc.sh prepare
#   on the GPU machine, after `source .gpu/enter.sh`:
#     source benchmark/gpu_newer_glslc.sh enter
#
# unstable's glslc needs a newer C library than the GPU image has, so it runs
# through its own dynamic loader from .gpu/sid/ (the image's libraries stay as
# they are), and the build is pointed at it through CMAKE_ARGS.
case "${1:-}" in
  prepare)
    set -euo pipefail
    root="$(git rev-parse --show-toplevel)"
    state="${TMPDIR:-/tmp}/gpu-apt-sid"
    mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$root/.gpu/sid"
    uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [ -n "$uri" ] || uri=$(awk '/^deb /{print $2; exit}' /etc/apt/sources.list)
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri sid main" > "$state/sources.list"
    o=(-oDir::Etc::SourceList="$state/sources.list" -oDir::Etc::SourceParts=/dev/null
       -oDir::State::Lists="$state/lists" -oDir::Cache="$state/cache"
       -oAPT::Architecture=amd64 -oAPT::Architectures=amd64)
    apt-get "${o[@]}" update -qq
    (cd "$root/.gpu/sid" && rm -f ./*.deb &&
       apt-get "${o[@]}" download -qq glslc libshaderc1 libc6 libstdc++6 libgcc-s1 2>&1 | grep -v '^W:' || true)
    # Headers only: enter.sh unpacks every .gpu/*.deb, so the older ones go.
    (cd "$root/.gpu" && rm -f libvulkan-dev_*.deb &&
       apt-get "${o[@]}" download -qq libvulkan-dev 2>&1 | grep -v '^W:' || true)
    ls -1 "$root/.gpu" "$root/.gpu/sid"
    ;;
  enter)
    dir=/opt/glslc-sid
    for f in .gpu/sid/*.deb; do dpkg -x "$f" "$dir"; done
    cat > "$dir/glslc" <<WRAP
#!/bin/sh
exec $dir/usr/lib64/ld-linux-x86-64.so.2 --library-path $dir/usr/lib/x86_64-linux-gnu:$dir/lib/x86_64-linux-gnu $dir/usr/bin/glslc "\$@"
WRAP
    chmod +x "$dir/glslc"
    "$dir/glslc" --version | head -1
    export CMAKE_ARGS="${CMAKE_ARGS:-} -DGLSLC=$dir/glslc"
    ;;
  *)
    echo "usage: gpu_newer_glslc.sh prepare | source gpu_newer_glslc.sh enter" >&2
    ;;
esac
