package deploy

import (
	"strconv"
	"testing"

	"github.com/modelrefs/throughput/calc/release"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelrefs/throughput/kvcache"
)

// vLLM's own KV-cache sizing tests as a conformance suite: the numeric
// expectations of tests/v1/core/test_kv_cache_utils.py, at each V1 release the
// engine models, run against kvcache under that release's profile
// (lookupVersion). The release tags are not in the snapshot that could be
// read (vllm-project/vllm is over the fetch limit); each release is read at
// the main commit of the fork local-inference-lab/vllm that is the last
// before its release date, listed in conformanceCuts. A row applies from
// the first release whose test file holds the expectation (since) to the
// last (until, 0 = every later one). Releases after 0.22 (to 0.33, whose
// v0.32.0 and v0.33.0 tags no stored snapshot holds either) are read at
// the snapshot's newest commit (28be48fa9, 2026-05-24), where the test
// file is the 0.22 one. tests/v1/core/test_single_type_kv_cache_manager.py, the
// same at every release modelled, is kvcache's TestVLLMRemoveSkippedBlocks.
//
// The tests' layers: new_kv_cache_spec() is FullAttentionSpec(block_size 16,
// num_kv_heads 2, head_size 64, float32): 2 x (64+64) x 4 = 1024 bytes per
// token, a page of 16 x 1024 = 16384 bytes (mem_per_block_per_layer);
// new_sliding_window_spec() the same with sliding_window 1.

// conformanceCuts maps a release to the commit its rows were read at.
var conformanceCuts = map[int]string{
	10: "a6c7fb8cff (2025-07-24)", 11: "502640c3f9 (2025-10-02)", 12: "afe9eb408e (2025-12-03)",
	13: "634a14bd7d (2025-12-18)", 14: "2261340806 (2026-01-20)", 15: "2284461d02 (2026-01-29)",
	16: "6d4e27ce29 (2026-02-12)", 17: "a97954b6a8 (2026-03-05)", 18: "8bc6b5cdb0 (2026-03-20)",
	19: "121ea5a21f (2026-04-03)", 20: "7f95a66cbf (2026-04-23)", 21: "c936548ce6 (2026-05-07)",
	22: "484726e8f3 (2026-05-21)",
}

const cfPage = 16 * 1024 // mem_per_block_per_layer

func cfFull(head int) kvcache.Layer {
	return kvcache.Layer{Kind: kvcache.Full, KVHeads: 2, HeadDimK: head, HeadDimV: head}
}

func cfSliding(head, window int) kvcache.Layer {
	return kvcache.Layer{Kind: kvcache.Sliding, KVHeads: 2, HeadDimK: head, HeadDimV: head, Window: window}
}

func cfRepeat(l kvcache.Layer, n int) []kvcache.Layer {
	out := make([]kvcache.Layer, n)
	for i := range out {
		out[i] = l
	}
	return out
}

// cfGroup is an expected KV cache group: kind, layers on the worker, block
// size.
type cfGroup struct {
	kind   kvcache.Kind
	layers int
	block  int
}

type cfCase struct {
	cite         string // test function and its case
	since, until int
	// stages are the workers' layers (one entry: one worker); elem the
	// dtype size; mem each worker's available memory in bytes.
	stages [][]kvcache.Layer
	elem   float64
	mem    float64
	// blocks and groups are the expected num_blocks and the first
	// worker's kv_cache_groups.
	blocks int64
	groups []cfGroup
	// check, when set, asserts the rest on the first worker's layout.
	check func(t *testing.T, l kvcache.Layout, blocks int64)
}

func cfCases() []cfCase {
	one := func(ls ...[]kvcache.Layer) [][]kvcache.Layer {
		var all []kvcache.Layer
		for _, l := range ls {
			all = append(all, l...)
		}
		return [][]kvcache.Layer{all}
	}
	F, S := kvcache.Full, kvcache.Sliding
	return []cfCase{
		// test_get_kv_cache_config_one_worker (before 0.11:
		// test_get_kv_cache_config).
		{cite: "test_get_kv_cache_config_one_worker: all layers are full attention -> single group", since: 10,
			stages: one(cfRepeat(cfFull(64), 2)), elem: 4, mem: cfPage * 2 * 32,
			// 2 layers x 16384 B per block: 65536 x 16 / 32768 = 32.
			blocks: 32, groups: []cfGroup{{F, 2, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: all layers are sliding window -> single group", since: 10,
			stages: one(cfRepeat(cfSliding(64, 1), 2)), elem: 4, mem: cfPage * 2 * 32,
			blocks: 32, groups: []cfGroup{{S, 2, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: full + sliding, with hybrid_kv_cache_manager", since: 10,
			stages: one([]kvcache.Layer{cfFull(64), cfSliding(64, 1)}), elem: 4, mem: cfPage * 2 * 32,
			// two groups of one layer share one tensor: 2 x 32 x 16384 / 16384 = 64.
			blocks: 64, groups: []cfGroup{{F, 1, 16}, {S, 1, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: 2 full + 4 sliding, 2 layers per group", since: 10,
			stages: one(cfRepeat(cfFull(64), 2), cfRepeat(cfSliding(64, 1), 4)), elem: 4, mem: cfPage * 2 * 32,
			// group size 2 (4 >= 1.5 x 2): 3 groups of 2, 2 tensors.
			blocks: 32, groups: []cfGroup{{F, 2, 16}, {S, 2, 16}, {S, 2, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: 3 full + 7 sliding, pad to 3 full + 9 sliding", since: 10,
			stages: one(cfRepeat(cfFull(64), 3), cfRepeat(cfSliding(64, 1), 7)), elem: 4, mem: cfPage * 3 * 32,
			// group size 3: sliding layers[i::3] give 3, 2, 2 layers.
			blocks: 32, groups: []cfGroup{{F, 3, 16}, {S, 3, 16}, {S, 2, 16}, {S, 2, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: 6 full + 5 sliding, pad to 6 full + 6 sliding", since: 12,
			stages: one(cfRepeat(cfFull(64), 6), cfRepeat(cfSliding(64, 1), 5)), elem: 4, mem: cfPage * 6 * 32,
			// 6 < 1.25 x 5 (and < 1.5 x 5): group size 6, 6 tensors.
			blocks: 32, groups: []cfGroup{{F, 6, 16}, {S, 5, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: different hidden size but same type, use UniformTypeKVCacheSpecs", since: 11,
			stages: one([]kvcache.Layer{cfFull(128), cfFull(64)}), elem: 4, mem: cfPage * 3 * 32,
			// one group, a block is 32768 + 16384 B: 3 x 32 x 16384 / 49152 = 32.
			blocks: 32, groups: []cfGroup{{F, 2, 16}}},
		{cite: "test_get_kv_cache_config_one_worker: Different hidden size and different type, align by different block size", since: 12,
			stages: one([]kvcache.Layer{cfFull(64), cfSliding(32, 1)}), elem: 4, mem: cfPage * 32,
			// the sliding page of 16 x 512 B is doubled to 32 tokens.
			blocks: 32, groups: []cfGroup{{F, 1, 16}, {S, 1, 32}}},
		// No test row tells 1.25 from 1.5: these two follow
		// _get_kv_cache_groups_uniform_page_size at each release. 4 full +
		// 5 sliding: 5 < 1.5 x 4 gives group size 5 from 0.18 (2 groups);
		// 5 >= 1.25 x 4 keeps 4 before (sliding split 3 + 2).
		{cite: "derived: _get_kv_cache_groups_uniform_page_size, 4 full + 5 sliding, threshold 1.5 (PR #36684)", since: 18,
			stages: one(cfRepeat(cfFull(64), 4), cfRepeat(cfSliding(64, 1), 5)), elem: 4, mem: cfPage * 5 * 32,
			blocks: 32, groups: []cfGroup{{F, 4, 16}, {S, 5, 16}}},
		{cite: "derived: _get_kv_cache_groups_uniform_page_size, 4 full + 5 sliding, threshold 1.25 or none", since: 10, until: 17,
			stages: one(cfRepeat(cfFull(64), 4), cfRepeat(cfSliding(64, 1), 5)), elem: 4, mem: cfPage * 4 * 32,
			blocks: 32, groups: []cfGroup{{F, 4, 16}, {S, 3, 16}, {S, 2, 16}}},
		// test_get_kv_cache_configs_multiple_workers (PR #23974, 0.11).
		{cite: "test_get_kv_cache_configs_multiple_workers: Basic case. All things are the same.", since: 10,
			stages: [][]kvcache.Layer{cfRepeat(cfFull(64), 2), cfRepeat(cfFull(64), 2)}, elem: 4, mem: cfPage * 2 * 10,
			blocks: 10, groups: []cfGroup{{F, 2, 16}}},
		{cite: "test_get_kv_cache_configs_multiple_workers: Different workers have different types of layers (hybrid models + PP)", since: 11,
			stages: [][]kvcache.Layer{cfRepeat(cfFull(64), 2), cfRepeat(cfSliding(64, 1), 2)}, elem: 4, mem: cfPage * 2 * 10,
			// global groups (full: layer1, layer2) and (sliding: layer3,
			// layer4); worker 0 holds 2 + 0 layers.
			blocks: 10, groups: []cfGroup{{F, 2, 16}, {S, 0, 16}}},
		{cite: "test_get_kv_cache_configs_multiple_workers: the number of layers per group is similar", since: 11,
			stages: [][]kvcache.Layer{
				{cfFull(64), cfSliding(64, 1), cfSliding(64, 1)},
				{cfFull(64), cfSliding(64, 1), cfSliding(64, 1)},
			}, elem: 4, mem: cfPage * 10,
			// 2 full, 4 sliding over the model: group size 2, sliding
			// layers[i::2] = (2, 5), (3, 6): one layer of each group per
			// worker, 10 blocks.
			blocks: 10, groups: []cfGroup{{F, 1, 16}, {S, 1, 16}, {S, 1, 16}}},
		// test_get_kv_cache_configs_pp_sharding (PR #33698, 0.16).
		{cite: "test_get_kv_cache_configs_pp_sharding[symmetric]", since: 16,
			stages: [][]kvcache.Layer{{cfFull(64)}, {cfFull(64)}}, elem: 4, mem: cfPage * (512/16 + 1),
			blocks: 512/16 + 1, groups: []cfGroup{{F, 1, 16}}},
		// test_get_max_concurrency_for_kv_cache_config: Qwen1.5-7B-like
		// layers (32 heads of 128, float16), max_model_len 16384,
		// max_num_batched_tokens 1024.
		{cite: "test_get_max_concurrency_for_kv_cache_config: full attention, num_blocks 1536 -> 1.5", since: 10,
			stages: one(cfRepeat(kvcache.Layer{Kind: F, KVHeads: 32, HeadDimK: 128, HeadDimV: 128}, 32)), elem: 2,
			check: func(t *testing.T, l kvcache.Layout, _ int64) {
				// 16384 / 16 = 1024 blocks a request.
				assert.InDelta(t, 1.5, l.MaxConcurrency(1536, 16384, 1024), 1e-12)
			}},
		{cite: "test_get_max_concurrency_for_kv_cache_config: sliding window 1024, num_blocks 129 x 3 -> 3", since: 10,
			stages: one(cfRepeat(kvcache.Layer{Kind: S, KVHeads: 32, HeadDimK: 128, HeadDimV: 128, Window: 1024}, 32)), elem: 2,
			check: func(t *testing.T, l kvcache.Layout, _ int64) {
				// ceil(min(1023 + 1024, 16384) / 16) + 1 = 129.
				assert.InDelta(t, 3, l.MaxConcurrency(129*3, 16384, 1024), 1e-12)
			}},
		{cite: "test_get_max_concurrency_for_kv_cache_config: hybrid 32 full + 32 sliding, num_blocks (1024 + 129) x 3 -> 3", since: 10,
			stages: one(cfRepeat(kvcache.Layer{Kind: F, KVHeads: 32, HeadDimK: 128, HeadDimV: 128}, 32),
				cfRepeat(kvcache.Layer{Kind: S, KVHeads: 32, HeadDimK: 128, HeadDimV: 128, Window: 1024}, 32)), elem: 2,
			check: func(t *testing.T, l kvcache.Layout, _ int64) {
				assert.InDelta(t, 3, l.MaxConcurrency((1024+129)*3, 16384, 1024), 1e-12)
			}},
		// test_estimate_max_model_len: 32 such full layers in 8 GiB hold
		// 16384 tokens: a block row is 32 x 16 x 32 x 256 x 2 B = 8 MiB,
		// 8 GiB / 8 MiB = 1024 blocks. vLLM's binary search gives the
		// largest length <= max_model_len whose blocks fit.
		{cite: "test_estimate_max_model_len[Qwen/Qwen1.5-7B-16385-16384] and [16383-16383]", since: 10,
			stages: one(cfRepeat(kvcache.Layer{Kind: F, KVHeads: 32, HeadDimK: 128, HeadDimV: 128}, 32)), elem: 2,
			mem: 8 << 30, blocks: 1024, groups: []cfGroup{{F, 32, 16}},
			check: func(t *testing.T, l kvcache.Layout, blocks int64) {
				est := func(limit int64) int64 {
					best := int64(0)
					for n := int64(1); n <= limit; n++ {
						if l.MaxBlocksPerRequest(n, 32768) <= blocks {
							best = n
						}
					}
					return best
				}
				assert.Equal(t, int64(16384), est(16385))
				assert.Equal(t, int64(16383), est(16383))
			}},
	}
}

func TestVLLMKVConformance(t *testing.T) {
	for minor := release.VLLMFirstV1; minor <= release.VLLMNewest; minor++ {
		name := "0." + strconv.Itoa(minor)
		v, ok := release.LookupVersion("vllm", name)
		require.True(t, ok)
		cut := conformanceCuts[min(minor, 22)]
		n := 0
		for _, c := range cfCases() {
			if minor < c.since || (c.until > 0 && minor > c.until) {
				continue
			}
			n++
			t.Run(name+"/"+c.cite, func(t *testing.T) {
				r := v.KVRules
				o := kvcache.Options{TP: 1, ElemBytes: c.elem, BlockSize: 16, Rules: &r}
				lays, err := kvcache.NewStageLayouts(c.stages, o)
				require.NoError(t, err, "read at %s", cut)
				blocks := int64(-1)
				for _, l := range lays {
					if b := l.NumBlocks(c.mem); blocks < 0 || b < blocks {
						blocks = b
					}
				}
				if c.groups != nil {
					assert.Equal(t, c.blocks, blocks, "num_blocks (vLLM at %s)", cut)
					var got []cfGroup
					for _, g := range lays[0].Groups {
						got = append(got, cfGroup{g.Kind, g.Layers, g.BlockSize})
					}
					assert.Equal(t, c.groups, got, "kv_cache_groups (vLLM at %s)", cut)
				}
				if c.check != nil {
					c.check(t, lays[0], blocks)
				}
			})
		}
		t.Logf("vLLM %s: %d rows (tests read at %s)", name, n, cut)
	}
}
