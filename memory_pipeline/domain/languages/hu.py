"""Hungarian: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 19: a 1.5B model filed "a barátnőm Zsófi is jön, ő kicsit tériszonyos" (my girlfriend Zsófi comes too, she
is a bit afraid of heights) as the user's dislike of Zsófi, and no Hungarian word was known. Hungarian says "my"
with a suffix ("barátnőm", "feleségem", "anyám"), then adds case endings ("barátnőmmel"): a relative is its
possessed form as a word start. "Gergő vagyok" (I am Gergő) names a name after it (`weak_naming_after`). Stance
words make a Hungarian opinion need one ("szeretem", "imádom", "utálom", "kedvenc")."""

LEXICON = {
    "companion": r"\b(?:velem|veled|vele|velünk)\b",
    "other_person":
        r"\b(?:feleségem|férjem|anyám|anyukám|apám|apukám|fiam|lányom|testvérem|bátyám|öcsém|nővérem|húgom|"
        r"barátom|barátnőm|párom|kollégám|főnököm|szomszédom|gyerekem|gyerekeim|gyermekem|unokám|nagymamám|"
        r"nagypapám|szüleim|barátaim)\w*"
        r"|^\W*(?:ő|ők|öt|őt)\b",
    "self": r"\b(?:én|engem|nekem|velem|tőlem|mi|minket|nekünk|vagyok|vagyunk)\b",
    "conditional": r"^\W*(?:(?:és|de)\s+)?(?:ha|hogyha|amennyiben)\b",
    "hedge": r"\b(?:talán|valószínűleg|lehet,?\s+hogy|nem\s+vagyok\s+biztos|még\s+nem\s+tudom)\b",
    "undecided": r"\b(?:még\s+gondolkod(?:om|unk)|gondolkod(?:om|unk)\s+rajta|átgondol(?:om|juk)|majd\s+meglátjuk|"
                 r"még\s+nem\s+döntöttem|még\s+nem\s+döntöttünk|nem\s+tudok\s+dönteni|majd\s+szólok|"
                 r"majd\s+jelentkezem)\b",
    "naming": r"\b(?:a\s+nevem|nevem|hívnak|szólíts)",
    "weak_naming_after": r"vagyok",
    "forget_nouns": {"name": r"nevem|nevemet", "email": r"e-?mail\w*", "phone_number": r"telefonszám\w*"},
    "living": r"\b(?:lak(?:om|unk|tam|tunk)|él(?:ek|ünk)|költöz(?:tem|tünk|öm|ünk|ködtem|ködtünk)\w*|otthon\w*|"
              r"lakásom\w*|lakásunk\w*|házunk\w*|címem\w*)\b",
    "interrogative": r"^\W*(?:mi|mit|mikor|hol|hová|hova|honnan|miért|ki|kit|kinek|hogyan|milyen|mennyi|mennyibe|"
                     r"melyik|tudna|tudnál|tudnátok|lehetne)\b",
    "stance": r"\b(?:szeret|imád|utál|gyűlöl|kedvenc|nem\s+bírom|jobban\s+szeret)",
    "pleasantry_words": "köszönöm köszi kösz köszönjük szépen nagyon szia sziasztok helló hello üdv jó napot "
                        "reggelt estét oké ok rendben szuper király",
    "clause_joiner": r"\s+(?:és|de|meg|viszont|azonban)\s+",
    "assent": r"^\s*(?:igen|jó|oké|ok|rendben|persze|mehet|legyen|csináld|naná)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bm[áa]r nem szeret\w*",
    "travel": r"\b(?:utaz\w*|kirándul\w*|nyaral\w*|látogat\w*)",
    "origin": r"\b(?:nőttem fel|születtem|származom|szarmazom)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*|\bimél\w*",
        "phone": r"\btelefon\w*|\bhívj\w*|\bhívjon\w*",
        "sms": r"\bsms\w*",
    },
}
