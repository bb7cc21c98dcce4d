"""Tagalog (Filipino), and Taglish as it is typed in chat: what the gates and the speech-act reader know of it, by kind
(the kinds: domain/lexicon.py). Added in session 22: until then a Tagalog line was read as English or with no words at
all. Chat writes it in lower case, with "po"/"opo" for politeness, English words mixed in ("nurse ako sa Makati", "hate
ko yung traffic") and letters dropped ("d ko alam", "pano", "san"); English's words read it too (`lexicon.codes_for`).
The possessive follows the noun ("anak ko", "asawa ko": my child, my spouse): "ko" is a self word ("ako", "kami",
"tayo") only after a word of liking or "di" ("mahal ko ang asawa ko", "di ko gusto"), never alone. Hearsay "daw"
makes a sentence someone else's words (`reported_speech`). "kapag"/"pag" (when, whenever, if) opens no condition:
a habit is said so ("Kapag gabi, nagtatrabaho ako"); "pag-iisipan ko" (I'll think about it) is a choice put off. Naming ("ako si", "pangalan ko"), living ("nakatira ako",
"lumipat kami", "taga-Cebu") and stance words ("gusto", "ayoko", "paborito"), so a Tagalog name, home or liking needs
one. "po" is a pleasantry word ("salamat po"); "opo" (yes, politely) and "sige" are fillers, not pleasantries: alone
they accept an offer ("opo", "sige po")."""

# A relative, friend or colleague, before the possessive that follows it ("anak ko", "kapatid kong si Ana",
# "asawa niya").
_RELATIVE = (r"(?:anak|asawa|kapatid|nanay|inay|tatay|itay|mama|mami|mommy|mom|papa|papi|daddy|dad|ina|ama|"
             r"magulang|parents|pamilya|kaibigan|friend|bestfriend|best\s+friend|bff|barkada|boss|amo|katrabaho|"
             r"ka-?trabaho|officemate|ka-?officemate|kasamahan|kaklase|classmate|kapitbahay|roommate|misis|mister|"
             r"hubby|wifey|ate|kuya|bunso|lola|lolo|tita|tito|tiya|tiyo|pinsan|jowa|syota|bf|gf|boyfriend|"
             r"girlfriend|partner|biyenan|byenan|manugang|bayaw|hipag|pamangkin|apo|supervisor|manager|kumare|"
             r"kumpare|ninang|ninong|inaanak)")
# Said after a yes, it takes it back: "sige po, pero next month na lang" (OK, but next month), "oo, pag-iisipan ko
# muna" (yes, I'll think about it first), "sige, check ko muna".
_NOT_AFTER_ASSENT = (r"(?![^.!?]{0,40}?\b(?:pero|kaso|kaya\s+lang|mamaya|saka\s+na|next\s+time|later|hindi|di|"
                     r"huwag|wag|ayaw|ayoko|isip\w*|iisip\w*|pag-?\s*iisip\w*|muna|but|no|not|nah)\b)")
_ALONE = r"(?=\s*(?:po|na|na\s+po|naman)?\s*(?:[,.!]|$))"  # followed by nothing but a particle

LEXICON = {
    # "ako si Maria", "ang pangalan ko ay Jose", "name ko is ...", "tawagin niyo akong Jun"; and the assistant's
    # question ("Ano po ang pangalan niyo?").
    "naming": r"\b(?:ako\s+(?:po\s+)?si|(?:ang\s+)?pangalan\s+ko|name\s+ko|"
              r"tawagin\s+(?:mo|niyo|nyo|ninyo)\s+(?:(?:po|na|lang)\s+){0,3}(?:akong|ako)|"
              r"tawag\s+(?:nila\s+)?sa\s+akin|"
              r"ano\s+(?:po\s+)?(?:ang|yung|pong)\s+pangalan|anong\s+pangalan|"
              r"pangalan\s+(?:mo|niyo|nyo|ninyo|po\s+ninyo|po\s+niyo))\b",
    # "ito po si Maria" (this is Maria); "Hi po, si Maricel Dizon ulit" (it's Maricel again: "si" opening its
    # clause, holdout set 12; not "kasama ko si Maria", I'm with Maria)
    "weak_naming": r"ito(?:\s+po)?\s+si|(?:^|[,.!]\s*)(?:po\s+)?si",
    # "si Maria po ito", "Maria ako", "Jun na lang po itawag niyo sa akin" (call me Jun)
    "weak_naming_after": r"(?:po\s+)?(?:ito|ako)|(?:na\s+lang\s+)?(?:po\s+)?itawag\s+(?:mo|niyo|nyo|ninyo)\s+sa\s+akin",
    "forget_nouns": {"name": r"\bpangalan"},
    # "nakatira ako kasama ang asawa ko": a person the user is with is no subject
    "companion": r"\bkasama(?:\s+(?:ko|namin))?(?:\s+(?:ang|ng|si|sina|yung))?",
    # hearsay "daw", "sabi ni/ng ..." (... says); not "raw", which English mixed in says ("raw oysters")
    "reported_speech": r"\b(?:daw|sabi\s+(?:ni|ng|niya|nya|nila|sa\s+akin)|sinabi\s+(?:ni|ng|niya|nya|nila)|"
                       r"ayon\s+(?:kay|kina|sa))\b",
    # "anak ko", "asawa ko", "kaibigan kong si ...", "yung boss niya"; "siya"/"sila" or "si Mama" opening.
    "other_person": rf"\b{_RELATIVE}\s+(?:ko|kong|namin|naming|natin|nating|niya|nya|nila)\b"
                    rf"|\b(?:aking|kanyang|kaniyang)\s+{_RELATIVE}\b"
                    r"|^\W*(?:siya|sya|sila|si\s+(?:mama|mami|mommy|papa|daddy|nanay|tatay|ate|kuya|lola|lolo|tita|"
                    r"tito))\b",
    # ... and "ko" as the one who likes or does not ("mahal ko ang asawa ko", "di ko gusto"), never as a possessive
    # ("anak ko", "bahay ko").
    "self": r"\b(?:ako|aq|ako'y|kami|kmi|kame|tayo|(?:mahal|gusto|ayaw|hate|love|like|miss|bet|type|trip|hindi|"
            r"di|d)\s+(?:na\s+)?ko)\b",
    # "pag" as a word ("pag lumipat ako ..."), not "pag-iisipan" nor "Pag-IBIG" (the housing fund); a hedge set off
    # by a comma opening the sentence ("Siguro, lilipat kami sa Cebu") holds all of it.
    # not "kapag"/"pag", as often "when(ever)" as "if": "Kapag gabi, nagtatrabaho ako bilang nurse" is a habit
    "conditional": r"^\W*(?:(?:at|pero|tapos|eh|e)\s+)?(?:kung|sakaling|sakali|kunwari)(?![\w-])"
                   r"|^\W*(?:siguro|baka|malamang)\s*,",
    # "baka" is also a cow ("gatas ng baka", "karneng baka", "mga baka").
    "hedge": r"\b(?:siguro|malamang|yata|ata|marahil|(?<!ng\s)(?<!mga\s)baka|"
             r"(?:hindi|di|d)\s+ako\s+(?:masyadong\s+)?(?:sigurado|sure)|hindi\s+sigurado)\b",
    # a choice left open, a question put off: "pag-iisipan ko" (I'll think about it), "di ko pa alam" (I don't
    # know yet), "hindi ko alam kung" (I don't know whether), "di ako makapagdesisyon", "torn ako between",
    # "babalikan ko kayo" (I'll get back to you), "check ko muna"
    "undecided": r"\b(?:pag-?\s*i?isip(?:an|in)\s+(?:ko|namin|natin)|i?isipin\s+(?:ko|namin)|"
                 r"mag-?\s*i?isip\s+(?:muna\s+|pa\s+)?(?:ako|kami)|"
                 r"(?:hindi|di|d)\s+(?:ko|namin)\s+pa\s+alam|(?:hindi|di|d)\s+(?:ko|namin)\s+alam\s+kung|"
                 r"(?:hindi|di|d)\s+pa\s+(?:ako|kami)\s+(?:sure|sigurado|decided|nakakapag-?\s*desisyon|"
                 r"nakapag-?\s*desisyon|nakakapag-?\s*decide|nakapag-?\s*decide|nakapili|nakakapili)|"
                 r"(?:hindi|di|d)\s+(?:ako|kami)\s+(?:maka|makapag)-?\s*(?:desisyon|decide|pili)|"
                 r"nag-?\s*aalangan|nagdadalawang-?\s*isip|torn\s+(?:ako\s+|kami\s+)?between|"
                 r"(?:nalilito|naguguluhan)\s+(?:ako|kami)\s+(?:kung|between)|"
                 r"(?:i-?)?de-?decide\s+(?:ko|namin)|decide\s+(?:ko|namin)\s+(?:na\s+lang\s+)?"
                 r"(?:later|mamaya|bukas|next)|"
                 r"(?:babalikan|balikan)\s+(?:ko|namin)\s+(?:po\s+)?(?:kayo|ka)|balitaan\s+(?:ko|kita|namin)|"
                 r"(?:titingnan|tingnan|titignan|tignan|check(?:in)?|i-?check)\s+(?:ko|namin)\s+(?:po\s+)?(?:muna|pa)|"
                 r"saka\s+na\s+lang)\b",
    # "taga-Cebu ako" (from Cebu), "dito ako sa Makati"
    "living": r"\b(?:nakatira|naka-?tira|tumira|tumitira|titira|nanirahan|naninirahan|maninirahan|lumipat|lilipat|"
              r"lumilipat|nakalipat|nakabase|naka-?base|nag-?move|mag-?move|"
              r"dito\s+(?:na\s+)?(?:po\s+)?(?:ako|kami)\s+(?:nakatira\s+)?sa|bahay\s+(?:ko|namin)|"
              r"(?:aking|aming)\s+bahay|sa\s+amin\s+sa)\b"
              r"|\btaga-\w|\btaga\s+(?-i:[A-Z])",
    "stance": r"\b(?:gust[ou]\w*|adik|ayoko|ayaw\w*|mahal\s+(?:na\s+mahal\s+)?(?:ko|namin|natin)|paborit\w*|"
              r"favou?rit\w*|fave|fav|(?:ma)?hilig|bet\s+(?:ko|na\s+bet)|trip\s+ko|type\s+ko|hate\s+ko|love\s+ko|"
              r"like\s+ko|kinaiinisan|naiinis\s+(?:ako|kami)\s+sa)\b",
    # "san" (where) is not "San Juan", "San Pablo": a place
    "interrogative": r"^\W*(?:(?:at|pero|tapos|eh|e)\s+)?(?:ano|anong|anu|anung|saan|saang|san(?!\s+(?-i:[A-Z]))|"
                     r"nasaan|nasan|asan|"
                     r"kailan|kelan|bakit|bat|ba't|sino|sinong|alin|aling|paano|pano|papaano|magkano|ilan|ilang|"
                     r"gaano|gano|kanino|pwede|puwede|pede|pwedeng|puwedeng|pedeng|paki(?!stan)\w*)\b",
    # "ba" asks wherever it stands in the clause that ends the question ("May branch ba kayo sa Cebu?", "Gusto niyo
    # po bang ...?"), not in a clause before it ("Nurse ako, may discount ba kayo?" states a job).
    "question_word_inside": r"\b(?:ba|bang)\b",
    # ... and with a question word before it, even without a question mark ("san po ba yung branch niyo"); not
    # "ano ba" (come on).
    "question_unmarked": r"^\W*(?!ano\s+ba\b)(?:ano|anong|saan|saang|san(?!\s+(?-i:[A-Z]))|nasaan|nasan|asan|"
                         r"kailan|kelan|bakit|sino|"
                         r"paano|pano|magkano|ilan|ilang|pwede|puwede|pede|may|meron|mayroon)\b[^.!?]*"
                         r"\b(?:ba|bang)\b[^.!]*$",
    "request": r"^\W*(?:pwede|puwede|pede|paki)",
    "standing": r"\b(?:simula\s+ngayon|mula\s+ngayon|palagi|lagi|tuwing|"
                r"tawagin\s+(?:mo|niyo|nyo|ninyo)\s+(?:(?:po|na|lang)\s+){0,3}(?:akong|ako))\b",
    "kidding": r"\b(?:charot|chariz|charing|joke\s+lang|biro\s+lang|de\s+joke|chos|echos)\b",
    "pleasantry_words": "salamat maraming marami thank you thanks ty tysm po ho hello hi helo hey kumusta kamusta "
                        "magandang umaga hapon tanghali gabi araw paalam ingat bye babay god bless pls please "
                        "sa tulong noted",
    # "opo" and "sige" alone answer an offer: fillers, not pleasantries (a bare pleasantry says nothing).
    "filler_words": "oo opo oho sige ah eh uhm um ay naku hala ahh ayun bale",
    "clause_joiner": r"\s+(?:at|pero|tapos|kaso|habang|samantalang)\s+",
    # Opening the message, alone or with a particle ("sige po", "opo", "go na po", "game ako", "pwede po").
    "assent": r"^\s*" + _NOT_AFTER_ASSENT
              + r"(?:(?:oo|opo|oho|oks|sige|tara|gora|ayos|okay|okey|ok|sure|yes|yup|yep)(?!\w)|"
                r"go" + _ALONE + r"|go\s+(?:na|po)\b|game(?=\s*(?:ako|kami|po|na)?\s*(?:[,.!]|$))|"
                r"(?:pwede|puwede|pede)" + _ALONE + r"|deal" + _ALONE + r"|payag\s+(?:ako|kami))",
    "negation": r"\b(?:hindi|hinde|di|wag|huwag|ayaw|ayoko|wala|walang)\b|\bd(?=\s+(?:ko|ako|na|pa|namin|kami)\b)",
    "decided": r"\b(?:napagdesisyunan|napagdesisyonan|napagpasyahan|nagdesisyon\s+(?:na\s+)?(?:ako|kami)|"
               r"nag-?\s*decide\s+(?:na\s+)?(?:ako|kami)|decided\s+na|desidido|final\s+na|"
               r"nakapag-?\s*desisyon\s+na)\b",
    # A fact whose subject is a relative or friend of the user ("Ang kapatid ng user ay nakatira sa Davao.").
    "fact_other_person": r"^\s*(?:ang\s+|yung\s+)?(?:anak|asawa|kapatid|nanay|tatay|ina|ama|kaibigan|misis|mister|"
                         r"lola|lolo|tita|tito|pinsan|magulang)\s+ng\s+(?:user|gumagamit)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\b(?:hindi|di|d)\s+(?:ko\s+)?na\s+(?:ko\s+)?(?:gusto|bet|type|hilig)\b"
                 r"|\b(?:hindi|di)\s+na\s+ako\s+(?:mahilig|fan)\b",  # not "ayoko na" (I can't stand it any more)
    "travel": r"\b(?:bakasyon|magbabakasyon|nagbakasyon|mag-?bakasyon|biyahe|byahe|bibiyahe|pasyal|mamasyal|"
              r"outing|out\s+of\s+town)\b",
    "origin": r"\b(?:lumaki\s+(?:ako|kami)|ipinanganak|pinanganak|isinilang|sinilang|probinsya\s+ko|"
              r"probinsiya\s+ko)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*",
        "phone": r"\btawag\w*|\btumawag\w*|\bphone\b",
        "sms": r"\btext\w*|\btxt\w*|\bsms\b",
    },
}
