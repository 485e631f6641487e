package hardware

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIndexHasNoConflicts: no token key (id, name or alias, normalized) is
// claimed by two entries.
func TestIndexHasNoConflicts(t *testing.T) {
	t.Parallel()
	assert.Empty(t, indexConflicts)
	_, conflicts := buildIndex([]Accelerator{
		{ID: "x-1", Name: "Same Name"},
		{ID: "x-2", Aliases: []string{"same name"}},
	})
	assert.Equal(t, []string{"name same (x-1, x-2)"}, conflicts, "the check itself works")
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"80GB", []string{"80gb"}},
		{"80 GB", []string{"80gb"}},
		{"80gb", []string{"80gb"}},
		{"80G", []string{"80gb"}},
		{"80 GiB", []string{"80gb"}},
		{"NVIDIA H100 80GB HBM3", []string{"h100", "80gb"}},
		{"A100-SXM4-80GB", []string{"a100", "sxm", "80gb"}},
		{"GeForce RTX4090", []string{"rtx", "4090"}},
		{"a10g", []string{"a10g"}},
		{"gb200", []string{"gb200"}},
		{"GB", nil},
		{"--", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got := normalize(tt.in)
			if len(tt.want) == 0 {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 0, editDistance("", ""))
	assert.Equal(t, 3, editDistance("", "abc"))
	assert.Equal(t, 1, editDistance("mi300", "mi300x"))
	assert.Equal(t, 3, editDistance("kitten", "sitting"))
}

func TestStripParens(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "NVIDIA GB200 ", stripParens("NVIDIA GB200 (per Blackwell GPU)"))
	assert.Equal(t, "a  c", stripParens("a (b (x)) c"))
}
