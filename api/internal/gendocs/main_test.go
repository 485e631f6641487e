package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedFileIsCurrent fails when a doc comment of a schema type
// changed without `go generate ./wasm/api`.
func TestGeneratedFileIsCurrent(t *testing.T) {
	t.Parallel()
	want, err := Generate("../../..")
	require.NoError(t, err)
	got, err := os.ReadFile("../../fielddocs_gen.go")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "run: go generate ./wasm/api")
}
