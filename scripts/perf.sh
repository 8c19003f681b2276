#!/usr/bin/env bash
# Reproduces docs/performance.md: mcp-inspect's headless commands against the official
# MCP Inspector CLI and the go-sdk client, on this machine, in the same run.
#
#   bash scripts/perf.sh            # ROUNDS=5 D=3 by default
#   ROUNDS=9 D=5 bash scripts/perf.sh
#
# Needs go, node and npm, and GNU time (/usr/bin/time; `apt-get install -y time`). The official
# inspector (@modelcontextprotocol/inspector, INSPECTOR_VERSION, default 2.12.0) is installed
# into a temporary directory for the measurement only. Every round runs each client once,
# interleaved, so a busy machine slows all of them alike; the medians are printed at the end.
#
# 1. `mcp-inspect tools` vs `mcp-inspector --cli <server> --method tools/list`, against the
#    go-sdk conformance everything-server: whole-process wall time and peak RSS. GNU time's
#    peak RSS is that of the largest process of the tree, so the server (about 10 MB) is
#    counted for both.
# 2. Calls per second at concurrency 1 against the fake "minimal" server (answers each
#    tools/call at once): the bare loops (write one line, read one line, the very line bench
#    call writes, progress token included; with write(2) and
#    read(2) on blocking descriptors, BenchmarkBareLoopBlocking, the floor bench call is held
#    to; and through Go's *os.File and runtime poller, BenchmarkBareLoop), `mcp-inspect bench
#    call`, the same with --record, the inspector's --load mode, and the go-sdk client
#    (BenchmarkGoSDKCallTool).
# 3. Over Streamable HTTP, against the go-sdk everything-server (stateful, on 127.0.0.1):
#    BenchmarkHTTPCallVsBare interleaves, in one run, a bare keep-alive POST loop (net/http
#    posting a fixed tools/call body: the ceiling), `bench call` and the go-sdk's own HTTP
#    client; BenchmarkHTTPTapVsDirect gives the HTTP tap's added latency at p50; and the
#    wall time of `mcp-inspect tools URL` against `mcp-inspector --cli URL --transport http`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROUNDS=${ROUNDS:-5}
D=${D:-3}
INSPECTOR_VERSION=${INSPECTOR_VERSION:-2.12.0}
[[ -x /usr/bin/time ]] || { echo "scripts/perf.sh: GNU time is missing (apt-get install -y time)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building into $work" >&2
go build -o "$work/mcp-inspect" .
go build -o "$work/everything-server" github.com/modelcontextprotocol/go-sdk/conformance/everything-server
go build -o "$work/fakeserver" ./internal/fake/fakeserver
go test -c -o "$work/cmd.test" ./cmd
echo "installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $work/insp" >&2
npm install --prefix "$work/insp" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >/dev/null
insp=$work/insp/node_modules/.bin/mcp-inspector
mi=$work/mcp-inspect
srv=$work/everything-server
fake=("$work/fakeserver" --scenario minimal)

# timed CMD...: prints "seconds maxrss_kb" of one run; the command's output is discarded.
timed() { /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>&1 || true; cat "$work/time"; }
# json_num KEY: the first number after "KEY": in the JSON on stdin.
json_num() { tr -d '\n ' | grep -o "\"$1\":[0-9.]*" | head -1 | cut -d: -f2; }
# bench_rate NAME: calls/s of the Go benchmark NAME of ./cmd.
bench_rate() { "$work/cmd.test" -test.run '^$' -test.bench "^$1\$" -test.benchtime "${D}s" | awk '/calls\/s/{for(i=1;i<NF;i++) if($(i+1)=="calls/s") print $i}'; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

: >"$work/list"
: >"$work/rate"
echo "machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
	read -r mi_s mi_kb < <(timed "$mi" tools -q -- "$srv")
	read -r in_s in_kb < <(timed "$insp" --cli "$srv" --method tools/list)
	echo "$mi_s $mi_kb $in_s $in_kb" >>"$work/list"
	printf 'tools/list round %d: mcp-inspect %ss %sKB   inspector --cli %ss %sKB\n' "$r" "$mi_s" "$mi_kb" "$in_s" "$in_kb"

	bare=$(bench_rate BenchmarkBareLoopBlocking)
	poller=$(bench_rate BenchmarkBareLoop)
	ours=$("$mi" bench call echo -a text=x --duration "${D}s" --json -q -- "${fake[@]}" | json_num callsPerSec)
	rec=$("$mi" bench call echo -a text=x --duration "${D}s" --json -q --record "$work/bench-$r.jsonl" -- "${fake[@]}" | json_num callsPerSec)
	load=$("$insp" --cli "${fake[@]}" --method tools/call --tool-name echo --tool-arg text=x --load --load-concurrency 1 --load-duration "$D" --format json 2>/dev/null | json_num throughput)
	sdk=$(bench_rate BenchmarkGoSDKCallTool)
	echo "$bare $ours $rec $load $sdk $poller" >>"$work/rate"
	printf 'calls/s  round %d: bare loop %s (poller %s)   bench call %s   bench call --record %s   inspector --load %s   go-sdk %s   (load %s)\n' \
		"$r" "$bare" "$poller" "$ours" "$rec" "$load" "$sdk" "$(cut -d' ' -f1 /proc/loadavg)"
done

col() { awk -v c="$2" '{print $c}' "$1" | median; }
# ratio FILE A B: the median over rounds of column A / column B (each round's clients ran
# back to back, so this is steadier than a ratio of medians when the machine's load drifts).
ratio() { awk -v a="$2" -v b="$3" '$b > 0 {print $a / $b}' "$1" | median; }
mi_s=$(col "$work/list" 1) mi_kb=$(col "$work/list" 2) in_s=$(col "$work/list" 3) in_kb=$(col "$work/list" 4)
bare=$(col "$work/rate" 1) ours=$(col "$work/rate" 2) rec=$(col "$work/rate" 3) load=$(col "$work/rate" 4) sdk=$(col "$work/rate" 5) poller=$(col "$work/rate" 6)
echo
echo "medians of $ROUNDS rounds"
awk -v a="$mi_s" -v b="$in_s" 'BEGIN {printf "tools/list wall time:  mcp-inspect %.3f s, inspector %.3f s: %.1fx faster (%.3f of it)\n", a, b, b/a, a/b}'
awk -v a="$mi_kb" -v b="$in_kb" 'BEGIN {printf "tools/list peak RSS:   mcp-inspect %.1f MB, inspector %.1f MB: %.2f of it\n", a/1024, b/1024, a/b}'
awk -v b="$bare" -v p="$poller" -v o="$ours" -v r="$rec" -v l="$load" -v s="$sdk" 'BEGIN {
	printf "bench call, c=1:       %.0f calls/s = %.2f of the blocking bare loop (%.0f/s), %.2f of the poller one (%.0f/s)\n", o, o/b, b, o/p, p
	printf "  with --record:       %.0f calls/s (%.0f%% of it without)\n", r, 100*r/o
	printf "  vs inspector --load: %.0f calls/s: %.1fx\n", l, o/l
	printf "  vs go-sdk client:    %.0f calls/s: %.1fx\n", s, o/s
}'
echo "median of the per-round ratios"
printf 'tools/list wall time mcp-inspect/inspector %.3f, peak RSS %.2f\n' "$(ratio "$work/list" 1 3)" "$(ratio "$work/list" 2 4)"
printf 'bench call / bare loop %.2f (blocking) %.2f (poller), --record / without %.2f, bench call / inspector --load %.1f, bench call / go-sdk %.1f\n' \
	"$(ratio "$work/rate" 2 1)" "$(ratio "$work/rate" 2 6)" "$(ratio "$work/rate" 3 2)" "$(ratio "$work/rate" 2 4)" "$(ratio "$work/rate" 2 5)"

echo
echo "over HTTP (go-sdk everything-server, stateful)"
port=$(( 20000 + RANDOM % 20000 ))
"$srv" -http="127.0.0.1:$port" -stateless=false >/dev/null 2>&1 &
srv_pid=$!
trap 'kill "$srv_pid" 2>/dev/null; rm -rf "$work"' EXIT
url="http://127.0.0.1:$port/mcp"
sleep 0.5
: >"$work/httplist"
for r in $(seq 1 "$ROUNDS"); do
	read -r mi_s mi_kb < <(timed "$mi" tools -q "$url")
	read -r in_s in_kb < <(timed env NODE_OPTIONS= "$insp" --cli "$url" --transport http --method tools/list)
	echo "$mi_s $mi_kb $in_s $in_kb" >>"$work/httplist"
	printf 'tools/list over HTTP round %d: mcp-inspect %ss %sKB   inspector --cli %ss %sKB\n' "$r" "$mi_s" "$mi_kb" "$in_s" "$in_kb"
done
printf 'tools/list over HTTP wall time mcp-inspect/inspector (median of per-round ratios) %.3f\n' "$(ratio "$work/httplist" 1 3)"
"$work/cmd.test" -test.run '^$' -test.bench '^Benchmark(HTTPCallVsBare|HTTPTapVsDirect)$' -test.benchtime "$((D * 1000))x" -test.count 1 | grep '^Benchmark'
