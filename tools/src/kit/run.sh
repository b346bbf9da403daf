#!/usr/bin/env bash
# Runs commitflow's load-test matrix on this host with nothing but this kit (made by tools/host-kit.sh): engine cuda
# and cpu × parallelism 1, 2, 4 and 8, each row a `commitflow loadtest` of its own on a rising profile up to
# saturation, under its own time limit, within one time budget for the whole matrix. No JDK, Maven or network.
#
#   ./run.sh OUT [--engines cuda,cpu] [--parallelism 1,2,4,8] [--repo NAME] [--budget SECONDS] [--dry-run]
#
# Rows run in priority order, so that a matrix cut short by its budget still has the rows that matter most: both
# engines at the highest parallelism first (side by side), then cpu at the others from the lowest, then cuda at the
# others. A row starts only when the budget left holds its expected duration (from the profile, or the rows so far if
# they took longer); otherwise it is recorded as skipped, with the reason. Without a usable GPU (the CUDA probe) the
# cuda rows are recorded as "no GPU: <reason>" and cost nothing.
#
# Results in OUT, written as the rows finish (a killed run leaves what it had), at most these four files:
#   summary.txt    the table: every step of every row, each row's saturation, growth per doubling, CUDA beside CPU
#   summary.jsonl  one JSON line for the host, one per row (its settings, status, cause, and its report.json's steps)
#                  and one at the end
#   run.log        this script's progress and each row's loadtest output; the log's tail for a row that failed
#   host.txt       uname, glibc, cores, memory, nvidia-smi, the job JVM's flags, the CUDA probe, the kit's build information
#
# Each row's profile is `--rate steps:R1,R2,…/STEP --warmup WARMUP`, the rates being fractions (STEPS) of a guess at
# the row's saturation: min(parallelism × RATE_PER_SLOT, cores × RATE_PER_CORE) commits/s.
#
# Environment (or the flag of the same name in lower case with dashes, e.g. --step-s 10):
#   BUDGET_S=520        seconds for the whole matrix (9 minutes less what unpacking takes)
#   STEP_S=8 WARMUP_S=10  seconds per measured step, and of the warm-up at the first rate (a cold JVM needs it)
#   STEPS=0.5,0.75,0.95,1.2  the steps' rates as fractions of the guess (on 16 cores the third step of parallelism 8
#                       offers 3,420/s, a little above the goal of 3,300/s)
#   RATE_PER_SLOT=450 RATE_PER_CORE=240  the guess (2 cores hold about 450/s at parallelism 1; 3.5 ms of CPU a commit)
#   HEAP_MB=            the job JVM's heap; default min(2048, 1024 + 128 × parallelism) MiB
#   ROW_LIMIT_S=        a row's hard limit; default its expected duration (start-up, warm-up, steps, drain,
#                       teardown) and 45 s (a row past it gets SIGTERM, which still writes what it measured)
#   START_S=30 DRAIN_S=8  the load test's --start-timeout and --drain-timeout
#   JAVA_OPTS=          more flags for the job's JVM
set -uo pipefail

kit=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
java=$kit/java/bin/java

usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

out=""
engines=cuda,cpu
pars=1,2,4,8
repo=""
dry=0
budget=${BUDGET_S:-520}
step_s=${STEP_S:-8}
warmup_s=${WARMUP_S:-10}
fractions=${STEPS:-0.5,0.75,0.95,1.2}
per_slot=${RATE_PER_SLOT:-450}
per_core=${RATE_PER_CORE:-240}
heap_fixed=${HEAP_MB:-}
row_limit_fixed=${ROW_LIMIT_S:-}
start_s=${START_S:-30}
drain_s=${DRAIN_S:-8}
while (($#)); do
  case $1 in
    --engines) engines=$2; shift ;;
    --parallelism) pars=$2; shift ;;
    --repo) repo=$2; shift ;;
    --budget) budget=$2; shift ;;
    --step-s) step_s=$2; shift ;;
    --warmup-s) warmup_s=$2; shift ;;
    --steps) fractions=$2; shift ;;
    --rate-per-slot) per_slot=$2; shift ;;
    --rate-per-core) per_core=$2; shift ;;
    --heap-mb) heap_fixed=$2; shift ;;
    --row-limit-s) row_limit_fixed=$2; shift ;;
    --dry-run) dry=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [[ -z $out ]] || { echo "run.sh: one OUT folder, not '$out' and '$1'" >&2; exit 2; }; out=$1 ;;
  esac
  shift
done
[[ -n $out ]] || { echo "run.sh: name the OUT folder (see --help)" >&2; exit 2; }
[[ -x $java ]] || { echo "run.sh: no Java runtime at $java: unpack the whole kit" >&2; exit 1; }
for n in "$budget" "$step_s" "$warmup_s" "$per_slot" "$per_core" "$start_s" "$drain_s" ${heap_fixed:+"$heap_fixed"} \
  ${row_limit_fixed:+"$row_limit_fixed"}; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "run.sh: '$n' is not a whole number of seconds (or MiB, or commits/s)" >&2; exit 2; }
done

# the repository to replay: a name from repos/ORDER (default: its first line), or a path
if [[ -z $repo ]]; then
  repo=$(awk 'NR == 1 {print $1}' "$kit/repos/ORDER" 2>/dev/null)
fi
if [[ -d $repo ]]; then
  repo_path=$(cd "$repo" && pwd)
  repo=$(basename "$repo_path" .git)
else
  repo_path=$kit/repos/$repo.git
fi
[[ -d $repo_path ]] || { echo "run.sh: no repository '$repo' (the kit has: $(awk '{print $1}' "$kit/repos/ORDER" | paste -sd' '))" >&2; exit 2; }
repo_commits=$(awk -v r="$repo" '$1 == r {print $2}' "$kit/repos/ORDER" 2>/dev/null)

cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
IFS=, read -r -a fraction_list <<<"$fractions"
IFS=, read -r -a par_list <<<"$pars"
IFS=, read -r -a engine_list <<<"$engines"
for e in "${engine_list[@]}"; do
  [[ $e == cpu || $e == cuda ]] || { echo "run.sh: engines are cpu and cuda, not '$e'" >&2; exit 2; }
done
for p in "${par_list[@]}"; do
  [[ $p =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: parallelism '$p' is not a positive number" >&2; exit 2; }
done

# The rows in priority order: both engines at the highest parallelism, then cpu, then cuda, each from the lowest.
plan=()
max_p=$(printf '%s\n' "${par_list[@]}" | sort -n | tail -n 1)
rest=$(printf '%s\n' "${par_list[@]}" | sort -nu | grep -vx "$max_p")
for e in cuda cpu; do [[ ,$engines, == *,$e,* ]] && plan+=("$e $max_p"); done
for e in cpu cuda; do
  [[ ,$engines, == *,$e,* ]] || continue
  for p in $rest; do plan+=("$e $p"); done
done

# A row's rates: fractions of the guess at its saturation.
rates_for() {
  awk -v p="$1" -v c="$cores" -v s="$per_slot" -v k="$per_core" -v f="$fractions" 'BEGIN {
    g = p * s; if (c * k < g) g = c * k
    n = split(f, x, ","); r = ""
    for (i = 1; i <= n; i++) { v = int(g * x[i] + 0.5); if (v < 1) v = 1; r = r (i > 1 ? "," : "") v }
    print r }'
}
heap_for() { if [[ -n $heap_fixed ]]; then echo "$heap_fixed"; else local h=$((1024 + 128 * $1)); echo $((h > 2048 ? 2048 : h)); fi; }
# expected: start-up (the JVM, the broker, the job: about 15 s on 16 cores), warm-up, steps, half the drain,
# teardown; the hard limit leaves room above it for a slower start
steps_n=${#fraction_list[@]}
expected_s=$((15 + warmup_s + steps_n * step_s + drain_s / 2 + 5))
limit_s=${row_limit_fixed:-$((expected_s + 45))}

if ((dry)); then
  echo "run.sh: plan on $cores cores, repository $repo, budget $budget s; each row about $expected_s s, at most $limit_s s:"
  for r in "${plan[@]}"; do
    read -r e p <<<"$r"
    echo "  $e p$p: --rate steps:$(rates_for "$p")/${step_s}s --warmup ${warmup_s}s, heap $(heap_for "$p") MiB"
  done
  exit 0
fi

mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
work=$(mktemp -d "${KIT_WORK:-${TMPDIR:-/tmp}}/commitflow-kit-run.XXXXXX") || exit 1
jsonl=$out/summary.jsonl
txt=$out/summary.txt
runlog=$out/run.log
: >"$jsonl"
: >"$runlog"
tools_cp="$kit/lib/commitflow-kit-tools.jar:$(sed "s|[^:][^:]*|$kit/lib/&|g" "$kit/lib/tools.classpath")"
tool() { "$java" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$tools_cp" KitSummary "$@"; }
say() { echo "run.sh: $*" | tee -a "$runlog"; }
now_ms() {
  local t=${EPOCHREALTIME:-}
  if [[ -n $t ]]; then t=${t//[.,]/}; echo $((10#$t / 1000)); else echo $(($(date +%s%N) / 1000000)); fi
}
secs() { awk -v ms="$1" 'BEGIN {printf "%.1f", ms / 1000}'; }

# every process below pid $1, each before its own children (ps, or /proc where there is no ps)
descendants() {
  local parent=$1 kids k s line rest ppid d
  if command -v ps >/dev/null 2>&1; then
    kids=$(ps -o pid= --ppid "$parent" 2>/dev/null)
  else
    kids=$(for s in /proc/[0-9]*/stat; do
      read -r line <"$s" 2>/dev/null || continue
      rest=${line##*) }
      read -r _ ppid _ <<<"$rest"
      if [[ $ppid == "$parent" ]]; then d=${s#/proc/}; echo "${d%/stat}"; fi
    done)
  fi
  for k in $kids; do echo "$k"; descendants "$k"; done
}
# Stops a row: SIGTERM to the JVM (its shutdown hook cancels the job, stops the broker and writes what it measured),
# then SIGKILL to it and everything it started (the broker runs in its own session) once the grace period is over.
stop_tree() {
  local root=$1 grace=${2:-15} pids i
  pids="$root $(descendants "$root" | tr '\n' ' ')"
  kill -TERM "$root" 2>/dev/null
  for ((i = 0; i < grace * 5; i++)); do kill -0 "$root" 2>/dev/null || break; sleep 0.2; done
  pids="$pids $(descendants "$root" | tr '\n' ' ')"
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null
  return 0
}

row_pid=""
sampler_pid=""
cleanup() {
  [[ -n $sampler_pid ]] && kill "$sampler_pid" 2>/dev/null
  [[ -n $row_pid ]] && stop_tree "$row_pid" 5
  rm -rf "$work"
}
interrupted() {
  say "interrupted: stopping the row that runs and writing the summary"
  [[ -n $sampler_pid ]] && kill "$sampler_pid" 2>/dev/null
  sampler_pid=""
  if [[ -n $row_pid ]]; then
    stop_tree "$row_pid" 15 # the load test writes what it measured before it exits
    row_pid=""
    tool row "$jsonl" "${common[@]}" status=interrupted cause="run.sh was interrupted" \
      wall_s="$(secs $(($(now_ms) - started)))" report="$row/report/report.json" gpu_csv="$row/gpu.csv" 2>/dev/null
  fi
  cleanup
  tool end "$jsonl" wall_s="$(secs $(($(now_ms) - t0)))" budget_s="$budget" note="interrupted" 2>/dev/null
  tool text "$jsonl" "$txt" 2>/dev/null
  exit 130
}
trap interrupted INT TERM
trap cleanup EXIT

t0=$(now_ms)
say "kit $kit, results in $out, work folder $work"
kit_info=$(head -n 1 "$kit/KIT-INFO" 2>/dev/null)

# the host, and whether CUDA works here with the kit's Java
nvidia_line="nvidia-smi: not found"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -srm), $(hostname 2>/dev/null)"
  if command -v ldd >/dev/null 2>&1; then echo "glibc: $(ldd --version 2>&1 | head -n 1)"; fi
  echo "cores: $cores"
  grep -E 'MemTotal|MemAvailable' /proc/meminfo
  echo "load: $(cat /proc/loadavg)"
  if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi 2>&1; else echo "nvidia-smi: not found"; fi
  "$java" -version 2>&1
  echo "job JVM flags (flink-conf/config.yaml, env.java.opts.taskmanager): $(sed -n 's/^env\.java\.opts\.taskmanager: *//p' \
    "$kit/flink-conf/config.yaml"); JAVA_OPTS: ${JAVA_OPTS:-none}"
  echo "--- KIT-INFO"
  cat "$kit/KIT-INFO" 2>/dev/null
} >"$out/host.txt" 2>&1
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia_line=$(nvidia-smi --query-gpu=index,name,driver_version,memory.total,memory.used,utilization.gpu,temperature.gpu,power.draw \
    --format=csv,noheader 2>&1 | head -n 1)
fi
mkdir -p "$work/probe"
timeout 120 "$java" -Djava.io.tmpdir="$work/probe" -cp "$(sed "s|[^:][^:]*|$kit/lib/&|g" "$kit/lib/cli.classpath")" \
  io.commitflow.gpu.Engines >"$work/probe.json" 2>"$work/probe.log"
probe=$(cat "$work/probe.json")
[[ -n $probe ]] || probe="{\"cuda_available\":false,\"reason\":\"the probe printed nothing: $(tail -n 1 "$work/probe.log" | tr -d '"\\')\"}"
echo "$probe" >"$work/probe.json"
{ echo "--- CUDA probe (io.commitflow.gpu.Engines)"; echo "$probe"; } >>"$out/host.txt"
cuda_ok=0
[[ $probe == *'"cuda_available":true'* ]] && cuda_ok=1
no_gpu=$(sed -n 's/.*"reason":"\(\([^"\\]\|\\.\)*\)".*/\1/p' <<<"$probe")
say "nvidia-smi: $nvidia_line"
say "CUDA probe: $probe"
tool host "$jsonl" kit="$kit_info" started="$(date -u +%Y-%m-%dT%H:%M:%SZ)" host="$(uname -srm)" cores="$cores" \
  memory="$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)" nvidia_smi="$nvidia_line" \
  probe@json="$work/probe.json" repo="$repo" repo_commits="${repo_commits:-?}" budget_s="$budget" step_s="$step_s" \
  warmup_s="$warmup_s" fractions="$fractions" rate_per_slot="$per_slot" rate_per_core="$per_core" \
  plan="$(printf '%s;' "${plan[@]}")"

say "plan: ${#plan[@]} rows ($(IFS=,; echo "${plan[*]}")), each about $expected_s s, at most $limit_s s; budget $budget s"
ran=0
skipped=0
ran_ms=0
for r in "${plan[@]}"; do
  read -r engine p <<<"$r"
  rates=$(rates_for "$p")
  heap=$(heap_for "$p")
  common=(engine="$engine" parallelism="$p" repo="$repo" rates="$rates" step_s="$step_s" warmup_s="$warmup_s" heap_mb="$heap")
  if [[ $engine == cuda && $cuda_ok == 0 ]]; then
    say "$engine p$p: skipped, no GPU: $no_gpu"
    tool row "$jsonl" "${common[@]}" status=skipped cause="no GPU: $no_gpu"
    skipped=$((skipped + 1))
    tool text "$jsonl" "$txt"
    continue
  fi
  elapsed=$(($(now_ms) - t0))
  left=$((budget - elapsed / 1000))
  need=$expected_s
  if ((ran > 0 && ran_ms / ran / 1000 > need)); then need=$((ran_ms / ran / 1000)); fi
  if ((left < need)); then
    say "$engine p$p: skipped, budget: $left s left, a row needs about $need s"
    tool row "$jsonl" "${common[@]}" status=skipped cause="budget: $left s of $budget s left, a row needs about $need s"
    skipped=$((skipped + 1))
    tool text "$jsonl" "$txt"
    continue
  fi
  limit=$((limit_s < left ? limit_s : left))
  row=$work/$engine-p$p
  mkdir -p "$row/tmp"
  web=0
  metrics=0
  for try in $(seq 1 100); do
    port=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      if ((web == 0)); then web=$port; elif ((port != web)); then metrics=$port; break; fi
    fi
  done
  args=(loadtest --repo "$repo_path" --rate "steps:$rates/${step_s}s" --warmup "${warmup_s}s" --parallelism "$p"
    --engine "$engine" --reference-runs 0 --drain-timeout "${drain_s}s" --start-timeout "${start_s}s"
    --web-port "$web" --metrics-port "$metrics" --report "$row/report")
  say "$engine p$p: commitflow ${args[*]} (heap $heap MiB, limit $limit s, $left s of the budget left)"
  if [[ $engine == cuda ]] && command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -i 0 --query-gpu=utilization.gpu,memory.used --format=csv,noheader,nounits -lms 500 >"$row/gpu.csv" 2>/dev/null &
    sampler_pid=$!
  fi
  started=$(now_ms)
  # the JVM replaces the subshell and the launcher, so that $! is its process id; it stays in this session, so
  # that whatever runs this script can end it too (the broker, in a session of its own, ends with it)
  (cd "$row" && COMMITFLOW_TMPDIR=$row/tmp COMMITFLOW_LOG=$row/commitflow.log \
    COMMITFLOW_JAVA_OPTS="-Xmx${heap}m ${JAVA_OPTS:-}" exec "$kit/bin/commitflow" "${args[@]}") \
    >"$row/stdout.log" 2>"$row/stderr.log" </dev/null &
  row_pid=$!
  deadline=$((started + limit * 1000))
  status=""
  while kill -0 "$row_pid" 2>/dev/null; do
    if (($(now_ms) >= deadline)); then
      status=timeout
      say "$engine p$p: over its limit of $limit s: stopping it (what it measured so far is kept)"
      stop_tree "$row_pid" 15
      break
    fi
    sleep 0.5
  done
  wait "$row_pid" 2>/dev/null
  rc=$?
  row_pid=""
  if [[ -n $sampler_pid ]]; then kill "$sampler_pid" 2>/dev/null; wait "$sampler_pid" 2>/dev/null; sampler_pid=""; fi
  wall=$(($(now_ms) - started))
  ran=$((ran + 1))
  ran_ms=$((ran_ms + wall))
  cause=""
  if [[ $status == timeout ]]; then
    cause="over its time limit of $limit s; stopped"
  elif ((rc != 0)); then
    # partial: the load test wrote its report, but said why it did not end well (e.g. steps without any answer)
    status=failed
    [[ -f $row/report/report.json ]] && status=partial
    # the load test's one-line cause, else the last line it wrote
    cause=$(grep -E '^(commitflow|loadtest)[ :]' "$row/stderr.log" | tail -n 1)
    [[ -n $cause ]] || cause=$(grep -v '^[[:space:]]*$' "$row/stderr.log" | tail -n 1)
    cause="exit $rc: ${cause:-no message}"
  else
    status=ok
  fi
  {
    echo "=== $engine p$p: $status after $(secs "$wall") s (exit $rc)"
    cat "$row/stdout.log"
    echo "--- stderr"
    cat "$row/stderr.log"
    if [[ $status != ok && -f $row/commitflow.log ]]; then
      echo "--- the last lines of the log"
      tail -n 40 "$row/commitflow.log"
    fi
  } >>"$runlog"
  say "$engine p$p: $status in $(secs "$wall") s${cause:+: $cause}"
  tool row "$jsonl" "${common[@]}" status="$status" cause="$cause" exit="$rc" wall_s="$(secs "$wall")" limit_s="$limit" \
    report="$row/report/report.json" gpu_csv="$row/gpu.csv" command="commitflow ${args[*]}"
  tool text "$jsonl" "$txt"
  rm -rf "$row"
done

total=$(($(now_ms) - t0))
note="${#plan[@]} rows planned: $ran ran, $skipped skipped"
tool end "$jsonl" wall_s="$(secs "$total")" budget_s="$budget" note="$note"
tool text "$jsonl" "$txt"
say "done in $(secs "$total") s: $note; results in $out"
cat "$txt"
