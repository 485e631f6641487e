package units

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBytes(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 80.0, (80 * GiB).GiB())
	// 85029615042.56 bytes, the H100's reported total before this type:
	// reports give whole bytes.
	assert.Equal(t, int64(85029615043), Bytes(85029615042.56).Int64())
	assert.Equal(t, int64(0), Bytes(-1).Int64())
	assert.Equal(t, int64(0), Bytes(math.NaN()).Int64())
	assert.Equal(t, int64(0), Bytes(math.Inf(1)).Int64())
	// 16 GB read at 3.35 TB/s takes 16e9 / 3.35e12 s = 4.776 ms.
	assert.InDelta(t, 4.776, (16 * GB).Over(3.35e12).Ms(), 0.001)
}
