package hardware

// BoardPower is an accelerator's rated power (board power, TDP or TGP; a
// SoC's package power), in watts, with where it was read: what the energy
// section's power model (calc/deploy/energy.go, docs/MODEL.md section 5c)
// scales. The request's gpu_power_w overrides it (a custom accelerator, a
// board run under a power limit).
type BoardPower struct {
	// Watts is the rated power of one GPU (one chip, one Apple SoC).
	Watts float64 `json:"watts"`
	// Source names the datasheet or table it was read from.
	Source string `json:"source"`
}

// The power sources, each key the table writes and the label it gives
// BoardPower.Source (short: the browser engine carries them):
//
//   - NVIDIA's datasheets: H100 ("Max thermal design power (TDP) up to
//     700W" SXM, 300-350W PCIe, 350-400W NVL; the upper figure is the
//     board's default limit), H200 (up to 700W SXM, up to 600W NVL), A100
//     (400W SXM, 300W 80GB PCIe, 250W 40GB PCIe), V100 (300W SXM2), L4
//     (72W), L40S (350W), L40 (300W), A40 (300W), A10 (150W), T4 (70W),
//     A30 (165W), A2 (60W), and the HGX B200 platform (up to 1,000W per
//     GPU), https://www.nvidia.com/en-us/data-center/ product pages;
//   - AMD's Instinct pages: MI300X 750W, MI325X 1,000W, MI350X 1,000W,
//     MI355X 1,400W (https://www.amd.com/en/products/accelerators/instinct/);
//   - Hugging Face's hardware table (power: "approximate maximum sustained
//     power draw"), the table hardware/prices.go reads the purchase rows'
//     watts from (huggingface/huggingface.js packages/tasks/src/hardware*.ts
//     at fe42e68017ffc76d09922ea8f9b38a6964345710), for every other part
//     below; the same figures as the price rows' WATTS.
const (
	pwrNVIDIA uint8 = iota
	pwrAMD
	pwrHF
)

var powerSources = [...]string{
	pwrNVIDIA: "NVIDIA datasheet, nvidia.com",
	pwrAMD:    "AMD Instinct product page, amd.com",
	pwrHF:     "Hugging Face, huggingface.co/hardware",
}

// powerRow is one accelerator's rated power: catalog id, watts, source.
// An array of literals (static data, as defaultPrices).
type powerRow struct {
	id    string
	watts uint16
	src   uint8
}

var boardPowers = [...]powerRow{
	{"h100-sxm-80gb", 700, pwrNVIDIA},
	{"h100-pcie-80gb", 350, pwrNVIDIA},
	{"h100-nvl-94gb", 400, pwrNVIDIA},
	{"h200-sxm-141gb", 700, pwrNVIDIA},
	{"h200-nvl-141gb", 600, pwrNVIDIA},
	{"a100-sxm-80gb", 400, pwrNVIDIA},
	{"a100-sxm-40gb", 400, pwrNVIDIA},
	{"a100-pcie-80gb", 300, pwrNVIDIA},
	{"a100-pcie-40gb", 250, pwrNVIDIA},
	{"v100-sxm2-32gb", 300, pwrNVIDIA},
	{"l4", 72, pwrNVIDIA},
	{"l40s", 350, pwrNVIDIA},
	{"l40", 300, pwrNVIDIA},
	{"a40", 300, pwrNVIDIA},
	{"a10", 150, pwrNVIDIA},
	{"t4", 70, pwrNVIDIA},
	{"a30", 165, pwrNVIDIA},
	{"a2", 60, pwrNVIDIA},
	{"b200", 1000, pwrNVIDIA},
	{"mi300x", 750, pwrAMD},
	{"mi325x", 1000, pwrAMD},
	{"mi350x", 1000, pwrAMD},
	{"mi355x", 1400, pwrAMD},
	{"l20", 275, pwrHF},
	{"h20", 400, pwrHF},
	{"a800-sxm-80gb", 400, pwrHF},
	{"h800-sxm-80gb", 700, pwrHF},
	{"mi250x", 280, pwrHF}, // 560 W per two-GCD package
	{"mi100", 300, pwrHF},
	{"rtx-3060-12gb", 170, pwrHF},
	{"rtx-3060-ti", 200, pwrHF},
	{"rtx-3070", 220, pwrHF},
	{"rtx-3070-ti", 290, pwrHF},
	{"rtx-3080", 350, pwrHF},
	{"rtx-3080-ti", 350, pwrHF},
	{"rtx-3090", 350, pwrHF},
	{"rtx-4060-ti-16gb", 165, pwrHF},
	{"rtx-4070", 200, pwrHF},
	{"rtx-4070-super", 220, pwrHF},
	{"rtx-4070-ti", 285, pwrHF},
	{"rtx-4080", 320, pwrHF},
	{"rtx-4080-super", 320, pwrHF},
	{"rtx-4090", 450, pwrHF},
	{"rtx-5060-ti-16gb", 180, pwrHF},
	{"rtx-5070-ti", 300, pwrHF},
	{"rtx-5080", 360, pwrHF},
	{"rtx-5090", 575, pwrHF},
	{"rtx-a4000", 140, pwrHF},
	{"rtx-a5000", 230, pwrHF},
	{"rtx-a6000", 300, pwrHF},
	{"rtx-4000-ada", 130, pwrHF},
	{"rtx-5000-ada", 250, pwrHF},
	{"rtx-6000-ada", 300, pwrHF},
	{"rtx-pro-4000", 140, pwrHF},
	{"rtx-pro-4500", 200, pwrHF},
	{"rtx-pro-5000", 300, pwrHF},
	{"rtx-pro-6000-workstation", 600, pwrHF},
	{"rtx-pro-6000-max-q", 300, pwrHF},
	{"rx-7900-xtx", 355, pwrHF},
	{"arc-pro-b60", 200, pwrHF},
	{"gb10", 140, pwrHF},
	{"ryzen-ai-max-395", 120, pwrHF},
	{"jetson-agx-orin-64gb", 60, pwrHF},
	{"m2-ultra", 150, pwrHF},
	{"m3-max", 90, pwrHF},
	{"m3-ultra", 180, pwrHF},
	{"m4-max", 100, pwrHF},
}

// DefaultBoardPower returns the rated power of the accelerator with
// catalog id, and false when the table has none (the report then has no
// energy section without the request's gpu_power_w, and says so).
func DefaultBoardPower(id string) (BoardPower, bool) {
	for _, r := range boardPowers {
		if r.id == id {
			return BoardPower{Watts: float64(r.watts), Source: powerSources[r.src]}, true
		}
	}
	return BoardPower{}, false
}
