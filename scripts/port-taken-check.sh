#!/usr/bin/env bash
# Checks that `./build.sh serve` and `./build.sh worker` fail at once, with
# an error naming the port, when another process listens on it, and print
# no "serving ..." URL that the other process would answer (./build.sh test
# runs this). The port is held by a small node server on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
holder=
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

node -e '
	const s = require("net").createServer((c) => c.end()).listen(0, "127.0.0.1", () => {
		require("fs").writeFileSync(process.argv[1], String(s.address().port));
	});
' "$tmp/port" &
holder=$!
for _ in $(seq 1 100); do
	[ -s "$tmp/port" ] && break
	sleep 0.1
done
port=$(cat "$tmp/port" 2>/dev/null || true)
[ -n "$port" ] || { echo "port-taken-check: the holder did not listen" >&2; exit 1; }

# check COMMAND: PORT=$port ./build.sh COMMAND exits non-zero, says the
# port, and prints no "serving" line.
check() {
	local out=$tmp/$1.log rc=0
	PORT=$port timeout 120 ./build.sh "$1" >"$out" 2>&1 </dev/null || rc=$?
	if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
		cat "$out" >&2
		echo "port-taken-check: ./build.sh $1 on taken port $port: exit $rc, want a failure" >&2
		return 1
	fi
	grep -q "port $port" "$out" || { cat "$out" >&2; echo "port-taken-check: ./build.sh $1: no error naming port $port" >&2; return 1; }
	if grep -qi 'serving' "$out"; then
		cat "$out" >&2
		echo "port-taken-check: ./build.sh $1 printed a serving line on a taken port" >&2
		return 1
	fi
	echo "port-taken-check: ./build.sh $1 on taken port $port: exit $rc, $(grep -m1 "port $port" "$out")"
}

check serve
check worker
