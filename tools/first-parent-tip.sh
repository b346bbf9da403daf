#!/usr/bin/env bash
# first-parent-tip.sh REPO N: the oldest commit of REPO's HEAD's first-parent chain whose ancestry holds at least N
# commits (HEAD itself when its ancestry holds fewer): the tip of a history trimmed to its oldest N commits or so,
# which the load test replays oldest first. Used by host-kit.sh and docs/bench/trimmed-history.sh.
set -euo pipefail
if [[ $# -ne 2 || ! $2 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 REPO N" >&2
  exit 2
fi
source=$1 n=$2
mapfile -t chain < <(git -C "$source" rev-list --first-parent HEAD)
# chain[0] is HEAD; the ancestry's size falls as the index rises: the largest index still holding n
lo=0 hi=$((${#chain[@]} - 1))
while ((lo < hi)); do
  mid=$(((lo + hi + 1) / 2))
  if (($(git -C "$source" rev-list --count "${chain[mid]}") >= n)); then lo=$mid; else hi=$((mid - 1)); fi
done
echo "${chain[lo]}"
