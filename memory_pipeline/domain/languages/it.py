"""Italian: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). No naming, living or
stance words yet: the gates that reject for a missing one let Italian through to the checks of every language."""

LEXICON = {
    # Mock enthusiasm: a delight opener before loving an ordeal ("Ah benissimo, adoro proprio stare 12 giorni senza
    # lavatrice": a 1.5B model's liking of the washing machine, holdout7), as English "oh great, I just love ...".
    "sarcasm": r"^\W*(?:(?:ah|oh)\s*,?\s*)?(?:benissimo|perfetto|fantastico|ottimo|grandioso)\b.*\badoro\b"
               r"|\badoro\s+(?:proprio\s+)?(?:\w+\s+){0,3}(?:senza|aspettare|attesa|in coda|ritardi?)\b",
    # Naming since session 20 (a review's probes: "il mio cane si chiama rex" filed as the user's name): the first
    # person's phrases and the assistant's question for a name.
    "naming": r"\b(?:mi chiamo|il mio nome|chiamami|chiamatemi|ti chiami|si chiama lei|vi chiamate|nome e cognome)\b",
    "weak_naming": r"sono",
    "forget_nouns": {"name": r"\bnom[ei]\b"},
    "companion": r"\b(?:con|insieme a)",
    "reported_speech": r"\b(?:ha detto|dice che|diceva|mi ha detto)\b",
    "self_report": r"\bcome (?:ti )?ho (?:già )?detto\b",
    "other_person":
        r"\b(?:mio|mia|miei|mie|nostro|nostra|nostri|nostre)\s+(?:amic[oaie]|moglie|marito|fratell[oi]|"
        r"sorell[ae]|madre|padre|mamma|papà|figli[oae]?|capo|collega|colleghi|vicin[oaie]|cugin[oaie]|ragazz[oa]|"
        r"fidanzat[oa]|genitori|suocer[oa]|suoceri|cognat[oa]|cognati|nonn[oai]|zi[oa]|zii|nipot[ei])\b|^\W*(?:lui|lei|loro)\b",
    "self": r"\b(?:io|noi)\b",
    "kidding": r"\b(?:sto scherzando|scherzo|scherzavo|era uno scherzo)\b",
    "conditional": r"^\W*(?:(?:e|ma)\s+)?se\b(?!,)",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:e|ma)\s+)?se\s+(?:(?:deve|devi|vuole|vuoi|ha bisogno di|hai bisogno di)\s+(?:contattarmi|raggiungermi|chiamarmi|scrivermi)|(?:ha|hai|avete)\s+bisogno\b|serve\s+qualcosa|c\'è\s+bisogno)",
    "hedge": r"\b(?:forse|magari|probabilmente|non sono sicur[oa]|chissà)\b",
    "assent": r"^\s*(?:sì|certo|va bene|d\'accordo|ok|procedi|fallo)\b",
    "undecided": r"\b(?:ci penserò|ci penso|ci devo pensare|devo pensarci|ci voglio pensare|sono indecis[oa]|"
                 r"esito tra|non ho ancora deciso|deciderò|sto valutando|stiamo valutando|non riesco a decidere)\b",
    "moving_away": r"\b(?:continuano a (?:arrivare|essere)|arrivano ancora)\b",
    "away_from": r"\b(?:invece di|anziché|piuttosto che)\s+",
    "wanted": r"\b(?:ci servono|ci serve|mi serve|mi servono|abbiamo bisogno|ho bisogno|voglio|vogliamo|"
              r"d'ora in poi|da ora in poi)\b",
    "interrogative": r"^\W*(?:cosa|che cosa|dove|quando|perché|chi|quale|quali|come|quanto|quanta|quanti|quante|"
                     r"puoi|può|potresti)\b",
    "request": r"^\W*(?:puoi|potresti|può|potrebbe)\b",
    "standing": r"\b(?:d'ora in poi|da ora in poi|sempre|in futuro)\b",
    "pleasantry_words": "grazie mille ciao buongiorno buonasera salve arrivederci prego",
    "filler_words": "beh allora cioè boh",
    "question_tail": r"^\W*(?:o|oppure|vero|giusto)\b",
    "one_off": r"\b(?:solo|soltanto)\s+(?:per\s+)?questa\s+volta\b|\bper\s+questa\s+volta\b",
    "former": r"\bprima\b|\buna volta\b|\bin passato\b",
    "desire": r"\b(?:voglio|vorrei|vorremmo|sogno\s+di|penso\s+di|sto\s+pensando\s+di)\b",
    "clause_joiner": r"\s+(?:e|ma|mentre)\s+",
    "decided": r"\b(?:deciso|decisa|decisi)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bnon mi piac\w+ più\b(?!\s+di\s+tanto)|\bnon (?:\w+\s+)?(?:amo|adoro)\s+più\b",
    "travel": r"\b(?:viaggi\w*|vacanz\w*|visita\w*|visitare|gita|escursione|ferie)\b",
    "origin": r"\b(?:cresciut[oaie]|nat[oaie]|originari[oa])\b",
    "channel_names": {
        "email": r"\b(?:e-?)?mail\b|\bposta elettronica\b",
        "phone": r"\btelefono\b|\btelefonat\w+",
        "sms": r"\bsms\b",
    },
    "negation": r"\b(?:non|mai)\b",
}
