package main

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The first bytes of real files of each kind (their formats' magic
// numbers, then NULs as their headers have).
var (
	elfHead   = []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x3e\x00")
	machoHead = []byte{0xcf, 0xfa, 0xed, 0xfe, 0x07, 0x00, 0x00, 0x01, 0x03, 0x00, 0x00, 0x00}
	peHead    = append([]byte("MZ\x90\x00\x03\x00\x00\x00"), make([]byte, 56)...)
	wasmHead  = []byte("\x00asm\x01\x00\x00\x00")
	arHead    = []byte("!<arch>\n__.PKGDEF       0           0     0     644     ")
	pngHead   = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
)

func TestClassify(t *testing.T) {
	t.Parallel()
	text := []byte("package calc\n")
	tests := []struct {
		name string
		file string
		size int64
		head []byte
		want string // a part of the reason; "" when the file may be tracked
	}{
		{"go source", "calc/calc.go", 13, text, ""},
		{"large go source", "models/catalog_data.go", 3 << 20, text, ""},
		{"large json data", "calc/validation/testdata/public-cases.json", 5 << 20, []byte("[{\"id\": 1}"), ""},
		{"fuzz corpus without extension", "internal/jsonx/testdata/fuzz/FuzzUnmarshalAny/bfc00fb2d019fd18", 40, []byte("go test fuzz v1\n"), ""},
		{"text starting with MZ", "notes.txt", 9, []byte("MZ is a name"), ""},
		{"png with NULs", "www/page/icon.png", 2000, pngHead, ""},
		{"exactly 2 MiB, no extension", "LICENSE", 2 << 20, text, ""},
		{"ELF at the root", "worker", 10702402, elfHead, "ELF"},
		{"ELF named as an image", "www/page/icon.png", 4000, elfHead, "ELF"},
		{"Mach-O", "tools/serve/serve", 5000, machoHead, "Mach-O"},
		{"PE", "serve.exe", 5000, peHead, "PE"},
		{"wasm", "www/module/throughput.wasm", 3000, wasmHead, "WebAssembly"},
		{"ar archive", "calc.a", 3000, arHead, "ar archive"},
		{"unknown binary", "data.bin", 100, []byte("abc\x00def"), "NUL byte"},
		{"binary without extension", "blob", 100, []byte("abc\x00def"), "without an extension"},
		{"one byte over 2 MiB, unknown extension", "dump.bin", 2<<20 + 1, text, "over the 2 MB"},
		{"over 2 MiB, no extension", "core", 3 << 20, text, "without an extension"},
		{"large image", "big.png", 3 << 20, pngHead, "not source or data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := classify(tt.file, tt.size, tt.head)
			if tt.want == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tt.want)
			}
		})
	}
}

// git runs git in dir and fails the test if it fails.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, data, 0o644))
}

// TestCheckFailsOnPlantedFiles: in a fresh repository the check passes on
// source and data (a 2.5 MB JSON file among them); with a planted ELF
// binary and a 3 MB file that is not source or data it exits 1 and names
// both, and only them; removed from the index, they no longer count.
func TestCheckFailsOnPlantedFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	t.Parallel()
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"))
	write(t, filepath.Join(dir, "testdata", "cases.json"), bytes.Repeat([]byte("{\"a\": 1}\n"), 2500000/9+1))
	write(t, filepath.Join(dir, "www", "icon.png"), append(pngHead, make([]byte, 100)...))
	git(t, dir, "add", "-A")

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(dir, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "no tracked binary")

	// A native binary as `go build` leaves it, and a 3 MB dump.
	write(t, filepath.Join(dir, "worker"), append(elfHead, make([]byte, 4096)...))
	write(t, filepath.Join(dir, "testdata", "dump.bin"), bytes.Repeat([]byte("x"), 3<<20))
	git(t, dir, "add", "-A")
	stdout.Reset()
	stderr.Reset()
	assert.Equal(t, 1, run(dir, &stdout, &stderr))
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	require.Len(t, lines, 3, stderr.String())
	assert.True(t, strings.HasPrefix(lines[1], "  testdata/dump.bin: 3145728 bytes, over the 2 MB"), lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "  worker: an ELF executable"), lines[2])

	// Untracked (the files stay on disk), they pass.
	git(t, dir, "rm", "-q", "--cached", "worker", "testdata/dump.bin")
	stderr.Reset()
	assert.Equal(t, 0, run(dir, &stdout, &stderr), stderr.String())
}

// TestCheckNotARepository: outside a git repository the check says so and
// exits 2, not 0.
func TestCheckNotARepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run(dir, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "git ls-files")
}

// mainPackages lists the directories (relative to the repository root) of
// the repository's main packages, the native ones and the WebAssembly ones.
func mainPackages(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	var dirs []string
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-f", "{{if eq .Name \"main\"}}{{.Dir}}{{end}}", "./...")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		require.NoError(t, err, "go list %v", env)
		for _, d := range strings.Fields(string(out)) {
			rel, err := filepath.Rel(root, d)
			require.NoError(t, err)
			rel = filepath.ToSlash(rel)
			if !seen[rel] {
				seen[rel] = true
				dirs = append(dirs, rel)
			}
		}
	}
	return dirs
}

// TestGitignoreCoversBinaries: every binary the build or a stray `go
// build` / `go test -c` writes is ignored (a `go build` of each main
// package at the root and in its own directory, .test, .exe, .wasm, and
// build/), and no ignore rule matches a tracked file.
func TestGitignoreCoversBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list twice")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dirs := mainPackages(t, root)
	// The main packages this was written against: the list may grow, and
	// each new one is checked below.
	for _, want := range []string{"tools/serve", "tools/calibrate", "tools/catalog", "tools/benchmedian", "tools/checktracked",
		"tools/gen/catalogdata", "tools/gen/tape", "wasm/js/light", "wasm/js/full", "wasm/worker"} {
		assert.Contains(t, dirs, want)
	}
	paths := []string{"build/npm/throughput.wasm", "build/site/throughput-planner.wasm", "build/worker/app.wasm", "build/serve",
		"calc.test", "calc/calc.test", "api/api.test"}
	for _, d := range dirs {
		name := path.Base(d)
		paths = append(paths, name, d+"/"+name, name+".test", d+"/"+name+".test", name+".exe", d+"/"+name+".exe", name+".wasm", d+"/"+name+".wasm")
	}
	cmd := exec.Command("git", append([]string{"-C", root, "check-ignore", "--no-index", "--verbose", "--non-matching"}, paths...)...)
	out, _ := cmd.Output() // exit 1 when some path is not ignored: read the lines
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// "<source>:<line>:<pattern>\t<path>", or "::\t<path>" when no rule matches.
		rule, p, _ := strings.Cut(line, "\t")
		assert.NotEqual(t, "::", rule, "%s is not ignored (.gitignore)", p)
	}
	assert.Len(t, strings.Split(strings.TrimSpace(string(out)), "\n"), len(paths))

	// A rule that matches a tracked file (say, worker matching wasm/worker/)
	// would hide new files beside it.
	shadowed := git(t, root, "ls-files", "--cached", "--ignored", "--exclude-standard")
	assert.Empty(t, shadowed, "tracked files that .gitignore matches")
}
