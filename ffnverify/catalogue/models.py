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

`context` is the maximum sequence length the release states (its config's
max_position_embeddings or n_positions, or the paper's); None only for the 2017
Transformer, whose paper states none. `hf_ids` are Hugging Face repository ids that name
the same weights (aliases: `meta-llama/Llama-2-7b-hf`).

Encoder-only models (BERT) are one stack of `layers`; encoder-decoders (T5, the 2017
Transformer) have `encoder_layers` and `layers` decoder layers.
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
    active_experts: int = 1
    shared_d_ff: int = 0  # width of the always-used shared expert (Qwen-MoE)
    shared_expert_gate: bool = False
    qk_norm: bool = False  # RMSNorm of width head_dim on q and k (Qwen3, Gemma 3)
    token_types: int = 0  # BERT's segment embeddings
    embedding_norm: bool = False  # BERT: LayerNorm after the embedding sum
    pooler: bool = False  # BERT: d x d pooler with bias
    encoder_only: bool = False  # BERT: `layers` is the encoder's stack, and there is no decoder
    final_norm: bool = True
    context: int | None = 0
    # every layer attends to at most this many recent tokens, so a KV cache may hold only
    # that many (0: no window); a model whose layers alternate is not given one here
    sliding_window: int = 0
    hf_ids: tuple = ()
    encoder_layers: int = 0
    relative_attention_buckets: int = 0
    width_rule: str | None = None
    width_params: dict = field(default_factory=dict)
    width_source: str = ""
    published_total: int | None = None
    published_source: str = ""
    note: str = ""
    # values of a field that a primary source publishes and the config does not hold
    # (Gemma's report: a 256128-row vocabulary, the fused 2h as "feedforward hidden dims"):
    # a document stating one is not wrong, and the scan leaves that figure unread; a
    # parameter count of one scope is keyed "params_total:SCOPE" (Qwen2.5 32B's card:
    # "params_total:non_embedding" 31.0B)
    published_as: dict = field(default_factory=dict)


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
    Model(name="llama-1-7b", context=2048, d_model=4096, d_ff=11008, layers=32, heads=32, kv_heads=32,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC,
          note=LLAMA1_NOTE.format("6.7B") + " Same shape as Llama 2 7B."),
    Model(name="llama-1-13b", context=2048, d_model=5120, d_ff=13824, layers=40, heads=40, kv_heads=40,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC,
          note=LLAMA1_NOTE.format("13.0B")),
    Model(name="llama-1-33b", context=2048, d_model=6656, d_ff=17920, layers=60, heads=52, kv_heads=52,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC + " (the '33B', released as '30B')",
          note=LLAMA1_NOTE.format("32.5B")),
    Model(name="llama-1-65b", context=2048, d_model=8192, d_ff=22016, layers=80, heads=64, kv_heads=64,
          width_params=dict(multiple_of=256), **LLAMA1,
          source=LLAMA1_SRC,
          note=LLAMA1_NOTE.format("65.2B") + " The derived 65,285,660,672 rounds to 65.3B: "
          "the paper's 65.2B is the count truncated, not rounded."),
    Model(name="llama-2-7b", context=4096, hf_ids=('meta-llama/Llama-2-7b-hf', 'meta-llama/Llama-2-7b'),
          d_model=4096, d_ff=11008, layers=32, heads=32, kv_heads=32,
          width_params=dict(multiple_of=256), **LLAMA1,
          source="meta-llama/Llama-2-7b params.json (dim 4096, multiple_of 256, no multiplier)",
          published_total=6_738_415_616, published_source=HUB.format("meta-llama/Llama-2-7b-hf"),
          note="meta-llama/llama-models models/sku_list.py registers Llama 2 7B with "
          "ffn_dim_multiplier 1.3, n_kv_heads 8 and vocab 128256: those values give d_ff "
          "14336 and do not reproduce the released weights (see docs/catalogue.md)."),
    Model(name="llama-2-13b", context=4096, hf_ids=('meta-llama/Llama-2-13b-hf', 'meta-llama/Llama-2-13b'),
          d_model=5120, d_ff=13824, layers=40, heads=40, kv_heads=40,
          width_params=dict(multiple_of=256), **LLAMA1,
          source="meta-llama/Llama-2-13b params.json",
          published_total=13_015_864_320,
          published_source=HUB.format("meta-llama/Llama-2-13b-hf")),
    Model(name="llama-2-70b", context=4096, hf_ids=('meta-llama/Llama-2-70b-hf', 'meta-llama/Llama-2-70b'),
          d_model=8192, d_ff=28672, layers=80, heads=64, kv_heads=8,
          width_params=dict(multiple_of=4096, multiplier="1.3"), **LLAMA1,
          source="meta-llama/Llama-2-70b params.json (multiple_of 4096, ffn_dim_multiplier 1.3)",
          published_total=68_976_648_192,
          published_source=HUB.format("meta-llama/Llama-2-70b-hf")),
    Model(name="llama-3-8b", context=8192, hf_ids=('meta-llama/Meta-Llama-3-8B',),
          d_model=4096, d_ff=14336, layers=32, heads=32,
          width_params=dict(multiple_of=1024, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Meta-Llama-3-8B original/params.json; "
          "meta-llama/llama-models models/sku_list.py",
          published_total=8_030_261_248,
          published_source=HUB.format("meta-llama/Meta-Llama-3-8B")),
    Model(name="llama-3-70b", context=8192, hf_ids=('meta-llama/Meta-Llama-3-70B',),
          d_model=8192, d_ff=28672, layers=80, heads=64,
          width_params=dict(multiple_of=4096, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Meta-Llama-3-70B original/params.json; "
          "meta-llama/llama-models models/sku_list.py",
          published_total=70_553_706_496,
          published_source=HUB.format("meta-llama/Meta-Llama-3-70B")),
    Model(name="llama-3.1-405b", context=131072, hf_ids=('meta-llama/Llama-3.1-405B', 'meta-llama/Meta-Llama-3.1-405B'),
          d_model=16384, d_ff=53248, layers=126, heads=128,
          width_params=dict(multiple_of=4096, multiplier="1.2"), **LLAMA3,
          source="meta-llama/llama-models models/sku_list.py (dim 16384, n_layers 126, "
          "n_heads 128, n_kv_heads 8, ffn_dim_multiplier 1.2, multiple_of 4096)",
          note="Only the rounded '405B' is published."),
    Model(name="mistral-7b", context=32768, hf_ids=('mistralai/Mistral-7B-v0.1',),
          sliding_window=4096,  # config.json "sliding_window": 4096; arXiv:2310.06825 (W)
          d_model=4096, d_ff=14336, variant="swiglu", bias=False,
          layers=32, vocab=32000, heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="mistralai/Mistral-7B-v0.1 config.json (intermediate_size 14336); "
          "arXiv:2310.06825 Table 1 (hidden_dim 14336)",
          published_total=7_241_732_096,
          published_source=HUB.format("mistralai/Mistral-7B-v0.1"),
          # arXiv:2310.06825 Table 1 (context_len 8192); mistral.ai's announcement ("a
          # 7.3B parameter model")
          published_as={"context": 8192, "params_total": 7_300_000_000},
          note="d_ff is given, not derived: no Mistral source states a rule. It coincides "
          "with Meta's rule at multiple_of 1024, multiplier 1.3 (Llama 3 8B's), a "
          "coincidence recorded in docs/catalogue.md, not a provenance."),
    Model(name="mixtral-8x7b", context=32768, hf_ids=('mistralai/Mixtral-8x7B-v0.1',),
          d_model=4096, d_ff=14336, variant="swiglu", bias=False,
          layers=32, vocab=32000, heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False, experts=8, active_experts=2,
          source="mistralai/Mixtral-8x7B-v0.1 config.json (num_local_experts 8, "
          "num_experts_per_tok 2); arXiv:2401.04088 Table 1",
          published_total=46_702_792_704,
          published_source="arXiv:2401.04088 ('47B'); exact: "
          + HUB.format("mistralai/Mixtral-8x7B-v0.1"),
          note="Total counts all 8 experts and the router (no bias); d_ff is given, as for "
          "Mistral 7B. About 12.9B are active per token (2 of 8 experts)."),
    Model(name="qwen2.5-7b", context=131072, hf_ids=('Qwen/Qwen2.5-7B',),
          d_model=3584, d_ff=18944, variant="swiglu", bias=False,
          layers=28, vocab=152064, heads=28, kv_heads=4, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False, qkv_bias=True,
          source="Qwen/Qwen2.5-7B config.json (tie_word_embeddings false; q/k/v biases)",
          published_total=7_615_616_512, published_source=HUB.format("Qwen/Qwen2.5-7B"),
          published_as={"params_total": 7_610_000_000},  # the model card's figure
          note="The model card's 7.61B is this total truncated (it rounds to 7.62B); its "
          "6.53B non-embedding figure is rounded. d_ff 18944 is given."),
    Model(name="gemma-2b", context=8192, hf_ids=('google/gemma-2b',),
          d_model=2048, d_ff=16384, variant="geglu_tanh", bias=False,
          layers=18, vocab=256000, heads=8, kv_heads=1, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, width_rule="half_fused",
          width_params=dict(fused=32768),
          width_source="arXiv:2403.08295 Table 1 'feedforward hidden dims' 32768 (gate+up)",
          source="google/gemma-2b config.json (hidden_activation gelu_pytorch_tanh, "
          "head_dim 256, num_key_value_heads 1); arXiv:2403.08295",
          published_total=2_506_172_416, published_source=HUB.format("google/gemma-2b"),
          published_as={"vocab": 256128, "d_ff": 32768},  # arXiv:2403.08295 Table 1
          note="The paper's Table 1 lists the fused gate+up width (32768) and a 256128 "
          "vocabulary; the released embedding has 256000 rows, so the paper's embedding "
          "count (Table 2) exceeds the checkpoint's by 128 x 2048."),
    Model(name="gemma-7b", context=8192, hf_ids=('google/gemma-7b',),
          d_model=3072, d_ff=24576, variant="geglu_tanh", bias=False,
          layers=28, vocab=256000, heads=16, kv_heads=16, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, width_rule="half_fused",
          width_params=dict(fused=49152),
          width_source="arXiv:2403.08295 Table 1 'feedforward hidden dims' 49152 (gate+up)",
          source="google/gemma-7b config.json (head_dim 256, 16 heads: attention width "
          "4096 != d_model 3072); arXiv:2403.08295",
          published_total=8_537_680_896, published_source=HUB.format("google/gemma-7b"),
          published_as={"vocab": 256128, "d_ff": 49152},  # arXiv:2403.08295 Table 1
          note="'7B' counts without the embedding (7.75B non-embedding). Attention width "
          "16 x 256 = 4096 differs from d_model 3072; assuming heads x head_dim = d_model "
          "undercounts. Vocabulary as for Gemma 2B."),
    Model(name="gemma-2-9b", context=8192, hf_ids=('google/gemma-2-9b',),
          d_model=3584, d_ff=14336, variant="geglu_tanh", bias=False,
          layers=42, vocab=256000, heads=16, kv_heads=8, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, norms_per_layer=4,
          source="google/gemma-2-9b config.json (intermediate_size 14336, head_dim 256, "
          "pre- and post-norms around attention and FFN: 4 RMSNorms per layer)",
          note="Only the rounded '9B' is published. d_ff 14336 is given (config)."),
    Model(name="t5-v1.1-base", context=512, hf_ids=('google/t5-v1_1-base',),
          d_model=768, d_ff=2048, variant="geglu_tanh", bias=False,
          layers=12, encoder_layers=12, vocab=32128, heads=12, kv_heads=12, head_dim=64,
          tied=False, norm="rms", norm_weight=True, norm_bias=False,
          relative_attention_buckets=32,
          source="google/t5-v1_1-base config.json (feed_forward_proj gated-gelu, "
          "tie_word_embeddings false); google-research/text-to-text-transfer-transformer "
          "released_checkpoints.md",
          note="Encoder-decoder: 12 + 12 layers, one shared embedding, untied LM head. "
          "'gated-gelu' is the tanh GELU (HF maps it to gelu_new). d_ff 2048 is given."),
    Model(name="palm-540b", context=2048, d_model=18432, d_ff=73728, variant="swiglu", bias=False,
          layers=118, vocab=256000, heads=48, kv_heads=1, head_dim=256, tied=True,
          norm="layer", norm_weight=True, norm_bias=False, norms_per_layer=1,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:2204.02311 section 2 (d_ff = 4 d_model)",
          source="arXiv:2204.02311 Table 1 and section 2 (parallel layers: one LayerNorm "
          "per layer; multi-query attention; no biases; shared input-output embedding)",
          note="Only a size rounded to billions is published. Parallel block: attention and "
          "FFN read one LayerNorm (scale, no bias). d_ff = 4 d_model with SwiGLU makes the "
          "FFN 1.5x a 4d ReLU FFN, not parameter-matched."),
    Model(name="gpt2-small", context=1024, hf_ids=('openai-community/gpt2', 'gpt2'),
          d_model=768, d_ff=3072, variant="gelu_tanh", bias=True,
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
    Model(name="gpt-3-175b", context=2048, d_model=12288, d_ff=49152, variant="gelu_tanh", bias=True,
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
    Model(name="olmo-7b", context=2048, hf_ids=('allenai/OLMo-7B',),
          d_model=4096, d_ff=11008, variant="swiglu", bias=False,
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
    Model(name="phi-3-mini", context=4096, hf_ids=('microsoft/Phi-3-mini-4k-instruct',),
          d_model=3072, d_ff=8192, variant="swiglu", bias=False,
          layers=32, vocab=32064, heads=32, kv_heads=32, head_dim=96, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="microsoft/Phi-3-mini-4k-instruct config.json (intermediate_size 8192, "
          "fused qkv_proj and gate_up_proj, tie_word_embeddings false)",
          note="Only the rounded '3.8B' (arXiv:2404.14219) is published. d_ff is given; "
          "gate_up_proj stores the fused 2 x 8192."),
    # --- added with the whole-model functions -------------------------------------------
    Model(name="llama-3.1-8b", context=131072,
          hf_ids=("meta-llama/Llama-3.1-8B", "meta-llama/Meta-Llama-3.1-8B"),
          d_model=4096, d_ff=14336, layers=32, heads=32,
          width_params=dict(multiple_of=1024, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Llama-3.1-8B config.json (max_position_embeddings 131072, "
          "tie_word_embeddings false); meta-llama/llama-models models/sku_list.py",
          published_total=8_030_261_248,
          published_source=HUB.format("meta-llama/Llama-3.1-8B-Instruct"),
          note="The shape of Llama 3 8B; only the RoPE scaling and the context (8192 -> "
          "131072) changed, and neither has parameters."),
    Model(name="llama-3.1-70b", context=131072,
          hf_ids=("meta-llama/Llama-3.1-70B", "meta-llama/Meta-Llama-3.1-70B"),
          d_model=8192, d_ff=28672, layers=80, heads=64,
          width_params=dict(multiple_of=4096, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Llama-3.1-70B config.json; meta-llama/llama-models "
          "models/sku_list.py",
          published_total=70_553_706_496,
          published_source=HUB.format("meta-llama/Llama-3.3-70B-Instruct (the same shape)"),
          note="The shape of Llama 3 70B with a 131072 context."),
    Model(name="llama-3.2-1b", context=131072, hf_ids=("meta-llama/Llama-3.2-1B",),
          d_model=2048, d_ff=8192, layers=16, heads=32,
          **{**LLAMA3, "head_dim": 64, "tied": True},
          width_params=dict(multiple_of=256, multiplier="1.5"),
          source="meta-llama/Llama-3.2-1B config.json (head_dim 64, tie_word_embeddings "
          "true) and original/params.json (ffn_dim_multiplier 1.5, multiple_of 256)",
          published_total=1_235_814_400,
          published_source=HUB.format("meta-llama/Llama-3.2-1B-Instruct"),
          note="The model card's 1.23B is this total truncated (it rounds to 1.24B). The "
          "head is tied: 262,668,288 embedding parameters are counted once."),
    Model(name="llama-3.2-3b", context=131072, hf_ids=("meta-llama/Llama-3.2-3B",),
          d_model=3072, d_ff=8192, layers=28, heads=24,
          **{**LLAMA3, "tied": True, "width_rule": None, "width_source": ""},
          source="meta-llama/Llama-3.2-3B config.json (intermediate_size 8192, 24 heads "
          "of 128, 8 KV heads, tie_word_embeddings true)",
          published_total=3_212_749_824,
          published_source=HUB.format("meta-llama/Llama-3.2-3B-Instruct"),
          note="d_ff is given (config). The model card's 3.21B is this total rounded."),
    Model(name="transformer-base", context=None, d_model=512, d_ff=2048, variant="relu",
          bias=True, layers=6, encoder_layers=6, vocab=37000, heads=8, kv_heads=8,
          head_dim=64, tied=True, norm="layer", norm_weight=True, norm_bias=True,
          qkv_bias=True, o_bias=True, final_norm=False,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:1706.03762 section 3.3 (d_model 512, d_ff 2048)",
          source="arXiv:1706.03762 Table 3 (N 6, d_model 512, d_ff 2048, h 8, d_k 64) and "
          "sections 3.4-3.5 (one embedding shared by both stacks and the pre-softmax "
          "layer; sinusoidal positions); WMT En-De 37000-token shared BPE vocabulary "
          "(section 5.1); biases on every projection as torch.nn.MultiheadAttention has them",
          note="Table 3 gives 65 x 10^6; this count is 63,082,496 (63.1M) and does not "
          "reproduce it. The paper does not itemize its count; removing every attention "
          "bias changes it by only 36,864. Post-norm: no final norm. The paper states no "
          "maximum length (sinusoidal positions have none), so context is unset."),
    Model(name="transformer-big", context=None, d_model=1024, d_ff=4096, variant="relu",
          bias=True, layers=6, encoder_layers=6, vocab=37000, heads=16, kv_heads=16,
          head_dim=64, tied=True, norm="layer", norm_weight=True, norm_bias=True,
          qkv_bias=True, o_bias=True, final_norm=False,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:1706.03762 Table 3 (big: d_model 1024, d_ff 4096)",
          source="arXiv:1706.03762 Table 3 (big: N 6, d_model 1024, d_ff 4096, h 16), as "
          "transformer-base otherwise",
          note="Table 3 gives 213 x 10^6; this count is 214,245,376 (214.2M)."),
    Model(name="bert-base", context=512, encoder_only=True,
          hf_ids=("google-bert/bert-base-uncased", "bert-base-uncased"),
          d_model=768, d_ff=3072, variant="gelu", bias=True, layers=12, vocab=30522,
          heads=12, kv_heads=12, head_dim=64, tied=True, norm="layer", norm_weight=True,
          norm_bias=True, qkv_bias=True, o_bias=True, positions=512, token_types=2,
          embedding_norm=True, pooler=True, final_norm=False,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:1810.04805 section 3 (feed-forward size 4H)",
          source="google-bert/bert-base-uncased config.json (vocab 30522, 512 positions, "
          "2 token types, hidden_act gelu); arXiv:1810.04805 section 3",
          published_total=109_482_240,
          published_source="keras-team/keras-hub keras_hub/src/models/bert/bert_presets.py "
          "(bert_base_en_uncased params)",
          note="Encoder-only: `layers` is its one stack. Counted as released without the "
          "pre-training heads (BertModel: embeddings, encoder, pooler); the head is tied, so "
          "lm_head is 0. The paper's '110M' does not reproduce at its last digit (109.5M)."),
    Model(name="bert-large", context=512, encoder_only=True,
          hf_ids=("google-bert/bert-large-uncased", "bert-large-uncased"),
          d_model=1024, d_ff=4096, variant="gelu", bias=True, layers=24, vocab=30522,
          heads=16, kv_heads=16, head_dim=64, tied=True, norm="layer", norm_weight=True,
          norm_bias=True, qkv_bias=True, o_bias=True, positions=512, token_types=2,
          embedding_norm=True, pooler=True, final_norm=False,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="arXiv:1810.04805 section 3 (feed-forward size 4H)",
          source="google-bert/bert-large-uncased config.json; arXiv:1810.04805 section 3",
          published_total=335_141_888,
          published_source="keras-team/keras-hub keras_hub/src/models/bert/bert_presets.py "
          "(bert_large_en_uncased params)",
          note="As bert-base. The paper's '340M' is 4.9M above this count."),
    Model(name="gpt2-medium", context=1024, hf_ids=("openai-community/gpt2-medium",),
          d_model=1024, d_ff=4096, variant="gelu_tanh", bias=True, layers=24, vocab=50257,
          heads=16, kv_heads=16, head_dim=64, tied=True, norm="layer", norm_weight=True,
          norm_bias=True, qkv_bias=True, o_bias=True, positions=1024,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="openai/gpt-2 src/model.py (mlp width nx*4)",
          source="openai-community/gpt2-medium config.json (n_embd 1024, n_layer 24, "
          "n_head 16)",
          published_total=354_823_168,
          published_source="keras-team/keras-hub keras_hub/src/models/gpt2/gpt2_presets.py "
          "(gpt2_medium_en params); openai/gpt-2 names it 355M",
          note="The GPT-2 paper's 345M does not reproduce (see gpt2-small)."),
    Model(name="gpt2-large", context=1024, hf_ids=("openai-community/gpt2-large",),
          d_model=1280, d_ff=5120, variant="gelu_tanh", bias=True, layers=36, vocab=50257,
          heads=20, kv_heads=20, head_dim=64, tied=True, norm="layer", norm_weight=True,
          norm_bias=True, qkv_bias=True, o_bias=True, positions=1024,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="openai/gpt-2 src/model.py (mlp width nx*4)",
          source="openai-community/gpt2-large config.json (n_embd 1280, n_layer 36, "
          "n_head 20)",
          published_total=774_030_080,
          published_source="keras-team/keras-hub keras_hub/src/models/gpt2/gpt2_presets.py "
          "(gpt2_large_en params); openai/gpt-2 names it 774M"),
    Model(name="gpt2-xl", context=1024, hf_ids=("openai-community/gpt2-xl",),
          d_model=1600, d_ff=6400, variant="gelu_tanh", bias=True, layers=48, vocab=50257,
          heads=25, kv_heads=25, head_dim=64, tied=True, norm="layer", norm_weight=True,
          norm_bias=True, qkv_bias=True, o_bias=True, positions=1024,
          width_rule="ratio", width_params=dict(ratio=4),
          width_source="openai/gpt-2 src/model.py (mlp width nx*4)",
          source="openai-community/gpt2-xl config.json (n_embd 1600, n_layer 48, n_head 25)",
          published_total=1_557_611_200,
          published_source="keras-team/keras-hub keras_hub/src/models/gpt2/gpt2_presets.py "
          "(gpt2_extra_large_en params); openai/gpt-2 names it 1558M",
          # OpenAI's release of the largest GPT-2 calls it 1.5B (the paper's 1542M)
          published_as={"params_total": 1_500_000_000}),
    *[Model(name=f"t5-{size}", context=512, hf_ids=(f"google-t5/t5-{size}", f"t5-{size}"),
            d_model=d, d_ff=ff, variant="relu", bias=False, layers=n, encoder_layers=n,
            vocab=32128, heads=h, kv_heads=h, head_dim=kv, tied=True, norm="rms",
            norm_weight=True, norm_bias=False, relative_attention_buckets=32,
            source=f"google-t5/t5-{size} config.json (d_model {d}, d_ff {ff}, d_kv {kv}, "
            f"num_heads {h}, num_layers {n}, feed_forward_proj relu); "
            "google-research/text-to-text-transfer-transformer released_checkpoints.md",
            published_total=total,
            published_source="keras-team/keras-hub keras_hub/src/models/t5/t5_presets.py "
            f"(t5_{size} params)",
            note="T5 v1.0: ReLU FFN without biases, the LM head tied to the shared "
            "embedding, relative position biases (32 buckets x heads) in each stack's first "
            "layer; d_ff is given. " + extra)
      for size, d, ff, kv, h, n, total, extra in [
          ("small", 512, 2048, 64, 8, 6, 60_506_624, "arXiv:1910.10683 says 60M."),
          ("base", 768, 3072, 64, 12, 12, 222_903_552,
           "arXiv:1910.10683 says 220M; the count is 222.9M."),
          ("large", 1024, 4096, 64, 16, 24, 737_668_096,
           "arXiv:1910.10683 says 770M, 32M more than the released weights hold."),
          ("3b", 1024, 16384, 128, 32, 24, 2_851_598_336,
           "The attention width 32 x 128 = 4096 is four times d_model."),
      ]],
    Model(name="gemma-3-1b", context=32768, hf_ids=("google/gemma-3-1b-pt",),
          d_model=1152, d_ff=6912, variant="geglu_tanh", bias=False, layers=26,
          vocab=262144, heads=4, kv_heads=1, head_dim=256, tied=True, norm="rms",
          norm_weight=True, norm_bias=False, norms_per_layer=4, qk_norm=True,
          source="google/gemma-3-1b-pt config.json (hidden_size 1152, intermediate_size "
          "6912, 26 layers, 4 heads and 1 KV head of 256, vocab 262144, "
          "max_position_embeddings 32768; q and k RMSNorms; pre- and post-norms)",
          published_total=999_885_952,
          published_source="keras-team/keras-hub keras_hub/src/models/gemma3/"
          "gemma3_presets.py (gemma3_1b params)",
          note="The Gemma 3 report (arXiv:2503.19786, Table 1) gives 302M embedding and "
          "698M non-embedding parameters; both reproduce. d_ff is given."),
    Model(name="qwen3-0.6b", context=40960, hf_ids=("Qwen/Qwen3-0.6B", "Qwen/Qwen3-0.6B-Base"),
          d_model=1024, d_ff=3072, variant="swiglu", bias=False, layers=28, vocab=151936,
          heads=16, kv_heads=8, head_dim=128, tied=True, norm="rms", norm_weight=True,
          norm_bias=False, qk_norm=True,
          source="Qwen/Qwen3-0.6B config.json (head_dim 128: attention width 2048 = 2 x "
          "d_model; tie_word_embeddings true; q and k RMSNorms, no biases)",
          published_total=596_049_920,
          published_source="transformers num_parameters() of Qwen/Qwen3-0.6B (as quoted in "
          "public test suites); the model card says 0.6B, 0.44B non-embedding",
          note="d_ff is given."),
    Model(name="qwen3-8b", context=40960, hf_ids=("Qwen/Qwen3-8B", "Qwen/Qwen3-8B-Base"),
          d_model=4096, d_ff=12288, variant="swiglu", bias=False, layers=36, vocab=151936,
          heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms", norm_weight=True,
          norm_bias=False, qk_norm=True,
          source="Qwen/Qwen3-8B config.json (intermediate_size 12288, 36 layers, 8 KV "
          "heads, tie_word_embeddings false)",
          published_total=8_190_735_360, published_source=HUB.format("Qwen/Qwen3-8B"),
          note="The model card's 8.2B and 6.95B non-embedding both reproduce. d_ff is given."),
    Model(name="qwen2.5-0.5b", context=32768, hf_ids=("Qwen/Qwen2.5-0.5B",),
          d_model=896, d_ff=4864, variant="swiglu", bias=False, layers=24, vocab=151936,
          heads=14, kv_heads=2, head_dim=64, tied=True, norm="rms", norm_weight=True,
          norm_bias=False, qkv_bias=True,
          source="Qwen/Qwen2.5-0.5B config.json (tie_word_embeddings true; q/k/v biases)",
          published_total=494_032_768,
          published_source="transformers parameter count of Qwen/Qwen2.5-0.5B-Instruct (as "
          "quoted in public model registries); the model card says 0.49B",
          note="d_ff is given."),
    Model(name="mixtral-8x22b", context=65536,
          hf_ids=("mistral-community/Mixtral-8x22B-v0.1", "mistralai/Mixtral-8x22B-v0.1"),
          d_model=6144, d_ff=16384, variant="swiglu", bias=False, layers=56, vocab=32000,
          heads=48, kv_heads=8, head_dim=128, tied=False, norm="rms", norm_weight=True,
          norm_bias=False, experts=8, active_experts=2,
          source="mistral-community/Mixtral-8x22B-v0.1 config.json (hidden_size 6144, "
          "intermediate_size 16384, 56 layers, 48 heads, 8 KV heads, vocab 32000, "
          "max_position_embeddings 65536, 8 experts, 2 per token)",
          published_total=140_620_634_112,
          published_source=HUB.format("mistral-community/Mixtral-8x22B-v0.1"),
          note="Mistral's announcement gives 141B total and 39B active: both reproduce "
          "(active: 39,152,031,744 with the embedding and head). The v0.3 release has a "
          "32768-token vocabulary and 9,437,184 more parameters. d_ff is given."),
    Model(name="qwen1.5-moe-a2.7b", context=32768, hf_ids=("Qwen/Qwen1.5-MoE-A2.7B",),
          d_model=2048, d_ff=1408, variant="swiglu", bias=False, layers=24, vocab=151936,
          heads=16, kv_heads=16, head_dim=128, tied=False, norm="rms", norm_weight=True,
          norm_bias=False, qkv_bias=True, experts=60, active_experts=4, shared_d_ff=5632,
          shared_expert_gate=True,
          source="Qwen/Qwen1.5-MoE-A2.7B config.json (moe_intermediate_size 1408, 60 "
          "experts, 4 per token, shared_expert_intermediate_size 5632, every layer sparse; "
          "max_position_embeddings 32768 as in the Qwen1.5-MoE-A2.7B-Chat config); "
          "transformers Qwen2MoeSparseMoeBlock (router d x 60, shared expert, its d x 1 "
          "sigmoid gate)",
          published_total=14_315_784_192,
          published_source="keras-team/keras-hub keras_hub/src/models/qwen_moe/"
          "qwen_moe_presets.py (qwen1.5_moe_2.7b_en params)",
          note="A mixture of experts with a shared expert, counted exactly. d_ff is the "
          "routed experts' width. The model card's 14.3B total and 2.7B activated reproduce "
          "(active 2,689,173,504: 4 experts, the shared expert, router and gate, with the "
          "embedding and head). DeepSeek-MoE 16B is not in the catalogue: transformers has "
          "no class for it (it needs the repository's remote code), so its row could not "
          "be checked against a real module."),
    # --- widely discussed open models (Llama-like, Qwen2, Gemma 2, Phi-3) ----------------
    Model(name="llama-3.3-70b", context=131072, hf_ids=("meta-llama/Llama-3.3-70B-Instruct",),
          d_model=8192, d_ff=28672, layers=80, heads=64,
          width_params=dict(multiple_of=4096, multiplier="1.3"), **LLAMA3,
          source="meta-llama/Llama-3.3-70B-Instruct config.json (hidden_size 8192, "
          "intermediate_size 28672, 80 layers, 64 heads, 8 KV heads, vocab 128256, "
          "max_position_embeddings 131072, tie_word_embeddings false)",
          published_total=70_553_706_496,
          published_source=HUB.format("meta-llama/Llama-3.3-70B-Instruct"),
          note="The shape of Llama 3.1 70B (and Llama 3 70B); only the instruction-tuned "
          "weights were released, so the Instruct id is the row's."),
    *[Model(name=f"codellama-{size}", context=16384,
            hf_ids=(f"codellama/CodeLlama-{size}-hf",),
            d_model=d, d_ff=ff, layers=n, heads=h, kv_heads=kv,
            **{**LLAMA1, "vocab": vocab},
            width_params=dict(multiple_of=256, multiplier="1.0"),
            source=f"codellama/CodeLlama-{size}-hf config.json (hidden_size {d}, "
            f"intermediate_size {ff}, {n} layers, {h} heads, {kv} KV heads, vocab_size "
            f"{vocab}, max_position_embeddings 16384); meta-llama/codellama params.json "
            "(multiple_of 256, ffn_dim_multiplier 1.0); arXiv:2308.12950",
            # the paper: trained on 16,384-token sequences, stable "on sequences of up to
            # 100,000 tokens" (arXiv:2308.12950, abstract and §2.4)
            published_as={"context": 100_000},
            note="Code Llama (arXiv:2308.12950) is Llama 2 trained further on code; only "
            f"the nominal size ('{size.upper()}') is published. The paper also publishes "
            "a context of up to 100,000 tokens, beyond the config's 16384. " + extra)
      for size, d, ff, n, h, kv, vocab, extra in [
          ("7b", 4096, 11008, 32, 32, 32, 32016,
           "The 16 extra vocabulary rows (32016) are the infilling tokens; the Python "
           "variant has 32000."),
          ("13b", 5120, 13824, 40, 40, 40, 32016, "Vocabulary as for Code Llama 7B."),
          ("34b", 8192, 22016, 48, 64, 8, 32000,
           "A shape no Llama 2 release has (48 layers, 8 KV heads); trained without "
           "infilling, so the vocabulary stays 32000."),
      ]],
    Model(name="mistral-7b-v0.3", context=32768, hf_ids=("mistralai/Mistral-7B-v0.3",),
          d_model=4096, d_ff=14336, variant="swiglu", bias=False,
          layers=32, vocab=32768, heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="mistralai/Mistral-7B-v0.3 config.json (vocab_size 32768, "
          "intermediate_size 14336, max_position_embeddings 32768, sliding_window null)",
          note="Mistral 7B v0.1's shape with the vocabulary extended to 32768: 2 x 768 x "
          "4096 = 6,291,456 more parameters than v0.1. No sliding window (v0.1 had 4096). "
          "Only the nominal '7B' is published. `mistral-7b` is v0.1."),
    Model(name="mistral-nemo-12b", context=128000,
          hf_ids=("mistralai/Mistral-Nemo-Base-2407",),
          d_model=5120, d_ff=14336, variant="swiglu", bias=False,
          layers=40, vocab=131072, heads=32, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="mistralai/Mistral-Nemo-Base-2407 config.json (hidden_size 5120, "
          "head_dim 128, intermediate_size 14336, 40 layers, 32 heads, 8 KV heads, "
          "vocab_size 131072, max_position_embeddings 128000)",
          note="Attention width 32 x 128 = 4096 differs from d_model 5120. Mistral's "
          "announcement gives '12B'. d_ff is given."),
    Model(name="tinyllama-1.1b", context=2048,
          hf_ids=("TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T",),
          d_model=2048, d_ff=5632, variant="swiglu", bias=False,
          layers=22, vocab=32000, heads=32, kv_heads=4, head_dim=64, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json "
          "(hidden_size 2048, intermediate_size 5632, 22 layers, 32 heads, 4 KV heads, "
          "vocab 32000, max_position_embeddings 2048); arXiv:2401.02385",
          note="Llama 2's architecture and tokenizer at 1.1B (arXiv:2401.02385). d_ff is "
          "given (Meta's rule at d 2048 gives 5632 too, with multiple_of 256, but no "
          "TinyLlama source states the rule)."),
    *[Model(name=f"qwen2-{size}", context=131072, hf_ids=(f"Qwen/Qwen2-{size.upper()}",),
            d_model=d, d_ff=ff, variant="swiglu", bias=False, layers=n, vocab=152064,
            heads=h, kv_heads=kv, head_dim=128, tied=False, norm="rms", norm_weight=True,
            norm_bias=False, qkv_bias=True,
            source=f"Qwen/Qwen2-{size.upper()} config.json (hidden_size {d}, "
            f"intermediate_size {ff}, {n} layers, {h} heads, {kv} KV heads, vocab_size "
            "152064, max_position_embeddings 131072, tie_word_embeddings false; q/k/v "
            "biases); arXiv:2407.10671 Table 1",
            # arXiv:2407.10671 Table 1: "Vocabulary Size 151,646" (the tokenizer's tokens)
            published_as={"vocab": 151646},
            note="The Qwen2 report (arXiv:2407.10671, Table 1) gives the shape and a "
            "151,646-token vocabulary; the released embedding has 152064 rows. It gives no "
            "parameter count, and the nominal size does not round from this one. " + extra)
      for size, d, ff, n, h, kv, extra in [
          ("7b", 3584, 18944, 28, 28, 4, "The shape of Qwen2.5 7B (7.62B)."),
          ("72b", 8192, 29568, 80, 64, 8, "The shape of Qwen2.5 72B (72.71B)."),
      ]],
    *[Model(name=f"qwen2.5-{size}", context=131072, hf_ids=(f"Qwen/Qwen2.5-{size.upper()}",),
            d_model=d, d_ff=ff, variant="swiglu", bias=False, layers=n, vocab=152064,
            heads=h, kv_heads=kv, head_dim=128, tied=False, norm="rms", norm_weight=True,
            norm_bias=False, qkv_bias=True,
            source=f"Qwen/Qwen2.5-{size.upper()} config.json (hidden_size {d}, "
            f"intermediate_size {ff}, {n} layers, {h} heads, {kv} KV heads, vocab_size "
            "152064, max_position_embeddings 131072; q/k/v biases)",
            # the model card's own total, where it is not this count at its precision
            published_as={"params_total": card[0], "params_total:non_embedding": card[1]}
            if card else {},
            note=extra + " d_ff is given.")
      for size, d, ff, n, h, kv, card, extra in [
          ("14b", 5120, 13824, 48, 40, 8, (14_700_000_000, 13_100_000_000),
           "The model card's 14.7B is this total truncated (it rounds to 14.8B)."),
          ("32b", 5120, 27648, 64, 40, 8, (32_500_000_000, 31_000_000_000),
           "The model card's 32.5B (31.0B non-embedding) does not reproduce: this count "
           "is 32.76B (31.21B without the embedding and head)."),
          ("72b", 8192, 29568, 80, 64, 8, None,
           "The model card's 72.7B reproduces; the shape of Qwen2 72B."),
      ]],
    *[Model(name=f"gemma-2-{size}", context=8192, hf_ids=(f"google/gemma-2-{size}",),
            d_model=d, d_ff=ff, variant="geglu_tanh", bias=False, layers=n, vocab=256000,
            heads=h, kv_heads=kv, head_dim=hd, tied=True, norm="rms", norm_weight=True,
            norm_bias=False, norms_per_layer=4,
            source=f"google/gemma-2-{size} config.json (hidden_size {d}, intermediate_size "
            f"{ff}, {n} layers, {h} heads, {kv} KV heads, head_dim {hd}, vocab 256000, "
            "max_position_embeddings 8192; pre- and post-norms: 4 RMSNorms per layer); "
            "arXiv:2408.00118 Tables 1-2",
            # arXiv:2408.00118 Table 1: "Vocab size 256128", "Feedforward dim" (gate+up)
            published_as={"vocab": 256128, "d_ff": 2 * ff},
            note="The Gemma 2 report's Table 2 non-embedding count (" + nonemb + ") "
            "reproduces exactly; its embedding count uses the 256128-row vocabulary of its "
            "Table 1, 128 x d_model more than the released 256000 rows. Table 1's "
            f"'feedforward dim' {2 * ff} is the fused gate+up width. " + extra)
      for size, d, ff, n, h, kv, hd, nonemb, extra in [
          ("2b", 2304, 9216, 26, 8, 4, 256, "2,024,517,888",
           "The name's '2B' is nominal: the released weights hold 2.61B."),
          ("27b", 4608, 36864, 46, 32, 16, 128, "26,047,480,320",
           "Attention width 32 x 128 = 4096 is less than d_model 4608."),
      ]],
    Model(name="yi-34b", context=4096, hf_ids=("01-ai/Yi-34B",),
          d_model=7168, d_ff=20480, variant="swiglu", bias=False,
          layers=60, vocab=64000, heads=56, kv_heads=8, head_dim=128, tied=False, norm="rms",
          norm_weight=True, norm_bias=False,
          source="01-ai/Yi-34B config.json (hidden_size 7168, intermediate_size 20480, 60 "
          "layers, 56 heads, 8 KV heads, vocab 64000, max_position_embeddings 4096); "
          "arXiv:2403.04652",
          note="A Llama architecture (LlamaForCausalLM). Only the nominal '34B' is "
          "published. d_ff is given."),
    *[Model(name=f"deepseek-llm-{size}", context=4096,
            hf_ids=(f"deepseek-ai/deepseek-llm-{size}-base",),
            d_model=d, d_ff=ff, variant="swiglu", bias=False, layers=n, vocab=102400,
            heads=h, kv_heads=kv, head_dim=128, tied=False, norm="rms", norm_weight=True,
            norm_bias=False,
            source=f"deepseek-ai/deepseek-llm-{size}-base config.json (hidden_size {d}, "
            f"intermediate_size {ff}, {n} layers, {h} heads, {kv} KV heads, vocab 102400, "
            "max_position_embeddings 4096); arXiv:2401.02954",
            note="A Llama architecture (LlamaForCausalLM). Only the nominal size is "
            "published. d_ff is given. " + extra)
      for size, d, ff, n, h, kv, extra in [
          ("7b", 4096, 11008, 30, 32, 32, "Llama 2 7B's layer with 30 layers."),
          ("67b", 8192, 22016, 95, 64, 8, "95 layers with grouped-query attention."),
      ]],
    Model(name="phi-3-medium", context=4096, hf_ids=("microsoft/Phi-3-medium-4k-instruct",),
          d_model=5120, d_ff=17920, variant="swiglu", bias=False,
          layers=40, vocab=32064, heads=40, kv_heads=10, head_dim=128, tied=False,
          norm="rms", norm_weight=True, norm_bias=False,
          source="microsoft/Phi-3-medium-4k-instruct config.json (hidden_size 5120, "
          "intermediate_size 17920, 40 layers, 40 heads, 10 KV heads, vocab 32064, "
          "max_position_embeddings 4096; fused qkv_proj and gate_up_proj)",
          note="Only the rounded '14B' (arXiv:2404.14219) is published. d_ff is given; "
          "gate_up_proj stores the fused 2 x 17920. The 128k-context release has the same "
          "shape."),
    # Falcon: parallel attention and FFN (the same parameters and FLOPs as sequential
    # blocks), a fused query_key_value projection (counted as its q, k and v parts), no
    # biases, LayerNorms with bias, the head tied to the embedding
    Model(name="falcon-7b", context=2048, hf_ids=("tiiuae/falcon-7b",),
          d_model=4544, d_ff=18176, variant="gelu", bias=False,
          layers=32, vocab=65024, heads=71, kv_heads=1, head_dim=64, tied=True,
          norm="layer", norm_weight=True, norm_bias=True, norms_per_layer=1,
          source="tiiuae/falcon-7b config.json (hidden_size 4544, 32 layers, 71 heads, "
          "multi_query true, parallel_attn true, new_decoder_architecture false, bias "
          "false, vocab 65024); transformers FalconConfig (ffn_hidden_size 4 x hidden_size, "
          "activation gelu); arXiv:2311.16867",
          note="Parallel block: attention and FFN read one LayerNorm (weight and bias) per "
          "layer; multi-query attention (one KV head of 64). d_ff = 4 d_model is given by "
          "the implementation's default, not by a config field. The head is tied: the "
          "config sets no tie_word_embeddings, and transformers' FalconConfig defaults to "
          "true (FalconForCausalLM ties lm_head to the word embeddings); a count of the "
          "checkpoint's stored tensors that includes a separate lm_head is 65024 x 4544 "
          "larger. Only the nominal '7B' is published."),
    Model(name="falcon-40b", context=2048, hf_ids=("tiiuae/falcon-40b",),
          d_model=8192, d_ff=32768, variant="gelu", bias=False,
          layers=60, vocab=65024, heads=128, kv_heads=8, head_dim=64, tied=True,
          norm="layer", norm_weight=True, norm_bias=True, norms_per_layer=2,
          source="tiiuae/falcon-40b config.json (hidden_size 8192, 60 layers, 128 heads, "
          "num_kv_heads 8, parallel_attn true, new_decoder_architecture true, bias false, "
          "vocab 65024); transformers FalconConfig (ffn_hidden_size 4 x hidden_size, "
          "activation gelu); arXiv:2311.16867",
          note="Parallel block with two LayerNorms per layer (ln_attn and ln_mlp, weight "
          "and bias); 8 KV heads of 64. d_ff = 4 d_model and the tied head as for Falcon "
          "7B. The name's '40B' is nominal: the tied count is 41.3B."),
]

ALIASES = {"gpt-2-small": "gpt2-small", "llama-1-30b": "llama-1-33b",
           "t5-v1_1-base": "t5-v1.1-base", "mixtral-8x22b-v0.1": "mixtral-8x22b",
           "gpt-3": "gpt-3-175b",  # "GPT-3" unqualified is the 175B model (arXiv:2005.14165)
           "mistral-7b-v0.1": "mistral-7b", "mistral-nemo": "mistral-nemo-12b"}
