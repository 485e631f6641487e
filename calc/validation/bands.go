package validation

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/bands"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/hardware"
)

// BandKey is the regime a validation case (or a figure) belongs to; a
// blank field means "any" in a table row.
type BandKey struct {
	Engine, Family string
	// Regime is the KV family's release class (bands.Releases) or the
	// other families' batch bucket (bands.Batches).
	Regime string
	// TP is bands.TPs' value, GPU bands.GPUs'.
	TP, GPU string
}

// bandMinCases is the fewest residuals a band is read from: with n sorted
// residuals the k-th smallest and k-th largest, k = floor((1-0.8)/2 *
// (n+1)), bound an interval that holds a new case of the same population
// with probability at least (n+1-2k)/(n+1) (order statistics of an
// exchangeable sample: the split-conformal argument). k >= 1 needs n >= 9.
const bandMinCases = 9

// BandEntry is one row of the hierarchical band table.
type BandEntry struct {
	Key    BandKey
	N      int
	Lo, Hi float64 // ln(measured/predicted)
}

// BandDomain lists, per engine and family, the values of each regime
// dimension the cases cover.
type BandDomain struct {
	Engine, Family     string
	Regimes, TPs, GPUs []string
}

// keyOf is the band regime of a report's figure of family at batch b.
func keyOf(rep *calc.Report, family string, b int) BandKey {
	id := rep.Hardware.ID
	if id == hardware.CustomID {
		id = ""
	}
	return bandKey(rep.Config.Engine, rep.Config.EngineVersion, id, family, rep.Config.TensorParallelSize, b)
}

// bandKey files a figure of family under its engine, its TP bucket, its
// GPU's class ("custom" for an accelerator outside the catalog) and its
// regime: the batch bucket of b, or for the KV family the release class.
func bandKey(engine, version, gpuID, family string, tp, b int) BandKey {
	gpu := "custom"
	if a, err := hardware.Lookup(gpuID); gpuID != "" && err == nil {
		gpu = bands.GPUClass(&a)
	}
	k := BandKey{Engine: engine, Family: family, TP: bands.TPBucket(tp), GPU: gpu, Regime: bands.BatchBucket(b)}
	if family == bands.KV {
		k.Regime = bands.ReleaseClass(engine, version)
	}
	return k
}

// BandLevels are the keys a lookup tries, the most specific first: the
// whole regime, the regime alone, the engine, the family over every
// engine.
func BandLevels(k BandKey) []BandKey {
	return []BandKey{
		k,
		{Engine: k.Engine, Family: k.Family, Regime: k.Regime},
		{Engine: k.Engine, Family: k.Family},
		{Family: k.Family},
	}
}

// BandFit is a band looked up in a table.
type BandFit struct {
	Lo, Hi float64 // ln(measured/predicted)
	N      int
	// Key is the table row's key.
	Key BandKey
	// Flags are calc's BandOutside... flags.
	Flags byte
}

// LookupBand returns the band of key k: the most specific level of
// BandLevels with at least 9 cases, and whether there is one. Outside the
// domain (a regime value no case of the engine and family has), or when
// the band is every engine's, its width is doubled about its middle: an
// extrapolation's error is not the validated one.
func LookupBand(table []BandEntry, dom []BandDomain, k BandKey) (BandFit, bool) {
	levels := BandLevels(k)
	for lvl, want := range levels {
		for _, e := range table {
			if e.Key != want || e.N < bandMinCases {
				continue
			}
			f := BandFit{Lo: e.Lo, Hi: e.Hi, N: e.N, Key: want, Flags: outsideDomain(dom, k)}
			if lvl == len(levels)-1 && k.Engine != "" {
				f.Flags |= bands.OtherEngines
			}
			if f.Flags != 0 {
				f.widen()
			}
			return f, true
		}
	}
	return BandFit{}, false
}

func (f *BandFit) widen() {
	w := (f.Hi - f.Lo) / 2
	f.Lo, f.Hi = f.Lo-w, f.Hi+w
}

func outsideDomain(dom []BandDomain, k BandKey) byte {
	for _, d := range dom {
		if d.Engine != k.Engine || d.Family != k.Family {
			continue
		}
		var fl byte
		for i, c := range []struct {
			v  string
			in []string
		}{{k.Regime, d.Regimes}, {k.TP, d.TPs}, {k.GPU, d.GPUs}} {
			if !contains(c.in, c.v) {
				fl |= bands.OutsideRegime << i
			}
		}
		if fl != 0 {
			fl |= bands.Outside
		}
		return fl
	}
	return bands.Outside | bands.OutsideEngine
}

func contains(xs []string, v string) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// Residual is ln(measured / predicted) of a comparable case in the units
// of its band family: a throughput case (output_tokens_per_s) is filed
// under the step time, whose ratio is its inverse.
func Residual(r Result) float64 {
	l := math.Log(r.Measured / r.Predicted)
	if r.Metric == "output_tokens_per_s" {
		return -l
	}
	return l
}

// banded reports whether r contributes a residual to the bands.
func banded(r Result) bool {
	return r.Comparable && r.Key.Family != "" && r.Measured > 0 && r.Predicted > 0
}

// BuildBands computes the hierarchical band table and the validated
// domain from the comparable results: for every key of BandLevels of
// every case, the k-th smallest and k-th largest residual of the cases
// under it (Interval). Rows are sorted, so the table is deterministic.
func BuildBands(rs []Result) ([]BandEntry, []BandDomain) {
	byKey := map[BandKey][]float64{}
	type ef struct{ e, f string }
	dom := map[ef]*BandDomain{}
	for _, r := range rs {
		if !banded(r) {
			continue
		}
		res := Residual(r)
		seen := map[BandKey]bool{}
		for _, k := range BandLevels(r.Key) {
			if !seen[k] {
				seen[k] = true
				byKey[k] = append(byKey[k], res)
			}
		}
		d := dom[ef{r.Key.Engine, r.Key.Family}]
		if d == nil {
			d = &BandDomain{Engine: r.Key.Engine, Family: r.Key.Family}
			dom[ef{r.Key.Engine, r.Key.Family}] = d
		}
		d.Regimes = addUnique(d.Regimes, r.Key.Regime)
		d.TPs = addUnique(d.TPs, r.Key.TP)
		d.GPUs = addUnique(d.GPUs, r.Key.GPU)
	}
	var table []BandEntry
	for k, xs := range byKey {
		lo, hi, ok := Interval(xs, bands.Coverage)
		if !ok {
			continue
		}
		table = append(table, BandEntry{Key: k, N: len(xs), Lo: lo, Hi: hi})
	}
	sort.Slice(table, func(i, j int) bool { return keyLess(table[i].Key, table[j].Key) })
	var domain []BandDomain
	for _, d := range dom {
		domain = append(domain, *d)
	}
	sortByEngine(domain, func(d BandDomain) [2]string { return [2]string{d.Engine, d.Family} })
	return table, domain
}

// sortByEngine sorts xs by engine, then family.
func sortByEngine[T any](xs []T, key func(T) [2]string) {
	sort.Slice(xs, func(i, j int) bool {
		a, b := key(xs[i]), key(xs[j])
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		return a[1] < b[1]
	})
}

func keyLess(a, b BandKey) bool {
	x := []string{a.Family, a.Engine, a.Regime, a.TP, a.GPU}
	y := []string{b.Family, b.Engine, b.Regime, b.TP, b.GPU}
	for i := range x {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return false
}

func addUnique(xs []string, v string) []string {
	i := sort.SearchStrings(xs, v)
	if i < len(xs) && xs[i] == v {
		return xs
	}
	xs = append(xs, "")
	copy(xs[i+1:], xs[i:])
	xs[i] = v
	return xs
}

// Interval returns the distribution-free prediction interval of coverage
// c from the sample xs: its k-th smallest and k-th largest values, k =
// floor((1-c)/2 * (n+1)). A new draw from the same population falls in it
// with probability at least (n+1-2k)/(n+1). ok is false when k < 1 (fewer
// than 9 values at c = 0.8).
func Interval(xs []float64, c float64) (lo, hi float64, ok bool) {
	n := len(xs)
	k := int(math.Floor((1-c)/2*float64(n+1) + 1e-9)) // 0.1 x 10 is 0.99999... in float64
	if k < 1 {
		return 0, 0, false
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[k-1], s[n-k], true
}

// Resolve is the band of key k as the engine gets it: LookupBand, and for
// a family without cases (TTFT, until published TTFTs are added) the step
// time's band of the same regime, doubled (bands.FromStep).
func Resolve(table []BandEntry, dom []BandDomain, k BandKey) (BandFit, bool) {
	f, ok := LookupBand(table, dom, k)
	if ok || k.Family != bands.TTFT {
		return f, ok
	}
	s := k
	s.Family = bands.Step
	if f, ok = LookupBand(table, dom, s); ok {
		f.widen()
		f.Flags |= bands.FromStep
	}
	return f, ok
}

// Basis is the text a band's range names its cases by.
func (f BandFit) Basis() string {
	e := f.Key.Engine
	if e == "" {
		e = "all engines"
	}
	s := []string{e, f.Key.Family}
	for _, p := range []string{f.Key.Regime, f.Key.TP, f.Key.GPU} {
		if p != "" {
			s = append(s, p)
		}
	}
	return strings.Join(s, " ") + " (" + strconv.Itoa(f.N) + " cases)"
}

// FlatTable resolves the band of every regime of the engine's table
// (calc.BandIndex order) into calc's encoding: 6 bytes per entry (low and
// high as int16 thousandths, little-endian; the basis index, 255 for none;
// the flags) and the basis texts.
func FlatTable(table []BandEntry, dom []BandDomain) ([]byte, []string) {
	engines := bands.Engines()
	n := bands.Index(len(engines)-1, len(bands.Families)-1, 3, len(bands.TPs)-1, len(bands.GPUs)-1) + 1
	data := make([]byte, 0, 6*n)
	var basis []string
	idx := map[string]int{}
	for e, en := range engines {
		for f, fam := range bands.Families {
			regimes := bands.Batches
			if fam == bands.KV {
				regimes = bands.Releases
			}
			for _, x := range regimes {
				for _, tp := range bands.TPs {
					for _, g := range bands.GPUs {
						if len(data) != 6*bands.Index(e, f, index(regimes, x), index(bands.TPs, tp), index(bands.GPUs, g)) {
							panic("validation: the flat band table is out of calc.BandIndex's order")
						}
						bf, ok := Resolve(table, dom, BandKey{Engine: en, Family: fam, Regime: x, TP: tp, GPU: g})
						if !ok {
							data = append(data, 0, 0, 0, 0, 255, 0)
							continue
						}
						b := bf.Basis()
						i, seen := idx[b]
						if !seen {
							i = len(basis)
							idx[b] = i
							basis = append(basis, b)
						}
						lo, hi := milli(bf.Lo), milli(bf.Hi)
						data = append(data, byte(lo), byte(lo>>8), byte(hi), byte(hi>>8), byte(i), bf.Flags)
					}
				}
			}
		}
	}
	return data, basis
}

func index(xs []string, v string) int {
	for i, x := range xs {
		if x == v {
			return i
		}
	}
	return -1
}

// milli is x in thousandths, rounded, as an int16 (saturated).
func milli(x float64) uint16 {
	return uint16(int16(max(min(math.Round(x*1000), math.MaxInt16), math.MinInt16)))
}

// CoverageRow is the leave-one-out coverage of the bands of one engine and
// family: each case's band is built from all the other cases.
type CoverageRow struct {
	Engine, Family string
	N, Inside      int
	// NoBand counts the cases for which no band could be built without
	// them (fewer than 9 other cases at every level).
	NoBand int
}

// Fraction is Inside / (N - NoBand).
func (c CoverageRow) Fraction() float64 {
	if c.N-c.NoBand <= 0 {
		return 0
	}
	return float64(c.Inside) / float64(c.N-c.NoBand)
}

// Band outcomes of one case under InsideBands.
const (
	BandNotBanded int8 = iota // not a banded case (no family, not comparable)
	BandNone                  // no band could be built without it
	BandOutside               // its measured value falls outside its band
	BandInside                // inside
)

// InsideBands is the leave-one-out check of each case's band: for each
// comparable case it builds the band table from every other case, resolves
// the case's band as the generator does for the engine (Resolve: widening
// outside the domain included, the milli-unit rounding of the table) and
// says whether the measured value falls inside (one outcome per result, in
// order).
func InsideBands(rs []Result) []int8 {
	out := make([]int8, len(rs))
	others := make([]Result, 0, len(rs))
	for i, r := range rs {
		if !banded(r) {
			continue
		}
		others = append(others[:0], rs[:i]...)
		others = append(others, rs[i+1:]...)
		table, dom := BuildBands(others)
		f, ok := Resolve(table, dom, r.Key)
		if !ok {
			out[i] = BandNone
			continue
		}
		lo, hi := float64(int16(milli(f.Lo)))/1000, float64(int16(milli(f.Hi)))/1000
		out[i] = BandOutside
		if x := Residual(r); x >= lo && x <= hi {
			out[i] = BandInside
		}
	}
	return out
}

// Coverage checks the bands honestly (InsideBands) and counts, per engine
// and family, the cases whose measured value falls inside their band.
// Rows are sorted; the last row is the total (Engine "all").
func Coverage(rs []Result) []CoverageRow {
	type ef struct{ e, f string }
	rows := map[ef]*CoverageRow{}
	total := &CoverageRow{Engine: "all", Family: "all"}
	for i, o := range InsideBands(rs) {
		if o == BandNotBanded {
			continue
		}
		r := rs[i]
		row := rows[ef{r.Key.Engine, r.Key.Family}]
		if row == nil {
			row = &CoverageRow{Engine: r.Key.Engine, Family: r.Key.Family}
			rows[ef{r.Key.Engine, r.Key.Family}] = row
		}
		row.N++
		total.N++
		switch o {
		case BandNone:
			row.NoBand++
			total.NoBand++
		case BandInside:
			row.Inside++
			total.Inside++
		}
	}
	var out []CoverageRow
	for _, r := range rows {
		out = append(out, *r)
	}
	sortByEngine(out, func(c CoverageRow) [2]string { return [2]string{c.Engine, c.Family} })
	return append(out, *total)
}
