package models

import (
	"strconv"
	"strings"
)

// Keep is a set of one layer's weight groups that a quantized checkpoint
// leaves in the model dtype (a ModelOpt exclude_modules or a
// compressed-tensors ignore list). The zero value keeps none.
type Keep uint16

// The weight groups of a decoder layer an exclusion list can name, by the
// Hugging Face module names the lists use.
const (
	// KeepQ: q_proj, or MLA's q_b_proj (q_proj when q_lora_rank is 0).
	KeepQ Keep = 1 << iota
	// KeepQA: MLA's q_a_proj.
	KeepQA
	// KeepKV: k_proj and v_proj, or MLA's kv_a_proj_with_mqa.
	KeepKV
	// KeepKVB: MLA's kv_b_proj.
	KeepKVB
	// KeepO: o_proj.
	KeepO
	// KeepAttnRest: the rest of the attention block (the sparse-attention
	// indexer, biases, q/k norms), kept when the whole self_attn is.
	KeepAttnRest
	// KeepMixer: a linear-attention, Mamba or short-conv mixer.
	KeepMixer
	// KeepShared: the shared expert(s) of an MoE layer.
	KeepShared
	// KeepMLP: a dense layer's feed-forward.
	KeepMLP
)

// keepAttention is the groups of an attention block.
const keepAttention = KeepQ | KeepQA | KeepKV | KeepKVB | KeepO | KeepAttnRest

// keepModules names, per weight group, the modules tried against the
// patterns: the Hugging Face checkpoint names (DeepseekV3, Llama, Qwen3.5
// linear_attn, Nemotron-H mixer, LFM2 conv, shared_expert(s)).
var keepModules = []struct {
	k     Keep
	names []string
}{
	{KeepQ, []string{"self_attn.q_proj", "self_attn.q_b_proj"}},
	{KeepQA, []string{"self_attn.q_a_proj"}},
	{KeepKV, []string{"self_attn.k_proj", "self_attn.v_proj", "self_attn.kv_a_proj_with_mqa"}},
	{KeepKVB, []string{"self_attn.kv_b_proj"}},
	{KeepO, []string{"self_attn.o_proj"}},
	{KeepAttnRest, []string{"self_attn.indexer.wq_b"}},
	{KeepMixer, []string{"linear_attn.in_proj_qkvz", "linear_attn.out_proj", "mixer.in_proj", "mixer.out_proj", "conv.in_proj", "self_attn.qkv_proj"}},
	{KeepShared, []string{"mlp.shared_experts.gate_proj", "mlp.shared_expert.gate_proj"}},
	{KeepMLP, []string{"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"}},
}

// excludePattern is one entry of an exclusion list, compiled.
type excludePattern struct {
	_ [0]func() // incomparable: no equality function in the .wasm engines (size budget)

	glob    string // fnmatch-style, from "layers." on, or a whole name
	literal string // a wildcard-free name, matched as a substring
	whole   bool   // glob is matched against the full module name
}

// compileExcludes compiles an exclusion list. Entries are matched from
// "layers." on, so that the prefixes checkpoints put before it (model.,
// model.language_model., language_model.model., backbone.) do not matter;
// entries that name no decoder-layer module (lm_head, embed_tokens, vision
// towers, which the engine keeps in the model dtype anyway) match nothing.
// Entries whose
// module part is only wildcards ("model.layers.**", "model.layers.*.*"):
// taken literally they would exclude every weight of every layer, which no
// NVFP4 checkpoint does (its experts are stored in fp4); they are copies
// whose layer index was masked (the MTP layer, model.layers.61 of
// DeepSeek-V3), and the engine counts the MTP layer apart (Params.MTP).
func compileExcludes(list []string) []excludePattern {
	var out []excludePattern
	for _, e := range list {
		if rest, ok := strings.CutPrefix(e, "re:"); ok {
			if g, ok := regexGlob(rest); ok {
				out = append(out, excludePattern{glob: g, whole: true})
			}
			continue
		}
		i := strings.Index(e, "layers.")
		if i >= 0 {
			e = e[i:]
			if strings.Trim(e[len("layers."):], "*.") == "" {
				continue
			}
		}
		if strings.ContainsAny(e, "*?") {
			out = append(out, excludePattern{glob: e})
		} else {
			out = append(out, excludePattern{literal: e})
		}
	}
	return out
}

// excluded reports whether module name (from "layers." on) matches a
// pattern, as vLLM's ModelOptQuantConfigBase.is_layer_excluded does
// (vllm/model_executor/layers/quantization/modelopt.py at v0.19.0): a
// wildcard-free entry contained in the name, or an fnmatch of the whole
// name; compressed-tensors "re:" entries are regular expressions matched
// against the full module name (vLLM compressed_tensors utils
// _is_equal_or_regex_match).
func excluded(pats []excludePattern, name string) bool {
	for _, p := range pats {
		switch {
		case p.whole:
			if glob(p.glob, "model."+name) {
				return true
			}
		case p.literal != "":
			if strings.Contains(name, p.literal) {
				return true
			}
		default:
			if glob(p.glob, name) {
				return true
			}
		}
	}
	return false
}

// markKept sets each layer's Keep from the checkpoint's exclusion list.
func (m *Model) markKept() {
	pats := compileExcludes(m.Quant.Excluded)
	if len(pats) == 0 {
		return
	}
	var b strings.Builder
	for i := range m.Layers {
		var k Keep
		kind := m.Layers[i].Kind
		mixer := kind == Mamba || kind == LinearAttention || kind == ShortConv
		for _, g := range keepModules {
			// A layer's token mixer is attention or a mixer, not both
			// (MiniMax's lightning layers name theirs self_attn).
			if g.k == KeepMixer && !mixer || g.k&keepAttention != 0 && mixer {
				continue
			}
			for _, n := range g.names {
				b.Reset()
				b.WriteString("layers.")
				b.WriteString(strconv.Itoa(i))
				b.WriteByte('.')
				b.WriteString(n)
				if excluded(pats, b.String()) {
					k |= g.k
					break
				}
			}
		}
		m.Layers[i].Keep = k
	}
}

// regexGlob turns the regular expressions compressed-tensors ignore lists
// use (".*self_attn.*", ".*mlp\.gate$") into an equivalent glob over the
// full module name: ".*" is "*", "." any one character ("?"), "\." a dot,
// a final "$" anchors the end (else "*" is appended: Python's re.match
// anchors only the start). ok is false for anything else (classes,
// alternations, repeats), which is then left out: the engine does not link
// a regular-expression engine into the browser build for it (about 130 KB
// gzip).
func regexGlob(re string) (string, bool) {
	re = strings.TrimPrefix(re, "^")
	var b strings.Builder
	anchored := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '.' && i+1 < len(re) && re[i+1] == '*':
			b.WriteByte('*')
			i++
		case c == '.':
			b.WriteByte('?')
		case c == '\\' && i+1 < len(re) && re[i+1] == '.':
			b.WriteByte('.')
			i++
		case c == '$' && i == len(re)-1:
			anchored = true
		case strings.IndexByte(`*+?()[]{}|^$\\`, c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	if !anchored {
		b.WriteByte('*')
	}
	return b.String(), true
}

// glob reports whether name matches pattern, fnmatch's '*' (any run of
// characters) and '?' (any one); module names hold no other wildcard.
func glob(pattern, name string) bool {
	px, nx := 0, 0
	star, back := -1, 0
	for nx < len(name) {
		switch {
		case px < len(pattern) && (pattern[px] == '?' || pattern[px] == name[nx]):
			px++
			nx++
		case px < len(pattern) && pattern[px] == '*':
			star, back = px, nx
			px++
		case star >= 0:
			px, back = star+1, back+1
			nx = back
		default:
			return false
		}
	}
	for px < len(pattern) && pattern[px] == '*' {
		px++
	}
	return px == len(pattern)
}
