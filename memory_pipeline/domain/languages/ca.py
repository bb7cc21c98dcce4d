"""Catalan: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 23: a short Catalan line alone is told as Romanian or Spanish ("Visc a Girona, al barri de Montilivi.",
holdout set 11), so a chat's Catalan is read with its words, and with Spanish ones (`READ_WITH`: Catalan chats
mix in Spanish lines, "mi hermana es vegana")."""

READ_WITH = ("es",)

LEXICON = {
    "companion": r"\b(?:amb|juntament amb)",
    "reported_speech": r"\b(?:va dir|diu que|em va dir|m'ha dit)\b",
    # The possessive before the noun: "la meva germana" (my sister), "el meu marit" (my husband).
    "other_person":
        r"\b(?:el meu|la meva|els meus|les meves|el nostre|la nostra)\s+(?:amic|amiga|amics|amigues|dona|marit|"
        r"parella|germà|germana|germans|mare|pare|fill|filla|fills|cap|xicot|xicota|company|companya|veí|veïna|"
        r"cosí|cosina|sogre|sogra|avi|àvia|oncle|tia)\b|^\W*(?:ell|ella|ells|elles)\b",
    "self": r"\b(?:jo|nosaltres)\b",
    "conditional": r"^\W*(?:(?:i|però)\s+)?si\b(?!,)",
    "hedge": r"\b(?:potser|tal vegada|no n'estic segur|no n'estic segura|segurament)\b",
    "assent": r"^\s*(?:sí|d'acord|endavant|perfecte|val|fes-ho|molt bé)(?!\w)",
    "undecided": r"\b(?:m'ho pensaré|m'ho rumiaré|dubto entre|encara no he decidit|ja ho decidiré|ja t'ho diré)\b",
    "interrogative": r"^\W*(?:on|què|quan|com|per què|qui|quin|quina|quants|quantes|pots|podeu|podríeu)\b",
    "request": r"^\W*(?:pots|podeu|podries|podríeu)\b",
    "standing": r"\b(?:a partir d'ara|d'ara endavant|sempre)\b",
    "pleasantry_words": "gràcies moltes merci bon dia bona tarda nit hola adéu fins aviat",
    "clause_joiner": r"\s+(?:i|però)\s+",
    "naming": r"\b(?:em dic|el meu nom és|em diuen|digue'm|digueu-me)\b",
    "living": r"\b(?:visc|vivim|viu|resideixo|m'he mudat|ens hem mudat|em mudo|ens mudem|a casa meva|el meu pis)\b",
    "stance": r"\b(?:m'agrad|m'encant|odi|detest|prefereix|preferit|preferida)",
    "decided": r"\b(?:he decidit|hem decidit|m'he decidit)\b",
    "travel": r"\b(?:viatge\w*|viatjar|vacances|visita\w*|visitar|excursió|escapada)\b",
    "origin": r"\b(?:vaig créixer|vaig néixer|sóc de|originari|originària)\b",
    "negation": r"\b(?:no|mai|gens)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\bcorreu\w*|\be-?mail\w*",
        "phone": r"\btel[eè]fon\w*|\btruca\w*|\bmòbil\w*",
        "sms": r"\bsms\w*|\bmissatge\w*",
    },
}
