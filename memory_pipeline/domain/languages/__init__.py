"""Language knowledge as data: one module per language, named by its ISO 639-1 code, each with a `LEXICON` dict
(kind -> regular expression, word list or slot table) and optionally `TEXT_SEARCH` (its PostgreSQL text search
configuration). domain/lexicon.py reads every module here and says what each kind means: adding a language is
adding a module."""
