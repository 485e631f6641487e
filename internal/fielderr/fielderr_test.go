package fielderr

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJoinAndUnder(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "a", Join("", "a"))
	assert.Equal(t, "w", Join("w", ""))
	assert.Equal(t, "w.a", Join("w", "a"))
	assert.Equal(t, "w[2]", Join("w", "[2]"))

	err := Under("hardware", Errors{{Field: "peak_flops.bf16", Message: "m"}, {Field: "", Message: "whole"}})
	assert.Equal(t, Errors{{Field: "hardware.peak_flops.bf16", Message: "m"}, {Field: "hardware", Message: "whole"}}, err)
	assert.True(t, errors.Is(err, ErrInvalid))
	// Any other error becomes one problem at the prefix, with its text.
	assert.Equal(t, New("model_config", "boom"), Under("model_config", errors.New("boom")))
	assert.NoError(t, Under("x", nil))
}

func TestListAndErr(t *testing.T) {
	t.Parallel()
	var l List
	require.NoError(t, l.Err(), "an empty list is no error")
	l.Add("a", "one")
	l.AddErr("w", New("b", "two"))
	assert.Equal(t, 2, l.Len())
	assert.EqualError(t, l.Err(), "a: one; w.b: two")
	assert.NoError(t, Errors(nil).Err())
}

func TestQuoteCutsAt200Runes(t *testing.T) {
	t.Parallel()
	assert.Equal(t, `"h100"`, Quote("h100"))
	long := strings.Repeat("é", 250) // 2 bytes a rune: cut by runes, not bytes
	q := Quote(long)
	assert.Equal(t, `"`+strings.Repeat("é", 200)+`…"`, q)
	assert.Equal(t, strings.Repeat("x", 200), Truncate(strings.Repeat("x", 200)), "200 runes are kept whole")
}

func TestNumber(t *testing.T) {
	t.Parallel()
	for x, want := range map[float64]string{
		16777216: "16777216", -1: "-1", 0.5: "0.5", 1e-300: "1e-300", 2.5e20: "2.5e+20",
		1e15: "1e+15", math.Inf(1): "+Inf",
	} {
		assert.Equal(t, want, Number(x), "%g", x)
	}
	assert.Equal(t, "NaN", Number(math.NaN()))
}

// TestPathsAreCut: every path Join, New, Under and List.Add build or take
// is cut to MaxPath (200) runes, with "…" after the cut; a shorter one is
// left alone; runes, not bytes, are counted.
func TestPathsAreCut(t *testing.T) {
	long := strings.Repeat("text_config.", 70) // 840 characters
	want := long[:200] + "…"
	assert.Equal(t, ("model_config." + long)[:200]+"…", Join("model_config", long))
	assert.Equal(t, want, New(long, "x")[0].Field)
	var l List
	l.Add(long, "x")
	l.AddErr("w", New("a", "y"))
	assert.Equal(t, Errors{{want, "x"}, {"w.a", "y"}}, l.Err())
	assert.Equal(t, ("p." + long)[:200]+"…", Under("p", New(long, "z")).(Errors)[0].Field)
	assert.Equal(t, "workload.input_tokens", Join("workload", "input_tokens"))
	e := strings.Repeat("é", 300)
	assert.Equal(t, strings.Repeat("é", 200)+"…", Path(e))
	assert.Equal(t, 201, utf8.RuneCountInString(Join("", e)))
}
