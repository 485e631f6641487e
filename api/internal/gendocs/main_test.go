package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedFileIsCurrent fails when a doc comment of a schema type
// changed without `go generate ./calc/contract/docs`.
func TestGeneratedFileIsCurrent(t *testing.T) {
	t.Parallel()
	want, err := Generate("../../..")
	require.NoError(t, err)
	got, err := os.ReadFile("../../../calc/contract/docs/docs_gen.go")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "run: go generate ./calc/contract/docs")
}
