package traffic

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/sched"
)

// parseFile parses one of the 300-row excerpts.
func parseFile(t *testing.T, format, path string) *Trace {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	tr, err := Parse(format, string(data), "simulate.trace.data")
	require.NoError(t, err)
	require.Len(t, tr.Requests, 300)
	return tr
}

// The Mooncake excerpt replays as given: its rows' timestamps are
// milliseconds (row 1: 0 ms, 6758 in, 500 out; row 300: 102000 ms, 979
// in, 140 out, read from the file). Its 300 rows carry 8,490 hash ids, of
// which 676 repeat an earlier id (counted with Python's json module:
// a set of the ids seen so far, over the rows in order).
func TestParseMooncakeExcerpt(t *testing.T) {
	tr := parseFile(t, "mooncake", "testdata/mooncake_conversation_300.jsonl")
	assert.Equal(t, sched.TraceRequest{ArrivalS: 0, Input: 6758, Output: 500}, tr.Requests[0])
	assert.Equal(t, sched.TraceRequest{ArrivalS: 102, Input: 979, Output: 140}, tr.Requests[299])
	assert.Equal(t, int64(8490), tr.Blocks)
	assert.Equal(t, int64(676), tr.ReusedBlocks)
	assert.Equal(t, 512, tr.BlockTokens)
	assert.Nil(t, tr.Prefix)
}

// The Azure excerpt's wall-clock times become seconds after the first
// row's: row 2 is 18:15:50.9951690 - 18:15:46.6805900 = 4.314579 s, row
// 300 18:17:10.7096920 - 18:15:46.6805900 = 84.029102 s.
func TestParseAzureExcerpt(t *testing.T) {
	tr := parseFile(t, "azure", "testdata/azure_conv_2023_300.csv")
	assert.Equal(t, sched.TraceRequest{ArrivalS: 0, Input: 374, Output: 44}, tr.Requests[0])
	assert.InDelta(t, 4.314579, tr.Requests[1].ArrivalS, 1e-6)
	assert.Equal(t, int32(396), tr.Requests[1].Input)
	assert.InDelta(t, 84.029102, tr.Requests[299].ArrivalS, 1e-6)
	assert.Equal(t, sched.TraceRequest{ArrivalS: tr.Requests[299].ArrivalS, Input: 212, Output: 183}, tr.Requests[299])
	assert.Zero(t, tr.Blocks)
}

func TestParsePlainFormats(t *testing.T) {
	csv := "arrival_s,input_tokens,output_tokens,session_id\n0.5,100,10,7\n1.25,200,20,\n"
	tr, err := Parse("csv", csv, "f")
	require.NoError(t, err)
	assert.Equal(t, []sched.TraceRequest{{ArrivalS: 0, Input: 100, Output: 10}, {ArrivalS: 0.75, Input: 200, Output: 20}}, tr.Requests)
	assert.Equal(t, []int32{7, -1}, tr.Prefix)

	jl := `{"arrival_s": 2, "input_tokens": 5, "output_tokens": 1, "note": "x, {y}"}` + "\n" + `{"output_tokens": 3, "input_tokens": 6, "arrival_s": 2, "prefix_id": 4}`
	tr, err = Parse("jsonl", jl, "f")
	require.NoError(t, err)
	assert.Equal(t, []sched.TraceRequest{{ArrivalS: 0, Input: 5, Output: 1}, {ArrivalS: 0, Input: 6, Output: 3}}, tr.Requests)
	assert.Equal(t, []int32{-1, 4}, tr.Prefix)
}

// Every bad row is named by its line and column.
func TestParseErrorsNameLineAndColumn(t *testing.T) {
	cases := []struct{ format, data, want string }{
		{"csv", "arrival_s,input_tokens\n1,2\n", "line 1: the header has no output tokens column (output_tokens)"},
		{"csv", "arrival_s,input_tokens,output_tokens\n1,2,3\n0.5,2,3\n", "line 3, column arrival_s: arrival time goes back"},
		{"csv", "arrival_s,input_tokens,output_tokens\n1,2.5,3\n", "line 2, column input_tokens: must be a whole number of tokens"},
		{"csv", "arrival_s,input_tokens,output_tokens\n1,0,3\n", "line 2, column input_tokens: must be at least 1 token"},
		{"csv", "arrival_s,input_tokens,output_tokens\n1,2\n", "line 2, column output_tokens: missing"},
		{"csv", "arrival_s,input_tokens,output_tokens\nx,2,3\n", "line 2, column arrival_s: must be a number"},
		{"azure", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 25:00:00,1,1\n", "line 2, column TIMESTAMP: must be a time"},
		{"mooncake", `{"timestamp": 0, "input_length": 5}`, "line 1, column output_length: missing"},
		{"mooncake", `{"timestamp": 0, "input_length": 5, "output_length": 1, "hash_ids": [1, "a"]}`, "line 1, column hash_ids: must be an array of whole numbers"},
		{"mooncake", `{"timestamp": 0, "input_length": -5, "output_length": 1}`, "line 1, column input_length: must be a whole number of tokens from 0"},
		{"jsonl", `[1, 2]`, "line 1: not a JSON object at character 1"},
		{"mooncake", "", "has no requests"},
	}
	for _, c := range cases {
		_, err := Parse(c.format, c.data, "simulate.trace.data")
		require.Error(t, err, c.data)
		assert.Contains(t, err.Error(), "simulate.trace.data: "+c.want, c.data)
	}
	_, err := Parse("parquet", "x", "simulate.trace.data")
	assert.EqualError(t, err, `simulate.trace.format: unknown format "parquet"; one of mooncake, azure, csv, jsonl`)
}

func TestParseCaps(t *testing.T) {
	_, err := Parse("csv", strings.Repeat(" ", MaxTraceBytes+1), "simulate.trace.data")
	assert.ErrorContains(t, err, "a trace may have at most 16777216")
	// At most maxErrors problems are listed.
	bad := "arrival_s,input_tokens,output_tokens\n" + strings.Repeat("1,x,1\n", 50)
	_, err = Parse("csv", bad, "simulate.trace.data")
	assert.Equal(t, maxErrors, strings.Count(err.Error(), "line "))
}

// The wall clock counts from 1970-01-01: 2023-11-16 18:15:46 is 19,677
// days (date -u -d 2023-11-16 +%s gives 1700092800 = 19,677 x 86,400)
// and 65,746 s.
func TestWallClock(t *testing.T) {
	s, ok := wallClock("2023-11-16 18:15:46.6805900")
	require.True(t, ok)
	assert.InDelta(t, 1700092800+65746.68059, s, 1e-6)
	s, ok = wallClock("2000-03-01 00:00:00")
	require.True(t, ok)
	assert.Equal(t, 951868800.0, s) // date -u -d 2000-03-01 +%s
	for _, bad := range []string{"2023-13-01 00:00:00", "2023-11-16T18:15:46", "2023-11-16 18:15:46.", "2023-11-16 18:15:46.5x", "23-11-16 18:15:46"} {
		_, ok := wallClock(bad)
		assert.False(t, ok, bad)
	}
}
