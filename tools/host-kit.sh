#!/usr/bin/env bash
# Builds the GPU-host kit: what a bare Linux x86-64 host (glibc 2.34 or newer; no JDK, Maven or network) needs to run
# `commitflow loadtest` over a matrix of engines and parallelisms (run.sh), packed as xz parts that are copied to the
# host one at a time. Needs a JDK 17 (jlink) here; builds the project first with ./mvnw.
#
#   tools/host-kit.sh [--repo PATH[:N]]... [--no-self] [--out DIR] [--part-mib N] [--no-build] [--no-gpu-bundle]
#
#   --repo PATH[:N]  also ship this repository (a work tree or a bare one): its HEAD's whole history, or with N the
#                    ancestry of the oldest first-parent commit from HEAD whose ancestry holds N or more commits (the
#                    load test replays the oldest first); repeatable; the first one given is run.sh's default
#   --no-self        leave out this checkout's own history (shipped by default, last)
#   --out DIR        where the kit goes (default tools/target/host-kit)
#   --part-mib N     the largest part (default 58: a part and the ~3 MiB working tree fit a 64 MiB transfer)
#   --no-pack        stop once DIR/commitflow-kit is made (to try it here), without the xz parts
#
# Result in DIR: part-1/ … part-K/, one xz part each (commitflow-kit.tar.xz.1of2 …, equal sizes), and in part-1/
# also join.sh and commitflow-kit.sha256; commitflow-kit/ is the kit unpacked, to look at or rehearse with.
#
# On the host:  bash PARTS/join.sh PARTS DEST && DEST/commitflow-kit/run.sh OUT      (see docs/host-kit.md)
#
# What goes in (commitflow-kit/):
#   java/       a jlinked Java 17 runtime (java.se and the jdk modules Flink, Kafka, JGit and JCuda reach for)
#   lib/        every jar of the command line, the job, Flink and the broker, repacked stored so that xz compresses
#               the classes themselves, without the native libraries of other platforms; the classpaths as names
#   bin/commitflow, run.sh, flink-conf/, repos/*.git (bare, trimmed, packed uncompressed), KIT-INFO
#   gpu/        the GPU engine's bundle (gpu/bundle.sh's jars and run.sh) on the kit's own runtime
set -euo pipefail

tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$tools")
src=$tools/src/kit
out=$tools/target/host-kit
part_mib=58
build=1
gpu_bundle=1
pack=1
self=1
repos=()
while (($#)); do
  case $1 in
    --repo) repos+=("$2"); shift ;;
    --no-self) self=0 ;;
    --out) out=$2; shift ;;
    --part-mib) part_mib=$2; shift ;;
    --no-build) build=0 ;;
    --no-gpu-bundle) gpu_bundle=0 ;;
    --no-pack) pack=0 ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "host-kit.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
((self || ${#repos[@]})) || { echo "host-kit.sh: --no-self needs a --repo" >&2; exit 2; }
for tool in jlink javac jar git xz tar split sha256sum; do
  command -v "$tool" >/dev/null || { echo "host-kit.sh: needs $tool on the PATH" >&2; exit 1; }
done
say() { echo "host-kit.sh: $*" >&2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
kit=$out/commitflow-kit
t_start=$SECONDS

cd "$root"
if ((build)); then
  say "building with ./mvnw (tests not run) ..."
  ./mvnw -q -B -DskipTests install
fi
if ((gpu_bundle)); then
  say "the GPU engine's bundle: gpu/bundle.sh ..."
  gpu/bundle.sh >&2
fi

rm -rf "$kit" "$out"/part-* "$out"/commitflow-kit.tar.xz
mkdir -p "$kit"/{bin,lib,flink-conf,repos}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/host-kit.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# --- jars: the classpaths as the launcher builds them, with the module jars in place of target/classes
tools_jar=$(ls tools/target/commitflow-tools-*.jar | grep -v -e '-tests\.jar$' -e '-sources\.jar$' | head -n 1)
[[ -f $tools_jar ]] || { say "no module jar under tools/target: build first"; exit 1; }
cli_jars=$(printf '%s:%s:%s' "$tools_jar" "$(cat tools/target/cli-runtime.classpath)" "$(cat tools/target/cli-provided.classpath)")
broker_jars=$cli_jars # the local broker runs on the command line's classpath, in a JVM of its own
names() { tr ':' '\n' <<<"$1" | grep . | xargs -n 1 basename | awk '!seen[$0]++' | paste -sd: -; }
names "$cli_jars" >"$kit/lib/cli.classpath"
names "$broker_jars" >"$kit/lib/broker.classpath"
all_jars=$(printf '%s\n%s\n' "$cli_jars" "$broker_jars" | tr ':' '\n' | grep . | sort -u)
say "repacking $(wc -l <<<"$all_jars") jars stored, without other platforms' native libraries ..."
# shellcheck disable=SC2086
java "$src/KitRepack.java" "$kit/lib" $all_jars >"$scratch/repack.log"
grep 'left out' "$scratch/repack.log" | sed 's/^/host-kit.sh:   /' >&2

# --- the summary tool of run.sh, compiled here: the kit's runtime has no compiler
jackson=$(tr ':' '\n' <<<"$cli_jars" | grep -E '/jackson-(databind|core|annotations)-[0-9][^/]*\.jar$' | paste -sd: -)
mkdir -p "$scratch/tools"
javac --release 17 -nowarn -cp "$jackson" -d "$scratch/tools" "$src/KitSummary.java"
jar --create --no-compress --file "$kit/lib/commitflow-kit-tools.jar" -C "$scratch/tools" .
names "$jackson" >"$kit/lib/tools.classpath"

# --- the Java runtime: uncompressed modules, which xz packs far smaller than jlink's own compression
say "linking a Java runtime ..."
modules=java.se,jdk.unsupported,jdk.management,jdk.crypto.ec,jdk.zipfs,jdk.jfr,jdk.httpserver,jdk.net,jdk.naming.dns
modules=$modules,jdk.security.auth,jdk.security.jgss,jdk.attach,jdk.jcmd
jlink --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=0 --output "$kit/java"

# --- the launcher, the matrix, the Flink configuration
install -m 755 "$src/commitflow" "$kit/bin/commitflow"
install -m 755 "$src/run.sh" "$kit/run.sh"
cp flink-conf/config.yaml flink-conf/log4j-cli.properties "$kit/flink-conf/"

# --- repositories: a fresh bare repository of one commit's ancestry, packed uncompressed (xz does better)
# bare_repo SRC NAME [N]: the whole history of SRC's HEAD, or with N the oldest first-parent commit whose ancestry
# holds at least N commits
bare_repo() {
  local source=$1 name=$2 n=${3:-} tip count
  tip=$(git -C "$source" rev-parse --verify HEAD^{commit})
  if [[ -n $n ]]; then
    count=$(git -C "$source" rev-list --count "$tip")
    if ((count < n)); then
      say "  $name: HEAD has only $count commits in its ancestry, fewer than $n: all of them"
    else
      tip=$("$root/tools/first-parent-tip.sh" "$source" "$n")
    fi
  fi
  local dest=$kit/repos/$name.git
  git init -q --bare "$dest"
  git -C "$dest" fetch -q --no-tags "$(cd "$source" && pwd)" "$tip:refs/heads/main"
  git -C "$dest" symbolic-ref HEAD refs/heads/main
  git -C "$dest" -c pack.compression=0 -c repack.writeBitmaps=false repack -q -a -d -f --window=250 --depth=50
  rm -rf "$dest"/hooks "$dest"/logs "$dest"/description "$dest"/FETCH_HEAD "$dest"/info/exclude
  count=$(git -C "$dest" rev-list --count HEAD)
  echo "$name $count $tip $(basename "$(cd "$source" && pwd)")${n:+:$n}" >>"$kit/repos/ORDER"
  say "  $name: $count commits up to ${tip:0:12}, $(du -sh "$dest" | cut -f1)"
}
say "bare repositories ..."
: >"$kit/repos/ORDER"
for spec in "${repos[@]}"; do
  path=$spec
  n=""
  if [[ $spec =~ ^(.*):([0-9]+)$ ]]; then path=${BASH_REMATCH[1]}; n=${BASH_REMATCH[2]}; fi
  [[ -d $path ]] || { say "--repo $spec: no such folder"; exit 2; }
  name=$(basename "$(cd "$path" && pwd)")
  name=${name%.git}
  [[ ! -e $kit/repos/$name.git ]] || name=$name-$(($(wc -l <"$kit/repos/ORDER") + 1))
  bare_repo "$path" "$name" "$n"
done
if ((self)); then
  bare_repo "$root" commitflow
fi

# --- the GPU engine's bundle, on the kit's runtime: same jars repacked, the ones the kit has already as links
if ((gpu_bundle)); then
  mkdir -p "$kit/gpu"
  java "$src/KitRepack.java" "$kit/gpu/lib" gpu/bundle/lib/*.jar >"$scratch/repack-gpu.log"
  for jar in "$kit"/gpu/lib/*.jar; do
    if [[ -f $kit/lib/${jar##*/} ]] && cmp -s "$jar" "$kit/lib/${jar##*/}"; then
      ln -sf "../../lib/${jar##*/}" "$jar"
    fi
  done
  install -m 755 gpu/bundle/run.sh "$kit/gpu/run.sh"
  ln -s ../java "$kit/gpu/java"
fi

commit=$(git rev-parse --short=12 HEAD)
dirty=$([[ -z $(git status --porcelain --untracked-files=no) ]] || echo " (with uncommitted changes)")
{
  echo "commitflow $commit$dirty, kit built $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
  echo "runtime: $("$kit/java/bin/java" -version 2>&1 | head -n 1); modules $modules"
  echo "repositories (name, commits, tip, source):"
  sed 's/^/  /' "$kit/repos/ORDER"
  echo "jars (bytes, stored):"
  (cd "$kit/lib" && ls -l -- *.jar | awk '{printf "  %10d %s\n", $5, $9}')
} >"$kit/KIT-INFO"

# --- the check that matters: the kit starts the CLI on its own runtime alone
env -u JAVA_HOME PATH=/usr/bin:/bin "$kit/bin/commitflow" --help >/dev/null ||
  { say "the kit's launcher does not start"; exit 1; }

if ((!pack)); then
  say "done in $((SECONDS - t_start)) s, not packed: $kit ($(du -sh "$kit" | cut -f1))"
  exit 0
fi
say "packing (tar | xz -9, a few minutes) ..."
tar -C "$out" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - commitflow-kit |
  xz -9 -T0 >"$out/commitflow-kit.tar.xz"
total=$(stat -c %s "$out/commitflow-kit.tar.xz")
limit=$((part_mib * 1024 * 1024))
parts=$(((total + limit - 1) / limit))
(cd "$out" && sha256sum commitflow-kit.tar.xz >commitflow-kit.sha256)
split -n "$parts" -d -a 1 "$out/commitflow-kit.tar.xz" "$out/commitflow-kit.tar.xz.part"
for ((i = 0; i < parts; i++)); do
  mkdir -p "$out/part-$((i + 1))"
  mv "$out/commitflow-kit.tar.xz.part$i" "$out/part-$((i + 1))/commitflow-kit.tar.xz.$((i + 1))of$parts"
done
mv "$out/commitflow-kit.sha256" "$out/part-1/"
install -m 755 "$src/join.sh" "$out/part-1/join.sh"
rm "$out/commitflow-kit.tar.xz"

say "done in $((SECONDS - t_start)) s: $kit"
say "  unpacked: $(du -sh "$kit" | cut -f1) (java $(du -sh "$kit/java" | cut -f1), lib $(du -sh "$kit/lib" | cut -f1), repos $(du -sh "$kit/repos" | cut -f1)$( ((gpu_bundle)) && echo ", gpu $(du -sh "$kit/gpu" | cut -f1)"))"
say "  xz: $total bytes ($(awk -v b="$total" 'BEGIN {printf "%.1f", b / 1048576}') MiB) in $parts parts:"
for d in "$out"/part-*; do
  ls -l "$d" | awk -v d="${d##*/}" 'NR > 1 {printf "host-kit.sh:    %s/%s %d bytes (%.1f MiB)\n", d, $9, $5, $5 / 1048576}' >&2
done
say "on the host: bash PARTS/join.sh PARTS DEST && DEST/commitflow-kit/run.sh OUT (docs/host-kit.md)"
