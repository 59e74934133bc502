#!/usr/bin/env bash
# Every figure of docs/performance.md in one go (issue 14), each bench with its floor in the same run.
#
#   bench/all.sh [OUTPUT_DIR]
#
# Bounded: every bench runs under `timeout`; on a quiet 2-core machine the whole takes about
# 14 minutes. The machine's load is printed by every bench (run it once quiet, once beside
# `make test`). Nothing is contacted but 127.0.0.1.
#
# Environment (defaults in brackets; every database named here is DROPPED and created again):
#   BENCH_PG       PostgreSQL server URL           [postgres://postgres@127.0.0.1:5432]
#   BENCH_DB       prefix of the bench databases   [skr_bench]   (-> skr_bench_standings, _entry, _evening, _paths)
#   BENCH_REDIS    Redis URL with its db           [redis://127.0.0.1:6379/14]
#   BENCH_PORT     first of four free ports        [8141]
#   BENCH_STANDINGS_PLAYERS  field of bench/standings.py   [4000]
#   BENCH_STANDINGS_REUSE    set: keep ${BENCH_DB}_standings from an earlier run (its set-up takes
#                            2-6 minutes; run VACUUM ANALYZE on it for the steady state)
set -u
cd "$(dirname "$0")/.."
PY=.venv/bin/python
OUT=${1:-/tmp/bench-$(date -u +%Y%m%dT%H%M%SZ)}
PG=${BENCH_PG:-postgres://postgres@127.0.0.1:5432}
DB=${BENCH_DB:-skr_bench}
REDIS=${BENCH_REDIS:-redis://127.0.0.1:6379/14}
PORT=${BENCH_PORT:-8141}
PLAYERS=${BENCH_STANDINGS_PLAYERS:-4000}
REUSE=${BENCH_STANDINGS_REUSE:+--reuse}
mkdir -p "$OUT"

run() {  # name, time limit in seconds, command...
    local name=$1 limit=$2
    shift 2
    echo "== $name ($(date -u +%H:%M:%S), limit ${limit}s): $*" | tee "$OUT/$name.txt"
    timeout --signal=INT --kill-after=20 "$limit" "$@" 2>&1 | grep -v -e "Warning" -e "^  warn" -e "^\s*$" >> "$OUT/$name.txt"
    echo "   exit ${PIPESTATUS[0]}" >> "$OUT/$name.txt"
    tail -n 12 "$OUT/$name.txt"
}

run score_hands 90 $PY bench/score_hands.py --hands 200000 --ab-hands 50000 --pairs 7
run draw 60 $PY bench/draw.py --players 1000 --pairs 7
run print 150 $PY bench/print.py --players 200 --pairs 7
run rehearsal 150 $PY bench/rehearsal.py --players 200 --games 16 --pairs 7
run standings 900 $PY bench/standings.py --players "$PLAYERS" --games 48 --pairs 7 --no-worker $REUSE \
    --database-url "$PG/${DB}_standings" --redis-url "$REDIS"
run hand_entry 180 $PY bench/hand_entry.py --players 1000 --tablets 250 --duration 56 --interval 15 30 --pairs 7 --celery worker \
    --database-url "$PG/${DB}_entry" --redis-url "$REDIS" --port "$PORT"
run evening 420 $PY bench/evening.py --players 1000 --seconds 60 --clock 2 --pairs 7 --batch 300 \
    --database-url "$PG/${DB}_evening" --redis-url "$REDIS" --port "$((PORT + 1))"
run paths_setup 180 $PY bench/web_paths.py setup --database-url "$PG/${DB}_paths"
run poll_rate 300 $PY bench/poll_rate.py --database-url "$PG/${DB}_paths" --redis-url "$REDIS" --port "$((PORT + 3))"
echo "all figures in $OUT"
