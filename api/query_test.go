package api

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/calc"
)

func TestIsJSONNumber(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0", "-0", "2", "1.5", "-12.25e+3", "1E9", "1e400"} {
		assert.True(t, isJSONNumber(s), s)
	}
	for _, s := range []string{"", "-", "+2", "02", "1.", ".5", "1e", "1e+", "0x10", "two", "NaN", "Inf", "1 ", "1_000"} {
		assert.False(t, isJSONNumber(s), s)
	}
}

// The query's JSON text: nested objects opened once each, in the
// contract's field order, whatever the query's order; lenient integer
// forms rewritten, JSON numbers kept as written.
func TestQueryJSONText(t *testing.T) {
	t.Parallel()
	byKey, _ := queryParams()
	q, err := url.ParseQuery("simulate.sweep.points=3&tpot_ms=30&model=m&simulate.input_tokens.mean=1.50&simulate.seed=%2B7" +
		"&simulate.input_tokens.distribution=normal&workload.input_tokens=1e3&simulate.output_tokens.max=9&hardware=h%22x")
	require.NoError(t, err)
	var vals []queryValue
	for k, v := range q {
		p := byKey[k]
		text, msg := jsonValue(p.Kind, v[0])
		require.Empty(t, msg, k)
		vals = append(vals, queryValue{paramIndex[p.Path], p.Path, text})
	}
	sortQueryValues(vals)
	assert.Equal(t, `{"model":"m","hardware":"h\"x","workload":{"input_tokens":1e3},"slo":{"tpot_ms":30},`+
		`"simulate":{"seed":7,"input_tokens":{"distribution":"normal","mean":1.50},"output_tokens":{"max":9},"sweep":{"points":3}}}`,
		string(appendObject(nil, vals)))
}

// An unknown query parameter does not hide the other parameters' errors:
// the query's own errors first (sorted by key), then the engine's, in
// the order a POST would list them (calc.Validate).
func TestUnknownQueryParameterHidesNothing(t *testing.T) {
	t.Parallel()
	q, err := url.ParseQuery("model=llama-3.1-8b&hardware=h100-sxm&colour=red&tensor_parallel_size=0&input_tokens=-1")
	require.NoError(t, err)
	_, err = queryRequest(q)
	assert.Equal(t, calc.Errors{
		{Field: "colour", Message: "unknown query parameter"},
		{Field: "tensor_parallel_size", Message: "must be at least 1, got 0"},
		{Field: "workload.input_tokens", Message: "must be at least 1, got -1"},
	}, err)
}
