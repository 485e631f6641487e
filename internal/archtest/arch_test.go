package archtest

import (
	"bufio"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/modelrefs/throughput"

// row is one package of the map: its path (relative to the module), its
// layer and the module packages it says it imports.
type row struct {
	path, layer string
	imports     []string
}

// layers orders the map's layers: a package may import only packages of
// its own layer or of a layer before it.
var layers = []string{"leaf", "spec", "engine", "front", "door", "tool"}

// readMap reads the package table of docs/architecture.md: rows of
// | `path` | layer | owns | `imports`, ... |.
func readMap(t *testing.T) map[string]row {
	f, err := os.Open("../../docs/architecture.md")
	require.NoError(t, err)
	defer f.Close()
	out := map[string]row{}
	tick := regexp.MustCompile("`([^`]+)`")
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) != 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		r := row{path: strings.Trim(strings.TrimSpace(cells[1]), "`"), layer: strings.TrimSpace(cells[2])}
		for _, m := range tick.FindAllStringSubmatch(cells[4], -1) {
			r.imports = append(r.imports, m[1])
		}
		sort.Strings(r.imports)
		require.NotContains(t, out, r.path, "docs/architecture.md lists %s twice", r.path)
		out[r.path] = r
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out, "no package rows in docs/architecture.md")
	return out
}

// packages returns every Go package of the module (a folder with a
// non-test .go file, outside testdata and node_modules) and the module
// packages its non-test files import, whatever their build tags; and
// the folders whose files import the given outside paths.
func packages(t *testing.T, root string, watch ...string) (map[string][]string, map[string][]string) {
	pkgs, watched := map[string][]string{}, map[string][]string{}
	err := walkGo(root, func(path string) error {
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		set := map[string]bool{}
		for _, p := range pkgs[rel] {
			set[p] = true
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, w := range watch {
				if p == w || strings.HasPrefix(p, w+"/") {
					watched[w] = append(watched[w], rel)
				}
			}
			if p != module && !strings.HasPrefix(p, module+"/") {
				continue
			}
			set[strings.TrimPrefix(p, module+"/")] = true
		}
		list := []string{}
		for p := range set {
			list = append(list, p)
		}
		sort.Strings(list)
		pkgs[rel] = list
		return nil
	})
	require.NoError(t, err)
	return pkgs, watched
}

// The map in docs/architecture.md is the code's: every package has a row,
// every row is a package, and each row names exactly the module packages
// its package imports.
func TestMapIsTheCode(t *testing.T) {
	doc := readMap(t)
	code, _ := packages(t, "../..")
	for p, imports := range code {
		r, ok := doc[p]
		if !assert.True(t, ok, "package %s is not in docs/architecture.md", p) {
			continue
		}
		assert.Equal(t, imports, append([]string{}, r.imports...), "docs/architecture.md: the imports of %s", p)
	}
	for p := range doc {
		assert.Contains(t, code, p, "docs/architecture.md lists %s, which is no package", p)
	}
}

// Imports run one way: a package imports only its own layer or the
// layers before it (leaf, spec, engine, front, door, tool).
func TestImportsRunOneWay(t *testing.T) {
	doc := readMap(t)
	rank := map[string]int{}
	for i, l := range layers {
		rank[l] = i
	}
	for p, r := range doc {
		lr, ok := rank[r.layer]
		if !assert.True(t, ok, "%s: unknown layer %q (one of %v)", p, r.layer, layers) {
			continue
		}
		for _, imp := range r.imports {
			ir, ok := doc[imp]
			if !ok {
				continue // TestMapIsTheCode names it
			}
			assert.LessOrEqual(t, rank[ir.layer], lr, "%s (%s) imports %s (%s): imports run one way", p, r.layer, imp, ir.layer)
		}
	}
}

// Only the WebAssembly mains under wasm/ touch the JavaScript host.
func TestOnlyWasmImportsTheHost(t *testing.T) {
	_, watched := packages(t, "../..", "syscall/js", "github.com/syumai/workers")
	for w, dirs := range watched {
		for _, d := range dirs {
			assert.True(t, d == "wasm" || strings.HasPrefix(d, "wasm/"), "%s imports %s", d, w)
		}
	}
}

// The light engine leaves capabilities out by not importing them, not by
// build tags: no library package selects features with a tag (a file may
// still say which platform it builds for: js && wasm).
func TestNoFeatureTagsInLibraries(t *testing.T) {
	tag := regexp.MustCompile(`(?m)^//go:build (.*)$`)
	err := walkGo("../..", func(path string) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range tag.FindAllStringSubmatch(string(b), -1) {
			expr := m[1]
			for _, w := range regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_.]*`).FindAllString(expr, -1) {
				switch w {
				case "js", "wasm", "wasip1", "linux", "darwin", "windows", "unix", "stockbaseline":
				default:
					assert.Fail(t, "feature build tag", "%s: //go:build %s selects features with tag %q", path, expr, w)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
}

// walkGo calls fn with the path of every .go file under root, outside
// testdata, node_modules, build and .git.
func walkGo(root string, fn func(path string) error) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", "build", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		return fn(path)
	})
}
