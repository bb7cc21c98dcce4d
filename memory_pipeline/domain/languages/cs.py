"""Czech: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added for issue 25 after
a 1.5B model filed the greeting "Ahoj" as a name and "Díky moc, hezký večer!" (thanks, have a nice evening) as a
liking. No stance words: the gates that reject for a missing one let Czech through to the checks of every
language."""

LEXICON = {
    "companion": r"\b(?:s|se|spolu s)",
    "reported_speech": r"\b(?:řekl|řekla|řekli|říkal|říkala|říká)\s*,?\s*že\b",
    "other_person":
        r"\b(?:můj|moje|má|mí|moji|naše|náš|naši)\s+(?:manžel|manželka|žena|muž|bratr|brácha|sestra|ségra|máma|"
        r"maminka|mamka|táta|tatínek|syn|dcera|kamarád|kamarádka|přítel|přítelkyně|šéf|šéfová|kolega|kolegyně|"
        r"soused|sousedka|rodiče)\b|^\W*(?:on|ona|oni|brácha|ségra|máma|táta|manžel|manželka)\b",
    "self": r"\b(?:já|my|mě|mne|mi|mně|nás|jsem|jsme)\b",
    "conditional": r"^\W*(?:(?:a|ale)\s+)?(?:kdyby|kdybych|kdybychom|jestli|pokud)\b",
    "hedge": r"\b(?:možná|asi|nejspíš|pravděpodobně|nevím jistě|nejsem si jist[áý])\b",
    "assent": r"^\s*(?:ano|jo|jasně|dobře|ok|určitě)\b",
    "undecided": r"\b(?:rozmyslím si to|promyslím to|ještě nevím|zatím nevím|váhám|nejsem rozhodnut[áý]|"
                 r"nevím,?\s+(?:jestli|zda)\s+(?:si\s+)?(?:vzít|vzit|koupit|zvolit|vybrat|mám|mam|bych)|"
                 r"nevím,?\s+(?:který|kterou|které|co\s+vzít)|"
                 r"nemůžu se rozhodnout)\b",
    "living": r"\b(?:bydlím|bydlíme|bydlim|bydlime|žiju|žiji|žijeme|ziju|ziji|zijeme|přestěhoval|prestehoval|bydlel)\w*",
    "naming": r"\b(?:jmenuju se|jmenuji se|jmenuju|jmenuji|říkají mi|rikaji mi|říkej(?:te)? mi|mé jméno je|moje jméno je)\b",
    "forget_nouns": {"name": r"jméno|jmeno|jmenuje(?:š|te)"},
    "weak_naming": r"jsem|tady|u telefonu",  # "Tady Martin" (Martin here), "u telefonu Novák" (Novák speaking)
    "interrogative": r"^\W*(?:co|kde|kdy|proč|kdo|jak|kolik|který|která|které|jaký|jaká|jaké|můžete|můžeš)\b",
    "pleasantry_words": "ahoj díky děkuji děkuju moc dobrý den večer hezký pěkný nashledanou čau zdravím mějte se",
    "clause_joiner": r"\s+(?:a|ale)\s+",
    "decided": r"\b(?:rozhodl\w*|rozhodnut\w*)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"(?:už|uz|již) (?:nemám|nemam) (?:rád|rad|ráda|rada)|(?:už|uz) se mi nelíbí",
    "travel": r"\b(?:výlet\w*|cestova\w*|dovolen\w*|navštív\w*|prázdnin\w*)",
    "origin": r"\b(?:vyrůstal\w*|vyrostl\w*|narodil\w*|pocházím)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*|\bmail\w*",
        "phone": r"\btelefon\w*|\bvolej\w*|\bzavolej\w*",
        "sms": r"\bsms\w*|\besemes\w*",
    },
}
