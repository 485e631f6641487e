package models

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Command R7B, module by module as vLLM's commandr.py builds it (one
// input_layernorm per layer, attention and SwiGLU MLP in parallel, head tied
// to the embedding), from its config (hidden 4096, 32 layers, 32 heads / 8
// KV heads of 128, MLP 14336, vocabulary 256000):
//
//	embedding  256,000 * 4,096                              = 1,048,576,000
//	attention  32 * (2*4,096*4,096 + 2*4,096*1,024)         = 1,342,177,280
//	MLP        32 * 3*4,096*14,336                          = 5,637,144,576
//	norms      32 * 4,096 + 4,096                           =       135,168
//	total                                                   = 8,028,033,024
func TestCommandR7BParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("command-r7b")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(1_048_576_000), p.Embedding)
	assert.Zero(t, p.LMHead)
	assert.Equal(t, int64(1_342_177_280), p.Attention)
	assert.Equal(t, int64(5_637_144_576), p.DenseMLP)
	assert.Equal(t, int64(135_168), p.Norms)
	assert.Equal(t, int64(8_028_033_024), p.Total)
}

// Command A, the same modules at 12288 wide, 64 layers, 96 heads / 8 KV
// heads of 128, MLP 36864, vocabulary 256000 tied:
//
//	embedding  256,000 * 12,288                               =   3,145,728,000
//	attention  64 * (2*12,288*12,288 + 2*12,288*1,024)        =  20,937,965,568
//	MLP        64 * 3*12,288*36,864                           =  86,973,087,744
//	norms      64 * 12,288 + 12,288                           =         798,720
//	total                                                     = 111,057,580,032
//
// (the card's 111B). Command A Vision adds the SigLIP tower's estimate,
// 27 * (4*1,152^2 + 2*1,152*4,304) + 3*16^2*1,152 = 411,955,200.
func TestCommandAParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("command-a")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(3_145_728_000), p.Embedding)
	assert.Equal(t, int64(20_937_965_568), p.Attention)
	assert.Equal(t, int64(86_973_087_744), p.DenseMLP)
	assert.Equal(t, int64(798_720), p.Norms)
	assert.Equal(t, int64(111_057_580_032), p.Total)
	v, err := Lookup("command-a-vision")
	require.NoError(t, err)
	assert.Equal(t, int64(411_955_200), v.Params.Vision)
	assert.Equal(t, int64(111_057_580_032+411_955_200), v.Params.Total)
}

// Granite 4.0 H Small, as vLLM's granitemoehybrid.py builds it (every layer
// a Mamba-2 or attention mixer, then 72 routed experts, top-10, and a
// shared MLP), from its config (hidden 4096, 4 attention layers of 32 heads
// / 8 KV heads of 128, 36 Mamba-2 layers with d_inner 8192, 1 group,
// d_state 128, 128 heads of 64, conv 4 with bias; experts 768 wide, shared
// MLP 1536, vocabulary 100352 tied):
//
//	embedding       100,352 * 4,096                                  =    411,041,792
//	attention       4 * (2*4,096*4,096 + 2*4,096*1,024)              =    167,772,160
//	Mamba-2 layer   in_proj 4,096*(2*8,192 + 2*128 + 128) 68,681,728
//	                conv 8,448*4 + 8,448 bias             42,240
//	                dt_bias, A_log, D 3*128, norm 8,192    8,576
//	                out_proj 8,192*4,096                  33,554,432
//	                                                      = 102,286,976
//	mixers          36 * 102,286,976                                 =  3,682,331,136
//	routed experts  40 * 72 * 3*4,096*768                            = 27,179,089,920
//	shared MLP      40 * 3*4,096*1,536                               =    754,974,720
//	router          40 * 4,096*72                                    =     11,796,480
//	norms           40 * 2*4,096 + 4,096                             =        331,776
//	total                                                            = 32,207,337,984
//
// Active: total - routed + 40 * 10 * 9,437,184 = 8,803,121,664 (the card's
// "9B active").
func TestGraniteHSmallParams(t *testing.T) {
	t.Parallel()
	m, err := Lookup("granite-4.0-h-small")
	require.NoError(t, err)
	p := m.Params
	assert.Equal(t, int64(411_041_792), p.Embedding)
	assert.Equal(t, int64(167_772_160), p.Attention)
	assert.Equal(t, int64(36*102_286_976), p.Mixer)
	assert.Equal(t, int64(27_179_089_920), p.RoutedExperts)
	assert.Equal(t, int64(754_974_720), p.SharedExperts)
	assert.Equal(t, int64(11_796_480), p.Router)
	assert.Equal(t, int64(331_776), p.Norms)
	assert.Equal(t, int64(32_207_337_984), p.Total)
	assert.Equal(t, int64(8_803_121_664), p.Active)
}
