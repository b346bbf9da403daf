#!/usr/bin/env bash
# What the prepare-commit-msg hook adds to `git commit`, as a developer waits for it: the hook installed with
# `install-hook --url` asks `commitflow gateway` over HTTPS with curl, in front of the demo's job. Two phases of
# COMMITS commits of a one-line change each: the job idle, then while another history is replayed into the same job
# at RATE commits/s (in a loop, a new tenant each time round, so that it never runs out). Each commit is timed with
# the hook and, right after, the same way with the hook skipped (COMMITFLOW_HOOK=0): the difference is the hook's.
#
#   docs/bench/hook-latency.sh HISTORY OTHER [COMMITS] [RATE]
#     HISTORY  the repository the job learns and the developer commits to (a bare repository or a work tree)
#     OTHER    the history replayed as the other traffic
#
# Prints each commit's times, then per phase P50 and P99 (nearest rank) with and without the hook, what the hook
# adds, and the gateway's own mean time per draft (its /metrics): the rest of the hook's time is the hook's side.
# Ports: 8081 (Flink's web UI), 9249 (Prometheus), 18443 (the gateway). Needs curl and openssl.
set -euo pipefail
cd "$(dirname "$0")/../.."
history=$(cd "$1" && pwd)
other=$(cd "$2" && pwd)
commits=${3:-50}
rate=${4:-200}
work=$(mktemp -d "${TMPDIR:-/tmp}/hook-latency.XXXXXX")
pids=()
cleanup() {
  # each started by setsid, so its pid is its process group's: the launcher, its JVM and the replay loop go together
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT
echo "hook-latency: work in $work"

./commitflow --version >/dev/null # builds once, before anything is timed
name=$(basename "$history")
setsid ./commitflow demo --repo "$history" --max 3000 --rate 0 --stay --tenant demo >"$work/demo.log" 2>&1 &
pids+=($!)
until grep -q "keeps answering drafts" "$work/demo.log"; do
  sleep 1
  if ! kill -0 "${pids[0]}" 2>/dev/null; then cat "$work/demo.log"; exit 1; fi
done
bootstrap=$(sed -n 's/.*keeps answering drafts .* at \([^;]*\);.*/\1/p' "$work/demo.log" | sed -n 1p)
echo "hook-latency: the demo's job learned $name; Kafka at $bootstrap"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf 'demo:%s\n' "$key" >"$work/api-keys"
printf '%s\n' "$key" >"$work/demo.key"
setsid ./commitflow gateway --bootstrap "$bootstrap" --host 127.0.0.1 --port 18443 --api-keys "$work/api-keys" \
  --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" --rate 50 --burst 50 >"$work/gateway.log" 2>&1 &
pids+=($!)
until curl -s --cacert "$work/cert.pem" https://127.0.0.1:18443/healthz | grep -q '"ok"'; do sleep 1; done
echo "hook-latency: gateway at https://127.0.0.1:18443"

git clone -q "$history" "$work/app"
cd "$work/app"
git config user.name Ada
git config user.email ada@example.com
"$OLDPWD/commitflow" install-hook --url https://127.0.0.1:18443 --key-file "$work/demo.key" \
  --ca-file "$work/cert.pem" --repo "$name" --timeout 5s >/dev/null
# the editor keeps the hook's message, and writes one when there is none
cat >"$work/editor.sh" <<'EOF'
#!/bin/sh
first=$(head -n 1 "$1")
case "$first" in ''|'#'*) echo "Change by hand" >"$1" ;; esac
EOF
chmod +x "$work/editor.sh"
file=$(git ls-files -- '*.java' '*.c' '*.ts' '*.js' '*.py' '*.rs' '*.go' | sed -n 1p) # sed reads it all: no SIGPIPE under pipefail

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# the gateway's summed seconds and count of drafts so far
served() {
  curl -s --cacert "$work/cert.pem" https://127.0.0.1:18443/metrics \
    | awk '/^commitflow_gateway_request_duration_seconds_sum\{route="\/v1\/suggestions"/ { s = $2 }
           /^commitflow_gateway_request_duration_seconds_count\{route="\/v1\/suggestions"/ { c = $2 }
           END { printf "%s %s\n", s + 0, c + 0 }'
}
# COMMITS commits of PHASE, each with the hook and without it
phase() {
  before=$(served)
  for i in $(seq 1 "$commits"); do
    echo "    // hook-latency $1 $i" >>"$file"
    git add "$file"
    t0=$(ms); GIT_EDITOR="$work/editor.sh" git commit -q; t1=$(ms)
    hooked=$((t1 - t0))
    subject=$(git log -1 --format=%s)
    echo "    // hook-latency $1 $i again" >>"$file"
    git add "$file"
    t0=$(ms); COMMITFLOW_HOOK=0 GIT_EDITOR="$work/editor.sh" git commit -q; t1=$(ms)
    plain=$((t1 - t0))
    echo "$1 $i $hooked $plain $subject" | tee -a "$work/times"
  done
  echo "$1 $before $(served)" >>"$work/served"
}
# a gateway is a long-running service: one draft first, so that its first request's class loading and TLS set-up
# are not the developer's (the first hooked commit is still printed apart)
git diff HEAD~1 HEAD | curl -s -o /dev/null --cacert "$work/cert.pem" -H "Authorization: Bearer $key" \
  -H 'Content-Type: text/x-diff' -H 'Accept: text/plain' --data-binary @- \
  "https://127.0.0.1:18443/v1/suggestions?repo=$name" || true
: >"$work/times"
: >"$work/served"
echo "hook-latency: the job idle"
phase idle

app=$PWD
cd "$OLDPWD"
setsid bash -c 'round=1; while :; do ./commitflow replay --bootstrap "$1" --repo "$2" --tenant "other$round" \
  --rate "constant:$3/600s"; round=$((round + 1)); done' replay-loop "$bootstrap" "$other" "$rate" \
  >"$work/replay.log" 2>&1 &
pids+=($!)
cd "$app"
echo "hook-latency: replaying $(basename "$other") at $rate commits/s; 20 s of warm-up"
sleep 20
phase loaded
grep -E '^ +[0-9.]+ s +offered' "$work/replay.log" | tail -n 2

python3 - "$work/times" "$work/served" <<'EOF'
import math, sys
rank = lambda xs, p: xs[max(0, math.ceil(p * len(xs)) - 1)]
served = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in open(sys.argv[2]) if l.strip()}
for phase in ("idle", "loaded"):
    rows = [l.rstrip("\n").split(" ", 4) for l in open(sys.argv[1]) if l.startswith(phase + " ")]
    hooked = sorted(int(r[2]) for r in rows)
    plain = sorted(int(r[3]) for r in rows)
    answered = sum(1 for r in rows if len(r) > 4 and r[4].strip() != "Change by hand")
    base = rank(plain, 0.5)
    s0, c0, s1, c1 = served[phase]
    mean = 1000 * (s1 - s0) / (c1 - c0) if c1 > c0 else float("nan")
    print(f"{phase}: {len(rows)} commits, {answered} with the job's suggestion; the first hooked one {rows[0][2]} ms")
    print(f"  git commit with the hook: P50 {rank(hooked, .5)} ms, P99 {rank(hooked, .99)} ms;"
          f" without it: P50 {base} ms, P99 {rank(plain, .99)} ms")
    print(f"  the hook adds: P50 {rank(hooked, .5) - base} ms, P99 {rank(hooked, .99) - base} ms;"
          f" the gateway's mean time per draft {mean:.0f} ms")
EOF
