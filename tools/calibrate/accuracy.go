package main

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/modelrefs/throughput/calc/validation"
)

// The accuracy page (issue 34): per engine release and GPU family, the
// out-of-source error of each figure class, its cases and sources and the
// bands' coverage, from the same held-out figures as calibrate's default
// report (holdOut by source document) and -coverage (the leave-one-out
// band of each case from the others' held-out residuals). -bands writes it
// with the band table, from one held-out run: the figures as JSON
// (accuracyData, the page's data, which TestAccuracyPageFromData rebuilds
// the page from) and the page as Markdown (docs/accuracy.md) and HTML
// (www/page/accuracy.html, copied into build/site by ./build.sh build).

// accuracyFigure is one comparable figure of one case, as the page counts
// it: its class, engine release, GPU, source document, the measured value,
// the prediction of the shipped terms (in sample) and the one held out by
// source, and its band's outcome (validation.InsideBands: "inside",
// "outside", "none" when no band could be built without it, "" for a
// figure the bands do not cover).
type accuracyFigure struct {
	ID       string  `json:"id"`
	Metric   string  `json:"metric"`
	Class    string  `json:"class"`
	Engine   string  `json:"engine"`
	Version  string  `json:"engine_version,omitempty"`
	GPU      string  `json:"gpu"`
	Source   string  `json:"source"`
	Measured float64 `json:"measured"`
	InSample float64 `json:"in_sample"`
	HeldOut  float64 `json:"held_out"`
	Band     string  `json:"band,omitempty"`
}

// accuracyData is the page's data file.
type accuracyData struct {
	Comment string `json:"comment"`
	// Inputs names the validation files the figures come from.
	Inputs  string           `json:"inputs"`
	Figures []accuracyFigure `json:"figures"`
}

// accuracyFigures turns the held-out figures (holdOut's, their r.Predicted
// the in-sample prediction) into the page's rows, with each one's band
// outcome from the held-out residuals.
func accuracyFigures(figs []figure) []accuracyFigure {
	rs := make([]validation.Result, len(figs))
	for i, f := range figs {
		rs[i] = f.r
		rs[i].Predicted = f.held
	}
	in := validation.InsideBands(rs)
	out := make([]accuracyFigure, 0, len(figs))
	for i, f := range figs {
		a := accuracyFigure{ID: f.r.ID, Metric: f.r.Metric, Class: class(f.r.Metric), Engine: f.r.Engine, Version: f.r.Version,
			GPU: f.r.GPU, Source: f.r.Source, Measured: f.r.Measured, InSample: f.r.Predicted, HeldOut: f.held}
		switch in[i] {
		case validation.BandNone:
			a.Band = "none"
		case validation.BandOutside:
			a.Band = "outside"
		case validation.BandInside:
			a.Band = "inside"
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// gpuFamily is the architecture family of a catalog GPU id ("" when the
// case names none), for the page's rows.
func gpuFamily(id string) string {
	for _, f := range gpuFamilies {
		for _, p := range f.prefixes {
			if strings.HasPrefix(id, p) {
				return f.name
			}
		}
	}
	if id == "" {
		return "unnamed"
	}
	return "other"
}

// gpuFamilies maps catalog id prefixes to architecture families (NVIDIA's
// and AMD's generation names, Apple's unified-memory chips).
var gpuFamilies = []struct {
	name     string
	prefixes []string
}{
	{"NVIDIA Blackwell", []string{"b200", "b300", "gb200", "gb300", "gb10", "rtx-50", "rtx-pro-", "jetson-agx-thor"}},
	{"NVIDIA Hopper", []string{"h100", "h200", "h20", "h800", "gh200"}},
	{"NVIDIA Ada", []string{"l4", "l40", "l20", "rtx-40", "rtx-4000-ada", "rtx-5000-ada", "rtx-6000-ada"}},
	{"NVIDIA Ampere", []string{"a100", "a800", "a10", "a30", "a40", "a2", "a16", "rtx-30", "rtx-a", "jetson-agx-orin"}},
	{"NVIDIA Volta/Turing", []string{"v100", "t4"}},
	{"AMD CDNA", []string{"mi"}},
	{"AMD RDNA", []string{"rx-", "ryzen-"}},
	{"Apple", []string{"m1", "m2", "m3", "m4"}},
	{"Intel", []string{"gaudi", "arc-"}},
	{"Google TPU", []string{"tpu-"}},
	{"AWS", []string{"trainium", "inferentia"}},
}

// accuracyClasses are the page's figure classes, in order, with their
// anchor and title (the UI links a band to #<anchor>).
var accuracyClasses = []struct{ class, anchor, title string }{
	{"decode_step", "decode-step", "Decode step time"},
	{"serving_tpot", "serving-tpot", "Serving TPOT"},
	{"ttft", "ttft", "TTFT"},
	{"throughput", "throughput", "Throughput"},
	{"kv_capacity", "kv-capacity", "KV-cache capacity"},
}

// accuracyCell summarises figures: their count, the distinct cases and
// source documents they come from, the median
// absolute held-out and in-sample errors, the share within 20 % held out,
// and the bands' coverage (inside over the figures with a band).
type accuracyCell struct {
	N, Cases, Sources   int
	MedianOut, MedianIn float64
	Within20            float64
	Banded, Inside      int
}

func summarise(fs []accuracyFigure) accuracyCell {
	var c accuracyCell
	src, ids := map[string]bool{}, map[string]bool{}
	var out, in []float64
	for _, f := range fs {
		c.N++
		src[f.Source], ids[f.ID] = true, true
		out = append(out, math.Abs(f.HeldOut/f.Measured-1))
		in = append(in, math.Abs(f.InSample/f.Measured-1))
		switch f.Band {
		case "inside":
			c.Banded++
			c.Inside++
		case "outside":
			c.Banded++
		}
	}
	c.Sources, c.Cases = len(src), len(ids)
	if c.N > 0 {
		c.MedianOut, c.MedianIn, c.Within20 = validation.MedianOf(out), validation.MedianOf(in), within(out, 0.20)
	}
	return c
}

// releaseLabel names a figure's engine release: "vllm 0.19", or the
// engine's default profile.
func releaseLabel(f accuracyFigure) string {
	if f.Version == "" {
		return f.Engine + " (default profile)"
	}
	return f.Engine + " " + f.Version
}

// accuracyGroup is one row of a class's table.
type accuracyGroup struct {
	release, family string
	cell            accuracyCell
}

// accuracyTables groups fs per class, then per engine release and GPU
// family (sorted), with each class's total first.
func accuracyTables(fs []accuracyFigure) map[string][]accuracyGroup {
	out := map[string][]accuracyGroup{}
	for _, c := range accuracyClasses {
		by := map[[2]string][]accuracyFigure{}
		var all []accuracyFigure
		for _, f := range fs {
			if f.Class != c.class {
				continue
			}
			all = append(all, f)
			k := [2]string{releaseLabel(f), gpuFamily(f.GPU)}
			by[k] = append(by[k], f)
		}
		if len(all) == 0 {
			continue
		}
		keys := make([][2]string, 0, len(by))
		for k := range by {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i][0] != keys[j][0] {
				return keys[i][0] < keys[j][0]
			}
			return keys[i][1] < keys[j][1]
		})
		rows := []accuracyGroup{{"all", "all", summarise(all)}}
		for _, k := range keys {
			rows = append(rows, accuracyGroup{k[0], k[1], summarise(by[k])})
		}
		out[c.class] = rows
	}
	return out
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + " %" }

func coverageText(c accuracyCell) string {
	if c.Banded == 0 {
		return "–"
	}
	return strconv.FormatFloat(100*float64(c.Inside)/float64(c.Banded), 'f', 0, 64) + " % of " + strconv.Itoa(c.Banded)
}

const accuracyIntro = `How far Throughput's predictions are from published measurements that the fit did not see. Every figure of
every comparable validation case is predicted twice: with the shipped step-model terms (in sample), and with its
efficiency set refitted without any case of its source document (held out by source; tools/calibrate's default
report, ` + "`go run ./tools/calibrate`" + `). The error is |predicted / measured − 1|. Band coverage is the share of
cases whose measured value falls inside their 80 % band when the band table is built without them from the others'
held-out residuals (` + "`go run ./tools/calibrate -coverage`" + `; docs/MODEL.md section 7). KV-cache capacity depends on
no fitted step term: its held-out and in-sample errors are the same.`

// accuracyFormat is how a page writes its tables: a table's start (the
// summary's with anchor "", a class's with its anchor and title), one row
// of cells (the first linked to a class's anchor when link is set), a
// table's end.
type accuracyFormat struct {
	start func(b *strings.Builder, anchor, title string)
	row   func(b *strings.Builder, cells []string, link string)
	end   func(b *strings.Builder)
}

// accuracyColumns are the tables' figure columns, after the row's labels.
var accuracyColumns = []string{"figures", "cases", "sources", "median error held out", "within 20 % held out", "median error in sample", "band coverage"}

// writeTables writes the summary (one row per class) and each class's
// table (one row per engine release and GPU family) in format f.
func writeTables(b *strings.Builder, fs []accuracyFigure, f accuracyFormat) {
	t := accuracyTables(fs)
	cells := func(labels []string, a accuracyCell) []string {
		return append(labels, strconv.Itoa(a.N), strconv.Itoa(a.Cases), strconv.Itoa(a.Sources), pct(a.MedianOut), pct(a.Within20), pct(a.MedianIn), coverageText(a))
	}
	f.start(b, "", "")
	for _, c := range accuracyClasses {
		if rows := t[c.class]; len(rows) > 0 {
			f.row(b, cells([]string{c.title}, rows[0].cell), c.anchor)
		}
	}
	f.end(b)
	for _, c := range accuracyClasses {
		rows := t[c.class]
		if len(rows) == 0 {
			continue
		}
		f.start(b, c.anchor, c.title)
		for _, r := range rows[1:] {
			f.row(b, cells([]string{r.release, r.family}, r.cell), "")
		}
		f.end(b)
	}
}

// accuracyMarkdown writes docs/accuracy.md.
func accuracyMarkdown(fs []accuracyFigure, inputs string) string {
	var b strings.Builder
	b.WriteString("<!-- Code generated by tools/calibrate -bands; DO NOT EDIT. -->\n\n# Accuracy: out-of-source error per engine release and GPU family\n\n")
	b.WriteString(accuracyIntro + "\n\nGenerated from " + inputs + " by `./build.sh generate`; the page's data is\n`calc/validation/testdata/accuracy.json`, and the same page is `accuracy.html` on the site.\n")
	writeTables(&b, fs, accuracyFormat{
		start: func(b *strings.Builder, anchor, title string) {
			head := []string{"figure"}
			if anchor != "" {
				fmt.Fprintf(b, "\n<a id=\"%s\"></a>\n\n## %s\n", anchor, title)
				head = []string{"engine release", "GPU family"}
			}
			head = append(head, accuracyColumns...)
			b.WriteString("\n| " + strings.Join(head, " | ") + " |\n|" + strings.Repeat("---|", len(head)) + "\n")
		},
		row: func(b *strings.Builder, cells []string, link string) {
			if link != "" {
				cells[0] = "[" + cells[0] + "](#" + link + ")"
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		},
		end: func(*strings.Builder) {},
	})
	return b.String()
}

// accuracyHTML writes www/page/accuracy.html: the same tables, styled with
// the page's CSS variables (the palette of www/page/index.html's :root).
func accuracyHTML(fs []accuracyFigure, inputs string) string {
	e := html.EscapeString
	var b strings.Builder
	b.WriteString(accuracyHead)
	b.WriteString("<p>" + e(strings.ReplaceAll(accuracyIntro, "`", "")) + "</p>\n<p>Generated from " + e(inputs) + "; <a href=\"./\">back to the calculator</a>.</p>\n")
	writeTables(&b, fs, accuracyFormat{
		start: func(b *strings.Builder, anchor, title string) {
			head := []string{"figure", ""}
			if anchor == "" {
				anchor, title = "summary", "All figures"
			} else {
				head = []string{"engine release", "GPU family"}
			}
			fmt.Fprintf(b, "<section id=\"%s\"><h2>%s</h2><table><thead><tr>", anchor, e(title))
			for _, h := range append(head, accuracyColumns...) {
				b.WriteString("<th>" + e(h) + "</th>")
			}
			b.WriteString("</tr></thead><tbody>\n")
		},
		row: func(b *strings.Builder, cells []string, link string) {
			b.WriteString("<tr>")
			for i, c := range cells {
				c = e(c)
				if i == 0 && link != "" {
					c = "<a href=\"#" + link + "\">" + c + "</a>"
				}
				b.WriteString("<td>" + c + "</td>")
				if i == 0 && link != "" {
					b.WriteString("<td></td>")
				}
			}
			b.WriteString("</tr>\n")
		},
		end: func(b *strings.Builder) { b.WriteString("</tbody></table></section>\n") },
	})
	b.WriteString("</body>\n</html>\n")
	return b.String()
}

// accuracyHead is the HTML page's head and title.
const accuracyHead = `<!doctype html>
<!-- Code generated by tools/calibrate -bands; DO NOT EDIT. -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Throughput: accuracy per engine release and GPU family</title>
<style>
/* The page's palette (www/page/index.html :root), light and dark. */
:root {
  color-scheme: light dark;
  --bg: #f7f8fa; --panel: #ffffff; --fg: #14171c; --muted: #5b6472; --line: #d9dde4; --accent: #1d4ed8;
  --radius: 10px;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
@media (prefers-color-scheme: dark) {
  :root { --bg: #0e1116; --panel: #161b22; --fg: #e6e9ee; --muted: #9aa4b2; --line: #2d3440; --accent: #7aa2ff; }
}
body { margin: 0 auto; max-width: 1100px; padding: 16px; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
section { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 16px; margin: 16px 0; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, th:nth-child(2), td:nth-child(2) { text-align: left; }
th { color: var(--muted); font-weight: 600; }
p { color: var(--muted); }
</style>
</head>
<body>
<h1>Accuracy: out-of-source error per engine release and GPU family</h1>
`

// The page's files, relative to the repository root.
const (
	accuracyDataFile = "calc/validation/testdata/accuracy.json"
	accuracyMDFile   = "docs/accuracy.md"
	accuracyHTMLFile = "www/page/accuracy.html"
)

// rewriteAccuracyPage rewrites the page's Markdown and HTML under root from
// its committed data (calibrate -accuracy-page: no refits).
func rewriteAccuracyPage(root string) error {
	b, err := os.ReadFile(root + "/" + accuracyDataFile)
	if err != nil {
		return err
	}
	var d accuracyData
	if err := json.Unmarshal(b, &d); err != nil {
		return err
	}
	return writeAccuracy(root, d.Figures, d.Inputs)
}

// writeAccuracy writes the page's data, Markdown and HTML under root.
func writeAccuracy(root string, fs []accuracyFigure, inputs string) error {
	d := accuracyData{Comment: "Generated by tools/calibrate -bands (docs/accuracy.md): every comparable figure of the validation cases, its prediction in sample and held out by source document, and its band's leave-one-out outcome. DO NOT EDIT.", Inputs: inputs, Figures: fs}
	js, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return err
	}
	for path, text := range map[string]string{
		accuracyDataFile: string(js) + "\n",
		accuracyMDFile:   accuracyMarkdown(fs, inputs),
		accuracyHTMLFile: accuracyHTML(fs, inputs),
	} {
		if err := os.WriteFile(root+"/"+path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
