package strsort

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Strings must leave what slices.Sort (an independent sort) leaves, on
// the shapes that trouble sorts: empty, one, sorted, reversed, all equal,
// duplicates, prefixes, and random slices of every length up to 200.
func TestStringsAsSlicesSort(t *testing.T) {
	cases := [][]string{
		nil,
		{},
		{"a"},
		{"a", "b", "c", "d"},
		{"d", "c", "b", "a"},
		{"x", "x", "x"},
		{"b", "a", "b", "a", "c", "a"},
		{"ab", "a", "", "abc", "b", "aa"},
		{"Z", "a", "é", "e", "\x00", "~"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 200; n++ {
		s := make([]string, n)
		for i := range s {
			b := make([]byte, r.IntN(4))
			for j := range b {
				b[j] = "ab\xffz"[r.IntN(4)]
			}
			s[i] = string(b)
		}
		cases = append(cases, s)
	}
	for _, c := range cases {
		want := slices.Clone(c)
		slices.Sort(want)
		got := slices.Clone(c)
		Strings(got)
		assert.Equal(t, want, got, "%q", c)
	}
}
