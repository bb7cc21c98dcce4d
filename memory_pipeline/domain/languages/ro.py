"""Romanian: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 18. Casual chat drops the diacritics ("traiesc", "sa", "daca") or types "ş" and "ţ" with a cedilla: each
word is written once, with its marks, and read in every form (`either`, `with_bare`). The possessive follows the
noun ("sora mea", "maică-mea"). Living words make a Romanian home need one ("locuiesc", "m-am mutat", "acasă") or a
question with one ("Unde locuiți?"). "bună" (hello, good) is no pleasantry word: an opening "Bună!" filed as a
name is told a greeting by its place (domain/gates.py). No naming or stance words."""

from memory_pipeline.domain.languages._letters import either, with_bare

_RELATIVE = (r"(?:soțul|soția|soțului|soției|nevasta|bărbatul|fratele|fratelui|frații|sora|surorii|surorile|mama|"
             r"mamei|maica|tata|tatăl|tatălui|fiul|fiului|fiica|fiicei|copilul|copiii|copiilor|prietenul|prietena|"
             r"prietenii|prietenele|prietenului|prietenei|colegul|colega|colegii|colegele|vecinul|vecina|"
             r"vecinii|părinții|părinților|iubitul|iubita|bunica|bunicul|bunicii|mătușa|unchiul|vărul|vara|socrul|"
             r"soacra|cumnatul|cumnata|nepotul|nepoata|partenerul|partenera)")

LEXICON = {
    # Naming since session 20 (a review's probes): the first person's phrases and the assistant's question.
    "naming": either(r"\b(?:mă numesc|numele meu|mă cheamă|vă numiți|te numești|numele dumneavoastră)\b"),
    "weak_naming": r"sunt",
    "forget_nouns": {"name": either(r"\bnume")},
    "companion": either(r"\b(?:cu|împreună\s+cu|alături\s+de)"),
    # "sora mea", "cu soțul meu", "maică-mea" (my mother, said casually)
    "other_person": either(
        rf"\b{_RELATIVE}\s+(?:meu|mea|mei|mele|nostru|noastră|noștri|noastre)\b"
        r"|\b(?:maică|mamă|soră|frate|taică)-(?:mea|meu|miu|mii)\b"
        r"|^\W*(?:el|ea|ei|ele|dânsul|dânsa|dânșii)\b"),
    "self": either(r"\b(?:eu|noi|mie|mine|mă|îmi|nouă|m-am|ne-am)(?![\w-])"),
    "conditional": either(r"^\W*(?:(?:și|dar|iar)\s+)?(?:dacă\b|dac-|de-aș\b|de-am\b|în\s+caz\s+că\b|"
                          r"în\s+cazul\s+în\s+care\b)|^\W*(?:poate|probabil|posibil)\s*,"),
    "hedge": either(r"\b(?:poate|probabil|posibil|nu\s+sunt\s+(?:prea\s+)?sigur\w*|nu\s+știu\s+(?:încă\s+)?dacă)\b"),
    "undecided": either(
        r"\b(?:(?:o\s+să\s+|să\s+|trebuie\s+să\s+)?mă\s+(?:mai\s+)?gândesc|mă\s+voi\s+(?:mai\s+)?gândi|"
        r"mai\s+am\s+de\s+gândit|mă\s+mai\s+consult|"
        r"(?:încă\s+)?(?:nu|n-)\s*(?:m-am|ne-am|am)\s+(?:hotărât|decis)|sunt\s+indecis\w*|ezit|șovăi|"
        r"nu\s+(?:mă|ne)\s+pot(?:em)?\s+(?:decide|hotărî)|nu\s+pot\s+să\s+(?:mă\s+hotărăsc|decid)|"
        r"(?:o\s+să|voi)\s+decide?|decid\s+mai\s+târziu|(?:vă|te)\s+anunț|(?:o\s+să\s+)?revin\s+(?:eu|cu)|"
        r"încă\s+nu\s+știu|nu\s+știu\s+încă)\b"),
    "living": either(
        r"\b(?:locui(?:esc|m|ești|ți|am|ai|ați)|am\s+locuit|trăi(?:esc|m|ești|ți)|am\s+trăit|"
        r"st(?:au|ăm)\s+în|unde\s+st(?:ai|ați)|(?:m-am|ne-am|te-ai|v-ați)\s+mutat|mă\s+mut|ne\s+mutăm|"
        r"mă\s+voi\s+muta|ne\s+vom\s+muta|"
        r"acasă|(?:casa|locuința)\s+(?:mea|noastră)|apartamentul\s+(?:meu|nostru)|"
        r"adresa\s+(?:mea|noastră)|noua\s+(?:mea\s+|noastră\s+)?adresă|domiciliul\s+(?:meu|nostru))\b"),
    "interrogative": either(
        r"^\W*(?:ce|unde|când|cum|cine|care|cât|câtă|câți|câte|de\s+ce|încotro|oare|puteți|poți|aveți|ai|"
        r"există|este|e|sunteți|ești|se\s+poate|(?:mă|îmi|ne)\s+(?:puteți|poți)|mi-ați|știți|știi|vreți|vrei|voi|tu|"
        r"dumneavoastră|mai\s+(?:aveți|ai)"
        # ... or a verb said to "you" ("Livrați și sâmbăta?", "Lucrezi mâine?")
        r"|[^\W\d_]+(?:eți|ați|iți|îți|ești|ezi))\b"),
    "pleasantry_words": with_bare("mulțumesc mulțumim mersi mersic mult frumos salut salutare servus pa ok okay "
                                  "bine la revedere numai"),
    "clause_joiner": either(r"\s+(?:și|dar|iar|însă)\s+"),
    "assent": either(r"^\s*(?:da(?=\s*[,.!]|\s*$|\s+(?:sigur|desigur|vă\s+rog|te\s+rog))|sigur|desigur|bine|okay|ok|de\s+acord|s-a\s+făcut|fă-o|faceți\s+asta|"
                     r"sună\s+bine)"),
    "decided": either(r"\b(?:am\s+decis|am\s+hotărât|(?:m|ne)-am\s+(?:hotărât|decis)|am\s+luat\s+decizia|"
                      r"(?:e|este|s-a)\s+decis|am\s+ales|am\s+optat)\b"),
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bnu[- ]mi mai place\b|\bnu mai (?:iubesc|plac)\b",
    "travel": r"\b(?:călători\w*|calatori\w*|excursi\w*|vacanț\w*|vacant\w*|concediu\w*|vizit\w*)",
    "origin": r"\b(?:am crescut|m-am născut|născut|nascut|originar)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*|\bmail\w*",
        "phone": r"\btelefon\w*|\bsuna\w*|\bsunați\w*|\bsunati\w*",
        "sms": r"\bsms\w*|\bmesaj\w*",
    },
}
