package gen_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyTree copies the repository's working tree as it is (tracked and
// untracked files that are not ignored) into a new git repository, with
// every file added to its index, and returns its path.
func copyTree(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	list, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	require.NoError(t, err)
	dst := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		require.NoError(t, err)
		require.True(t, fi.Mode().IsRegular(), "%s is not a plain file", name)
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dst, name), data, fi.Mode().Perm()))
	}
	run(t, dst, "git", "init", "-q")
	run(t, dst, "git", "add", "-A")
	return dst
}

// run runs a command in dir and fails the test if it fails.
func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
}

// check runs dir's scripts/check-generated.sh on dir and returns its
// output and exit status.
func check(t *testing.T, dir string) (string, int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "scripts", "check-generated.sh"), dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode()
	}
	require.NoError(t, err)
	return out.String(), 0
}

// TestCheckGeneratedFails: on a copy of the tree, freshly generated, the
// stale check passes; after a generated file is edited by hand and the
// catalog's source JSON is changed without regenerating, it fails and
// names both generated files, and only them.
func TestCheckGeneratedFails(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the tree and runs go generate three times")
	}
	for _, tool := range []string{"git", "bash", "tar", "cmp", "diff"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	dir := copyTree(t)
	// Generated from the copy itself, so this test is about the check,
	// not about whether the working tree is current (the check's job).
	run(t, dir, "./build.sh", "generate")

	out, code := check(t, dir)
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "generated files are current")

	edit := func(name, suffix string) {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, append(data, suffix...), 0o644))
	}
	edit("api/report_json.go", "\n// edited by hand\n")
	catalogFile := filepath.Join(dir, "models/catalog/llama-2.json")
	data, err := os.ReadFile(catalogFile)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(catalogFile, bytes.Replace(data, []byte(`"Llama 2 7B"`), []byte(`"Llama 2 7B (renamed)"`), 1), 0o644))
	out, code = check(t, dir)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "\n  api/report_json.go\n")
	assert.Contains(t, out, "\n  models/catalog/catalog_data.go\n")
	assert.NotContains(t, out, "models/catalog/llama-2.json")
	assert.Contains(t, out, "\n-// edited by hand\n", "the diff shows the edit, which regenerating drops")
	assert.Contains(t, out, "run ./build.sh generate")
}
