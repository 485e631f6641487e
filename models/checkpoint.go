package models

import (
	"strings"
)

// Checkpoint ids (docs/model-catalog.md, "Checkpoint ids"). Users type the
// id of the checkpoint they deploy ("Qwen/Qwen3-8B-FP8",
// "RedHatAI/Llama-3.3-70B-Instruct-quantized.w4a16"), not the base
// model's. An id that is not a catalog id, alias or id suffix, nor a
// registered model, is read by this rule:
//
//  1. Its name (after the owner) is a catalog entry's alias or id suffix,
//     found as Lookup finds one (the alias first): the same checkpoint
//     republished ("unsloth/gpt-oss-20b"), with the entry's own
//     quantization.
//  2. Else a quantization suffix (quantSuffixes, case-insensitive) is cut
//     off the end, and the rest looked up as in 1; the suffix names the
//     format the checkpoint stores its weights in.
//  3. Else up to two variant suffixes that keep the architecture
//     (-Instruct, -Thinking, -Base, -Chat, -it, a four-digit date such as
//     -2507 or -0528) are cut off, one at a time, each rest looked up as
//     in 1.
//  4. The owner is the entry's own (case-insensitive), a republisher
//     (republishers), or absent; another owner is refused.
//
// The catalog's ids, aliases and id suffixes are unique
// (TestCatalogAliasesUnique), so a name matches at most one entry. The
// model is the entry's (its config.json facts, context length included),
// with the suffix's quantization in place of its own; the report says what
// the id resolved to in a checkpoint_resolved warning, and a request's
// quantization field wins over the suffix. A suffix whose format no engine
// here models is refused with the reason, naming the base model.

// republishers are the organisations that publish other labs' checkpoints,
// quantized or not, under the original name: their ids resolve to the
// original lab's entry.
const republishers = " nvidia redhatai neuralmagic unsloth amd bartowski thebloke mlx-community hugging-quants lmstudio-community "

// quantSuffixes maps the end of a checkpoint name to the quantization
// name its format is (NamedQuantization; "none" for 16-bit weights), or
// to why it is refused (a sentence). Each is "-suffix=name;"; the first
// match wins, so a suffix comes before the shorter ones it ends with.
const quantSuffixes = "-fp8-dynamic=fp8;-fp8-static=fp8;-fp8-block=fp8;-fp8-kv=fp8;-fp8=fp8;" +
	"-nvfp4=nvfp4;-fp4=nvfp4;-mxfp4-preview=mxfp4;-mxfp4=mxfp4;" +
	"-awq-int4=awq;-awq-4bit=awq;-awq=awq;" +
	"-gptq-int4=gptq;-gptq=gptq;-quantized.w4a16=gptq;-w4a16=gptq;-int4=gptq;" +
	"-quantized.w8a8=int8;-w8a8=int8;-unsloth-bnb-4bit=bitsandbytes;-bnb-4bit=bitsandbytes;-bf16=none;-fp16=none;" +
	"-gptq-int8=" + refuse8 + ";-quantized.w8a16=" + refuse8 + ";-w8a16=" + refuse8 + ";" +
	"-gguf=a GGUF repository holds one file per type: give the base model with quantization q4_k_m, q8_0, ...;" +
	"-3bit=" + refuseMLX + ";-4bit=" + refuseMLX + ";-6bit=" + refuseMLX + ";-8bit=" + refuseMLX + ";-mlx=" + refuseMLX + ";"

const (
	refuse8   = "8-bit weight-only GPTQ (W8A16) has no quantization name here (int8 is W8A8): give its config.json as model_config"
	refuseMLX = "MLX formats run on mlx-lm, which no engine here models"
)

// variants are the suffixes of a name that keep the architecture, in
// quantSuffixes' form (a four-digit date, -2507 or -0528, is one too).
const variants = "-instruct=;-thinking=;-base=;-chat=;-it=;"

// cutSuffix returns the name of the first "-suffix=name;" entry of table
// that s ends with, and the suffix's length (0 when none).
func cutSuffix(s, table string) (string, int) {
	for table != "" {
		var f string
		f, table, _ = strings.Cut(table, ";")
		if sfx, name, _ := strings.Cut(f, "="); strings.HasSuffix(s, sfx) {
			return name, len(sfx)
		}
	}
	return "", 0
}

// checkpoint resolves name by the rule above. It returns the model (nil
// when the rule does not resolve the name), else the reason it is refused
// ("" when nothing matched), and the catalog entry it names (-1 when
// none).
func (c *catalog) checkpoint(name string) (*Model, string, int) {
	name = strings.TrimSpace(name)
	key := normName(name)
	k := strings.LastIndexByte(key, '/')
	owner, short := key[:max(k, 0)], key[k+1:]
	// A republisher's id names another lab's model; a lab's own id that
	// is, as given, the alias of another of its entries is another
	// checkpoint (google/gemma-2-2b, the base model of gemma-2-2b-it's
	// alias), left to the Hub: only a cut suffix makes it one of the
	// catalog's.
	rep := owner == "" || strings.Contains(republishers, " "+owner+" ")
	i, ok := c.index[short]
	ok = ok && rep
	q, n := "", 0 // the suffix's quantization (or refusal) and length
	if !ok {
		q, n = cutSuffix(short, quantSuffixes)
	}
	short = short[:len(short)-n]
	for cut := 0; !ok && cut < 3; cut++ {
		if i, ok = c.index[short]; !ok || !rep && n+cut == 0 {
			// A variant suffix: a word below, or a four-digit date.
			_, v := cutSuffix(short, variants)
			if k := len(short) - 5; v == 0 && k > 0 && short[k] == '-' && strings.Trim(short[k:], "-0123456789") == "" {
				v = 5
			}
			if ok = false; v == 0 {
				break
			}
			short = short[:len(short)-v]
		}
	}
	if !ok {
		return nil, "", -1
	}
	id := c.entries[i].ID
	if len(q) > len("bitsandbytes") {
		q = "its suffix " + name[max(len(name)-n, 0):] + ": " + q
	}
	if !rep && !strings.EqualFold(id[:max(strings.LastIndexByte(id, '/'), 0)], owner) {
		q = "its owner is neither the model's publisher nor a known republisher"
	}
	base, _, err := c.model(i)
	if len(q) > len("bitsandbytes") || err != nil {
		return nil, q, i // a refusal: a sentence, not a quantization name
	}
	m := *base
	m.ID = name
	// An "-FP8" id of an fp8 entry keeps the entry's own (block scales
	// included); the modules the entry leaves unquantized stay so in any
	// format.
	how := "the entry's own"
	if n > 0 {
		how = "read from the suffix " + name[max(len(name)-n, 0):]
		if nq, _ := NamedQuantization(q); nq.Format != base.Quant.Format {
			// MXFP4 checkpoints of dense models quantize every linear
			// layer (the named mxfp4, gpt-oss's, only the experts).
			nq.ExpertsOnly = nq.ExpertsOnly && base.IsMoE()
			m.Quant = nq
		}
	}
	method := m.Quant.Method
	if method == "" {
		method = "none"
	}
	m.Checkpoint = name + " is not in the catalog: modelled as " + id + " (its architecture and config.json facts, context length included) with quantization " + method + " (" + how + ")"
	return &m, "", i
}
