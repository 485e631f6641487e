#!/usr/bin/env bash
# Checks `./build.sh serve` as a user runs it (./build.sh test runs this):
# it serves the real page (bundled and prerendered) on PORT, and stopping
# it leaves nothing on the port: once by its process id (kill PID), once as
# Ctrl-C does (SIGINT to its whole process group).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -- "-$pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

free_port() {
	node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# port_free PORT: nothing accepts connections on 127.0.0.1:PORT.
port_free() {
	! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# run SIGNAL TARGET: starts ./build.sh serve in its own process group, checks
# the page, sends SIGNAL to TARGET ("pid": the script's process id, "group":
# its process group, as a terminal's Ctrl-C does), and checks that the
# process ended and the port is free.
run() {
	local sig=$1 target=$2 port log=$tmp/serve.log i
	port=$(free_port)
	PORT=$port setsid ./build.sh serve >"$log" 2>&1 &
	pid=$!
	for i in $(seq 1 600); do
		curl -fsS -o "$tmp/index.html" "http://127.0.0.1:$port/" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "serve-check: ./build.sh serve exited" >&2; return 1; }
		sleep 0.2
	done
	curl -fsS -o "$tmp/app.bundle.js" "http://127.0.0.1:$port/app.bundle.js"
	if grep -q 'esbuild is not installed' "$tmp/app.bundle.js"; then
		echo "serve-check: the page is served unbundled" >&2
		return 1
	fi
	# The build-time prerender wrote the default view's report.
	curl -fsS -o /dev/null "http://127.0.0.1:$port/prerender.json" ||
		{ echo "serve-check: no prerender.json: the page is not prerendered" >&2; return 1; }
	# The script's process is the server (exec): one process in the group.
	[ "$(pgrep -g "$pid" | wc -l)" = 1 ] || { pgrep -g "$pid" -a >&2; echo "serve-check: more than the server runs" >&2; return 1; }
	if [ "$target" = group ]; then
		kill "-$sig" -- "-$pid"
	else
		kill "-$sig" "$pid"
	fi
	for i in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "serve-check: still running 5 s after SIG$sig" >&2
		return 1
	fi
	wait "$pid" 2>/dev/null || true
	pid=
	port_free "$port" || { echo "serve-check: port $port is still taken after SIG$sig" >&2; return 1; }
	echo "serve-check: SIG$sig to the $target: the server stopped and port $port is free"
}

run TERM pid
run INT group
