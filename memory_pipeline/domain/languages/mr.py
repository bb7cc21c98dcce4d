"""Marathi: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 18 after a
1.5B model filed "मला माझ्या" ("to me, my", in "नमस्कार, मला माझ्या क्लासच्या जाहिरातीसाठी मदत हवी आहे") as the user's
name: Devanagari has no capital letters to tell a name by, so with naming words a Marathi name needs one ("माझं नाव")
or a question for it. A word is bounded by "not a Devanagari letter or sign" (`_D`), as in Hindi. No stance words."""

_D = r"[\u0900-\u097f]"  # Devanagari

# Hindi, written in the same script and close enough that a short line is told apart by chance ("बहुत बहुत
# धन्यवाद!" scores Nepali first): its words read a line of this language too.
READ_WITH = ("hi",)

LEXICON = {
    "other_person":
        rf"(?<!{_D})(?:माझा|माझी|माझे|माझं|आमचा|आमची|आमचे)\s+(?:नवरा|बायको|भाऊ|बहीण|आई|वडील|बाबा|मुलगा|मुलगी|"
        rf"मित्र|मैत्रीण|बॉस|सहकारी|शेजारी|आईवडील)(?!{_D})|^\W*(?:तो|ती|ते|त्या)(?!{_D})",
    "self": rf"(?<!{_D})(?:मी|मला|माझा|माझी|माझे|माझं|आम्ही|आम्हाला)(?!{_D})",
    "conditional": rf"^\W*(?:जर|जरी)(?!{_D})",
    "hedge": rf"(?<!{_D})(?:कदाचित|बहुतेक|नक्की नाही|माहीत नाही|माहित नाही)(?!{_D})",
    "undecided": r"विचार करते|विचार करतो|विचार करून सांग|अजून ठरवलं नाही|अजून ठरवले नाही|नंतर सांगते|नंतर सांगतो",
    "naming": r"माझं नाव|माझे नाव|माझा नाव|नाव आहे",
    "forget_nouns": {"name": r"नाव"},
    "living": rf"राहतो|राहते|राहतात|राहतोय|राहतेय|शिफ्ट झालो|शिफ्ट झाले|(?<!{_D})(?:घर)(?!{_D})",
    "interrogative": rf"^\W*(?:काय|कुठे|केव्हा|कधी|का|कोण|कसा|कशी|कसे|किती|कोणता|कोणती)(?!{_D})",
    "pleasantry_words": "धन्यवाद नमस्कार नमस्ते हॅलो ठीक आहे शुभ दिवस",
    "clause_joiner": r"\s+(?:आणि|पण|परंतु)\s+",
}
