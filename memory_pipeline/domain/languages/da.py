"""Danish: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living words but no naming
or stance words: the gates that reject for a missing one let Danish through to the checks of every language. Read
with Norwegian Bokmål (`READ_WITH`): a short line scores both nearly alike."""

READ_WITH = ("nb",)

LEXICON = {
    # Mock enthusiasm: loving an ordeal ("jeg elsker bare at vente i kø"), as in Norwegian and English.
    "sarcasm": r"\belsker\s+(?:\w+\s+){0,2}at\s+(?:\w+\s+){0,4}(?:vente|venter|stå\s+i\s+kø|kø)\b",
    "companion": r"\b(?:med|sammen med)",
    "reported_speech": r"\b(?:sagde at|siger at|fortalte at|fortalte mig at)\b",
    "other_person":
        r"\b(?:min|mit|mine|vores)\s+(?:mand|kone|hustru|kæreste|bror|søster|mor|far|søn|datter|barn|børn|ven|"
        r"veninde|venner|chef|kollega|kolleger|nabo|naboer|forældre|fætter|kusine|onkel|tante|moster|faster|"
        r"morbror|farbror|bedstemor|bedstefar)\b|^\W*(?:han|hun)\b",
    "self": r"\b(?:jeg|vi|mig|os)\b",
    "conditional": r"^\W*(?:(?:og|men)\s+)?(?:hvis|dersom|om jeg|om vi)\b",
    "hedge": r"\b(?:måske|sandsynligvis|formentlig|nok ikke|ikke sikker|usikker)\b",
    "assent": r"^\s*(?:ja|gerne|ok|fint|gør det)\b",
    "undecided": r"\b(?:(?:skal|må|vil)\s+(?:lige\s+)?tænke\s+(?:lidt\s+)?over\s+det|tænker over det|"
                 r"har ikke besluttet mig|har ikke bestemt mig|bestemmer mig senere|beslutter mig senere|"
                 r"tøver mellem|er i tvivl|er i vildrede)\b",
    "living": r"\b(?:bor|boet|boede|flyttede|flyttet|flytter|hjemme|hjem)\b",
    "interrogative": r"^\W*(?:hvad|hvor|hvornår|hvorfor|hvem|hvilken|hvilket|hvilke|hvordan|kan|kommer|findes|er|"
                     r"har|vil|skal)\b",
    "pleasantry_words": "tak skønt dejligt mange så meget for hjælpen hej hejsa farvel god morgen aften dag skal du "
                        "have",
    "clause_joiner": r"\s+(?:og|men|mens)\s+",
    "decided": r"\b(?:besluttet|bestemt mig)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bkan\b[^.!?]{0,20}\bikke (?:længere|mere) lide\b|\bkan ikke lide\b[^.!?]{0,30}\b(?:længere|mere)\b",
    "travel": r"\b(?:rejse\w*|ferie\w*|besøg\w*|udflugt\w*)\b",
    "origin": r"\b(?:voksede op|opvokset|født)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*|\bmail\w*",
        "phone": r"\btelefon\w*|\bring\b|\bringe\w*",
        "sms": r"\bsms\w*",
    },
}
