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
	for _, tg := range targets("all") {
		assert.Equal(t, want[tg.name], release.EffSources[tg.name], "EffSources[%q] (calc/release/effsources.go)", tg.name)
	}
	assert.Len(t, release.EffSources, len(targets("all")), "one entry per efficiency set")
}
