package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/hardware"
)

func TestSpliceReplacesOnlyTheMarkedSection(t *testing.T) {
	t.Parallel()
	doc := "# Models\n\ntext\n\n" + Begin + "\nold\n" + End + "\n\n## After\n"
	got, err := splice([]byte(doc), []byte("new\n"))
	require.NoError(t, err)
	assert.Equal(t, "# Models\n\ntext\n\n"+Begin+"\nnew\n"+End+"\n\n## After\n", string(got))

	// No markers: the section is appended with them.
	got, err = splice([]byte("# Models\n\n"), []byte("new\n"))
	require.NoError(t, err)
	assert.Equal(t, "# Models\n\n"+Begin+"\nnew\n"+End+"\n", string(got))

	_, err = splice([]byte(End+"\n"+Begin+"\n"), []byte("x"))
	assert.Error(t, err)
}

// TestSectionListsEveryAcceleratorWithItsSources: one row and one source
// list per entry; a GB10 row written out by hand from its catalog figures
// (128 GiB, 121.69 reported, 101.3 free, 273 GB/s, 125/250/500/250 TFLOPS,
// ConnectX-7 at 25 GB/s per direction).
func TestSectionListsEveryAcceleratorWithItsSources(t *testing.T) {
	t.Parallel()
	cat := hardware.Catalog()
	out := string(section(cat))
	for _, a := range cat {
		assert.Contains(t, out, "| `"+a.ID+"` |")
		assert.Contains(t, out, "- `"+a.ID+"`")
		for _, s := range a.Sources {
			assert.Contains(t, out, s.Citation)
		}
	}
	assert.Contains(t, out, "| `gb10` | NVIDIA GB10 (DGX Spark) 128GB | 128 | 121.69 | 101.3 | 273 | 125 | 250 | 500 | 250 | ConnectX-7 200 GbE (two machines), 25 |")
	assert.Equal(t, len(cat), strings.Count(out, "\n| `"))
}
