package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The summary of a class, worked out by hand on four figures of three
// cases and two sources: held-out errors 10 %, 30 %, 5 %, 50 % (median of the four:
// (10 + 30) / 2 = 20 %; within 20 %: 2 of 4), in-sample errors 0, 10 %,
// 5 %, 20 % (median 7.5 %), bands inside, outside, none and not banded
// (coverage 1 of the 2 with a band).
func TestAccuracySummaryHandDerived(t *testing.T) {
	fs := []accuracyFigure{
		{ID: "X1", Source: "a", Measured: 100, HeldOut: 110, InSample: 100, Band: "inside"},
		{ID: "X1", Source: "a", Measured: 100, HeldOut: 70, InSample: 110, Band: "outside"},
		{ID: "X2", Source: "b", Measured: 200, HeldOut: 210, InSample: 190, Band: "none"},
		{ID: "X3", Source: "b", Measured: 10, HeldOut: 15, InSample: 12},
	}
	c := summarise(fs)
	assert.Equal(t, 4, c.N)
	assert.Equal(t, 3, c.Cases)
	assert.Equal(t, 2, c.Sources)
	assert.InDelta(t, 0.20, c.MedianOut, 1e-12)
	assert.InDelta(t, 0.075, c.MedianIn, 1e-12)
	assert.InDelta(t, 0.5, c.Within20, 1e-12)
	assert.Equal(t, 2, c.Banded)
	assert.Equal(t, 1, c.Inside)
	assert.Equal(t, "50 % of 2", coverageText(c))
}

func TestGPUFamily(t *testing.T) {
	for id, want := range map[string]string{
		"h100-sxm-80gb": "NVIDIA Hopper", "h200-sxm-141gb": "NVIDIA Hopper", "a100-sxm-80gb": "NVIDIA Ampere",
		"a10g": "NVIDIA Ampere", "l40s": "NVIDIA Ada", "rtx-4090": "NVIDIA Ada", "rtx-3090": "NVIDIA Ampere",
		"rtx-5090": "NVIDIA Blackwell", "b200": "NVIDIA Blackwell", "mi300x": "AMD CDNA", "m2-ultra": "Apple",
		"v100-sxm2-32gb": "NVIDIA Volta/Turing", "": "unnamed",
	} {
		assert.Equal(t, want, gpuFamily(id), id)
	}
}

// readAccuracy reads the page's data file from the repository.
func readAccuracy(t *testing.T) accuracyData {
	b, err := os.ReadFile(filepath.Join(moduleRoot(), accuracyDataFile))
	require.NoError(t, err)
	var d accuracyData
	require.NoError(t, json.Unmarshal(b, &d))
	require.NotEmpty(t, d.Figures)
	return d
}

// The committed page is the one its data gives (docs/accuracy.md and
// www/page/accuracy.html from calc/validation/testdata/accuracy.json);
// scripts/check-generated.sh checks that the data is what the held-out
// refits give now.
func TestAccuracyPageFromData(t *testing.T) {
	d := readAccuracy(t)
	md, err := os.ReadFile(filepath.Join(moduleRoot(), accuracyMDFile))
	require.NoError(t, err)
	assert.Equal(t, accuracyMarkdown(d.Figures, d.Inputs), string(md))
	h, err := os.ReadFile(filepath.Join(moduleRoot(), accuracyHTMLFile))
	require.NoError(t, err)
	assert.Equal(t, accuracyHTML(d.Figures, d.Inputs), string(h))
	// Every class the page promises an anchor for is there.
	for _, c := range accuracyClasses {
		assert.Contains(t, string(h), `id="`+c.anchor+`"`, c.anchor)
	}
}

// The page's figures are calibrate's: every comparable figure of the
// default cases, measured and predicted in sample exactly as calibrate's
// reports evaluate them (figuresOf), is on the page, and no other.
func TestAccuracyFiguresMatchCalibrate(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates every validation case")
	}
	d := readAccuracy(t)
	files, err := caseFiles(moduleRoot(), defaultCases)
	require.NoError(t, err)
	cs := readCases(files)
	_, figs, _ := figuresOf(cs)
	type key struct{ id, metric string }
	page := map[key]accuracyFigure{}
	for _, f := range d.Figures {
		page[key{f.ID, f.Metric}] = f
	}
	require.Len(t, page, len(figs))
	for _, f := range figs {
		p, ok := page[key{f.r.ID, f.r.Metric}]
		if !assert.True(t, ok, f.r.ID) {
			continue
		}
		assert.Equal(t, f.r.Measured, p.Measured, f.r.ID)
		assert.InDelta(t, f.r.Predicted, p.InSample, 1e-9*f.r.Predicted, f.r.ID)
		assert.Equal(t, class(f.r.Metric), p.Class, f.r.ID)
		assert.Equal(t, f.r.Source, p.Source, f.r.ID)
	}
	assert.True(t, strings.Contains(d.Inputs, "shared-cases.json"))
}
