"""Model families whose every published size is a catalogue row: what a statement about
the family as a whole ("GPT-2 has a 50,257-token vocabulary", "Mixtral routes each token
to 2 of its 8 experts") may mean.

A family is listed only when the catalogue holds *every* model its name could denote
under a careful reading, released or only described in its paper: then a claim that
holds for every member holds under every reading, and one that fails for every member
fails under every reading. A family with a member the catalogue lacks is not listed
(Llama 2: the paper's 34B; "Llama 3": the 3.2 vision models; GPT-3: seven of its eight
sizes; BERT: the 24 smaller checkpoints Google released later; T5: 11B), nor is a name
that also denotes a lineage ("LLaMA", "Gemma", "Qwen").

`FAMILIES`: the family's name written squashed (lower case, only letters, digits and
dots, as `scan.structure` squashes a name), its members, and the source that lists the
sizes.
"""

FAMILIES = {
    "llama1": (("llama-1-7b", "llama-1-13b", "llama-1-33b", "llama-1-65b"),
               "arXiv:2302.13971 Table 2: 6.7B, 13.0B, 32.5B, 65.2B"),
    "llama3.1": (("llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"),
                 "Meta's Llama 3.1 release (2024-07-23): 8B, 70B, 405B"),
    "mixtral": (("mixtral-8x7b", "mixtral-8x22b"),
                "Mistral AI's releases: Mixtral 8x7B (arXiv:2401.04088), Mixtral 8x22B"),
    "gpt2": (("gpt2-small", "gpt2-medium", "gpt2-large", "gpt2-xl"),
             "Radford et al. 2019, Table 2: the four sizes, all released"),
    # a Llama size no LLaMA 1 model has, with no version ("Llama 70B", "Llama 8B"): every
    # Llama release of that size (Code Llama, Llama Guard and the vision models go by other
    # names; "LLaMA 7B" and "LLaMA 13B" name LLaMA 1's, as `scan.detect` reads them)
    "llama8b": (("llama-3-8b", "llama-3.1-8b"),
                "Meta's Llama 3 (2024-04-18) and Llama 3.1 (2024-07-23) releases"),
    "llama70b": (("llama-2-70b", "llama-3-70b", "llama-3.1-70b", "llama-3.3-70b"),
                 "Llama 2 (arXiv:2307.09288); Meta's Llama 3, 3.1 and 3.3 releases"),
}



def members(squashed: str) -> tuple:
    """The rows of the family whose squashed name is `squashed` ("gpt2" for "GPT-2",
    "llama1" for "LLaMA 1"), or ()."""
    return FAMILIES[squashed][0] if squashed in FAMILIES else ()


# releases that share a model's unversioned name ("Mistral 7B" is v0.1, v0.2 or v0.3):
# a figure said of the bare name may be any of them, so a reading of the row alone is
# leniently also one of each sibling's (the row -> its siblings in the catalogue; v0.2,
# which the catalogue lacks, is v0.1's shape with v0.3's 32K context)
SIBLINGS = {
    "mistral-7b": ("mistral-7b-v0.3",),
}
