"""The memory readers' vocabulary (`memory`, `weights`, `formats`, `kv_tables`): how a text
names a KV cache, weights, a memory requirement, a number format and the columns of a
table of memory figures. The rest of the scan's vocabulary, and the tolerances a hedge
gets, are in `words`; these are the same kind of pattern, kept apart only for size.
"""

import re

# ---- memory: the KV cache and the weights (`memory`, `weights`) ---------------------

# a KV cache named: the topic of a document's title or section (`carried`) and, with a
# bare "cache", a figure said to be the cache (`memory.kv_cache`)
KV_CACHE = re.compile(r"\b(?:kv|k/v|key[- ]value|key/value)[- ]?(?:cache|caches|caching)\b", re.I)
KV_SAID = re.compile(KV_CACHE.pattern + r"|\bcache[sd]?\b", re.I)
# "per token" as a KV cache figure's unit ("/token", "one token", "each new token"):
# wider than PER_TOKEN, the scope of a count
PER_TOKEN_FIGURE = re.compile(r"\bper[- ](?:generated )?token\b|"
                              r"\b(?:each|every)(?: additional| extra| new|"
                              r" generated)? token\b|\ba single token\b|"
                              r"\bone token\b|/\s?token\b|\ba token\b", re.I)
# the attention form a figure is stated for, as (form, pattern), first match wins where two
# overlap ("without GQA" before "GQA"): "with MHA" of a GQA model is the same model with
# kv_heads = heads (a hypothetical, never checked); "with GQA" is its own cache only where
# the model has grouped KV heads (the group count of a hypothetical GQA is not stated)
ATTENTION_FORMS = (("mha", re.compile(r"\bwithout (?:GQA|MQA|grouped[- ]query|multi[- ]query)\b|"
                                      r"\bMHA\b|\bmulti[- ]head(?:ed)? (?:self[- ])?attention\b", re.I)),
                   ("mqa", re.compile(r"\bMQA\b|\bmulti[- ]query (?:self[- ])?attention\b", re.I)),
                   ("gqa", re.compile(r"\bGQA\b|\bgrouped[- ]query (?:self[- ])?attention\b", re.I)))
# a serving engine's or a runtime's context setting ("max_model_len=4096", "n_ctx 8192")
CONTEXT_SETTING = r"\b(?:max_model_len|max_seq_len|max_seq_length|max_length|seq_len|n_ctx|num_ctx)"
CONTEXT_BEFORE = re.compile(r"(?:context|sequence|prompt)(?: length| window| size)?"
                            r"(?: of)?\s*$|\bat\s*$|" + CONTEXT_SETTING + r"\s*[=:]?\s*$", re.I)
TOKENS_AFTER = re.compile(r"\s*-?\s*tokens?\b|\s*(?:-token )?context\b", re.I)
BATCH_WORDS = {"sequences", "requests", "users", "prompts", "concurrent", "samples"}
BATCH_BEFORE = re.compile(r"batch(?: size)?(?: of| =)?\s*$", re.I)
PER_PARAM = re.compile(r"^\s*bytes?\s*(?:per|/|a|for each|each)\s*(?:parameter|param|weight)",
                       re.I)
COUNT_NOUNS = {"parameters", "parameter", "params", "param", "weights", "model", "llm", "llms",
               "models", "-parameter", "parameter-model"}
# the noun said before the count: "the total parameter count for this model is 57B",
# "number of parameters: 13B"
COUNT_SAID_BEFORE = re.compile(r"\b(?:parameter count|number of parameters|param(?:eter)?s? "
                               r"count|total param(?:eter)?s?)\b[^.;:\d]{0,30}?(?:\bis|\bare|:|=)"
                               r"\s*(?:about|roughly|around|approximately|~)?\s*$", re.I)
# what a count in billions may count instead of parameters
COUNT_OTHER_NOUN = re.compile(r"(?:tokens?|flops?|gpus?|hours?|gpu-hours?|steps?|samples?|images?|"
                              r"words?|sequences?|requests?|users?|dollars?|usd|bytes?)$", re.I)
STATE_WORDS = re.compile(r"\bgradients?\b|\boptimi[sz]er\b|\badam\b|\bactivations?\b|"
                         r"\btraining\b|\bfine-?tun", re.I)
# the noun a byte figure is said of, just before it, when it is not the KV cache: "weights
# ~26.49 GB + KV cache + overhead", "activations: 3 GB"
OTHER_NOUN_BEFORE = re.compile(
    r"\b(?:weights?|param(?:eter)?s|activations?|overhead|optimi[sz]er(?: states?)?|"
    r"gradients?)\s*(?::|=|≈|is|are|takes?|needs?|uses?)?\s*(?:about|roughly|around|~|≈)?"
    r"\s*$", re.I)

WEIGHTS_WORDS = re.compile(r"\bweights?\b|\bload(?:s|ed|ing)?\b|\bfootprint\b|\bparam(?:eter)?s?\b|"
                           r"\bcheckpoints?\b|\bvram\b|\bstor(?:e|ed|es|ing)\b|\bmodel size\b|"
                           r"\b(?:takes|needs|requires|occupies|uses|fits?|runs?)\b", re.I)
NOT_WEIGHTS = re.compile(r"\btokens?\b|\bcontext\b|\bsequences?\b|\bbatch|\bactivations?\b|"
                         r"seq_len|\b[SB]\s*=", re.I)
CAPACITY = re.compile(r"\b(?:has|have|having|with|own|offers?|provides?|gives?(?: you)?|giving(?: you)?)\s+(?:an?\s+|only\s+|"
                      r"just\s+|about\s+|roughly\s+)?~?\s*$", re.I)
# after a memory figure: it is what a device or a set of them holds, set against what
# something needs ("160 GB, enough for the weights", "80 GB with room to spare")
CAPACITY_AFTER = re.compile(r"\s*(?:of\s+(?:memory|vram|hbm)\s*)?,?\s*(?:(?:which|that)\s+"
                            r"(?:is|are|'s)\s+)?(?:(?:just|barely|more than|easily|not|plenty)"
                            r"\s+)?(?:enough|sufficient|ample)\b|\s*(?:with\s+)?(?:room|"
                            r"headroom)\s+(?:to spare|for)\b|\s*(?:in total\s*)?(?:free|to spare)\b|"
                            r"\s*(?:(?:of\s+)?(?:memory|vram|hbm)\s+)?(?:(?:looks?|seems?|is|are|stays?|"
                            r"remains?)\s+)?(?:free|left|remaining|available|unused|spare)\b",
                            re.I)  # "~67 GB looks free", "10 GB left": what remains
# before a memory figure: it is what remains of a device's memory ("leaves 67 GB")
LEFT_BEFORE = re.compile(r"\b(?:leav(?:es|ing)|left with|remaining|free|available|spare)\s+"
                         r"(?:(?:about|roughly|around|only|just)\s+)?~?\s*$", re.I)
DEVICE = re.compile(r"\s*(?:of\s+)?(?:gpus?|cards?|devices?|accelerators?|a100s?|h100s?|h200s?|"
                    r"a10g?|l4|l40s?|t4|v100s?|rtx\b|mi\d+|tpus?|macs?|macbooks?|laptops?|"
                    r"consumer|vram\s+(?:gpu|card))(?![\w-]*\s*(?:memory|vram|ram|hbm)\b)", re.I)
# ("14.5 GB of GPU memory" is an amount of memory, not a device)
# words that say a figure is something other than the cache (weights, activations, the
# whole footprint), which a document's topic does not override
WEIGHTS_SAID = re.compile(r"\bweights?\b|\bparam(?:eter)?s?\b|\bactivations?\b|\btotal\b|"
                          r"\boverall\b|\bgradients?\b|\boptimi[sz]er\b|\bcheckpoint", re.I)
ONE_A_PARAMETER = re.compile(r"^\W*(?:model\s+)?(?:weights?|parameters?|params|gradients?)\W*$",
                              re.I)
SPLIT_INTO = re.compile(r"\b(?:split|divided|partitioned|broken|chopped|sharded|cut|spread)\s+"
                        r"(?:up\s+)?(?:into|across|over)\s*$", re.I)
PIECES = {"blocks", "pages", "chunks", "pieces", "shards", "segments", "tiles", "slabs"}
SHRINK_HEADER = re.compile(r"compress|reduction|ratio|smaller|shrink", re.I)
SHRINK_AFTER = re.compile(r"\s*(?:compression|smaller|reduction|compressed|less memory)\b", re.I)
SHRINK_BEFORE = re.compile(r"\b(?:compress(?:ed|es|ing)?|shrinks?|shrunk|reduced|reduces|cuts?)"
                           r"(?: it| the cache)?(?: by)?\s*$", re.I)
# a memory figure said as what running the model takes ("needs 16 GB of VRAM", "16GB at
# minimum"): the weights plus what the text leaves unstated, so at least the weights
REQUIREMENT = re.compile(r"\b(?:needs?|needed|require[sd]?|requirements?|minimum|to run|"
                         r"for inference|vram|gpu memory)\b", re.I)
# ... unless the figure is said of the weights themselves ("its weights need 20 GB")
WEIGHTS_ONLY = re.compile(r"\bweights?\b|\bcheckpoints?\b|\bfiles?\b|\bmodel size\b|"
                          r"\bon disk\b|\bdownload", re.I)
RUNTIME_ONLY = re.compile(r"\boverhead\b|\bin practice\b|\bpeak\b", re.I)
GRADIENTS = re.compile(r"\bgradients?\b", re.I)
# gradients of only some parameters (adapters, a trainable subset): not one a parameter
PARTIAL = re.compile(r"\blora\b|\bq?lora\b|\bpeft\b|\badapters?\b|\btrainable\b|\bfrozen\b|"
                     r"\bfreez", re.I)
MIXED = re.compile(r"\bmixed[- ]precision\b|\bamp\b", re.I)
# what a figure needs to run, not what the weights hold (runtime buffers, the cache, the
# framework): a count carried from the text before is not read against such a figure
RUNTIME = re.compile(r"\bv?ram\b|\bto run\b|\brun(?:s|ning)?\b|\binference\b|\bserv(?:e|es|ing)\b|"
                     r"\boverhead\b|\btotal\b|\bin practice\b|\bneeds?\b|\brequire[sd]?\b|"
                     r"\bpeak\b|\busage\b|\bfile\b|\bdownload|\bdisk\b|\bgguf\b|\bq\d", re.I)
# ---- weights memory by number format, in tables and lists (`formats`) ---------------

# a column whose cells are a model's size or the model ("Model size", "Params", "Model")
SIZE_COLUMN = re.compile(r"\bmodels?\b|\bsizes?\b|\bparam(?:eter)?s?\b|\b#\s*params\b", re.I)
# a column of memory figures, beside a cell naming the row's format ("VRAM needed")
MEMORY_HEADER = re.compile(r"\bmemory\b|\bv?ram\b|\bsize\b|\bweights?\b|\bfootprint\b|"
                           r"\bstorage\b|\bdisk\b|\bgi?b\b", re.I)
# a column of the bytes one number takes ("Bytes/Param", "Bytes per parameter")
BYTES_HEADER = re.compile(r"^\W*(?:size\s*\(\s*)?bytes?(?:\s*(?:/|per|a)\s*(?:param(?:eter)?|value|"
                          r"weight|element|number)s?)?\W*$", re.I)  # or "Bytes" alone: the
# row's format names what one number of it takes
# "32 bits / value", "16 bits per parameter": the bits of one number
BITS_AFTER = re.compile(r"\s*-?\s*bits?\s*(?:/|per|a)\s*(?:value|param(?:eter)?|weight|"
                        r"number|element)\b", re.I)
# a column headed by the cache alone ("KV", "KV size", "KV (MiB)")
KV_HEADER = re.compile(r"^\W*(?:kv|k/v)(?:\s+(?:size|memory|bytes))?\W*(?:\(\w+\))?\W*$", re.I)
# a column of the keys or the values alone: half the cache, not the cache
HALF_CACHE = re.compile(r"^\W*(?:keys?|values?|k|v)\b(?!\s*/)", re.I)
