"""Chinese, Japanese and Korean text made readable by the scan's English readers: the
domain's nouns ("层数" layers, "隐藏层维度" hidden size, "显存" VRAM), its verbs and
function words ("为" is, "约" about, "从 … 到" from … to) and the words that turn a
statement into something else ("不是" not, "吗" ?, "如果" if) each replaced by the English
word the readers know, longest first (`to_english`).

This is a glossary, not a translation: word order stays as written, so a reading made
from it may bind a figure to the wrong noun. What it guarantees: nothing read in such
text is more than `suggested` (`read._cjk`), and a sentence with a word that may negate,
ask or suppose is not read at all.
"""

import re

# (written forms, English), every written form replaced by " English "
GLOSSARY = [
    # fields and counts
    (("总参数量", "总参数", "總參數", "全パラメータ数", "総パラメータ数"), "total parameters"),
    (("激活参数量", "激活参数", "活性パラメータ", "アクティブパラメータ"), "active parameters"),
    (("激活", "アクティブ"), "active"),
    (("参数量", "参数数量", "参数", "參數", "パラメータ数", "パラメータ", "파라미터", "매개변수"),
     "parameters"),
    (("隐藏层维度", "隐藏层大小", "隐藏维度", "隐层维度", "模型维度", "嵌入维度", "隠れ層の次元",
      "隠れ層次元", "隠れ次元", "埋め込み次元", "モデル次元", "히든차원", "히든 차원", "은닉 차원",
      "은닉층 차원"), "hidden size"),
    (("中间层维度", "中间层大小", "前馈层维度", "前馈网络维度", "前馈维度", "中間層の次元",
      "中間層次元"), "intermediate size"),
    (("每个头的维度", "每个头维度", "头的维度", "头维度", "ヘッドの次元", "ヘッド次元"), "head dim"),
    (("KV头数", "KV 头数", "KV头", "KV 头", "键值头数", "键值头", "KVヘッド数", "KVヘッド"), "KV heads"),
    (("注意力头数", "注意力头", "头数", "头", "ヘッド数", "ヘッド", "헤드 수", "헤드수", "헤드"),
     "heads"),
    (("层数", "層数", "层", "層", "レイヤー数", "レイヤー", "레이어 수", "레이어수", "레이어"),
     "layers"),
    (("词表大小", "词汇表大小", "词表", "词汇表", "語彙サイズ", "語彙数", "語彙"), "vocabulary size"),
    (("上下文长度", "上下文窗口", "上下文", "コンテキスト長", "コンテキスト長さ", "コンテキスト"),
     "context length"),
    (("专家数", "专家", "專家", "エキスパート数", "エキスパート", "전문가"), "experts"),
    (("显存", "顯存", "ビデオメモリ"), "VRAM"),
    (("内存", "記憶體", "メモリ", "메모리"), "memory"),
    (("权重", "權重", "重み", "가중치"), "weights"),
    (("字节", "字節", "バイト", "바이트"), "bytes"),
    (("缓存", "快取", "キャッシュ", "캐시"), "cache"),
    (("模型", "モデル", "모델"), "model"),
    (("每个 token", "每个token", "每 token", "每token", "トークンあたり", "토큰당"), "per token"),
    (("每层", "每一层", "層あたり"), "per layer"),
    (("每组", "每個組", "グループあたり"), "per group"),
    (("查询", "查詢", "クエリ"), "query"),
    # statements turned into something else (read.py leaves these unread)
    (("不是", "并非", "並非", "没有", "沒有", "ではない", "ではありません", "じゃない", "아니"), "not"),
    (("如果", "假如", "要是", "もし", "만약"), "if"),
    (("吗", "嗎"), "?"),
    # verbs and function words
    (("约为", "約為", "大约", "大約", "大概", "约", "約", "およそ", "ほぼ", "약"), "about"),
    (("等于", "等於", "为", "為", "是", "は", "が"), "is"),
    (("需要", "必要"), "needs"),
    (("占用", "佔用"), "takes"),
    (("加载", "加載", "ロード"), "loads"),
    (("拥有", "擁有", "有"), "has"),
    (("从", "從", "由", "から"), "from"),
    (("到", "まで"), "to"),
    (("增加", "扩大", "扩展", "提升", "提高", "增大", "拡張", "増やし"), "increased"),
    (("减少", "降低", "缩小", "削減", "減らし"), "reduced"),
    (("翻倍",), "doubled"),
    (("减半",), "halved"),
    (("比例",), "ratio"),
    (("比",), "than"),
    (("和", "与", "與", "及", "と"), "and"),
    (("个", "個", "つの", "的", "の"), ""),
]

# hedges written after a figure ("13.5GB 左右", "14GB 程度"): the figure is about that
_AFTER_HEDGE = re.compile(r"(\d[\w.,]*)\s*(?:左右|上下|前後|程度|くらい|ぐらい|정도)")

_TERMS = sorted(((w, e) for words, e in GLOSSARY for w in words), key=lambda x: -len(x[0]))
_PATTERN = re.compile("|".join(re.escape(w) for w, _ in _TERMS))
_ENGLISH = dict(_TERMS)


def to_english(text: str) -> str:
    """`text` with each glossary term replaced by its English word, set apart by spaces,
    and a hedge after a figure moved before it ("约 13.5GB", "13.5GB 左右" → "about 13.5GB")."""
    text = _AFTER_HEDGE.sub(r"about \1", text)
    if _MEMORY.search(text):  # "需要14G显存": G for GB beside a memory word
        text = _BARE_G.sub(r"\1GB", text)
    return _PATTERN.sub(lambda m: f" {_ENGLISH[m.group()]} ", text)


# memory words, and a figure with a bare G (not GB, GiB, GPU): Chinese writes "14G显存",
# "24G的显卡" for gigabytes of memory
_MEMORY = re.compile(r"显存|顯存|内存|內存|ビデオメモリ|メモリ|메모리|VRAM|vram")
_BARE_G = re.compile(r"(\d(?:\.\d+)?)\s?[Gg](?![A-Za-z])")
