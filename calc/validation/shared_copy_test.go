package validation_test

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedOriginalPath is the shared cases file that testdata/shared-cases.json
// copies, from this package's directory: ../shared/validation/cases.json
// beside the repository, where the workspace has it.
const sharedOriginalPath = "../../../shared/validation/cases.json"

// The repository's copy of the shared cases is byte-identical to the shared
// file, so the band table generated from the copy is the one the shared
// cases give. Without the shared file (a fresh clone) there is nothing to
// compare and the test skips.
func TestSharedCasesCopyIsCurrent(t *testing.T) {
	want, err := os.ReadFile(sharedOriginalPath)
	if errors.Is(err, os.ErrNotExist) {
		t.Skip(sharedOriginalPath + " not present")
	}
	require.NoError(t, err)
	got, err := os.ReadFile(sharedCasesPath)
	require.NoError(t, err)
	// Not assert.Equal on the bytes: its diff of a 160 kB file says little.
	assert.True(t, string(want) == string(got), "calc/validation/testdata/shared-cases.json (%d bytes) differs from ../shared/validation/cases.json (%d bytes): from the repository root, cp ../shared/validation/cases.json calc/validation/testdata/shared-cases.json, then ./build.sh generate", len(got), len(want))
}
