package hardware

import "strings"

//go:generate go run ../tools/gen/hwcites -citations citations/citations.go -keys citations_gen.go -table citations/table_gen.go -js ../www/module/hardware-sources.js
//go:generate go run ../tools/gen/hwdocs -o ../docs/model-catalog.md

// catalog holds every entry in a stable order: NVIDIA datacenter, NVIDIA
// GeForce and workstation, NVIDIA unified-memory machines, AMD, Intel,
// Google, AWS, Apple; within a vendor, the older lists first (each by
// generation), then the ones added for issue 15, then the later additions
// (catalog_more.go). Entries are Go literals (no parsing at start-up).
var catalog = concat(nvidiaDatacenter, nvidiaDatacenter2026, nvidiaGH200, nvidiaRTX, nvidiaWorkstation2026, nvidiaGeForce2026, nvidiaGeForceMore, nvidiaUnified,
	amd, amd2026, intel, intel2026, google, google2026, aws, apple, appleMore)

// concat joins the vendor lists and clips every shared slice to its length,
// so that an append on a returned copy reallocates instead of writing into
// the catalog.
func concat(groups ...[]Accelerator) []Accelerator {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	out := make([]Accelerator, 0, n)
	for _, g := range groups {
		for _, a := range g {
			a.Aliases = a.Aliases[:len(a.Aliases):len(a.Aliases)]
			a.Sources = a.Sources[:len(a.Sources):len(a.Sources)]
			if strings.Contains(a.Name, "GeForce") && a.PeakFLOPS.FP16Acc == 0 {
				// Every GeForce whitepaper gives fp16 with fp16
				// accumulate at twice the fp32-accumulate rate that
				// BF16 holds (PeakFLOPS.FP16Acc).
				a.PeakFLOPS.FP16Acc = 2 * a.PeakFLOPS.BF16
			}
			out = append(out, a)
		}
	}
	return out
}

// Catalog returns every catalog entry in a stable order (NVIDIA datacenter,
// NVIDIA RTX, NVIDIA unified memory, AMD, Intel, Google, AWS, Apple). The slice is a fresh copy the
// caller may reorder or modify; the Aliases and Sources slices inside the
// entries are shared with the catalog and must be treated as read-only.
func Catalog() []Accelerator {
	out := make([]Accelerator, len(catalog))
	copy(out, catalog)
	return out
}

// IDs returns the canonical ids of all entries, in Catalog order.
func IDs() []string {
	out := make([]string, len(catalog))
	for i := range catalog {
		out[i] = catalog[i].ID
	}
	return out
}
