"""Telugu: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 19: a 1.5B model filed "మా చెల్లి బెంగళూరులో ఇన్ఫోసిస్‌లో పనిచేస్తుంది" (our younger sister works at Infosys in
Bengaluru) as the user's job, and no Telugu word was known. A word is bounded by "not a Telugu letter or sign"
(`_T`): Python's \\b does not see a vowel sign as part of a word. Telugu joins case endings to the noun
("చెల్లికి", to my sister): a relative is a word start. Telugu has no capital letters to tell a name by, so
with naming words a Telugu name needs one ("నా పేరు") or a question for it. No stance words."""

_T = r"[\u0c00-\u0c7f]"  # Telugu

LEXICON = {
    "other_person":
        rf"(?<!{_T})(?:నా|మా|మన)\s+(?:అమ్మ|నాన్న|చెల్లి|చెల్లెలు|అక్క|అన్న|తమ్ముడు|తమ్ముడి|భార్య|భర్త|కొడుకు|"
        rf"కూతురు|స్నేహితు|ఫ్రెండ్|అత్త|మామయ్య|బావ|తాత|అమ్మమ్మ|నానమ్మ|పిల్లలు|బాస్|కొలీగ్|పక్కింటి)"
        rf"|^\W*(?:తను|అతను|ఆమె|వాళ్ళు|వారు|ఆయన)(?!{_T})",
    "self": rf"(?<!{_T})(?:నేను|నాకు|నన్ను|నా|మేము|మాకు|మమ్మల్ని|మనం)(?!{_T})",
    "conditional": rf"^\W*(?:ఒకవేళ|ఒక\s+వేళ)(?!{_T})",
    "hedge": rf"(?<!{_T})(?:బహుశా|ఏమో|ఖచ్చితంగా\s+తెలియదు)(?!{_T})",
    "undecided": r"ఆలోచిస్తాను|ఆలోచించి\s+చెప్తాను|ఆలోచించి\s+చెబుతాను|ఇంకా\s+నిర్ణయించుకోలేదు|ఇంకా\s+డిసైడ్\s+చేయలేదు|"
                 r"తర్వాత\s+చెప్తాను|తర్వాత\s+చెబుతాను",
    "naming": r"నా\s+పేరు|పేరు",
    "forget_nouns": {"name": r"పేరు"},
    "living": rf"ఉంటాను|ఉంటున్నాను|ఉంటాము|ఉంటున్నాము|నివసిస్తున్నాను|నివాసం|మారాను|మారాము|షిఫ్ట్\s+అయ్యాను|"
              rf"(?<!{_T})(?:మా|నా)\s+ఇల్లు|(?<!{_T})ఇంట్లో",
    "interrogative": rf"^\W*(?:ఏమి|ఏం|ఎక్కడ|ఎప్పుడు|ఎందుకు|ఎవరు|ఎలా|ఎంత|ఏది|ఏ)(?!{_T})",
    "pleasantry_words": "ధన్యవాదాలు థాంక్స్ థాంక్యూ నమస్తే నమస్కారం హలో హాయ్ సరే ఓకే బై",
    "clause_joiner": r"\s+(?:మరియు|కానీ|అయితే)\s+",
}
