package hardware

import "github.com/modelrefs/throughput/internal/strsort"

// Price is the default price of one GPU-hour of an accelerator, in US
// dollars, with its kind, where it was read and when: the one table the
// calculator's cost section, the compare view and the planner read
// (docs/MODEL.md section 12, "One price table"). Prices move month to
// month and differ between providers by 2x or more; the user's own price
// (gpu_hour_usd, or the planner's constraints.prices) overrides it in every
// door.
type Price struct {
	// USDPerHour is the price of one GPU (one chip, one Apple SoC) for one
	// hour.
	USDPerHour float64 `json:"usd_per_gpu_hour"`
	// Kind is PriceCloud (an on-demand cloud list price) or PricePurchase
	// (a purchase price amortised over PurchaseLifeYears, plus power).
	Kind string `json:"kind"`
	// Source names the price list or page and its address.
	Source string `json:"source"`
	// Date is when the source states the price: YYYY-MM, or YYYY where
	// the source gives only the year (a launch price, a yearly range).
	Date string `json:"date"`
}

// The kinds of price.
const (
	// PriceCloud is an on-demand cloud list price per GPU-hour.
	PriceCloud = "cloud_on_demand"
	// PricePurchase is a purchase price amortised over PurchaseLifeYears
	// of round-the-clock use, plus the part's power at USDPerKWh
	// (perUSD, perW).
	PricePurchase = "purchase_amortised"
	// PriceUser is the user's own price (gpu_hour_usd, or the planner's
	// constraints.prices), which overrides the table in every door.
	PriceUser = "user"
)

// The amortisation's stated inputs (docs/MODEL.md section 12).
const (
	// PurchaseLifeYears is the service life a purchase is spread over:
	// 4 years of 8,760 hours, run around the clock.
	PurchaseLifeYears = 4
	// USDPerKWh is the electricity price: 12.82 US cents per kWh, the
	// commercial-sector average of the East North Central census
	// division in April 2025 (EIA Electric Power Monthly, Table 5.6.A,
	// https://www.eia.gov/electricity/monthly/epm_table_grapher.php?t=table_5_06_a),
	// between that table's West North Central 9.74 and New England 22.74.
	USDPerKWh = 0.1282
	// hoursPerYear is 365 x 24.
	hoursPerYear = 8760
)

// The price sources (docs/MODEL.md section 12 lists every row with its
// figures). One rule for every part, in this order:
//
//  1. an on-demand cloud list price for one GPU: RunPod's Secure Cloud
//     for every part it lists (one provider, so vendors are compared on
//     one list), else the cloud that rents the part (Lambda, TensorWave
//     for AMD Instinct, Google Cloud for TPUs, AWS for its own chips and
//     the A10G, Spheron for GB200);
//  2. a part no list read prices but whose GPU one does price (GB300 is
//     the B300's GPU, H200 NVL the H200's, GH200 144GB the GH200's, MI350X
//     the MI355X's): that price;
//  3. else the purchase price amortised (perUSD, perW) with the MSRP and
//     power of Hugging Face's hardware table, one source for every
//     consumer, workstation, edge and Apple part and for the datacenter
//     parts no cloud list here prices.
//
// The kinds differ: a purchase price counts no host, hosting or margin,
// so it is lower than a rental of the same part (an H100 bought:
// $30,000 / 35,040 h + 0.7 kW x $0.1282 = $0.95 per hour, rented $3.49).
// The Source names which; the user's price overrides either.
//
// The price sources: each key the table writes, and the label it gives
// Price.Source (short, for the browser engine's size budget; the notes
// below and docs/MODEL.md section 12 give each with its full address and
// the figures read).
//
// RunPod Secure Cloud on-demand Pods, as a public price check read
// https://www.runpod.io/pricing on 2026-09-09 (GitHub code index file
// 68777368357): B300 $7.89, B200 $6.79, H200 $4.59, H100 SXM $3.49,
// A100 PCIe / SXM $1.59 (the api-evangelist/runpod transcription of
// 2026-10-07 gives the same five); and as the privum/ai-compute-prices
// dataset recorded it on 2026-08-19
// (https://huggingface.co/datasets/privum/ai-compute-prices), for the
// parts that check did not name: H100 NVL $3.19, H100 PCIe $2.89, A40
// $0.44.
// RunPod's on-demand list as Deploybase tabulated it in March 2026
// (https://deploybase.ai/articles/runpod-gpu-pricing): L4 $0.78, L40
// $1.22, L40S $1.40, RTX PRO 6000 $1.57 (96GB). That March table's H100
// SXM was $4.76 against September's $3.49: its four rows run high.
// Lambda on-demand, one GPU, as the same 2026-09-09 check read
// https://lambda.ai/instances: A100 40GB (SXM4) $1.99, GH200 $2.29.
// TensorWave on-demand per GPU, computeprices.com's tracker snapshot of
// 2026-05-12 (https://computeprices.com/providers/tensorwave), as a
// public research note transcribed it (GitHub code index file
// 55388395003): MI300X $1.71, MI325X $2.25, MI355X $2.95.
// Google Cloud TPU on-demand per chip-hour (https://cloud.google.com/tpu/pricing):
// v5e $1.20 (us-west4; public run notes, code index files 71161622745,
// 70765305778), Trillium v6e $2.70 (us-east5, as of 2026-08-01, file
// 60297035934), Ironwood $12.00 (us-central1, August 2026, file
// 57410340439).
// AWS EC2 on-demand, us-east-1, February 2026, per accelerator of the
// largest instance (a public cost script, code index file 51964178317):
// trn2.48xlarge $35.7608 / 16 Trainium2, inf2.48xlarge $12.98 / 12
// Inferentia2, g5.48xlarge $16.28 / 8 A10G.
// Spheron on-demand as of 2026-03-17: GB200 $9.08 per Superchip (two
// Blackwell GPUs), https://www.spheron.network/blog/nvidia-h200-vs-b200-vs-gb200.
// A16: "~$0.47–$0.56 per GPU/hour" (https://www.fluence.network/blog/nvidia-a16/,
// 2026): the low end.
// Hugging Face's hardware table: each part's msrp ("approximate MSRP in
// USD at launch", the largest memory variant's; for Apple, a Mac with
// the chip and its largest memory) and power ("approximate maximum
// sustained power draw"), huggingface/huggingface.js
// packages/tasks/src/hardware.ts, hardware-nvidia.ts, hardware-amd.ts
// at fe42e68017ffc76d09922ea8f9b38a6964345710 (2026-08-21), shown on
// https://huggingface.co/hardware/<part>.
// Parts the Hugging Face table lacks: Jetson AGX Thor developer kit
// $3,499 (NVIDIA via TechCrunch, retrieved 2026-05-31; code index file
// 56167470629) at its 130 W ceiling
// (https://learnaivisually.com/ai-explained/jetson-thor-edge-blackwell);
// RTX A4500 MSRP $1,699 and 200 W (https://chipversus.com/hardware/gpu/rtx-a4500);
// Gaudi 2 $65,000 per eight-accelerator kit with its universal baseboard
// (Intel's Computex 2024 list price, as The Next Platform reports it,
// https://www.nextplatform.com/2024/06/13/stacking-up-intel-gaudi-against-nvidia-gpus-for-ai/)
// at the HL-225H's 600 W (https://pcguia.pt/2024/04/nvidia-e-amd-tem-um-novo-rival-no-mercado-de-ia-a-intel);
// Gaudi 3 $125,000 per eight-chip kit (Intel, Computex 2024,
// https://y-ic.de/news/intel-officially-launches-gaudi3-ai-chip-slower-than-nvidia-h100,but-at-a-lower-cost.html)
// at the HL-325L's 900 W (https://pcguia.pt/2024/04/nvidia-e-amd-tem-um-novo-rival-no-mercado-de-ia-a-intel);
const (
	srcRunPod uint8 = iota
	srcRunPodAug
	srcRunPodMar
	srcLambda
	srcTensorWave
	srcGoogle
	srcGoogleV5e
	srcAWS
	srcSpheron
	srcFluence
	srcHF
	srcThor
	srcA4500
	srcGaudi2
	srcGaudi3
	srcB300
	srcH200
	srcGH200
	srcMI355X
)

var priceSources = [...]struct{ label, date string }{
	srcRunPod:     {"RunPod Secure Cloud, runpod.io", "2026-09"},
	srcRunPodAug:  {"RunPod Secure Cloud, runpod.io", "2026-08"},
	srcRunPodMar:  {"RunPod via deploybase.ai", "2026-03"},
	srcLambda:     {"Lambda, lambda.ai", "2026-09"},
	srcTensorWave: {"TensorWave via computeprices.com", "2026-05"},
	srcGoogle:     {"Google Cloud, cloud.google.com/tpu/pricing", "2026-08"},
	srcGoogleV5e:  {"Google Cloud, cloud.google.com/tpu/pricing", "2026-09"},
	srcAWS:        {"AWS EC2 us-east-1, aws.amazon.com", "2026-02"},
	srcSpheron:    {"Spheron, spheron.network", "2026-03"},
	srcFluence:    {"fluence.network", "2026"},
	srcHF:         {"Hugging Face, huggingface.co/hardware", "2026-08"},
	srcThor:       {"NVIDIA via techcrunch.com", "2026-05"},
	srcA4500:      {"chipversus.com", "2021"},
	srcGaudi2:     {"Intel via nextplatform.com", "2024-06"},
	srcGaudi3:     {"Intel via y-ic.de", "2024"},
	srcB300:       {"the B300's, RunPod, runpod.io", "2026-09"},
	srcH200:       {"the H200 SXM's, RunPod, runpod.io", "2026-09"},
	srcGH200:      {"the GH200 96GB's, Lambda, lambda.ai", "2026-09"},
	srcMI355X:     {"the MI355X's, TensorWave via computeprices.com", "2026-05"},
}

// priceRow is one accelerator's default price: its catalog id, the price
// of one GPU-hour in US dollars and its source (which gives the date).
// Few and small fields (24 bytes a row): the browser engine carries the
// table. float32 holds the prices to a millionth of a dollar.
type priceRow struct {
	id  string
	usd float32
	src uint8
}

// perUSD and perW turn a purchase price and a power draw into US dollars
// per hour, a purchase row writing MSRP*perUSD + WATTS*perW (constants,
// so the compiler computes each row):
//
//	USD/h = MSRP / (PurchaseLifeYears x 8,760 h) + WATTS / 1000 x USDPerKWh
//
// The draw is the part's rated power (board power, or the SoC's package
// power), at full load all the time: an upper bound for a server that
// idles between requests. Nothing else (host, cooling, space, financing)
// is counted.
const (
	perUSD = 1.0 / (PurchaseLifeYears * hoursPerYear)
	perW   = USDPerKWh / 1000
)

// defaultPrices holds a price for every catalog id. A
// cloud row's price is written as its source gives it (an instance's
// price over its accelerators: 35.7608/16); a purchase row's as
// MSRP*perUSD + WATTS*perW. An array of literals, not a map or rows
// built by a function: the compiler lays it out as static data, where
// either would be initialisation code the browser engine carries (about
// 150 bytes of gzip a row; sources.go).
var defaultPrices = [...]priceRow{
	{"b300", 7.89, srcRunPod},
	{"b200", 6.79, srcRunPod},
	{"h200-sxm-141gb", 4.59, srcRunPod},
	{"h100-sxm-80gb", 3.49, srcRunPod},
	{"a100-pcie-80gb", 1.59, srcRunPod},
	{"a100-sxm-80gb", 1.59, srcRunPod},
	{"h100-nvl-94gb", 3.19, srcRunPodAug},
	{"h100-pcie-80gb", 2.89, srcRunPodAug},
	{"a40", 0.44, srcRunPodAug},
	{"l4", 0.78, srcRunPodMar},
	{"l40", 1.22, srcRunPodMar},
	{"l40s", 1.40, srcRunPodMar},
	{"rtx-pro-6000-server", 1.57, srcRunPodMar},
	{"a100-sxm-40gb", 1.99, srcLambda},
	{"gh200-96gb", 2.29, srcLambda},
	{"mi300x", 1.71, srcTensorWave},
	{"mi325x", 2.25, srcTensorWave},
	{"mi355x", 2.95, srcTensorWave},
	{"tpu-v5e", 1.20, srcGoogleV5e},
	{"tpu-v6e", 2.70, srcGoogle},
	{"tpu-v7", 12.00, srcGoogle},
	{"trainium-2", 35.7608 / 16, srcAWS},
	{"inferentia-2", 12.98 / 12, srcAWS},
	{"a10g", 16.28 / 8, srcAWS},
	{"gb200", 9.08 / 2, srcSpheron},
	{"a16", 0.47, srcFluence},
	{"gb300", 7.89, srcB300},
	{"h200-nvl-141gb", 4.59, srcH200},
	{"gh200-144gb", 2.29, srcGH200},
	{"mi350x", 2.95, srcMI355X},
	{"t4", 2000*perUSD + 70*perW, srcHF},
	{"a10", 3200*perUSD + 150*perW, srcHF},
	{"a2", 1000*perUSD + 60*perW, srcHF},
	{"a30", 5000*perUSD + 165*perW, srcHF},
	{"v100-sxm2-32gb", 10000*perUSD + 300*perW, srcHF},
	{"a100-pcie-40gb", 15000*perUSD + 400*perW, srcHF},
	{"l20", 5000*perUSD + 275*perW, srcHF},
	{"h20", 13500*perUSD + 400*perW, srcHF},
	{"a800-sxm-80gb", 12000*perUSD + 400*perW, srcHF},
	{"h800-sxm-80gb", 30000*perUSD + 700*perW, srcHF},
	{"mi250x", 10000/2*perUSD + 560/2*perW, srcHF},
	{"mi100", 6400*perUSD + 300*perW, srcHF},
	{"gaudi-2", 65000/8*perUSD + 600*perW, srcGaudi2},
	{"gaudi-3", 125000/8*perUSD + 900*perW, srcGaudi3},
	{"rtx-3060-12gb", 350*perUSD + 170*perW, srcHF},
	{"rtx-3060-ti", 400*perUSD + 200*perW, srcHF},
	{"rtx-3070", 500*perUSD + 220*perW, srcHF},
	{"rtx-3070-ti", 600*perUSD + 290*perW, srcHF},
	{"rtx-3080", 800*perUSD + 350*perW, srcHF},
	{"rtx-3080-ti", 1200*perUSD + 350*perW, srcHF},
	{"rtx-3090", 1500*perUSD + 350*perW, srcHF},
	{"rtx-4060-ti-16gb", 500*perUSD + 165*perW, srcHF},
	{"rtx-4070", 600*perUSD + 200*perW, srcHF},
	{"rtx-4070-super", 600*perUSD + 220*perW, srcHF},
	{"rtx-4070-ti", 800*perUSD + 285*perW, srcHF},
	{"rtx-4080", 1200*perUSD + 320*perW, srcHF},
	{"rtx-4080-super", 1000*perUSD + 320*perW, srcHF},
	{"rtx-4090", 1600*perUSD + 450*perW, srcHF},
	{"rtx-5060-ti-16gb", 450*perUSD + 180*perW, srcHF},
	{"rtx-5070-ti", 750*perUSD + 300*perW, srcHF},
	{"rtx-5080", 1000*perUSD + 360*perW, srcHF},
	{"rtx-5090", 2000*perUSD + 575*perW, srcHF},
	{"rtx-a4000", 1000*perUSD + 140*perW, srcHF},
	{"rtx-a4500", 1699*perUSD + 200*perW, srcA4500},
	{"rtx-a5000", 2250*perUSD + 230*perW, srcHF},
	{"rtx-a6000", 4650*perUSD + 300*perW, srcHF},
	{"rtx-4000-ada", 1250*perUSD + 130*perW, srcHF},
	{"rtx-5000-ada", 4000*perUSD + 250*perW, srcHF},
	{"rtx-6000-ada", 6800*perUSD + 300*perW, srcHF},
	{"rtx-pro-4000", 1500*perUSD + 140*perW, srcHF},
	{"rtx-pro-4500", 2800*perUSD + 200*perW, srcHF},
	{"rtx-pro-5000", 4500*perUSD + 300*perW, srcHF},
	{"rtx-pro-6000-workstation", 8600*perUSD + 600*perW, srcHF},
	{"rtx-pro-6000-max-q", 8600*perUSD + 300*perW, srcHF},
	{"rx-7900-xtx", 1000*perUSD + 355*perW, srcHF},
	{"arc-pro-b60", 1200*perUSD + 200*perW, srcHF},
	{"gb10", 3999*perUSD + 140*perW, srcHF},
	{"ryzen-ai-max-395", 1500*perUSD + 120*perW, srcHF},
	{"jetson-agx-orin-64gb", 2000*perUSD + 60*perW, srcHF},
	{"jetson-agx-thor", 3499*perUSD + 130*perW, srcThor},
	{"m1", 1250*perUSD + 15*perW, srcHF},
	{"m1-pro", 2900*perUSD + 30*perW, srcHF},
	{"m1-max", 3900*perUSD + 60*perW, srcHF},
	{"m1-ultra", 6200*perUSD + 120*perW, srcHF},
	{"m2", 1500*perUSD + 20*perW, srcHF},
	{"m2-pro", 2800*perUSD + 35*perW, srcHF},
	{"m2-max", 4500*perUSD + 80*perW, srcHF},
	{"m2-ultra", 7000*perUSD + 150*perW, srcHF},
	{"m3", 1500*perUSD + 22*perW, srcHF},
	{"m3-pro", 2400*perUSD + 40*perW, srcHF},
	{"m3-max", 5000*perUSD + 90*perW, srcHF},
	{"m3-ultra", 9500*perUSD + 180*perW, srcHF},
	{"m4", 1600*perUSD + 22*perW, srcHF},
	{"m4-pro", 2600*perUSD + 45*perW, srcHF},
	{"m4-max", 5000*perUSD + 100*perW, srcHF},
}

// DefaultPrice returns the default price of the accelerator with catalog
// id, and false when the table has none: the calculator then leaves the
// cost section out with a warning, and the planner rejects the part, each
// asking for the user's price.
func DefaultPrice(id string) (Price, bool) {
	for _, r := range defaultPrices {
		if r.id != id {
			continue
		}
		src := priceSources[r.src]
		// float32 to the nearest millionth of a dollar: 7.89, not 7.8899999.
		usd := float64(int64(float64(r.usd)*1e6+0.5)) / 1e6
		p := Price{USDPerHour: usd, Kind: PriceCloud, Source: src.label, Date: src.date}
		if r.src >= srcHF && r.src <= srcGaudi3 {
			p.Kind = PricePurchase
		}
		return p, true
	}
	return Price{}, false
}

// PricedIDs lists the catalog ids that have a default price, sorted.
func PricedIDs() []string {
	out := make([]string, 0, len(defaultPrices))
	for _, r := range defaultPrices {
		out = append(out, r.id)
	}
	strsort.Strings(out)
	return out
}
