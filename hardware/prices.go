package hardware

import "slices"

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
	// Date is when the source states the price: YYYY-MM for a price list
	// read on a date, YYYY for a purchase price (the part's release year,
	// which the source gives with its launch price).
	Date string `json:"date"`
}

// The kinds of price.
const (
	// PriceCloud is an on-demand cloud list price per GPU-hour.
	PriceCloud = "cloud_on_demand"
	// PricePurchase is a purchase price amortised over PurchaseLifeYears
	// of round-the-clock use, plus the part's power at USDPerKWh
	// (purchaseHourly).
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

// purchaseHourly is the hourly cost of a part bought for usd and drawing
// watts: usd / (PurchaseLifeYears x 8,760 h) + watts / 1000 x USDPerKWh.
// The draw is the part's rated power (board power, or the SoC's), at full
// load all the time: an upper bound for a server that idles between
// requests. Nothing else (host, cooling, space, financing) is counted.
func purchaseHourly(usd, watts float64) float64 {
	return usd/(PurchaseLifeYears*hoursPerYear) + watts/1000*USDPerKWh
}

// The price sources. Cloud: RunPod's on-demand Pods list (Secure Cloud,
// one GPU), one provider for every part it lists so vendors are compared
// on one list. Purchase: the MSRP and power the Hugging Face hardware
// pages give, one source for every part no cloud list here prices.
const (
	priceRunPodSep = "RunPod on-demand Pods, Secure Cloud, per GPU (https://www.runpod.io/pricing, as read 2026-09-09 in a public price check, GitHub code index file 68777368357)"
	priceRunPodAug = "RunPod on-demand Pods, Secure Cloud, per GPU (https://www.runpod.io/pricing, as recorded 2026-08-19 in the privum/ai-compute-prices dataset, https://huggingface.co/datasets/privum/ai-compute-prices)"
	priceRunPodMar = "RunPod on-demand per GPU, as tabulated in \"RunPod GPU Pricing: 2026 Comprehensive Pricing Guide\" (Deploybase, 2026-03-10), https://deploybase.ai/articles/runpod-gpu-pricing"
	priceHF        = "Hugging Face hardware page (MSRP and power), https://huggingface.co/hardware/"
)

// priceRow is one accelerator's default price: a cloud list price (usd),
// or a purchase price and a power draw (msrp, watts) for purchaseHourly.
type priceRow struct {
	usd, msrp, watts float64
	src, date        string
	page             string // the Hugging Face hardware page's name
}

// cloud and bought build the rows.
func cloud(usd float64, src, date string) priceRow {
	return priceRow{usd: usd, src: src, date: date}
}

func bought(page string, msrp, watts float64, year string) priceRow {
	return priceRow{msrp: msrp, watts: watts, src: priceHF, date: year, page: page}
}

// defaultPrices holds every priced catalog id. Hugging Face gives MSRP
// rounded to $0.1k above $1,000 ("$1.5k") and per chip, whatever the
// memory: an Apple chip's price is the one configuration the page names,
// not necessarily the catalog entry's memory.
var defaultPrices = map[string]priceRow{
	// RunPod Secure Cloud, 2026-09-09: B300 $7.89, B200 $6.79, H200 $4.59,
	// H100 SXM $3.49, A100 PCIe / SXM $1.59.
	"b300":           cloud(7.89, priceRunPodSep, "2026-09"),
	"b200":           cloud(6.79, priceRunPodSep, "2026-09"),
	"h200-sxm-141gb": cloud(4.59, priceRunPodSep, "2026-09"),
	"h100-sxm-80gb":  cloud(3.49, priceRunPodSep, "2026-09"),
	"a100-pcie-80gb": cloud(1.59, priceRunPodSep, "2026-09"),
	"a100-sxm-80gb":  cloud(1.59, priceRunPodSep, "2026-09"),
	// RunPod Secure Cloud, 2026-08-19: H100 NVL $3.19, H100 PCIe $2.89,
	// A40 $0.44.
	"h100-nvl-94gb":  cloud(3.19, priceRunPodAug, "2026-08"),
	"h100-pcie-80gb": cloud(2.89, priceRunPodAug, "2026-08"),
	"a40":            cloud(0.44, priceRunPodAug, "2026-08"),
	// RunPod on-demand as Deploybase tabulated it in March 2026, for the
	// parts neither later snapshot above lists: L4 $0.78, L40 $1.22, L40S
	// $1.40, RTX PRO 6000 $1.57 (96GB, the server card's memory). That
	// table's H100 SXM is $4.76 against $3.49 six months later: older
	// prices run higher.
	"l4":                  cloud(0.78, priceRunPodMar, "2026-03"),
	"l40":                 cloud(1.22, priceRunPodMar, "2026-03"),
	"l40s":                cloud(1.40, priceRunPodMar, "2026-03"),
	"rtx-pro-6000-server": cloud(1.57, priceRunPodMar, "2026-03"),

	// Purchase, amortised: datacenter parts the cloud list above does not
	// price (cheaper than a rental: no provider's margin, host or
	// datacenter; docs/MODEL.md section 12).
	"a30": bought("a30", 5000, 165, "2021"),

	// Purchase, amortised: consumer, workstation, edge and Apple parts.
	"rtx-3060-12gb":    bought("rtx-3060", 350, 170, "2021"),
	"rtx-3060-ti":      bought("rtx-3060-ti", 400, 200, "2020"),
	"rtx-3070":         bought("rtx-3070", 500, 220, "2020"),
	"rtx-3080":         bought("rtx-3080", 800, 350, "2020"),
	"rtx-3090":         bought("rtx-3090", 1500, 350, "2020"),
	"rtx-4070":         bought("rtx-4070", 600, 200, "2023"),
	"rtx-4070-super":   bought("rtx-4070-super", 600, 220, "2024"),
	"rtx-4080":         bought("rtx-4080", 1200, 320, "2022"),
	"rtx-4080-super":   bought("rtx-4080-super", 1000, 320, "2024"),
	"rtx-5060-ti-16gb": bought("rtx-5060-ti", 450, 180, "2025"),
	"rtx-5080":         bought("rtx-5080", 1000, 360, "2025"),
	"rtx-a5000":        bought("rtx-a5000", 2300, 230, "2021"),
	"rtx-a6000":        bought("rtx-a6000", 4700, 300, "2020"),
	"rtx-4000-ada":     bought("rtx-4000-ada", 1300, 130, "2023"),
	"rtx-6000-ada":     bought("rtx-6000-ada", 6800, 300, "2022"),
	"rtx-pro-4000":     bought("rtx-pro-4000", 1500, 140, "2025"),
	"rtx-pro-4500":     bought("rtx-pro-4500-ws", 2800, 200, "2025"),
	"rtx-pro-5000":     bought("rtx-pro-5000", 4500, 300, "2025"),
	"gb10":             bought("gb10", 4000, 140, "2025"),
	"ryzen-ai-max-395": bought("ryzen-ai-max-395", 1500, 120, "2025"),
	"m1-max":           bought("apple-m1-max", 3900, 60, "2021"),
	"m2":               bought("apple-m2", 1500, 20, "2022"),
	"m2-pro":           bought("apple-m2-pro", 2800, 35, "2023"),
	"m2-max":           bought("apple-m2-max", 4500, 80, "2023"),
	"m3":               bought("apple-m3", 1500, 22, "2023"),
	"m3-pro":           bought("apple-m3-pro", 2400, 40, "2023"),
	"m3-max":           bought("apple-m3-max", 5000, 90, "2023"),
	"m3-ultra":         bought("apple-m3-ultra", 9500, 180, "2025"),
	"m4":               bought("apple-m4", 1600, 22, "2024"),
	"m4-max":           bought("apple-m4-max", 5000, 100, "2024"),
}

// DefaultPrice returns the default price of the accelerator with catalog
// id, and false when the table has none: the calculator then leaves the
// cost section out with a warning, and the planner rejects the part, each
// asking for the user's price.
func DefaultPrice(id string) (Price, bool) {
	r, ok := defaultPrices[id]
	if !ok {
		return Price{}, false
	}
	if r.page != "" {
		return Price{USDPerHour: purchaseHourly(r.msrp, r.watts), Kind: PricePurchase, Source: r.src + r.page, Date: r.date}, true
	}
	return Price{USDPerHour: r.usd, Kind: PriceCloud, Source: r.src, Date: r.date}, true
}

// PurchaseInputs returns the purchase price (USD) and power (W) a
// purchase-amortised default price is built from, and false for a cloud
// price or an unpriced id.
func PurchaseInputs(id string) (usd, watts float64, ok bool) {
	r, ok := defaultPrices[id]
	if !ok || r.page == "" {
		return 0, 0, false
	}
	return r.msrp, r.watts, true
}

// PricedIDs lists the catalog ids that have a default price, sorted.
func PricedIDs() []string {
	out := make([]string, 0, len(defaultPrices))
	for id := range defaultPrices {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}
