#!/usr/bin/env bash
# Joins the host kit's xz parts and unpacks the kit (made by tools/host-kit.sh); needs bash, cat, xz and tar (and
# sha256sum to check the parts), no Java.
#
#   bash join.sh PARTS [DEST]     PARTS holds commitflow-kit.tar.xz.1ofK … KofK, each copied on its own, and
#                                 commitflow-kit.sha256; the kit lands in DEST/commitflow-kit (DEST: PARTS)
#   DEST/commitflow-kit/run.sh OUT
set -euo pipefail

parts=${1:?usage: join.sh PARTS [DEST]}
dest=${2:-$parts}
shopt -s nullglob
found=("$parts"/commitflow-kit.tar.xz.*of*)
if ((${#found[@]} == 0)); then
  echo "join.sh: no commitflow-kit.tar.xz.*of* in $parts" >&2
  exit 1
fi
k=${found[0]##*of}
ordered=()
for ((i = 1; i <= k; i++)); do
  f=$parts/commitflow-kit.tar.xz.${i}of$k
  [[ -f $f ]] || { echo "join.sh: part $i of $k is missing: $f" >&2; exit 1; }
  ordered+=("$f")
done
if [[ -f $parts/commitflow-kit.sha256 ]] && command -v sha256sum >/dev/null; then
  sum=$(cat "${ordered[@]}" | sha256sum | cut -d ' ' -f 1)
  expected=$(cut -d ' ' -f 1 <"$parts/commitflow-kit.sha256")
  if [[ $sum != "$expected" ]]; then
    echo "join.sh: the joined parts' sha256 is $sum, not $expected: a part is damaged or from another build" >&2
    exit 1
  fi
  echo "join.sh: $k parts, sha256 checked"
fi
mkdir -p "$dest"
rm -rf "$dest/commitflow-kit"
start=$SECONDS
cat "${ordered[@]}" | xz -dc | tar -x -C "$dest"
echo "join.sh: unpacked in $((SECONDS - start)) s: $dest/commitflow-kit ($(du -sh "$dest/commitflow-kit" | cut -f 1)); next: $dest/commitflow-kit/run.sh OUT"
