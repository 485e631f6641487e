package hardware

import (
	"slices"
	"strings"

	"github.com/modelrefs/throughput/internal/strsort"
)

// Lookup returns the catalog entry that name designates. Matching is
// forgiving:
//
//   - case, punctuation and token order do not matter ("SXM H100" equals
//     "h100-sxm");
//   - vendor and marketing words are ignored (nvidia, geforce, tesla, amd,
//     instinct, intel, google, cloud, apple, gpu, ...), as are memory-type
//     words (hbm3, gddr6x, ...);
//   - "80GB", "80 GB", "80gb", "80G" and "80GiB" are the same token; so are
//     sxm, sxm4 and sxm5;
//   - a name matching an entry's id, name or an alias exactly wins;
//   - otherwise the name may be a subset of one entry's words ("RTX 4090 24GB"
//     and "4090" both find rtx-4090).
//
// When a subset matches several entries that share their memory capacity and
// differ only in form factor, the SXM one is taken: "A100 80GB" is
// a100-sxm-80gb. When they differ in memory capacity the name is ambiguous:
// "A100" (40 GB or 80 GB, PCIe or SXM) returns a *LookupError wrapping
// ErrAmbiguous that lists the candidates, since guessing would halve or
// double the KV-cache budget. "H100" and "H200" are explicit aliases of their
// SXM parts, the ones clouds rent. A name that matches nothing returns a
// *LookupError wrapping ErrUnknown, with the nearest id as a suggestion.
//
// The returned Accelerator is a copy; its Aliases and Sources slices are
// shared with the catalog and must be treated as read-only. Lookup of a
// canonical id is a single map access.
func Lookup(name string) (Accelerator, error) {
	if i, ok := index.exact[name]; ok {
		return catalog[i], nil
	}
	if len(name) > MaxNameBytes {
		// No accelerator is called that: refuse it without the fuzzy
		// match, whose edit distances cost len(name) x len(key) each
		// (a 60 KB name took 160 ms).
		return Accelerator{}, &LookupError{Input: name, Err: ErrUnknown}
	}
	toks := normalize(name)
	if len(toks) == 0 {
		return Accelerator{}, &LookupError{Input: name, Err: ErrUnknown}
	}
	sorted := sortedSet(toks)
	if i, ok := index.byKey[strings.Join(sorted, " ")]; ok {
		return catalog[i], nil
	}
	matches := index.subsetMatches(sorted)
	switch len(matches) {
	case 0:
		return Accelerator{}, &LookupError{Input: name, Err: ErrUnknown, Candidates: index.suggest(toks, sorted)}
	case 1:
		return catalog[matches[0]], nil
	}
	if i, ok := preferSXM(matches); ok {
		return catalog[i], nil
	}
	ids := make([]string, len(matches))
	for k, i := range matches {
		ids[k] = catalog[i].ID
	}
	return Accelerator{}, &LookupError{Input: name, Err: ErrAmbiguous, Candidates: ids}
}

// preferSXM returns the single SXM entry among matches when all matches have
// the same memory capacity.
func preferSXM(matches []int) (int, bool) {
	sxm := -1
	for _, i := range matches {
		if catalog[i].MemoryBytes != catalog[matches[0]].MemoryBytes {
			return 0, false
		}
		if slices.Contains(index.entryKeys[i][0], "sxm") {
			if sxm >= 0 {
				return 0, false
			}
			sxm = i
		}
	}
	return sxm, sxm >= 0
}

// lookupIndex is built once at package initialisation.
type lookupIndex struct {
	// exact maps every id, name and alias as written, lower-cased and
	// upper-cased to its catalog position: the fast path for callers that
	// hold a canonical spelling.
	exact map[string]int
	// byKey maps the sorted, space-joined token set of every id, name and
	// alias to its entry.
	byKey map[string]int
	// entryKeys[i] lists entry i's token sets (sorted), id first.
	entryKeys [][][]string
	// squashed[i] lists entry i's id, name and aliases as normalized
	// tokens run together in their written order, for edit distances.
	squashed [][]string
}

var index, indexConflicts = buildIndex(catalog)

// buildIndex indexes entries. conflicts lists every token key that two
// different entries claim (a catalog bug; the test requires none); the
// first entry keeps the key.
func buildIndex(entries []Accelerator) (idx *lookupIndex, conflicts []string) {
	idx = &lookupIndex{
		exact:     make(map[string]int, 2*len(entries)),
		byKey:     make(map[string]int, 4*len(entries)),
		entryKeys: make([][][]string, len(entries)),
		squashed:  make([][]string, len(entries)),
	}
	for i, a := range entries {
		for _, s := range append([]string{a.ID, a.Name}, a.Aliases...) {
			for _, v := range [...]string{s, strings.ToLower(s), strings.ToUpper(s)} {
				if _, taken := idx.exact[v]; !taken {
					idx.exact[v] = i
				}
			}
		}
		// A name's parenthesized remark ("(per GCD)", "(AWS G5)") is
		// description, not identity: the full name matches only exactly,
		// the name without its remark also as a subset.
		claim := func(sorted []string) {
			key := strings.Join(sorted, " ")
			if j, ok := idx.byKey[key]; ok && j != i {
				conflicts = append(conflicts, key+" ("+entries[j].ID+", "+a.ID+")")
				return
			}
			idx.byKey[key] = i
		}
		if toks := normalize(a.Name); len(toks) > 0 {
			claim(sortedSet(toks))
		}
		spellings := append([]string{a.ID, stripParens(a.Name)}, a.Aliases...)
		for _, s := range spellings {
			toks := normalize(s)
			if len(toks) == 0 {
				continue
			}
			sorted := sortedSet(toks)
			idx.entryKeys[i] = append(idx.entryKeys[i], sorted)
			idx.squashed[i] = append(idx.squashed[i], strings.Join(toks, ""))
			claim(sorted)
		}
	}
	return idx, conflicts
}

// subsetMatches returns, in catalog order, the entries with a token set that
// contains every token of q (both sorted).
func (idx *lookupIndex) subsetMatches(q []string) []int {
	var out []int
	for i, keys := range idx.entryKeys {
		for _, k := range keys {
			if isSubset(q, k) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// suggest returns the id of the entry nearest to an unknown name, or nil
// when nothing is near. Nearest: most shared tokens (Jaccard index), then
// smallest edit distance between the names run together; with no shared
// token the edit distance must be at most a third of the name's length.
func (idx *lookupIndex) suggest(toks, sorted []string) []string {
	q := strings.Join(toks, "")
	best, bestJ, bestD := -1, 0.0, 1<<30
	for i := range idx.entryKeys {
		j := 0.0
		for _, k := range idx.entryKeys[i] {
			j = max(j, jaccard(sorted, k))
		}
		d := 1 << 30
		for _, s := range idx.squashed[i] {
			d = min(d, editDistance(q, s))
		}
		if j > bestJ || (j == bestJ && d < bestD) {
			best, bestJ, bestD = i, j, d
		}
	}
	if best < 0 || (bestJ == 0 && bestD > max(1, len(q)/3)) {
		return nil
	}
	return []string{catalog[best].ID}
}

// MaxNameBytes bounds the names Lookup matches loosely, in bytes: the
// longest name in the catalog ("NVIDIA RTX 6000 Ada Generation 48GB") has
// 35, and a marketing name with its memory type and nvidia-smi's words
// added stays far below 128.
const MaxNameBytes = 128

// noiseWords are dropped from names: vendor and product-line words, and
// memory types that nvidia-smi and marketing names add.
var noiseWords = map[string]bool{
	"nvidia": true, "geforce": true, "tesla": true, "quadro": true,
	"amd": true, "instinct": true, "radeon": true,
	"intel": true, "habana": true,
	"google": true, "cloud": true,
	"apple": true, "silicon": true,
	"gpu": true, "tensor": true, "core": true, "accelerator": true, "generation": true,
	"blackwell": true,
	"hbm":       true, "hbm2": true, "hbm2e": true, "hbm3": true, "hbm3e": true,
	"gddr6": true, "gddr6x": true, "gddr7": true, "lpddr5": true, "lpddr5x": true,
	"ecc": true, "oam": true,
}

// normalize splits name into lower-case alphanumeric tokens in written
// order, drops noise words and rewrites memory sizes ("80", "GB" and "80G"
// become "80gb") and SXM generations ("sxm5" becomes "sxm").
func normalize(name string) []string {
	out := make([]string, 0, 6)
	start := -1
	for i := 0; i <= len(name); i++ {
		alnum := i < len(name) && isAlnum(name[i])
		if alnum && start < 0 {
			start = i
		}
		if alnum || start < 0 {
			continue
		}
		out = appendToken(out, strings.ToLower(name[start:i]))
		start = -1
	}
	return out
}

func appendToken(out []string, t string) []string {
	switch {
	case noiseWords[t]:
		return out
	case t == "gb" || t == "gib" || t == "g":
		if n := len(out); n > 0 && isDigits(out[n-1]) {
			out[n-1] += "gb"
		}
		return out
	case strings.HasPrefix(t, "sxm") && isDigits(t[3:]):
		return append(out, "sxm")
	case strings.HasPrefix(t, "rtx") && len(t) > 3 && isDigits(t[3:]):
		return append(out, "rtx", t[3:])
	}
	for _, suffix := range [...]string{"gib", "gb", "g"} {
		if n := strings.TrimSuffix(t, suffix); len(n) < len(t) && len(n) > 0 && isDigits(n) {
			return append(out, n+"gb")
		}
	}
	return append(out, t)
}

// stripParens removes every "(...)" group from s.
func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '(':
			depth++
		case s[i] == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// sortedSet returns toks sorted with duplicates removed (a new slice).
func sortedSet(toks []string) []string {
	s := slices.Clone(toks)
	strsort.Strings(s)
	return slices.Compact(s)
}

// isSubset reports whether every element of sorted a is in sorted b.
func isSubset(a, b []string) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

// jaccard is |a ∩ b| / |a ∪ b| for sorted sets.
func jaccard(a, b []string) float64 {
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
