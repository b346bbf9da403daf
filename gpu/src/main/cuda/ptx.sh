#!/usr/bin/env bash
# Compiles retrieval.cu (beside this script) to PTX, and checks that ptxas can assemble it for sm_90 (H100/H200).
#
#   ptx.sh OUT.ptx     write the PTX to OUT.ptx (the Maven build: target/classes/io/commitflow/gpu/retrieval.ptx)
#
# Without nvcc on PATH it says so and does nothing: the build then ships the checked-in PTX
# (src/main/resources/io/commitflow/gpu/retrieval.ptx). Regenerate that file with
#   gpu/src/main/cuda/ptx.sh gpu/src/main/resources/io/commitflow/gpu/retrieval.ptx
# Its header records the SHA-256 of the retrieval.cu it was made from; a test fails when the two differ.
#
# Flags: PTX for compute_75 (the oldest target nvcc 13 accepts; the driver JIT-compiles it for the GPU it finds),
# -O3, and IEEE float arithmetic throughout: no FMA contraction (-fmad=false), denormals kept (-ftz=false),
# correctly rounded division and square root. The kernels also spell out __fmul_rn/__fadd_rn, so that scores equal
# the CPU engine's bit for bit whatever the flags.
set -euo pipefail

NVCC_FLAGS=(-ptx -arch=compute_75 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true)

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUT.ptx" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$1
checked_in="$here/../resources/io/commitflow/gpu/retrieval.ptx"
source_sha=$(sha256sum "$here/retrieval.cu" | cut -d' ' -f1)

if ! command -v nvcc >/dev/null 2>&1; then
  echo "ptx.sh: nvcc is not on PATH; keeping the checked-in retrieval.ptx"
  exit 0
fi

mkdir -p "$(dirname "$out")"
tmp=$(mktemp "${TMPDIR:-/tmp}/retrieval.XXXXXX")
trap 'rm -f "$tmp" "$tmp.cubin" "$tmp.src.ptx"' EXIT

# A driver JIT-compiles PTX only up to the ISA version it knows: nvcc 13 writes ISA 9.0, which CUDA 12.x drivers
# (R535 and later: ISA 8.2 and below) refuse. The kernels use nothing newer than ISA 7.x, so the PTX declares
# PTX_ISA; ptxas below refuses it if an instruction needs a newer one.
PTX_ISA=8.0
compile() {
  nvcc "${NVCC_FLAGS[@]}" -o "$tmp.src.ptx" "$here/retrieval.cu"
  sed -E "s/^\.version [0-9]+\.[0-9]+$/.version $PTX_ISA/" "$tmp.src.ptx" >"$tmp"
  rm -f "$tmp.src.ptx"
}
compile

if command -v ptxas >/dev/null 2>&1; then
  # compile check only: the engine loads the PTX and lets the driver compile it for the GPU at hand.
  # nvcc 13.0 has now and then (not reproducibly, under a loaded build) written an instruction of a newer ISA
  # (used_bytes_mask, ISA 8.3) into the same source's PTX: the rejected file is kept beside OUT and nvcc runs once more.
  if ! ptxas -arch=sm_90 -o "$tmp.cubin" "$tmp"; then
    cp "$tmp" "$out.rejected"
    echo "ptx.sh: ptxas -arch=sm_90 rejected the PTX (kept as $out.rejected); compiling once more" >&2
    compile
    if ! ptxas -arch=sm_90 -o "$tmp.cubin" "$tmp"; then
      # Seen twice in a row on a machine that had booted a minute before. The checked-in PTX was assembled when it
      # was made; it is shipped in place of nvcc's when it was made from this very retrieval.cu.
      if [[ "$(realpath "$out")" != "$(realpath -m "$checked_in")" ]] \
          && grep -qx "// source sha256: $source_sha" "$checked_in" 2>/dev/null; then
        echo "ptx.sh: ptxas -arch=sm_90 rejected the PTX again; shipping the checked-in retrieval.ptx, made from the same retrieval.cu" >&2
        cp "$checked_in" "$out"
        exit 0
      fi
      echo "ptx.sh: ptxas -arch=sm_90 rejected the PTX again, and the checked-in PTX was made from another retrieval.cu" >&2
      exit 1
    fi
  fi
else
  echo "ptx.sh: ptxas is not on PATH; the PTX was not assembled for sm_90"
fi

{
  echo "// commitflow: generated from gpu/src/main/cuda/retrieval.cu by gpu/src/main/cuda/ptx.sh:"
  echo "// nvcc ${NVCC_FLAGS[*]}; .version set to $PTX_ISA (CUDA 12.0 and later drivers JIT it)"
  echo "// source sha256: $source_sha"
  cat "$tmp"
} >"$out"
