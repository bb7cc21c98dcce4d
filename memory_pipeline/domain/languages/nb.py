"""Norwegian Bokmål: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living words but
no naming or stance words: the gates that reject for a missing one let Norwegian through to the checks of every
language. Read with Danish (`READ_WITH`): a short line scores both nearly alike."""

READ_WITH = ("da",)

LEXICON = {
    # Mock enthusiasm, as English "yeah right" and loving an ordeal ("jada, jeg elsker virkelig å sitte hjemme og
    # vente hele dagen på en bil som aldri kommer": a 1.5B model's liking, holdout4).
    "sarcasm": r"^\W*jada\b|\belsker\s+(?:\w+\s+){0,2}å\s+(?:\w+\s+){0,4}(?:vente|venter|stå\s+i\s+kø|kø)\b",
    "companion": r"\b(?:med|sammen med)",
    "reported_speech": r"\b(?:sa at|sier at|fortalte at|fortalte meg at)\b",
    # The possessive comes before the noun or, more often in speech, after it in the definite form
    # ("min søster", "søsteren min").
    "other_person":
        r"\b(?:min|mi|mitt|mine|vår|vårt|våre)\s+(?:mann|kone|samboer|kjæreste|bror|søster|mor|mamma|far|pappa|"
        r"sønn|datter|barn|venn|venninne|venner|kompis|sjef|kollega|kolleger|kollegaer|nabo|naboer|foreldre|"
        r"fetter|kusine|onkel|tante|bestemor|bestefar)\b"
        r"|\b(?:mannen|kona|kjæresten|samboeren|broren|søsteren|søstera|moren|mora|faren|sønnen|datteren|dattera|"
        r"vennen|venninnen|venninna|vennene|kompisen|sjefen|kollegaen|naboen|foreldrene|barna|fetteren|kusinen|"
        r"onkelen|tanten)\s+(?:min|mi|mitt|mine|vår|vårt|våre)\b"
        r"|^\W*(?:han|hun)\b",
    "self": r"\b(?:jeg|vi|meg|oss)\b",
    "conditional": r"^\W*(?:(?:og|men)\s+)?(?:hvis|dersom|om jeg|om vi)\b",
    "hedge": r"\b(?:kanskje|antakelig|antageligvis|sannsynligvis|trolig|ikke sikker|usikker)\b",
    "assent": r"^\s*(?:ja|gjerne|ok|greit|gjør det)\b",
    "undecided": r"\b(?:(?:skal|må|får|vil)\s+tenke\s+(?:litt\s+)?(?:på|over)\s+det|tenker på det|"
                 r"har ikke bestemt meg|ikke bestemt meg ennå|bestemmer meg senere|nøler mellom|vakler mellom|"
                 r"er i tvil)\b",
    "living": r"\b(?:bor|bodd|bodde|flyttet|flytta|flytter|hjemme|hjem)\b",
    "interrogative": r"^\W*(?:hva|hvor|når|hvorfor|hvem|hvilken|hvilket|hvilke|hvordan|kan|kommer|finnes|er|har|"
                     r"vil|skal)\b",
    "pleasantry_words": "takk tusen så mye for hjelpen hei hallo ha det bra god morgen kveld supert flott topp skal du",
    "clause_joiner": r"\s+(?:og|men|mens)\s+",
    "decided": r"\b(?:bestemt meg|besluttet)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bliker\b[^.!?]{0,30}\bikke (?:lenger|mer)\b",
    "travel": r"\b(?:reise\w*|ferie\w*|besøk\w*|utflukt\w*)\b",
    "origin": r"\b(?:vokste opp|oppvokst|født)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?post\w*|\bepost\w*|\be-?mail\w*|\bmail\w*",
        "phone": r"\btelefon\w*|\bring\b|\bringe\w*",
        "sms": r"\bsms\w*|\btekstmelding\w*",
    },
}
