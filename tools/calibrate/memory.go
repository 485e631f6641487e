package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/models"
)

// vllmH100MaxNumSeqs is vLLM's max_num_seqs default for the OpenAI server
// on a GPU of 70 GiB or more that is not an A100 (vllm/engine/arg_utils.py
// get_batch_defaults, since PR #17885), the setting of the group A logs.
const vllmH100MaxNumSeqs = 1024

// graphCase is one start-up log's CUDA-graph figures.
type graphCase struct {
	id                  string
	layers              int // of the first pipeline stage
	estimated, measured float64
}

// fitMemory refits the CUDA-graph estimate's two constants (calc's
// cgPerGraph and cgPerLayer) by least squares on the estimates vLLM 0.19
// logged in group A, and prints them with the residuals:
//
//	estimate = N x (per_graph + per_layer x layers), N = calc.CUDAGraphCaptures(1024)
func fitMemory(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	var raw []struct {
		ID       string         `json:"id"`
		Group    string         `json:"group"`
		Model    string         `json:"model"`
		PP       int            `json:"pipeline_parallel_size"`
		Measured map[string]any `json:"measured"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	var cs []graphCase
	for _, c := range raw {
		est, ok1 := c.Measured["cuda_graph_estimated_gib"].(float64)
		act, ok2 := c.Measured["cuda_graph_actual_gib"].(float64)
		if c.Group != "A" || !ok1 || !ok2 {
			continue
		}
		m, err := models.Lookup(strings.Fields(c.Model)[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", c.ID, err)
			os.Exit(1)
		}
		cs = append(cs, graphCase{id: c.ID, layers: m.NumLayers / max(c.PP, 1), estimated: est, measured: act})
	}
	n := float64(calc.CUDAGraphCaptures(vllmH100MaxNumSeqs))
	// Normal equations of est = n*g0 + n*L*gl.
	var s11, s12, s22, t1, t2 float64
	for _, c := range cs {
		x1, x2 := n, n*float64(c.layers)
		s11 += x1 * x1
		s12 += x1 * x2
		s22 += x2 * x2
		t1 += x1 * c.estimated
		t2 += x2 * c.estimated
	}
	det := s11*s22 - s12*s12
	g0 := (t1*s22 - t2*s12) / det
	gl := (s11*t2 - s12*t1) / det
	fmt.Printf("CUDA-graph estimate: %d cases, %d graphs each (max_num_seqs %d)\n", len(cs), int(n), vllmH100MaxNumSeqs)
	fmt.Printf("  cgPerGraph %.3f MiB\n  cgPerLayer %.3f MiB\n", g0*1024, gl*1024)
	fmt.Printf("%-5s %6s %10s %10s %9s %10s\n", "id", "layers", "estimated", "model", "residual", "captured")
	var res, resAct []float64
	for _, c := range cs {
		p := n * (g0 + gl*float64(c.layers))
		res = append(res, math.Abs(p-c.estimated))
		resAct = append(resAct, math.Abs(p-c.measured))
		fmt.Printf("%-5s %6d %10.2f %10.2f %+9.2f %10.2f\n", c.id, c.layers, c.estimated, p, p-c.estimated, c.measured)
	}
	sort.Float64s(res)
	sort.Float64s(resAct)
	fmt.Printf("median |residual| %.2f GiB (max %.2f) against the logged estimate; %.2f GiB (max %.2f) against the graphs' captured memory\n",
		validation.Median(res), res[len(res)-1], validation.Median(resAct), resAct[len(resAct)-1])
}
