#!/usr/bin/env bash
# Throughput build and test driver. `./build.sh help` lists the commands.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
export GOFLAGS=${GOFLAGS:-}
GOROOT_DIR=$(go env GOROOT)
WASM_EXEC_DIR="$GOROOT_DIR/lib/wasm"
# Reproducible builds (../shared/TOOLCHAIN.md).
GO_BUILD_FLAGS=(-trimpath -buildvcs=false -ldflags='-s -w -buildid=')

log() { printf '\n==> %s\n' "$*"; }

usage() {
	cat <<'USAGE'
Usage: ./build.sh COMMAND

Commands:
  build      build the WebAssembly engine into www/ (throughput.wasm, wasm_exec.js)
  serve      build, then serve the calculator page from www/ on 127.0.0.1 (PORT=8080)
  test       run every test suite: go vet and gofmt, Go tests natively and under
             WebAssembly, the JavaScript module, the browser and worker end-to-end
             tests; installs npm packages from the lockfile and Debian's chromium
             when missing
  bench      run the committed benchmarks and print medians
  calibrate  print the validation errors against ../shared/validation/cases.json
  help       show this text
USAGE
}

build_wasm() {
	log "building www/throughput.wasm"
	GOOS=js GOARCH=wasm go build "${GO_BUILD_FLAGS[@]}" -o www/throughput.wasm ./wasm/js
	cp "$WASM_EXEC_DIR/wasm_exec.js" www/wasm_exec.js
}

test_go() {
	log "gofmt"
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
	if [ -n "$unformatted" ]; then
		echo "gofmt would change: $unformatted" >&2
		return 1
	fi
	log "go vet"
	go vet ./...
	log "go test (native)"
	go test -count=1 ./...
	log "go test (GOOS=js GOARCH=wasm)"
	GOOS=js GOARCH=wasm go test -count=1 -exec="$WASM_EXEC_DIR/go_js_wasm_exec" ./hardware/... ./kvcache/... ./calc/...
}

# test_e2e runs the page and widget end-to-end tests (tests/e2e/*.test.mjs)
# in headless Debian Chromium through playwright-core, against tools/serve on
# a free port.
test_e2e() {
	log "browser end-to-end tests (tests/e2e)"
	[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund
	if ! command -v "${CHROMIUM:-/usr/bin/chromium}" >/dev/null 2>&1; then
		log "installing Debian's chromium"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
	fi
	build_wasm
	mkdir -p build
	go build -o build/serve ./tools/serve
	local out=build/serve.out pid url=""
	setsid build/serve -quiet -dir www -addr 127.0.0.1:0 >"$out" 2>&1 &
	pid=$!
	# shellcheck disable=SC2064 # expand pid now
	trap "kill -- -$pid 2>/dev/null || kill $pid 2>/dev/null || true" EXIT
	for _ in $(seq 50); do
		url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$out")
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { cat "$out" >&2; echo "tools/serve did not start" >&2; return 1; }
	BASE_URL=$url node --test tests/e2e/
	kill -- -"$pid" 2>/dev/null || true
	trap - EXIT
}

# test_js runs the JavaScript module's suite (www/test, node's built-in
# runner) against a fresh build of the .wasm.
test_js() {
	log "go vet (GOOS=js GOARCH=wasm) ./wasm/js"
	GOOS=js GOARCH=wasm go vet ./wasm/js
	build_wasm
	log "node --test www/test"
	node --test www/test/
}

# test_pack packs www/ as the npm package, installs the tarball into a
# temporary project and imports and evaluates from it (scripts/pack-check.mjs).
test_pack() (
	log "npm pack www/, install the tarball, import @modelrefs/throughput"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd www && npm pack --silent --pack-destination "$tmp" >/dev/null)
	mkdir "$tmp/app"
	cp scripts/pack-check.mjs "$tmp/app/check.mjs"
	cd "$tmp/app"
	printf '{"name":"pack-check","private":true,"type":"module"}\n' >package.json
	npm install "$tmp"/modelrefs-throughput-*.tgz --no-audit --no-fund --offline --silent
	node check.mjs
)

cmd=${1:-help}
case "$cmd" in
build)
	build_wasm
	;;
serve)
	build_wasm
	exec go run ./tools/serve -dir www -addr "127.0.0.1:${PORT:-8080}"
	;;
test)
	test_go
	test_js
	test_pack
	test_e2e
	;;
bench)
	go test -run '^$' -bench . -benchmem -count "${COUNT:-10}" ./calc/... ./hardware/... ./kvcache/... | go run ./tools/benchmedian
	;;
calibrate)
	go run ./tools/calibrate
	;;
help | -h | --help)
	usage
	;;
*)
	echo "unknown command: $cmd" >&2
	usage >&2
	exit 2
	;;
esac
