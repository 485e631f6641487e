#!/usr/bin/env bash
# Sizes of the browser engines: raw, gzip -9 and brotli (quality 11, node's
# zlib) of build/npm/throughput.wasm (the light engine, main package
# wasm/js/light) as ./build.sh build makes it (the site serves the same
# file), against the budget of 1.0 MB (10^6 bytes) gzip, and of
# build/npm/throughput-planner.wasm (the full engine, wasm/js/full, outside
# the budget); then the light engine's build variants, to show what each
# option buys. Prints only; exits 1 when the light engine is over budget.
#   scripts/wasm-size.sh            # the two engines and the variants
#   VARIANTS=0 scripts/wasm-size.sh # the two engines only
set -euo pipefail
cd "$(dirname "$0")/.."
BUDGET_GZIP_BYTES=1000000

sizes() { # FILE -> "raw gzip brotli"
	local raw gz br
	raw=$(stat -c %s "$1")
	gz=$(gzip -9 -c "$1" | wc -c)
	br=$(node -e 'const z=require("zlib"),b=require("fs").readFileSync(process.argv[1]);process.stdout.write(String(z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11,[z.constants.BROTLI_PARAM_SIZE_HINT]:b.length}}).length))' "$1")
	echo "$raw $gz $br"
}
row() { printf '%-44s %10s %10s %10s\n' "$@"; }

[ -f build/npm/throughput.wasm ] || ./build.sh build >/dev/null
row "file (bytes)" raw "gzip -9" brotli
read -r raw gz br < <(sizes build/npm/throughput.wasm)
row "build/npm/throughput.wasm (./build.sh build)" "$raw" "$gz" "$br"
read -r praw pgz pbr < <(sizes build/npm/throughput-planner.wasm)
row "build/npm/throughput-planner.wasm (full)" "$praw" "$pgz" "$pbr"
read -r jraw jgz jbr < <(sizes build/npm/wasm_exec.js)
row "build/npm/wasm_exec.js" "$jraw" "$jgz" "$jbr"
read -r mraw mgz mbr < <(sizes build/npm/throughput.js)
row "build/npm/throughput.js" "$mraw" "$mgz" "$mbr"
# The model catalog, fetched beside the engine (the engine is built without it).
read -r craw cgz cbr < <(sizes build/npm/catalog.json)
row "build/npm/catalog.json (not in the budget)" "$craw" "$cgz" "$cbr"

if [ "${VARIANTS:-1}" != 0 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	variant() { # NAME GO-BUILD-ARGS... (of the light engine, wasm/js/light)
		local name=$1
		shift
		GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false "$@" -o "$tmp/v.wasm" ./wasm/js/light
		read -r vraw vgz vbr < <(sizes "$tmp/v.wasm")
		row "$name" "$vraw" "$vgz" "$vbr"
	}
	echo
	variant "variant: no -ldflags (symbols, DWARF)"
	variant "variant: -ldflags='-s -w'" -ldflags='-s -w -buildid='
	variant "variant: -s -w, inlining only outside this module" -ldflags='-s -w -buildid=' -gcflags='github.com/modelrefs/throughput/...=-l'

	# Floors: the Go runtime with syscall/js alone; what encoding/json
	# (which imports fmt) would add; and the engine without this bridge
	# (calc.ParseRequest + Evaluate; internal/jsonx decodes the JSON).
	floor() { # NAME MAIN-BODY IMPORTS
		mkdir -p "$tmp/$1"
		printf 'module floor\n\ngo 1.26\n\nrequire github.com/modelrefs/throughput v0.0.0\n\nreplace github.com/modelrefs/throughput => %s\n' "$PWD" >"$tmp/$1/go.mod"
		printf 'package main\n\nimport (\n%s\n)\n\nfunc main() {\n%s\n}\n' "$3" "$2" >"$tmp/$1/main.go"
		(cd "$tmp/$1" && GOFLAGS=-mod=mod GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false -ldflags='-s -w -buildid=' -o "$tmp/f.wasm" .)
		read -r fraw fgz fbr < <(sizes "$tmp/f.wasm")
		row "$1" "$fraw" "$fgz" "$fbr"
	}
	floor "floor: runtime + syscall/js" \
		'js.Global().Set("x", "y")' \
		'"syscall/js"'
	floor "floor: + encoding/json (not used)" \
		'var v map[string]any; _ = json.Unmarshal([]byte(js.Global().Get("x").String()), &v); b, _ := json.Marshal(v); js.Global().Set("x", string(b))' \
		'"encoding/json"; "syscall/js"'
	floor "floor: + the engine (calc), no bridge" \
		'r, _ := calc.ParseRequest([]byte(js.Global().Get("x").String())); rep, _ := calc.Evaluate(r); js.Global().Set("x", rep.Fits)' \
		'"syscall/js"; "github.com/modelrefs/throughput/calc"'
fi

echo
if [ "$gz" -le "$BUDGET_GZIP_BYTES" ]; then
	echo "budget: gzip $gz <= $BUDGET_GZIP_BYTES bytes: ok"
else
	echo "budget: gzip $gz > $BUDGET_GZIP_BYTES bytes: OVER by $((gz - BUDGET_GZIP_BYTES))"
	exit 1
fi
