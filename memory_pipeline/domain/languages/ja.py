"""Japanese: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Written without spaces:
no pattern leans on \\b (domain/languages/zh.py does the same), a question is told by its question word or particle
before the question mark (`question_particle`), a pleasantry by one run of polite words (`pleasantry_whole`).
Living words but no naming or stance words: the gates that reject for a missing one let Japanese through to the
checks of every language."""

_PERSON = (r"(?:夫|妻|主人|旦那|嫁|兄|姉|弟|妹|母|父|お母さん|お父さん|母親|父親|息子|娘|友達|友人|同僚|上司|彼氏|彼女|"
           r"両親|家族|祖母|祖父|いとこ|従兄弟|従姉妹|隣人)")

LEXICON = {
    "reported_speech": r"と言(?:って|った|われ)|って言(?:って|った)|と聞いた|によると",
    # Another person as the subject: the noun with its topic or subject particle ("姉は京都に住んでいます"); one
    # the user lives with takes と ("妹と住んでいます") and is no subject.
    # ... or named after it with an honorific ("同僚の田中さんが転職して": my colleague Tanaka changed jobs; not
    # "母の料理が一番好き", I love my mother's cooking).
    "other_person": rf"(?:(?:私|僕|俺|わたし)の|うちの)?{_PERSON}(?:の[^\s、。の]{{1,8}}?(?:さん|くん|ちゃん|様)|さん)?(?:は|が)|"
                    r"^\W*彼(?:女|ら)?(?:は|が)|"
                    # someone's contact detail ("妻のメールはhanako@gmail.comです。": my wife's email; a break-it review)
                    rf"{_PERSON}の(?:メール|アドレス|電話|番号|住所|連絡先)",
    "self": r"私(?!の)|わたし(?!の)|僕(?!の)|ぼく(?!の)|俺(?!の)|自分",
    "conditional": r"もし|仮に|万が一|(?:たら|だら|れば)[、,]",
    "hedge": r"かもしれ|たぶん|多分|おそらく|恐らく|確かではない|よくわから",
    "assent": r"^\s*(?:はい|ええ|うん|お願いします|了解)",
    "undecided": r"考えておきます|考えてみます|考えさせて|検討します|検討してみます|[かで]迷って|まだ決めて(?:い)?ない|"
                 r"まだ決まって(?:い)?ない|(?:後で|あとで|来週|来月)決め",
    "living": r"住|引っ越|引越|暮らし|暮らす|在住|実家|自宅",
    "interrogative": r"^\W*(?:何|なに|なん|どこ|いつ|誰|だれ|どう|どれ|どの|どちら|なぜ|どうして|いくら)",
    "question_particle": r"(?:か|の|何|なに|なん|どこ|いつ|誰|だれ|どう|どれ|どの|どちら|なぜ|いくら)[^。！]*[?？]\s*$",
    "pleasantry_whole": r"^(?:本当に|どうも|ありがとう|ございます|ございました|すみません|こんにちは|こんばんは|おはよう|"
                        r"よろしく|お願いします|お願いいたします|さようなら|了解です|了解しました|"
                        r"さんきゅ|サンキュー?|あざす|あざっす|ありがと)+[〜~ー!！]*$",  # and as casual chat types thanks
    "pleasantry_words": "ありがとう ありがとうございます ありがとうございました どうも すみません 助かりました 助かります "
                        "よろしくお願いします",
    # the reading comma and "but" end a clause ("妹は京都に住んでいて、私は大阪に住んでいます")
    "question_tail": r"^\W*(?:それとも|または|ですよね|よね|でしょう|だよね)",
    "question_clause_end": r"(?:か|かな|かしら)\W*$",
    "one_off": r"今回だけ|今回のみ|今日だけ",
    "former": r"以前|昔|前は|かつて",
    "desire": r"たい|希望|夢",
    "clause_joiner": r"、|けど|けれども?",
    "decided": r"(?:決めました|決めた|決定しました|にしました)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"もう(?!一つ|ひとつ).{0,8}好きじゃ|もう(?!一つ|ひとつ).{0,8}好きでは|好きじゃなくなった|好きではなくなった",
    "travel": r"旅行|観光|遊びに行",
    "origin": r"育ち|育った|生まれ|出身|地元",
    "channel_names": {"email": r"メール", "phone": r"電話", "line": r"(?<!オン)ライン", "sms": r"ショートメール|ショートメッセージ"},
    "negation": r"ない|なく|ません|しないで|やめて",
}
