"""The corpus's own judge: computes the truth of every label's `check`, independently of
ffnverify (standard library only; every count is an exact integer or Fraction).

A label's `check` is one inline table or a list of them (a statement that makes several
claims). Each table has a quantity `q`:

- a model field: `layers`, `d_model`, `d_ff`, `heads`, `kv_heads`, `head_dim`, `vocab`,
  `context`, `experts`, `experts_active`, `experts_shared`, `type_vocab` (with `model`);
- a parameter count (with `model`): `params` (total), `params_embed` (token embedding,
  plus learned positions where the model has them), `params_nonembed` (total less
  `params_embed`), `params_layer` (one block), `params_attn_layer`, `params_ffn_layer`
  (one layer's FFN, all experts), `params_ffn_total`, `params_expert` (one expert's FFN),
  `params_active` (per token: the total less the unrouted experts), `params_body` and
  `params_active_body` (the total, or the active count, less the embedding and an untied
  head: Qwen's "non-embedding" parameters);
- `kv_cache_bytes` (`model`, `context`, optional `batch`=1, `dtype`): 2·layers·kv_heads·
  head_dim·context·batch·bytes; `kv_cache_bytes` with `context=1` is per token;
- `weights_bytes` (`model` or `n`, `dtype`): parameters × bytes per parameter;
- `flops_fwd_token` (2N), `flops_train_token` (6N), `flops_train` (6ND, with `tokens`),
  each with `model` or `n` (an arithmetic string);
- `dtype_bytes` (`dtype`): bytes per value (fp32 4, fp16/bf16 2, int8/fp8 1, int4 1/2);
- `arith`: `lhs` is an arithmetic string (numbers, + - * / ^, parentheses; k/K, M, B/G,
  T suffixes; 1e9) parsed here by a small recursive-descent parser, never evaluated as
  code;
- `ratio` (`num`, `den`: two checks without `op`): the quotient of their exact values
  ("twice as many layers", "a quarter of the experts");
- `any` (`of`: a list of checks): several careful readings; true when one is true,
  false when all are false;
- `none`: not decidable by counting (an empirical figure, an opinion, a figure whose
  reading the evaluator cannot pin down); its truth is "none".

Any check may carry `scale` (an arithmetic string): the exact value is multiplied by it
("the KV cache after 10x compression": `scale = "1/10"`).

`op` is `==` (the stated figure at its precision), `≈` (hedged: the looser tolerance
below), `>=`, `<=`, `>`, `<`, `range` (`stated = "32-40"`), `!=` (a negation: true when
the `==` reading is false). `stated` is the figure as written: `"67.1M"`, `"6.7B"`,
`"11,008"`, `"2 GiB"`, `"13.5 GB"`, `"32K"`, `"3.15e23"`, `"33%"`, `"4x"`.

How a stated figure is read (docs/architecture.md §5.2, charitably):
- at its stated precision: `67.1M` is [67.05M, 67.15M]; an integer without a suffix is
  exact; `7B` is [6.5B, 7.5B];
- hedged (`op = "≈"`): the half-width is the larger of one unit in the last place and
  HEDGE (5%) of the figure;
- K/M/G in a context length, and KB/MB/GB/TB in memory, may be decimal or binary; KiB/MiB/
  GiB/TiB are binary; a parameter count's K/M/B/T are decimal;
- a statement is true when some reading is true; a list of checks is false when one is
  false, true when all are true, "none" otherwise.
"""

from fractions import Fraction as F

HEDGE = F(5, 100)

# --- configurations, typed from the published configs ----------------------------
# Fields: d (hidden), L (layers), H (query heads), kv (key/value heads), hd (head dim,
# default d/H), ff (FFN width), V (vocab), ctx (context), gated (three FFN matrices),
# tied (head shares the embedding), norm ("rms": d weights; "ln": 2d; "ln0": none),
# norms (per layer), bias ("all": GPT-2 style biases on every linear; "qkv": q/k/v
# only; False), pos (learned position rows), E/k (experts / routed per token).
CONFIGS = {
    # huggyllama/llama-7b config.json; LLaMA paper (Touvron et al. 2023a) Table 2.
    "llama-1-7b": dict(d=4096, L=32, H=32, kv=32, ff=11008, V=32000, ctx=2048),
    "llama-1-13b": dict(d=5120, L=40, H=40, kv=40, ff=13824, V=32000, ctx=2048),
    "llama-1-33b": dict(d=6656, L=60, H=52, kv=52, ff=17920, V=32000, ctx=2048),
    "llama-1-65b": dict(d=8192, L=80, H=64, kv=64, ff=22016, V=32000, ctx=2048),
    # meta-llama/Llama-2-{7b,13b,70b}-hf config.json; Llama 2 paper Table 1.
    "llama-2-7b": dict(d=4096, L=32, H=32, kv=32, ff=11008, V=32000, ctx=4096),
    "llama-2-13b": dict(d=5120, L=40, H=40, kv=40, ff=13824, V=32000, ctx=4096),
    "llama-2-70b": dict(d=8192, L=80, H=64, kv=8, ff=28672, V=32000, ctx=4096),
    # codellama/CodeLlama-7b-hf config.json (vocab 32016, 16384 positions).
    "code-llama-7b": dict(d=4096, L=32, H=32, kv=32, ff=11008, V=32016, ctx=16384),
    # meta-llama/Meta-Llama-3-8B, -70B config.json.
    "llama-3-8b": dict(d=4096, L=32, H=32, kv=8, ff=14336, V=128256, ctx=8192),
    "llama-3-70b": dict(d=8192, L=80, H=64, kv=8, ff=28672, V=128256, ctx=8192),
    # meta-llama/Llama-3.1-8B, -70B, -405B config.json (131072 positions).
    "llama-3.1-8b": dict(d=4096, L=32, H=32, kv=8, ff=14336, V=128256, ctx=131072),
    "llama-3.1-70b": dict(d=8192, L=80, H=64, kv=8, ff=28672, V=128256, ctx=131072),
    "llama-3.1-405b": dict(d=16384, L=126, H=128, kv=8, ff=53248, V=128256, ctx=131072),
    # meta-llama/Llama-3.3-70B-Instruct config.json (the Llama 3.1 70B architecture).
    "llama-3.3-70b": dict(d=8192, L=80, H=64, kv=8, ff=28672, V=128256, ctx=131072),
    # meta-llama/Llama-3.2-1B, -3B config.json (tied embeddings).
    "llama-3.2-1b": dict(d=2048, L=16, H=32, kv=8, ff=8192, V=128256, ctx=131072,
                         tied=True),
    "llama-3.2-3b": dict(d=3072, L=28, H=24, kv=8, ff=8192, V=128256, ctx=131072,
                         tied=True),
    # mistralai/Mistral-7B-v0.1 config.json (sliding window 4096); v0.3: vocab 32768.
    "mistral-7b-v0.1": dict(d=4096, L=32, H=32, kv=8, ff=14336, V=32000, ctx=32768),
    "mistral-7b-v0.3": dict(d=4096, L=32, H=32, kv=8, ff=14336, V=32768, ctx=32768),
    # mistralai/Mixtral-8x7B-v0.1 config.json; Mixtral paper Table 1.
    "mixtral-8x7b": dict(d=4096, L=32, H=32, kv=8, ff=14336, V=32000, ctx=32768, E=8, k=2),
    # mistralai/Mixtral-8x22B-v0.1 config.json.
    "mixtral-8x22b": dict(d=6144, L=56, H=48, kv=8, ff=16384, V=32000, ctx=65536, E=8,
                          k=2),
    # openai-community/gpt2{,-medium,-large,-xl} config.json (n_ctx 1024, tied head).
    "gpt2": dict(d=768, L=12, H=12, ff=3072, V=50257, ctx=1024, gpt2=True),
    "gpt2-medium": dict(d=1024, L=24, H=16, ff=4096, V=50257, ctx=1024, gpt2=True),
    "gpt2-large": dict(d=1280, L=36, H=20, ff=5120, V=50257, ctx=1024, gpt2=True),
    "gpt2-xl": dict(d=1600, L=48, H=25, ff=6400, V=50257, ctx=1024, gpt2=True),
    # openai-community/openai-gpt config.json (GPT-1: 40478 tokens, 512 positions, no
    # final LayerNorm).
    "gpt1": dict(d=768, L=12, H=12, ff=3072, V=40478, ctx=512, gpt2=True, final_norm=False),
    # GPT-3 paper (Brown et al. 2020) Table 2.1; d_ff = 4·d_model; GPT-2 layout.
    "gpt3-125m": dict(d=768, L=12, H=12, hd=64, ff=3072, V=50257, ctx=2048, gpt2=True),
    "gpt3-350m": dict(d=1024, L=24, H=16, hd=64, ff=4096, V=50257, ctx=2048, gpt2=True),
    "gpt3-760m": dict(d=1536, L=24, H=16, hd=96, ff=6144, V=50257, ctx=2048, gpt2=True),
    "gpt3-1.3b": dict(d=2048, L=24, H=24, hd=128, ff=8192, V=50257, ctx=2048, gpt2=True),
    "gpt3-2.7b": dict(d=2560, L=32, H=32, hd=80, ff=10240, V=50257, ctx=2048, gpt2=True),
    "gpt3-6.7b": dict(d=4096, L=32, H=32, hd=128, ff=16384, V=50257, ctx=2048, gpt2=True),
    "gpt3-13b": dict(d=5140, L=40, H=40, hd=128, ff=20560, V=50257, ctx=2048, gpt2=True),
    "gpt3-175b": dict(d=12288, L=96, H=96, hd=128, ff=49152, V=50257, ctx=2048,
                      gpt2=True),
    # google-bert/bert-{base,large}-uncased config.json (with the pooler).
    "bert-base": dict(d=768, L=12, H=12, ff=3072, V=30522, ctx=512, bert=True, types=2),
    "bert-large": dict(d=1024, L=24, H=16, ff=4096, V=30522, ctx=512, bert=True, types=2),
    # google-t5/t5-{small,base,large,3b,11b} config.json (d_kv, 32 buckets, tied head).
    "t5-small": dict(d=512, L=6, H=8, hd=64, ff=2048, V=32128, ctx=512, t5=True),
    "t5-base": dict(d=768, L=12, H=12, hd=64, ff=3072, V=32128, ctx=512, t5=True),
    "t5-large": dict(d=1024, L=24, H=16, hd=64, ff=4096, V=32128, ctx=512, t5=True),
    "t5-3b": dict(d=1024, L=24, H=32, hd=128, ff=16384, V=32128, ctx=512, t5=True),
    "t5-11b": dict(d=1024, L=24, H=128, hd=128, ff=65536, V=32128, ctx=512, t5=True),
    # Vaswani et al. 2017, Table 3 (base, big; 6 encoder and 6 decoder layers) and
    # section 5.1 (a shared source-target vocabulary of about 37000 tokens).
    "transformer-base": dict(d=512, L=6, H=8, ff=2048, V=37000, ctx=512, fields_only=True),
    "transformer-big": dict(d=1024, L=6, H=16, ff=4096, V=37000, ctx=512, fields_only=True),
    # TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json (22 layers, 4 KV
    # heads, intermediate_size 5632, untied).
    "tinyllama-1.1b": dict(d=2048, L=22, H=32, kv=4, ff=5632, V=32000, ctx=2048),
    # EleutherAI/gpt-j-6b config.json (n_embd 4096, n_layer 28, n_head 16, n_inner
    # None = 4·n_embd, vocab 50400, n_positions 2048); its fields only.
    "gpt-j-6b": dict(d=4096, L=28, H=16, ff=16384, V=50400, ctx=2048, fields_only=True),
    # google/gemma-2b, gemma-7b config.json (head_dim 256, tied).
    "gemma-2b": dict(d=2048, L=18, H=8, kv=1, hd=256, ff=16384, V=256000, ctx=8192,
                     tied=True),
    "gemma-7b": dict(d=3072, L=28, H=16, kv=16, hd=256, ff=24576, V=256000, ctx=8192,
                     tied=True),
    # google/gemma-2-9b, gemma-2-27b config.json (four norms per layer).
    "gemma-2-9b": dict(d=3584, L=42, H=16, kv=8, hd=256, ff=14336, V=256000, ctx=8192,
                       tied=True, norms=4),
    "gemma-2-27b": dict(d=4608, L=46, H=32, kv=16, hd=128, ff=36864, V=256000, ctx=8192,
                        tied=True, norms=4),
    # Qwen/Qwen2-7B, Qwen2.5-7B config.json (q/k/v biases, untied).
    "qwen2-7b": dict(d=3584, L=28, H=28, kv=4, ff=18944, V=152064, ctx=131072, bias="qkv"),
    "qwen2.5-7b": dict(d=3584, L=28, H=28, kv=4, ff=18944, V=152064, ctx=131072,
                       bias="qkv"),
    # microsoft/Phi-3-mini-4k-instruct config.json.
    "phi-3-mini": dict(d=3072, L=32, H=32, kv=32, ff=8192, V=32064, ctx=4096),
    # allenai/OLMo-7B: non-parametric LayerNorm, 50304 embedding rows, untied.
    "olmo-7b": dict(d=4096, L=32, H=32, kv=32, ff=11008, V=50304, ctx=2048, norm="ln0"),
    # --- added for fresh2/ (the third v3 session); fields typed from config.json --------
    # bigscience/bloom, bloom-560m, bloom-1b1 config.json (n_layer, hidden_size, n_head;
    # vocab 250880; 4*hidden MLP; GPT-2 style biases and LayerNorms, ALiBi instead of
    # position rows, a LayerNorm after the embedding, tied head).
    "bloom-176b": dict(d=14336, L=70, H=112, ff=57344, V=250880, ctx=2048, gpt2=True,
                       alibi=True, embed_norm=True),
    "bloom-560m": dict(d=1024, L=24, H=16, ff=4096, V=250880, ctx=2048, gpt2=True,
                       alibi=True, embed_norm=True),
    "bloom-1b1": dict(d=1536, L=24, H=16, ff=6144, V=250880, ctx=2048, gpt2=True,
                      alibi=True, embed_norm=True),
    # tiiuae/falcon-40b config.json (hidden_size 8192, n_layer 60, n_head 128, n_head_kv 8,
    # vocab 65024; 4*hidden MLP); its fields only.
    "falcon-40b": dict(d=8192, L=60, H=128, kv=8, ff=32768, V=65024, ctx=2048,
                       fields_only=True),
    # Qwen/Qwen1.5-32B config.json (hidden 5120, 64 layers, 40 heads, 8 KV heads,
    # intermediate 27392, vocab 152064); its fields only.
    "qwen1.5-32b": dict(d=5120, L=64, H=40, kv=8, ff=27392, V=152064, ctx=32768,
                        fields_only=True),
    # Qwen/Qwen2-0.5B, -1.5B, -72B config.json and the Qwen2 technical report, Table 1
    # (0.5B and 1.5B tie their embeddings); fields only.
    "qwen2-0.5b": dict(d=896, L=24, H=14, kv=2, ff=4864, V=151936, ctx=131072,
                       fields_only=True),
    "qwen2-1.5b": dict(d=1536, L=28, H=12, kv=2, ff=8960, V=151936, ctx=131072,
                       fields_only=True),
    "qwen2-72b": dict(d=8192, L=80, H=64, kv=8, ff=29568, V=152064, ctx=131072,
                      fields_only=True),
    # Qwen/Qwen2-57B-A14B config.json (moe_intermediate_size 2560, 64 routed experts, 8
    # per token, a shared expert of 20480 = 8 x 2560); fields only.
    "qwen2-57b-a14b": dict(d=3584, L=28, H=28, kv=4, ff=2560, V=151936, ctx=65536, E=64,
                           k=8, fields_only=True),
    # Qwen/Qwen3-32B config.json (hidden 5120, 64 layers, 64 heads, 8 KV heads, head_dim
    # 128 as published, intermediate 25600, vocab 151936); its fields only.
    "qwen3-32b": dict(d=5120, L=64, H=64, kv=8, hd=128, ff=25600, V=151936, ctx=40960,
                      fields_only=True),
    # 01-ai/Yi-1.5-34B config.json (hidden 7168, 60 layers, 56 heads, 8 KV heads,
    # intermediate 20480, vocab 64000); its fields only.
    "yi-1.5-34b": dict(d=7168, L=60, H=56, kv=8, ff=20480, V=64000, ctx=4096,
                       fields_only=True),
    # karpathy/llama2.c README model table (dim, n_layers, n_heads; vocab 32000, tied) and
    # model.py (hidden_dim = 2/3 * 4 * dim rounded up to a multiple of 32).
    "stories15m": dict(d=288, L=6, H=6, ff=768, V=32000, ctx=256, tied=True),
    "stories42m": dict(d=512, L=8, H=8, ff=1376, V=32000, ctx=1024, tied=True),
    "stories110m": dict(d=768, L=12, H=12, ff=2048, V=32000, ctx=1024, tied=True),
    # microsoft/Phi-3-small-8k-instruct config.json (hidden 4096, 32 layers, 32 heads, 8 KV
    # heads, vocab 100352, 8192 positions) and Phi-3-medium-4k-instruct (hidden 5120, 40
    # layers, 40 heads, 10 KV heads, intermediate 17920, vocab 32064); fields only.
    "phi-3-small": dict(d=4096, L=32, H=32, kv=8, ff=14336, V=100352, ctx=8192,
                        fields_only=True),
    "phi-3-medium": dict(d=5120, L=40, H=40, kv=10, ff=17920, V=32064, ctx=4096,
                         fields_only=True),
    # CohereForAI/c4ai-command-r-v01 config.json (hidden 8192, 40 layers, 64 heads and 64
    # KV heads, intermediate 22528, vocab 256000); its fields only.
    "command-r-v01": dict(d=8192, L=40, H=64, kv=64, ff=22528, V=256000, ctx=8192,
                          fields_only=True),
    # --- added for fresh3/ (the fourth v3 session); fields typed from config.json --------
    # Qwen/Qwen1.5-7B config.json (hidden 4096, 32 layers, 32 heads and 32 KV heads,
    # intermediate 11008, vocab 151936, 32768 positions, q/k/v biases, untied).
    "qwen1.5-7b": dict(d=4096, L=32, H=32, kv=32, ff=11008, V=151936, ctx=32768,
                       bias="qkv"),
    # Qwen/Qwen1.5-MoE-A2.7B config.json (hidden 2048, 24 layers, 16 heads and 16 KV heads,
    # moe_intermediate_size 1408, 60 routed experts, 4 per token, a shared expert of
    # shared_expert_intermediate_size 5632 = 4 x 1408 with a 1-unit sigmoid gate, vocab
    # 151936, 8192 positions, q/k/v biases, untied); the formula gives 14.3B total and
    # 2.7B activated, the Qwen blog's figures.
    "qwen1.5-moe-a2.7b": dict(d=2048, L=24, H=16, kv=16, ff=1408, V=151936, ctx=8192,
                              E=60, k=4, shared=5632, shared_n=4, bias="qkv"),
    # allenai/OLMo-1B config (d_model 2048, 16 layers, 16 heads, mlp_ratio 8: a fused
    # 16384 = 2 x 8192 SwiGLU projection, 2048 positions, embedding_size 50304); fields
    # only. allenai/OLMo-7B-0424-hf config.json: the OLMo 7B architecture with 4096
    # positions; fields only.
    "olmo-1b": dict(d=2048, L=16, H=16, ff=8192, V=50304, ctx=2048, fields_only=True),
    "olmo-7b-0424": dict(d=4096, L=32, H=32, kv=32, ff=11008, V=50304, ctx=4096,
                         fields_only=True),
    # --- added for fresh4/ (the sixth v3 session); fields typed from config.json --------
    # Qwen/Qwen2.5-72B config.json (hidden 8192, 80 layers, 64 heads, 8 KV heads,
    # intermediate 29568, vocab 152064, q/k/v biases, untied); the formula gives
    # 72,706,203,648, the checkpoint's total.
    "qwen2.5-72b": dict(d=8192, L=80, H=64, kv=8, ff=29568, V=152064, ctx=131072,
                        bias="qkv"),
    # Qwen/Qwen3-4B config.json (hidden 2560, 36 layers, 32 heads, 8 KV heads, head_dim
    # 128, intermediate 9728, vocab 151936, 40960 positions, tied, no biases, an RMSNorm
    # on each query and key head: 2 x 128 weights a layer); the formula gives
    # 4,022,468,096, the checkpoint's total.
    "qwen3-4b": dict(d=2560, L=36, H=32, kv=8, hd=128, ff=9728, V=151936, ctx=40960,
                     tied=True, qk_norm=True),
    # Qwen/Qwen2.5-32B config.json (hidden 5120, 64 layers, 40 heads, 8 KV heads,
    # intermediate 27648, vocab 152064, 131072 positions); its fields only.
    "qwen2.5-32b": dict(d=5120, L=64, H=40, kv=8, ff=27648, V=152064, ctx=131072,
                        fields_only=True),
    # deepseek-ai/DeepSeek-V3 config.json (hidden 7168, 61 layers, 128 heads, v_head_dim
    # 128, moe_intermediate_size 2048, 256 routed experts, 8 per token, 1 shared expert,
    # vocab 129280, 163840 positions); multi-head latent attention is not modelled:
    # fields only.
    "deepseek-v3": dict(d=7168, L=61, H=128, kv=128, hd=128, ff=2048, V=129280,
                        ctx=163840, E=256, k=8, shared_n=1, fields_only=True),
    # --- added for fresh5/ (the seventh v3 session); fields typed from config.json -------
    # HuggingFaceTB/SmolLM2-135M config.json (hidden 576, 30 layers, 9 heads, 3 KV heads,
    # head_dim 64, intermediate 1536, vocab 49152, 8192 positions, tied, no biases).
    "smollm2-135m": dict(d=576, L=30, H=9, kv=3, ff=1536, V=49152, ctx=8192, tied=True),
    # Qwen/Qwen-7B and Qwen/Qwen-14B config.json (the first Qwen: hidden 4096 / 5120, 32 / 40
    # layers, 32 / 40 heads, intermediate_size 22016 / 27392 for the two gated halves, so
    # a width of 11008 / 13696, vocab 151936 / 152064, 8192 positions); fields only.
    "qwen-7b": dict(d=4096, L=32, H=32, ff=11008, V=151936, ctx=8192, fields_only=True),
    "qwen-14b": dict(d=5120, L=40, H=40, ff=13696, V=152064, ctx=8192, fields_only=True),
    # --- added for fresh6/ (the eighth v3 session); fields typed from config.json -------
    # Qwen/Qwen3-Coder-30B-A3B-Instruct config.json (hidden 2048, 48 layers, 32 heads, 4 KV
    # heads, head_dim 128, moe_intermediate_size 768, 128 experts, 8 per token, vocab
    # 151936, 262144 positions); fields only.
    "qwen3-coder-30b-a3b": dict(d=2048, L=48, H=32, kv=4, hd=128, ff=768, V=151936,
                                ctx=262144, E=128, k=8, fields_only=True),
    # Qwen/Qwen3-VL-32B-Instruct config.json, text_config (hidden 5120, 64 layers, 64 heads,
    # 8 KV heads, head_dim 128, intermediate 25600, vocab 151936, 262144 positions); the
    # language model's fields only.
    "qwen3-vl-32b": dict(d=5120, L=64, H=64, kv=8, hd=128, ff=25600, V=151936, ctx=262144,
                         fields_only=True),
    # meta-llama/Llama-4-Maverick-17B-128E-Instruct config.json, text_config (hidden 5120,
    # 48 layers, 40 heads, 8 KV heads, head_dim 128, expert intermediate_size 8192, 128
    # routed experts, 1 per token, a shared expert, vocab 202048, 1048576 positions);
    # fields only.
    "llama-4-maverick": dict(d=5120, L=48, H=40, kv=8, hd=128, ff=8192, V=202048,
                             ctx=1048576, E=128, k=1, shared_n=1, fields_only=True),
    # --- added for fresh7/ (the ninth v3 session); fields typed from config.json --------
    # Qwen/Qwen3-235B-A22B config.json (hidden 4096, 94 layers, 64 heads, 4 KV heads,
    # head_dim 128, moe_intermediate_size 1536, 128 experts, 8 per token, vocab 151936,
    # 40960 positions; the same fields, head_dim aside, in a copy found with the stored-code
    # search: a fleet_sim test fixture `_QWEN3_MOE_CONFIG` named "Qwen/Qwen3-235B-A22B");
    # fields only.
    "qwen3-235b-a22b": dict(d=4096, L=94, H=64, kv=4, hd=128, ff=1536, V=151936, ctx=40960,
                            E=128, k=8, fields_only=True),
    # --- added for fresh8/ (the tenth v3 session); fields typed from config.json --------
    # Qwen/Qwen3-8B config.json (hidden 4096, 36 layers, 32 heads, 8 KV heads, head_dim 128,
    # intermediate 12288, vocab 151936, 40960 positions); the layer, head, KV-head, head_dim
    # and position fields are also those of a stored-code test fixture for "Qwen/Qwen3-8B"
    # (a ModelScope client's `modelScopeTestConfig`); fields only.
    "qwen3-8b": dict(d=4096, L=36, H=32, kv=8, hd=128, ff=12288, V=151936, ctx=40960,
                     fields_only=True),
}

# Published totals the formulas must reproduce (checked by the test), with their source.
PUBLISHED_TOTALS = {
    "llama-2-7b": 6_738_415_616,  # safetensors index / HF model page
    "llama-2-13b": 13_015_864_320,
    "llama-2-70b": 68_976_648_192,
    "llama-3-8b": 8_030_261_248,
    "llama-3-70b": 70_553_706_496,
    "mistral-7b-v0.1": 7_241_732_096,
    "mixtral-8x7b": 46_702_792_704,
    "gpt2": 124_439_808,  # sum of the checkpoint's tensors (tied head counted once)
    "gpt2-medium": 354_823_168,
    "gpt2-xl": 1_557_611_200,
    "bert-base": 109_482_240,
    "t5-small": 60_506_624,
    "gemma-7b": 8_537_680_896,
    "qwen2-7b": 7_615_616_512,
    "tinyllama-1.1b": 1_100_048_384,  # the TinyLlama model page
    "bloom-176b": 176_247_271_424,  # the BLOOM model card
    "bloom-560m": 559_214_592,  # sum of the checkpoint's tensors
}

FIELDS = {"layers": "L", "d_model": "d", "d_ff": "ff", "heads": "H", "kv_heads": "kv",
          "head_dim": "hd", "vocab": "V", "context": "ctx", "experts": "E",
          "experts_active": "k", "type_vocab": "types", "experts_shared": "shared_n"}
DTYPE_BYTES = {"fp32": F(4), "float32": F(4), "fp16": F(2), "float16": F(2),
               "bf16": F(2), "bfloat16": F(2), "fp8": F(1), "int8": F(1),
               "int4": F(1, 2), "nf4": F(1, 2)}


def config(name: str) -> dict:
    c = dict(CONFIGS[name])
    c.setdefault("kv", c["H"])
    c.setdefault("hd", c["d"] // c["H"])
    c.setdefault("E", 1)
    c.setdefault("k", 1)
    return c


# --- parameter counts ------------------------------------------------------------

def _attn(c) -> int:
    q, kv, d = c["H"] * c["hd"], c["kv"] * c["hd"], c["d"]
    n = d * q + 2 * d * kv + q * d
    if c.get("gpt2") or c.get("bert"):
        n += q + 2 * kv + d
    elif c.get("bias") == "qkv":
        n += q + 2 * kv
    return n


def _expert(c) -> int:
    d, ff = c["d"], c["ff"]
    if c.get("gpt2") or c.get("bert"):
        return 2 * d * ff + ff + d
    if c.get("t5"):
        return 2 * d * ff
    return 3 * d * ff


def _norm(c) -> int:
    return {"rms": c["d"], "ln": 2 * c["d"], "ln0": 0}[c.get("norm", "rms")]


def _ffn_layer(c) -> int:
    router = c["d"] * c["E"] if c["E"] > 1 else 0
    shared = 3 * c["d"] * c["shared"] + c["d"] if c.get("shared") else 0  # gated + gate
    return c["E"] * _expert(c) + router + shared


def _layer(c) -> int:
    norm = 2 * c["d"] if (c.get("gpt2") or c.get("bert")) else _norm(c)
    qk_norm = 2 * c["hd"] if c.get("qk_norm") else 0  # Qwen3: an RMSNorm on q and k heads
    return _attn(c) + _ffn_layer(c) + c.get("norms", 2) * norm + qk_norm


def _embed(c) -> int:
    n = c["V"] * c["d"]
    if (c.get("gpt2") or c.get("bert")) and not c.get("alibi"):
        n += c["ctx"] * c["d"]
    return n


def _t5_total(c) -> int:
    d, hd, H = c["d"], c["hd"], c["H"]
    attn = 4 * d * H * hd
    enc = c["L"] * (attn + _expert(c) + 2 * d) + d + 32 * H
    dec = c["L"] * (2 * attn + _expert(c) + 3 * d) + d + 32 * H
    return c["V"] * d + enc + dec


def params(name: str, part: str = "total") -> int:
    c = config(name)
    if c.get("fields_only"):
        raise ValueError(f"{name}: only its fields are modelled")
    if c.get("t5"):
        if part != "total":
            raise ValueError("T5: only the total is modelled")
        return _t5_total(c)
    if part == "embed":
        return _embed(c)
    if part == "layer":
        return _layer(c)
    if part == "attn_layer":
        return _attn(c)
    if part == "ffn_layer":
        return _ffn_layer(c)
    if part == "ffn_total":
        return c["L"] * _ffn_layer(c)
    if part == "expert":
        return _expert(c)
    d = c["d"]
    if c.get("bert"):
        total = _embed(c) + 2 * d + 2 * d + c["L"] * _layer(c) + d * d + d
    elif c.get("gpt2"):
        total = _embed(c) + c["L"] * _layer(c) + (2 * d if c.get("final_norm", True) else 0)
        total += 2 * d if c.get("embed_norm") else 0  # BLOOM's LayerNorm after the embedding
    else:
        head = 0 if c.get("tied") else c["V"] * d
        total = _embed(c) + c["L"] * _layer(c) + _norm(c) + head
    if part == "total":
        return total
    if part == "nonembed":
        return total - _embed(c)
    if part in ("body", "active_body"):  # Qwen's "non-embedding": embedding and head out
        head = 0 if (c.get("tied") or c.get("gpt2") or c.get("bert")) else c["V"] * d
        body = total - _embed(c) - head
        return body if part == "body" else body - c["L"] * (c["E"] - c["k"]) * _expert(c)
    if part == "nopos":  # nanoGPT's count: the learned position rows left out
        return total - (c["ctx"] * c["d"] if (c.get("gpt2") or c.get("bert")) else 0)
    if part == "with_heads" and c.get("bert"):  # the pre-training checkpoint: MLM + NSP
        return total + d * d + d + 2 * d + c["V"] + 2 * d + 2
    if part == "active":
        return total - c["L"] * (c["E"] - c["k"]) * _expert(c)
    raise ValueError(f"unknown part {part!r}")


# --- arithmetic strings (a tiny recursive-descent parser; no eval) ---------------

_SUFFIX = {"k": F(10**3), "K": F(10**3), "M": F(10**6), "B": F(10**9), "G": F(10**9),
           "T": F(10**12)}


def _tokens(s: str) -> list:
    s = s.replace("×", "*").replace("·", "*").replace("÷", "/").replace("**", "^")
    s = s.replace("−", "-").replace(",", "").replace("_", "")
    out, i = [], 0
    while i < len(s):
        ch = s[i]
        if ch.isspace():
            i += 1
        elif ch in "+-*/^()":
            out.append(ch)
            i += 1
        elif ch.isdigit() or ch == ".":
            j = i
            while j < len(s) and (s[j].isdigit() or s[j] == "."):
                j += 1
            value = F(s[i:j])
            if j < len(s) and s[j] in "eE" and j + 1 < len(s) and (
                    s[j + 1].isdigit() or s[j + 1] in "+-"):
                k = j + 1
                if s[k] in "+-":
                    k += 1
                while k < len(s) and s[k].isdigit():
                    k += 1
                exp = int(s[j + 1:k])
                if abs(exp) > 40:
                    raise ValueError("exponent out of range")
                value *= F(10) ** exp
                j = k
            if j < len(s) and s[j] in _SUFFIX:
                value *= _SUFFIX[s[j]]
                j += 1
            out.append(value)
            i = j
        else:
            raise ValueError(f"unexpected {ch!r} in {s!r}")
    return out


def arith(s: str) -> F:
    toks = _tokens(s)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else None

    def take():
        nonlocal pos
        if pos >= len(toks):
            raise ValueError(f"unexpected end of {s!r}")
        pos += 1
        return toks[pos - 1]

    def atom():
        t = take()
        if t == "(":
            v = expr()
            if take() != ")":
                raise ValueError("missing )")
            return v
        if t == "-":
            return -power()
        if isinstance(t, F):
            return t
        raise ValueError(f"unexpected {t!r}")

    def power():
        base = atom()
        if peek() == "^":
            take()
            exp = power()
            if exp.denominator != 1 or abs(exp) > 64:
                raise ValueError("exponent must be a small integer")
            return base ** int(exp)
        return base

    def term():
        v = power()
        while peek() in ("*", "/"):
            v = v * power() if take() == "*" else v / power()
        return v

    def expr():
        v = term()
        while peek() in ("+", "-"):
            v = v + term() if take() == "+" else v - term()
        return v

    v = expr()
    if pos != len(toks):
        raise ValueError(f"trailing input in {s!r}")
    return v


# --- stated figures ----------------------------------------------------------------

_BYTES = {"B": [F(1)], "bytes": [F(1)], "KB": [F(10**3), F(2**10)],
          "MB": [F(10**6), F(2**20)], "GB": [F(10**9), F(2**30)],
          "TB": [F(10**12), F(2**40)], "KiB": [F(2**10)], "MiB": [F(2**20)],
          "GiB": [F(2**30)], "TiB": [F(2**40)]}
_COUNT = {"": [F(1)], "K": [F(10**3)], "k": [F(10**3)], "M": [F(10**6)],
          "B": [F(10**9)], "T": [F(10**12)], "%": [F(1, 100)], "x": [F(1)]}
_CONTEXT = {"": [F(1)], "K": [F(1000), F(1024)], "k": [F(1000), F(1024)],
            "M": [F(10**6), F(2**20)]}
_WORDS = {"thousand": "K", "million": "M", "billion": "B", "trillion": "T"}


def _mantissa(text: str):
    """(value, half ulp, rest) of the number that opens `text`."""
    t = text.strip().replace(",", "").replace("×", "x").replace("*", "x")
    if "/" in t and t.replace("/", "").replace(" ", "").isdigit():
        num, den = t.split("/")
        return F(int(num), int(den)), F(0), ""
    j = 0
    while j < len(t) and (t[j].isdigit() or t[j] == "."):
        j += 1
    digits = t[:j]
    if not digits:
        raise ValueError(f"no number in {text!r}")
    value = F(digits)
    places = len(digits.split(".")[1]) if "." in digits else 0
    half = F(1, 2) / F(10) ** places
    rest = t[j:].strip()
    for mark in ("x10^", "x 10^", "e"):
        if rest.startswith(mark) and rest[len(mark):].lstrip("+-").split(" ")[0].isdigit():
            tail = rest[len(mark):].split(" ", 1)
            exp = int(tail[0])
            if abs(exp) > 40:
                raise ValueError("exponent out of range")
            value, half = value * F(10) ** exp, half * F(10) ** exp
            rest = tail[1].strip() if len(tail) > 1 else ""
            break
    return value, half, rest


def readings(stated: str, q: str) -> list:
    """Every interval (lo, hi, half) a careful reader may mean by `stated` for q."""
    value, half, rest = _mantissa(stated)
    unit = rest.split(" ")[0] if rest else ""
    unit = _WORDS.get(unit, unit)
    if q in ("kv_cache_bytes", "weights_bytes") or (unit in _BYTES and unit != "B"):
        table, unit = _BYTES, unit or "B"
    elif q == "context":
        table = _CONTEXT
    else:
        table = _COUNT
    if unit not in table:
        raise ValueError(f"unit {unit!r} of {stated!r} not understood for {q}")
    exact = "." not in stated and "e" not in stated.lower().replace("bytes", "")
    out = []
    for scale in table[unit]:
        h = F(0) if exact and scale == 1 else half * scale
        out.append((value * scale - h, value * scale + h, h))
    return out


def _holds(exact: F, op: str, stated: str, q: str) -> bool:
    if op == "!=":
        return not _holds(exact, "==", stated, q)
    if op == "range":
        lo_s, hi_s = stated.replace("–", "-").split("-")
        unit = hi_s.strip().lstrip("0123456789.,")
        bare = lo_s.strip().replace(",", "").replace(".", "").isdigit()
        lows = readings(lo_s.strip() + (unit if bare else ""), q)
        highs = readings(hi_s, q)
        return any(lo <= exact <= hi for (lo, _, _), (_, hi, _) in zip(lows, highs))
    for lo, hi, half in readings(stated, q):
        mid = (lo + hi) / 2
        if op == "≈":
            w = max(2 * half, HEDGE * abs(mid))
            lo, hi = mid - w, mid + w
        if op in ("==", "≈") and lo <= exact <= hi:
            return True
        if (op == ">=" and exact >= lo) or (op == ">" and exact > lo):
            return True
        if (op == "<=" and exact <= hi) or (op == "<" and exact < hi):
            return True
    return False


# --- a check's exact value -------------------------------------------------------

def _n(check) -> F:
    return arith(check["n"]) if "n" in check else F(params(check["model"]))


def exact_value(check: dict) -> F:
    q = check["q"]
    if q in FIELDS:
        c = config(check["model"])
        return F(c[FIELDS[q]])
    if q.startswith("params"):
        part = q[len("params_"):] if q != "params" else "total"
        return F(params(check["model"], part))
    if q == "kv_cache_bytes":
        c = config(check["model"])
        return F(2 * c["L"] * c["kv"] * c["hd"] * int(check["context"])
                 * int(check.get("batch", 1))) * DTYPE_BYTES[check["dtype"]]
    if q == "weights_bytes":
        return _n(check) * DTYPE_BYTES[check["dtype"]]
    if q == "flops_fwd_token":
        return 2 * _n(check)
    if q == "flops_train_token":
        return 6 * _n(check)
    if q == "flops_train":
        return 6 * _n(check) * arith(check["tokens"])
    if q == "arith":
        return arith(check["lhs"])
    if q == "dtype_bytes":
        return DTYPE_BYTES[check["dtype"]]
    if q == "ratio":  # each part's own `scale` applies to that part
        return scaled_value(check["num"]) / scaled_value(check["den"])
    raise ValueError(f"unknown quantity {q!r}")


def scaled_value(check: dict) -> F:
    """The check's exact value times its `scale` (an arithmetic string, default 1)."""
    return exact_value(check) * arith(check.get("scale", "1"))


def truth_of_one(check: dict) -> str:
    if check["q"] == "none":
        return "none"
    if check["q"] == "any":  # several careful readings: true when one of them is
        parts = [truth(c) for c in check["of"]]
        return "true" if "true" in parts else "false" if all(
            p == "false" for p in parts) else "none"
    return "true" if _holds(scaled_value(check), check["op"], str(check["stated"]),
                            check["q"]) else "false"


def truth(check) -> str:
    """"true", "false" or "none" for a label's check (one table or a list)."""
    parts = [truth_of_one(c) for c in (check if isinstance(check, list) else [check])]
    if "false" in parts:
        return "false"
    return "true" if all(p == "true" for p in parts) else "none"


def _name(c: dict) -> str:
    return f"{c['q']}({c.get('model', c.get('n', ''))})"


def describe(check) -> str:
    """The exact value(s) behind a check, for reports ("8192*8192 = 67108864")."""
    out = []
    for c in check if isinstance(check, list) else [check]:
        if c["q"] == "none":
            continue
        if c["q"] == "any":
            out.append("any of: " + " | ".join(describe(x) for x in c["of"]))
            continue
        v = scaled_value(c)
        shown = str(v) if v.denominator == 1 else f"{float(v):.6g}"
        what = c.get("lhs") or (
            f"{_name(c['num'])} / {_name(c['den'])}" if c["q"] == "ratio" else _name(c))
        out.append(f"{what} = {shown} (stated {c['op']} {c['stated']})")
    return "; ".join(out)


def describe_false(check) -> str:
    """The exact values behind the parts of a check that are false."""
    parts = check if isinstance(check, list) else [check]
    return describe([c for c in parts if truth(c) == "false"] or parts)
