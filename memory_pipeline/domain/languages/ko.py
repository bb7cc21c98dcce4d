"""Korean: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Particles are written
joined to their noun ("여동생은"), so a word is bounded by "not a Hangul syllable" rather than \\b where a particle
may follow. Living words but no naming or stance words: the gates that reject for a missing one let Korean through
to the checks of every language."""

_H = r"[\uac00-\ud7af]"  # a Hangul syllable

_RELATIVES = (r"(?:남편|아내|와이프|부인|형|오빠|누나|언니|남동생|여동생|동생|엄마|어머니|아빠|아버지|아들|딸|친구|동료|상사|"
              r"남자\s?친구|여자\s?친구|남친|여친|부모님|이웃|사촌|할머니|할아버지)")

LEXICON = {
    "reported_speech": r"(?:다|라)고\s*(?:했|말했|하더|들었)",
    # Another person as the subject: the noun with its topic or subject particle ("제 여동생은 대구에 살아요"); one
    # the user lives with takes 과/와/하고/랑 ("남편과 살아요") and is no subject.
    "other_person":
        rf"(?<!{_H})(?:(?:제|내|우리|저희)\s*)?{_RELATIVES}(?:은|는|이|가|께서)(?!{_H})"
        # casual speech drops the particle, then a word of time follows the subject ("우리 언니 이번에 서울로 이사
        # 갔어": my sister moved to Seoul this time), where a noun follows a possessive ("제 남편 직장": his job)
        rf"|(?<!{_H})(?:제|내|우리|저희)\s*{_RELATIVES}\s+(?:이번에|요즘|어제|오늘|작년에|올해|최근에|지난주에|"
        rf"지난달에|얼마\s*전에)(?!{_H})"
        rf"|^\W*(?:그는|그녀는|그가|그녀가|그들은)(?!{_H})",
    "self": rf"(?<!{_H})(?:저는|저도|제가|저를|나는|나도|내가|저희는|저희가|우리는|우리가)(?!{_H})",
    "conditional": rf"(?<!{_H})(?:만약|만일|가령)(?!{_H})|(?<={_H})다면(?=[\s,，]|$)",
    "hedge": rf"(?<!{_H})(?:아마|아마도|어쩌면)(?!{_H})|수도 있|확실하지 않|잘 모르겠",
    "assent": r"^\s*(?:네|예|응|좋아요|그렇게 해|해 주세요|해주세요)",
    "undecided": r"(?:생각|고민)해\s*(?:볼게|보겠|봐야)|고민\s*중|고민하고\s*있|아직\s*(?:결정|정하)지\s*(?:않|못)|"
                 r"아직\s*모르겠|나중에\s*(?:결정|정할)|다음\s*(?:주|달)에\s*(?:결정|정할)",
    "living": r"살아|살고|삽니다|살았|사는|이사|거주|(?:우리|저희|제)\s*집|(?:^|[.!?,]\s*)집(?:이|은)\s",  # "집이 마포라서", not "친구 집이"
    "interrogative": rf"^\W*(?:뭐|무엇|무슨|어디|언제|왜|누가|누구|어느|어떤|어떻게|얼마|몇)",
    "question_particle": rf"{_H}\s*[?？]\s*$",  # a Korean sentence ending in a question mark asks
    "pleasantry_words": "감사합니다 감사해요 고맙습니다 고마워요 고마워 정말 진짜 너무 대단히 많이 안녕하세요 안녕히 "
                        "계세요 가세요 수고하세요",
    "question_tail": r"^\W*(?:아니면|혹은|또는|맞죠|맞지|그렇죠|그렇지|맞나요)",
    "question_clause_end": r"(?:까|냐|나요)\W*$",
    "one_off": r"이번만|이번\s*한\s*번만|오늘만",
    "former": r"예전에|전에는|옛날에",
    "desire": r"싶|희망",
    "clause_joiner": r"\s+(?:그리고|하지만|그런데|근데)\s+|(?<=[가-힣]고)(?<!최고|광고|창고|참고|사고)\s+|(?<=지만)\s+|(?<=는데)\s+",
    "decided": r"(?:결정했|하기로 했)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"더 이상 (?:안 )?좋아하지 않|이제 (?:안 )?좋아하지 않|더 이상 좋아하지",
    "travel": r"여행|놀러|관광|출장|휴가",
    "origin": r"자랐|태어났|출신|고향",
    "channel_names": {"email": r"이메일|메일", "phone": r"전화", "sms": r"문자", "kakaotalk": r"카톡|카카오톡", "line": r"(?<!온)라인"},
    "negation": r"안\s|않|없|말고|마세요|아니",
}
