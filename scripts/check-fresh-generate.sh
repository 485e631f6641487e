#!/usr/bin/env bash
# Fails unless a fresh clone regenerates every generated file byte for byte:
# it clones HEAD of ROOT (committed files only) into a temporary directory
# with nothing beside it (no ../shared), runs `./build.sh generate` there
# (with --golden: the golden reports too), and requires `git status
# --porcelain` to be empty afterwards.
#
# Usage: scripts/check-fresh-generate.sh [--golden] [ROOT]   (default: this repository)
#
# Like scripts/check-generated.sh, which `./build.sh test` runs on the
# working tree, it needs the Go module and build caches of this machine and
# no network once they hold the module's dependencies; ROOT is never
# written. It checks what check-generated.sh cannot: that the committed
# tree, not the working tree, is enough.
set -euo pipefail

golden=()
if [ "${1:-}" = --golden ]; then
	golden=(--golden)
	shift
fi
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
head=$(git -C "$root" rev-parse HEAD)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-fresh-generate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
clone=$tmp/repo

git clone -q --no-checkout "$root" "$clone"
git -C "$clone" checkout -q --detach "$head"
# Nothing beside the clone: a generator that reached out of the repository
# (../shared) would fail or write something else.
if [ -n "$(ls -A "$tmp" | grep -vx repo || true)" ]; then
	echo "check-fresh-generate: $tmp holds more than the clone" >&2
	exit 1
fi

start=$(date +%s)
if ! (cd "$clone" && ./build.sh generate "${golden[@]}") >"$tmp/generate.log" 2>&1; then
	cat "$tmp/generate.log" >&2
	echo "check-fresh-generate: ./build.sh generate${golden:+ --golden} failed in a fresh clone of $head (output above)" >&2
	exit 1
fi
secs=$(($(date +%s) - start))

changed=$(git -C "$clone" status --porcelain --untracked-files=all)
if [ -n "$changed" ]; then
	{
		echo "check-fresh-generate: ./build.sh generate${golden:+ --golden} in a fresh clone of $head changed:"
		echo "$changed"
		git -C "$clone" diff --stat
		git -C "$clone" diff | head -n 40 | cut -c -200
	} >&2
	exit 1
fi
echo "check-fresh-generate: a fresh clone of $head regenerates every generated file${golden:+ and the golden reports} unchanged (./build.sh generate${golden:+ --golden}: ${secs} s)"
