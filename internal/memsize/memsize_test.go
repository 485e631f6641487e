package memsize_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/internal/memsize"
)

// heapAlloc is the live heap after a full collection.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// padded returns a config.json of about 1 MiB whose padding has the given
// shape: what a hostile Hub repository can serve under the size cap.
func padded(shape string) []byte {
	head := `{"model_type":"llama","hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000,"pad":`
	var b strings.Builder
	b.WriteString(head)
	switch shape {
	case "numbers": // the densest in boxed values: "1," is 2 bytes, a boxed float64 8 + a 16-byte slot
		b.WriteString("[")
		for i := 0; b.Len() < 1<<20-16; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("1")
		}
		b.WriteString("]")
	case "objects": // many small maps
		b.WriteString("[")
		for i := 0; b.Len() < 1<<20-32; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"a":1}`)
		}
		b.WriteString("]")
	case "keys": // one map with many keys
		b.WriteString("{")
		for i := 0; b.Len() < 1<<20-32; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
		b.WriteString("}")
	case "string": // one long string
		b.WriteString(`"` + strings.Repeat("x", 1<<20-200) + `"`)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// TestOfParsedConfig: Of's estimate of a parsed config.json of about 1 MiB
// is at least 0.75 and at most 2 times (plus the JSON's length, for a long
// string) the heap the parse keeps alive, measured
// with runtime.MemStats (live heap after a full collection, with and
// without the parsed value), over the paddings a hostile config can use.
func TestOfParsedConfig(t *testing.T) {
	for _, shape := range []string{"numbers", "objects", "keys", "string"} {
		raw := padded(shape)
		require.LessOrEqual(t, len(raw), 1<<20, shape)
		before := heapAlloc()
		var cfg map[string]any
		require.NoError(t, json.Unmarshal(raw, &cfg), shape)
		measured := float64(heapAlloc() - before)
		est := float64(memsize.Of(cfg))
		runtime.KeepAlive(cfg)
		t.Logf("%-8s JSON %7d B  measured %9.0f B  estimated %9.0f B  ratio %.2f", shape, len(raw), measured, est, est/measured)
		// A cache bounded by Of must not be fooled low; a long string may
		// measure less than its bytes (the runtime can share its storage).
		assert.GreaterOrEqual(t, est, 0.75*measured, shape)
		assert.LessOrEqual(t, est, 2*measured+float64(len(raw)), shape)
	}
}

// TestOfCountsSharedOnce: an object reachable twice is counted once, and
// the sizes of the simple cases are the layouts' (hand-derived).
func TestOfCountsSharedOnce(t *testing.T) {
	s := strings.Repeat("y", 100)
	assert.Equal(t, int64(100), memsize.Of(s))
	// []any of 3 boxed float64: 3 x 16-byte slots + 3 x 8 boxed bytes.
	assert.Equal(t, int64(3*16+3*8), memsize.Of([]any{1.0, 2.0, 3.0}))
	type node struct {
		Name string
		Next *node
	}
	shared := &node{Name: s}
	// The pointer's target (24 bytes: a string header and a pointer) and
	// the string's 100 bytes, once, though two slots hold the pointer.
	assert.Equal(t, int64(2*8+24+100), memsize.Of([]*node{shared, shared}))
	assert.Equal(t, int64(0), memsize.Of(nil))
	// A map of 2 string→float64 entries: 48 + 8 slots x (16 + 8 + 1), keys' bytes 1 + 1.
	assert.Equal(t, int64(48+8*(16+8+1)+2), memsize.Of(map[string]float64{"a": 1, "b": 2}))
}
