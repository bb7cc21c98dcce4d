"""Swedish: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living and stance words
but no naming words: the naming gate lets Swedish through to the checks of every language. Stance words since
session 20: a 1.5B model read "premium låter nice men bas kanske räcker" (premium sounds nice but basic may do)
as a dislike of premium."""

LEXICON = {
    # Naming since session 20: the first person's phrases and the assistant's question ("Vad heter du?").
    "naming": r"\b(?:jag heter|mitt namn|heter du|heter ni|ditt namn|ert namn)\b",
    "weak_naming": r"jag är",
    "forget_nouns": {"name": r"\bnamn"},
    # Mock enthusiasm: loving an ordeal ("jag älskar verkligen att vänta hela dagen"), as in Norwegian and English.
    "sarcasm": r"\bälskar\s+(?:\w+\s+){0,2}att\s+(?:\w+\s+){0,4}(?:vänta|väntar|stå\s+i\s+kö|köa)\b",
    "companion": r"\b(?:med|tillsammans med)",
    "reported_speech": r"\b(?:sa att|sade att|säger att|berättade att)\b",
    "other_person":
        r"\b(?:min|mitt|mina|vår|vårt|våra)\s+(?:man|fru|make|maka|sambo|bror|syster|mamma|pappa|mor|far|son|"
        r"dotter|barn|vän|väninna|vänner|kompis|chef|kollega|kollegor|granne|grannar|pojkvän|flickvän|"
        r"föräldrar|kusin)\b|^\W*(?:han|hon)\b",
    "self": r"\b(?:jag|vi|mig|oss)\b",
    "conditional": r"^\W*(?:(?:och|men)\s+)?(?:om jag|om vi|ifall)\b",
    "hedge": r"\b(?:kanske|förmodligen|troligen|inte säker|osäker)\b",
    "assent": r"^\s*(?:ja|gärna|okej|ok|absolut|gör det)\b",
    "undecided": r"\b(?:ska fundera|funderar på|får fundera|har inte bestämt|bestämmer mig senare|velar mellan|"
                 r"tvekar mellan|vet inte riktigt)\b",
    "living": r"\b(?:bor|flyttade|flyttat|flyttar|hemma)\b",
    "stance": r"\b(?:gillar|gilla|älskar|avskyr|hatar|föredrar|favorit|tycker om|tycker inte om|tål inte|står inte ut)",
    "interrogative": r"^\W*(?:vad|var|när|varför|vem|vilken|vilket|vilka|hur|kan|kommer|finns)\b",
    "pleasantry_words": "tack så mycket hej hejdå god morgon",
    "clause_joiner": r"\s+(?:och|men|medan)\s+",
    "decided": r"\b(?:bestämt|bestämde|beslutat|beslutade)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bgillar\b[^.!?]{0,30}\binte (?:längre|mer)\b|\binte längre (?:gillar|tycker om)\b",
    "travel": r"\b(?:resa|resor|semester\w*|besök\w*|utflykt\w*|roadtrip)\b",
    "origin": r"\b(?:växte upp|uppvuxen|född|kommer ursprungligen)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\bmejl\w*|\be-?post\w*|\be-?mail\w*",
        "phone": r"\btelefon\w*|\bring\b|\bringa\w*",
        "sms": r"\bsms\w*|\bsms:a\w*",
    },
}
