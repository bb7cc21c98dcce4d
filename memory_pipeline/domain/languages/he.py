"""Hebrew: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Hebrew joins its
prepositions and "and" to the next word ("בתל אביב", "ואם"), so most entries are matched without word boundaries
on their left. Added for issue 25 after a 1.5B model filed "אני" ("I", in "אני צריך עזרה": I need help) as the
user's name: with naming words, a Hebrew name needs one ("קוראים לי", "שמי")."""

LEXICON = {
    "reported_speech": r"(?:אמר|אמרה|אמרו|סיפר|סיפרה|סיפרו|טוען|טוענת)\s+ש",
    "other_person":
        r"(?:אשתי|בעלי|אחי|אחותי|אמא שלי|אבא שלי|הבן שלי|הבת שלי|החבר שלי|החברה שלי|חבר שלי|חברה שלי|הבוס שלי|"
        r"השכן שלי|השכנה שלי|ההורים שלי|סבתא שלי|סבא שלי)|^\W*(?:הוא|היא|הם|הן)(?!\w)",
    "self": r"(?<!\w)(?:אני|אנחנו|אותי|לי|שלי)(?!\w)",
    "conditional": r"^\W*(?:אבל\s+)?ו?(?:אם|לו)(?!\w)",
    "hedge": r"(?:אולי|כנראה|לא בטוח|לא בטוחה)",
    "assent": r"^\s*(?:כן|בסדר|אוקיי|סבבה|בטח)(?!\w)",
    "undecided": r"(?:אחשוב על זה|אני אחשוב|צריך לחשוב|צריכה לחשוב|עוד לא החלטתי|מתלבט|מתלבטת)",
    "living": r"(?:גר|גרה|גרים|גרות|מתגורר|מתגוררת|עברתי|עברנו|עוברים)(?!\w)",
    "naming": r"(?:קוראים לי|שמי|השם שלי)",
    "interrogative": r"^\W*(?:מה|איפה|מתי|למה|מי|איך|כמה|האם|איזה|איזו|אפשר|יש)(?!\w)",
    "pleasantry_words": "תודה רבה שלום היי בוקר טוב ערב לילה להתראות ביי סבבה",
    "clause_joiner": r"\s+(?:אבל|אך)\s+",
    "decided": r"(?:החלטתי|החלטנו)",
}
