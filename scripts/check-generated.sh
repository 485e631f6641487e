#!/usr/bin/env bash
# Fails when a generated file is stale: when `./build.sh generate` (go
# generate ./...: tools/gen/*) would change or add a file.
#
# Usage: scripts/check-generated.sh [ROOT]   (default: this repository)
#
# It copies ROOT's working tree as it is (tracked files with their working
# changes, and untracked files that are not ignored) into a temporary
# directory, regenerates there, and compares every file with ROOT's; ROOT
# itself is never written. The copy needs the Go module and build caches
# (the same machine's), and nothing outside it: the error-band table
# (calc/bands/bands_gen.go) is computed from the validation cases in
# calc/validation/testdata. Not node. The golden reports
# (./build.sh generate --golden) are not checked here: TestGolden is their
# check. scripts/check-fresh-generate.sh does the same from a git clone of
# HEAD.
set -euo pipefail

root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-generated.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
mkdir "$tree"

# The tree as it is: a tracked file deleted in the working tree is left out.
(cd "$root" && git ls-files -z --cached --others --exclude-standard) |
	while IFS= read -r -d '' f; do
		if [ -e "$root/$f" ] || [ -L "$root/$f" ]; then printf '%s\0' "$f"; fi
	done |
	tar -C "$root" --null --no-recursion -T - -cf - | tar -C "$tree" -xf -

if ! "$tree/build.sh" generate >"$tmp/generate.log" 2>&1; then
	cat "$tmp/generate.log" >&2
	echo "check-generated: ./build.sh generate failed on a copy of $root (output above)" >&2
	exit 1
fi

# Every file of the copy, generated or not, against ROOT's.
stale=()
while IFS= read -r -d '' f; do
	f=${f#./}
	if ! cmp -s "$tree/$f" "$root/$f"; then
		stale+=("$f")
	fi
done < <(cd "$tree" && find . \( -type f -o -type l \) -print0 | sort -z)

if [ ${#stale[@]} -gt 0 ]; then
	{
		echo "check-generated: stale generated files (./build.sh generate rewrites them):"
		for f in "${stale[@]}"; do
			if [ -e "$root/$f" ]; then
				echo "  $f"
			else
				echo "  $f (missing)"
			fi
		done
		# The start of each difference, lines cut at 200 characters.
		for f in "${stale[@]}"; do
			[ -e "$root/$f" ] || continue
			diff -u --label "$f (working tree)" --label "$f (regenerated)" "$root/$f" "$tree/$f" | head -n 20 | cut -c -200 || true
		done
		echo "check-generated: run ./build.sh generate (go generate ./...) and commit the result"
	} >&2
	exit 1
fi
echo "check-generated: generated files are current"
