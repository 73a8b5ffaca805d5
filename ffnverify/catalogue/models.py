"""The catalogue's data: one row per real architecture, each with the source it came from.

Plain data; nothing here computes. `width_rule` says where d_ff came from:

- "llama": Meta's rule, `derivations.widths.llama_width(d_model, multiple_of, multiplier)`;
- "ratio": d_ff = ratio * d_model, as the paper states it (GPT-2, GPT-3, PaLM: 4·d);
- "half_fused": d_ff = fused / 2, where the source gives the fused gate+up width (OLMo's
  mlp_hidden_size, the Gemma papers' "feedforward hidden dims");
- None: the width is given (a config's intermediate_size), not produced by a stated rule.

`published_total` is an exact published parameter count (or None where only a rounded
figure exists); `note` says why a published figure does not reproduce, and anything else
a reader checking the row needs.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Model:
    name: str
    d_model: int
    d_ff: int
    variant: str  # derivations.variants name: the exact GELU form matters (gelu vs gelu_tanh)
    bias: bool  # FFN projections have biases
    layers: int  # decoder layers (the whole depth of a decoder-only model)
    vocab: int  # rows of the released embedding matrix
    heads: int
    kv_heads: int
    head_dim: int
    tied: bool  # LM head shares the token embedding
    norm: str  # "rms" | "layer"
    norm_weight: bool
    norm_bias: bool
    source: str  # where the shape comes from: repository + path, or arXiv id
    norms_per_layer: int = 2
    qkv_bias: bool = False
    o_bias: bool = False
    positions: int = 0  # learned absolute position embeddings (rows); 0 for RoPE/relative
    experts: int = 1
    experts_active: int = 1
    encoder_layers: int = 0
    relative_attention_buckets: int = 0
    width_rule: str | None = None
    width_params: dict = field(default_factory=dict)
    width_source: str = ""
    published_total: int | None = None
    published_source: str = ""
    note: str = ""


LLAMA_RULE = "meta-llama/llama llama/model.py FeedForward (multiple_of, ffn_dim_multiplier)"
LLAMA1 = dict(variant="swiglu", bias=False, vocab=32000, tied=False, norm="rms",
              norm_weight=True, norm_bias=False, head_dim=128, width_rule="llama",
              width_source=LLAMA_RULE)
LLAMA3 = dict(LLAMA1, vocab=128256, kv_heads=8)
HUB = "Hugging Face Hub safetensors parameter count of {} (as quoted in issue 4)"
LLAMA1_SRC = ("arXiv:2302.13971 Table 2 (dimension, heads, layers); multiple_of 256 "
              "(meta-llama/llama llama/model.py); vocabulary 32000 (the released tokenizer)")
LLAMA1_NOTE = ("arXiv:2302.13971 Table 2 gives only a rounded size ({}); the shape in that "
               "table is counted here.")

ROWS = [
    Model(name="llama-1-7b", d_model=4096, d_ff=11008, layers=32, heads=32, kv_heads=32,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC,
          note=LLAMA1_NOTE.format("6.7B") + " Same shape as Llama 2 7B."),
    Model(name="llama-1-13b", d_model=5120, d_ff=13824, layers=40, heads=40, kv_heads=40,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC,
          note=LLAMA1_NOTE.format("13.0B")),
    Model(name="llama-1-33b", d_model=6656, d_ff=17920, layers=60, heads=52, kv_heads=52,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC + " (the '33B', released as '30B')",
          note=LLAMA1_NOTE.format("32.5B")),
    Model(name="llama-1-65b", d_model=8192, d_ff=22016, layers=80, heads=64, kv_heads=64,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC,
          note=LLAMA1_NOTE.format("65.2B") + " The derived 65,285,660,672 rounds to 65.3B: "
          "the paper's 65.2B is the count truncated, not rounded."),
    Model(name="llama-2-7b", d_model=4096, d_ff=11008, layers=32, heads=32, kv_heads=32,
          width_params=dict(multiple_of=256), **LLAMA1,
          source="meta-llama/Llama-2-7b params.json (dim 4096, multiple_of 256, no multiplier)",
          published_total=6_738_415_616, published_source=HUB.format("meta-llama/Llama-2-7b-hf"),
          note="meta-llama/llama-models models/sku_list.py registers Llama 2 7B with "
          "ffn_dim_multiplier 1.3, n_kv_heads 8 and vocab 128256: those values give d_ff "
          "14336 and do not reproduce the released weights (see docs/catalogue.md)."),
    Model(name="llama-2-13b", d_model=5120, d_ff=13824, layers=40, heads=40, kv_heads=40,
          width_params=dict(multiple_of=256), **LLAMA1,
          source="meta-llama/Llama-2-13b params.json",
          published_total=13_015_864_320,
          published_source=HUB.format("meta-llama/Llama-2-13b-hf")),
    Model(name="llama-2-70b", d_model=8192, d_ff=28672, layers=80, heads=64, kv_heads=8,
          width_params=dict(multiple_of=4096, multiplier="1.3"), **LLAMA1,
          source="meta-llama/Llama-2-70b params.json (multiple_of 4096, ffn_dim_multiplier 1.3)",
          published_total=68_976_648_192,
          published_source=HUB.format("meta-llama/Llama-2-70b-hf")),
    Model(name="llama-3-8b", d_model=4096, d_ff=14336, layers=32, heads=32,
          width_params=dict(multiple_of=1024, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Meta-Llama-3-8B original/params.json; "
          "meta-llama/llama-models models/sku_list.py",
          published_total=8_030_261_248,
          published_source=HUB.format("meta-llama/Meta-Llama-3-8B")),
    Model(name="llama-3-70b", d_model=8192, d_ff=28672, layers=80, heads=64,
          width_params=dict(multiple_of=4096, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Meta-Llama-3-70B original/params.json; "
          "meta-llama/llama-models models/sku_list.py",
          published_total=70_553_706_496,
          published_source=HUB.format("meta-llama/Meta-Llama-3-70B")),
    Model(name="llama-3.1-405b", d_model=16384, d_ff=53248, layers=126, heads=128,
          width_params=dict(multiple_of=4096, multiplier="1.2"), **LLAMA3,
          source="meta-llama/llama-models models/sku_list.py (dim 16384, n_layers 126, "
          "n_heads 128, n_kv_heads 8, ffn_dim_multiplier 1.2, multiple_of 4096)",
          note="Only the rounded '405B' is published."),
    Model(name="mistral-7b", d_model=4096, d_ff=14336, variant="swiglu", bias=False,
          layers=32, vocab=32000, heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="mistralai/Mistral-7B-v0.1 config.json (intermediate_size 14336); "
          "arXiv:2310.06825 Table 1 (hidden_dim 14336)",
          published_total=7_241_732_096,
          published_source=HUB.format("mistralai/Mistral-7B-v0.1"),
          note="d_ff is given, not derived: no Mistral source states a rule. It coincides "
          "with Meta's rule at multiple_of 1024, multiplier 1.3 (Llama 3 8B's), a "
          "coincidence recorded in docs/catalogue.md, not a provenance."),
    Model(name="mixtral-8x7b", d_model=4096, d_ff=14336, variant="swiglu", bias=False,
          layers=32, vocab=32000, heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False, experts=8, experts_active=2,
          source="mistralai/Mixtral-8x7B-v0.1 config.json (num_local_experts 8, "
          "num_experts_per_tok 2); arXiv:2401.04088 Table 1",
          published_total=46_702_792_704,
          published_source="arXiv:2401.04088 ('47B'); exact: "
          + HUB.format("mistralai/Mixtral-8x7B-v0.1"),
          note="Total counts all 8 experts and the router (no bias); d_ff is given, as for "
          "Mistral 7B. About 12.9B are active per token (2 of 8 experts)."),
    Model(name="qwen2.5-7b", d_model=3584, d_ff=18944, variant="swiglu", bias=False,
          layers=28, vocab=152064, heads=28, kv_heads=4, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False, qkv_bias=True,
          source="Qwen/Qwen2.5-7B config.json (tie_word_embeddings false; q/k/v biases)",
          published_total=7_615_616_512, published_source=HUB.format("Qwen/Qwen2.5-7B"),
          note="The model card's 7.61B is this total truncated (it rounds to 7.62B); its "
          "6.53B non-embedding figure is rounded. d_ff 18944 is given."),
    Model(name="gemma-2b", d_model=2048, d_ff=16384, variant="geglu_tanh", bias=False,
          layers=18, vocab=256000, heads=8, kv_heads=1, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, width_rule="half_fused",
          width_params=dict(fused=32768),
          width_source="arXiv:2403.08295 Table 1 'feedforward hidden dims' 32768 (gate+up)",
          source="google/gemma-2b config.json (hidden_activation gelu_pytorch_tanh, "
          "head_dim 256, num_key_value_heads 1); arXiv:2403.08295",
          published_total=2_506_172_416, published_source=HUB.format("google/gemma-2b"),
          note="The paper's Table 1 lists the fused gate+up width (32768) and a 256128 "
          "vocabulary; the released embedding has 256000 rows, so the paper's embedding "
          "count (Table 2) exceeds the checkpoint's by 128 x 2048."),
    Model(name="gemma-7b", d_model=3072, d_ff=24576, variant="geglu_tanh", bias=False,
          layers=28, vocab=256000, heads=16, kv_heads=16, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, width_rule="half_fused",
          width_params=dict(fused=49152),
          width_source="arXiv:2403.08295 Table 1 'feedforward hidden dims' 49152 (gate+up)",
          source="google/gemma-7b config.json (head_dim 256, 16 heads: attention width "
          "4096 != d_model 3072); arXiv:2403.08295",
          published_total=8_537_680_896, published_source=HUB.format("google/gemma-7b"),
          note="'7B' counts without the embedding (7.75B non-embedding). Attention width "
          "16 x 256 = 4096 differs from d_model 3072; assuming heads x head_dim = d_model "
          "undercounts. Vocabulary as for Gemma 2B."),
    Model(name="gemma-2-9b", d_model=3584, d_ff=14336, variant="geglu_tanh", bias=False,
          layers=42, vocab=256000, heads=16, kv_heads=8, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, norms_per_layer=4,
          source="google/gemma-2-9b config.json (intermediate_size 14336, head_dim 256, "
          "pre- and post-norms around attention and FFN: 4 RMSNorms per layer)",
          note="Only the rounded '9B' is published. d_ff 14336 is given (config)."),
    Model(name="t5-v1.1-base", d_model=768, d_ff=2048, variant="geglu_tanh", bias=False,
          layers=12, encoder_layers=12, vocab=32128, heads=12, kv_heads=12, head_dim=64,
          tied=False, norm="rms", norm_weight=True, norm_bias=False,
          relative_attention_buckets=32,
          source="google/t5-v1_1-base config.json (feed_forward_proj gated-gelu, "
          "tie_word_embeddings false); google-research/text-to-text-transfer-transformer "
          "released_checkpoints.md",
          note="Encoder-decoder: 12 + 12 layers, one shared embedding, untied LM head. "
          "'gated-gelu' is the tanh GELU (HF maps it to gelu_new). d_ff 2048 is given."),
    Model(name="palm-540b", d_model=18432, d_ff=73728, variant="swiglu", bias=False,
          layers=118, vocab=256000, heads=48, kv_heads=1, head_dim=256, tied=True,
          norm="layer", norm_weight=True, norm_bias=False, norms_per_layer=1,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:2204.02311 section 2 (d_ff = 4 d_model)",
          source="arXiv:2204.02311 Table 1 and section 2 (parallel layers: one LayerNorm "
          "per layer; multi-query attention; no biases; shared input-output embedding)",
          note="Only a size rounded to billions is published. Parallel block: attention and "
          "FFN read one LayerNorm (scale, no bias). d_ff = 4 d_model with SwiGLU makes the "
          "FFN 1.5x a 4d ReLU FFN, not parameter-matched."),
    Model(name="gpt2-small", d_model=768, d_ff=3072, variant="gelu_tanh", bias=True,
          layers=12, vocab=50257, heads=12, kv_heads=12, head_dim=64, tied=True,
          norm="layer", norm_weight=True, norm_bias=True, qkv_bias=True, o_bias=True,
          positions=1024, width_rule="ratio", width_params=dict(ratio=4),
          width_source="openai/gpt-2 src/model.py (mlp width nx*4)",
          source="openai-community/gpt2 config.json (n_embd 768, n_layer 12, n_head 12, "
          "n_positions 1024, activation gelu_new); openai/gpt-2 src/model.py",
          published_total=124_439_808,
          published_source=HUB.format("openai-community/gpt2") + "; openai/gpt-2 README (124M)",
          note="The GPT-2 paper and first blog post called this model 117M; openai/gpt-2's "
          "README says those counts were wrong and renamed it 124M. 117M does not reproduce."),
    Model(name="gpt-3-175b", d_model=12288, d_ff=49152, variant="gelu_tanh", bias=True,
          layers=96, vocab=50257, heads=96, kv_heads=96, head_dim=128, tied=True,
          norm="layer", norm_weight=True, norm_bias=True, qkv_bias=True, o_bias=True,
          positions=2048, width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:2005.14165 section 2.1 (d_ff = 4 d_model)",
          source="arXiv:2005.14165 Table 2.1 (n_layers 96, d_model 12288, n_heads 96, "
          "d_head 128, context 2048) and section 2.1 (GPT-2 architecture and tokenizer)",
          note="Table 2.1 says 175.0B; this GPT-2-style count (tied head, learned positions, "
          "all biases) is 174,604,259,328, i.e. 174.6B. The paper does not itemize its count "
          "and the weights are not released, so the 0.4B gap is not resolved; the GELU form "
          "and tied head are GPT-2's, assumed."),
    Model(name="olmo-7b", d_model=4096, d_ff=11008, variant="swiglu", bias=False,
          layers=32, vocab=50304, heads=32, kv_heads=32, head_dim=128, tied=False,
          norm="layer", norm_weight=False, norm_bias=False, width_rule="half_fused",
          width_params=dict(fused=22016),
          width_source="allenai/OLMo configs/official/OLMo-7B.yaml mlp_hidden_size 22016 "
          "(gate+up; the SwiGLU splits it in half)",
          source="allenai/OLMo configs/official/OLMo-7B.yaml (weight_tying false, "
          "layer_norm_with_affine false, include_bias false, embedding_size 50304)",
          note="Non-parametric LayerNorm: no norm weights at all. embedding_size 50304 "
          "(vocab_size 50280 padded) is the row count. d_ff 11008 also equals Meta's rule "
          "at d=4096, but OLMo's config states the fused 22016."),
    Model(name="phi-3-mini", d_model=3072, d_ff=8192, variant="swiglu", bias=False,
          layers=32, vocab=32064, heads=32, kv_heads=32, head_dim=96, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="microsoft/Phi-3-mini-4k-instruct config.json (intermediate_size 8192, "
          "fused qkv_proj and gate_up_proj, tie_word_embeddings false)",
          note="Only the rounded '3.8B' (arXiv:2404.14219) is published. d_ff is given; "
          "gate_up_proj stores the fused 2 x 8192."),
]

ALIASES = {"gpt-2-small": "gpt2-small", "llama-1-30b": "llama-1-33b"}
