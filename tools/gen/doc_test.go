package gen_test

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docItem is one generator doc.go lists: "  - NAME (FILE, ...): ...".
var docItem = regexp.MustCompile(`(?m)^\s*- ([^(:\n]+?) \(([^)]+)\):`)

// docItems reads doc.go's package comment: each listed generator's name
// and the files of its go:generate directives.
func docItems(t *testing.T) map[string][]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	require.NotNil(t, f.Doc, "doc.go has no package comment")
	items := map[string][]string{}
	for _, m := range docItem.FindAllStringSubmatch(f.Doc.Text(), -1) {
		for _, file := range strings.Split(m[2], ",") {
			items[m[1]] = append(items[m[1]], strings.TrimSpace(file))
		}
	}
	return items
}

// directive is one //go:generate line: the file it is in and its command,
// with a `go run` program's path made relative to the repository root
// ("tools/calibrate -bands -o ...") and tools/gen/ left off ("tape -o ...").
type directive struct{ file, command string }

// directives reads every //go:generate directive of the repository's Go
// files, in the directories go generate ./... visits.
func directives(t *testing.T, root string) []directive {
	t.Helper()
	var out []directive
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" ||
				name == "node_modules" || (name == "build" && filepath.Dir(p) == root)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "//go:generate ")
			if !ok {
				continue
			}
			args := strings.Fields(line)
			if len(args) >= 3 && args[0] == "go" && args[1] == "run" && strings.HasPrefix(args[2], ".") {
				prog := path.Join(path.Dir(rel), args[2])
				prog = strings.TrimPrefix(prog, "tools/gen/")
				args = append([]string{prog}, args[3:]...)
			}
			out = append(out, directive{rel, strings.Join(args, " ")})
		}
		return sc.Err()
	})
	require.NoError(t, err)
	return out
}

// TestDocListsEveryGenerator: doc.go names every program under tools/gen
// and every //go:generate directive of the repository (the program, with
// the flags that make it a generator, and the file the directive is in),
// and names nothing that no directive runs.
func TestDocListsEveryGenerator(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	items := docItems(t)
	dirs := directives(t, root)
	require.NotEmpty(t, dirs, "no //go:generate directive found under %s", root)

	// An item names a directive when the directive's command is the item's
	// name or starts with it and a space.
	names := func(item string, d directive) bool {
		return d.command == item || strings.HasPrefix(d.command, item+" ")
	}
	for _, d := range dirs {
		var found []string
		for item, files := range items {
			if names(item, d) {
				found = append(found, item)
				assert.Contains(t, files, d.file, "doc.go lists %s without the file of its directive, %s", item, d.file)
			}
		}
		assert.Len(t, found, 1, "doc.go should list the generator of %s's //go:generate %s once, as \"- NAME (%s): ...\"", d.file, d.command, d.file)
	}

	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	programs := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		programs++
		assert.Contains(t, items, e.Name(), "doc.go does not list tools/gen/%s", e.Name())
		run := false
		for _, d := range dirs {
			run = run || names(e.Name(), d)
		}
		assert.True(t, run, "no //go:generate directive runs tools/gen/%s", e.Name())
	}
	assert.GreaterOrEqual(t, programs, 8, "the programs under tools/gen")

	for item, files := range items {
		for _, file := range files {
			run := false
			for _, d := range dirs {
				run = run || (d.file == file && names(item, d))
			}
			assert.True(t, run, "doc.go lists %s (%s), but no //go:generate directive in %s runs it", item, file, file)
		}
	}
}
