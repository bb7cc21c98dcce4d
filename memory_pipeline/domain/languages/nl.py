"""Dutch: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living and stance words but
no naming words: the naming gate lets Dutch through to the checks of every language."""

LEXICON = {
    # Naming since session 20: the first person's phrases and the assistant's question ("Hoe heet u?").
    "naming": r"\b(?:ik heet|mijn naam|noem me|hoe heet je|hoe heet u|uw naam|je naam)\b",
    "weak_naming": r"ik ben",
    "forget_nouns": {"name": r"\bnaam\b"},
    "companion": r"\b(?:met|samen met)",
    "reported_speech": r"\b(?:zei dat|zegt dat|vertelde dat|heeft gezegd)\b",
    "other_person":
        r"\b(?:mijn|onze|ons)\s+(?:man|vrouw|partner|broer|zus|zussen|moeder|vader|mama|papa|zoon|dochter|"
        r"kinderen|vriend|vriendin|vrienden|baas|collega|collega's|buurman|buurvrouw|buren|ouders|neef|nicht)\b"
        r"|^\W*(?:hij|zij)\b",
    "self": r"\b(?:ik|wij|we|mij|me|ons)\b",
    "conditional": r"^\W*(?:(?:en|maar)\s+)?(?:als|indien|stel dat)\b",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:en|maar)\s+)?(?:als|indien)\s+(?:(?:u|je|jij)\s+mij\s+(?:\w+\s+)?(?:moet|wilt|wil)\s+(?:bereiken|contacteren|bellen)|(?:u|je)\s+iets\s+nodig\s+hebt|er\s+iets\s+is)",
    "hedge": r"\b(?:misschien|waarschijnlijk|wellicht|niet zeker|weet niet of)\b",
    "assent": r"^\s*(?:ja|prima|graag|akkoord|oké|ok|doe maar|doe dat)\b",
    "undecided": r"\b(?:denk er(?: nog)? over na|ga erover nadenken|ik twijfel|twijfel tussen|nog niet besloten|"
                 r"beslis later|beslis volgende week)\b",
    "living": r"\b(?:woon|woont|wonen|verhuisd|verhuizen|thuis)\b",
    # Stance words since session 20: a 1.5B model read "heb de bon niet meer denk ik" (I don't have the receipt any
    # more, I think) as a dislike of the receipt.
    "stance": r"\b(?:hou van|houd van|dol op|gek op|fan van|lekker|leuk|haat|hekel|lust(?:en)?\b|favoriet|liever|kan niet tegen|vies)",
    "interrogative": r"^\W*(?:wat|waar|wanneer|waarom|wie|welke|welk|hoe|hoeveel|kan|kunt|kunnen|is|zijn|heeft)\b",
    "pleasantry_words": "bedankt dank je wel hoi hallo doei tot ziens",
    "one_off": r"\b(?:alleen|enkel)\s+(?:deze|dit)\s+keer\b|\bvoor\s+deze\s+keer\b",
    "former": r"\bvroeger\b|\bvoorheen\b|\beerder\b",
    "desire": r"\b(?:wil|willen|zou\s+graag|droom\s+ervan|overweeg)\b",
    "clause_joiner": r"\s+(?:en|maar|terwijl)\s+",
    "decided": r"\b(?:besloten|besluit genomen)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bniet meer (?:leuk|lekker)\b|\bhou\b[^.!?]{0,30}\bniet meer\b",
    "travel": r"\b(?:reis|reizen|reisje|vakantie|bezoek\w*|uitstapje|trip|tripje)\b",
    "origin": r"\b(?:opgegroeid|geboren|afkomstig)\b",
    "channel_names": {
        "email": r"\b(?:e-?)?mail\b",
        "phone": r"\btelefo\w+|\bbel(?:len|t)?\b|\bopbellen\b",
        "sms": r"\bsms\w*",
        "whatsapp": r"\bappen\b|\bappje\b",
    },
    "negation": r"\b(?:niet|geen|nooit)\b",
}
