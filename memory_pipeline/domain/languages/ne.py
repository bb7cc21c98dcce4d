"""Nepali: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 18 after a
1.5B model filed "त्यसै" ("just", in "केही छैन, त्यसै हेलो भन्न आएको": nothing, just came to say hello) as the user's
name: Devanagari has no capital letters to tell a name by, so with naming words a Nepali name needs one ("मेरो नाम")
or a question for it. A word is bounded by "not a Devanagari letter or sign" (`_D`), as in Hindi. No stance words."""

_D = r"[\u0900-\u097f]"  # Devanagari

# Hindi, written in the same script and close enough that a short line is told apart by chance ("बहुत बहुत
# धन्यवाद!" scores Nepali first): its words read a line of this language too.
READ_WITH = ("hi",)

LEXICON = {
    "other_person":
        rf"(?<!{_D})(?:मेरो|मेरा|मेरी|हाम्रो|हाम्रा)\s+(?:श्रीमान्|श्रीमती|दाइ|भाइ|दिदी|बहिनी|आमा|बुबा|बाबा|छोरा|छोरी|"
        rf"साथी|हाकिम|सहकर्मी|छिमेकी|आमाबुबा)(?!{_D})|^\W*(?:उ|उनी|उनीहरू|त्यो)(?!{_D})",
    "self": rf"(?<!{_D})(?:म|मैले|मलाई|मेरो|हामी|हामीले|हामीलाई)(?!{_D})",
    "conditional": rf"^\W*(?:यदि|अगर)(?!{_D})",
    "hedge": rf"(?<!{_D})(?:सायद|होला|पक्का छैन|थाहा छैन)(?!{_D})",
    "undecided": r"सोचेर भन्छु|सोच्छु|विचार गर्छु|अझै निर्णय गरेको छैन|पछि भन्छु",
    "naming": r"मेरो नाम|नाम चाहिँ",
    "forget_nouns": {"name": r"नाम"},
    "living": rf"बस्छु|बस्छौं|बस्छौँ|बस्दै छु|सरें|सरेँ|सरेको|(?<!{_D})(?:घर)(?!{_D})",
    "interrogative": rf"^\W*(?:के|कहाँ|कहिले|किन|को|कसरी|कस्तो|कति|कुन)(?!{_D})",
    "pleasantry_words": "धन्यवाद नमस्ते नमस्कार हेलो हाय ठिक छ हुन्छ शुभ दिन रात बिहानी",
    "clause_joiner": r"\s+(?:र|तर|अनि)\s+",
}
