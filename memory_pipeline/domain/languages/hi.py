"""Hindi: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Python's \\b falls inside a
Devanagari word (before a vowel sign), so a word is bounded by "not a Devanagari letter or sign" (`_D`); a question
word mostly stands inside the question ("आप कहाँ रहते हैं?"): `question_particle`. Living words but no naming or
stance words: the gates that reject for a missing one let Hindi through to the checks of every language."""

_D = r"[\u0900-\u097f]"  # Devanagari

LEXICON = {
    # Words of Hindi (and Urdu) written in Latin letters that no language of the Latin script writes so: three of
    # them tell a romanised line (domain/language.py), which the model of languages reads as Indonesian, Estonian
    # or Somali ("ek baat, agar kabhi Bangalore transfer ho gaya toh ... milenge kya?").
    # (not "toh", "gaya": Indonesian; "wali", "wala": Swahili; "thi", "tha": unaccented Vietnamese; "hai", which
    # is Indonesian "hi" and Vietnamese "two", counts with two others)
    "romanised_words": "hai hain hoon kya kyun nahi nahin nhi mujhe mera meri mere bhi aur karna karo karke kabhi kuch "
                       "bahut accha acha haan chahiye chahte sakta sakti matlab abhi yaar bhai",
    "reported_speech": r"(?:कहा|बताया|कहती है|कहता है|कहते हैं)\s+कि",
    "other_person":
        rf"(?<!{_D})(?:मेरे|मेरी|मेरा|हमारे|हमारी|हमारा)\s+(?:पति|पत्नी|भाई|बहन|माँ|मां|मम्मी|माता जी|पिता|पिताजी|पापा|"
        rf"बेटा|बेटी|बेटे|बच्चे|दोस्त|मित्र|सहेली|बॉस|सहकर्मी|पड़ोसी|माता-पिता|चाचा|चाची|मामा|मामी|बुआ|मौसी|"
        rf"दादा|दादी|नाना|नानी|भैया|दीदी)(?!{_D})|^\W*(?:वह|वो|वे|उसने|उन्होंने)(?!{_D})",
    "self": rf"(?<!{_D})(?:मैं|मैंने|मुझे|मुझको|मुझसे|हम|हमने|हमें)(?!{_D})",
    "conditional": rf"^\W*(?:(?:और|लेकिन)\s+)?(?:(?:मैं|हम)\s+)?(?:अगर|यदि)(?!{_D})"
                   r"|^\W*(?:(?:aur|lekin|par)\s+)?(?:(?:main|mai|hum)\s+)?(?:agar|agr|yadi)\b",  # and in Hinglish
    "hedge": rf"(?<!{_D})(?:शायद|संभवतः|पक्का नहीं|पता नहीं|यकीन नहीं|निश्चित नहीं)(?!{_D})",
    # "सोचूँगा" is written with chandrabindu or anusvara; "फ़ैसला" with or without its nukta
    "assent": r"^\s*(?:हाँ|हां|जी हाँ|ठीक है|ज़रूर|जरूर)|^\s*(?:haa?n|ha+n\s+ji|ji\s+haa?n|the?e?k\s+hai|zaroor|jaroor)\b"
              # ... and as Hinglish writes it, not before "leave it", "I'll think", "later", "no"
              r"(?![^.!?]{0,20}\b(?:rehne\s+do|soch|baad\s+mein?|nahi|nahin)\b)",
    "undecided": r"सोचू[ँं]ग[ाी]|सोच\s*कर\s*बताऊ[ँं]ग[ाी]|सोचना पड़ेगा|सोचने दीजिए|सोचने दो|अभी तय नहीं|"
                 r"तय नहीं किया|फ\u093c?ैसला नहीं|बाद में तय|बाद में बताऊ[ँं]ग[ाी]|दुविधा में",
    "living": rf"रह(?:त[ाीे]|न[ाेी])|रह\s+रह[ाीे]|बस\s+ग[एई]|शिफ\u093c?्ट|(?<!{_D})(?:घर|निवास)(?!{_D})"
               r"|\breh(?:ta|ti)\s+h(?:oo|u)n?\b|\breh\s+rah[ai]\s+h(?:oo|u)n?\b|\bshift\s+ho\s+ga(?:ya|yi|ye)\b",  # Hinglish "I live": "main Pune mein rehta hoon"
    "interrogative": rf"^\W*(?:क्या|कहाँ|कहां|कब|क्यों|कौन|कैसे|कितना|कितनी|कितने)(?!{_D})",
    # ... and as Hinglish and Roman Urdu write them ("acha aur personal trainer ke sath kitna banta hai?": and how
    # much with a personal trainer? - a 1.5B model's job "trainer", holdout6, read after its figure).
    "question_particle": rf"(?:(?<!{_D})(?:क्या|कहाँ|कहां|कब|क्यों|कौन|कौनसा|कैसे|कैसा|कैसी|कितना|कितनी|कितने)(?!{_D})"
                         r"|\b(?:kya|kahan|kahaan|kyun|kyon|kaun|kaunsa|kaise|kaisa|kaisi|kitna|kitni|kitne)\b)"
                         r"[^।!]*[?？]\s*$",
    "pleasantry_words": "धन्यवाद शुक्रिया बहुत आपका नमस्ते नमस्कार ठीक है अलविदा जी shukriya shukria dhanyavad dhanyavaad",
    "clause_joiner": r"\s+(?:और|लेकिन|मगर|जबकि)\s+",
    "decided": r"(?:फ़ैसला किया|फैसला किया|तय किया)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"अब(?!\s+भी)\s+(?:\S+\s+){0,4}पसंद नहीं|(?<![a-z])ab(?!\s+bhi)\s+(?:\w+\s+){0,4}pasand\s+(?:nahi|nahin|nhi)\b",
    "travel": r"यात्रा|घूमने|सफर|सफ़र|छुट्टी|छुट्टियों|ट्रिप|टूर",
    "origin": r"पला|पली|बड़ा हुआ|बड़ी हुई|पैदा|जन्म",
    "channel_names": {
        "email": r"ईमेल|मेल",
        "phone": r"फ़ोन|फोन|कॉल",
        "sms": r"एसएमएस|मैसेज",
        "whatsapp": r"व्हाट्सएप|व्हाट्सऐप",
    },
    "negation": r"नहीं|मत|(?<![a-z])(?:nahi|nahin|nhi|mat)\b",
}
