"""Hebrew: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Hebrew joins its
prepositions and "and" to the next word ("בתל אביב", "ואם"), so most entries are matched without word boundaries
on their left ("מה ש..." is "what ...", a relative clause, not a question). Added for issue 25 after a 1.5B model filed "אני" ("I", in "אני צריך עזרה": I need help) as the
user's name: with naming words, a Hebrew name needs one ("קוראים לי", "שמי")."""

LEXICON = {
    "reported_speech": r"(?:אמר|אמרה|אמרו|סיפר|סיפרה|סיפרו|טוען|טוענת)\s+ש",
    "other_person":
        r"(?:אשתי|בעלי|אחי|אחותי|אמא שלי|אבא שלי|הבן שלי|הבת שלי|החבר שלי|החברה שלי|חבר שלי|חברה שלי|הבוס שלי|"
        r"השכן שלי|השכנה שלי|ההורים שלי|סבתא שלי|סבא שלי)|^\W*(?:הוא|היא|הם|הן)(?!\w)",
    "self": r"(?<!\w)(?:ו|ש|כש)?(?:אני|אנחנו|אותי|לי|שלי)(?!\w)",  # "ואני": and I
    "conditional": r"^\W*(?:אבל\s+)?ו?(?:אם|לו)(?!\w)",
    "hedge": r"(?:אולי|כנראה|לא בטוח|לא בטוחה)",
    "assent": r"^\s*(?:כן|בסדר|אוקיי|סבבה|בטח)(?!\w)",
    "undecided": r"(?:אחשוב על זה|אני אחשוב|צריך לחשוב|צריכה לחשוב|עוד לא החלטתי|מתלבט|מתלבטת)",
    "living": r"(?:גר|גרה|גרים|גרות|חי|חיה|חיים|מתגורר|מתגוררת|עברתי|עברנו|עוברים)(?!\w)",
    "naming": r"(?:קוראים לי|תקראו לי|תקרא לי|שמי|השם שלי)",
    "weak_naming": r"אני|מדבר|מדברת",  # "מדבר אבי" (Avi speaking)
    "interrogative": r"^\W*(?:מה(?!\s*ש)|איפה|מתי|למה|מי|איך|כמה|האם|איזה|איזו)(?!\w)",
    "forget_nouns": {"name": r"שם|השם|קוראים לך"},
    "pleasantry_words": "תודה רבה שלום היי בוקר טוב ערב לילה להתראות ביי סבבה",
    "clause_joiner": r"\s+(?:אבל|אך)\s+",
    "decided": r"(?:החלטתי|החלטנו)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"כבר לא (?:אוהב|אוהבת)",
    "travel": r"טיול|נסיעה|חופשה|ביקור|לבקר",
    "origin": r"גדלתי|נולדתי",
    "channel_names": {"email": r"מייל|אימייל|דוא\"ל|דואל", "phone": r"טלפון|להתקשר", "whatsapp": r"וואטסאפ|ווטסאפ"},
    "negation": r"(?<!\w)(?:לא|אל|אין)(?!\w)",
}
