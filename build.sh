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
# The browser engine's own flags (build_wasm), which keep it inside its
# 1.0 MB gzip budget (scripts/wasm-size.sh): no inlining in any package
# (-gcflags=all=-l). Its main package, wasm/js/light, leaves out by not
# importing them the simulator, the calibration readers, the planner and
# DeepSeek-V4 (models/deepseekv4): they are in throughput-planner.wasm
# (wasm/js/full), the full engine, which the page loads in its simulation
# worker and planning view. Neither engine embeds the model catalog or the
# accelerators' citation text (neither main imports models/catalog or
# hardware/citations): throughput.js fetches catalog.json beside the engine
# and hands it over, and restores the citations from hardware-sources.js.
WASM_ENGINE_FLAGS=(-gcflags='all=-l')

log() { printf '\n==> %s\n' "$*"; }

# require_free_port PORT: fails, naming the port, when a process already
# accepts connections on 127.0.0.1:PORT, so that serve and worker stop
# before their build and before they print a URL that another process
# would answer. (A process that takes the port between this check and the
# server's bind still fails the bind: tools/serve names the port too.)
require_free_port() {
	if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
		echo "port $1 on 127.0.0.1 is taken (another process listens there): stop it or choose another, e.g. PORT=$(($1 + 1)) ./build.sh $cmd" >&2
		exit 1
	fi
}

# NODE_TEST: node's test runner with V8's background threads off
# (--single-threaded, which its test-file processes inherit). On Node 20.20,
# a test file that loads the full engine could finish its tests and then
# never exit: its main thread parked on a futex while V8 tiered the module
# up in the background (4 hangs in 24 runs of www/test/golden.test.mjs
# against the engine built at c80e029; 0 in 45 with --single-threaded), and
# CI waited until its 90-minute limit. --test-force-exit stopped the hang
# but could end a file with tests still to run (213 of 222 reported in one
# run of three), so it is not used.
# The test files are named (a shell glob of *.test.mjs), not their folder:
# Node 22 reads `node --test DIR` as a file and fails (Node 20 searched it).
NODE_TEST=(node --single-threaded --test)

usage() {
	cat <<'USAGE'
Usage: ./build.sh COMMAND

Commands:
  build      build the WebAssembly engine and assemble the build outputs from www/:
             build/npm/ (the npm package) and build/site/ (the static site: the
             prerendered page, its bundled script, the widget, the engine)
  serve      build, then serve build/site/ on 127.0.0.1 (PORT=8080); runs npm ci
             first when the page's npm packages are missing. The server
             replaces the script (exec): kill its PID or press Ctrl-C to stop.
             It opens build/site/ per request, so it keeps serving across a
             `./build.sh build`, `test` or `worker` run beside it (503 while
             the folder is being rewritten). A taken PORT stops it before
             the build, with an error naming the port
  worker     build the API worker into build/worker/ (wasm/worker: Go and entry.mjs),
             then run it with build/site/ on a local workerd at 127.0.0.1:PORT
             (default 8787); `./build.sh worker build` only builds. A taken
             PORT stops it before the build, with an error naming the port
  generate   rewrite the generated Go files (go generate ./...: tools/gen/*);
             `./build.sh generate --golden` also rewrites the golden reports
             in calc/testdata/golden from the engine
  test       run every test suite: the check that no build output is
             tracked (tools/checktracked: no binary, no file over 2 MB that
             is not source or data), the stale check of generated files
             (scripts/check-generated.sh, and scripts/check-fresh-generate.sh:
             a fresh clone of HEAD regenerates them unchanged), go vet and
             gofmt, Go tests natively and under WebAssembly, the JavaScript
             module, the browser and worker end-to-end tests; the ecosystem's
             tools: swagger-parser and redocly lint on /openapi.json, npm
             publish --dry-run and tsc on the package and the docs' examples, wrangler deploy
             --dry-run (which builds first); installs npm packages from the
             lockfile and Debian's chromium when missing
  bench      run the committed benchmarks and print medians
  calibrate  print the validation errors against the published cases in
             calc/validation/testdata (shared-cases.json, a copy of
             ../shared/validation/cases.json, and public-cases.json) per
             metric class and efficiency set, in sample beside
             leave-one-source-out (each set refitted without each source
             document; 2-3 minutes on two cores); go run ./tools/calibrate
             -tables prints the in-sample tables by engine, TP, GPU and
             batch bucket
  help       show this text
USAGE
}

# build_wasm builds the WebAssembly engine and assembles build/npm/, the npm
# package (www/module/ with the .wasm and the toolchain's wasm_exec.js, what
# test_pack packs), then build/site/ (bundle_page). Nothing is written into
# www/, which holds sources only.
build_wasm() {
	log "building build/npm/ (throughput.wasm, wasm_exec.js, www/module/)"
	rm -rf build/npm
	mkdir -p build/npm
	# The browser engine is built without inlining in this module's own
	# packages: that keeps it inside its 1.0 MB gzip budget (about 17 KB
	# smaller; scripts/wasm-size.sh) at a cost docs/js-module.md measures.
	GOOS=js GOARCH=wasm go build "${GO_BUILD_FLAGS[@]}" "${WASM_ENGINE_FLAGS[@]}" -o build/npm/throughput.wasm ./wasm/js/light
	# The full engine, main package wasm/js/full: the simulator, the
	# calibration readers, DeepSeek-V4 and calc.Plan (load({planner: true}); the page's
	# simulation worker and planning view load it; about 200 KB of gzip
	# over the light engine's budget, so it is a second file, built with
	# inlining: the budget is the light engine's).
	GOOS=js GOARCH=wasm go build "${GO_BUILD_FLAGS[@]}" -o build/npm/throughput-planner.wasm ./wasm/js/full
	cp "$WASM_EXEC_DIR/wasm_exec.js" build/npm/wasm_exec.js
	# The model catalog the browser engine is built without: models/catalog/
	# joined, compact (tools/gen/catalogdata -json).
	go run ./tools/gen/catalogdata -dir models/catalog -json build/npm/catalog.json
	cp www/module/package.json www/module/README.md www/module/throughput.js www/module/hardware-sources.js www/module/throughput.d.ts www/module/contract.d.ts LICENSE build/npm/
	bundle_page
	# The element in the package (@modelrefs/throughput/widget and
	# /throughput-calculator): the site's self-contained bundles, which
	# fetch throughput.wasm from beside themselves, and their declarations.
	cp build/site/widget.js build/site/throughput-calculator.js www/widget/widget.d.ts www/widget/throughput-calculator.d.ts build/npm/
	if [ -d build/site/widget ]; then
		echo "esbuild not installed (npm ci): build/npm/widget.js is not self-contained and the package is not publishable"
	fi
}

# bundle_page assembles build/site/, the static site that tools/serve,
# workerd and wrangler serve (and nothing else: no sources, no tests):
#   index.html, prerender.json   the page's default view, written from the
#       template www/page/index.html by scripts/prerender.mjs
#   app.bundle.js                the page's script: www/page/app.js and every
#       module it imports, the engine's throughput.js and wasm_exec.js too, in
#       one file, so the browser makes one request, not a waterfall of fifteen
#   widget.js                    the embeddable element, self-contained: defines
#       <throughput-calculator> (docs/embedding.md)
#   throughput-calculator.js     the element's class alone, registering nothing
#   throughput.js, wasm_exec.js, throughput.wasm, catalog.json   the
#       JavaScript module, the engine and its model catalog, as in build/npm
#   sw.js, manifest.webmanifest, icon.svg
#   accuracy.html                the accuracy page (docs/accuracy.md as HTML),
#       generated by tools/calibrate -bands (./build.sh generate)
# esbuild bundles from build/src/, a copy of www/page, www/ui, www/widget and
# of the assembled module (build/npm), so that the sources' relative imports
# resolve, the toolchain's wasm_exec.js included. Without esbuild (npm ci
# installs it) build/site gets those modules as they are and one-line entry
# modules that import them, and the browser loads them one by one.
bundle_page() {
	log "assembling build/site/"
	local src=build/src site=build/site d
	rm -rf "$src" "$site"
	mkdir -p "$src/module" "$site"
	cp -R www/page www/ui www/widget "$src/"
	cp build/npm/throughput.js build/npm/hardware-sources.js build/npm/wasm_exec.js "$src/module/"
	cp build/npm/throughput.wasm build/npm/throughput-planner.wasm build/npm/throughput.js build/npm/hardware-sources.js build/npm/wasm_exec.js build/npm/catalog.json "$site/"
	cp www/page/sw.js www/page/manifest.webmanifest www/page/icon.svg www/page/accuracy.html "$site/"
	if [ -x node_modules/.bin/esbuild ]; then
		# The page's own bundles are minified (whitespace and syntax; names
		# kept, so its errors still read): a first visit's bytes are
		# budgeted (scripts/bench-page.mjs). The element's bundles, which
		# the npm package ships, keep their comments.
		node_modules/.bin/esbuild "app.bundle=$src/page/app.js" "plan.bundle=$src/page/plan.js" "sim-worker=$src/page/sim-worker.js" "plan-worker=$src/page/plan-worker.js" \
			--bundle --format=esm --target=es2022 --minify-whitespace --minify-syntax --log-level=warning --outdir="$site"
		node_modules/.bin/esbuild "widget=$src/widget/widget.js" "throughput-calculator=$src/widget/throughput-calculator.js" \
			--bundle --format=esm --target=es2022 --log-level=warning --outdir="$site"
	else
		for d in page ui widget module; do
			mkdir -p "$site/$d"
			cp "$src/$d"/*.js "$site/$d/"
		done
		ln -f "$site/throughput.wasm" "$site/module/throughput.wasm" 2>/dev/null || cp "$site/throughput.wasm" "$site/module/"
		ln -f "$site/throughput-planner.wasm" "$site/module/throughput-planner.wasm" 2>/dev/null || cp "$site/throughput-planner.wasm" "$site/module/"
		cp "$site/catalog.json" "$site/module/"
		printf "// esbuild is not installed (npm ci): the page loads its modules one by one.\nimport './page/app.js';\n" >"$site/app.bundle.js"
		printf "import './page/plan.js';\n" >"$site/plan.bundle.js"
		printf "// esbuild is not installed (npm ci): the widget loads its modules one by one.\nexport * from './widget/widget.js';\n" >"$site/widget.js"
		printf "export * from './widget/throughput-calculator.js';\n" >"$site/throughput-calculator.js"
		echo "esbuild not installed (npm ci): build/site/ loads its modules unbundled"
	fi
	rm -rf "$src"
	# The default view (form and figures) in index.html, and its report.
	if command -v node >/dev/null; then
		node scripts/prerender.mjs
	else
		cp www/page/index.html "$site/index.html"
		echo "node not found: build/site/index.html is the template, without prerender.json (the page waits for the engine)"
	fi
	# The security headers (Content-Security-Policy and the rest) for
	# tools/serve and Cloudflare's static assets: build/site/_headers.
	write_headers "$site"
	# The service worker's cache is named after the site's files, and it
	# serves those files only (their names go into its FILES list).
	local version files
	version=$(cd "$site" && find . -type f ! -name sw.js ! -name _headers | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)
	files=$(cd "$site" && find . -type f ! -name sw.js ! -name _headers | sed 's|^\./||' | LC_ALL=C sort |
		awk '{ printf "%s\047%s\047", (NR > 1 ? ", " : ""), $0 }')
	sed -i "s/^const VERSION = 'dev';/const VERSION = '$version';/" "$site/sw.js"
	FILES="$files" perl -0pi -e 's/^const FILES = \[.*?\];/const FILES = [$ENV{FILES}];/ms' "$site/sw.js"
	grep -q "^const VERSION = '$version';" "$site/sw.js" && grep -q "^const FILES = \['" "$site/sw.js" ||
		{ echo "build/site/sw.js: VERSION or FILES not written" >&2; return 1; }
}

# write_headers SITE writes SITE/_headers from www/page/_headers: the
# security headers, with the CSP hashes of SITE/index.html's inline scripts
# (computed here, so an edit of the head script cannot break the page).
write_headers() {
	local site=$1 hashes
	if command -v node >/dev/null; then
		hashes=$(node -e '
			const fs = require("fs"), crypto = require("crypto");
			const html = fs.readFileSync(process.argv[1], "utf8");
			const out = [];
			for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
				if (/\bsrc\s*=/i.test(m[1])) continue;
				out.push(`\x27sha256-${crypto.createHash("sha256").update(m[2], "utf8").digest("base64")}\x27`);
			}
			process.stdout.write([...new Set(out)].join(" "));
		' "$site/index.html")
	else
		hashes=""
		echo "node not found: build/site/_headers allows no inline script (the page fetches the engine from app.js)"
	fi
	sed "s|INLINE_SCRIPT_HASHES|$hashes|" www/page/_headers >"$site/_headers"
}

# build_worker writes build/worker/: app.wasm (wasm/worker), the Go
# toolchain's wasm_exec.js, wasm/worker/entry.mjs and the workerd config; and
# build/worker/stock/: syumai/workers' stock glue (workers-assets-gen)
# and the Go side as the adapter intends it (-tags stockbaseline), the
# baseline scripts/load-worker.mjs compares against.
build_worker() {
	log "building build/worker/app.wasm"
	local out=build/worker
	go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$out/stock"
	GOOS=js GOARCH=wasm go build "${GO_BUILD_FLAGS[@]}" -o "$out/app.wasm" ./wasm/worker
	cp "$WASM_EXEC_DIR/wasm_exec.js" wasm/worker/entry.mjs wasm/worker/request.mjs wasm/worker/workerd.capnp "$out/"
	GOOS=js GOARCH=wasm go build "${GO_BUILD_FLAGS[@]}" -tags stockbaseline -o "$out/stock/app.wasm" ./wasm/worker
	cp wasm/worker/workerd-stock.capnp "$out/stock/"
	printf 'worker: app.wasm %s bytes, gzip -9 of app.wasm + entry.mjs + request.mjs + wasm_exec.js: %s bytes\n' \
		"$(wc -c <"$out/app.wasm")" "$(cat "$out/app.wasm" "$out/entry.mjs" "$out/request.mjs" "$out/wasm_exec.js" | gzip -9 | wc -c)"
}

# ensure_npm installs the npm dev tools from the lockfile when missing
# (the page's esbuild and happy-dom, the tests' workerd among them).
# A node_modules older than the lockfile (a dependency added since the
# last install) is installed again, so a test never runs on stale packages.
ensure_npm() {
	if [ ! -x node_modules/.bin/workerd ] || [ ! -x node_modules/.bin/esbuild ] || [ ! -d node_modules/happy-dom ] ||
		[ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
		log "npm ci"
		npm ci --no-audit --no-fund
	fi
}

# start_workerd DIR SITE: runs workerd on a free loopback port in its own
# process group and sets WORKERD_PGID and WORKERD_URL once /healthz answers.
start_workerd() {
	local dir=$1 site=$2 ctl
	ctl=$(mktemp)
	(cd "$dir" && exec setsid "$ROOT/node_modules/.bin/workerd" serve workerd.capnp \
		--socket-addr http=127.0.0.1:0 --directory-path "site=$site" --control-fd 3 3>"$ctl") &
	WORKERD_PGID=$!
	local port="" i
	for i in $(seq 1 100); do
		port=$(grep -o '"port":[0-9]*' "$ctl" | head -1 | cut -d: -f2 || true)
		[ -n "$port" ] && break
		kill -0 "$WORKERD_PGID" 2>/dev/null || break
		sleep 0.1
	done
	rm -f "$ctl"
	[ -n "$port" ] || { echo "workerd did not start" >&2; return 1; }
	WORKERD_URL="http://127.0.0.1:$port"
	for i in $(seq 1 100); do
		curl -fsS -o /dev/null "$WORKERD_URL/healthz" && return 0
		sleep 0.1
	done
	echo "workerd at $WORKERD_URL did not answer /healthz" >&2
	return 1
}

# start_hub runs the loopback stand-in of the Hugging Face Hub
# (tests/hub/server.mjs, serving testdata/hub/) in its own process group
# and sets HUB_PGID and HUB_URL.
start_hub() {
	local out i
	out=$(mktemp)
	setsid node tests/hub/server.mjs >"$out" &
	HUB_PGID=$!
	HUB_URL=""
	for i in $(seq 1 100); do
		HUB_URL=$(sed -n 's/^hub at //p' "$out")
		[ -n "$HUB_URL" ] && break
		sleep 0.1
	done
	rm -f "$out"
	[ -n "$HUB_URL" ] || { echo "the stand-in Hub did not start" >&2; return 1; }
}

stop_hub() {
	if [ -n "${HUB_PGID:-}" ]; then
		kill -- "-$HUB_PGID" 2>/dev/null || true
		wait "$HUB_PGID" 2>/dev/null || true
		HUB_PGID=
	fi
}

stop_workerd() {
	if [ -n "${WORKERD_PGID:-}" ]; then
		kill -- "-$WORKERD_PGID" 2>/dev/null || true
		wait "$WORKERD_PGID" 2>/dev/null || true
		WORKERD_PGID=
	fi
}

# test_worker runs the API's handler tests against the real worker on a
# local workerd, and checks that wrangler can bundle it for deployment.
test_worker() {
	ensure_npm
	build_worker
	local site=$ROOT/build/site
	WORKER_TMP=$(mktemp -d)
	local tmp=$WORKER_TMP
	if [ ! -f build/site/index.html ]; then
		echo "build/site/index.html is missing (./build.sh build): the static check serves a stand-in page from $tmp/site"
		mkdir -p "$tmp/site"
		printf '<!doctype html>\n<title>Throughput</title>\n' >"$tmp/site/index.html"
		site=$tmp/site
	fi
	trap 'stop_workerd; stop_hub; rm -rf "$WORKER_TMP"' EXIT
	log "worker: one Go instance, many requests (node --test wasm/worker/*.test.mjs)"
	"${NODE_TEST[@]}" wasm/worker/*.test.mjs
	log "worker end-to-end on workerd (its Hub: tests/hub/server.mjs on loopback)"
	start_hub
	export THROUGHPUT_HUB_URL=$HUB_URL THROUGHPUT_HUB_TOKEN=
	start_workerd build/worker "$site"
	unset THROUGHPUT_HUB_URL THROUGHPUT_HUB_TOKEN
	echo "workerd at $WORKERD_URL"
	THROUGHPUT_API_URL=$WORKERD_URL THROUGHPUT_STATIC_DIR=$site go test -count=1 \
		-run '^Test(Routes|Preflight|ETag|GetEvaluateEqualsEngine|PostEvaluateEqualsEngine|BodyLimitWithoutContentLength|StaticFiles|StaticFilesAreTheSiteOnly|StaticFilesCORS|SecurityHeaders|TheExpensiveRequestIsRefusedAtOnce|HealthzAnswersBesideTheExpensiveRequest|HubModel)$' ./api/
	log "OpenAPI: swagger-parser validate and redocly lint of the served /openapi.json"
	node scripts/openapi-check.mjs "$WORKERD_URL/openapi.json"
	stop_workerd
	stop_hub
	test_wrangler "$tmp"
	rm -rf "$tmp"
	trap - EXIT
}

# test_wrangler TMP: `wrangler deploy --dry-run` as a fresh clone would run
# it. The engine and the worker are removed first: wrangler's [build]
# command (wasm/worker/wrangler.toml) must build them again. The assets it
# reads must be exactly the files of build/site/ (no sources, no tests),
# with _headers applied rather than uploaded.
test_wrangler() {
	local tmp=$1 out=$1/wrangler.log uploaded site f
	log "wrangler deploy --dry-run: builds first ([build] command), uploads build/site/ only"
	rm -f build/site/throughput.wasm build/npm/throughput.wasm build/worker/app.wasm
	WRANGLER_LOG=debug WRANGLER_SEND_METRICS=false CI=true node_modules/.bin/wrangler deploy --dry-run \
		--config wasm/worker/wrangler.toml --outdir "$tmp/dist" </dev/null >"$out" 2>&1 ||
		{ cat "$out" >&2; echo "wrangler deploy --dry-run failed" >&2; return 1; }
	grep -q '^\[custom build\] Running: ' "$out" || { echo "wrangler ran no [build] command" >&2; return 1; }
	for f in build/site/throughput.wasm build/worker/app.wasm; do
		[ -s "$f" ] || { echo "wrangler's [build] did not write $f" >&2; return 1; }
	done
	uploaded=$(awk '/ from the assets directory / { on = 1; next } on && /^\// { print substr($0, 2); next } on { exit }' "$out" |
		grep -vx _headers | LC_ALL=C sort)
	site=$(cd build/site && find . -type f ! -name _headers | sed 's|^\./||' | LC_ALL=C sort)
	if [ "$uploaded" != "$site" ]; then
		echo "wrangler's assets are not build/site/'s files:" >&2
		diff <(echo "$site") <(echo "$uploaded") >&2 || true
		return 1
	fi
	if grep -E '(^|/)(test|tests|www|src)/|\.(go|test\.mjs|map)$' <<<"$uploaded"; then
		echo "wrangler would upload sources or tests (above)" >&2
		return 1
	fi
	for f in index.html widget.js throughput.wasm throughput.js wasm_exec.js; do
		grep -qx "$f" <<<"$uploaded" || { echo "wrangler would not upload $f" >&2; return 1; }
	done
	grep -q '^Ignoring asset: _headers' "$out" || { echo "wrangler would serve _headers as a file" >&2; return 1; }
	echo "wrangler uploads $(wc -l <<<"$uploaded") files of build/site/: $(echo $uploaded)"
	grep -E '^Total Upload' "$out"
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
	GOOS=js GOARCH=wasm go test -count=1 -exec="$WASM_EXEC_DIR/go_js_wasm_exec" ./hardware/... ./kvcache/... ./sched/... ./models/... ./calc/...
	# A bounded fuzz run (issue 16): custom figures, model_config integers
	# and rates; every answer must be an error naming a field or a finite
	# report. FUZZTIME=0 skips it.
	if [ "${FUZZTIME:-20s}" != 0 ]; then
		log "go test -fuzz FuzzEvaluateFigures (${FUZZTIME:-20s})"
		go test -run '^$' -fuzz '^FuzzEvaluateFigures$' -fuzztime "${FUZZTIME:-20s}" ./calc/evaluate/
	fi
}

# test_e2e runs the page and widget end-to-end tests (tests/e2e/*.test.mjs)
# in headless Debian Chromium through playwright-core, against tools/serve on
# a free port.
test_e2e() {
	log "browser end-to-end tests (tests/e2e)"
	ensure_npm
	if ! command -v "${CHROMIUM:-/usr/bin/chromium}" >/dev/null 2>&1; then
		log "installing Debian's chromium"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
	fi
	build_wasm
	mkdir -p build
	go build -o build/serve ./tools/serve
	local out=build/serve.out pid url=""
	setsid build/serve -quiet -dir build/site -addr 127.0.0.1:0 >"$out" 2>&1 &
	pid=$!
	# shellcheck disable=SC2064 # expand pid now
	trap "kill -- -$pid 2>/dev/null || kill $pid 2>/dev/null || true" EXIT
	for _ in $(seq 50); do
		url=$(sed -n 's/^serving .* at \(http:[^ ]*\)$/\1/p' "$out")
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { cat "$out" >&2; echo "tools/serve did not start" >&2; return 1; }
	BASE_URL=$url "${NODE_TEST[@]}" tests/e2e/*.test.mjs
	kill -- -"$pid" 2>/dev/null || true
	trap - EXIT
}

# test_js runs the JavaScript module's suite (www/test, node's built-in
# runner) against a fresh build of the package (build/npm).
test_js() {
	ensure_npm # www/test/workerd.test.mjs runs the npm workerd
	log "go vet (GOOS=js GOARCH=wasm) ./wasm/js/..."
	GOOS=js GOARCH=wasm go vet ./wasm/js/...
	build_wasm
	log "the browser engine's size budget: 1.0 MB gzip (scripts/wasm-size.sh)"
	VARIANTS=0 scripts/wasm-size.sh
	log "node --test www/test/*.test.mjs"
	"${NODE_TEST[@]}" www/test/*.test.mjs
}

# test_pack checks build/npm/ (./build.sh build assembles it: test_js runs
# first) as the npm package: `npm publish --dry-run` (what would be
# uploaded), then packs it, installs the tarball into a temporary project,
# imports and evaluates from it and checks the file list
# (scripts/pack-check.mjs), and type-checks a consumer of its declarations
# (scripts/pack-types.ts, tsc --strict) and the docs' code examples
# (scripts/docs-types.mjs, tsc --strict --checkJs).
test_pack() (
	[ -f build/npm/throughput.wasm ] || build_wasm
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	log "npm publish --dry-run build/npm/"
	(cd build/npm && npm publish --dry-run --json --ignore-scripts --offline 2>"$tmp/publish.err") >"$tmp/publish.json" ||
		{ cat "$tmp/publish.err" >&2; return 1; }
	log "npm pack build/npm/, install the tarball, import @modelrefs/throughput"
	(cd build/npm && npm pack --silent --pack-destination "$tmp" >/dev/null)
	mkdir "$tmp/app"
	cp scripts/pack-check.mjs "$tmp/app/check.mjs"
	cp scripts/pack-types.ts "$tmp/app/check-types.ts"
	cd "$tmp/app"
	printf '{"name":"pack-check","private":true,"type":"module"}\n' >package.json
	npm install "$tmp"/modelrefs-throughput-*.tgz --no-audit --no-fund --offline --silent
	PUBLISH_JSON=$tmp/publish.json node check.mjs
	log "tsc --strict: a consumer of the package's declarations"
	"$ROOT/node_modules/.bin/tsc" --noEmit --strict --target es2022 --module nodenext --moduleResolution nodenext \
		--lib es2022,dom check-types.ts
	echo "tsc: the declarations type-check (ModelID, HardwareID, the element)"
	log "tsc --strict: the examples of docs/js-module.md and docs/embedding.md (scripts/docs-types.mjs)"
	node "$ROOT/scripts/docs-types.mjs" docs-examples >/dev/null
	"$ROOT/node_modules/.bin/tsc" --noEmit --strict --allowJs --checkJs --target es2022 --module nodenext \
		--moduleResolution nodenext --lib es2022,dom docs-examples/*
	echo "tsc: the docs' $(ls docs-examples | grep -vc '\.d\.ts$') examples type-check"
)

cmd=${1:-help}
case "$cmd" in
build)
	build_wasm
	;;
serve)
	require_free_port "${PORT:-8080}"
	# The prerendered page needs happy-dom, the bundles esbuild: on a fresh
	# clone npm ci installs them from the lockfile.
	if command -v npm >/dev/null; then
		ensure_npm || echo "npm ci failed: the page is served unbundled and waits for the engine" >&2
	else
		echo "npm not found: the page is served unbundled and waits for the engine (install Node.js and npm)" >&2
	fi
	build_wasm
	go build "${GO_BUILD_FLAGS[@]}" -o build/serve ./tools/serve
	# exec: the server takes this script's process id, so `kill PID` and
	# Ctrl-C stop it, and no child is left holding the port.
	exec build/serve -dir build/site -addr "127.0.0.1:${PORT:-8080}"
	;;
worker)
	[ "${2:-serve}" != serve ] || require_free_port "${PORT:-8787}"
	build_worker
	if [ "${2:-serve}" = serve ]; then
		ensure_npm
		[ -f build/site/index.html ] || build_wasm
		echo "serving the API and build/site/ on http://127.0.0.1:${PORT:-8787}"
		cd build/worker
		THROUGHPUT_HUB_URL=${THROUGHPUT_HUB_URL:-https://huggingface.co} exec "$ROOT/node_modules/.bin/workerd" serve workerd.capnp \
			--socket-addr "http=127.0.0.1:${PORT:-8787}" --directory-path "site=$ROOT/build/site"
	fi
	;;
generate)
	case "${2:-}" in
	"" | --golden) ;;
	*)
		echo "unknown option for generate: $2 (want --golden or nothing)" >&2
		exit 2
		;;
	esac
	log "go generate ./..."
	go generate ./...
	if [ "${2:-}" = --golden ]; then
		log "calc/testdata/golden (go test ./calc -run TestGolden -update)"
		go test -count=1 -run '^TestGolden$' ./calc -update
	fi
	;;
test)
	log "no build output is tracked (tools/checktracked)"
	go run ./tools/checktracked
	log "generated files are current (scripts/check-generated.sh)"
	scripts/check-generated.sh
	log "a fresh clone of HEAD regenerates them (scripts/check-fresh-generate.sh)"
	scripts/check-fresh-generate.sh
	test_go
	test_js
	test_pack
	test_e2e
	log "./build.sh serve: the real page, stopped by its PID and by Ctrl-C (scripts/serve-check.sh)"
	scripts/serve-check.sh
	log "./build.sh serve and worker on a taken port: an error naming it, no URL (scripts/port-taken-check.sh)"
	scripts/port-taken-check.sh
	test_worker
	;;
bench)
	go test -run '^$' -bench . -benchmem -count "${COUNT:-10}" ./calc/... ./hardware/... ./kvcache/... ./sched/... ./models/... | go run ./tools/benchmedian
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
