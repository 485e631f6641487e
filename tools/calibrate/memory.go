package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/release"

	"github.com/modelrefs/throughput/calc"
	"github.com/modelrefs/throughput/calc/validation"
	"github.com/modelrefs/throughput/models"
)

// vllmH100MaxNumSeqs is vLLM's max_num_seqs default for the OpenAI server
// on a GPU of 70 GiB or more that is not an A100 (vllm/engine/arg_utils.py
// get_batch_defaults, since PR #17885), the setting of the group A logs.
const vllmH100MaxNumSeqs = 1024

// rawCase is what the memory fits read of a case.
type rawCase struct {
	ID       string         `json:"id"`
	Group    string         `json:"group"`
	Model    string         `json:"model"`
	GPU      string         `json:"gpu"`
	TP       int            `json:"tensor_parallel_size"`
	PP       int            `json:"pipeline_parallel_size"`
	Quant    any            `json:"weight_quantization"`
	Version  string         `json:"engine_version"`
	MaxLen   any            `json:"max_model_len"`
	Measured map[string]any `json:"measured"`
}

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
//	estimate = N x (per_graph + per_layer x layers), N = release.CUDAGraphCaptures(1024)
func fitMemory(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
	var raw []rawCase
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
	n := float64(release.CUDAGraphCaptures(vllmH100MaxNumSeqs))
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
	fitActivation(raw)
	fitActivationV0(raw)
}

// fitActivation refits calc's three activation coefficients (hidden
// tensors, MLP intermediate fraction, sampler tensors) by least squares on
// the activation peaks of group A's single-stage logs, each case resolved
// under vLLM 0.19 with the settings it ran, max_num_batched_tokens 8192,
// and the engine's default max_num_seqs: on the logs' H100 that is vLLM's
// OpenAI-server default of 1024 sequences, as they ran
// (vllm/engine/arg_utils.py get_batch_defaults, calc's vllmBatchDefaults).
func fitActivation(raw []rawCase) {
	const key = "activation_peak_gib (torch peak memory increase)"
	type row struct {
		id string
		x  deploy.ActivationTerms
		y  float64
	}
	var rows []row
	for _, c := range raw {
		y, ok := c.Measured[key].(float64)
		if c.Group != "A" || !ok || c.PP > 1 {
			continue
		}
		req := calc.Request{Model: strings.Fields(c.Model)[0], Hardware: calc.HardwareRef{ID: c.GPU}, EngineVersion: "0.19",
			MaxModelLen: calc.Int(4096), MaxNumBatchedTokens: calc.Int(8192)}
		if c.TP > 1 {
			req.TensorParallelSize = calc.Int(c.TP)
		}
		if q, _ := c.Quant.(string); q == "fp8" {
			req.Quantization = "fp8"
		}
		d, err := deploy.Resolve(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", c.ID, err)
			os.Exit(1)
		}
		rows = append(rows, row{c.ID, d.ActivationTerms(true), y * (1 << 30)})
	}
	// Normal equations A^T A a = A^T (y - moe), three unknowns.
	var ata [3][4]float64
	for _, r := range rows {
		v := [3]float64{r.x.Hidden, r.x.Intermediate, r.x.Sampler}
		for i := range 3 {
			for j := range 3 {
				ata[i][j] += v[i] * v[j]
			}
			ata[i][3] += v[i] * (r.y - r.x.MoEWorkspace)
		}
	}
	a := solve3(ata)
	fmt.Printf("\nactivation peak: %d single-stage cases (the engine's default max_num_seqs, max_num_batched_tokens 8192)\n", len(rows))
	fmt.Printf("  actHiddenTensors       %.3f\n  actIntermediateTensors %.3f\n  samplerLogitTensors    %.3f\n", a[0], a[1], a[2])
	var res []float64
	for _, r := range rows {
		p := a[0]*r.x.Hidden + a[1]*r.x.Intermediate + a[2]*r.x.Sampler + r.x.MoEWorkspace
		res = append(res, math.Abs(p-r.y)/(1<<30))
		fmt.Printf("  %-5s logged %5.2f GiB  model %5.2f GiB  %+5.2f\n", r.id, r.y/(1<<30), p/(1<<30), (p-r.y)/(1<<30))
	}
	sort.Float64s(res)
	fmt.Printf("median |residual| %.2f GiB (max %.2f)\n", validation.Median(res), res[len(res)-1])
}

// solve3 solves a 3x3 system given as an augmented matrix (Gaussian
// elimination with partial pivoting).
func solve3(m [3][4]float64) [3]float64 {
	for c := range 3 {
		p := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < 3; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k < 4; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	var x [3]float64
	for r := 2; r >= 0; r-- {
		s := m[r][3]
		for k := r + 1; k < 3; k++ {
			s -= m[r][k] * x[k]
		}
		x[r] = s / m[r][r]
	}
	return x
}

// sortRow is one log of a release whose dummy sampler sorts the
// vocabulary (calc's EngineVersion.SamplerSort), with an activation
// figure: its regressors under its own release and its logged peak.
type sortRow struct {
	id string
	v0 bool // V0: the peak is the forward's or the sampler's, whichever is larger
	x  deploy.ActivationTerms
	y  float64 // logged activation peak, bytes
}

// fitActivationV0 fits calc's samplerSortTensors and v0HiddenTensors on
// group A's logs of releases whose dummy sampler sorts the vocabulary:
// PR #10511's activation_peak_gib and issue #10517's peak_torch_memory_gib
// less the logged weights (V0), and the v0.11.0 log's activation figure
// (V1). A V1 log's sampler tensors are its peak less the V1 forward terms
// (calc's actHiddenTensors and actIntermediateTensors, fitted on 0.19); a
// V0 log's peak is max(forward, sampler) (calc's activationBytes), so each
// V0 log is assigned to one branch: every assignment is tried, each
// branch fitted by least squares on its logs (the sampler's with its
// [T, hidden] output subtracted), and the assignment with the least
// squared error in which every log's branch is its larger one is kept.
func fitActivationV0(raw []rawCase) {
	var rows []sortRow
	for _, c := range raw {
		v := validation.CaseVersion(c.Version)
		if c.Group != "A" || (v != "0.6" && v != "0.11") {
			continue
		}
		y, ok := c.Measured["activation_peak_gib"].(float64)
		if !ok {
			peak, ok1 := c.Measured["peak_torch_memory_gib"].(float64)
			w, ok2 := c.Measured["weights_gb_logged"].(float64)
			if !ok1 || !ok2 {
				continue
			}
			y = peak - w // vLLM V0 logs weights in GiB under a "GB" label
		}
		req := calc.Request{Model: strings.Fields(c.Model)[0], Hardware: calc.HardwareRef{ID: "h100-sxm"}, EngineVersion: v}
		if l, ok := c.MaxLen.(float64); ok {
			req.MaxModelLen = calc.Int(int(l))
		}
		if c.TP > 1 {
			req.TensorParallelSize = calc.Int(c.TP)
		}
		d, err := deploy.Resolve(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, "calibrate:", c.ID, err)
			os.Exit(1)
		}
		rows = append(rows, sortRow{c.ID, v == "0.6", d.ActivationTerms(true), y * (1 << 30)})
	}
	var v0 []int
	for i, r := range rows {
		if r.v0 {
			v0 = append(v0, i)
		}
	}
	best, bestSSE := [2]float64{}, math.Inf(1)
	var bestForward uint
	for mask := uint(0); mask < 1<<len(v0); mask++ {
		forward := func(i int) bool {
			for k, j := range v0 {
				if j == i {
					return mask&(1<<k) != 0
				}
			}
			return false
		}
		var sxy, sxx, fxy, fxx float64
		for i, r := range rows {
			switch {
			case forward(i):
				fxy += r.x.Hidden * r.y
				fxx += r.x.Hidden * r.x.Hidden
			default:
				sxy += r.x.Sampler * (r.y - r.samplerBase())
				sxx += r.x.Sampler * r.x.Sampler
			}
		}
		if sxx == 0 || fxx == 0 {
			continue
		}
		as, af := sxy/sxx, fxy/fxx
		sse, consistent := 0.0, true
		for i, r := range rows {
			f, s := af*r.x.Hidden, r.samplerBase()+as*r.x.Sampler
			p := s
			if forward(i) {
				p = f
				consistent = consistent && f >= s
			} else if r.v0 {
				consistent = consistent && s >= f
			}
			sse += (p - r.y) * (p - r.y)
		}
		if consistent && sse < bestSSE {
			best, bestSSE, bestForward = [2]float64{as, af}, sse, mask
		}
	}
	fmt.Printf("\nsorting sampler and V0 forward: %d logs\n  samplerSortTensors %.2f\n  v0HiddenTensors    %.3f\n", len(rows), best[0], best[1])
	for i, r := range rows {
		branch, p := "sampler", r.samplerBase()+best[0]*r.x.Sampler
		for k, j := range v0 {
			if j == i && bestForward&(1<<k) != 0 {
				branch, p = "forward", best[1]*r.x.Hidden
			}
		}
		fmt.Printf("  %-5s %-7s logged %5.2f GiB  model %5.2f GiB  %+5.2f\n", r.id, branch, r.y/(1<<30), p/(1<<30), (p-r.y)/(1<<30))
	}
}

// samplerBase is the part of a log's peak beside the sorting sampler's
// tensors: the forward's [T, hidden] output under V0; under V1 the V1
// forward terms fitted on 0.19 (calc.V1ForwardBytes).
func (r sortRow) samplerBase() float64 {
	if r.v0 {
		return r.x.Hidden
	}
	return deploy.V1ForwardBytes(r.x)
}
