package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/validation"
)

// TestEffSourcesMatchCases recomputes calc/release's EffSources, the source
// documents each efficiency set was fitted on, from the validation cases:
// the distinct sources of the comparable speed figures each set's fit
// uses (setSources).
func TestEffSourcesMatchCases(t *testing.T) {
	root := moduleRoot()
	cs, missing, err := validation.ReadCases(fromRoot(root, defaultCases)...)
	require.NoError(t, err)
	require.Empty(t, missing)
	_, figs, _ := figuresOf(cs)
	want := setSources(figs)
	listed := 0
	for _, tg := range targets("all") {
		assert.Equal(t, want[tg.name], release.EffSources[tg.name], "EffSources[%q] (calc/release/effsources.go)", tg.name)
		if want[tg.name] != nil {
			listed++
		}
	}
	// A set without a source (its terms borrowed) has no entry.
	assert.Len(t, release.EffSources, listed, "one entry per efficiency set that has sources")
}
