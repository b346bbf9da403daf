#!/usr/bin/env bash
# Runs the CUDA retrieval engine's tests and benchmark on a GPU host with nothing but this folder: its own Java
# runtime (java/), the gpu module with its tests and libraries (lib/). Needs an NVIDIA driver (libcuda.so.1) and
# glibc 2.34 or newer; no JDK, no network. Made by gpu/bundle.sh.
#
#   ./run.sh [OUT]        results in OUT (default ./out): host.txt, probe.json, tests.log, test-reports/,
#                         bench.jsonl (one JSON line per engine, rows and batch), bench.log
#
# Environment: BENCH_ARGS replaces the benchmark's arguments (see EngineBench --help; e.g. a quick rehearsal:
# BENCH_ARGS="--rows 2000,5000 --batch 1,8 --dim 256 --runs 2 --cpu-max-seconds 2"), JAVA_OPTS the JVM flags
# (default -Xmx24g: the CPU engine holds 4 GiB at a million rows), TESTS=0 or BENCH=0 skip a part.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-./out}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
java=$here/java/bin/java
if [[ ! -x $java ]]; then
  echo "run.sh: no Java runtime at $java: rebuild the bundle with gpu/bundle.sh" >&2
  exit 1
fi

classpath=""
launcher=""
for jar in "$here"/lib/*.jar; do
  case $jar in
    *junit-platform-console-standalone*) launcher=$jar ;;
    *) classpath=$classpath${classpath:+:}$jar ;;
  esac
done
mkdir -p "$out/tmp"
# JCuda unpacks its native library into java.io.tmpdir
# shellcheck disable=SC2206
opts=(${JAVA_OPTS:--Xmx24g} "-Djava.io.tmpdir=$out/tmp")
cd "$out" || exit 1

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -srm)"
  if command -v ldd >/dev/null 2>&1; then echo "glibc: $(ldd --version 2>&1 | head -n 1)"; fi
  if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi; else echo "nvidia-smi: not found"; fi
  "$java" -version 2>&1
} >"$out/host.txt" 2>&1

status=0
"$java" "${opts[@]}" -cp "$classpath" io.commitflow.gpu.Engines >"$out/probe.json" 2>"$out/probe.log"
echo "run.sh: probe: $(cat "$out/probe.json")"

if [[ ${TESTS:-1} != 0 ]]; then
  echo "run.sh: tests (CudaParityTest and the other gpu tests) ..."
  "$java" "${opts[@]}" -jar "$launcher" execute --disable-banner --disable-ansi-colors --details=tree \
    --class-path "$classpath" \
    --select-package io.commitflow.gpu --fail-if-no-tests --reports-dir "$out/test-reports" >"$out/tests.log" 2>&1
  rc=$?
  [[ $rc -eq 0 ]] || status=$rc
  # failures ([X]), skips with their reasons ([A]: an assumption, e.g. no GPU), the counts
  grep -E "\[X\]|\[A\]|tests (successful|failed|aborted|found)|bit-identical" "$out/tests.log" \
    | sed -E "s/^[|' +-]*//; s/^/run.sh:   /" | cut -c1-240
  echo "run.sh: tests exit $rc (details: $out/tests.log)"
fi

if [[ ${BENCH:-1} != 0 ]]; then
  # shellcheck disable=SC2206
  args=(${BENCH_ARGS:---engine auto --cpu-runs 3 --cpu-max-seconds 15})
  echo "run.sh: benchmark: EngineBench ${args[*]} ..."
  "$java" "${opts[@]}" -cp "$classpath" io.commitflow.gpu.bench.EngineBench "${args[@]}" \
    >"$out/bench.jsonl" 2>"$out/bench.log"
  rc=$?
  [[ $rc -eq 0 ]] || status=$rc
  sed 's/^/run.sh:   /' "$out/bench.jsonl"
  echo "run.sh: benchmark exit $rc (progress: $out/bench.log)"
fi

rm -rf "$out/tmp"
echo "run.sh: done, exit $status; results in $out"
exit $status
