package hardware_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/hardware"
)

func TestLookupResolvesEveryIDNameAndAlias(t *testing.T) {
	t.Parallel()
	for _, a := range hardware.Catalog() {
		t.Run(a.ID, func(t *testing.T) {
			t.Parallel()
			for _, s := range append([]string{a.ID, a.Name}, a.Aliases...) {
				got, err := hardware.Lookup(s)
				if assert.NoError(t, err, s) {
					assert.Equal(t, a.ID, got.ID, s)
				}
			}
		})
	}
}

func TestLookupSpellings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want string
	}{
		{"H100 SXM", "h100-sxm-80gb"},
		{"h100-sxm-80gb", "h100-sxm-80gb"},
		{"H100-SXM-80GB", "h100-sxm-80gb"},
		{"A100 80GB SXM", "a100-sxm-80gb"},
		{"RTX 4090", "rtx-4090"},
		{"H200", "h200-sxm-141gb"},
		{"MI300X", "mi300x"},
		{"L40S", "l40s"},
		{"NVIDIA GeForce RTX 4090", "rtx-4090"},
		{"nvidia h100 80gb hbm3", "h100-sxm-80gb"}, // nvidia-smi name of H100 SXM
		// Memory spellings are equivalent.
		{"A100 SXM 80 GB", "a100-sxm-80gb"},
		{"a100 sxm 80gb", "a100-sxm-80gb"},
		{"A100-SXM-80G", "a100-sxm-80gb"},
		{"A100 SXM 80GiB", "a100-sxm-80gb"},
		// Token order and punctuation do not matter.
		{"SXM, 80GB, A100", "a100-sxm-80gb"},
		{"sxm4_a100_80gb", "a100-sxm-80gb"},
		// nvidia-smi and validation-file spellings.
		{"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb"},
		{"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
		{"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
		{"NVIDIA A100-80G", "a100-sxm-80gb"}, // same memory, form factor unstated: SXM
		{"NVIDIA H100 PCIe", "h100-pcie-80gb"},
		{"NVIDIA H100 NVL", "h100-nvl-94gb"},
		{"NVIDIA H200 SXM 141GB", "h200-sxm-141gb"},
		{"H200 141GB", "h200-sxm-141gb"},
		{"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
		{"Tesla T4", "t4"},
		{"NVIDIA A10G", "a10g"},
		{"NVIDIA A10", "a10"},
		{"NVIDIA L4", "l4"},
		{"NVIDIA L40", "l40"},
		{"NVIDIA GeForce RTX 3080 Ti 12GB", "rtx-3080-ti"},
		{"NVIDIA GeForce RTX 3080 10GB", "rtx-3080"},
		{"NVIDIA GeForce RTX 4070 Ti 12GB", "rtx-4070-ti"},
		{"GeForce RTX4090", "rtx-4090"},
		{"NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada"},
		{"NVIDIA RTX A6000", "rtx-a6000"},
		{"NVIDIA B200", "b200"},
		{"GB200 NVL72", "gb200"},
		{"AMD Instinct MI325X", "mi325x"},
		{"mi355x", "mi355x"},
		{"Intel Gaudi 3", "gaudi-3"},
		{"gaudi3", "gaudi-3"},
		{"Google Cloud TPU v5e", "tpu-v5e"},
		{"v6e", "tpu-v6e"},
		{"Trillium", "tpu-v6e"},
		{"Apple M2 Ultra", "m2-ultra"},
		{"M3 Max", "m3-max"},
		{"m4-max", "m4-max"},
		// Issue 15's accelerators, as nvidia-smi and users spell them.
		// "RTX PRO 6000" alone is the server edition (the one clouds
		// rent, as "H100" is the SXM part); "Blackwell" is a noise word.
		{"rtx pro 6000", "rtx-pro-6000-server"},
		{"RTX PRO 6000 Blackwell", "rtx-pro-6000-server"},
		{"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-server"},
		{"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-workstation"},
		{"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "rtx-pro-6000-max-q"},
		{"RTX PRO 5000 Blackwell", "rtx-pro-5000"},
		{"spark", "gb10"},
		{"dgx spark", "gb10"},
		{"gb10", "gb10"},
		{"NVIDIA GB10", "gb10"}, // nvidia-smi's name
		{"NVIDIA Thor", "jetson-agx-thor"},
		{"orin", "jetson-agx-orin-64gb"},
		{"NVIDIA B300 SXM6 AC", "b300"},
		{"GB300 NVL72", "gb300"},
		{"NVIDIA RTX A5000", "rtx-a5000"},
		{"NVIDIA RTX 4000 Ada Generation", "rtx-4000-ada"},
		{"NVIDIA GeForce RTX 5070 Ti", "rtx-5070-ti"},
		{"NVIDIA GeForce RTX 5080", "rtx-5080"},
		{"NVIDIA H800", "h800-sxm-80gb"},
		{"NVIDIA A800-SXM4-80GB", "a800-sxm-80gb"},
		{"NVIDIA L20", "l20"},
		{"strix halo", "ryzen-ai-max-395"},
		{"tpu v7", "tpu-v7"},
		{"ironwood", "tpu-v7"},
		{"m3 ultra", "m3-ultra"},
		{"trn2", "trainium-2"},
		// catalog_more.go's parts.
		{"NVIDIA GH200 480GB", "gh200-96gb"}, // nvidia-smi's name of the HBM3 part
		{"GH200 144GB", "gh200-144gb"},
		{"NVIDIA GH200 144G HBM3e", "gh200-144gb"},
		{"NVIDIA GeForce RTX 4070", "rtx-4070"},
		{"NVIDIA GeForce RTX 4070 SUPER", "rtx-4070-super"},
		{"RTX 4080 Super", "rtx-4080-super"},
		{"NVIDIA GeForce RTX 4060 Ti", "rtx-4060-ti-16gb"},
		{"RTX 3060 Ti", "rtx-3060-ti"},
		{"NVIDIA GeForce RTX 3070 Ti", "rtx-3070-ti"},
		{"M1", "m1"},
		{"Apple M1 Max", "m1-max"},
		{"apple m2", "m2"},
		{"M2 Pro", "m2-pro"},
		{"m3 pro", "m3-pro"},
		{"Apple M4", "m4"},
		// Every gpu spelling of shared/validation/cases.json (but the one
		// whose model is not stated).
		{"NVIDIA H100 80GB HBM3 (SXM)", "h100-sxm-80gb"},
		{"NVIDIA H100 80GB HBM3", "h100-sxm-80gb"},
		{"NVIDIA H100 80GB", "h100-sxm-80gb"},
		{"NVIDIA H100 SXM 80GB", "h100-sxm-80gb"},
		{"NVIDIA H200 SXM 141GB", "h200-sxm-141gb"},
		{"NVIDIA A100-80GB", "a100-sxm-80gb"},
		{"NVIDIA A100 80GB", "a100-sxm-80gb"},
		{"NVIDIA A100-80G", "a100-sxm-80gb"},
		{"NVIDIA GeForce RTX 3090 (24GB)", "rtx-3090"},
		{"NVIDIA GeForce RTX 3070 8GB", "rtx-3070"},
		{"NVIDIA GeForce RTX 3080 10GB", "rtx-3080"},
		{"NVIDIA GeForce RTX 3080 Ti 12GB", "rtx-3080-ti"},
		{"NVIDIA GeForce RTX 3090 24GB", "rtx-3090"},
		{"NVIDIA GeForce RTX 4070 Ti 12GB", "rtx-4070-ti"},
		{"NVIDIA GeForce RTX 4080 16GB", "rtx-4080"},
		{"NVIDIA GeForce RTX 4090 24GB", "rtx-4090"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := hardware.Lookup(tt.name)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.ID)
		})
	}
}

// TestLookupAmbiguous: a name whose matches differ in memory capacity is an
// error listing the candidates, never a guess.
func TestLookupAmbiguous(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		candidates []string
		message    string
	}{
		{
			name:       "A100",
			candidates: []string{"a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm-40gb", "a100-sxm-80gb"},
			message:    `ambiguous hardware "A100"; candidates: "a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm-40gb", "a100-sxm-80gb"`,
		},
		{
			name:       "nvidia a100 pcie",
			candidates: []string{"a100-pcie-40gb", "a100-pcie-80gb"},
			message:    `ambiguous hardware "nvidia a100 pcie"; candidates: "a100-pcie-40gb", "a100-pcie-80gb"`,
		},
		{
			// The RTX 6000 Ada (48 GB) and the RTX PRO 6000 Blackwell
			// editions (96 GB): guessing would halve or double the pool.
			name:       "rtx 6000",
			candidates: []string{"rtx-6000-ada", "rtx-pro-6000-server", "rtx-pro-6000-workstation", "rtx-pro-6000-max-q"},
			message:    `ambiguous hardware "rtx 6000"; candidates: "rtx-6000-ada", "rtx-pro-6000-server", "rtx-pro-6000-workstation", "rtx-pro-6000-max-q"`,
		},
		{
			name:       "gaudi",
			candidates: []string{"gaudi-3", "gaudi-2"},
			message:    `ambiguous hardware "gaudi"; candidates: "gaudi-3", "gaudi-2"`,
		},
		{
			// The two GH200 memory parts: 96 GB HBM3 and 144 GB HBM3e.
			name:       "GH200",
			candidates: []string{"gh200-96gb", "gh200-144gb"},
			message:    `ambiguous hardware "GH200"; candidates: "gh200-96gb", "gh200-144gb"`,
		},
		{
			name:       "H100 NVL H200", // no entry has both; never a partial match
			candidates: nil,
			message:    `unknown hardware "H100 NVL H200"; did you mean "h100-nvl-94gb"?`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := hardware.Lookup(tt.name)
			require.Error(t, err)
			assert.Equal(t, hardware.Accelerator{}, got)
			assert.EqualError(t, err, tt.message)
			var le *hardware.LookupError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tt.name, le.Input)
			if tt.candidates != nil {
				assert.ErrorIs(t, err, hardware.ErrAmbiguous)
				assert.NotErrorIs(t, err, hardware.ErrUnknown)
				assert.Equal(t, tt.candidates, le.Candidates)
			}
		})
	}
}

func TestLookupUnknown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		message string
	}{
		{"xyz", `unknown hardware "xyz"`},
		{"", `unknown hardware ""`},
		{"NVIDIA", `unknown hardware "NVIDIA"`}, // only noise words
		{"mi300", `unknown hardware "mi300"; did you mean "mi300x"?`},
		{"rtx 4091", `unknown hardware "rtx 4091"; did you mean "rtx-4090"?`},
		{"H100 SXM 96GB", `unknown hardware "H100 SXM 96GB"; did you mean "h100-sxm-80gb"?`},
		{"blackwell", `unknown hardware "blackwell"`}, // a remark in a name is not matched
		{"tpu v8", `unknown hardware "tpu v8"; did you mean "tpu-v7"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := hardware.Lookup(tt.name)
			require.Error(t, err)
			assert.EqualError(t, err, tt.message)
			assert.ErrorIs(t, err, hardware.ErrUnknown)
			assert.False(t, errors.Is(err, hardware.ErrAmbiguous))
			var le *hardware.LookupError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tt.name, le.Input)
		})
	}
}

func BenchmarkLookup(b *testing.B) {
	for _, bench := range []struct{ label, name string }{
		{"id", "h100-sxm-80gb"},
		{"alias", "H200"},
		{"nvidia-smi name", "NVIDIA GeForce RTX 4090"},
		{"subset", "A100 80GB"},
		{"unknown", "mi300"},
	} {
		b.Run(bench.label, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = hardware.Lookup(bench.name)
			}
		})
	}
}

// A name longer than any accelerator's is unknown at once, without the
// fuzzy match (its edit distances grow with the name: a 60 KB name took
// 160 ms); a name at the limit is still matched loosely.
func TestLookupRefusesOverlongNamesWithoutMatching(t *testing.T) {
	t.Parallel()
	long := "h100 sxm " + strings.Repeat("x", hardware.MaxNameBytes)
	_, err := hardware.Lookup(long)
	var le *hardware.LookupError
	require.ErrorAs(t, err, &le)
	assert.ErrorIs(t, err, hardware.ErrUnknown)
	assert.Empty(t, le.Candidates)

	// "nvidia h100 sxm" padded with spaces to exactly MaxNameBytes bytes:
	// normalize drops the spaces, so it is the H100 SXM.
	atLimit := "nvidia h100 sxm" + strings.Repeat(" ", hardware.MaxNameBytes-len("nvidia h100 sxm"))
	require.Len(t, atLimit, hardware.MaxNameBytes)
	a, err := hardware.Lookup(atLimit)
	require.NoError(t, err)
	assert.Equal(t, "h100-sxm-80gb", a.ID)
}

// Without P2P a PCIe link becomes NCCL's SHM staging through host memory:
// 19.5 µs and a quarter of the per-direction line rate (PCIe 4.0 x16: 32
// GB/s, so 8 GB/s; PCIe 3.0 x16: 4 GB/s, the 2080 Ti pair's measured
// busbw). An NVLink part has no PCIe figure to stage over.
func TestWithoutP2PStagesPCIeThroughHostMemory(t *testing.T) {
	for _, c := range []struct {
		id  string
		bus float64
	}{{"a100-pcie-80gb", 8e9}, {"t4", 4e9}} {
		a, err := hardware.Lookup(c.id)
		require.NoError(t, err)
		l, ok := a.Interconnect.WithoutP2P()
		require.True(t, ok, c.id)
		assert.InDelta(t, c.bus, l.AllReduceBusBandwidth(), 1, c.id)
		assert.InDelta(t, 19.5e-6, l.LatencyS, 1e-12, c.id)
	}
	h, err := hardware.Lookup("h100-sxm")
	require.NoError(t, err)
	_, ok := h.Interconnect.WithoutP2P()
	assert.False(t, ok)
}
