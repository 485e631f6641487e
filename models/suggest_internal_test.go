package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSuggestTopTwoStable: suggest names the two entries sharing the most
// name tokens with the input, the earlier catalog entry first among equal
// counts (as a stable sort by descending count would), none sharing none.
func TestSuggestTopTwoStable(t *testing.T) {
	t.Parallel()
	c := &catalog{entries: []Entry{
		{ID: "org/alpha-7b"}, // shares 7b
		{ID: "org/beta-7b"},  // shares beta, 7b
		{ID: "org/gamma-1b", Aliases: []string{"gamma beta 7b"}}, // shares gamma, beta, 7b
		{ID: "org/beta-7b-v2"}, // shares beta, 7b: ties org/beta-7b, later
		{ID: "org/delta"},      // shares nothing
	}}
	tests := []struct {
		input string
		want  []string
	}{
		{"gamma beta 7b", []string{"org/gamma-1b", "org/beta-7b"}},
		{"beta 7b", []string{"org/beta-7b", "org/gamma-1b"}},  // three tie at 2 (beta, 7b), catalog order
		{"alpha", []string{"org/alpha-7b"}},                   // one match
		{"v2", []string{"org/beta-7b-v2"}},                    // one match, late in the catalog
		{"7b v2", []string{"org/beta-7b-v2", "org/alpha-7b"}}, // the later entry scores higher
		{"epsilon", nil}, // no match
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, c.suggest(tt.input), tt.input)
	}
}
