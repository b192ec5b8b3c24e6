#!/usr/bin/env bash
# CI for the benchmark module (benchmarks/): vet and cross-compile, the unit tests, one
# iteration of every Go benchmark at a tiny size, and smoke runs of stealbench in each mode
# and of casestudy's parts, at tiny sizes with one repetition, writing to a temporary
# directory. Timings at these sizes are noise: the smoke checks that everything runs, checks
# its checksums and writes its outputs, not what it measures. Under 2 minutes on 2 cores with
# a warm build cache.
set -euo pipefail
cd "$(dirname "$0")"

echo "== benchmarks: go vet, and for 386 and arm64"
go vet ./...
for arch in 386 arm64; do
  GOARCH=$arch go vet ./...
done

# One package at a time (-p 1): the simulator's calibration tests time this machine, a cache
# line's ping-pong between two goroutines that must run at once, and with another package's
# test binary busy on both cores they take turns instead, and TestPingPong times their turns.
echo "== benchmarks: go test"
go test -p 1 -count=1 ./...

echo "== benchmarks: the implementations, the runner and the calibration under the race detector"
go test -p 1 -race -count=1 ./internal/impls ./internal/runner ./internal/simulate

echo "== benchmarks: every Go benchmark once, at scale 0.001"
go test -count=1 -run '^$' -bench . -benchtime 1x -scale 0.001 . >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stealbench" ./cmd/stealbench
sb="$tmp/stealbench"

echo "== stealbench: a bad flag exits 2 with the usage"
set +e
"$sb" -workers 0 >"$tmp/bad.out" 2>"$tmp/bad.err"
code=$?
set -e
if [ "$code" -ne 2 ] || ! grep -q "usage: stealbench" "$tmp/bad.err"; then
  echo "stealbench -workers 0: exit $code; want 2 and the usage"; cat "$tmp/bad.err"; exit 1
fi

echo "== stealbench: default comparison at scale 0.002, one repetition"
"$sb" -scale 0.002 -repeat 1 -out "$tmp/cmp" -json >"$tmp/cmp.out"
cat "$tmp/cmp.out"
grep -q "<svg" "$tmp/cmp/report.html"
grep -q '"timelines"' "$tmp/cmp/results.json"
grep -q "github.com/sourcegraph/conc v" "$tmp/cmp.out"

echo "== stealbench: under noise"
"$sb" -noise -workloads uniform,tailheavy -impls static,stealing,auto -scale 0.002 -repeat 1 -out "$tmp/noise" >"$tmp/noise.out"
grep -A4 "under noise" "$tmp/noise.out"

echo "== stealbench: simulator"
"$sb" -simulate -workers 1,2,4,64 -scale 0.002 -repeat 1 -out "$tmp/sim" >"$tmp/sim.out"
grep "simulator validation" "$tmp/sim.out"
grep -q "<svg" "$tmp/sim/report.html"

echo "== casestudy: every part at its smallest sizes, one repetition"
go build -o "$tmp/casestudy" ./cmd/casestudy
"$tmp/casestudy" -only all -reps 1 -fib 16 -cutoff 10 -lookahead 2 -particles 1000 -sort 1000 \
  -matmul 16 -matadd 16 -matbase 4 -out "$tmp/cs" >"$tmp/cs.out"
grep -q "^report: $tmp/cs/casestudy.html" "$tmp/cs.out"
test "$(grep -o "<svg" "$tmp/cs/casestudy.html" | wc -l)" -eq 9

echo "benchmarks: ci-smoke passed"
