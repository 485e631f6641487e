package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// member is one key of a JSON object, in the order it was written.
type member struct {
	key string
	val json.RawMessage
}

// objectMembers splits a JSON object into its members, in order.
func objectMembers(raw []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{t.(string), v})
	}
	return out, nil
}

// writeMembers joins members back into one compact JSON object.
func writeMembers(ms []member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// setMember replaces key's value, or appends the key.
func setMember(ms []member, key string, val []byte) []member {
	for i := range ms {
		if ms[i].key == key {
			ms[i].val = val
			return ms
		}
	}
	return append(ms, member{key, val})
}

// mergeHFQuant returns config with quantization_config set from a ModelOpt
// hf_quant_config.json: its "quantization" object with quant_method
// "modelopt" first (how vLLM's ModelOpt loader reads such a checkpoint).
func mergeHFQuant(config, hfQuant []byte) ([]byte, error) {
	top, err := objectMembers(hfQuant)
	if err != nil {
		return nil, fmt.Errorf("hf_quant_config.json: %w", err)
	}
	var q json.RawMessage
	for _, m := range top {
		if m.key == "quantization" {
			q = m.val
		}
	}
	if q == nil {
		return nil, fmt.Errorf("hf_quant_config.json has no \"quantization\" object")
	}
	qm, err := objectMembers(q)
	if err != nil {
		return nil, fmt.Errorf("hf_quant_config.json quantization: %w", err)
	}
	qm = append([]member{{"quant_method", json.RawMessage(`"modelopt"`)}}, qm...)
	cm, err := objectMembers(config)
	if err != nil {
		return nil, err
	}
	return writeMembers(setMember(cm, "quantization_config", writeMembers(qm))), nil
}

// layerIndex matches the layer and expert numbers in a module name.
var layerIndex = regexp.MustCompile(`((?:layers|experts)\.)\d+(\.|\*|$)`)

// collapseLayerLists rewrites the quantization_config of config (and of its
// text_config) so that module lists and per-module maps name each pattern
// once with layers.* and experts.* in place of the numbers ("ignore":
// model.layers.0.self_attn* ... model.layers.61.self_attn* becomes
// model.layers.*.self_attn*). Only lists and maps of more than 12 items are
// rewritten; it reports whether anything changed.
func collapseLayerLists(config []byte) ([]byte, bool, error) {
	cm, err := objectMembers(config)
	if err != nil {
		return nil, false, err
	}
	changed := false
	for i := range cm {
		switch cm[i].key {
		case "quantization_config":
			v, c, err := collapseValue(cm[i].val)
			if err != nil {
				return nil, false, err
			}
			cm[i].val, changed = v, changed || c
		case "text_config":
			v, c, err := collapseLayerLists(cm[i].val)
			if err != nil {
				return nil, false, err
			}
			cm[i].val, changed = v, changed || c
		}
	}
	return writeMembers(cm), changed, nil
}

// collapseValue collapses long module lists and maps anywhere in v.
func collapseValue(v json.RawMessage) (json.RawMessage, bool, error) {
	t := bytes.TrimSpace(v)
	switch {
	case len(t) > 0 && t[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(t, &items); err != nil {
			return nil, false, err
		}
		var names []string
		if len(items) <= 12 || json.Unmarshal(t, &names) != nil {
			return v, false, nil
		}
		var out []string
		seen := map[string]bool{}
		for _, n := range names {
			p := layerIndex.ReplaceAllString(n, "${1}*${2}")
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		b, err := json.Marshal(out)
		return b, len(out) != len(names), err
	case len(t) > 0 && t[0] == '{':
		ms, err := objectMembers(t)
		if err != nil {
			return nil, false, err
		}
		changed := false
		if len(ms) > 12 && allObjects(ms) {
			var out []member
			seen := map[string]bool{}
			for _, m := range ms {
				p := layerIndex.ReplaceAllString(m.key, "${1}*${2}")
				if !seen[p] {
					seen[p] = true
					out = append(out, member{p, m.val})
				}
			}
			changed = len(out) != len(ms)
			ms = out
		}
		for i := range ms {
			nv, c, err := collapseValue(ms[i].val)
			if err != nil {
				return nil, false, err
			}
			ms[i].val, changed = nv, changed || c
		}
		return writeMembers(ms), changed, nil
	}
	return v, false, nil
}

func allObjects(ms []member) bool {
	for _, m := range ms {
		if !strings.HasPrefix(string(bytes.TrimSpace(m.val)), "{") {
			return false
		}
	}
	return true
}
