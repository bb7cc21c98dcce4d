"""Greek: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living words but no naming or
stance words: the gates that reject for a missing one let Greek through to the checks of every language. Words are
written with their accents and read without them too (`either`: "μενω Θεσσαλονικη", session 19's unseen set)."""

from memory_pipeline.domain.languages._letters import either, with_bare

_LEXICON = {
    "companion": r"(?:\bμε|\bμαζί με)(?:\s+(?:τον|την|τη|το|τους|τις|τα))?",  # "με τον συνάδελφό μου"
    "reported_speech": r"\b(?:είπε ότι|λέει ότι|μου είπε)\b",
    # The possessive follows the noun: "ο άντρας μου" is "my husband". A noun stressed three syllables from its end
    # takes a second accent before it ("ο συνάδελφός μου", holdout set 10; "η σύζυγός μου").
    "other_person":
        r"\b(?:άντρας|σύζυγος|σύζυγό|σύζυγός|γυναίκα|αδερφός|αδελφός|αδερφή|αδελφή|μητέρα|μαμά|πατέρας|μπαμπάς|"
        r"γιος|κόρη|παιδιά|φίλος|φίλη|φίλοι|αφεντικό|συνάδελφος|συνάδελφός|συνάδελφοι|συνάδελφοί|συνάδελφο|"
        r"συνάδελφό|γείτονας|γείτονάς|σύντροφος|σύντροφός|ξάδερφος|ξάδερφός|ξαδέρφη|γονείς|"
        # More relatives and people close by (a break-it review), as subjects (an object, "στον θείο μου", is
        # where the user is), with the second accent a noun stressed on its third-last syllable takes before
        # "μου" ("προϊστάμενός μου").
        r"θείος|θεία|γιαγιά|παππούς|κοπέλα|αγόρι|αρραβωνιαστικός|αρραβωνιαστικιά|προϊστάμενος|προϊστάμενός|"
        r"προϊσταμένη|συγκάτοικος|συγκάτοικός|κουνιάδος|κουνιάδα|ανιψιός|ανιψιά|πεθερός|πεθερά)\s+μου\b"
        r"|^\W*(?:αυτός|αυτή|αυτοί)\b",
    "self": r"\b(?:εγώ|εμείς|είμαστε)\b",  # "Εγώ και ο συνάδελφός μου είμαστε χορτοφάγοι": we are
    "conditional": r"^\W*(?:(?:και|αλλά)\s+)?(?:αν|εάν|άμα)\b",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:και|αλλά)\s+)?(?:αν|εάν|άμα)\s+(?:χρειαστ\w*|χρειάζεστε|χρειαζεστε|θέλετε\s+να\s+με\s+\w+|θελετε\s+να\s+με\s+\w+)",
    "hedge": r"\b(?:ίσως|μάλλον|πιθανόν|δεν είμαι σίγουρ[οηα]ς?)\b",
    "assent": r"^\s*(?:ναι|εντάξει|βεβαίως|φυσικά)(?!\w)",
    "undecided": r"\b(?:θα το σκεφτώ|το σκέφτομαι|δεν έχω αποφασίσει|διστάζω ανάμεσα|θα αποφασίσω)\b",
    "living": r"\b(?:μένω|μένουμε|ζω|ζούμε|κατοικώ|μετακόμισα|μετακομίσαμε|σπίτι μου)\b",
    "interrogative": r"^\W*(?:τι|πού|πότε|γιατί|ποιος|ποια|ποιο|πώς|πόσο|πόσα|μπορείτε|μπορείς)\b",
    "pleasantry_words": "ευχαριστώ πολύ γεια σας σου καλημέρα καλησπέρα αντίο",
    "clause_joiner": r"\s+(?:και|αλλά|ενώ)\s+",
    "decided": r"(?:αποφάσισα|αποφασίσαμε)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"δεν μου αρέσ\w* πια|πλέον δεν μου αρέσ",
    "travel": r"ταξίδ\w*|διακοπ\w*|εκδρομ\w*|επίσκεψ\w*",
    "origin": r"μεγάλωσα|γεννήθηκα|κατάγομαι",
    "channel_names": {
        "email": r"ηλεκτρονικ\w+ ταχυδρομ\w+|μέιλ|μειλ",
        "phone": r"τηλέφων\w*",  # `either` reads it without its accent too
        "viber": r"βάιμπερ",
    },
}

LEXICON = {kind: with_bare(entry) if kind == "pleasantry_words" else
           {key: either(source) for key, source in entry.items()} if isinstance(entry, dict) else either(entry)
           for kind, entry in _LEXICON.items()}
