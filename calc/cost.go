package calc

import (
	"math"

	"github.com/modelrefs/throughput/kvcache"
	"github.com/modelrefs/throughput/models"
)

// StepLoad is the work of one scheduler step: decode sequences producing
// one token each, plus prompt (or recomputed) tokens being prefilled.
type StepLoad struct {
	// DecodeSeqs is the number of sequences decoding one token.
	DecodeSeqs int
	// DecodeContext is the sum over those sequences of their context
	// length in tokens (what their attention reads).
	DecodeContext float64
	// PrefillTokens is the number of prompt tokens computed this step.
	PrefillTokens int
	// PrefillSpan is the sum over those tokens of the positions each one
	// attends to: a chunk of n tokens starting at position a spans
	// n*(a + (n+1)/2).
	PrefillSpan float64
	// PrefillSeqs is the number of sequences whose prompt finishes this
	// step (each samples one token through the LM head).
	PrefillSeqs int
}

// StepCost is the modelled duration of one step and its parts, per GPU.
type StepCost struct {
	// TimeS is the step's duration in seconds:
	// overhead + max(memory, compute) + communication.
	TimeS          float64
	MemoryS        float64
	ComputeS       float64
	CommunicationS float64
	OverheadS      float64
	// WeightsReadBytes and KVReadBytes are the bytes one GPU reads.
	WeightsReadBytes float64
	KVReadBytes      float64
	// FLOPs is one GPU's arithmetic.
	FLOPs float64
	// ComputeBound is true when compute time exceeds memory time.
	ComputeBound bool
}

// costModel holds per-rank constants of the step formulas, summed over
// pipeline stages (a step passes through every stage in turn).
type costModel struct {
	denseReadBytes   float64   // weights read every step except routed experts, bytes
	expertBytes      float64   // one routed expert of one layer on one rank, bytes
	moeLayers        float64   // number of MoE layers
	experts, topK    float64   // routed experts per layer, experts per token
	linearFLOPs      float64   // 2 * active linear weights per rank, per token
	headFLOPs        float64   // 2 * vocab * hidden / tp, per sampled sequence
	windows          []float64 // attention span cap per layer class (0 = none)
	kvPerTok         []float64 // cache bytes per attended token per class
	attnFLOPsPerTok  []float64 // attention FLOPs per attended token per class
	stateBytes       float64   // recurrent state per sequence, bytes
	allReduces       float64   // all-reduces per step (2 per layer when tp > 1)
	msgBytesPerToken float64   // all-reduce payload per token, bytes
	bw, peak         float64   // bytes/s and FLOP/s of one GPU
	linkBW, linkLat  float64   // interconnect bytes/s and seconds
	tp, pp           float64
	eff              Efficiencies
}

// buildCost precomputes the cost model. Formulas, per GPU:
//
//	weights read  = dense weights (all but the embedding table and the
//	                routed experts) + MoE layers * expert bytes *
//	                E*(1-(1-k/E)^N) for N tokens in the step: the expected
//	                number of distinct experts N tokens route to when each
//	                picks k of E uniformly (one read serves every token)
//	KV read       = sum over layers of bytes/token * tokens attended
//	                (capped at the window for sliding layers)
//	FLOPs         = 2 * active linear weights * tokens + 2 * vocab *
//	                hidden/tp * sampled sequences + attention
//	                (2 * heads/tp * (d_k + d_v) per attended token per
//	                layer; MLA decodes on the latent: 2*heads/tp*(2*r_kv+d_rope))
func (d *Deployment) buildCost() costModel {
	m := d.Model
	c := costModel{
		experts: float64(m.Experts), topK: float64(m.TopK),
		tp: float64(d.TP), pp: float64(d.PP), eff: d.Eff,
		bw: d.Hardware.MemoryBandwidthBytesPerS, peak: d.PeakFLOPS,
		linkBW: d.Hardware.Interconnect.BandwidthBytesPerS, linkLat: d.Hardware.Interconnect.LatencyS,
	}
	var weights float64
	for i := range d.stages {
		weights += float64(d.stages[i].weightsBytes)
	}
	vh := float64(m.Vocab) * float64(m.Hidden) / c.tp
	embed := d.weightBytes(vh, d.Quant.AllWeights)
	if !m.Tied || d.PP > 1 {
		weights -= embed // the table is gathered, not read
	}
	weights -= float64(m.Params.Vision) * d.ActBytes / c.tp
	var activeLinear float64
	classes := map[int]int{}
	for _, l := range m.Layers {
		lin, _, exp := d.rankParams(l)
		if l.MoE {
			c.moeLayers++
			c.expertBytes = d.weightBytes(exp, true)
			routed := float64(m.Experts) * exp
			weights -= d.weightBytes(routed, true)
			activeLinear += lin - routed + c.topK*exp
		} else {
			activeLinear += lin
		}
		var kvb, fl float64
		w := 0
		hdk, hdv := m.LayerHeadDims(l)
		switch l.Kind {
		case models.Mamba, models.LinearAttention, models.FeedForward:
			continue
		case models.MLAttention:
			kvb = float64(m.KVLoraRank+m.QKRopeDim) * d.KVBytes
			fl = 2 * float64(m.Heads) / c.tp * float64(2*m.KVLoraRank+m.QKRopeDim)
		default:
			kvb = float64(kvcache.HeadsPerRank(m.LayerKVHeads(l), d.TP)*(hdk+hdv)) * d.KVBytes
			fl = 2 * float64(m.Heads) / c.tp * float64(hdk+hdv)
			if l.Kind == models.SlidingAttention {
				w = l.Window
			}
		}
		i, ok := classes[w]
		if !ok {
			i = len(c.windows)
			classes[w] = i
			c.windows = append(c.windows, float64(w))
			c.kvPerTok = append(c.kvPerTok, 0)
			c.attnFLOPsPerTok = append(c.attnFLOPsPerTok, 0)
		}
		c.kvPerTok[i] += kvb
		c.attnFLOPsPerTok[i] += fl
	}
	for i := range d.stages {
		c.stateBytes += d.stages[i].layout.StateBytes
	}
	c.denseReadBytes = weights
	c.linearFLOPs = 2 * activeLinear
	c.headFLOPs = 2 * vh
	if d.TP > 1 {
		c.allReduces = 2 * float64(m.NumLayers)
	}
	c.msgBytesPerToken = float64(m.Hidden) * d.ActBytes
	return c
}

// distinctExperts returns E*(1-(1-k/E)^n): the expected number of distinct
// experts n tokens select when each picks k of E uniformly at random.
// n = 0 gives 0; n large gives E.
func distinctExperts(e, k, n float64) float64 {
	if e <= 0 || n <= 0 {
		return 0
	}
	return e * (1 - math.Pow(1-k/e, n))
}

// Step returns the modelled cost of one step on this deployment.
//
// time = overhead + max(bytes read / (bandwidth * bandwidth_efficiency),
// decode FLOPs / (peak * compute_efficiency) + prefill FLOPs / (peak *
// prefill_efficiency)) + communication, where communication is, with tp > 1,
// 2 all-reduces per layer of tokens*hidden activations, each costing
// latency + 2(tp-1)/tp * bytes / link bandwidth (ring all-reduce), and with
// pp > 1 one send of tokens*hidden activations between consecutive stages.
// An empty step costs the overhead and one read of the weights.
func (d *Deployment) Step(l StepLoad) StepCost {
	c := &d.cost
	b := float64(max(l.DecodeSeqs, 0))
	n := float64(max(l.PrefillTokens, 0))
	tokens := b + n
	var out StepCost
	out.WeightsReadBytes = c.denseReadBytes + c.moeLayers*c.expertBytes*distinctExperts(c.experts, c.topK, tokens)

	var attnDecode, attnPrefill, kv float64
	for i, w := range c.windows {
		dc, ps := l.DecodeContext, l.PrefillSpan
		if w > 0 {
			if b > 0 {
				dc = b * math.Min(dc/b, w)
			}
			if n > 0 {
				ps = n * math.Min(ps/n, w)
			}
		}
		kv += c.kvPerTok[i] * (dc + n)
		attnDecode += c.attnFLOPsPerTok[i] * dc
		attnPrefill += c.attnFLOPsPerTok[i] * ps
	}
	kv += 2 * c.stateBytes * (b + float64(l.PrefillSeqs))
	out.KVReadBytes = kv

	sampled := b + float64(l.PrefillSeqs)
	decodeFLOPs := c.linearFLOPs*b + attnDecode + c.headFLOPs*sampled
	prefillFLOPs := c.linearFLOPs*n + attnPrefill
	out.FLOPs = decodeFLOPs + prefillFLOPs

	out.MemoryS = (out.WeightsReadBytes + out.KVReadBytes) / (c.bw * c.eff.BandwidthEfficiency)
	out.ComputeS = decodeFLOPs/(c.peak*c.eff.ComputeEfficiency) + prefillFLOPs/(c.peak*c.eff.PrefillEfficiency)
	if c.tp > 1 {
		msg := tokens * c.msgBytesPerToken
		out.CommunicationS = c.allReduces * (c.linkLat + 2*(c.tp-1)/c.tp*msg/c.linkBW)
	}
	if c.pp > 1 {
		msg := tokens * c.msgBytesPerToken
		out.CommunicationS += (c.pp - 1) * (c.linkLat + msg/c.linkBW)
	}
	out.OverheadS = c.eff.StepOverheadMs / 1000
	out.ComputeBound = out.ComputeS > out.MemoryS
	out.TimeS = out.OverheadS + math.Max(out.MemoryS, out.ComputeS) + out.CommunicationS
	return out
}

// DecodeStep returns the cost of a pure decode step of batch sequences at
// contextTokens each.
func (d *Deployment) DecodeStep(batch int, contextTokens float64) StepCost {
	return d.Step(StepLoad{DecodeSeqs: batch, DecodeContext: float64(batch) * contextTokens})
}
