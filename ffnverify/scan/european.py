"""German, French, Spanish, Portuguese and Russian text made readable by the scan's English readers, as `cjk`
does for Chinese, Japanese and Korean: a statement is taken to be in one of these
languages when two or more of that language's own function words are in it and fewer
English ones (`language`); then its figures are written the English way ("13,5 GB" →
"13.5 GB", "4.096 Token" → "4096 Token", "46,7 Mrd." → "46.7 billion", "13,5 Go" → "13.5
GB") and the domain's words are replaced by the English ones the readers know
("Schichten" layers, "couches" layers, "camadas" layers, "слоёв" layers, "nicht" not,
"wenn" if: `to_english`).

This is a glossary, not a translation: word order stays as written, so a reading made
from it may bind a figure to the wrong noun. What it guarantees: nothing read in such
text is more than `suggested`, no FALSE from it is flagged but arithmetic as written
(`read`, `scan.settle`, as for `cjk`), and a statement with a figure that cannot be
written the English way without doubt ("1,234": a thousands comma or a decimal one) is
not read at all (`doubtful`).
"""

import re

# a language's own function words (not English words too: "die", "a", "es" are left out
# of the sets that would meet English text)
_OWN = {
    "de": {"und", "der", "das", "mit", "für", "bei", "ist", "sind", "hat", "haben", "wird",
           "werden", "einen", "eine", "einer", "nicht", "kein", "keine", "benötigt",
           "braucht", "etwa", "rund", "oder", "auch", "zu", "auf", "jeder", "jede", "pro",
           "dem", "den", "des", "im", "beim", "sich", "nur", "insgesamt", "davon", "wenn"},
    "fr": {"les", "des", "avec", "pour", "est", "sont", "une", "nécessite", "environ",
           "dans", "du", "au", "aux", "chaque", "par", "pas", "ne", "n'est", "qui", "sur",
           "il", "elle", "ce", "cette", "mais", "donc", "si", "le", "la", "et", "un"},
    "es": {"los", "las", "con", "para", "una", "tiene", "necesita", "aproximadamente",
           "del", "cada", "por", "pero", "el", "la", "y", "un", "que", "requiere",
           "unos", "unas", "como", "si", "sin", "más"},
    "pt": {"os", "com", "uma", "tem", "precisa", "do", "da", "dos", "das", "mas", "não",
           "são", "um", "requer", "em", "ao", "no", "na", "nos", "cerca", "exemplo",
           "modelo", "é", "ou", "também", "então", "cada"},
    "ru": {"и", "в", "на", "с", "для", "это", "не", "или", "что", "как", "по", "из", "от",
           "при", "всего", "около", "примерно", "требует", "нужно", "занимает", "модель",
           "модели", "если", "но", "только", "уже", "также"},
}
_ENGLISH_WORDS = {"the", "and", "of", "is", "are", "with", "for", "to", "in", "has",
                  "have", "needs", "about", "each", "per", "that", "this", "it", "its",
                  "which", "from", "at", "on", "by", "or", "not", "an", "be", "we", "you"}
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)


def language(text: str) -> str:
    """"de", "fr", "es", "pt" or "ru" when the text is in that language by its function words (two
    distinct ones at least, more than the English ones it holds), else ""."""
    words = {w.lower() for w in _WORD.findall(text)}
    english = len(words & _ENGLISH_WORDS)
    best, hits = "", 1
    for lang, own in _OWN.items():
        n = len(words & own)
        if n > hits and n > english:
            best, hits = lang, n
    return best


# (written forms, English), by language; every written form a whole word, case ignored
GLOSSARY = {
    "de": [
        (("Milliarden", "Milliarde", "Mrd."), "billion"), (("Millionen", "Million", "Mio."),
                                                           "million"),
        (("Billionen", "Billion"), "trillion"), (("Tausend",), "thousand"),
        (("Schichten", "Layer", "Lagen", "Ebenen"), "layers"),
        (("Parameteranzahl", "Parameterzahl", "Parametern", "Parameter"), "parameters"),
        (("Köpfe", "Attention-Köpfe", "Heads"), "heads"),
        (("KV-Köpfe",), "KV heads"),
        (("Kontextlänge", "Kontextfenster", "Kontext"), "context length"),
        (("Vokabulargröße", "Vokabular", "Wortschatz"), "vocabulary size"),
        (("Gewichte", "Gewichten"), "weights"),
        (("Speicherbedarf", "Speicher", "Arbeitsspeicher", "Grafikspeicher"), "memory"),
        (("Experten",), "experts"), (("aktiv", "aktive", "aktiven"), "active"),
        (("versteckte Dimension", "Hidden-Dimension", "Modelldimension"), "hidden size"),
        (("Bytes", "Byte"), "bytes"), (("pro", "je"), "per"), (("bei",), "at"), (("benötigt", "braucht", "erfordert"),
                                                   "needs"),
        (("belegt",), "takes"), (("hat", "besitzt"), "has"), (("ist", "beträgt"), "is"),
        (("sind",), "are"), (("etwa", "rund", "ca.", "ungefähr", "circa"), "about"),
        (("mindestens",), "at least"), (("höchstens",), "at most"),
        (("und",), "and"), (("oder",), "or"), (("mit",), "with"), (("für",), "for"),
        (("von",), "of"), (("insgesamt",), "total"),
        (("nicht", "kein", "keine", "keinen"), "not"), (("wenn", "falls"), "if"),
    ],
    "fr": [
        (("milliards", "milliard", "Md"), "billion"), (("millions", "million"), "million"),
        (("billions", "billion"), "trillion"),  # French "billion" is 10^12
        (("couches",), "layers"), (("paramètres", "paramètre"), "parameters"),
        (("têtes",), "heads"), (("longueur de contexte", "fenêtre de contexte", "contexte"),
                                "context length"),
        (("vocabulaire",), "vocabulary size"), (("poids",), "weights"),
        (("mémoire", "VRAM"), "memory"), (("experts",), "experts"),
        (("actifs", "actif", "active", "actives"), "active"),
        (("dimension cachée", "dimension du modèle"), "hidden size"),
        (("octets", "octet"), "bytes"), (("par",), "per"), (("nécessite", "requiert"),
                                                            "needs"),
        (("occupe",), "takes"), (("possède",), "has"), (("est",), "is"), (("sont",), "are"),
        (("environ", "à peu près"), "about"), (("au moins",), "at least"),
        (("au plus",), "at most"), (("et",), "and"), (("ou",), "or"), (("avec",), "with"),
        (("pour",), "for"), (("de", "du", "des"), "of"), (("au total",), "total"),
        (("pas", "ne", "n'est"), "not"), (("si",), "if"),
    ],
    "es": [
        (("mil millones",), "billion"), (("millones", "millón"), "million"),
        (("billones", "billón"), "trillion"),  # Spanish "billón" is 10^12
        (("capas",), "layers"), (("parámetros", "parámetro"), "parameters"),
        (("cabezas", "cabezales"), "heads"),
        (("longitud de contexto", "ventana de contexto", "contexto"), "context length"),
        (("vocabulario",), "vocabulary size"), (("pesos",), "weights"),
        (("memoria", "VRAM"), "memory"), (("expertos",), "experts"),
        (("activos", "activo", "activas"), "active"),
        (("dimensión oculta", "dimensión del modelo"), "hidden size"),
        (("bytes",), "bytes"), (("por",), "per"), (("necesita", "requiere"), "needs"),
        (("ocupa",), "takes"), (("tiene", "posee"), "has"), (("es",), "is"),
        (("son",), "are"), (("aproximadamente", "unos", "unas", "alrededor de"), "about"),
        (("al menos",), "at least"), (("como máximo",), "at most"), (("y",), "and"),
        (("o",), "or"), (("con",), "with"), (("para",), "for"), (("de", "del"), "of"),
        (("en total",), "total"), (("no", "nunca"), "not"), (("si",), "if"),
    ],
    "pt": [
        (("bilhões", "bilhão", "bi"), "billion"), (("milhões", "milhão"), "million"),
        (("trilhões", "trilhão"), "trillion"),  # Brazilian usage: 10^9, 10^12
        (("camadas",), "layers"), (("parâmetros", "parâmetro"), "parameters"),
        (("cabeças",), "heads"),
        (("comprimento de contexto", "janela de contexto", "contexto"), "context length"),
        (("vocabulário",), "vocabulary size"), (("pesos",), "weights"),
        (("memória", "VRAM"), "memory"), (("especialistas",), "experts"),
        (("ativos", "ativo", "ativas", "ativados"), "active"),
        (("dimensão oculta", "dimensão do modelo"), "hidden size"),
        (("bytes",), "bytes"), (("por",), "per"), (("precisa", "requer", "necessita"),
                                                   "needs"),
        (("ocupa",), "takes"), (("tem", "possui"), "has"), (("é",), "is"), (("são",), "are"),
        (("aproximadamente", "cerca de"), "about"), (("pelo menos",), "at least"),
        (("no máximo",), "at most"), (("e",), "and"), (("ou",), "or"), (("com",), "with"),
        (("para",), "for"), (("de", "do", "da", "dos", "das"), "of"),
        (("no total", "ao todo"), "total"), (("não", "nunca"), "not"), (("se",), "if"),
        (("em",), "in"),
    ],
    "ru": [
        (("млрд.", "млрд", "миллиардов", "миллиарда", "миллиард"), "billion"),
        (("млн.", "млн", "миллионов", "миллиона", "миллион"), "million"),
        (("трлн.", "трлн", "триллионов", "триллиона", "триллион"), "trillion"),
        (("тыс.",), "thousand"),
        (("слоёв", "слоев", "слоя", "слоями", "слои", "слой"), "layers"),
        (("параметров", "параметра", "параметры", "параметр"), "parameters"),
        (("голов", "головы", "головами"), "heads"),
        (("длина контекста", "контекстное окно", "контекста", "контекст"), "context length"),
        (("словаря", "словарь"), "vocabulary size"), (("весов", "веса"), "weights"),
        (("памяти", "память", "видеопамяти", "VRAM"), "memory"),
        (("экспертов", "эксперта", "эксперты"), "experts"),
        (("активных", "активные", "активный"), "active"),
        (("байта", "байтов", "байт"), "bytes"), (("требует", "требуется", "нужно", "нужен",
                                                  "необходимо"), "needs"),
        (("занимает",), "takes"), (("имеет",), "has"),
        (("около", "примерно", "порядка", "приблизительно", "~"), "about"),
        (("не менее", "минимум"), "at least"), (("не более", "максимум"), "at most"),
        (("и",), "and"), (("или",), "or"), (("для",), "for"), (("всего",), "total"),
        (("не", "нет"), "not"), (("если",), "if"), (("в", "во"), "in"),
    ],
}
_PATTERNS = {
    lang: (re.compile(r"(?<![\w.-])(?:" + "|".join(
        re.escape(w) for w, _ in sorted(((w, e) for ws, e in terms for w in ws),
                                        key=lambda x: -len(x[0]))) + r")(?![\w-])", re.I),
           {w.lower(): e for ws, e in terms for w in ws})
    for lang, terms in GLOSSARY.items()
}
# figures written the continental way: a decimal comma before one or two digits, a
# thousands dot (German, Spanish) or a thin or plain space (French) before three
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])(\d+),(\d{1,2})(?![\d,.])")
_THOUSANDS_DOT = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+)(?![\d,.])")
_THOUSANDS_SPACE = re.compile(r"(?<![\d.,])(\d{1,3}(?:[\u202f\u00a0]\d{3})+)(?![\d,.])")  # narrow
_FRENCH_UNITS = re.compile(r"(?<=\d)\s?([KMGT])o\b")  # "13,5 Go": gigaoctets
_RUSSIAN_UNITS = re.compile(r"(?<=\d)\s?([КкМмГгТт])[Бб](?![\w])")  # "13,5 ГБ": гигабайт
_CYRILLIC_SCALE = {"К": "K", "М": "M", "Г": "G", "Т": "T"}


_DOUBTFUL = re.compile(r"(?<![\d.,])\d{1,3},\d{3}(?![\d])")


def doubtful(text: str) -> bool:
    """Whether a figure in the text reads two ways in these languages ("1,234")."""
    return bool(_DOUBTFUL.search(text))


def _figures(text: str, lang: str) -> str:
    text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    if lang in ("de", "es", "pt"):
        text = _THOUSANDS_DOT.sub(lambda m: m.group(1).replace(".", ""), text)
    if lang in ("fr", "ru"):
        text = _THOUSANDS_SPACE.sub(lambda m: re.sub(r"\D", "", m.group(1)), text)
    if lang == "fr":
        text = _FRENCH_UNITS.sub(r" \1B", text)
    if lang == "ru":
        text = _RUSSIAN_UNITS.sub(lambda m: " " + _CYRILLIC_SCALE[m.group(1).upper()] + "B",
                                  text)
    return text


def to_english(text: str, lang: str) -> str:
    """`text` (in `lang`) with its figures written the English way and each glossary term
    replaced by its English word, set apart by spaces."""
    pattern, english = _PATTERNS[lang]
    text = _figures(text, lang)
    return pattern.sub(lambda m: f" {english[m.group().lower()]} ", text)
