package hardware

import "github.com/modelrefs/throughput/internal/strsort"

// Price is a default rental price of one GPU-hour of an accelerator, in US
// dollars, with where it was read and when. Cloud prices move month to
// month and differ between providers by 2x; these are one public list
// each, for a first answer the user is expected to override.
type Price struct {
	// USDPerHour is the on-demand price of one GPU for one hour.
	USDPerHour float64 `json:"usd_per_gpu_hour"`
	// Source names the provider, the page and its address.
	Source string `json:"source"`
	// Date is when the source states the price (YYYY-MM).
	Date string `json:"date"`
}

// The sources of the default prices. One provider's on-demand list where
// it covers a chip (RunPod's, as Deploybase tabulated it), else its
// per-second serverless rate times 3,600, else the cheapest on-demand
// provider a dated note names.
const (
	priceRunPod           = "RunPod on-demand (Secure Cloud) per-GPU price, as tabulated in \"RunPod GPU Pricing: 2026 Comprehensive Pricing Guide\", https://deploybase.ai/articles/runpod-gpu-pricing"
	priceRunPodServerless = "RunPod Serverless flex price per second x 3600, https://docs.runpod.io/serverless/pricing"
	priceAMDNote          = "TensorWave on-demand price quoted in \"AMD inference economics\" research note, https://www.cliffcenter.com/research/amd-inference-economics"
)

var defaultPrices = map[string]Price{
	"rtx-3090":       {0.39, priceRunPod, "2026-03"},
	"rtx-4090":       {0.60, priceRunPod, "2026-03"},
	"rtx-5090":       {1.22, priceRunPod, "2026-03"},
	"l4":             {0.78, priceRunPod, "2026-03"},
	"l40":            {1.22, priceRunPod, "2026-03"},
	"l40s":           {1.40, priceRunPod, "2026-03"},
	"a100-pcie-80gb": {2.10, priceRunPod, "2026-03"},
	"a100-sxm-80gb":  {2.45, priceRunPod, "2026-03"},
	"h100-pcie-80gb": {3.51, priceRunPod, "2026-03"},
	"h100-sxm-80gb":  {4.76, priceRunPod, "2026-03"},
	"h200-sxm-141gb": {6.35, priceRunPod, "2026-03"},
	"b200":           {10.57, priceRunPod, "2026-03"},
	// $0.00034/s (A6000, A40) and $0.00053/s (L40, L40S, RTX 6000 Ada).
	"rtx-a6000":    {0.00034 * 3600, priceRunPodServerless, "2026-03"},
	"a40":          {0.00034 * 3600, priceRunPodServerless, "2026-03"},
	"rtx-6000-ada": {0.00053 * 3600, priceRunPodServerless, "2026-03"},
	"mi300x":       {1.50, priceAMDNote, "2026-05"},
	"mi325x":       {1.95, priceAMDNote, "2026-05"},
}

// DefaultPrice returns the default price of the accelerator with catalog
// id, and false when the table has none (the planner then asks for one).
func DefaultPrice(id string) (Price, bool) {
	p, ok := defaultPrices[id]
	return p, ok
}

// PricedIDs lists the catalog ids that have a default price, sorted.
func PricedIDs() []string {
	out := make([]string, 0, len(defaultPrices))
	for id := range defaultPrices {
		out = append(out, id)
	}
	strsort.Strings(out)
	return out
}
