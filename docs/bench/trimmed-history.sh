#!/usr/bin/env bash
# trimmed-history.sh SOURCE N DEST: a bare repository DEST holding the ancestry of the oldest first-parent commit of
# SOURCE's HEAD whose ancestry has at least N commits (the load test replays the oldest commits first), as its main
# branch. How jgit-5000 and commons-lang-5000 of docs/scale.md are made:
#   git clone -q --bare https://github.com/eclipse-jgit/jgit.git /tmp/jgit.git
#   docs/bench/trimmed-history.sh /tmp/jgit.git 5000 /work/data/jgit-5000.git
#   git clone -q --bare https://github.com/apache/commons-lang.git /tmp/commons-lang.git
#   docs/bench/trimmed-history.sh /tmp/commons-lang.git 5000 /work/data/commons-lang-5000.git
set -euo pipefail
if [[ $# -ne 3 || ! $2 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 SOURCE N DEST" >&2
  exit 2
fi
source=$1 n=$2 dest=$3
[[ -e $dest ]] && { echo "$dest exists" >&2; exit 2; }
tip=$("$(dirname "$0")/../../tools/first-parent-tip.sh" "$source" "$n")
git init -q --bare "$dest"
git -C "$dest" fetch -q --no-tags "$(cd "$source" && pwd)" "$tip:refs/heads/main"
git -C "$dest" symbolic-ref HEAD refs/heads/main
git -C "$dest" repack -q -a -d
echo "$dest: $(git -C "$dest" rev-list --count HEAD) commits up to $tip"
