"""Parse one row of n8n's chat-memory table into a transcript turn, a skipped row, or a rejection.

Row shapes are the ones met in n8n installations in the field, reproduced in
`memory_pipeline_tests/fixtures/message_shapes.jsonl`: the flat LangChain-JS shape n8n writes, the nested
LangChain-Python shape (`{"type", "data": {...}}`), content as a list of blocks, tool rows, ai rows carrying
only `tool_calls`, `Calling X with input` stand-ins, `[Used tools: ...]` prefixes, hidden system rows and
malformed rows. No input makes `parse_row` raise: a row is a turn, skipped (valid but not conversation text),
or rejected with a reason.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

Role = Literal["human", "ai", "tool"]
Status = Literal["turn", "skipped", "rejected"]

# LangChain message types as written by n8n and by LangChain-Python; "user" is written by some fallback models.
_ROLE_BY_TYPE: dict[str, Role] = {
    "human": "human",
    "user": "human",
    "humanmessage": "human",
    "ai": "ai",
    "assistant": "ai",
    "aimessage": "ai",
    "tool": "tool",
    "function": "tool",
    "toolmessage": "tool",
}

# n8n's stand-in for a tool call when the model had no native tool calling.
_STAND_IN_CALL = re.compile(r"^\s*Calling \S+ with input:", re.DOTALL)
# n8n's human templates for group and channel chats (Telegram, Slack, WhatsApp): a first line
# "## Message from NAME (details):" before the sender's own text, which follows on the same line after the colon
# or on the next line. NAME is the sender; the details in brackets (handle, time) are not kept. NAME is a display
# name, at most MAX_SENDER_CHARS (chat apps allow 25 to 128): a longer "name" is not a header but text someone
# typed, and would make a user key too long to index.
MAX_SENDER_CHARS = 128
_TEMPLATE_HEADER = re.compile(
    r"^\s*##[ \t]*Message from[ \t]+(?P<sender>[^\n(:]{0,%d}?[^\s(:])[ \t]*(?:\([^\n)]*\))?[ \t]*"
    % (MAX_SENDER_CHARS - 1) +
    r"(?::[ \t]*\n?|\n|$)"
)
# Machine-written text that agent templates (WhatsApp, Telegram) put into the human row: the output of an image,
# audio or document analysis, or a stand-in for a media message. It is not the user's own words, so it is moved
# out of `text` into `machine_text`: from its marker to the end of its paragraph (a blank line ends it). Markers:
# a bracketed label naming media or an analysis ("[Image analysis]", "[Voice transcription]:", "[Photo]"), a
# label at a line start ("Image description:", "Transcription:"), and "(The) user sent an image/voice message".
_MEDIA_WORDS = (r"image|images|photo|photos|picture|pictures|screenshot|voice|audio|video|document|pdf|file|"
                r"attachment|sticker|gif|media|vision|ocr|analysis|transcription|transcript|description|caption")
_BRACKETED_LABEL = r"\[[^\]\n]{0,40}?\b(?:" + _MEDIA_WORDS + r")\b[^\]\n]{0,40}\]"
_LINE_START_LABEL = (
    r"(?:^|(?<=\n))[ \t]*(?:(?:image|photo|picture|voice|audio|video|document|file|attachment)(?: message)?[ \t]+"
    r"(?:analysis|description|transcription|transcript|caption|content|text)|transcription|transcript|ocr)[ \t]*:"
)
_USER_SENT = (
    r"\b(?:the[ \t]+)?user[ \t]+(?:has[ \t]+|just[ \t]+)?(?:sent|shared|uploaded|attached|forwarded)[ \t]+"
    r"(?:an?|the|one|\d+)[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:image|photo|picture|screenshot|voice message|voice note|"
    r"audio(?: message)?|video|document|file|sticker|gif|location|attachment)s?\b"
)
_MACHINE_MARKER = re.compile("|".join((_BRACKETED_LABEL, _LINE_START_LABEL, _USER_SENT)), re.IGNORECASE)
# The line-start alternative alone: what `_MACHINE_MARKER` finds in a text where the other two cannot match
# (no "[", no "user"), at a quarter of the cost of trying all three at every position.
_LINE_START_MARKER = re.compile(_LINE_START_LABEL, re.IGNORECASE)
_PARAGRAPH_END = re.compile(r"\n[ \t]*\n")
# A bracketed media word standing inside a sentence the user is writing ("I bought a [Photo] frame", "my new
# [image] editor"): a word before it on its line and the sentence going on in lower case after it. Templates put
# their labels at a line or sentence start, and an analysis label ("[Image analysis]") always starts a block.
_LABEL_IN_SENTENCE = re.compile(r"\[[^\]\n]*\][ \t]+\w")
_ANALYSIS_WORDS = re.compile(r"\b(?:analysis|vision|ocr|transcription|transcript|description|caption)\b", re.I)

# Where a cut may fall: after a sentence's end punctuation (with closing quotes or brackets) followed by
# whitespace or the end, after CJK end punctuation, or at a line break.
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]\u00bb\u201d\u2019]*(?=\s|$)|[。！？]+|\n")
# The characters a `_SENTENCE_END` match can start with: without any of them in reach there is no sentence end.
_SENTENCE_END_STARTS = ".!?。！？\n"
# Appended where a message was cut, so every reader (a person, an LLM) sees that the text goes on.
TRUNCATION_MARK = " [...]"

# What `clean_text` drops. Text is compared, deduplicated and quoted after cleaning, so a character a reader
# cannot see must not make two texts differ ("I like \u200dtea\u2060." is "I like tea.") nor cut a word
# ("Jo\u200bhn" is "John"). Dropped: C0 controls but tab and line breaks (NUL cannot even be stored in PostgreSQL
# text), DEL, C1 controls; Unicode format characters (category Cf) that are invisible: soft hyphen, zero-width
# space, word joiner, BOM, invisible math operators, interlinear annotation marks, shorthand and musical format
# controls, bidirectional marks and controls (U+061C, U+200E/F, U+202A..U+202E, U+2066..U+206F), which reorder
# what a reader sees; lone surrogates (halves of a UTF-16 pair from `\ud800` escapes: they encode nothing).
# Kept: the zero-width joiner and non-joiner between two non-ASCII, non-space characters (emoji sequences,
# Persian and Indic spelling: there they change what is shown), tag characters inside an emoji flag sequence
# (U+1F3F4 ... U+E007F), and the visible format characters (Arabic number signs and other prepended
# concatenation marks, Egyptian hieroglyph format controls). `memory_pipeline_tests/test_text_normalisation.py`
# checks that every Cf character of the running Unicode version is either dropped or kept on purpose.
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x84\x86-\x9f"
_INVISIBLE_FORMAT = ("\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
                     "\ufff9-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001")
_JOINERS = "\u200c\u200d"
_TAGS = "\U000e0020-\U000e007f"
_NOT_SCRIPT = "\x00-\x7f\\s"  # a joiner next to one of these (ASCII, whitespace, the text's ends) joins nothing
_DROPPED = re.compile(
    "(\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)"  # group 1, kept: an emoji flag's tag sequence
    f"|[{_CONTROLS}{_INVISIBLE_FORMAT}{_TAGS}\ud800-\udfff]+"
)
# Joiners (runs of them) that join nothing: decided on the NFKC form, where a full-width letter is ASCII already.
_LOOSE_JOINERS = re.compile(f"(?<![^{_NOT_SCRIPT}])[{_JOINERS}]+|[{_JOINERS}]+(?![^{_NOT_SCRIPT}])")
# Every line and paragraph boundary Unicode defines (the ones `str.splitlines` splits on: CR LF, CR, VT, FF,
# FS/GS/RS U+001C..U+001E, NEL U+0085, LINE SEPARATOR U+2028, PARAGRAPH SEPARATOR U+2029) becomes "\n", so every
# reader of the transcript (sentence splitters, an LLM) sees a line break where the writer put one, and none is
# dropped as a control character (which would glue two sentences into one).
_LINE_BREAKS = re.compile("\r\n|[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# Every character `clean_text` replaces or drops (line breaks but "\n", and `_DROPPED`'s characters): a non-ASCII
# text without any needs only NFKC and trimming (`clean_text`'s fast path; NFKC never produces one of them, which
# the tests check for every code point).
_NEEDS_CLEANING = re.compile(
    f"[{_CONTROLS}\x85\u2028\u2029{_INVISIBLE_FORMAT}{_JOINERS}{_TAGS}\ud800-\udfff]")
# The ASCII characters among them (C0 controls but tab and "\n", and DEL), as bytes for `bytes.translate`, which
# deletes them in one table-driven pass: about 2 ns a character against 8 for the `_NEEDS_CLEANING` search.
_ASCII_NEEDING_CLEANING = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F])


@dataclass(frozen=True)
class SourceRow:
    """One row of the n8n table: `id` (SERIAL), `session_id` (the session key), `message` (JSONB value),
    `created_at` (timezone-aware, or None for legacy rows written before the column existed)."""

    id: int
    session_id: str
    message: Any
    created_at: datetime | None


@dataclass(frozen=True)
class ParsedRow:
    """Outcome of `parse_row`.

    status "turn": `role` and `text` are set (text cleaned, never empty).
    status "skipped": a valid row that is not conversation text (`reason`: system_row, tool_call_only, ...).
    status "rejected": a malformed row (`reason`: null_message, message_too_deep, message_not_object, missing_type,
    unknown_type, no_content, ...).
    `tool_evidence` holds the `[Used tools: ...]` part stripped from an ai reply (evidence, never a quote).
    `truncated` is True when the text was longer than `max_chars`: it was cut at the last sentence end that fits
    (`cut_text`), never inside a word, and `TRUNCATION_MARK` appended. `quotable_chars`: how many leading
    characters of `text` a quote may come from (None = all): the whole sentences kept, never the mark nor a
    partial sentence (0 when not even one sentence fitted and the text was cut at a word boundary).
    `machine_text`: machine-written blocks stripped from a human row (image/voice analysis, media stand-ins):
    kept for context, never the user's words, never a quote.
    `sender`: the NAME of a `## Message from NAME` header of a human row (a group chat's speaker; the header is
    stripped from `text`), else None. `user_key`: the user the row's facts belong to when it differs from the
    conversation's (set by `build_conversations` for a sender), else None.
    """

    message_id: int
    at: datetime | None
    status: Status
    role: Role | None = None
    text: str = ""
    reason: str | None = None
    tool_evidence: str | None = None
    truncated: bool = False
    sender: str | None = None
    user_key: str | None = None
    machine_text: str | None = None
    quotable_chars: int | None = None


def parse_row(row: SourceRow, max_chars: int = 20_000, group_chat: bool = False) -> ParsedRow:
    """Classify one source row. Never raises for any JSON value in `row.message`.

    `group_chat`: the row's session key is a declared group chat (MEMORY_PIPELINE_GROUP_CHAT_SESSION_KEYS), the
    only place a `## Message from NAME` header names the speaker; anywhere else it is text the user typed, kept
    as said (a 1:1 chat typing it must not write into another person's memory)."""

    def rejected(reason: str) -> ParsedRow:
        return ParsedRow(row.id, row.created_at, "rejected", reason=reason)

    def skipped(reason: str) -> ParsedRow:
        return ParsedRow(row.id, row.created_at, "skipped", reason=reason)

    message = row.message
    if message is None:
        return rejected("null_message")  # SQL NULL in a `message` column someone made nullable
    if isinstance(message, (str, bytes)):
        # A JSON string scalar: some writers double-encode the object.
        try:
            message = json.loads(message)
        except RecursionError:  # nesting deeper than the interpreter reads (~1000 levels): no message is built so
            return rejected("message_too_deep")
        except (ValueError, TypeError):
            return rejected("message_not_object")
    if not isinstance(message, dict):
        return rejected("message_not_object")

    payload = message.get("data") if isinstance(message.get("data"), dict) else message
    raw_type = payload.get("type") or message.get("type")
    if not isinstance(raw_type, str) or not raw_type.strip():
        return rejected("missing_type")
    kind = raw_type.strip().lower()
    if kind == "system":
        return skipped("system_row")
    role = _ROLE_BY_TYPE.get(kind)
    if role is None:
        return rejected("unknown_type")

    text = content_text(payload.get("content"))
    tool_calls = payload.get("tool_calls") or message.get("tool_calls")
    if role == "ai" and text is not None and _STAND_IN_CALL.match(text):
        return skipped("tool_call_only")
    if text is None or not text.strip():
        if role == "ai" and tool_calls:
            return skipped("tool_call_only")
        return rejected("no_content")

    evidence = None
    if role == "ai":
        text, evidence = strip_used_tools_prefix(text)
        evidence = clean_text(evidence) if evidence else None
    sender = None
    if role == "human" and group_chat:
        header = _TEMPLATE_HEADER.match(text)
        if header:
            sender = " ".join(clean_text(header.group("sender")).split()) or None
            text = text[header.end():]
    machine = None
    if role == "human":
        cleaned = clean_text(text)
        text, machine = split_machine_text(cleaned)
        # An ASCII text that came out of clean_text is its fixed point (no control left, stripped, NFC), so when the
        # split left it as it was, cleaning it again would change nothing (a 200,000-character row is scanned once).
        if not (text is cleaned and text.isascii()):
            text = clean_text(text)
    else:
        text = clean_text(text)
    if not text:
        if machine:
            return skipped("machine_text_only")
        return skipped("tool_call_only") if evidence else rejected("no_content")
    truncated = len(text) > max_chars
    quotable = None
    if truncated:
        text, quotable = cut_text(text, max_chars)
    return ParsedRow(row.id, row.created_at, "turn", role=role, text=text, tool_evidence=evidence, truncated=truncated,
                     sender=sender, machine_text=machine, quotable_chars=quotable)


def content_text(content: Any) -> str | None:
    """Text of a LangChain `content`: a string, or a list of blocks (`{"type": "text", "text": ...}` or strings).

    Returns None when there is no text at all (None, a number, blocks without text).
    """
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and isinstance(block.get("text"), str):
                parts.append(block["text"])
        return "\n".join(parts) if parts else None
    return None


def cut_text(text: str, max_chars: int) -> tuple[str, int]:
    """Cut `text` to at most `max_chars` characters (mark included) without inventing words or sentences.

    Returns (cut text ending with TRUNCATION_MARK, quotable characters). The cut falls at the last sentence end
    that fits, so every sentence kept is whole and all of it is quotable; when not one sentence fits, at the last
    whitespace (a word is never split), and nothing is quotable: a fact must not rest on half a sentence ("I like
    chess ZQXMARK" out of "I like chess ZQXMARKERBIG."). A text without any whitespace in reach is cut hard and
    is not quotable either."""
    limit = max(0, max_chars - len(TRUNCATION_MARK))
    last_end = 0
    # Every match starts with one of _SENTENCE_END_STARTS: a text without any in reach (one long word, a pasted
    # blob) skips the search, which tries three alternatives at every position.
    if any(text.find(start, 0, limit + 1) != -1 for start in _SENTENCE_END_STARTS):
        for match in _SENTENCE_END.finditer(text, 0, limit + 1):
            if match.end() <= limit:
                last_end = match.end()
    if last_end:
        kept = text[:last_end].rstrip()
        return kept + TRUNCATION_MARK, len(kept)
    space = max(text.rfind(" ", 0, limit + 1), text.rfind("\n", 0, limit + 1), text.rfind("\t", 0, limit + 1))
    kept = (text[:space] if space > 0 else text[:limit]).rstrip()
    return kept + TRUNCATION_MARK, 0


def split_machine_text(text: str) -> tuple[str, str | None]:
    """Split a human row's text into (the user's own text, machine-written blocks or None).

    A block runs from a marker (`_MACHINE_MARKER`: "[Image analysis]", "Transcription:", "The user sent an
    image ...") to the end of its paragraph; text before the marker and other paragraphs stay the user's. Blocks
    are joined with blank lines."""
    pattern = _marker_pattern(text)
    return (text, None) if pattern is None else split_at_markers(text, pattern)


def split_at_markers(text: str, pattern: re.Pattern[str]) -> tuple[str, str | None]:
    """`split_machine_text` with the marker search `pattern` (`_MACHINE_MARKER` or a cheaper pattern that finds
    the same markers in `text`, from `_marker_pattern`)."""
    own: list[str] = []
    machine: list[str] = []
    position = 0
    search_from = position
    while True:
        marker = pattern.search(text, search_from)
        if marker is None:
            own.append(text[position:])
            break
        if _is_label_in_sentence(text, marker):
            search_from = marker.end()  # the user's own words around a media word in brackets
            continue
        end = _PARAGRAPH_END.search(text, marker.end())
        stop = end.start() if end else len(text)
        own.append(text[position:marker.start()])
        machine.append(text[marker.start():stop].strip())
        position = search_from = stop
    kept = "".join(own)
    return (kept, "\n\n".join(m for m in machine if m) or None) if machine else (text, None)


def _marker_pattern(text: str) -> re.Pattern[str] | None:
    """The pattern that finds exactly what `_MACHINE_MARKER` finds in `text`, cheapest first: None when no
    alternative can match, `_LINE_START_MARKER` when only that one can, else `_MACHINE_MARKER`. A bracketed
    label needs "[", a line-start label ends with ":", and "user sent ..." needs the letters "user" in some
    case. Under re.IGNORECASE the only characters that match u, s, e, r are their two cases and U+017F (long s),
    and `str.casefold` maps each of them to u, s, e or r, so a match's "user" is always in the casefolded text.
    (A search from any position finds the leftmost match; an alternative that cannot match anywhere in the
    text changes nothing, so dropping it gives the same matches.)"""
    has_user = "user" in (text.lower() if text.isascii() else text.casefold())
    if "[" in text or has_user:
        return _MACHINE_MARKER
    return _LINE_START_MARKER if ":" in text else None


def _is_label_in_sentence(text: str, marker: re.Match[str]) -> bool:
    """True when `marker` is a bracketed media label (not an analysis label) with a word of the same line
    before it and a lower-case word after it: a sentence of the user's going through it (`_LABEL_IN_SENTENCE`)."""
    label = marker.group(0)
    if not label.startswith("[") or _ANALYSIS_WORDS.search(label):
        return False
    following = _LABEL_IN_SENTENCE.match(text, marker.start())
    if following is None or not following.group(0)[-1].islower():
        return False
    line_before = text[:marker.start()].rsplit("\n", 1)[-1].rstrip()
    return bool(line_before) and line_before[-1].isalnum()


def strip_used_tools_prefix(text: str) -> tuple[str, str | None]:
    """Split an older n8n agent reply `[Used tools: ...] answer` into (answer, tool evidence).

    The bracket may contain nested brackets and JSON, so the matching `]` is found by depth, skipping
    brackets inside JSON strings. Text without the prefix is returned unchanged with None.
    """
    stripped = text.lstrip()
    if not stripped.startswith("[Used tools:"):
        return text, None
    depth, in_string, escaped = 0, False, False
    for index, char in enumerate(stripped):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return stripped[index + 1 :].lstrip(), stripped[1:index]
    return text, None  # unbalanced: keep the text as said rather than guess


def clean_text(text: str) -> str:
    """The form every text is read, compared and stored in: line and paragraph separators made "\\n", invisible
    characters dropped (`_DROPPED`: controls, invisible format and bidirectional characters, lone surrogates),
    Unicode NFKC (compatibility forms such as full-width letters, ligatures and non-breaking spaces read as the
    plain characters, so look-alike spellings are one text), trimmed. Keeps emoji and all scripts.

    Fast path (same result, `clean_text_slow` is the reference): an ASCII text is already NFKC, and only its C0
    controls and DEL can need cleaning (`_ASCII_NEEDING_CLEANING`, one `bytes.translate` pass); any other text
    without a character to replace or drop (`_NEEDS_CLEANING`) is only normalised and trimmed."""
    if text.isascii():
        encoded = text.encode("ascii")
        if len(encoded.translate(None, _ASCII_NEEDING_CLEANING)) == len(encoded):
            return text.strip()
    elif _NEEDS_CLEANING.search(text) is None:
        return unicodedata.normalize("NFKC", text).strip()
    return clean_text_slow(text)


def clean_text_slow(text: str) -> str:
    """`clean_text` without its fast path: every step on every text (the reference the fast path is tested
    against)."""
    text = _LINE_BREAKS.sub("\n", text)
    text = unicodedata.normalize("NFKC", _DROPPED.sub(lambda match: match.group(1) or "", text))
    if "\u200c" in text or "\u200d" in text:
        # Normalised again: a joiner dropped from between a letter and a combining mark lets them compose.
        text = unicodedata.normalize("NFKC", _LOOSE_JOINERS.sub("", text))
    return text.strip()
